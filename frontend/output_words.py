"""Several output words a pixel: outputs whose widths add up to more than the 32 bits one word carries leave the
accelerator as several words, each of a group of outputs packed as a Tuple's elements are (frontend/tuples.py).
The words are a Func's innermost dimension `word`, unrolled: the hardware computes every word of a pixel in one
firing and streams them side by side on its output port (lane k the word k, as an unrolled output's lanes are),
under one valid, so a CGRA gives each word an IO tile of its own. The host reads word k of a pixel at [..., k].

Groups: the outputs in order, each next output in the current word while it fits 32 bits, else in a new word,
so outputs that fit one word together (the common case) stay one word and designs of one word do not change."""

from __future__ import annotations

from dataclasses import dataclass

from . import ir
from .expr import Expr, cast_ir
from .func import Definition, Func, Function, handle_of, new_stage_schedule
from .schedule import Dim, ForType, Placement, StageSchedule
from .tuples import MAX_BITS, TupleLayout, extract, layout_for, pack
from .types import BOOL, I32, Type, UInt
from .vars import Var

WORD = "word"  # the words' dimension, innermost


@dataclass(frozen=True, slots=True)
class Words:
    """Which outputs (by position) each word packs, and each word's layout."""

    groups: tuple[tuple[int, ...], ...]
    layouts: tuple[TupleLayout, ...]

    @property
    def type(self) -> Type:
        """The words' common type: the widest word's (the narrower ones zero-extended)."""
        return UInt(max(lay.word.bits() for lay in self.layouts))


def width(t: Type) -> int:
    return 1 if t.is_bool() else t.bits()


def words_for(name: str, types: list[Type], loc) -> Words | None:
    """The word groups of outputs of `types` (see the module); None when one word holds them all, or when an
    output cannot be one word's field (a float, over 32 bits by itself: the caller refuses it)."""
    widths = [width(t) for t in types]
    if sum(widths) <= MAX_BITS or any(t.is_float() for t in types) or max(widths) > MAX_BITS:
        return None
    groups: list[list[int]] = []
    used = MAX_BITS
    for i, w in enumerate(widths):
        if used + w > MAX_BITS:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += w
    layouts = tuple(layout_for(name, [types[i] for i in g], loc) for g in groups)
    return Words(tuple(tuple(g) for g in groups), layouts)


def word_name(args: tuple[str, ...]) -> str:
    name = WORD
    while name in args:
        name += "_"
    return name


def words_value(words: Words, values: list[ir.Expr], word: str) -> ir.Expr:
    """The word `word` (a Var) selects: word k packs the values of group k."""
    t = words.type
    packed = [cast_ir(t, pack(lay, [values[i] for i in g])) for g, lay in zip(words.groups, words.layouts)]
    out = packed[-1]
    for k in range(len(packed) - 2, -1, -1):
        out = ir.Select(t, ir.BinOp(BOOL, "eq", ir.Var(I32, word), ir.i32(k)), packed[k], out)
    return out


def element(words: Words, read: ir.Expr, i: int) -> ir.Expr:
    """Output i's value from the read `read` of the word that holds it."""
    k = next(k for k, g in enumerate(words.groups) if i in g)
    lay = words.layouts[k]
    return extract(lay, cast_ir(lay.word, read), words.groups[k].index(i))


def define_words(sink: Func, args: tuple[str, ...], words: Words, values: list[ir.Expr]) -> str:
    """Define `sink`(word, args...) as the words of `values` (over `args`); the word dimension's name."""
    word = word_name(args)
    vs = (Var(word),) + tuple(Var(n) for n in args)
    sink[vs] = Expr(words_value(words, values, word))
    return word


def words_schedule(schedule: StageSchedule, word: str, loc) -> StageSchedule:
    """`schedule` computing every word of a pixel in one firing: the word loop innermost, unrolled (the output's
    lanes)."""
    return StageSchedule([Dim(word, False)] + list(schedule.dims),
                         list(schedule.directives) + [ForType("unroll", word, loc, made=True)], dict(schedule.aliases))


def fuse_into_words(funcs: list[Function], name: str, words: Words) -> Function:
    """A new Func `name`(word, args...) whose words pack the values of `funcs` (pure, over as many variables), each
    of which becomes, in place, a read of its field of its word, unscheduled (its bounds and estimates kept); as
    fuse_outputs.fuse_into_tuple makes a Tuple Func of one word."""
    args = funcs[0].args
    fused = Func(name)
    values = [ir.substitute(f.definitions[0].value, {old: ir.Var(I32, new) for old, new in zip(f.args, args)})
              for f in funcs]
    word = define_words(fused, args, words, values)
    t = fused.function()
    t.placement.bounds[word] = (0, len(words.groups), funcs[0].definitions[0].loc)
    for i, f in enumerate(funcs):
        own = tuple(ir.Var(I32, n) for n in f.args)
        k = next(k for k, g in enumerate(words.groups) if i in g)
        read = handle_of(t)[(Expr(ir.i32(k)),) + tuple(Var(n) for n in f.args)]._ir()
        d = f.definitions[0]
        f.definitions[0] = Definition(own, element(words, read, i), None, d.loc, new_stage_schedule(own, None))
        f.placement = Placement(bounds=f.placement.bounds, estimates=f.placement.estimates)
    return t
