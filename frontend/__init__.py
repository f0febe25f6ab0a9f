"""The embedded algorithm and schedule language (Halide-compatible) and its NumPy reference evaluator."""
