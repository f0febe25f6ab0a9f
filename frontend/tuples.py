"""Halide's Tuples as one packed word: a Func whose value is a Tuple holds its elements side by side in one
unsigned integer, so the reference, the schedule, the autoscheduler and the hardware see an ordinary Func.

Layout: element 0 in the lowest bits, each next element directly above the previous one; the word is the
narrowest of UInt(8|16|32) that holds them all (32 bits is the widest integer the array carries). An element
takes its type's width (a Bool one bit), unless its values provably fit fewer bits (argmax's coordinates, whose
range the RDom gives). A read `f[x, y][i]` shifts and masks its field out and reinterprets it as the element's
type (a signed element is sign-extended). An update packs its new elements from values read before it, which is
Halide's rule for Tuple updates (every element is computed from the old values).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ir
from .errors import HalideError, SourceLoc, user_location
from .expr import Expr, ExprLike, cast_ir, to_ir, type_name
from .types import BOOL, I32, Type, UInt

MAX_BITS = 32  # the widest integer the hardware carries (a 32-bit op is built from two 16-bit PE ops)


@dataclass(frozen=True, slots=True)
class Field:
    type: Type
    offset: int
    width: int
    signed: bool  # the field holds two's complement (sign-extended when read)


@dataclass(frozen=True, slots=True)
class TupleLayout:
    fields: tuple[Field, ...]
    word: Type  # UInt(8|16|32)


def element_name(t: Type) -> str:
    return type_name(t)


def layout_for(fname: str, types: list[Type], loc: SourceLoc,
               widths: list[tuple[int, bool]] | None = None) -> TupleLayout:
    """The packing of elements of `types` (each `widths[i]` = (bits, signed), by default its type's; a Tuple the
    user writes over 32 bits is held in several words: wide_tuples.py)."""
    for i, t in enumerate(types):
        if t.is_float():
            raise HalideError(
                f"{loc}: Func '{fname}': Tuple element {i} has type {type_name(t)}; mainspring packs a Tuple's "
                "elements into one integer word, which holds integer and Bool elements only: make this element "
                "an integer (e.g. hl.i32(...)), or define a Func of its own for it"
            )
    widths = widths or [(t.bits(), t.is_int()) for t in types]
    total = sum(w for w, _s in widths)
    if total > MAX_BITS:
        listed = " + ".join(f"{w} ({type_name(t)})" for t, (w, _s) in zip(types, widths))
        fix = ("cast elements to narrower types (e.g. hl.u8(...) for an index below 256) so their widths sum to 32 "
               "or fewer, or define one Func per element")
        raise HalideError(
            f"{loc}: Func '{fname}': its Tuple's elements need {listed} = {total} bits, but mainspring packs a "
            f"Tuple into one integer word of at most {MAX_BITS} bits (one word a pixel inside the accelerator): {fix}"
        )
    fields, offset = [], 0
    for t, (w, signed) in zip(types, widths):
        fields.append(Field(t, offset, w, signed))
        offset += w
    word = UInt(next(b for b in (8, 16, 32) if total <= b))
    return TupleLayout(tuple(fields), word)


def _const(t: Type, v: int) -> ir.Expr:
    return ir.Const(t, v)


def pack(layout: TupleLayout, values: list[ir.Expr]) -> ir.Expr:
    """The word holding `values` (each already of its field's type) in their fields."""
    w = layout.word
    word: ir.Expr | None = None
    for f, v in zip(layout.fields, values):
        assert v.type == f.type, (v.type, f.type)
        bits = cast_ir(w, cast_ir(f.type.with_code("uint"), v) if f.type.is_int() else v)
        if f.width < f.type.bits():  # a narrowed field: the bits above it are the value's sign or zeros
            bits = ir.BinOp(w, "and", bits, _const(w, (1 << f.width) - 1))
        if f.offset:
            bits = ir.BinOp(w, "shl", bits, _const(w, f.offset))
        word = bits if word is None else ir.BinOp(w, "or", word, bits)
    assert word is not None
    return word


def extract(layout: TupleLayout, word: ir.Expr, i: int) -> ir.Expr:
    """Element i of a packed word, as its own type."""
    f, w = layout.fields[i], layout.word
    b = w.bits()
    if f.signed:  # sign-extend: the field's top bit to the word's top, then an arithmetic shift down
        s = w.with_code("int")
        top = b - f.offset - f.width
        v = ir.BinOp(w, "shl", word, _const(w, top)) if top else word
        signed = cast_ir(s, v)
        if b - f.width:
            signed = ir.BinOp(s, "shr", signed, _const(w, b - f.width))
        return cast_ir(f.type, signed)
    v = ir.BinOp(w, "shr", word, _const(w, f.offset)) if f.offset else word
    if f.offset + f.width < b:
        v = ir.BinOp(w, "and", v, _const(w, (1 << f.width) - 1))
    if f.type.is_bool():
        return ir.BinOp(BOOL, "ne", v, _const(w, 0))
    return cast_ir(f.type, v)


class PackedTuple(tuple):
    """The elements of one packed word, which a Func defined as them copies whole (keeping its layout, whose
    fields may be narrower than their types: argmax's coordinates)."""

    word: ir.Expr
    layout: TupleLayout


def elements(fn, call: ir.Expr) -> tuple[Expr, ...]:
    """The elements of a Tuple Func's packed value `call`, as the user's Exprs."""
    layout = fn.tuple_layout
    if not isinstance(layout, TupleLayout):  # in several words (wide_tuples.py): each element from its word
        from .wide_tuples import read

        return tuple(Expr(e) for e in read(layout, call.args))
    out = PackedTuple(Expr(extract(layout, call, i)) for i in range(len(layout.fields)))
    out.word, out.layout = call, layout
    return out


class _Undef(ExprLike):
    """Halide's undef(): in a Tuple update, the element keeps its value."""

    def _ir(self) -> ir.Expr:
        raise HalideError(
            f"{user_location()}: hl.undef() stands for an element a Tuple update leaves unchanged, and is no value "
            "elsewhere: use it as an element of an update (f[x, y] = (f[x, y][0] + 1, hl.undef())), or write the "
            "value to keep (f[x, y][1])"
        )

    def __repr__(self) -> str:
        return "hl.undef()"


UNDEF = _Undef()


def define_tuple(fn, key: tuple, values, loc: SourceLoc) -> None:
    """`f[key] = (a, b, ...)`: the pure definition fixes the elements' types and the layout; an update packs new
    elements of the same types (an undef() element keeps its value)."""
    from .define import _define_pure, _define_update
    from .func import arg_ir

    if not fn.defined():
        if any(v is UNDEF for v in values):
            raise HalideError(f"{loc}: Func '{fn.name}': hl.undef() in its pure definition; undef() keeps an "
                              "element's value in an update, so the pure definition needs a value for every "
                              "element (e.g. 0)")
        if isinstance(values, PackedTuple):  # a copy of a whole Tuple: its word, as it is packed
            layout, word = values.layout, values.word
        else:
            elems = [to_ir(v, f"element {i} of the definition of {fn.name}") for i, v in enumerate(values)]
            from .wide_tuples import define_wide_pure, needs_words

            if needs_words(elems):
                define_wide_pure(fn, key, elems, loc)
                return
            layout = layout_for(fn.name, [e.type for e in elems], loc)
            word = pack(layout, elems)
        _define_pure(fn, key, Expr(word), loc)
        fn.tuple_layout = layout
        return
    layout = fn.tuple_layout
    n = 1 if layout is None else len(layout.fields)
    if len(values) != n:
        raise HalideError(
            f"{loc}: In update definition {len(fn.definitions) - 1} of Func \"{fn.name}\":\nTuple has {len(values)} "
            f"elements, but pure definition has {n}; give the update one value per element of the pure definition"
        )
    if not isinstance(layout, TupleLayout):
        from .wide_tuples import define_wide_update

        define_wide_update(fn, key, values, loc)
        return
    own = ir.Call(layout.word, fn, tuple(arg_ir(a, fn.name, i) for i, a in enumerate(key))) \
        if len(key) == len(fn.args) else None
    elems = update_elements(fn, layout.fields, values, None if own is None else lambda i: extract(layout, own, i),
                            loc)
    for i, (f, e) in enumerate(zip(layout.fields, elems)):
        if f.width < f.type.bits():
            _check_fits(fn, loc, e, i, f)
    _define_update(fn, key, pack(layout, elems), loc)


def update_elements(fn, fields, values, held, loc: SourceLoc) -> list[ir.Expr]:
    """An update's elements, each of its field's type (or refused): an undef() one is `held(i)`, the element kept
    (None where the update's left side is not fn's own element)."""
    from .define import _type_error

    elems = []
    for i, (f, v) in enumerate(zip(fields, values)):
        e = held(i) if v is UNDEF and held is not None else to_ir(v, f"element {i} of the update of {fn.name}")
        if e.type != f.type:
            _type_error(fn, loc, e, i, f.type)
        elems.append(e)
    return elems


class _Unbounded(dict):
    def __missing__(self, name):
        return (I32.min(), I32.max())


def _check_fits(fn, loc: SourceLoc, e: ir.Expr, i: int, f: Field) -> None:
    """An update's element i fits its narrowed field (argmax's coordinates, copied), or is refused."""
    from .bounds import Bounder

    env = _Unbounded()
    for n in ir.walk(e):
        if isinstance(n, ir.RVar):
            _name, lo, ext = n.domain.dims[n.index]
            if isinstance(lo, ir.Const) and isinstance(ext, ir.Const):
                env[n.name] = (lo.value, lo.value + ext.value - 1)
    lo, hi = Bounder(env, lambda p: None)(e)
    a, b = (-(1 << (f.width - 1)), (1 << (f.width - 1)) - 1) if f.signed else (0, (1 << f.width) - 1)
    if a <= lo and hi <= b:
        return
    raise HalideError(
        f"{loc}: In update definition {len(fn.definitions) - 1} of Func \"{fn.name}\":\nTuple element {i} may take "
        f"values in [{lo}, {hi}], but the pure definition copies an argmax or argmin, which packs this element into "
        f"{f.width} bits ([{a}, {b}], its RDom's range): clamp the value to that range (hl.clamp(v, {a}, {b})), or "
        "define the pure definition from the elements cast to narrower types (e.g. (hl.u8(best[0]), ...))"
    )


def _coordinate_width(lo: ir.Expr, extent: ir.Expr) -> tuple[int, bool]:
    """(bits, signed) for an RDom coordinate of [lo, lo + extent) and argmax's initial 0 (32 bits unless both
    are constants)."""
    if not (isinstance(lo, ir.Const) and isinstance(extent, ir.Const)):
        return 32, True
    a, b = min(0, lo.value), max(0, lo.value + extent.value - 1)
    if a >= 0:
        return max(1, b.bit_length()), False
    return max(b.bit_length(), (-a - 1).bit_length()) + 1, True


def arg_reduction(kind: str, value: ir.Expr, domain: ir.ReductionDomain, free: list[str],
                  name: str | None) -> tuple[Expr, ...]:
    """Halide's argmax/argmin: a Tuple Func over the free Vars, (0, ..., the type's min or max) updated over the
    domain to (its coordinates, value) where the value beats the one held (strictly, so the first point wins);
    its elements there, coordinates first."""
    from .func import Func
    from .vars import Var

    loc = user_location()
    fname = name if name is not None else kind
    t = value.type
    if t.is_float():
        layout_for(fname, [t], loc)  # refused with the element's type
    coords: list[ir.Expr] = [ir.RVar(I32, d[0], domain, i) for i, d in enumerate(domain.dims)]
    widths = [_coordinate_width(lo, ext) for _n, lo, ext in domain.dims] + [(t.bits(), t.is_int())]
    layout = layout_for(fname, [I32] * len(coords) + [t], loc, widths)
    f = Func(fname)
    vs = tuple(Var(n) for n in free)
    f[vs] = Expr(pack(layout, [ir.i32(0)] * len(coords) + [ir.Const(t, t.min() if kind == "argmax" else t.max())]))
    # with no free Var, f is a Func of no dimensions: its element 0 (Func._scalar_args)
    own = ir.Call(layout.word, f.function(), tuple(ir.Var(I32, n) for n in free) or (ir.i32(0),))
    held = extract(layout, own, len(coords))
    better = ir.BinOp(BOOL, "gt" if kind == "argmax" else "lt", value, held)
    f[vs] = Expr(ir.Select(layout.word, better, pack(layout, coords + [value]), own))
    f.function().tuple_layout = layout
    return elements(f.function(), own)
