"""``ori-block-layout``: blocks ordered so that branches fall through.

Block order is the layout of the ``ori-asm`` listing (``BraOp.
sass_instructions``): an unguarded ``BRA`` to the next block is no
instruction, a guarded one whose taken or fall-through successor is next is
one (the guard inverted if need be), else two (``@P BRA taken; BRA
fallthrough``).  The importer keeps PTX's label order and the loop passes
add blocks where they need them, so after unrolling many edges jump to a
block placed elsewhere: ori listed 900 unconditional ``BRA`` over CUB and
Thrust's kernels to ptxas's 335.

The seeds give no layout phase; the algorithm is the classic bottom-up
chain merge (Pettis and Hansen, "Profile guided code positioning", PLDI
1990) with a static weight instead of a profile:

1. every block is a chain of one;
2. the candidate edges -- an unguarded branch's edge, a guarded branch's
   fall-through edge and then its taken edge -- are taken by decreasing
   weight (``10 ** loop depth`` of the edge's source, so loop bodies stay
   contiguous first), ties in block order;
3. an edge ``a -> b`` joins the chain ending in ``a`` to the chain starting
   with ``b`` when they differ and ``b`` is not the entry (which must stay
   first);
4. the chains are laid out the entry's first, then the others in the order
   of their first block;
5. a layout with more branch instructions than the input's (the greedy
   merge can lose) is dropped: the input order stays.

Only the order of blocks changes (every edge, value and op stays as it
is), so the result computes what the input did; the pass runs in
``ori-ptxas`` before ``ori-abi`` so that allocation numbers its program
points in the final order.  ``remarks=true`` prints per function the
branch instructions before and after; ``stats=true`` the module totals.

Input invariants: ``ori.func`` bodies (any form); functions whose blocks
end in other terminators keep them (``BRX`` targets, ``EXIT``, ``RET``
take part only as chain ends).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.func import FuncOp
from passes.contract import Requirement, emit_remark, emit_stats, flush_diagnostics, option, require


def branch_instructions(region: Region) -> int:
    """The ``BRA`` instructions the listing of ``region`` holds."""
    return sum(op.sass_instructions() for b in region.blocks for op in b.ops
               if isinstance(op, BraOp))


def chain_order(cfg: CFG, depths: list[int]) -> list[int]:
    """The block ids in the layout order of the module docstring."""
    n = cfg.num_blocks
    edges: list[tuple[float, int, int, int]] = []  # (-weight, rank, src, dst)
    rank = 0
    for b in range(n):
        term = cfg.blocks[b].last_op
        if not isinstance(term, BraOp):
            continue
        w = 10.0 ** depths[b]
        targets = [term.taken] if term.fallthrough is None else [term.fallthrough, term.taken]
        for t in targets:
            edges.append((-w, rank, b, cfg.index[t]))
            rank += 1
    edges.sort()
    head = list(range(n))  # chain id of each block = its chain's first block
    nxt: list[int | None] = [None] * n
    tail_of = {b: b for b in range(n)}  # chain head -> chain tail
    for _, _, a, b in edges:
        ha, hb = head[a], head[b]
        if ha == hb or b == cfg.entry or tail_of[ha] != a or hb != b:
            continue
        nxt[a] = b
        tail_of[ha] = tail_of.pop(hb)
        x: int | None = b
        while x is not None:
            head[x] = ha
            x = nxt[x]
    starts = [b for b in range(n) if head[b] == b]
    starts.sort(key=lambda b: (b != cfg.entry, b))
    order: list[int] = []
    for s in starts:
        x: int | None = s
        while x is not None:
            order.append(x)
            x = nxt[x]
    return order


@dataclass(frozen=True)
class BlockLayoutPass(ModulePass):
    """Blocks reordered so that the heaviest edges fall through (module docstring)."""

    name = "ori-block-layout"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset()
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    remarks: bool = option(
        False, "ori: print per function the branch instructions before and after")
    stats: bool = option(False, "ori: print the module's totals to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        totals: Counter[str] = Counter()
        for func in functions_of(op):
            assert isinstance(func, FuncOp)
            before, after = self.run_function(func)
            totals["before"] += before
            totals["after"] += after
            if self.remarks:
                emit_remark(func.sym_name.data,
                            f"block-layout [branches before={before}] [branches after={after}]")
        if self.stats:
            emit_stats(self.name, f"[branches before={totals['before']}] "
                                  f"[branches after={totals['after']}]")
        if self.remarks or self.stats:
            flush_diagnostics()

    @staticmethod
    def run_function(func: FuncOp) -> tuple[int, int]:
        region = func.regions[0]
        before = branch_instructions(region)
        blocks = list(region.blocks)
        if len(blocks) < 3:
            return before, before
        cfg = CFG(blocks)
        depths = LoopInfo(cfg, DominatorTree(cfg)).depths()
        order = chain_order(cfg, depths)
        if order == list(range(len(blocks))):
            return before, before
        _reorder(region, blocks, [blocks[i] for i in order])
        after = branch_instructions(region)
        if after > before:  # the greedy chains lost: the input order stays
            _reorder(region, list(region.blocks), blocks)
            return before, before
        return before, after


def _reorder(region: Region, current: list[Block], order: list[Block]) -> None:
    for b in current:
        region.detach_block(b)
    for b in order:
        region.add_block(b)


__all__ = ["BlockLayoutPass", "branch_instructions", "chain_order"]
