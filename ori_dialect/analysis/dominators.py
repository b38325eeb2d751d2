"""Dominator tree of one function (second step of *AnalyzeControlFlow*, seed 001
"Loop Representation in Ori IR", phase 3: back edges are recognised through
dominance before ``loop_depth`` is assigned).

The immediate dominators are computed with the iterative algorithm of
Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") over the
CFG's reverse post-order.  ``dominates`` is answered in O(1) from pre/post
numbers of an (iterative) walk of the dominator tree.

Unreachable blocks have no immediate dominator (``idom(b) is None``), are
listed in ``unreachable``, dominate nothing but themselves and are dominated
by nothing but themselves.  The entry block's ``idom`` is ``None`` as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager


class DominatorTree:
    """Immediate dominators, dominator-tree children and O(1) dominance queries."""

    cfg: CFG
    idom_array: list[int]
    """Immediate dominator of each block; the entry maps to itself, unreachable to -1."""
    children: list[list[int]]
    """Dominator-tree children of each block (in RPO order)."""
    unreachable: list[int]

    def __init__(self, cfg: CFG) -> None:
        self.cfg = cfg
        n = cfg.num_blocks
        self.unreachable = list(cfg.unreachable)
        idom = [-1] * n
        rpo = cfg.rpo
        if rpo:
            order = cfg.rpo_index
            entry = rpo[0]
            idom[entry] = entry
            preds = cfg.preds
            changed = True
            while changed:
                changed = False
                for b in rpo[1:]:
                    new = -1
                    for p in preds[b]:
                        if idom[p] < 0:
                            continue  # unreachable or not processed yet
                        if new < 0:
                            new = p
                            continue
                        # intersect(p, new)
                        f1, f2 = p, new
                        while f1 != f2:
                            while order[f1] > order[f2]:
                                f1 = idom[f1]
                            while order[f2] > order[f1]:
                                f2 = idom[f2]
                        new = f1
                    if idom[b] != new:
                        idom[b] = new
                        changed = True
        self.idom_array = idom
        self.children = [[] for _ in range(n)]
        for b in rpo[1:]:
            self.children[idom[b]].append(b)
        # pre/post numbers of the dominator tree (iterative DFS)
        self._in = [-1] * n
        self._out = [-1] * n
        self._depth = [-1] * n
        if rpo:
            clock = 0
            root = rpo[0]
            self._depth[root] = 0
            stack: list[tuple[int, int]] = [(root, 0)]
            self._in[root] = clock
            clock += 1
            while stack:
                b, k = stack[-1]
                ch = self.children[b]
                if k < len(ch):
                    stack[-1] = (b, k + 1)
                    c = ch[k]
                    self._in[c] = clock
                    clock += 1
                    self._depth[c] = self._depth[b] + 1
                    stack.append((c, 0))
                else:
                    self._out[b] = clock
                    clock += 1
                    stack.pop()

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> DominatorTree:
        if am is None:
            return cls(CFG.compute(func))
        return cls(am.get(CFG, func))

    # ------------------------------------------------------------------
    def idom(self, b: int) -> int | None:
        """The immediate dominator of ``b``; None for the entry and unreachable blocks."""
        d = self.idom_array[b]
        if d < 0 or d == b:
            return None
        return d

    def is_reachable(self, b: int) -> bool:
        return self.idom_array[b] >= 0

    def dominates(self, a: int, b: int) -> bool:
        """Whether every path from the entry to ``b`` passes through ``a`` (reflexive).

        False whenever exactly one of them is unreachable or both are distinct
        unreachable blocks.
        """
        if a == b:
            return True
        ia = self._in[a]
        ib = self._in[b]
        if ia < 0 or ib < 0:
            return False
        return ia <= ib and self._out[b] <= self._out[a]

    def strictly_dominates(self, a: int, b: int) -> bool:
        return a != b and self.dominates(a, b)

    def depth(self, b: int) -> int:
        """Depth in the dominator tree (entry 0); -1 for unreachable blocks."""
        return self._depth[b]

    def dominators(self, b: int) -> list[int]:
        """``b`` and all its dominators, innermost first (empty if unreachable)."""
        if self.idom_array[b] < 0:
            return []
        out = [b]
        while True:
            d = self.idom_array[out[-1]]
            if d == out[-1]:
                return out
            out.append(d)


__all__ = ["DominatorTree"]
