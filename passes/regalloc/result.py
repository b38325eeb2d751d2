"""What one function's allocation produces, shared by both strategies of
``ori-regalloc`` (:mod:`.driver`, the fat-point strategy, and
:mod:`.ssa_driver`, the ssa strategy): the per-function result record and
the figures recorded on the function for ``ori-stats``, and the error both
raise when a function cannot be allocated.

Kept apart from the drivers so that the layering is one-way: the fat-point
driver dispatches to the ssa driver, and both build on this module
(docs/architecture.md "Passes and their contracts").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.regalloc.abi import abi_frame_bytes, abi_save_bytes
from passes.regalloc.budget import MAX_REGS_ATTR, Budget, register_count
from passes.regalloc.spill import (
    SmemSpill,
    SpillArea,
    layout_spill_area,
    smem_spill_figures,
    spill_figures,
)


@dataclass
class FunctionResult:
    """One function's allocation: its figures and how it got there."""

    num_regs: int
    stack_frame: int
    spill_stores: int
    spill_loads: int
    attempts: int
    spilled_values: int
    copies: int
    warnings: list[str]
    smem_spill_bytes: int = 0
    remarks: list[str] = field(default_factory=list)


def allocation_failure(func: FuncOp, count: int, why: str) -> PassFailedException:
    """The seed's error (seed 000, "Core Fat-Point Allocator"), worded the same
    by both strategies: ``count`` is the limit of the file that ran out."""
    return PassFailedException(
        f"@{func.sym_name.data}: Register allocation failed with register count of "
        f"'{count}' ({why})"
    )


def record_figures(
    func: FuncOp,
    tgt: object,
    budget: Budget,
    used_r: int,
    smem: SmemSpill | None,
    spill_base: int,
    remarks: list[str],
) -> tuple[int, int, int, int, SpillArea]:
    """Lay out the spill area after the function's local variables and record
    the figures ``ori-stats`` prints (shared by both strategies): returns the
    register count, frame bytes, spill store/load bytes and the spill area."""
    local = func.attributes.get("ori.local_bytes")
    local_bytes = local.value.data if isinstance(local, IntegerAttr) else 0
    # the calling convention's part of the frame: outgoing stack-passed
    # arguments and the callee saves (passes/regalloc/abi.py)
    local_bytes += abi_frame_bytes(func)
    base = max(-(-local_bytes // 16) * 16, spill_base)
    spill_area = layout_spill_area(func, base, smem)
    remarks.extend(spill_area.remarks)
    area = spill_area.local_bytes
    frame = spill_area.local_base + area if area else local_bytes
    stores, loads = spill_figures(func)
    # ptxas -v counts a device function's callee saves as spill stores and
    # loads (fib: 16 bytes stack frame, 16 bytes spill stores, 16 bytes spill
    # loads for R16, R17 and the return address R20:R21).  Emitted saves are
    # spill code (callee_saves.py) and counted above; ``saves`` is what a
    # recursive function does not emit (0 elsewhere), so nothing counts twice
    saves = abi_save_bytes(func)
    num_regs = register_count(tgt, used_r - 1, budget.reserved.get(RegFile.R, frozenset()))
    func.attributes[MAX_REGS_ATTR] = IntegerAttr(budget.limits[RegFile.R], i32)
    func.attributes["ori.num_regs"] = IntegerAttr(num_regs, i32)
    func.attributes["ori.stack_frame"] = IntegerAttr(-(-frame // 8) * 8 if frame else 0, i32)
    func.attributes["ori.spill_stores"] = IntegerAttr(stores + saves, i32)
    func.attributes["ori.spill_loads"] = IntegerAttr(loads + saves, i32)
    if spill_area.smem_bytes:
        s_st, s_ld = smem_spill_figures(func)
        func.attributes["ori.smem_spill_bytes"] = IntegerAttr(spill_area.smem_bytes, i32)
        func.attributes["ori.smem_spill_stores"] = IntegerAttr(s_st, i32)
        func.attributes["ori.smem_spill_loads"] = IntegerAttr(s_ld, i32)
    return num_regs, frame, stores, loads, spill_area


__all__ = ["FunctionResult", "allocation_failure", "record_figures"]
