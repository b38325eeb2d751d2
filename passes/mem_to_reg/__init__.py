"""``ori-mem-to-reg``: local variables promoted to registers (seed 000,
"Pre-Allocation and Mem-to-Reg": *ConvertMemoryToRegisterOrUniform*,
sub_910840).

Seed 000 places the pass in the allocator's pipeline after the last
``HoistInvariants`` and before pre-colouring; in ``ori-ptxas`` it runs after
``ori-remat-block`` and right before ``ori-abi`` (whose copies are ori's
pre-colouring).  It "promotes stack variables to registers or uniform
registers": here, to R registers (ori has no uniform datapath yet, issue
19), as SSA values -- the register allocator then gives them registers or
spills them like any other value.

**Gate** (the seed's eligibility check, sub_8F3EA0, and its budget):

* ``promotion-mode`` -- the seed's mode byte: 0 promotes every eligible
  function, 1 only while ``promotion-budget`` lasts (one unit per function
  promoted; 0 promotes nothing), any other value turns the pass off;
* ``max-bytes`` -- the seed sums the operand sizes of the function's
  instructions and gives up above 64 KB (``0x10000``); ori sums the bytes
  of the frame accesses;
* a function with no frame (no ``.local`` variables) has nothing to do.

**Candidates and promotion**: :mod:`.slots` finds the variables (one per
accessed ``(offset, width)``; the frame's address must not escape, every
access must be a 32/64/128-bit unguarded weak ``LDL``/``STL``, no two
overlap), :mod:`.promote` builds their SSA form (block arguments at the
pruned iterated dominance frontier, renaming over the dominator tree).
When every variable is promoted and no frame address is left, the frame
goes (its ``ori.frame_enter`` / ``ori.frame_leave``, ``ori.local_bytes``):
the function needs no stack, as ptxas reports 0 bytes for such functions.

**Visible**: ``remarks=true`` prints one line per function (what was
promoted, the frame removed or kept) and one per reason a variable stays
in memory; ``stats=true`` the module's counts.

Input invariants: SSA bodies with virtual registers (before allocation);
the frame model of ops/frame.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.ir.registers import is_stack_pointer
from ori_dialect.ops.frame import FrameAddrOp, FrameEnterOp, FrameLeaveOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdlOp, StlOp
from passes.abi.stack_args import shift_incoming
from passes.contract import Requirement, emit_remark, emit_stats, flush_diagnostics, option, require
from passes.mem_to_reg.promote import Blocked, frontiers, promote
from passes.mem_to_reg.slots import analyse, frame_offset

MAX_BYTES = 0x10000
"""The seed's cap on the summed operand sizes (64 KB)."""


@dataclass(frozen=True)
class MemToRegPass(ModulePass):
    """ConvertMemoryToRegisterOrUniform: frame variables with known addresses become SSA values.

    The gate, the candidates and the promotion are in the module docstring."""

    name = "ori-mem-to-reg"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.UNALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    promotion_mode: int = option(
        0, "the seed's promotion mode byte: 0 every eligible function, 1 only while "
        "promotion-budget lasts, other values: off")
    promotion_budget: int = option(
        1, "mode 1: functions that may be promoted (one unit each; 0: none)")
    max_bytes: int = option(
        MAX_BYTES, "a function whose frame accesses sum to more bytes is left alone "
        "(the seed's 64 KB cap)")
    remarks: bool = option(
        False, "ori: print what was promoted per function and why variables stay in memory")
    stats: bool = option(False, "ori: print the module's counts to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        if self.promotion_budget < 0:
            raise PassFailedException(
                f"ori-mem-to-reg: promotion-budget must be 0 or more, got {self.promotion_budget}")
        if self.max_bytes < 0:
            raise PassFailedException(
                f"ori-mem-to-reg: max-bytes must be 0 or more, got {self.max_bytes}")
        if self.promotion_mode not in (0, 1):
            if self.remarks or self.stats:
                emit_stats(self.name, f"off (promotion-mode={self.promotion_mode})")
                flush_diagnostics()
            return
        budget = self.promotion_budget
        totals = {"promoted": 0, "bytes": 0, "kept": 0, "frames-removed": 0}
        for func in functions_of(op):
            assert isinstance(func, FuncOp)
            if self.promotion_mode == 1 and budget <= 0:
                self._remark(func, "not promoted: promotion-budget used up")
                continue
            done = self.run_function(func, totals)
            if done:
                budget -= 1
        if self.stats:
            emit_stats(self.name, " ".join(f"[{k}={v}]" for k, v in totals.items()))
        if self.remarks or self.stats:
            flush_diagnostics()

    def _remark(self, func: FuncOp, text: str) -> None:
        if self.remarks:
            emit_remark(func.sym_name.data, text, pass_name=self.name)

    def run_function(self, func: FuncOp, totals: dict[str, int]) -> bool:
        """Promote ``func``'s variables; returns whether any was promoted."""
        enter = func.entry_block.first_op
        if not isinstance(enter, FrameEnterOp):
            return False
        # the variables' bytes (the importer's ori.local_bytes), else the frame
        lb = func.attributes.get("ori.local_bytes")
        local_bytes = lb.value.data if isinstance(lb, IntegerAttr) else enter.size()
        frame = analyse(func, local_bytes)
        if frame.escape is not None:
            self._remark(func, f"frame kept ({local_bytes} bytes): {frame.escape}")
            return False
        used = sum(op.access_bytes() for s in frame.slots for op in s.accesses)
        if used > self.max_bytes:
            self._remark(func, f"frame kept: its accesses sum to {used} bytes "
                               f"(max-bytes={self.max_bytes})")
            return False
        cfg = CFG.compute(func)
        dom = DominatorTree(cfg)
        df = frontiers(cfg, dom)
        promoted = nbytes = 0
        kept = list(frame.kept)
        for slot in frame.slots:
            try:
                promote(func, slot, cfg, dom, df)
            except Blocked as b:
                kept.append(f"[R1+{slot.offset:#x}]: {b}")
                continue
            promoted += 1
            nbytes += slot.size
        for why in kept:
            self._remark(func, f"stays in memory: {why}")
        removed = promoted > 0 and self._drop_frame(func, enter)
        if promoted:
            self._remark(func, f"promoted {promoted} variable(s), {nbytes} bytes, to registers; "
                               + ("frame removed" if removed else "frame kept"))
        totals["promoted"] += promoted
        totals["bytes"] += nbytes
        totals["kept"] += len(kept)
        totals["frames-removed"] += int(removed)
        return promoted > 0

    @staticmethod
    def _drop_frame(func: FuncOp, enter: FrameEnterOp) -> bool:
        """Remove the frame when nothing addresses it any more (the address
        arithmetic of the promoted accesses is dead now: it goes first)."""
        changed = True
        while changed:
            changed = False
            for op in reversed(list(func.walk())):
                if op.results and not any(r.uses for r in op.results) and (
                        isinstance(op, FrameAddrOp) or frame_offset(op.results[0]) is not None):
                    op.detach()
                    op.erase()
                    changed = True
        for op in func.walk():
            if isinstance(op, FrameAddrOp):
                return False
            if (isinstance(op, LdlOp | StlOp) and is_stack_pointer(op.src("addr"))
                    and "ori.abi_stack_arg" not in op.attributes):
                return False
        size = enter.size()
        for op in [o for o in func.walk() if isinstance(o, FrameEnterOp | FrameLeaveOp)]:
            op.detach()
            op.erase()
        shift_incoming(func, -size)  # stack-passed parameters sat above the frame
        func.attributes.pop("ori.local_bytes", None)
        return True


__all__ = ["MemToRegPass"]
