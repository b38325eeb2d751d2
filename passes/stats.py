"""``ori-stats``: per-function figures in the wording of ``ptxas -v``
(issue 6 part 5), printed to stderr so that one parser reads both::

    ptxas info    : Compiling entry function 'k' for 'sm_80'
    ptxas info    : Function properties for k
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 12 registers, used 0 barriers
    ori info      : Occupancy for k: 48 warps per SM (75%) at 12 registers

(``Compiling function 'f'`` for a device function.)  The figures come from
the attributes ``ori-regalloc`` records (``ori.num_regs``,
``ori.stack_frame``, ``ori.spill_stores``, ``ori.spill_loads``).  The
register count follows ptxas: highest R register used + 1, where the stack
pointer R1 is always counted (so never below 2).  Barriers: the number of
distinct named barriers a ``BAR`` uses (ptxas counts ``bar.sync 0`` as one).
The occupancy line is ori's own: warps per SM from the target's register
file for that register count (``targets.occupancy.warps_per_sm``).  A
function that has not been allocated is a diagnostic.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.manager import PRESERVES_ALL
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.sync import BarOp


def _int(func: FuncOp, name: str) -> int | None:
    a = func.attributes.get(name)
    return a.value.data if isinstance(a, IntegerAttr) else None


def _barriers(func: FuncOp) -> int:
    ids: set[object] = set()
    for op in func.walk():
        if isinstance(op, BarOp):
            bid = op.src_int("id") if hasattr(op, "src_int") else None
            ids.add(bid if bid is not None else 0)
    return len(ids)


class NotAllocatedForStats(PassFailedException):
    """Counted as 'not applicable' by the fuzz runner (ori_dialect.testing.fuzz)."""

    not_applicable = True


def function_stats(func: FuncOp, target: str | None = None) -> list[str]:
    name = func.sym_name.data
    regs = _int(func, "ori.num_regs")
    if regs is None:
        raise NotAllocatedForStats(
            f"ori-stats: @{name} has not been register-allocated (run ori-regalloc first)"
        )
    from passes.regalloc.budget import function_target

    tgt = function_target(func, target)
    kind = "entry function" if func.is_kernel else "function"
    lines = [
        f"ptxas info    : Compiling {kind} '{name}' for '{tgt.name}'",  # type: ignore[attr-defined]
        f"ptxas info    : Function properties for {name}",
        (
            f"    {_int(func, 'ori.stack_frame') or 0} bytes stack frame, "
            f"{_int(func, 'ori.spill_stores') or 0} bytes spill stores, "
            f"{_int(func, 'ori.spill_loads') or 0} bytes spill loads"
        ),
        f"ptxas info    : Used {regs} registers, used {_barriers(func)} barriers",
    ]
    try:
        from targets.occupancy import warps_per_sm

        w = warps_per_sm(tgt, regs)  # type: ignore[arg-type]
        mx = tgt.max_warps_per_sm  # type: ignore[attr-defined]
        lines.append(
            f"ori info      : Occupancy for {name}: {w} warps per SM "
            f"({100 * w // mx}%) at {regs} registers"
        )
    except Exception as e:  # noqa: BLE001 -- the occupancy line is informative only
        lines.append(f"ori info      : Occupancy for {name}: unavailable ({e})")
    return lines


def print_stats(module: ModuleOp, stream: IO[str] | None = None, target: str | None = None) -> None:
    out = stream or sys.stderr
    for op in module.walk():
        if isinstance(op, FuncOp):
            for line in function_stats(op, target):
                print(line, file=out)


@dataclass(frozen=True)
class StatsPass(ModulePass):
    """Print ``ptxas -v``-style figures per function to stderr."""

    name = "ori-stats"
    PRESERVES: ClassVar[frozenset[type]] = PRESERVES_ALL
    target: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        print_stats(op, sys.stderr, self.target)


__all__ = ["StatsPass", "function_stats", "print_stats"]
