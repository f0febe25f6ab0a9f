"""Catalogue cases: a design too large for its target, mistakes in what a compiled design is simulated with,
and mistakes on the command line."""

from __future__ import annotations

import os

import numpy as np

import mainspring as hl

from catalogue import SIM_BUILD, app_dir, case, command, image, scheduled, scratch

# ---- the target ---------------------------------------------------------------------------------------------


@case("memories", "A design that needs more PEs than the target has", (
    "{at}: design 'demo' needs 2 PEs but the target has 1: reduce unrolling or buffering, or compile for a "
    "larger target, e.g. hl.CGRA(num_pes=2)"))
def too_few_pes():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(num_pes=1))  # <-


@too_few_pes.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(num_pes=2))


@case("memories", "A target with a non-positive size",
      "{at}: CGRA(num_pes=0): expected an integer of at least 1, e.g. CGRA(num_pes=384)")
def target_of_zero_pes():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(num_pes=0))  # <-


@target_of_zero_pes.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(num_pes=100))


@case("memories", "A large design far over the target's memory tiles, refused by a bound before the exact count", (
    "{at}: design 'mobile' needs at least 7 memory tiles but the target has 1 ('pw_conv_reduction' alone holds at "
    "least 12288 values at once): reduce unrolling or buffering, or compile for a larger target, e.g. "
    "hl.CGRA(num_mem_tiles=7) or more"))
def far_too_few_memory_tiles():
    from mainspring import apps

    out, _ = apps.load("h2h_conv_layer_mobile").build(64, 64)
    return hl.compile(out, name="mobile", target=hl.CGRA(num_mem_tiles=1))  # <-


@far_too_few_memory_tiles.fix
def _():
    from mainspring import apps

    out, _ = apps.load("h2h_conv_layer_mobile").build(64, 64)  # the exact count: 7 memory tiles
    return hl.compile(out, name="mobile", target=hl.CGRA(num_mem_tiles=7))


@case("memories", "A target whose kernels may hold no PE op per pipeline stage",
      "{at}: CGRA(pe_ops_per_stage=0): expected an integer of at least 1, e.g. CGRA(pe_ops_per_stage=1)")
def target_of_zero_ops_per_stage():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(pe_ops_per_stage=0))  # <-


@target_of_zero_ops_per_stage.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(pe_ops_per_stage=2))


@case("memories", "A target with a negative bound on register banks",
      "{at}: CGRA(register_bank_words=-1): expected an integer of at least 0, e.g. CGRA(register_bank_words=4)")
def target_of_negative_register_bank_words():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(register_bank_words=-1))  # <-


@target_of_negative_register_bank_words.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="demo", target=hl.CGRA(register_bank_words=0))  # every bank on a tile


@case("memories", "compile with a name that is not an identifier",
      "{at}: compile(name='my design'): the design name must be a Python/Verilog identifier, e.g. "
      "name=\"my_design\"")
def design_name_not_an_identifier():
    p = scheduled()
    return hl.compile(p.output, name="my design")  # <-


@design_name_not_an_identifier.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="my_design")


@case("memories", "compile with a name that is a Verilog keyword", (
    "{at}: compile(name='design'): 'design' is a Verilog keyword, which the simulators refuse as a module "
    "name; choose another, e.g. name=\"design_top\""))
def design_name_a_verilog_keyword():
    p = scheduled()
    return hl.compile(p.output, name="design")  # <-


@design_name_a_verilog_keyword.fix
def _():
    p = scheduled()
    return hl.compile(p.output, name="design_top")


@case("memories", "compile with an unknown dump_after step",
      (r"{at}: --dump-after fold \(dump_after=\): unknown step; the steps are region, .*, lower, lower_kernel, "
       r".*, assign_stages, compute, dependences, rates, capacities, mapping, schedule, verilog"), regex=True)
def unknown_dump_step():
    p = scheduled()
    return hl.compile(p.output, name="demo", dump_after="fold")  # <-


@unknown_dump_step.fix
def _():
    p = scheduled()
    with open(scratch() + "/dump.txt", "w") as out:
        return hl.compile(p.output, name="demo", dump_after="fold_constants", out=out)


# ---- simulation ---------------------------------------------------------------------------------------------

def _check(inputs: dict, **kw):
    design = hl.compile(scheduled().output, name="demo")
    return design.check(inputs, simulator="icarus", build_dir=SIM_BUILD, **kw)  # <-check


@case("simulation", "check() with an input smaller than the region the design reads", (
    "Input buffer input is accessed at 8, which is beyond the max (7) in dimension 0. hw_input needs "
    "input over [0, 8] x [0, 8], but the buffer given covers [0, 7] x [0, 7]. Pass a larger input, "
    "or read input through a boundary condition (e.g. hl.BoundaryConditions.repeat_edge(input)). (at "
    "{check})"), simulate=True)
def input_too_small():
    return _check({"input": image(8, 8)})  # <-


@input_too_small.fix
def _():
    return _check({"input": image(9, 9)})


@case("simulation", "check() with an input of another type than its ImageParam", (
    "{check}: Input input has type uint8 but ImageParam input has type "
    "uint16: Can't bind ImageParam input of type uint16 to Buffer of type uint8; convert the array (e.g. "
    "array.astype(np.uint16)) or declare hl.ImageParam(UInt(16), ...)"), simulate=True)
def input_of_another_type():
    return _check({"input": image(9, 9).astype(np.uint8)})  # <-


@input_of_another_type.fix
def _():
    return _check({"input": image(9, 9).astype(np.uint16)})


@case("simulation", "check() with an input of the wrong number of dimensions", (
    "Input buffer input requires a buffer of exactly 2 dimensions, but the buffer passed in has 1 "
    "dimensions (at {check})"), simulate=True)
def input_of_wrong_dimensions():
    return _check({"input": image(9, 9).reshape(81)})  # <-


@input_of_wrong_dimensions.fix
def _():
    return _check({"input": image(9, 9)})


@case("simulation", "check() without the input", (
    "{check}: Buffer argument input is nullptr: ImageParam input is used "
    "by the pipeline of 'output' but no buffer was set; call input.set(hl.Buffer(array)) before "
    "realize, or pass it as inputs['input'] (the inputs given: 'image')"), simulate=True)
def input_missing():
    return _check({"image": image(9, 9)})  # <-


@input_missing.fix
def _():
    return _check({"input": image(9, 9)})


@case("simulation", "check() with a stall probability of 1 or more", (
    "{check}: simulate(bubbles=1.0): a probability in [0, 1) is needed (the share of cycles "
    "stalled), e.g. bubbles=0.5"), simulate=True)
def bubbles_of_one():
    return _check({"input": image(9, 9)}, bubbles=1.0)  # <-


@bubbles_of_one.fix
def _():
    return _check({"input": image(9, 9)}, bubbles=0.5)


def _gain_design():
    """hw_output multiplies each pixel by a run-time Param gain (a configuration register of the design)."""
    p = scheduled()
    gain = hl.Param(hl.UInt(16), "gain")
    p.hw_output = hl.Func("hw_output")
    p.hw_output[p.x, p.y] = p.hw_input[p.x, p.y] * gain
    p.output = hl.Func("output")
    p.output[p.x, p.y] = p.hw_output[p.x, p.y]
    p.output.bound(p.x, 0, 8).bound(p.y, 0, 8)
    p.hw_output.compute_root().tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, 8, 8).hw_accelerate(p.xi, p.xo)
    return hl.compile(p.output, name="demo")


@case("simulation", "check() without a value for a Param", (
    "{at}: Parameter gain does not have a valid scalar value: Param gain is used but was never set; "
    "call gain.set(value) before realize, or give it with the inputs of check() or simulate() "
    "({'gain': value})"), simulate=True)
def param_not_given():
    design = _gain_design()
    return design.check({"input": image(8, 8)}, simulator="icarus", build_dir=SIM_BUILD)  # <-


@param_not_given.fix
def _():
    design = _gain_design()
    return design.check({"input": image(8, 8), "gain": 3}, simulator="icarus", build_dir=SIM_BUILD)


# ---- the command line ---------------------------------------------------------------------------------------

@case("command line", "mainspring compile with a zero --size",
      "error: --size 0 8: an output size is two positive integers W H, e.g. --size 64 64")
def cli_zero_size():
    return command("compile", "brighten", "--size", "0", "8", "-o", scratch())


@cli_zero_size.fix
def _():
    return command("compile", "brighten", "--size", "8", "8", "-o", scratch())


@case("command line", "mainspring compile with zero --lanes",
      "error: --lanes 0: the pixels per cycle are a positive integer, e.g. --lanes 2")
def cli_zero_lanes():
    return command("compile", "gaussian", "--size", "8", "8", "--lanes", "0", "-o", scratch())


@cli_zero_lanes.fix
def _():
    return command("compile", "gaussian", "--size", "8", "8", "--lanes", "2", "-o", scratch())


@case("command line", "--lanes for an app whose build() takes no lanes", (
    "error: --lanes 2: app brighten's build() takes no lanes parameter; unroll its stages yourself "
    "(see mainspring/apps/lanes.py)"))
def cli_lanes_not_supported():
    return command("compile", "brighten", "--size", "8", "8", "--lanes", "2", "-o", scratch())


@cli_lanes_not_supported.fix
def _():
    return command("compile", "gaussian", "--size", "8", "8", "--lanes", "2", "-o", scratch())


@case("command line", "An unknown app",
      (r"error: unknown app 'gausian': use one of brighten, gaussian, .* or the path of a \.py file; "
       r"did you mean gaussian\?"), regex=True)
def cli_unknown_app():
    return command("compile", "gausian", "--size", "8", "8", "-o", scratch())


@cli_unknown_app.fix
def _():
    return command("compile", "gaussian", "--size", "8", "8", "-o", scratch())


@case("command line", "An app file that does not exist",
      r"error: app file 'apps/no_such_app\.py' does not exist; give the path of a Python file with NAME, "
      r"DEFAULT_SIZE and build\(width, height\), or one of the apps brighten, gaussian, .*", regex=True)
def cli_missing_app_file():
    return command("compile", "apps/no_such_app.py", "-o", scratch())


@cli_missing_app_file.fix
def _():
    return command("compile", _app_file(_APP.format(ret="return output, inputs")), "-o", scratch())


def _app_file(text: str) -> str:
    """Write an app to build/errors/<worker>/my_app.py; its path relative to the working directory, as a user
    types it (the messages repeat it; normalise writes it build/errors/my_app.py)."""
    path = app_dir() / "my_app.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return os.path.relpath(path)


_APP = """
import os

import numpy as np
import mainspring as hl
from mainspring.apps.brighten import build as brighten

NAME = "my_app"
DEFAULT_SIZE = (8, 8)


def build(width, height):
    output, inputs = brighten(width, height)
    {ret}
"""


@case("command line", "An app file without NAME", (
    "error: build/errors/my_app.py does not follow the app convention: it has no NAME (see "
    "mainspring.apps)"))
def cli_app_without_name():
    path = _app_file(_APP.replace('NAME = "my_app"', "").format(ret="return output, inputs"))
    return command("compile", path, "-o", scratch())


@cli_app_without_name.fix
def _():
    path = _app_file(_APP.format(ret="return output, inputs"))
    return command("compile", path, "-o", scratch())


@case("command line", "An app whose build() returns only the output", (
    "error: app my_app: build(8, 8) returned Func, not (output_func, {input_name: array}); end "
    'build() with e.g. return output, {"input": image}'))
def cli_build_returns_only_the_output():
    path = _app_file(_APP.format(ret="return output"))
    return command("compile", path, "-o", scratch())


@cli_build_returns_only_the_output.fix
def _():
    path = _app_file(_APP.format(ret="return output, inputs"))
    return command("compile", path, "-o", scratch())


@case("command line", "mainspring bench with a size that is not one", (
    "error: --sizes 8,x: 'x' is not an input size; give positive sizes as N or WxH, comma-separated, "
    "e.g. --sizes 64,256,1920x1080"))
def cli_bench_bad_size():
    return command("bench", "brighten", "--sizes", "8,x")


@cli_bench_bad_size.fix
def _():
    return command("bench", "brighten", "--sizes", "8")


@case("command line", "mainspring compile --dump-after an unknown step",
      (r"(?s)usage: mainspring compile .*mainspring compile: error: argument --dump-after: invalid choice: "
       r"'fold' \(choose from 'region', .*'verilog'\)"), regex=True)
def cli_unknown_dump_step():
    return command("compile", "brighten", "--size", "8", "8", "--dump-after", "fold", "-o", scratch())


@cli_unknown_dump_step.fix
def _():
    return command("compile", "brighten", "--size", "8", "8", "--dump-after", "fold_constants", "-o", scratch())


@case("command line", "mainspring sweep with a lane count that is not a positive integer",
      "error: --lanes 1,0: '0' is not a positive integer; give a comma-separated list, e.g. --lanes 1,2,4")
def cli_sweep_zero_lanes():
    return command("sweep", "gaussian", "--sizes", "16", "--lanes", "1,0", "--simulator", "none", "--workers", "1",
                   "-o", scratch())


@cli_sweep_zero_lanes.fix
def _():
    return command("sweep", "gaussian", "--sizes", "16", "--lanes", "1", "--simulator", "none", "--workers", "1",
                   "-o", scratch())


@case("command line", "mainspring sweep with a GLB tile that is not WxH",
      ("error: --glb-tiles 24x: '24x' is not a tile size; give positive sizes as N or WxH, comma-separated, e.g. "
       "--glb-tiles 240x216,120x108"))
def cli_sweep_bad_glb_tile():
    return command("sweep", "gaussian_glb", "--sizes", "32", "--glb-tiles", "24x", "--simulator", "none",
                   "--workers", "1", "-o", scratch())


@cli_sweep_bad_glb_tile.fix
def _():
    return command("sweep", "gaussian_glb", "--sizes", "32", "--glb-tiles", "24x24", "--simulator", "none",
                   "--workers", "1", "-o", scratch())
