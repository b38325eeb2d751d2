"""Stage 1 of the LICM engine: the budget, and the instruction weights it is
weighed against (seed 001 "Stage 1: Budget Computation", sub_8FF2D0, and
"Instruction Counting", sub_8F8BC0).

Hoist modes (seed 001 "Multi-Depth Loop Handling"): 0 the loop header, 1 a
block that dominates every latch (it runs on every iteration), 2 a block
that does not (conditional code), 3 a back-edge block (a latch).  ori gives
every block of the loop a mode, not only one block per depth level: the
seed's per-depth walk picks the block of each level, ori's SSA loops are
block sets, and a block's mode depends on dominance only.  The blocks of
modes 1 and 2 at the loop's own depth are the ones ptxas's driver does not
visit; what of them may still move is :mod:`.mid_blocks`'s decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block

from ori_dialect.ir.instruction import OriOp

NO_OP_WEIGHT = 1
"""sub_8F8BC0: weight of a no-op (NOP/UNDEF filler or a predicate-only op, OriOp.is_no_op)."""
REAL_WEIGHT = 30
"""sub_8F8BC0: weight of a real instruction (ALU, memory, branch)."""

HEADER, DOMINATED, CONDITIONAL, BACK_EDGE = 0, 1, 2, 3
"""The seed's hoist modes."""


def is_no_op(op: object) -> bool:
    """The seed's isNoOp, asked of the op class (``OriOp.is_no_op``)."""
    return isinstance(op, OriOp) and op.is_no_op()


def block_weight(block: Block) -> int:
    """Sum of the instruction weights of ``block`` (terminator included)."""
    return sum(NO_OP_WEIGHT if is_no_op(op) else REAL_WEIGHT for op in block.ops)


@dataclass(frozen=True)
class BudgetKnobs:
    """The knobs stage 1 reads, resolved for one pass id."""

    pass_id: int
    hoist_budget: float
    """HoistBudget (knob 483), 10; 0 = unlimited."""
    loop_inv_budget: float
    """HoistLoopInvBudget (knob 482): 22 for pass 0, 100 for later passes."""
    conservative_scale: int
    """HoistConservativeScale (knob 380): 10."""


def hoist_budget(k: BudgetKnobs, *, is_simple: bool, hoist_mode: int, num_back_edges: int,
                 is_inner: bool) -> float | None:
    """The budget of one block (``ComputeHoistBudget``); None = unlimited.

    * base HoistBudget; for a simple loop (no inner loop) HoistLoopInvBudget
      in modes 0/1, else 300 (later passes) or 200 (pass 0);
    * x100 for pass 3 (Late3);
    * split among the back-edge blocks in mode 3;
    * divided by HoistConservativeScale for a block of an inner loop.

    A knob value of 0 where the seed reads it means unlimited (HoistBudget's
    "0 = unlimited"; ori extends it to HoistLoopInvBudget, whose table row
    does not say, so that both can switch the gate off)."""
    if is_simple:
        if hoist_mode < CONDITIONAL:
            budget = k.loop_inv_budget
        else:
            budget = 300.0 if k.pass_id > 0 else 200.0
    else:
        budget = k.hoist_budget
    if budget == 0:
        return None
    if k.pass_id == 3:
        budget *= 100
    if hoist_mode == BACK_EDGE and num_back_edges > 0:
        budget /= num_back_edges
    if is_inner and k.conservative_scale > 0:
        budget /= k.conservative_scale
    return budget


__all__ = [
    "BACK_EDGE",
    "CONDITIONAL",
    "DOMINATED",
    "HEADER",
    "NO_OP_WEIGHT",
    "REAL_WEIGHT",
    "BudgetKnobs",
    "block_weight",
    "hoist_budget",
    "is_no_op",
]
