"""Timings of the NumPy reference (`Func.realize`) on two full-HD pipelines; a benchmark, not a test.

    .venv/bin/python tests/frontend/bench_reference.py [--repeat N] [--check]

- a 3x3 Gaussian on a 1920x1080 output (target: under 2 s);
- a 13-stage Harris corner detector (input, its boundary condition and 11 Funcs) on 1920x1080 (target: 5 s).
`--check` also runs both with Halide and asserts the outputs are equal bit for bit.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mainspring

W, H = 1920, 1080


def gaussian(hl, image):
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    inp.set(hl.Buffer(image))
    k = [[1, 2, 1], [2, 4, 2], [1, 2, 1]]
    blur = hl.Func("blur")
    blur[x, y] = hl.u8(sum(hl.u16(inp[x + dx, y + dy]) * k[dy][dx] for dy in range(3) for dx in range(3)) >> 4)
    return blur, [W, H]


def _box3(hl, name, f, x, y):
    win = hl.RDom([hl.Range(-1, 3), hl.Range(-1, 3)], f"{name}_win")
    s = hl.Func(name)
    s[x, y] = hl.i32(0)
    s[x, y] += hl.i32(f[x + win.x, y + win.y])
    return s


def harris(hl, image):
    x, y = hl.Var("x"), hl.Var("y")
    inp = hl.ImageParam(hl.UInt(8), 2, "input")  # stage 1
    inp.set(hl.Buffer(image))
    clamped = hl.BoundaryConditions.repeat_edge(inp)  # 2
    gray = hl.Func("gray")  # 3
    gray[x, y] = hl.i16(clamped[x, y])
    gx, gy = hl.Func("grad_x"), hl.Func("grad_y")  # 4, 5
    gx[x, y] = (gray[x + 1, y - 1] - gray[x - 1, y - 1]) + 2 * (gray[x + 1, y] - gray[x - 1, y]) \
        + (gray[x + 1, y + 1] - gray[x - 1, y + 1])
    gy[x, y] = (gray[x - 1, y + 1] - gray[x - 1, y - 1]) + 2 * (gray[x, y + 1] - gray[x, y - 1]) \
        + (gray[x + 1, y + 1] - gray[x + 1, y - 1])
    lxx, lyy, lxy = hl.Func("lxx"), hl.Func("lyy"), hl.Func("lxy")  # 6, 7, 8
    lxx[x, y] = hl.i16((hl.i32(gx[x, y]) * gx[x, y]) >> 7)
    lyy[x, y] = hl.i16((hl.i32(gy[x, y]) * gy[x, y]) >> 7)
    lxy[x, y] = hl.i16((hl.i32(gx[x, y]) * gy[x, y]) >> 7)
    sxx, syy, sxy = (_box3(hl, n, f, x, y) for n, f in (("sxx", lxx), ("syy", lyy), ("sxy", lxy)))  # 9, 10, 11
    cim = hl.Func("cim")  # 12
    a, b, c = sxx[x, y] >> 3, syy[x, y] >> 3, sxy[x, y] >> 3
    cim[x, y] = a * b - c * c - (((a + b) * (a + b)) >> 4)
    out = hl.Func("corners")  # 13
    v = cim[x, y]
    is_max = v > 1
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                is_max = is_max & (v > cim[x + dx, y + dy])
    out[x, y] = hl.select(is_max, hl.u8(255), hl.u8(0))
    return out, [W, H]


def _time(program, image, repeat: int) -> tuple[float, np.ndarray]:
    best, result = float("inf"), None
    for _ in range(repeat):
        f, sizes = program(mainspring, image)
        t = time.perf_counter()
        result = np.asarray(f.realize(sizes))
        best = min(best, time.perf_counter() - t)
    return best, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per pipeline (the best is reported)")
    ap.add_argument("--check", action="store_true", help="compare with Halide bit for bit")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    gauss_in = rng.integers(0, 256, size=(H + 2, W + 2), dtype=np.uint8)
    harris_in = rng.integers(0, 256, size=(H, W), dtype=np.uint8)
    for name, program, image, target in (("gaussian 3x3", gaussian, gauss_in, 2.0),
                                         ("harris (13 stages)", harris, harris_in, 5.0)):
        seconds, got = _time(program, image, args.repeat)
        verdict = "ok" if seconds < target else "SLOW"
        print(f"{name:20s} {W}x{H}: {seconds:6.3f} s  (target < {target:.0f} s: {verdict})")
        if args.check:
            import halide

            f, sizes = program(halide, image)
            expected = np.asarray(f.realize(sizes))
            assert expected.dtype == got.dtype and np.array_equal(expected, got), f"{name} differs from Halide"
            print(f"{'':20s} equal to Halide bit for bit")


if __name__ == "__main__":
    main()
