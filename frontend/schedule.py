"""Schedule records: loop transformations per stage (applied in call order) and placement per Func
(independent of call order), as Halide keeps them.

Each stage keeps its current list of loop dimensions, innermost first (Halide's order), so that a call naming
an unknown loop fails at the call, as in Halide. Every record carries the user's source location.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .errors import HalideError, ScheduleError, SourceLoc, did_you_mean, user_location
from .vars import RVar, Var, var_name


class TailStrategy(enum.Enum):
    Auto = "Auto"
    RoundUp = "RoundUp"
    GuardWithIf = "GuardWithIf"
    ShiftInwards = "ShiftInwards"
    Predicate = "Predicate"
    PredicateLoads = "PredicateLoads"
    PredicateStores = "PredicateStores"
    RoundUpAndBlend = "RoundUpAndBlend"
    ShiftInwardsAndBlend = "ShiftInwardsAndBlend"


class MemoryType(enum.Enum):
    Auto = "Auto"
    Heap = "Heap"
    Stack = "Stack"
    Register = "Register"
    GPUShared = "GPUShared"
    GPUTexture = "GPUTexture"
    LockedCache = "LockedCache"
    VTCM = "VTCM"
    AMXTile = "AMXTile"
    GLB = "GLB"
    ROM = "ROM"  # the reference system's extension: a table known at compile time


class Partition(enum.Enum):
    """Halide's loop partitioning policy (`partition`): how a CPU splits a loop's steady state from its edges."""
    Auto = "Auto"
    Never = "Never"
    Always = "Always"


class LoopAlignStrategy(enum.Enum):
    """How `compute_with` aligns the fused loops (accepted; see host_directives.compute_with)."""
    AlignStart = "AlignStart"
    AlignEnd = "AlignEnd"
    NoAlign = "NoAlign"
    Auto = "Auto"


class PrefetchBoundStrategy(enum.Enum):
    """How `prefetch` treats reads past the buffer (accepted; see host_directives.prefetch)."""
    Clamp = "Clamp"
    GuardWithIf = "GuardWithIf"
    NonFaulting = "NonFaulting"


@dataclass(frozen=True, slots=True)
class Split:
    old: str
    outer: str
    inner: str
    factor: int
    tail: TailStrategy
    loc: SourceLoc


@dataclass(frozen=True, slots=True)
class Fuse:
    inner: str
    outer: str
    fused: str
    loc: SourceLoc


@dataclass(frozen=True, slots=True)
class Reorder:
    order: tuple[str, ...]  # innermost first
    loc: SourceLoc


@dataclass(frozen=True, slots=True)
class ForType:
    """unroll / vectorize / parallel of an existing loop."""

    kind: str
    var: str
    loc: SourceLoc
    made: bool = False  # added by the compiler (a scatter's spread, a packed pixel's words), not written by the user


Directive = Split | Fuse | Reorder | ForType


@dataclass(slots=True)
class Dim:
    name: str
    is_rvar: bool


@dataclass(slots=True)
class StageSchedule:
    dims: list[Dim]  # innermost first, without __outermost
    directives: list[Directive] = field(default_factory=list)
    # rename(old, new): the user's name -> the loop's name in dims and directives (so that nothing after the
    # frontend knows about renames; Pipeline resolves compute_at / hw_accelerate names through it too)
    aliases: dict[str, str] = field(default_factory=dict)
    # rename(old, new) where new already names a loop: Halide then matches `new` against both loops, and the alias
    # names the inner one; this names the outer one, which unroll/vectorize/parallel(new) mark too and
    # reorder(new) moves (Halide's choices among the loops a name matches)
    shadows: dict[str, str] = field(default_factory=dict)
    # rename(old, new): a name that no longer names a loop -> (the name the loop took, where). Halide names the loop
    # `old.new`, which `old` does not match, so a later call by `old` fails there ("could not find dimension")
    renamed: dict[str, tuple[str, SourceLoc]] = field(default_factory=dict)

    def dim_names(self) -> list[str]:
        return [d.name for d in self.dims]

    def lane_dims(self) -> set[str]:
        """The loops the stage unrolls or vectorizes (its lanes)."""
        return {dv.var for dv in self.directives if isinstance(dv, ForType) and dv.kind in ("unroll", "vectorize")}

    def rounded_lanes(self, loop: str) -> int:
        """How many lanes a RoundUp split of `loop` unrolls (`unroll(xi, 2, RoundUp)`: 2; 1 if none): the loop's
        extent rounds up to a multiple of them."""
        lanes = self.lane_dims()
        return next((d.factor for d in self.directives if isinstance(d, Split) and d.old == loop
                     and d.inner in lanes and d.tail is TailStrategy.RoundUp), 1)


@dataclass(frozen=True, slots=True, init=False)
class LoopLevel:
    """Where a Func is computed or stored: root, inlined, or a loop of another Func's stage. Made as Halide makes
    one too: `LoopLevel(consumer, xo)`, `LoopLevel.root()`, `LoopLevel.inlined()` (for compute_at / store_at)."""

    kind: str  # "inline" | "root" | "at"
    func: object = None  # the consumer's Function when kind == "at"
    var: str = ""
    loc: SourceLoc | None = None

    def __init__(self, kind="inline", func=None, var: str = "", loc: SourceLoc | None = None):
        if not isinstance(kind, str):  # Halide's LoopLevel(func, var)
            if not hasattr(kind, "_fn") or func is None:
                raise HalideError(f"{user_location()}: LoopLevel(func, var) takes a Func and one of its loop "
                                  f"variables, got {type(kind).__name__}")
            kind, func, var, loc = "at", kind._fn, var_name(func, "LoopLevel"), user_location()
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "func", func)
        object.__setattr__(self, "var", var)
        object.__setattr__(self, "loc", loc)

    @staticmethod
    def root(loc=None) -> LoopLevel:
        return LoopLevel("root", loc=loc)

    @staticmethod
    def inlined() -> LoopLevel:
        return LoopLevel("inline")

    def __str__(self) -> str:
        if self.kind == "at":
            return f"compute_at({self.func.name}, {self.var})"
        return self.kind


@dataclass(slots=True)
class Placement:
    """Func-level schedule: order-independent, as in Halide."""

    compute: LoopLevel = field(default_factory=LoopLevel.inlined)
    store: LoopLevel | None = None  # None: same as compute
    bounds: dict[str, tuple[int | None, int, SourceLoc]] = field(default_factory=dict)  # var -> (min, extent)
    # var -> (modulus, remainder or None): align_bounds (the min too) and align_extent (None: the extent only)
    aligns: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    hw_accelerate: tuple[str, str, SourceLoc] | None = None  # (compute var, store var)
    accelerator_input: SourceLoc | None = None  # stream_to_accelerator() / accelerator_input()
    accelerator_output: SourceLoc | None = None
    memory_type: tuple[MemoryType, SourceLoc] | None = None
    storage_order: tuple[str, ...] | None = None
    estimates: dict[str, tuple[int, int]] | None = None  # var -> (min, extent): set_estimates, for the autoscheduler
    linebuffer: SourceLoc | None = None  # Halide-HLS's linebuffer(): buffered at the accelerator's store loop
    # compute_with(f, var): (f's Function, var, where): its loops fused with f's down to var, so a Func computed at
    # f's loop there encloses this Func's reads too (pipeline.py); one accelerator computes both (fuse_outputs.py)
    compute_with: tuple[Any, str, SourceLoc] | None = None
    # the levels and hw_accelerate that renames.resolve_renames wrote with loops' first names (a rename may have
    # taken such a name from the user, not from them)
    resolved: list[Any] = field(default_factory=list)


def _require_const_int(v, what: str) -> int:
    from . import ir
    from .expr import ExprLike

    if isinstance(v, bool) or not isinstance(v, (int, ExprLike)):
        example = int(v) if isinstance(v, float) and v.is_integer() and v >= 1 else 4
        raise HalideError(f"{user_location()}: {what} must be an integer, got {v!r}; use a Python int "
                          f"(e.g. {example})")
    if isinstance(v, int):
        return v
    node = v._ir()
    if isinstance(node, ir.Const):
        return node.value
    from .bound_domains import known_value

    known = known_value(node)  # an image's size given by set_bounds before this call, or by its held buffer
    if known is not None:
        return known
    raise ScheduleError(f"{user_location()}: {what} must be a constant integer, got {ir.to_string(node)}; hardware "
                        "loops are fixed at compile time: use a Python int (e.g. 4)" + _image_size_hint(node))


def _image_size_hint(node) -> str:
    """Where the value reads an image's size: the other ways to make it known when the call is made."""
    from . import ir
    from .params import Parameter

    for n in ir.walk(node):
        if isinstance(n, ir.Call) and isinstance(n.callee, Parameter) and n.callee.kind == "shape":
            image, _, i = n.callee.owner
            return (f", or make image {image.name()}'s size known before this call: "
                    f"{image.name()}.dim({i}).set_bounds(0, 64) or {image.name()}.set(<the image>)")
    return ""


_TILE_FORMS = {False: (("x", "y", "xo", "yo", "xi", "yi", "xfactor", "yfactor"), ("x", "y", "xi", "yi", "xfactor",
                                                                                  "yfactor")),
               True: (("previous", "outers", "inners", "factors"), ("previous", "inners", "factors"))}


def _tile_arguments(args: tuple, kwargs: dict, vector: bool, where: str) -> dict:
    """tile's arguments by the names of the overload they fit (Halide's parameter names)."""
    for names in _TILE_FORMS[vector]:
        if len(args) + len(kwargs) == len(names) and set(kwargs) <= set(names[len(args):]):
            return {**dict(zip(names, args)), **kwargs}
    forms = " or ".join(f"({', '.join(n)}[, tail])" for n in _TILE_FORMS[vector])
    keywords = f" (keywords {', '.join(kwargs)})" if kwargs else ""
    raise HalideError(f"{where}tile takes {forms}, got {len(args) + len(kwargs)} arguments besides the tail{keywords}")


class StageScheduling:
    """The loop-transformation calls shared by `Func` (its pure stage) and `Stage` (an update)."""

    def _stage(self) -> StageSchedule:  # pragma: no cover
        raise AssertionError("subclass must override _stage")

    def _owner_name(self) -> str:  # pragma: no cover
        raise AssertionError("subclass must override _owner_name")

    def _find(self, name: str, call: str, what: str | None = None) -> int:
        """The index of loop `name`; `what` is Halide's wording of the failure (name substituted for {})."""
        st = self._stage()
        for i, d in enumerate(st.dims):
            if d.name == name:
                return i
        from .reorder_hint import lost_loop

        names = st.dim_names()
        what = (what or "could not find dimension {}").format(name)
        raise ScheduleError(
            f"{user_location()}: In schedule for {self._owner_name()}, {what}\n"
            f"Vars: {' '.join(names + ['__outermost'])}\n(in {call}){lost_loop(st, name) or did_you_mean(name, names)}"
        )

    def _loops(self, args, what: str, existing: int, rest: str = "") -> list[str]:
        """The loops `args` name (through renames, `aliases`). The first `existing` must name a loop now: a name a
        rename took is refused, as Halide 21 refuses it, with the loop's new name as the fix; `rest` is the
        call's other arguments as the message writes them."""
        st = self._stage()
        written = [var_name(a, what) for a in args]
        for n in written[:existing]:
            if n not in st.renamed:
                continue
            new, loc = st.renamed[n]
            now = new
            while now in st.renamed:  # renamed again since
                now = st.renamed[now][0]
            owner = self._owner_name()
            fixed = ", ".join(now if w == n and k < existing else w for k, w in enumerate(written))
            later = "" if now == new else f", then {now}"
            raise ScheduleError(
                f"{user_location()}: In schedule for {owner}, could not find dimension {n} (in {what}("
                f"{', '.join(written)}{rest})): {owner}.rename({n}, {new}) at {loc} renamed that loop {new}{later}, "
                f"and a renamed loop answers to its new name only, as in Halide. Name it {now}: "
                f"{owner}.{what}({fixed}{rest})"
            )
        return [st.aliases.get(n, n) for n in written]

    def _anew(self, v, name: str, old: str) -> str:
        """The loop name for a new loop the user calls `v` (resolved to `name`): a name a rename took from its loop,
        which keeps it inside, gets a name of its own (Halide's old.v), so that the two loops stay apart."""
        st, w = self._stage(), var_name(v, "split")
        if w not in st.renamed or name == old or name not in st.dim_names():
            return name
        st.aliases[w] = f"{old}.{w}"
        return st.aliases[w]

    def _named(self, *args) -> None:
        """Names a split or fuse gives new loops: they name a loop again even if a rename took them before."""
        for a in args:
            self._stage().renamed.pop(var_name(a, "split"), None)

    def split(self, old, outer, inner, factor, tail: TailStrategy = TailStrategy.Auto):
        loc = user_location()
        rest = f", {factor}" if isinstance(factor, int) else ", ..."
        old_n, outer_n, inner_n = self._loops((old, outer, inner), "split", 1, rest)
        f = _require_const_int(factor, f"split({old_n}, {outer_n}, {inner_n}, factor) of {self._owner_name()}: factor")
        if f < 1:
            raise ScheduleError(f"{loc}: In schedule for {self._owner_name()}: split factor {f} must be at least 1")
        st = self._stage()
        i = self._find(old_n, f"split({old_n}, {outer_n}, {inner_n}, {f})", "could not find split dimension: {}")
        outer_n, inner_n = (self._anew(w, n, old_n) for w, n in ((outer, outer_n), (inner, inner_n)))
        if outer_n == inner_n:
            raise ScheduleError(
                f"{loc}: In schedule for {self._owner_name()}, can't split {old_n} into {outer_n} and {inner_n} "
                f"because the new Vars have the same name.\nVars: {' '.join(st.dim_names() + ['__outermost'])}\n"
                f"(in split({old_n}, {outer_n}, {inner_n}, {f}); name the inner loop anew, e.g. "
                f"split({old_n}, {outer_n}, {inner_n}i, {f}))"
            )
        for n in (outer_n, inner_n):
            if n != old_n and n in st.dim_names():
                raise ScheduleError(
                    f"{loc}: In schedule for {self._owner_name()}: split({old_n}, {outer_n}, {inner_n}, {f}) "
                    f"would create a second loop named {n}; use a new Var name"
                )
        is_r = st.dims[i].is_rvar
        st.dims[i:i + 1] = [Dim(inner_n, is_r), Dim(outer_n, is_r)]
        tail = _tail(tail, self._owner_name(), f"split({old_n}, {outer_n}, {inner_n}, {f}, {{}})")
        st.directives.append(Split(old_n, outer_n, inner_n, f, tail, loc))
        self._named(outer, inner)
        return self

    def fuse(self, inner, outer, fused):
        loc = user_location()
        inner_n, outer_n, fused_n = self._loops((inner, outer, fused), "fuse", 2)
        st = self._stage()
        if inner_n == outer_n:  # (Halide then reports the loop missing, as the fuse consumed it)
            raise ScheduleError(f"{loc}: In schedule for {self._owner_name()}: fuse({inner_n}, {outer_n}, {fused_n}) "
                                f"names the loop {inner_n} twice; fuse two different loops, the inner one first")
        i = self._find(inner_n, f"fuse({inner_n}, {outer_n}, {fused_n})", "could not find inner fuse dimension: {}")
        j = self._find(outer_n, f"fuse({inner_n}, {outer_n}, {fused_n})", "could not find outer fuse dimension: {}")
        is_r = st.dims[i].is_rvar or st.dims[j].is_rvar
        st.dims[i] = Dim(fused_n, is_r)
        del st.dims[j]
        st.directives.append(Fuse(inner_n, outer_n, fused_n, loc))
        self._named(fused)
        return self

    def reorder(self, *vars_):
        loc = user_location()
        if len(vars_) == 1 and isinstance(vars_[0], (list, tuple)):
            vars_ = tuple(vars_[0])
        st = self._stage()
        self._loops(vars_, "reorder", len(vars_))
        # a name matching two loops (rename to an existing name) moves the outer one, as Halide's reorder does
        names = [st.shadows.get(n, st.aliases.get(n, n)) for n in (var_name(a, "reorder") for a in vars_)]
        if len(set(names)) != len(names):
            raise ScheduleError(f"{loc}: In schedule for {self._owner_name()}: reorder({', '.join(names)}) "
                                "names a loop twice")
        st = self._stage()
        if any(n not in st.dim_names() for n in names):
            from .reorder_hint import reorder_refusal

            raise ScheduleError(f"{loc}: {reorder_refusal(self._owner_name(), st, names)}")
        slots = sorted(self._find(n, f"reorder({', '.join(names)})") for n in names)
        by_name = {d.name: d for d in st.dims}
        for slot, n in zip(slots, names):
            st.dims[slot] = by_name[n]
        st.directives.append(Reorder(tuple(names), loc))
        return self

    def tile(self, *args, **kwargs):
        """Halide's four overloads, positional or by its keywords: tile(x, y, xo, yo, xi, yi, xfactor,
        yfactor[, tail]), tile(x, y, xi, yi, xfactor, yfactor[, tail]), and over lists of dimensions
        tile(previous, outers, inners, factors[, tail]) and tile(previous, inners, factors[, tail])."""
        kwargs = dict(kwargs)
        tail = kwargs.pop("tail", TailStrategy.Auto)
        if args and isinstance(args[-1], TailStrategy):
            tail, args = args[-1], args[:-1]
        vector = (bool(args) and isinstance(args[0], (list, tuple))) or "previous" in kwargs
        b = _tile_arguments(args, kwargs, vector, f"{user_location()}: In schedule for {self._owner_name()}: ")
        if not vector:
            b = {"previous": [b["x"], b["y"]], "outers": [b.get("xo", b["x"]), b.get("yo", b["y"])],
                 "inners": [b["xi"], b["yi"]], "factors": [b["xfactor"], b["yfactor"]]}
        outers = b.get("outers", b["previous"])
        if not len(b["previous"]) == len(outers) == len(b["inners"]) == len(b["factors"]):
            names = ", ".join(var_name(v, "tile") for v in b["previous"])
            raise HalideError(
                f"{user_location()}: In schedule for {self._owner_name()}: tile's lists name {len(b['previous'])} "
                f"dimensions ({names}) but {len(outers)} outer loops, {len(b['inners'])} inner loops and "
                f"{len(b['factors'])} factors; give one of each per dimension, e.g. tile([x, y], [xo, yo], "
                "[xi, yi], [8, 8])")
        for old, outer, inner, factor in zip(b["previous"], outers, b["inners"], b["factors"], strict=True):
            self.split(old, outer, inner, factor, tail)
        return self.reorder(*b["inners"], *outers)

    def _for_type(self, kind: str, v, factor, tail):
        loc = user_location()
        rest = "" if factor is None else f", {factor}" if isinstance(factor, int) else ", ..."
        name, = self._loops((v,), kind, 1, rest)
        marked = {"unroll": "unrolled", "vectorize": "vectorized", "parallel": "parallel"}[kind]
        self._find(name, f"{kind}({name})", f"could not find dimension {{}} to mark as {marked} in vars for function")
        if factor is not None:  # as Halide: split off an inner loop; parallel marks the outer one (task_size)
            # checked here too, so that a refusal names the call the user wrote rather than the split it makes
            f = _require_const_int(factor, f"{kind}({name}, factor) of {self._owner_name()}: factor")
            _tail(tail, self._owner_name(), f"{kind}({name}, {f}, {{}})")
            inner = f"{name}.{kind[0]}i"
            self.split(v, v, Var(inner) if not isinstance(v, RVar) else inner, factor, tail)
            name = name if kind == "parallel" else inner
        self._stage().directives.append(ForType(kind, name, loc))
        outer = self._stage().shadows.get(var_name(v, kind)) if factor is None else None
        if outer is not None:  # the name matches two loops (rename to an existing name): Halide marks both
            self._stage().directives.append(ForType(kind, outer, loc))
        return self

    # Parameter names are Halide's (its Python bindings take them as keywords: `unroll(var=x, factor=2)`).
    def unroll(self, var, factor=None, tail: TailStrategy = TailStrategy.Auto):
        return self._for_type("unroll", var, factor, tail)

    def vectorize(self, var, factor=None, tail: TailStrategy = TailStrategy.Auto):
        return self._for_type("vectorize", var, factor, tail)

    def parallel(self, var, task_size=None, tail: TailStrategy = TailStrategy.Auto):
        return self._for_type("parallel", var, task_size, tail)

    def serial(self, var):
        name, = self._loops((var,), "serial", 1)
        self._find(name, f"serial({name})")
        return self

    def rename(self, old, new):
        """Halide's rename: the loop `old` is called `new` from here on (a split by 1 in Halide). The loop keeps
        its first name inside (`aliases`), so passes see one name per loop."""
        st = self._stage()
        shown = [var_name(v, "rename") for v in (old, new)]
        call = f"rename({', '.join(shown)})"
        old_n, = self._loops((old,), "rename", 1, f", {shown[1]}")
        i = self._find(old_n, call, "could not find dimension {} to rename")
        restored = False
        for name in list(st.shadows):  # the name no longer matches the loop renamed again
            if st.aliases.get(name) == old_n:
                st.aliases[name] = st.shadows.pop(name)
                restored |= name == shown[0]
        new_n = shown[1]
        if shown[0] != new_n and not restored:  # a shadowed name goes on naming its other loop
            st.renamed[shown[0]] = (new_n, user_location())
        was_renamed = st.renamed.pop(new_n, None) is not None  # (its loop, if any, is named old.new in Halide)
        taken = st.aliases.get(new_n, new_n)
        if not was_renamed and taken != old_n and taken in st.dim_names():
            # Halide names the renamed loop old.new, so `new` (matched as a suffix) names both loops: most calls
            # take the inner one (split, compute_at, rename), unroll/vectorize/parallel both, reorder the outer
            j = st.dim_names().index(taken)
            inner, outer = (old_n, taken) if i < j else (taken, old_n)
            st.aliases[new_n] = inner
            st.shadows[new_n] = outer
        else:
            st.aliases[new_n] = old_n
        return self


def _tail(t, owner: str, call: str) -> TailStrategy:
    """`t`, the tail strategy of `call` (written "unroll(x, 2, {})") of `owner`, checked."""
    if not isinstance(t, TailStrategy):
        named = t if isinstance(t, str) and t in TailStrategy.__members__ else "RoundUp"
        raise HalideError(f"{user_location()}: In schedule for {owner}: {call.format(repr(t))}: the tail strategy "
                          f"must be an hl.TailStrategy, got {t!r}; e.g. {owner}."
                          + call.format(f"hl.TailStrategy.{named}"))
    return t
