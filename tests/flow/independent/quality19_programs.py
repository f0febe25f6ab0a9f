"""Quality19 (session 34): bilateral grids (a scatter into a 3-D grid of cells, then a slice reading the grid at
each pixel's cell), autoscheduled. The grid is a RAM (memories/ram.py) that every reader reads after its last
update, so the slice waits for the whole scatter and the input streams twice (memories/late_streams.py): the ideal
adds the passes up (mainspring/ideal.py). Figures: BENCHMARKS.md "Helper quality19, session 34"."""


def bilateral_grid_sum(m, w, h, s=4, zb=16):
    """The sum of the pixels of each (x / s, y / s, value / zb) cell, read back at each pixel's cell, >> 4."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y, z = m.Var("x"), m.Var("y"), m.Var("z")
    r = m.RDom([(0, w), (0, h)], "r")
    grid, out = m.Func("grid"), m.Func("sliced")
    grid[x, y, z] = m.u16(0)
    grid[r.x // s, r.y // s, m.i32(inp[r.x, r.y]) // zb] += m.u16(inp[r.x, r.y])
    out[x, y] = m.u8(grid[x // s, y // s, m.i32(inp[x, y]) // zb] >> 4)
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}


def bilateral_grid(m, w, h, s=4, zb=16):
    """A grid of sums (c = 0) and counts (c = 1), two updates, sliced and normalised: each pixel becomes the mean of
    the pixels of its cell."""
    inp = m.ImageParam(m.UInt(8), 2, "inp")
    x, y, z, c = m.Var("x"), m.Var("y"), m.Var("z"), m.Var("c")
    r = m.RDom([(0, w), (0, h)], "r")
    grid, out = m.Func("grid"), m.Func("sliced")
    cell = (r.x // s, r.y // s, m.i32(inp[r.x, r.y]) // zb)
    grid[x, y, z, c] = m.u16(0)
    grid[cell + (0,)] += m.u16(inp[r.x, r.y])
    grid[cell + (1,)] += m.u16(1)
    at = (x // s, y // s, m.i32(inp[x, y]) // zb)
    out[x, y] = m.u8(grid[at + (0,)] / m.max(grid[at + (1,)], m.u16(1)))
    out.set_estimates([(0, w), (0, h)])
    return out, {"inp": inp}
