"""Algorithms written with no schedule that test files both here and in tests/flow/independent use, one copy each
(tests/flow is on sys.path for both: its conftest.py is). Each is written in module m (`mainspring` or `halide`)
and returns (output, {name: ImageParam}) with estimates set."""


def sad_match(m, w, h):
    """Block matching: the disparity 0..3 of least 3x3 SAD between left and right (argmin), u8."""
    left, right = m.ImageParam(m.UInt(8), 2, "left"), m.ImageParam(m.UInt(8), 2, "right")
    x, y, d = m.Var("x"), m.Var("y"), m.Var("d")
    diff, cost, disp = m.Func("diff"), m.Func("cost"), m.Func("disp")
    diff[x, y, d] = m.u16(m.absd(left[x, y], right[x - d, y]))
    cost[x, y, d] = sum(diff[x + i, y + j, d] for i in (-1, 0, 1) for j in (-1, 0, 1))
    r = m.RDom([(0, 4)], "r")
    disp[x, y] = m.u8(m.argmin(cost[x, y, r.x])[0])
    disp.set_estimates([(0, w), (0, h)])
    return disp, {"left": left, "right": right}
