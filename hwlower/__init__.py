"""Bounds and lowering of the accelerated region to a loop-nest IR of ops with affine loads and stores."""
