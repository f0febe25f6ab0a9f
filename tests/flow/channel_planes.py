"""The cycles a layer over an input streamed by channel planes cannot beat (h2h_conv_layer_mobile's schedule)."""


def plane_bound(width: int, height: int) -> int:
    """mobile's least cycles with its reduction summing each pixel's 4 channels in a row (4 steps a pixel, the
    order pass `reorder` gave it until session 24): it can start a pixel only once the last input channel plane
    (of (width + 2) x (height + 2) words) has reached it, after the other three planes."""
    return 3 * (width + 2) * (height + 2) + 4 * width * height


def sweep_bound(width: int, height: int) -> int:
    """mobile's least cycles in the order its generator writes (`reorder(k, x, y, r_pw.x)`: a sweep of the frame
    per input channel, the output channels as lanes): the last sweep follows the last input plane, so a pixel's
    sum is final only after the other three planes, and the output, one word per cycle by pixel (its channels
    together), then sends its 3 x width x height words."""
    return 3 * (width + 2) * (height + 2) + 3 * width * height


def output_bound(width: int, height: int, in_channels: int = 4, out_channels: int = 3) -> int:
    """mobile's least cycles under any schedule of its generator's streams, the input by channel planes at one
    word a cycle and the output (no unroll of k) at one word a cycle: every output word (x, y, k) sums all input
    channels, so reads input (x + 2, y + 2) of the last plane, at or after its word (2, 2), the stream's
    (in_channels - 1) * W * H + 2 * W + 2nd (W x H the input plane); the output's out_channels * width * height
    words then leave one a cycle, each at least a cycle after that word arrives."""
    plane = (width + 2) * (height + 2)
    return (in_channels - 1) * plane + 2 * (width + 2) + 2 + 1 + out_channels * width * height
