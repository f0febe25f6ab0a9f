"""Variables: pure `Var`s (identified by name, as in Halide), reduction domains `RDom` and their `RVar`s."""

from __future__ import annotations

import itertools
import re

from . import ir
from .errors import HalideError, user_location
from .expr import Expr, ExprLike, to_ir
from .types import BOOL, I32

_anon = itertools.count()


class Implicit:
    """Halide's `_`: the implicit variables of a call or definition (`g[x, _] = f[x, _] + 1` over the rest of f's
    dimensions), named `_0`, `_1`, ... as in Halide."""

    def __repr__(self) -> str:
        return "hl._"


_ = Implicit()


class Var(ExprLike):
    """A pure variable. Two Vars with the same name are the same variable."""

    __slots__ = ("_name",)

    def __init__(self, name: str | None = None):
        self._name = name if name is not None else f"v{next(_anon)}"

    def name(self) -> str:
        return self._name

    def _ir(self) -> ir.Expr:
        return ir.Var(I32, self._name)

    def same_as(self, other) -> bool:
        return isinstance(other, Var) and other._name == self._name

    @staticmethod
    def outermost() -> Var:
        return Var("__outermost")

    @staticmethod
    def implicit(i: int) -> Var:
        return Var(f"_{i}")

    def __repr__(self) -> str:
        return f"<mainspring.Var '{self._name}'>"


# Halide's hl._0 ... hl._9: the implicit variables by name (a wrapper of an ImageParam, `input.in_()`, is defined
# over them: `input.in_().unroll(hl._2)`).
_0, _1, _2, _3, _4, _5, _6, _7, _8, _9 = (Var.implicit(i) for i in range(10))


class Range:
    """A (min, extent) pair for an RDom dimension."""

    __slots__ = ("min", "extent")

    def __init__(self, min, extent):  # noqa: A002 - Halide's names
        self.min = Expr(min)
        self.extent = Expr(extent)


class RVar(ExprLike):
    """One dimension of a reduction domain; or, made from a name alone (`hl.RVar("rxo")`, as in Halide), a name
    for the loops a schedule makes of one (`update().split(r.x, rxo, rxi, 2)`)."""

    __slots__ = ("_domain", "_index", "_name")

    def __init__(self, domain: ir.ReductionDomain | str | None = None, index: int = 0):
        self._name = None
        if domain is None or isinstance(domain, str):
            self._name = domain if domain is not None else f"r{next(_rdom_anon)}$v"
            self._domain = None
        else:
            self._domain = domain
        self._index = index

    def name(self) -> str:
        if self._domain is None:
            return self._name
        return self._domain.dims[self._index][0]

    def min(self) -> Expr:
        return Expr(self._domain.dims[self._index][1])

    def extent(self) -> Expr:
        return Expr(self._domain.dims[self._index][2])

    def _ir(self) -> ir.Expr:
        if self._domain is None:
            raise HalideError(f"{user_location()}: RVar '{self._name}' names a loop of a schedule (made by "
                              "split); only an RVar of an RDom (r.x, r[0]) can be used in an expression")
        return ir.RVar(I32, self.name(), self._domain, self._index)

    def __repr__(self) -> str:
        return f"<mainspring.RVar '{self.name()}'>"


_RDOM_SUFFIXES = ("x", "y", "z", "w")
_rdom_anon = itertools.count()
_MADE_BY_COUNTER = re.compile(r"r\d+")


def made_by_counter(name: str) -> bool:
    """Whether an RDom's name (or the part before '$' of an RVar's) is one the counter gives an RDom or RVar made
    without a name (`r0`, `r1`, ...: one over the process, as Halide's), so that a copy of the algorithm built
    again names it otherwise (mainspring/autoschedule_names.py, hwlower/rvar_names.py)."""
    return _MADE_BY_COUNTER.fullmatch(name) is not None


def _pure_free(e: ir.Expr) -> list[str]:
    return sorted({n.name for n in ir.walk(e) if isinstance(n, (ir.Var, ir.RVar))})


class RDom(ExprLike):
    """A reduction domain: `RDom([Range(0, 3), Range(0, 3)], "win")`; `r.x`, `r.y`, `r[0]`, `for rv in r`. Used
    as an expression it is its first dimension, as in Halide."""

    def __init__(self, *args, name: str | None = None, region=None, buffer=None, image_param=None):
        # region / buffer / image_param: Halide's keywords for its three constructors
        given = tuple(v for v in (region, buffer, image_param) if v is not None)
        ranges, name = _parse_rdom_args(given + args, name)
        if not ranges:
            raise HalideError("RDom needs at least one Range(min, extent)")
        self._name = name if name is not None else f"r{next(_rdom_anon)}"
        dims = []
        for i, (lo, ext) in enumerate(ranges):
            lo_ir, ext_ir = to_ir(lo, "RDom"), to_ir(ext, "RDom")
            for what, e in (("min", lo_ir), ("extent", ext_ir)):
                if not e.type.is_int() and not e.type.is_uint():
                    raise HalideError(f"RDom {self._name}: the {what} of dimension {i} must be an integer")
                free = _pure_free(e)
                if free:
                    raise HalideError(
                        f"{user_location()}: RDom {self._name}: the {what} of dimension {i} uses the variable(s) "
                        f"{', '.join(free)}; an RDom's bounds may use constants and Params only: give it constant "
                        "bounds that cover every case and skip the points you do not want with hl.select in the "
                        "update"
                    )
            suffix = _RDOM_SUFFIXES[i] if i < len(_RDOM_SUFFIXES) else str(i)
            dims.append((f"{self._name}${suffix}", _to_i32(lo_ir), _to_i32(ext_ir)))
        self._domain = ir.ReductionDomain(self._name, tuple(dims))

    @property
    def x(self) -> RVar:
        return self[0]

    @property
    def y(self) -> RVar:
        return self[1]

    @property
    def z(self) -> RVar:
        return self[2]

    @property
    def w(self) -> RVar:
        return self[3]

    def __getitem__(self, i: int) -> RVar:
        if not 0 <= i < len(self._domain.dims):
            raise HalideError(f"RDom {self._name} has {len(self._domain.dims)} dimensions; there is no dimension {i}")
        return RVar(self._domain, i)

    def dimensions(self) -> int:
        return len(self._domain.dims)

    def __len__(self) -> int:
        return len(self._domain.dims)

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def defined(self) -> bool:
        return True

    def same_as(self, other) -> bool:
        return isinstance(other, RDom) and other._domain is self._domain

    def name(self) -> str:
        return self._name

    def where(self, predicate) -> RDom:
        """Halide's RDom::where: the updates over this domain skip the points where `predicate` is false (each
        is folded into a select keeping the old value there: a disk-shaped window unrolls to its taps alone)."""
        cond = to_ir(predicate, "RDom.where")
        if self._domain.used:
            raise HalideError(
                f"{user_location()}: RDom {self._name} cannot be given a new predicate, because it has already been "
                f"used in the update definition of {self._domain.used[0]}; call {self._name}.where(...) before "
                "the definitions that use it")
        if not cond.type.is_bool():
            cond = ir.BinOp(BOOL, "ne", cond, ir.Const(cond.type, 0))
        self._domain.predicates.append(cond)
        return self

    def _ir(self) -> ir.Expr:  # an RDom used as an expression is its first dimension, as in Halide
        return self[0]._ir()


def _to_i32(e: ir.Expr) -> ir.Expr:
    return e if e.type == I32 else ir.Cast(I32, e)


def _parse_rdom_args(args, name):
    from .params import Buffer, ImageParam

    if len(args) >= 1 and isinstance(args[-1], str) and name is None:
        name, args = args[-1], args[:-1]
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return [(r.min, r.extent) if isinstance(r, Range) else tuple(r) for r in args[0]], name
    if len(args) == 1 and isinstance(args[0], Range):
        return [(args[0].min, args[0].extent)], name
    if len(args) == 1 and isinstance(args[0], (Buffer, ImageParam)):
        src = args[0]
        return [(src.dim(i).min(), src.dim(i).extent()) for i in range(src.dimensions())], name
    if len(args) % 2 == 0 and args:
        return [(args[i], args[i + 1]) for i in range(0, len(args), 2)], name
    raise HalideError("RDom takes a list of hl.Range(min, extent), a Buffer or ImageParam, or min, extent pairs")


def var_name(v, what: str) -> str:
    """The name of a loop variable argument (Var or RVar) to a schedule call."""
    if isinstance(v, Var):
        return v.name()
    if isinstance(v, RVar):
        return v.name()
    if isinstance(v, str):
        return v
    raise HalideError(f"{what}: expected a Var or RVar, got {type(v).__name__} {v!r}")
