"""Autorate17's hand schedules (session 33): consumers whose producer has more lanes than they read per cycle, which
Halide accepts and mainspring refused ("the producer's lanes must divide what the consumer reads per cycle") unless
narrow.py could run the producer in fewer lanes. Each written in module m (`mainspring`, or `halide`, which gets no
hardware schedule), returning (output, {name: ImageParam}, size).

The finding fixed (hwlower/lane_steps.py): `up(x, y) = f(x / 2, y / 2)` with every Func and the input at 2 lanes was
refused without a GLB level and compiled with one (where f's input is a Func copy, which narrow.py narrows). A
consumer now reads a stream's words in turn, its loop over x split in steps of k / gcd(k, c) iterations (each
reading fixed words), where it reads the stream through at most two ports; so a Func that a narrower reader needs
narrowed may read its stream so (narrow.py's floors). Producers computed inside are not read in turn: they would
run ahead of the slower reader (a 3-lane output over a 2-lane blur held 1,356 words for 314)."""

from probe16_programs import _funcs, _hw, _input, _up_split, _vars


def up_every_func_two_lanes(m):
    """The brief's case: up(x, y) = f(x / 2, y / 2), hw_output split by 4 and unrolled by 2, up, f and the input
    unrolled by 2 (f is narrowed to one lane, which reads the input's two lanes in turn)."""
    return _up_split(m, (16, 8), 4, lanes=(2, 2, 2, 2))


def up_f_one_lane_over_a_two_lane_stream(m):
    """f at one lane reads the input's 2-word transfers in turn."""
    return _up_split(m, (16, 8), 4, lanes=(2, 2, 1, 2))


def _tiles(m, output, hw_output, hw_input, inner, size):
    x, y, xo, yo, xi, yi = _vars(m, "x y xo yo xi yi")
    output.bound(x, 0, size[0]).bound(y, 0, size[1])
    hw_output.compute_root().tile(x, y, xo, yo, xi, yi, *size).hw_accelerate(xi, xo)
    for f in inner:
        f.compute_at(hw_output, xo)
    hw_input.compute_root().stream_to_accelerator()
    return xi


def one_lane_between_two_lane_stages(m):
    """mid (two taps of the input along x) at one lane between a 2-lane stream and a 2-lane output (the error
    catalogue's lanes_disagree until session 33): the output is paced to mid."""
    inp, x, y, hw_input = _input(m)
    mid, hw_output, output = _funcs(m, "mid hw_output output")
    mid[x, y] = hw_input[x, y] + hw_input[x + 1, y]
    hw_output[x, y] = mid[x, y] + mid[x, y + 1]
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xi = _tiles(m, output, hw_output, hw_input, [mid], (8, 8))
        hw_input.unroll(x, 2, m.TailStrategy.RoundUp)
        hw_output.unroll(xi, 2, m.TailStrategy.RoundUp)
    return output, {"input": inp}, [8, 8]


def serial_taps_across_a_stream(m):
    """acc sums 4 taps of a 2-lane stream in a serial r.x at 2 lanes: r.x runs 2 steps of 2 iterations."""
    inp, x, y, hw_input = _input(m)
    acc, hw_output, output = _funcs(m, "acc hw_output output")
    r = m.RDom([m.Range(0, 4)], "r")
    acc[x, y] = m.u16(0)
    acc[x, y] += hw_input[x + r.x, y]
    hw_output[x, y] = acc[x, y]
    output[x, y] = hw_output[x, y]
    if _hw(m):
        xi = _tiles(m, output, hw_output, hw_input, [acc], (8, 8))
        acc.unroll(x, 2)
        acc.update().unroll(x, 2)
        hw_output.unroll(xi, 2)
        hw_input.unroll(x, 2)
    return output, {"input": inp}, [8, 8]


def box3_of_a_two_lane_scale(m):
    """f (a scale of the 2-lane input) unrolled by 2 under a one-lane 3x3 box: f is narrowed to one lane, which
    reads the input's lanes in turn (a 3x3 reader stepping through f's lanes would take 18 reads: refused)."""
    inp, x, y, hw_input = _input(m)
    f, g, hw_output, output = _funcs(m, "f g hw_output output")
    f[x, y] = hw_input[x, y] * 2
    g[x, y] = sum(f[x + i, y + j] for i in range(3) for j in range(3))
    hw_output[x, y] = g[x, y]
    output[x, y] = hw_output[x, y]
    if _hw(m):
        _tiles(m, output, hw_output, hw_input, [f, g], (16, 8))
        hw_input.unroll(x, 2)
        f.unroll(x, 2)
    return output, {"input": inp}, [16, 8]


CASES = {f.__name__: f for f in (
    up_every_func_two_lanes, up_f_one_lane_over_a_two_lane_stream, one_lane_between_two_lane_stages,
    serial_taps_across_a_stream, box3_of_a_two_lane_scale,
)}
