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
