"""The cycles a layer over an input streamed by channel planes cannot beat (h2h_conv_layer_mobile's schedule)."""


def plane_bound(width: int, height: int) -> int:
    """mobile's least cycles with its pointwise stage serial over input channels: its reduction sums each pixel's
    4 channels in a row (4 steps a pixel) and can start a pixel only once the last input channel plane (of
    (width + 2) x (height + 2) words) has reached it, after the other three planes."""
    return 3 * (width + 2) * (height + 2) + 4 * width * height
