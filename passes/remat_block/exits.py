"""Dedicated loop exits for the pull-in: a value read after a loop is
recomputed once, on the way out, not on every iteration.

A loop's exiting branch that passes operands to a block outside the loop
(the arguments of a join: Triton's attention kernel hands its epilogue
offsets to the store block from the loop and from the path that skips it)
reads them inside the loop.  A pull-in copy goes right before its first
reader in a block (:mod:`.context`), so the copy of such a value landed
before that branch and ran on every iteration: four instructions per K
step of the attention loop for values its epilogue reads once.  ptxas's
loop bodies hold no such copies.

Before the rounds, :func:`split_exits` gives each loop-exit edge that
passes operands a block of its own, which takes the operands over: the
loop's branch passes nothing along it, the new block branches on passing
them.  A copy for that edge then goes there, outside the loop, at the
loop factor of the target's depth.  After the rounds,
:func:`merge_unused` folds back each such block that received nothing, so
a function the rounds left alone there keeps its CFG.  This is ori's
step; the seed's pass runs on machine code whose exit copies are already
placed.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ops.control import BraOp
from passes.loop_utils import retarget_edge


def split_exits(func: Operation) -> list[Block]:
    """Split every reachable loop-exit edge (to a block of smaller loop
    depth) that passes operands; returns the new blocks."""
    cfg = CFG.compute(func)
    depth = LoopInfo(cfg, DominatorTree(cfg)).depths()
    made: list[Block] = []
    for b, block in enumerate(cfg.blocks):
        if not cfg.is_reachable(b) or not depth[b]:
            continue
        term = block.last_op
        if not isinstance(term, BraOp):
            continue
        for slot, succ in enumerate(list(term.successors)):
            s = cfg.index.get(succ)
            args = list(term.edge_args(slot))
            if s is None or depth[s] >= depth[b] or not args:
                continue
            exit_block = Block()
            exit_block.add_op(BraOp(succ, args))
            region = block.parent
            assert region is not None
            region.insert_block_after(exit_block, block)
            term = retarget_edge(block, slot, exit_block, [])
            made.append(exit_block)
    return made


def merge_unused(blocks: list[Block]) -> None:
    """Fold each block of ``blocks`` that holds nothing but its branch back
    into the edge it was split from."""
    for exit_block in blocks:
        region = exit_block.parent
        term = exit_block.first_op
        if region is None or not isinstance(term, BraOp) or term is not exit_block.last_op:
            continue
        preds = list(exit_block.predecessors())
        if len(preds) != 1:
            continue
        pred_term = preds[0].last_op
        assert isinstance(pred_term, BraOp)
        slot = list(pred_term.successors).index(exit_block)
        retarget_edge(preds[0], slot, term.successors[0], list(term.edge_args(0)))
        region.detach_block(exit_block)
        exit_block.erase()


__all__ = ["merge_unused", "split_exits"]
