"""The catalogue's refusals of programs real Halide (21, with Halide-to-Hardware's schedule calls) accepts: what
the user gets refused that a CPU build would run, with the reason the accelerator cannot (yet). The other cases
are mistakes Halide refuses too, or calls that mean nothing on the host.

scripts/errors_doc.py lists these in docs/errors.md and in README's "Still refused" block; tests/errors/
test_catalogue.py checks each id names a case. When a refusal becomes a working schedule, its case and its entry
here go together.
"""

from __future__ import annotations

# case id -> why the accelerator refuses it (one line; the case's message has the fix)
GAPS: dict[str, str] = {
    # the output and the accelerated region
    "two_hw_accelerates": "one accelerated region per pipeline",
    "two_accelerated_outputs": "one accelerated region per pipeline: outputs scheduled differently are two",
    "compute_with_accelerated_output_tiled_apart": "one region computes outputs scheduled alike, fused or not",
    "compute_with_tuple_beside_accelerated_output": "one region computes outputs as one Tuple Func's values",
    "accelerated_output_reads_accelerated_output": "one region computes outputs none of which reads another",
    "tuple_output_beside_plain_output": "one region computes outputs as one Tuple Func's values of their own",
    "outputs_bounded_differently": "several outputs share one stream, so one region",
    "outputs_wider_than_a_word": "an output leaves in integer words of at most 32 bits",
    "host_tiles_of_no_input": "an accelerator with no input stream runs once after reset",
    "glb_of_no_input": "a GLB level stages input tiles, and there are none",
    # sizes known only at run time
    "bound_by_an_image_size": "hardware loops are fixed at compile time",
    "split_by_a_param": "hardware loops are fixed at compile time",
    "coordinate_from_a_runtime_size": "buffers are sized at compile time",
    "rdom_of_param_extent": "hardware loops are fixed at compile time",
    "rdom_of_image_size": "hardware loops are fixed at compile time",
    # arithmetic
    "float_inside_the_accelerator": "the PEs are integer units",
    "float_buffer_read_at_computed_coordinates": "a ROM holds integer words",
    # addresses memories cannot follow
    "split_of_a_fused_loop_inside_the_accelerator": "a fused loop runs as the two loops it fuses",
    "fused_split_across_rows": "a fused loop split runs as a split of x or y: it must divide a row or be whole rows",
    "channel_rotated_by_modulo": "a modulo's period over 8 values is no affine address nor a select among few",
    "sheared_transposed_convolution_serial": "a serial reduction's index outside a quotient is not affine",
    "serial_modulo": "a serial reduction's index inside a modulo is not affine",
    "read_at_two_divisors": "runs of the divisors' lcm would select among more than 8 words",
    "long_periodic_offset": "a periodic offset over more than 8 values",
    "lanes_past_an_upsample_step": "lanes whose quotients would select among more than 8 words",
    "two_divisors": "the autoscheduler does not build runs of an lcm (a hand schedule can)",
    # lanes (pixels per cycle)
    "lanes_serial_taps_beside_an_upsample": "a stream's copy for readers in turn serves readers of taps only",
    "upsample_over_three_taps_in_lanes": "a serial upsample steps across lanes a producer must keep",
    "update_lanes_disagree": "an unrolled update folds into its pure definition's lanes",
    "unrolled_reduction_not_an_accumulation": "unrolled steps combine into one tree only for +, min and max",
    "host_tiles_off_the_lane_runs": "host tiles must start whole runs of the lanes' quotients apart",
    "rows_serial_taps_a_row_a_firing": "a serial RVar and the reader's rows both step across rows per transfer",
    "input_unrolled_along_three_dims": "an input streams blocks of x and y words, not of a third dimension",
    "glb_input_in_blocks": "the GLB level moves blocks of an output, not of an input",
    # tails
    "glb_array_split_does_not_divide": "memory tiles round up to whole steps of a split only inside the GLB tile",
    # host loops
    "host_loop_over_strided_rows": "a host loop must step over tiles of one dimension",
    "fused_host_loop_split_inside": "a host loop must step over tiles of one dimension",
    "read_at_two_rates_in_host_tiles": "memory tiles of a GLB level read at two rates change shape",
    # the GLB level
    "glb_input_copy_inside_the_tile": "the GLB holds the accelerator's tile copies, not copies inside it",
    "array_output_inside_the_glb_tile": "the array's output is computed once per GLB tile",
    "glb_output_lanes_apart": "a GLB entry holds one cycle's lanes as a block of consecutive words",
    "glb_input_lanes_in_odd_memory_tiles": "memory tiles round up to whole entries only along a dimension of one name",
    "glb_input_copy_at_the_root": "the GLB holds one GLB tile of each input, loaded once per tile",
    "glb_input_copy_at_a_host_loop": "the GLB holds one GLB tile of each input, loaded once per tile",
    "glb_tile_for_a_wide_tuple": "the autoscheduler's GLB level copies an output of at most 32 bits",
    "glb_rows_in_odd_memory_tiles": "memory tiles round up to whole entries of rows only along a dimension of one name",
    "glb_for_several_outputs": "the autoscheduler's GLB level copies one output",
    # RAMs (tables updated at computed coordinates)
    "ram_initialised_from_an_input": "a RAM starts from constants or from affine reads a first pass writes",
    "ram_box_moving_between_invocations": "every invocation runs the hardware of the first's box",
    "ram_pure_update_over_an_rdom": "a RAM's update changes one element a step",
    "scatter_reads_another_element": "an update at a computed coordinate reads only the element it writes",
    "ram_output_in_host_tiles": "a table updated at computed coordinates is whole in every invocation",
    "ram_update_at_a_constant": "a RAM's update writes at a computed coordinate, over an RDom, or its pure ones",
    "ram_update_over_a_pure_variable": "a RAM's update changes one element a step",
    "ram_of_unbounded_coordinates": "a RAM read at loaded values spanning their type is too large",
    "ram_read_at_two_computed_coordinates": "a RAM answers one computed address per op",
    "ram_read_at_three_places": "a memory tile has 2 read ports",
    "ram_output_in_four_lanes": "a memory tile has 2 read ports",
    "ram_looked_up_by_three_lanes": "a memory tile has 2 read ports",
    # the reference system's own calls
    "declarative_iteration_order": "Halide-to-Hardware's experimental declarative schedule, not Halide's",
    "declarative_output_rate": "Halide-to-Hardware's experimental declarative schedule, not Halide's",
    "declarative_stream_levels": "Halide-to-Hardware's experimental declarative schedule, not Halide's",
}
