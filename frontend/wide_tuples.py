"""Tuples over 32 bits: a Tuple Func whose elements need more than one word (frontend/tuples.py packs a Tuple
into a word of at most 32 bits) is held in several Functions, one packed word each, as Halide accepts it.

The words: the elements in order, each word filled before the next (`word_groups`), word 0 held by the Func's
own Function and word g > 0 by `<name>_word<g>`, a Tuple Func of its own. They share the Func's schedule: every
word's Placement is the Func's object and each of its stages' StageSchedule is the Func's stage's, so a schedule
call on the Func (compute_at, unroll of an update, bound, ...) places and shapes every word alike, and the
reference, lowering and the hardware see ordinary packed Tuple Funcs. A read `f[x, y][i]` reads element i's word.

An update computes every element from the values held before it (Halide's rule for Tuples); the words are
computed one after another, so an element's update may read the elements of its own word only (those of another
word would be their new values there): an update that reads across words is refused, with the fix that keeps the
elements that read each other in one word.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from . import ir
from .errors import HalideError, SourceLoc
from .expr import Expr
from .func import Function
from .tuples import MAX_BITS, Field, TupleLayout, extract, layout_for, pack


@dataclass(frozen=True, slots=True, eq=False)
class WideLayout:
    """A Tuple in several words: `fields` every element's (its offset within its word), `groups` the elements of
    each word, `layouts` each word's packing and `funcs` the Function holding it (funcs[0] the Func's own)."""

    fields: tuple[Field, ...]
    groups: tuple[tuple[int, ...], ...]
    layouts: tuple[TupleLayout, ...]
    funcs: tuple[Function, ...]
    # each stage's elements (the pure definition's first), and every read made of an element, by its node's id:
    # (node, element, arguments), so wide_regroup.py can lay the elements out again and read them there
    stages: list[list[ir.Expr]] = dataclasses.field(default_factory=list)
    reads: dict[int, tuple[ir.Expr, int, tuple[ir.Expr, ...]]] = dataclasses.field(default_factory=dict)

    @property
    def word(self):
        return self.layouts[0].word

    def place(self, i: int) -> tuple[int, int]:
        """(word, index within it) of element i."""
        return next((g, idx.index(i)) for g, idx in enumerate(self.groups) if i in idx)


def word_groups(widths: list[int]) -> list[list[int]]:
    """The elements in order, in words of at most 32 bits each (a word filled before the next)."""
    groups: list[list[int]] = [[]]
    for i, w in enumerate(widths):
        if sum(widths[k] for k in groups[-1]) + w > MAX_BITS:
            groups.append([])
        groups[-1].append(i)
    return groups


def needs_words(elems: list[ir.Expr]) -> bool:
    """Whether a user's Tuple of these integer elements needs more than one word."""
    return not any(e.type.is_float() for e in elems) and sum(e.type.bits() for e in elems) > MAX_BITS


def define_wide_pure(fn: Function, key: tuple, elems: list[ir.Expr], loc: SourceLoc) -> None:
    """fn's pure definition as the elements `elems`, in words held by fn and new Functions sharing its schedule."""
    from .define import _define_pure

    groups = word_groups([e.type.bits() for e in elems])
    layouts = [layout_for(fn.name, [elems[i].type for i in g], loc) for g in groups]
    funcs = [fn] + [Function(f"{fn.name}_word{g}", loc) for g in range(1, len(groups))]
    for g, (f, lay, idx) in enumerate(zip(funcs, layouts, groups)):
        _define_pure(f, key, Expr(pack(lay, [elems[i] for i in idx])), loc)
        f.tuple_layout = lay
        if g:
            f.placement, f.scalar = fn.placement, fn.scalar
            _share_stage(f, fn)
    at = {i: (g, k) for g, idx in enumerate(groups) for k, i in enumerate(idx)}
    fields = tuple(layouts[g].fields[k] for g, k in (at[i] for i in range(len(elems))))
    fn.tuple_layout = WideLayout(fields, tuple(map(tuple, groups)), tuple(layouts), tuple(funcs), [list(elems)])


def _share_stage(f: Function, fn: Function) -> None:
    """f's last stage scheduled by fn's last stage's StageSchedule (the same object)."""
    f.definitions[-1] = dataclasses.replace(f.definitions[-1], schedule=fn.definitions[-1].schedule)


def read(layout: WideLayout, args: tuple[ir.Expr, ...]) -> list[ir.Expr]:
    """The elements at `args`, each read from its word."""
    return [read_one(layout, args, i) for i in range(len(layout.fields))]


def read_one(layout: WideLayout, args: tuple[ir.Expr, ...], i: int) -> ir.Expr:
    """Element i at `args`, read from its word (and recorded: `WideLayout.reads`)."""
    g, k = layout.place(i)
    node = extract(layout.layouts[g], ir.Call(layout.layouts[g].word, layout.funcs[g], args), k)
    layout.reads[id(node)] = (node, i, args)
    return node


def stage_values(layout: WideLayout, stage: int) -> list[ir.Expr]:
    """The elements stage `stage` (0 the pure definition) gives, unpacked from each word's value there."""
    return [extract(layout.layouts[g], layout.funcs[g].definitions[stage].value, k)
            for g, k in map(layout.place, range(len(layout.fields)))]


def define_wide_update(fn: Function, key: tuple, values, loc: SourceLoc) -> None:
    """An update of the wide Tuple Func fn: each word's update packs its elements (an undef() one keeps its value),
    all words under fn's new stage's StageSchedule."""
    from .define import _define_update
    from .func import arg_ir
    from .tuples import update_elements

    layout: WideLayout = fn.tuple_layout
    own = tuple(arg_ir(a, fn.name, i) for i, a in enumerate(key)) if len(key) == len(fn.args) else None
    elems = update_elements(fn, layout.fields, values, None if own is None else lambda i: read_one(layout, own, i),
                            loc)
    narrowed = [i for i, f in enumerate(layout.fields) if f.width < f.type.bits()]
    if narrowed or _crossing(layout, own or (), elems):
        # laid out again: elements read in their own word where they can be, narrowed fields grown where they must
        from .wide_regroup import regroup

        got = regroup(fn, layout, elems, own or ())
        if got is None and narrowed:
            _refuse_narrowed(fn, layout, narrowed, loc)
        layout, elems = got or (layout, elems)
    _check_words(fn, layout, own or (), elems, loc)
    layout.stages.append(list(elems))
    for g, (f, lay, idx) in enumerate(zip(layout.funcs, layout.layouts, layout.groups)):
        _define_update(f, key, pack(lay, [elems[i] for i in idx]), loc)
        if g:
            _share_stage(f, fn)


def _reads(layout: WideLayout, e: ir.Expr) -> set[int]:
    """The words of `layout` that `e` reads."""
    return {g for n in ir.walk(e) if isinstance(n, ir.Call)
            for g, f in enumerate(layout.funcs) if n.callee is f}


def _crossing(layout: WideLayout, args: tuple, elems: list[ir.Expr]) -> bool:
    """Whether an element reads an element of another word (or the update's coordinates read the Func)."""
    return any(_reads(layout, a) for a in args) or \
        any(_reads(layout, e) - {layout.place(i)[0]} for i, e in enumerate(elems))


def _check_words(fn: Function, layout: WideLayout, args: tuple, elems: list[ir.Expr], loc: SourceLoc) -> None:
    """Refuse an update whose element reads an element of another word (or whose coordinates read the Func)."""
    for i, e in enumerate(elems):
        g = layout.place(i)[0]
        other = sorted(_reads(layout, e) - {g}) + sorted(h for a in args for h in _reads(layout, a))
        if not other:
            continue
        h = other[0]
        raise HalideError(
            f"{loc}: In update definition {len(fn.definitions) - 1} of Func \"{fn.name}\":\nits Tuple's elements "
            f"need {_bits(layout)} bits, which mainspring holds in words of at most {MAX_BITS} bits "
            f"({_words(layout)}), each word updated after the one before; element {i} (word {g}) reads word {h} in "
            "this update, which it would find already updated, where Halide reads every element before it updates "
            f"any: keep the elements that read each other in one word of at most {MAX_BITS} bits, by casting them "
            "to narrower types where their values fit (e.g. hl.u8(r.x) for an index below 256)")


def _refuse_narrowed(fn: Function, layout: WideLayout, narrowed: list[int], loc: SourceLoc) -> None:
    held = ", ".join(f"element {i} in {layout.fields[i].width} bits" for i in narrowed)
    raise HalideError(
        f"{loc}: In update definition {len(fn.definitions) - 1} of Func \"{fn.name}\":\nits elements read each "
        f"other in an update and fit one word of {MAX_BITS} bits only in the bits their values need ({held}), which "
        f"this update may leave (or a Func read '{fn.name}' before it, whose reads keep the layout): give those "
        f"elements narrower types that hold their values (e.g. hl.u8(r.x) for an index below 256, or hl.i16(...)), "
        f"so that they fit one word of {MAX_BITS} bits as they are")


def _bits(layout: WideLayout) -> int:
    return sum(f.width for f in layout.fields)


def _words(layout: WideLayout) -> str:
    def one(g: int, idx: tuple[int, ...]) -> str:
        what = f"elements {', '.join(map(str, idx[:-1]))} and {idx[-1]}" if len(idx) > 1 else f"element {idx[0]}"
        return f"word {g}: {what}"
    return "; ".join(one(g, idx) for g, idx in enumerate(layout.groups))
