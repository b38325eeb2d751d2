"""Control-flow graph of one ``ori.func`` with dense integer block ids.

This is the first third of ptxas' *AnalyzeControlFlow* (seed 001,
"Loop Representation in Ori IR": phase 3 fills every basic block's
``predecessor_list``/``successor_list`` and the reverse-post-order array that
all loop passes iterate over).  Here the result is a plain object:

* a block's **id** is its index in the function's ``body`` region
  (``^bbN`` in the print passes names block ``N``);
* ``edges`` lists one :class:`Edge` per *successor slot* of a terminator, so a
  guarded ``ori.bra`` naming the same block twice (``ori.bra if %p, ^bb1(%a),
  ^bb1(%b)``) contributes two distinct edges (slot 0 = taken, 1 =
  fall-through), each with its own block arguments;
* ``succs``/``preds`` are *deduplicated* adjacency lists (each neighbour once,
  in order of first appearance), which is what dominators, loops and liveness
  need;
* ``rpo`` holds the reachable blocks in reverse post-order of an iterative
  depth-first search from the entry block (successors visited in slot order);
  unreachable blocks appear in ``unreachable`` and not in ``rpo``.

No recursion is used anywhere: functions may have thousands of blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import Block, Operation, SSAValue

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager


@dataclass(frozen=True, slots=True)
class Edge:
    """A CFG edge ``src -> dst`` through successor slot ``slot`` of ``src``'s terminator."""

    src: int
    dst: int
    slot: int


class CFG:
    """Successors, predecessors, edges, reachability and RPO of one function body.

    Build it with :meth:`compute` (the analysis-manager entry point),
    :meth:`from_blocks` for any list of xDSL blocks, or :meth:`from_succs` for
    an abstract graph.
    """

    blocks: list[Block]
    """Blocks by id."""
    index: dict[Block, int]
    """Block -> id."""
    succs: list[list[int]]
    preds: list[list[int]]
    edges: list[Edge]
    out_edges: list[list[Edge]]
    """Edges leaving each block, in successor-slot order (duplicates kept)."""
    in_edges: list[list[Edge]]
    rpo: list[int]
    """Reachable block ids in reverse post-order (entry first)."""
    rpo_index: list[int]
    """Position of each block in ``rpo``; -1 for unreachable blocks."""
    pre: list[int]
    """DFS preorder number of each block; -1 when unreachable."""
    post: list[int]
    """DFS postorder number of each block; -1 when unreachable."""
    unreachable: list[int]
    """Ids of blocks not reachable from the entry, in id order."""

    def __init__(self, blocks: list[Block]) -> None:
        index = {b: i for i, b in enumerate(blocks)}
        slots: list[list[int]] = []
        for i, b in enumerate(blocks):
            last = b.last_op
            ss: list[int] = []
            if last is not None:
                for s in last.successors:
                    j = index.get(s)
                    if j is None:
                        raise ValueError(f"block #{i} branches to a block outside the region")
                    ss.append(j)
            slots.append(ss)
        self.blocks = blocks
        self.index = index
        self._build(slots)

    @classmethod
    def from_blocks(cls, blocks: list[Block]) -> CFG:
        return cls(blocks)

    @classmethod
    def from_succs(cls, succs: list[list[int]]) -> CFG:
        """An abstract CFG (no xDSL blocks): ``succs[i]`` lists block ``i``'s
        successor slots.  ``blocks`` and ``index`` are empty."""
        cfg = cls.__new__(cls)
        cfg.blocks = []
        cfg.index = {}
        cfg._build(succs)
        return cfg

    def _build(self, slots: list[list[int]]) -> None:
        n = len(slots)
        self._n = n
        self.succs = [[] for _ in range(n)]
        self.preds = [[] for _ in range(n)]
        self.out_edges = [[] for _ in range(n)]
        self.in_edges = [[] for _ in range(n)]
        self.edges = []
        for i, ss in enumerate(slots):
            seen: set[int] = set()
            for slot, j in enumerate(ss):
                e = Edge(i, j, slot)
                self.edges.append(e)
                self.out_edges[i].append(e)
                self.in_edges[j].append(e)
                if j not in seen:
                    seen.add(j)
                    self.succs[i].append(j)
                    self.preds[j].append(i)
        self._dfs()

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> CFG:
        """The CFG of ``func``'s first region (an ``ori.func`` body)."""
        return cls(list(func.regions[0].blocks))

    # ------------------------------------------------------------------
    def _dfs(self) -> None:
        n = self._n
        pre = [-1] * n
        post = [-1] * n
        order: list[int] = []
        if n:
            pre_counter = 0
            # Stack of (block, next successor position).
            stack: list[list[int]] = [[0, 0]]
            pre[0] = pre_counter
            pre_counter += 1
            succs = self.succs
            while stack:
                top = stack[-1]
                b, k = top
                ss = succs[b]
                if k < len(ss):
                    top[1] = k + 1
                    s = ss[k]
                    if pre[s] < 0:
                        pre[s] = pre_counter
                        pre_counter += 1
                        stack.append([s, 0])
                else:
                    post[b] = len(order)
                    order.append(b)
                    stack.pop()
        self.pre = pre
        self.post = post
        self.rpo = order[::-1]
        self.rpo_index = [-1] * n
        for i, b in enumerate(self.rpo):
            self.rpo_index[b] = i
        self.unreachable = [b for b in range(n) if pre[b] < 0]

    # ------------------------------------------------------------------
    @property
    def num_blocks(self) -> int:
        return self._n

    @property
    def entry(self) -> int:
        return 0

    def id(self, block: Block) -> int:
        """The id (region index) of ``block``."""
        return self.index[block]

    def is_reachable(self, b: int) -> bool:
        return self.pre[b] >= 0

    def postorder(self) -> list[int]:
        """Reachable blocks in DFS post-order (successors before predecessors, mostly)."""
        return self.rpo[::-1]

    def is_retreating(self, e: Edge) -> bool:
        """Whether ``e`` goes to a DFS ancestor of its source (or itself).

        Every back edge of a natural loop is retreating; a retreating edge
        whose target does not dominate its source marks irreducible flow.
        """
        s, d = e.src, e.dst
        if self.pre[s] < 0 or self.pre[d] < 0:
            return False
        return self.pre[d] <= self.pre[s] and self.post[d] >= self.post[s]

    def reachable_from(self, start: int) -> set[int]:
        """Every block reachable from ``start`` (including itself)."""
        seen = {start}
        work = [start]
        while work:
            b = work.pop()
            for s in self.succs[b]:
                if s not in seen:
                    seen.add(s)
                    work.append(s)
        return seen


def edge_operands(term: Operation, slot: int) -> Sequence[SSAValue]:
    """The operands ``term`` passes along its successor slot ``slot``.

    ``ori.bra`` says so through ``edge_args``; for any other terminator with a
    single successor every operand is taken to be a block argument.
    """
    edge_args = getattr(term, "edge_args", None)
    if edge_args is not None:
        return edge_args(slot)
    if len(term.successors) == 1:
        return term.operands
    return ()


__all__ = ["CFG", "Edge", "edge_operands"]
