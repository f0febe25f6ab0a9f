"""Loop nests built by hand for the memories tests (the shapes hwlower produces, plus a few it may)."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.types import Int, UInt
from mainspring.hwlower.ir import Access, Affine, Buffer, CoordPort, LoadPort, Loop, LoopNest, Op

U16 = UInt(16)


def aff(const: int = 0, **terms: int) -> Affine:
    return Affine.make(terms, const)


def at(x: Affine | str, y: Affine | str) -> tuple[Affine, Affine]:
    return tuple(aff(0, **{v: 1}) if isinstance(v, str) else v for v in (x, y))


def load(name: str, buffer: str, index) -> tuple[LoadPort, ir.Call]:
    port = LoadPort(name, Access(buffer, tuple(index)))
    return port, ir.Call(U16, port, ())


def op(name: str, buffer: str, index, loads, value, stage: int = 0, func: str | None = None, coords=()) -> Op:
    return Op(name, func or buffer, stage, Access(buffer, tuple(index)), tuple(loads), value, tuple(coords))


def grid(prefix: str, width: int, height: int, body) -> Loop:
    """for y in 0..height: for x in 0..width: body (loop vars '<prefix>.y', '<prefix>.x')."""
    inner = Loop(f"{prefix}.x", 0, width, tuple(body))
    return Loop(f"{prefix}.y", 0, height, (inner,))


def copy_op(name: str, dst: str, src: str, prefix: str, dx: int = 0, dy: int = 0) -> Op:
    x, y = f"{prefix}.x", f"{prefix}.y"
    port, call = load(f"{src}_0", src, (aff(dx, **{x: 1}), aff(dy, **{y: 1})))
    return op(name, dst, at(x, y), [port], call)


def add_all(calls) -> ir.Expr:
    acc = calls[0]
    for c in calls[1:]:
        acc = ir.BinOp(U16, "add", acc, c)
    return acc


def stencil_op(name: str, dst: str, src: str, prefix: str, size: int = 3, func: str | None = None,
               stage: int = 0, accumulate: bool = False) -> Op:
    """dst(x, y) = [dst(x, y) +] sum over a size x size window of src(x + i, y + j), one load per tap."""
    x, y = f"{prefix}.x", f"{prefix}.y"
    ports, calls = [], []
    if accumulate:
        p, c = load(f"{dst}_0", dst, at(x, y))
        ports.append(p)
        calls.append(c)
    for j in range(size):
        for i in range(size):
            p, c = load(f"{src}_{len(ports)}", src, (aff(i, **{x: 1}), aff(j, **{y: 1})))
            ports.append(p)
            calls.append(c)
    return op(name, dst, at(x, y), ports, add_all(calls), stage=stage, func=func)


def shift_op(name: str, dst: str, src: str, prefix: str, amount: int) -> Op:
    x, y = f"{prefix}.x", f"{prefix}.y"
    p, c = load(f"{src}_0", src, at(x, y))
    return op(name, dst, at(x, y), [p], ir.BinOp(U16, "shr", c, ir.Const(U16, amount)))


def buffers(*specs) -> tuple[Buffer, ...]:
    return tuple(Buffer(n, U16, ((0, w), (0, h))) for n, w, h in specs)


def brighten(width: int = 64, height: int = 64) -> LoopNest:
    """hw_input -> brighter = hw_input * 2 -> hw_output (a copy)."""
    p, c = load("hw_input_0", "hw_input", at("b.x", "b.y"))
    bright = op("brighter_s0", "brighter", at("b.x", "b.y"), [p], ir.BinOp(U16, "mul", c, ir.Const(U16, 2)))
    return LoopNest("brighten", buffers(("hw_input", width, height), ("brighter", width, height),
                                        ("hw_output", width, height)),
                    ("hw_input",), "hw_output",
                    (grid("b", width, height, [bright]), grid("o", width, height, [copy_op("hw_output_s0",
                                                                                     "hw_output", "brighter", "o")])))


def gaussian(width: int = 64, height: int = 64, init_update: bool = False, input_copy: bool = False) -> LoopNest:
    """A 3x3 blur, (width-2) x (height-2) output, the 9 taps in one op (as hwlower folds unrolled reductions).

    init_update: a pure init s0 (= 0) then the 9-tap update s1 that also loads the accumulator.
    input_copy: the input is first copied by an op (hw_input -> in_copy), which must follow the stream.
    """
    ow, oh = width - 2, height - 2
    src = "in_copy" if input_copy else "hw_input"
    body = []
    bufs = [("hw_input", width, height)]
    if input_copy:
        bufs.append(("in_copy", width, height))
        body.append(grid("c", width, height, [copy_op("in_copy_s0", "in_copy", "hw_input", "c")]))
    bufs += [("blur_unnormalized", ow, oh), ("blur", ow, oh), ("hw_output", ow, oh)]
    if init_update:
        zero = op("blur_unnormalized_s0", "blur_unnormalized", at("u0.x", "u0.y"), [], ir.Const(U16, 0))
        body.append(grid("u0", ow, oh, [zero]))
        body.append(grid("u1", ow, oh, [stencil_op("blur_unnormalized_s1", "blur_unnormalized", src, "u1",
                                                   func="blur_unnormalized", stage=1, accumulate=True)]))
    else:
        body.append(grid("u", ow, oh, [stencil_op("blur_unnormalized_s0", "blur_unnormalized", src, "u")]))
    body.append(grid("b", ow, oh, [shift_op("blur_s0", "blur", "blur_unnormalized", "b", 4)]))
    body.append(grid("o", ow, oh, [copy_op("hw_output_s0", "hw_output", "blur", "o")]))
    return LoopNest("gaussian", buffers(*bufs), ("hw_input",), "hw_output", tuple(body))


def cascade(width: int = 64, height: int = 64) -> LoopNest:
    """Two chained 3x3 box blurs: 64x64 in, 62x62 in between, 60x60 out."""
    w1, h1, w2, h2 = width - 2, height - 2, width - 4, height - 4
    body = (
        grid("c1", w1, h1, [stencil_op("conv1_s0", "conv1", "hw_input", "c1")]),
        grid("b1", w1, h1, [shift_op("blur1_s0", "blur1", "conv1", "b1", 3)]),
        grid("c2", w2, h2, [stencil_op("conv2_s0", "conv2", "blur1", "c2")]),
        grid("o", w2, h2, [shift_op("hw_output_s0", "hw_output", "conv2", "o", 3)]),
    )
    return LoopNest("cascade", buffers(("hw_input", width, height), ("conv1", w1, h1), ("blur1", w1, h1),
                                       ("conv2", w2, h2), ("hw_output", w2, h2)),
                    ("hw_input",), "hw_output", body)


def unrolled_box(width: int = 16, height: int = 16) -> LoopNest:
    """A 3x3 box sum as an update inside unrolled loops (lanes): s1 reads its own accumulator each lane."""
    ow, oh = width - 2, height - 2
    zero = op("sum_s0", "sum", at("s0.x", "s0.y"), [], ir.Const(U16, 0))
    pa, ca = load("sum_0", "sum", at("s1.x", "s1.y"))
    pi, ci = load("hw_input_1", "hw_input", (aff(0, **{"s1.x": 1, "s1.rx": 1}), aff(0, **{"s1.y": 1, "s1.ry": 1})))
    upd = op("sum_s1", "sum", at("s1.x", "s1.y"), [pa, pi], ir.BinOp(U16, "add", ca, ci), stage=1)
    lanes = Loop("s1.ry", 0, 3, (Loop("s1.rx", 0, 3, (upd,), unrolled=True),), unrolled=True)
    s1 = Loop("s1.y", 0, oh, (Loop("s1.x", 0, ow, (lanes,)),))
    return LoopNest("unrolled_box", buffers(("hw_input", width, height), ("sum", ow, oh), ("hw_output", ow, oh)),
                    ("hw_input",), "hw_output",
                    (grid("s0", ow, oh, [zero]), s1, grid("o", ow, oh, [copy_op("hw_output_s0", "hw_output", "sum",
                                                                                "o")])))


def sequential_reduction(width: int = 16, height: int = 8, taps: int = 4) -> LoopNest:
    """sum(x, y) = sum over r in 0..taps of in(x + r, y), the r loop NOT unrolled (a sequential reduction)."""
    ow = width - taps + 1
    zero = op("sum_s0", "sum", at("s0.x", "s0.y"), [], ir.Const(U16, 0))
    pa, ca = load("sum_0", "sum", at("s1.x", "s1.y"))
    pi, ci = load("in_copy_1", "in_copy", (aff(0, **{"s1.x": 1, "s1.r": 1}), aff(0, **{"s1.y": 1})))
    upd = op("sum_s1", "sum", at("s1.x", "s1.y"), [pa, pi], ir.BinOp(U16, "add", ca, ci), stage=1)
    s1 = Loop("s1.y", 0, height, (Loop("s1.x", 0, ow, (Loop("s1.r", 0, taps, (upd,)),)),))
    return LoopNest("sequential_reduction",
                    buffers(("hw_input", width, height), ("in_copy", width, height), ("sum", ow, height),
                            ("hw_output", ow, height)),
                    ("hw_input",), "hw_output",
                    (grid("c", width, height, [copy_op("in_copy_s0", "in_copy", "hw_input", "c")]),
                     grid("s0", ow, height, [zero]), s1,
                     grid("o", ow, height, [copy_op("hw_output_s0", "hw_output", "sum", "o")])))


def total_sum(width: int = 8, height: int = 4) -> LoopNest:
    """total(0) = sum of every input pixel: a pure init with no loops, then a reduction over both loops."""
    zero = op("total_s0", "total", (aff(0),), [], ir.Const(U16, 0))
    pa, ca = load("total_0", "total", (aff(0),))
    pi, ci = load("hw_input_1", "hw_input", at("r.x", "r.y"))
    upd = op("total_s1", "total", (aff(0),), [pa, pi], ir.BinOp(U16, "add", ca, ci), stage=1)
    return LoopNest("total_sum", (Buffer("hw_input", U16, ((0, width), (0, height))), Buffer("total", U16, ((0, 1),))),
                    ("hw_input",), "total", (zero, grid("r", width, height, [upd])))


def downsample(width: int = 16, height: int = 16) -> LoopNest:
    """hw_output(x, y) = hw_input(2x, 2y) + hw_input(2x + 1, 2y + 1): a consumer at a quarter of the rate."""
    p0, c0 = load("hw_input_0", "hw_input", (aff(0, **{"d.x": 2}), aff(0, **{"d.y": 2})))
    p1, c1 = load("hw_input_1", "hw_input", (aff(1, **{"d.x": 2}), aff(1, **{"d.y": 2})))
    down = op("hw_output_s0", "hw_output", at("d.x", "d.y"), [p0, p1], ir.BinOp(U16, "add", c0, c1))
    return LoopNest("downsample", buffers(("hw_input", width, height), ("hw_output", width // 2, height // 2)),
                    ("hw_input",), "hw_output", (grid("d", width // 2, height // 2, [down]),))


def scan(width: int = 16, height: int = 4) -> LoopNest:
    """A running sum along each row: prefix(x, y) = prefix(x - 1, y) + in(x, y), x >= 1 (a scan)."""
    first = copy_op("prefix_s0", "prefix", "hw_input", "p0")
    first = op("prefix_s0", "prefix", at("p0.x", "p0.y"), first.loads, first.value)
    pa, ca = load("prefix_0", "prefix", (aff(-1, **{"p1.x": 1}), aff(0, **{"p1.y": 1})))
    pi, ci = load("hw_input_1", "hw_input", (aff(0, **{"p1.x": 1}), aff(0, **{"p1.y": 1})))
    upd = op("prefix_s1", "prefix", (aff(0, **{"p1.x": 1}), aff(0, **{"p1.y": 1})), [pa, pi],
             ir.BinOp(U16, "add", ca, ci), stage=1)
    s1 = Loop("p1.y", 0, height, (Loop("p1.x", 1, width - 1, (upd,)),))
    return LoopNest("scan", buffers(("hw_input", width, height), ("prefix", width, height)), ("hw_input",), "prefix",
                    (Loop("p0.y", 0, height, (Loop("p0.x", 0, 1, (first,)),)), s1))


def spaced_taps(width: int = 16, height: int = 4, step: int = 3) -> LoopNest:
    """sum(x, y) = hw_input(x, y) + hw_input(x + step, y) + hw_input(x + 2 * step, y): taps `step` writes apart."""
    x, y = "s.x", "s.y"
    ports, calls = [], []
    for k in range(3):
        p, c = load(f"hw_input_{k}", "hw_input", (aff(step * k, **{x: 1}), aff(0, **{y: 1})))
        ports.append(p)
        calls.append(c)
    ow = width - 2 * step
    return LoopNest("spaced_taps", buffers(("hw_input", width, height), ("sum", ow, height), ("hw_output", ow, height)),
                    ("hw_input",), "hw_output",
                    (grid("s", ow, height, [op("sum_s0", "sum", at(x, y), ports, add_all(calls))]),
                     grid("o", ow, height, [copy_op("hw_output_s0", "hw_output", "sum", "o")])))


def late_read(width: int = 16, height: int = 8, full: bool = False) -> LoopNest:
    """a = 2 * hw_input over a (width - 2)-wide box (rows with gaps); hw_output(x, y) = a(x, y) + hw_input(x + 2,
    y + 2) fires when hw_input(x + 2, y + 2) arrives: two rows after a(x, y), at the row ends in a gap of a.
    a has height - 2 rows (its last two rows are read after its last write), or all rows when `full`."""
    ow, oh = width - 2, height - 2
    pi, ci = load("hw_input_0", "hw_input", at("a.x", "a.y"))
    double = op("a_s0", "a", at("a.x", "a.y"), [pi], ir.BinOp(U16, "mul", ci, ir.Const(U16, 2)))
    pa, ca = load("a_0", "a", at("o.x", "o.y"))
    pl, cl = load("hw_input_1", "hw_input", (aff(2, **{"o.x": 1}), aff(2, **{"o.y": 1})))
    out = op("hw_output_s0", "hw_output", at("o.x", "o.y"), [pa, pl], ir.BinOp(U16, "add", ca, cl))
    ah = height if full else oh
    return LoopNest("late_read", buffers(("hw_input", width, height), ("a", ow, ah), ("hw_output", ow, oh)),
                    ("hw_input",), "hw_output", (grid("a", ow, ah, [double]), grid("o", ow, oh, [out])))


def gaussian_lanes(out_width: int = 62, out_height: int = 62, lanes: int = 2) -> LoopNest:
    """The 3x3 blur at `lanes` pixels per cycle: the host streams `lanes` words per transfer (its input box
    rounded up to a multiple of the lanes, as a RoundUp tail makes it), the stencil and the output copy unroll
    x by `lanes` (out_width a multiple of the lanes)."""
    assert out_width % lanes == 0
    iw = -(-(out_width + 2) // lanes) * lanes
    body = []
    for prefix, dst, src, taps in (("u", "blur_unnormalized", "hw_input", 3),
                                   ("o", "hw_output", "blur_unnormalized", 1)):
        x, xi, y = f"{prefix}.x", f"{prefix}.xi", f"{prefix}.y"
        ports, calls = [], []
        for j in range(taps):
            for i in range(taps):
                p, c = load(f"{src}_{len(ports)}", src, (aff(i, **{x: lanes, xi: 1}), aff(j, **{y: 1})))
                ports.append(p)
                calls.append(c)
        o = op(f"{dst}_s0", dst, (aff(0, **{x: lanes, xi: 1}), aff(0, **{y: 1})), ports, add_all(calls))
        lane = Loop(xi, 0, lanes, (o,), unrolled=True)
        body.append(Loop(y, 0, out_height, (Loop(x, 0, out_width // lanes, (lane,)),)))
    return LoopNest(f"gaussian_lanes{lanes}",
                    buffers(("hw_input", iw, out_height + 2), ("blur_unnormalized", out_width, out_height),
                            ("hw_output", out_width, out_height)),
                    ("hw_input",), "hw_output", tuple(body), (("hw_input", lanes), ("hw_output", lanes)))


def coordinates(width: int = 10, height: int = 4, lanes: int = 2) -> LoopNest:
    """hw_output(x, y) = hw_input(x, y) + (width - 1 - x) + (2 * y + 3): coordinates read as values (`CoordPort`),
    the mirrored column falling along x (by `lanes` per firing, one lane apart), the other rising by 2 along y."""
    x, xi, y = "o.x", "o.xi", "o.y"
    column = aff(0, **{x: lanes, xi: 1})
    mirrored = CoordPort("coord_x", aff(width - 1, **{x: -lanes, xi: -1}))
    rising = CoordPort("coord_y", aff(3, **{y: 2}))
    p, c = load("hw_input_0", "hw_input", (column, aff(0, **{y: 1})))
    both = ir.BinOp(Int(32), "add", ir.Call(Int(32), mirrored, ()), ir.Call(Int(32), rising, ()))
    out = op("hw_output_s0", "hw_output", (column, aff(0, **{y: 1})), [p], ir.BinOp(U16, "add", c, ir.Cast(U16, both)),
             coords=(mirrored, rising))
    lane = Loop(xi, 0, lanes, (out,), unrolled=True)
    return LoopNest("coordinates", buffers(("hw_input", width, height), ("hw_output", width, height)), ("hw_input",),
                    "hw_output", (Loop(y, 0, height, (Loop(x, 0, width // lanes, (lane,)),)),),
                    (("hw_input", lanes), ("hw_output", lanes)))
