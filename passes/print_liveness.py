"""``ori-print-liveness``: print live-in / live-out sets and register pressure of
every function (analyses of docs/architecture.md "Analyses", next to seed 001's
*AnalyzeControlFlow*, phase 3).  The IR is unchanged.

Output, per ``ori.func`` (blocks ``^bbN`` by index in the body; values by the
names of :meth:`ValueNumbering.names`: the SSA name hint, ``hint#N`` for a
repeated hint, ``#N`` without one, ``N`` being the dense value index)::

    liveness in @k:
      ^bb0: live-in [] live-out [n, z] pressure R=2
      ^bb1(i): live-in [n] live-out [i2, n] pressure R=2 P=1
      ^bb2 (unreachable): live-in [] live-out [] pressure none
      max pressure R=3 at ^bb1 op 1, P=1 at ^bb1 op 2

Sets list values in definition order.  ``pressure`` lists the files with a
non-zero maximum (R, UR, P, UP, B); the function line names where each maximum
is reached (``entry`` or ``op K``, K the op's position in the block).

With ``{per-op=true}`` every block line is followed by one line per op::

        op 0 ori.iadd3: live-before [i, n] live-after [i2, n]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar, TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ori_dialect.analysis import (
    FILES,
    PRESERVES_ALL,
    AnalysisManager,
    Liveness,
    RegisterPressure,
    functions_of,
)
from ori_dialect.ir.registers import RegFile
from passes.contract import Requirement, option, require


def _set(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def _pressure(m: dict[RegFile, int]) -> str:
    s = " ".join(f"{f.value}={m[f]}" for f in FILES if m[f])
    return s or "none"


def format_liveness(name: str, lv: Liveness, rp: RegisterPressure, per_op: bool) -> list[str]:
    """The lines ``ori-print-liveness`` prints for one function."""
    num = lv.numbering
    lines = [f"liveness in @{name}:"]
    for b in range(lv.cfg.num_blocks):
        args = lv.names(num.arg_ids[b])
        head = f"^bb{b}" + (f"({', '.join(args)})" if args else "")
        if not lv.cfg.is_reachable(b):
            head += " (unreachable)"
        lines.append(
            f"  {head}: live-in {_set(lv.names(lv.live_in(b)))} "
            f"live-out {_set(lv.names(lv.live_out(b)))} pressure {_pressure(rp.block_max[b])}"
        )
        if per_op:
            op_lines: list[str] = []
            for k, op, live in lv.walk_backward(b):
                after = lv.names(live)
                before = set(live)
                before.difference_update(num.op_defs[b][k])
                before.update(num.op_uses[b][k])
                op_lines.append(
                    f"    op {k} {op.name}: live-before {_set(lv.names(before))} "
                    f"live-after {_set(after)}"
                )
            lines.extend(reversed(op_lines))
    parts = [f"{f.value}={rp.max[f]} at {rp.where[f]}" for f in FILES if rp.max[f]]
    lines.append("  max pressure " + (", ".join(parts) if parts else "none"))
    return lines


@dataclass(frozen=True)
class PrintLivenessPass(ModulePass):
    """Print per-block liveness and register pressure (``per-op``: per instruction too)."""

    name = "ori-print-liveness"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = PRESERVES_ALL

    per_op: bool = option(
        False, "ori: after each block line, one line per op with the values live before "
        "and after it")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        self.print_module(op, sys.stdout)

    def print_module(self, op: ModuleOp, out: TextIO) -> None:
        am = AnalysisManager()
        for func in functions_of(op):
            name = func.sym_name.data  # type: ignore[attr-defined]
            lines = format_liveness(
                name, am.get(Liveness, func), am.get(RegisterPressure, func), self.per_op
            )
            out.write("\n".join(lines) + "\n")
        out.flush()
