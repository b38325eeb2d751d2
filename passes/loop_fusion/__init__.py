"""``ori-loop-fusion``: fusion of adjacent single-block loops (seed 001, phase
59 *OriLoopFusion*).

Contract
--------
Input: SSA ``ori.func`` bodies, loops in the rotated (do-while) form of
``ori-loop-simplify``.  Output: each pair of adjacent loops L1, L2 that meets
the seed's criteria ("Fusion Criteria") becomes one loop whose body is L1's
followed by L2's, iterated by L1's exit test; the code between them moves in
front of L1; everything else is unchanged.  Off unless
``perform-loop-fusion`` is nonzero (PerformLoopFusion, default 0, as in
ptxas), so ``ori-ptxas`` runs it as a no-op.

Criteria (each rejection is a remark ``not fused with ^bbB: <why>``):

* *adjacent*: L1's only exit leads to a block M that only L1 enters and
  that branches unconditionally to L2's header, which only M and L2 enter;
* *single-block bodies* (VerifyStructure);
* *same trip count*: both IVs analysed as the unroller does
  (``passes/loop_unroll/ivs.py``) and either both trip counts known and
  equal, or the same start, step, compare and bound (NormalizeIVBounds'
  canonical form reduced to syntactic equality);
* *no dependence violated* (BuildDefUseSets / CheckDependencies): L2 and
  the code in M use no value of L1 (its results, block arguments, exit
  values), and no memory access of L1 may alias one of L2 with a write
  between them (the state-space rule of ``hoist_invariants/safety.py``:
  ori has no index analysis, so ``a[i] = ..; .. = a[i]`` is not fused);
* *no barrier between* the loops, nor in either body: M holds only pure
  instructions (they move in front of L1), no barrier, side effect or
  warp-collective op in L1 or L2;
* *budget*: ``perform-loop-fusion-budget`` (PerformLoopFusionBudget,
  unset by default) bounds the fused body's instruction count.

Not modelled: the seed's DominanceCheck budget (ctx+584/568, no knob), the
cold-block flags (ori has no profile), the ``has_second_pass`` gate, and the
DUMPIR / knob 487 gates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import LoopInfo, functions_of
from passes.contract import Requirement, emit_remark, flush_diagnostics, option, require
from passes.loop_fusion.fuse import Candidate, check_pair, fuse, next_loop
from passes.loop_utils import delete_dead


@dataclass(frozen=True)
class LoopFusionPass(ModulePass):
    """Fusion of adjacent single-block loops with the same trip count (phase 59, off by default)."""

    name = "ori-loop-fusion"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    perform_loop_fusion: int = option(
        0, "PerformLoopFusion (knob 519): master enable; 0 = the pass does nothing (ptxas's "
        "default)")
    perform_loop_fusion_budget: float = option(
        -1.0, "PerformLoopFusionBudget (knob 520): most instructions in a fused body; "
        "negative = unset (no limit)")
    remarks: bool = option(
        False, "ori: print one remark per loop (fused with the loop after it, or why not)")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.perform_loop_fusion < 0:
            raise PassFailedException(
                f"ori-loop-fusion: perform-loop-fusion must be >= 0, got {self.perform_loop_fusion}")
        if not self.perform_loop_fusion:
            return
        require(self, op)
        for func in functions_of(op):
            notes = self.run_function(func)
            if self.remarks:
                for bid, msg in notes:
                    emit_remark(func.sym_name.data, msg, block=bid)  # type: ignore[attr-defined]
        if self.remarks:
            flush_diagnostics()

    def run_function(self, func: Operation) -> list[tuple[int, str]]:
        """Fuse what can be fused in ``func``; (block id, remark) per loop pair."""
        blocks = list(func.regions[0].blocks)
        ids = {b: i for i, b in enumerate(blocks)}
        notes: list[tuple[int, str]] = []
        li = LoopInfo.compute(func)
        for lp in li:
            if len(lp.blocks) > 1:
                head = ids[li.cfg.blocks[lp.header]]
                why = f"a loop of {len(lp.blocks)} blocks (single-block bodies only)"
                notes.append((head, f"not fused: {why}"))
        budget = None if self.perform_loop_fusion_budget < 0 else self.perform_loop_fusion_budget
        b1: Block | None = blocks[0] if blocks else None
        fused: set[Block] = set()
        while b1 is not None:
            cand = next_loop(b1)
            if isinstance(cand, Candidate):
                why = check_pair(cand, budget)
                if why is None:
                    fuse(cand)
                    delete_dead(list(b1.ops))
                    notes.append((ids[b1], f"fused ^bb{ids[b1]} with ^bb{ids[cand.b2]}"))
                    fused.add(b1)
                    continue  # the fused loop may meet the loop after L2
                notes.append((ids[b1], f"not fused with ^bb{ids[cand.b2]}: {why}"))
            elif cand is not None and b1 not in fused:
                notes.append((ids[b1], f"not fused: {cand}"))
            b1 = b1.next_block
        return sorted(notes, key=lambda n: n[0])


__all__ = ["LoopFusionPass"]
