"""The embedded algorithm and schedule language (Halide-compatible) and its NumPy reference evaluator.

The public names are re-exported by `mainspring` (see its `__all__`); the stages import the modules they use
(`frontend.ir`, `frontend.func`, `frontend.pipeline`, `frontend.bounds`, `frontend.evaluate`, ...).
"""

from .errors import HalideError, MismatchError, ScheduleError
from .pipeline import Pipeline

__all__ = ["HalideError", "MismatchError", "ScheduleError", "Pipeline"]
