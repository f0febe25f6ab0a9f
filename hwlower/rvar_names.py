"""Hardware names for the loops and coordinates of RDoms (and schedule RVars) made without a name.

The frontend names those from a counter over the process (`r0`, `r1`, ..., as Halide does), so the same algorithm
built again after other RDoms were made (a fresh copy with a pasted `schedule_source`, a test run after others)
would name its loops (`conv.s1.r4$y`) and coordinate ports (`coord_r4_y`) otherwise, and its design would differ by
those names. In the hardware each such name is named by its place in the pipeline instead: the first one the
pipeline's definitions meet (Funcs producers first; in each definition its RDom's dimensions, then its loops) is
`r0`, the next `r1`, and so on. Every name the counter made is renamed, so none is taken twice. Messages keep the
names the user's program has.
"""

from __future__ import annotations

from mainspring.frontend.pipeline import Pipeline
from mainspring.frontend.vars import made_by_counter


def unnamed_rdoms(pipe: Pipeline) -> dict[str, str]:
    """Each counter-made RDom name in pipe's RVars and loops (`r4` of `r4$x`) -> its name by place (`r0`)."""
    out: dict[str, str] = {}
    for f in pipe.order:
        for d in pipe.definitions(f):
            names = [n for n, _, _ in d.rdom.dims] if d.rdom is not None else []
            for n in names + d.schedule.dim_names():
                stem, sep, _ = n.partition("$")
                if sep and made_by_counter(stem) and stem not in out:
                    out[stem] = f"r{len(out)}"
    return out


def hardware_name(name: str, renames: dict[str, str]) -> str:
    """The loop or coordinate `name` (`r4$x`, `r4$x@2`) as the hardware names it (`r0$x`, `r0$x@2`)."""
    stem, sep, rest = name.partition("$")
    return f"{renames[stem]}{sep}{rest}" if sep and stem in renames else name
