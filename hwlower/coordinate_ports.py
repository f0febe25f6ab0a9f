"""An op's coordinates read as values (`f(x, y) = x + y`, an RDom's r.x in a sum): each becomes a CoordPort, a
counter the op's loops drive as an affine function of them, since a PE has no loop index of its own."""

from __future__ import annotations

from mainspring.frontend import ir
from mainspring.frontend.errors import HalideError
from mainspring.frontend.identifiers import verilog_identifier

from .ir import Affine, CoordPort
from .rvar_names import hardware_name


def coordinate_ports(values: tuple[ir.Expr, ...], env: dict[str, Affine], who: str,
                 renames: dict[str, str]) -> tuple[list[ir.Expr], tuple[CoordPort, ...]]:
    """Each coordinate (Var or RVar) the values read (an op's value, and its computed store coordinates), as a
    CoordPort: an affine function of the op's loops."""
    ports: dict[str, CoordPort] = {}

    def visit(node: ir.Expr, kids: tuple) -> ir.Expr:
        node = ir.rebuild(node, kids)
        if not isinstance(node, (ir.Var, ir.RVar)):
            return node
        if node.name not in env:
            raise HalideError(
                f"{who} uses the coordinate {ir.user_name(node.name)} as a value ({ir.user_text(value)}), which is "
                "not one of its loops; compute the coordinate-dependent part on the host and stream it in as an "
                "accelerator input"
            )
        if node.name not in ports:
            stem = verilog_identifier(hardware_name(node.name, renames))
            ports[node.name] = CoordPort(f"coord_{stem}", env[node.name], isinstance(node, ir.RVar), node.name)
        return ir.Call(node.type, ports[node.name], ())

    out = []
    for value in values:
        out.append(ir.transform(value, visit, {}))
    return out, tuple(ports.values())
