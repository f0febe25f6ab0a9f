"""How an automatic schedule's source names the loops it schedules, so that it applies to a fresh copy of the
algorithm: pure Vars by name, the RVars of a named RDom (`hl.RDom(..., "win")`) by name, and the RVars of an
unnamed one by the update they belong to and their place in it (`vars["blur.update(0).x"]`).

An unnamed RDom's name comes from a counter over the process (`r0`, `r1`, ...), so a copy of the algorithm built
again in the same process (a test, a generator built twice, a notebook cell run again) names its RVars `r1$x`
where the schedule says `r0$x`, and `unroll("r0$x")` found no such loop. Halide's own schedule sources name such
an RVar by its stage and position for the same reason (`f.update(0).get_schedule().dims()[0].var`).

A constant `hl.Buffer` made without a name (`hl.Buffer(table)`), or an ImageParam, takes its name from a counter
too (`b0`, `b1`, ...): the schedule names it by its place among the pipeline's images so named, in the order they
were made (`funcs["buffer(0)"]`), which a copy built again keeps (`funcs["b0"]` raised a KeyError on it).
"""

from __future__ import annotations

from .frontend.func import Function
from .frontend.params import made_by_buffer_counter
from .frontend.pipeline import Pipeline
from .frontend.vars import RVar, Var, made_by_counter


def _key(pipe: Pipeline, f: Function, k: int, rvar: str) -> str:
    return f"{pipe.name(f)}.update({k}).{rvar.split('$', 1)[1]}"


def rvar_source(pipe: Pipeline, f: Function, k: int, name: str) -> str:
    """How the source names loop `name` of update k of f: a pure Var, or an RVar as the module's notes say."""
    if name in f.args:
        return f'vars["{name}"]'
    rdom = pipe.definitions(f)[k + 1].rdom
    assert rdom is not None and any(r == name for r, _, _ in rdom.dims), (pipe.name(f), k, name)
    if made_by_counter(rdom.name):
        return f'vars["{_key(pipe, f, k, name)}"]'
    return f'"{name}"'


def pipeline_vars(pipe: Pipeline) -> dict:
    """What `schedule(funcs, vars)` takes as vars: the pure Vars of the pipeline's Funcs by name, and the RVars of
    its updates over unnamed RDoms by stage and position (see the module's notes)."""
    out: dict = {n: Var(n) for f in pipe.order for n in f.args}
    for f in pipe.order:
        for k, d in enumerate(pipe.definitions(f)[1:]):
            if d.rdom is not None and made_by_counter(d.rdom.name):
                out |= {_key(pipe, f, k, r): RVar(d.rdom, i) for i, (r, _, _) in enumerate(d.rdom.dims)}
    return out


def unnamed_images(pipe: Pipeline) -> dict[str, str]:
    """Each of pipe's images named by the counter (`b7`) -> how the schedule names it (`buffer(0)`): by the order
    the counter made them (see the module's notes)."""
    named = sorted((n for n in pipe.inputs if made_by_buffer_counter(n)), key=lambda n: int(n[1:]))
    return {n: f"buffer({k})" for k, n in enumerate(named)}


def image_source(pipe: Pipeline, name: str) -> str:
    """How the schedule names image `name` among `funcs`: by its name, or by its place if the counter named it."""
    return unnamed_images(pipe).get(name, name)
