"""verilog: synthesizable Verilog-2005 rendered from the memory plan (read back from the memory JSON) and the
compute JSON: the array's top (`top`), the GLB around it (`glb`), one module per kernel (`kernel`), and the
library `ms_library.v` (affine controllers, memory tiles, GLB buffers); `verify` checks the structure of what
they emit on pyverilog's parse of it."""

from .glb import MARKS, glb_design_verilog
from .kernel import kernel_verilog
from .names import signal
from .top import RtlLimitError, design_verilog
from .verify import verify_verilog

__all__ = [
    "design_verilog", "glb_design_verilog", "kernel_verilog", "signal", "MARKS", "RtlLimitError", "verify_verilog",
]
