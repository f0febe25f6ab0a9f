"""The reference system's generators (../shared/h2h/*.cpp) ported line for line as Python Generators
(h2h_generator_ports*.py): each compiles bit-exact on both simulators at a small size and equals real Halide's run
of the same class; at the generator's own size its design is the one apps/h2h_<name>.py makes. Also the parts of
Halide's Generator API such ports use (has_feature branches, output_buffer() bounds, Type GeneratorParams)."""

from __future__ import annotations

import functools

import h2h_generator_ports as small_ports
import h2h_generator_ports_big as big_ports
import numpy as np
import pytest
from compile_once import GENERATOR_SIZE

import mainspring as hl

from conftest import SIMULATORS

SMALL = {**small_ports.SMALL, **big_ports.SMALL}
TARGETS = {"camera_pipeline": hl.CGRA(num_pes=1024)}  # as apps/h2h_camera_pipeline.py: 761 PEs


def _inputs(spec, seed: int) -> dict:
    """Random inputs: `spec` is the shape of a uint8 `input`, or {name: (shape, dtype, low, high)}."""
    rng = np.random.default_rng(seed)
    if isinstance(spec, tuple):
        spec = {"input": (spec, "uint8", 0, 256)}
    return {n: rng.integers(lo, hi, shape).astype(dtype) for n, (shape, dtype, lo, hi) in spec.items()}


def _generator(name: str, params: dict):
    port = SMALL[name][0]
    with hl.GeneratorContext(TARGETS.get(name)):
        return port(hl, hardware=True)(generator_params=params)


@functools.cache
def _halide_class(halide, port):
    return port(halide, hardware=False)  # once per port: Halide registers a Generator's name once per process


def _halide_output(halide, name: str, params: dict, inputs: dict) -> np.ndarray:
    port, _, _, extent = SMALL[name]
    with halide.GeneratorContext(halide.get_jit_target_from_environment()):
        out = _halide_class(halide, port).call(*[halide.Buffer(v) for v in inputs.values()],
                                               generator_params=params)
    return np.asarray(out.realize(extent))


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
@pytest.mark.parametrize("name", list(SMALL))
def test_an_h2h_generator_ported_as_a_generator(name, simulator, build_dir, compile_shared, halide):
    _, params, spec, _ = SMALL[name]
    design = compile_shared(_generator(name, params), name=f"gen_{name}")
    inputs = _inputs(spec, len(name))
    res = design.check(inputs, simulator=simulator, build_dir=build_dir)
    assert res.cycles == res.predicted_cycles
    assert np.array_equal(res.output, _halide_output(halide, name, params, inputs))


# At its own size a port's design is the hand port's (apps/h2h_<name>.py), Verilog and all. Gaussian's generator
# frame is 16x20 GLB tiles; the app compiles one, as the port does with one host tile.
FULL_PARAMS = {"gaussian": {"host_tiles_x": 1, "host_tiles_y": 1}}
REPORT_KEYS = ("ideal_cycles", "predicted_cycles", "pes", "mem_tiles", "glb")


@pytest.mark.slow
@pytest.mark.xdist_group(GENERATOR_SIZE)
@pytest.mark.parametrize("name", sorted({n for n in SMALL if n != "pointwise_unrolled"}))
def test_a_ported_generator_at_its_size_is_the_hand_port(name):
    from mainspring import apps

    mod = apps.load(f"h2h_{name}")
    target = apps.target(mod)
    assert target == TARGETS.get(name)
    design = hl.compile(_generator(name, FULL_PARAMS.get(name, {})), name=mod.NAME, prove=False)
    out, _ = mod.build(*mod.DEFAULT_SIZE)
    hand = hl.compile(out, name=mod.NAME, target=target, prove=False)
    assert {k: design.report.get(k) for k in REPORT_KEYS} == {k: hand.report.get(k) for k in REPORT_KEYS}
    assert design.verilog == hand.verilog


def _branching_generator(use_buffer_bounds: bool):
    """conv_3_3 with all three of the C++'s branches, as a line-for-line port writes them: `get_target()
    .has_feature(...)` takes the Clockwork one on a CGRA; the output's size set either way Halide allows."""

    @hl.generator(name="conv_3_3_branches")
    class Conv33:
        input = hl.InputBuffer(hl.UInt(8), 2)
        output = hl.OutputBuffer(hl.UInt(8), 2)
        out_type = hl.GeneratorParam(hl.UInt(16))

        def generate(self):
            x, y, xi, yi, xo, yo = hl.vars("x y xi yi xo yo")
            kernel, conv, hw_input, hw_output = hl.funcs("kernel conv hw_input hw_output")
            r = hl.RDom([hl.Range(0, 3), hl.Range(0, 3)])
            kernel[x, y] = x + 3 * y
            conv[x, y] = hl.cast(self.out_type, 0)
            hw_input[x, y] = hl.cast(self.out_type, self.input[x, y])
            conv[x, y] += hl.cast(self.out_type, kernel[r.x, r.y]) * hw_input[x + r.x, y + r.y]
            hw_output[x, y] = conv[x, y]
            self.output[x, y] = hl.u8(hw_output[x, y])
            if self.get_target().has_feature(hl.TargetFeature.CoreIR) or \
                    self.get_target().has_feature(hl.TargetFeature.HLS):
                conv.linebuffer()
            elif self.get_target().has_feature(hl.TargetFeature.Clockwork):
                if use_buffer_bounds:
                    self.output.output_buffer().dim(0).set_bounds(0, 8)
                    self.output.output_buffer().dim(1).set_bounds(0, 6)
                else:
                    self.output.bound(x, 0, 8).bound(y, 0, 6)
                hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 6).hw_accelerate(xi, xo)
                kernel.compute_at(hw_output, xo)
                conv.compute_at(hw_output, xo)
                conv.update().unroll(r.x, 3).unroll(r.y, 3)
                hw_input.stream_to_accelerator()
            else:
                kernel.compute_at(self.output, x)

    return Conv33


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_port_with_all_branches_takes_clockwork_and_output_buffer_bounds_fix_its_size(simulator, build_dir,
                                                                                        compile_shared):
    image = np.random.default_rng(7).integers(0, 256, (8, 10), dtype=np.uint8)
    by_buffer = compile_shared(_branching_generator(True)(), name="gen_branches")
    by_bound = compile_shared(_branching_generator(False)(), name="gen_branches_bound", prove=False)
    res = by_buffer.check({"input": image}, simulator=simulator, build_dir=build_dir)
    assert res.output.shape == (6, 8)
    assert {k: by_buffer.report.get(k) for k in REPORT_KEYS} == {k: by_bound.report.get(k) for k in REPORT_KEYS}
    assert np.array_equal(res.output, by_bound.reference_output({"input": image}))


def test_type_generator_params_parse_halide_s_type_names():
    gen = _branching_generator(False)
    assert gen(generator_params={"out_type": "uint32"}).build() is not None
    wide, plain = gen(generator_params={"out_type": "int32"}), gen()
    wide.build()
    plain.build()
    assert (wide.out_type, plain.out_type) == (hl.Int(32), hl.UInt(16))
    assert hl.GeneratorParam(hl.Float(32)).parse("t", "float32") == hl.Float(32)
    assert hl.GeneratorParam(hl.Bool()).parse("t", "bool") == hl.Bool()


def test_a_cgra_has_the_clockwork_feature_only():
    target = hl.CGRA()
    assert target.has_feature(hl.TargetFeature.Clockwork)
    assert not target.has_feature(hl.TargetFeature.CoreIR) and not target.has_feature(hl.TargetFeature.HLS)
    assert hl.GeneratorContext().get_target() == target


def _cpu_branch_first_generator():
    """A port whose CPU branch comes first (`has_feature(hl.TargetFeature.AVX2)` with `natural_vector_size`),
    with a requirement on its input's width: on a CGRA the CPU branch is not taken, and the requirement is checked
    when the design runs."""

    @hl.generator(name="brighten_cpu_first")
    class Brighten:
        input = hl.InputBuffer(hl.UInt(8), 2)
        output = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(self):
            x, y, xi, yi, xo, yo = hl.vars("x y xi yi xo yo")
            hw_input, hw_output = hl.funcs("hw_input hw_output")
            hw_input[x, y] = hl.u16(self.input[x, y])
            hw_output[x, y] = hl.u8(hl.min(hw_input[x, y] * 3, 255))
            self.output[x, y] = hw_output[x, y]
            self.add_requirement(self.input.dim(0).extent() >= 8, "input width", self.input.dim(0).extent())
            if self.get_target().has_feature(hl.TargetFeature.AVX2):
                self.output.vectorize(x, self.natural_vector_size(hl.UInt(8)))
            else:
                lanes = 2 * self.natural_vector_size(hl.UInt(8))
                self.output.bound(x, 0, 8).bound(y, 0, 4)
                hw_output.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).hw_accelerate(xi, xo).unroll(xi, lanes)
                hw_input.compute_root().stream_to_accelerator().unroll(x, lanes)

    return Brighten


@pytest.mark.parametrize("simulator", SIMULATORS, indirect=True)
def test_a_cpu_branch_first_falls_through_and_a_requirement_is_checked_when_the_design_runs(simulator, build_dir,
                                                                                            compile_shared):
    design = compile_shared(_cpu_branch_first_generator()(), name="brighten_cpu_first")
    assert design.report["ideal_cycles"] == 16  # 2 lanes (2 * natural_vector_size) over 8x4
    image = np.random.default_rng(3).integers(0, 256, (4, 8), dtype=np.uint8)
    design.check({"input": image}, simulator=simulator, build_dir=build_dir)
    with pytest.raises(hl.HalideError, match=r"Requirement Failed: \(input.extent.0 >= 8\) input width 6$"):
        design.check({"input": image[:, :6]}, simulator=simulator, build_dir=build_dir)
