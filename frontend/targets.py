"""Halide's `hl.Target` as a CGRA program meets it: a target string whose features a ported generator's branches
ask about, and the functions that make one (`hl.get_jit_target_from_environment()`). The hardware target is the
CGRA (mainspring/target.py): `hl.GeneratorContext` takes a Target with Halide-to-Hardware's Clockwork feature
(`hl.Target("host-clockwork")`, its HL_TARGET) as the default array, and `realize` takes any Target, since the
NumPy reference computes what Halide's JIT computes on every CPU."""

from __future__ import annotations

import os

from .errors import HalideError, user_location


class Target:
    """`hl.Target("host-clockwork")`: Halide's target string, arch-bits-os then features, or "host" and features."""

    def __init__(self, target_string: str = "host"):
        if not isinstance(target_string, str) or not target_string:
            raise HalideError(f"{user_location()}: Target({target_string!r}): pass a target string such as "
                              "\"host-clockwork\"")
        self._string = target_string
        self._tokens = frozenset(target_string.lower().split("-"))

    def has_feature(self, feature) -> bool:
        from .generator import TargetFeature

        if not isinstance(feature, TargetFeature):
            raise HalideError(f"{user_location()}: has_feature({feature!r}): pass a member of hl.TargetFeature, "
                              "e.g. hl.TargetFeature.Clockwork")
        return feature.value in self._tokens

    def with_feature(self, feature) -> Target:
        return self if self.has_feature(feature) else Target(f"{self._string}-{feature.value}")

    def to_string(self) -> str:
        return self._string

    def __str__(self) -> str:
        return self._string

    def __repr__(self) -> str:
        return f"Target({self._string!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Target) and other._string == self._string

    def __hash__(self) -> int:
        return hash(self._string)


def get_host_target() -> Target:
    return Target("host")


def get_target_from_environment() -> Target:
    """HL_TARGET, as Halide reads it (Halide-to-Hardware's flows set HL_TARGET=host-clockwork)."""
    return Target(os.environ.get("HL_TARGET") or "host")


def get_jit_target_from_environment() -> Target:
    return Target(os.environ.get("HL_JIT_TARGET") or "host")
