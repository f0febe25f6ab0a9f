"""Catalogue cases: Tuple Funcs (frontend/tuples.py packs a Tuple's elements into one word, one over 32 bits into
several: frontend/wide_tuples.py): an update reading across such a Tuple's words, a Tuple holding floats, a Tuple
read as one value or past its last element, updates of the wrong size or types, undef() where it means nothing,
a Tuple as the pipeline's output, an update of argmax's copy that leaves its narrowed fields, and update() of a
Func defined by argmax (an inline reduction)."""

from __future__ import annotations

import mainspring as hl

from catalogue import accelerated, case, io_funcs


@case("algorithm", "A Tuple over 32 bits whose update reads across its words", (
    "{at}: In update definition 0 of Func \"best\":\nits Tuple's elements need 64 bits, which mainspring holds "
    "in words of at most 32 bits (word 0: element 0; word 1: element 1), each word updated after the one before; "
    "element 1 (word 1) reads word 0 in this update, which it would find already updated, where Halide reads every "
    "element before it updates any: keep the elements that read each other in one word of at most 32 bits, by "
    "casting them to narrower types where their values fit (e.g. hl.u8(r.x) for an index below 256)"),
    func="best", simulate=True,
    note="Halide accepts it; a Tuple over 32 bits is held in words of at most 32 bits (frontend/wide_tuples.py), "
    "elements an update computes from each other in one word, in the bits their values need "
    "(frontend/wide_regroup.py), and a uint32 minimum with its index needs 34")
def tuple_words_read_each_other():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.u32(0x7FFFFFFF), hl.i32(0))
    p = hl.u32(hw_input[x + r.x, y]) * 65537
    less = p < best[x, y][0]
    best[x, y] = (hl.select(less, p, best[x, y][0]), hl.select(less, r.x, best[x, y][1]))  # <-
    hw_output[x, y] = hl.u16(best[x, y][0]) + hl.u16(best[x, y][1])
    return accelerated(hw_output, hw_input, [best])


@tuple_words_read_each_other.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.u16(65535), hl.i32(0))
    p = hw_input[x + r.x, y]
    best[x, y] = (hl.select(p < best[x, y][0], p, best[x, y][0]), hl.select(p < best[x, y][0], r.x, best[x, y][1]))
    hw_output[x, y] = best[x, y][0] + hl.u16(best[x, y][1])
    return accelerated(hw_output, hw_input, [best])


@case("algorithm", "A Tuple over 32 bits narrowed into one word, then an update its fields cannot hold", (
    "{at}: In update definition 1 of Func \"best\":\nits elements read each other in an update and fit one word "
    "of 32 bits only in the bits their values need (element 1 in 2 bits), which this update may leave (or a Func "
    "read 'best' before it, whose reads keep the layout): give those elements narrower types that hold their "
    "values (e.g. hl.u8(r.x) for an index below 256, or hl.i16(...)), so that they fit one word of 32 bits as they "
    "are"), func="best", simulate=True,
    note="Halide accepts it; the minimum and its int32 index share a word only while the index keeps to 2 bits")
def tuple_narrowed_update():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.u16(65535), hl.i32(0))
    p = hw_input[x + r.x, y]
    best[x, y] = (hl.select(p < best[x, y][0], p, best[x, y][0]), hl.select(p < best[x, y][0], r.x, best[x, y][1]))
    best[x, y] = (best[x, y][0], best[x, y][1] * 1000)  # <-
    hw_output[x, y] = best[x, y][0] + hl.u16(best[x, y][1])
    return accelerated(hw_output, hw_input, [best])


@tuple_narrowed_update.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = (hl.u16(65535), hl.i16(0))
    p = hw_input[x + r.x, y]
    best[x, y] = (hl.select(p < best[x, y][0], p, best[x, y][0]),
                  hl.select(p < best[x, y][0], hl.i16(r.x), best[x, y][1]))
    best[x, y] = (best[x, y][0], best[x, y][1] * 1000)
    hw_output[x, y] = best[x, y][0] + hl.u16(best[x, y][1])
    return accelerated(hw_output, hw_input, [best])


@case("algorithm", "A Tuple with a float element", (
    "{at}: Func 'half': Tuple element 0 has type float32; mainspring packs a Tuple's elements into one integer "
    "word, which holds integer and Bool elements only: make this element an integer (e.g. hl.i32(...)), or "
    "define a Func of its own for it"), func="half")
def tuple_float_element():
    x, y, input_, hw_input, hw_output = io_funcs()
    half = hl.Func("half")
    half[x, y] = (hl.f32(hw_input[x, y]) / 2, hw_input[x, y] > 7)  # <-
    hw_output[x, y] = hl.select(half[x, y][1], hl.u16(half[x, y][0]), 0)
    return accelerated(hw_output, hw_input, [half])


@tuple_float_element.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    half = hl.Func("half")
    half[x, y] = (hw_input[x, y] / 2, hw_input[x, y] > 7)
    hw_output[x, y] = hl.select(half[x, y][1], half[x, y][0], 0)
    return accelerated(hw_output, hw_input, [half])


@case("algorithm", "A Tuple Func read as one value", (
    "{at}: Can't convert a reference Func \"grad\" to an Expr, because grad returns a Tuple of 2 elements; read "
    "one element, e.g. grad[...][0] (up to [1])"), func="grad", simulate=True)
def tuple_read_whole():
    x, y, input_, hw_input, hw_output = io_funcs()
    grad = hl.Func("grad")
    grad[x, y] = (hw_input[x + 1, y] - hw_input[x, y], hw_input[x, y + 1] - hw_input[x, y])
    hw_output[x, y] = grad[x, y] * 2  # <-
    return accelerated(hw_output, hw_input, [grad])


@tuple_read_whole.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    grad = hl.Func("grad")
    grad[x, y] = (hw_input[x + 1, y] - hw_input[x, y], hw_input[x, y + 1] - hw_input[x, y])
    hw_output[x, y] = grad[x, y][0] * 2
    return accelerated(hw_output, hw_input, [grad])


@case("algorithm", "A Tuple element past the last", (
    "{at}: Tuple index 2 out of range in reference to Func \"grad\", which has 2 elements: use an index from 0 "
    "to 1"), func="grad")
def tuple_index_out_of_range():
    x, y, input_, hw_input, hw_output = io_funcs()
    grad = hl.Func("grad")
    grad[x, y] = (hw_input[x + 1, y] - hw_input[x, y], hw_input[x, y + 1] - hw_input[x, y])
    hw_output[x, y] = grad[x, y][2]  # <-
    return accelerated(hw_output, hw_input, [grad])


@tuple_index_out_of_range.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    grad = hl.Func("grad")
    grad[x, y] = (hw_input[x + 1, y] - hw_input[x, y], hw_input[x, y + 1] - hw_input[x, y])
    hw_output[x, y] = grad[x, y][1]
    return accelerated(hw_output, hw_input, [grad])


@case("algorithm", "An update of a Tuple Func with one value", (
    "{at}: In update definition 0 of Func \"acc\":\nTuple has 1 elements, but pure definition has 2; give the "
    "update one value per element of the pure definition"), func="acc")
def tuple_update_size():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc = hl.Func("acc")
    acc[x, y] = (hw_input[x, y], hl.u16(1))
    acc[x, y] = acc[x, y][0] + 1  # <-
    hw_output[x, y] = acc[x, y][0] * acc[x, y][1]
    return accelerated(hw_output, hw_input, [acc])


@tuple_update_size.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc = hl.Func("acc")
    acc[x, y] = (hw_input[x, y], hl.u16(1))
    acc[x, y] = (acc[x, y][0] + 1, acc[x, y][1])
    hw_output[x, y] = acc[x, y][0] * acc[x, y][1]
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "A Tuple update changes an element's type", (
    "{at}: In update definition 0 of Func \"acc\":\nTuple element 1 of update definition has type int32, but "
    "pure definition has type uint8. Use an explicit cast, e.g. hl.cast(hl.UInt(8), ...)."), func="acc",
    simulate=True)
def tuple_update_element_type():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = (hl.u16(0), hl.u8(0))
    p = hw_input[x + r.x, y]
    acc[x, y] = (acc[x, y][0] + p, acc[x, y][1] + hl.select(p > 9, 1, 0))  # <-
    hw_output[x, y] = acc[x, y][0] / hl.u16(hl.max(acc[x, y][1], 1))
    return accelerated(hw_output, hw_input, [acc])


@tuple_update_element_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    acc, r = hl.Func("acc"), hl.RDom([hl.Range(0, 3)], "r")
    acc[x, y] = (hl.u16(0), hl.u8(0))
    p = hw_input[x + r.x, y]
    acc[x, y] = (acc[x, y][0] + p, acc[x, y][1] + hl.cast(hl.UInt(8), hl.select(p > 9, 1, 0)))
    hw_output[x, y] = acc[x, y][0] / hl.u16(hl.max(acc[x, y][1], 1))
    return accelerated(hw_output, hw_input, [acc])


@case("algorithm", "hl.undef() used as a value", (
    "{at}: hl.undef() stands for an element a Tuple update leaves unchanged, and is no value elsewhere: use it "
    "as an element of an update (f[x, y] = (f[x, y][0] + 1, hl.undef())), or write the value to keep "
    "(f[x, y][1])"))
def undef_as_value():
    x, y, input_, hw_input, hw_output = io_funcs()
    hw_output[x, y] = hl.select(hw_input[x, y] > 9, hw_input[x, y], hl.undef())  # <-
    return accelerated(hw_output, hw_input)


@undef_as_value.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hl.u16(0))
    pair[x, y] = (pair[x, y][0] + 1, hl.undef())
    hw_output[x, y] = pair[x, y][0] + pair[x, y][1]
    return accelerated(hw_output, hw_input, [pair])


@case("algorithm", "hl.undef() in a Tuple's pure definition", (
    "{at}: Func 'pair': hl.undef() in its pure definition; undef() keeps an element's value in an update, so "
    "the pure definition needs a value for every element (e.g. 0)"), func="pair")
def undef_in_pure_definition():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hl.undef())  # <-
    hw_output[x, y] = pair[x, y][0]
    return accelerated(hw_output, hw_input, [pair])


@undef_in_pure_definition.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hl.u16(0))
    hw_output[x, y] = pair[x, y][0] + pair[x, y][1]
    return accelerated(hw_output, hw_input, [pair])


@case("algorithm", "An update of argmax's copy that leaves a coordinate's field", (
    "{at}: In update definition 0 of Func \"best\":\nTuple element 0 may take values in [5, 8], but the pure "
    "definition copies an argmax or argmin, which packs this element into 2 bits ([0, 3], its RDom's range): "
    "clamp the value to that range (hl.clamp(v, 0, 3)), or define the pure definition from the elements cast to "
    "narrower types (e.g. (hl.u8(best[0]), ...))"), func="best", simulate=True)
def argmax_copy_update():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3)], "r")
    best = hl.Func("best")
    best[x, y] = hl.argmax(r, hw_input[x + r.x, y])
    best[x, y] = (best[x, y][0] + 5, best[x, y][1])  # <-
    hw_output[x, y] = hl.u16(best[x, y][0]) + best[x, y][1]
    return accelerated(hw_output, hw_input, [best])


@argmax_copy_update.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs(hl.UInt(8))
    r = hl.RDom([hl.Range(0, 3)], "r")
    arg = hl.argmax(r, hw_input[x + r.x, y])
    best = hl.Func("best")
    best[x, y] = (hl.u8(arg[0]), arg[1])
    best[x, y] = (best[x, y][0] + 5, best[x, y][1])
    hw_output[x, y] = hl.u16(best[x, y][0]) + best[x, y][1]
    return accelerated(hw_output, hw_input, [best])


@case("algorithm", "update() of a Func whose RDom is an inline reduction's (hl.argmax)", (
    '{at}: Call to update with index larger than last defined update stage for Func "best": update(0), but it has '
    "0 update definition(s); its RDom r belongs to the inline reduction hl.argmax(...), which has no Func to "
    "schedule (as in Halide) and which the accelerator computes whole, all of r at once: remove the update() call "
    "(or, to schedule the reduction, define best with an update over r)"), func="best", simulate=True)
def argmax_update_unroll():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    best = hl.Func("best")
    best[x, y] = hl.argmax(hw_input[x + r.x, y + r.y])
    best.update().unroll(r.x).unroll(r.y)  # <-
    hw_output[x, y] = hl.u16(best[x, y][0] + 3 * best[x, y][1]) + best[x, y][2]
    return accelerated(hw_output, hw_input, [best])


@argmax_update_unroll.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    r = hl.RDom([hl.Range(0, 3), hl.Range(0, 2)], "r")
    best = hl.Func("best")
    best[x, y] = hl.argmax(hw_input[x + r.x, y + r.y])
    hw_output[x, y] = hl.u16(best[x, y][0] + 3 * best[x, y][1]) + best[x, y][2]
    return accelerated(hw_output, hw_input, [best])


@case("algorithm", "A select between a Tuple and a single value", (
    "{at}: select of Tuples needs every value to be a Tuple of the same size; got a Tuple of 2, a value: write "
    "each value as a Tuple of as many elements (e.g. (v, f[x, y][1])), or select each element apart"),
    simulate=True)
def select_tuple_and_value():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = hl.select(hw_input[x, y] > 9, (hw_input[x, y], hl.u16(1)), hw_input[x + 1, y])  # <-
    hw_output[x, y] = pair[x, y][0] + pair[x, y][1]
    return accelerated(hw_output, hw_input, [pair])


@select_tuple_and_value.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = hl.select(hw_input[x, y] > 9, (hw_input[x, y], hl.u16(1)), (hw_input[x + 1, y], hl.u16(0)))
    hw_output[x, y] = pair[x, y][0] + pair[x, y][1]
    return accelerated(hw_output, hw_input, [pair])


@case("algorithm", "The type of a Tuple Func", (
    "{at}: Can't call Func::type on Func \"pair\" because it returns a Tuple (of 2 elements); call types(), "
    "which gives one per element"), func="pair", simulate=True)
def tuple_type():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hw_input[x, y] > 9)
    hw_output[x, y] = hl.cast(pair.type(), pair[x, y][0] * 2)  # <-
    return accelerated(hw_output, hw_input, [pair])


@tuple_type.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hw_input[x, y] > 9)
    hw_output[x, y] = hl.cast(pair.types()[0], pair[x, y][0] * 2)
    return accelerated(hw_output, hw_input, [pair])


@case("algorithm", "The value of a Tuple Func", (
    "{at}: Can't call Func::value on Func \"pair\" because it returns a Tuple (of 2 elements); call values(), "
    "which gives one per element"), func="pair")
def tuple_value():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hw_input[x + 1, y])
    hw_output[x, y] = pair.value() + 1  # <-
    return accelerated(hw_output, hw_input, [pair])


@tuple_value.fix
def _():
    x, y, input_, hw_input, hw_output = io_funcs()
    pair = hl.Func("pair")
    pair[x, y] = (hw_input[x, y], hw_input[x + 1, y])
    hw_output[x, y] = pair.values()[0] + 1
    return accelerated(hw_output, hw_input, [pair])
