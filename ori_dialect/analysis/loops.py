"""Back edges, natural loops and loop nesting (the loop part of
*AnalyzeControlFlow*, seed 001 "Loop Representation in Ori IR", phase 3).

ptxas keeps no loop objects: it annotates every block with ``loop_depth``
(0 outside loops) and records back edges in a hash map.  This module computes
the same facts and also offers LLVM-``LoopInfo``-style loop objects, which the
loop passes (simplification, unrolling, pipelining, LICM) query.

* A **back edge** is an edge ``u -> h`` whose target dominates its source.
* The **natural loop** of header ``h`` is the union over all back edges into
  ``h`` of the blocks that reach a latch without passing through ``h``, plus
  ``h``.  Several back edges into one header form one loop with several
  latches.
* **Nesting**: natural loops with different headers are disjoint or nested;
  a loop's parent is the smallest other loop containing its header.  ``depth``
  is 1 for an outermost loop; ``LoopInfo.depth(b)`` is 0 for a block outside
  every loop (ptxas' per-block ``loop_depth``).
* **Irreducible flow**: a *retreating* edge (target is a DFS ancestor of the
  source) whose target does not dominate its source.  Such edges are listed in
  ``irreducible_edges`` and grouped into :class:`IrreducibleRegion` objects (the
  strongly connected component containing the edge once the back edges of
  natural loops are removed, with its entry blocks);
  they never create natural loops, and blocks of an irreducible region that
  are not part of a natural loop keep depth 0.

Unreachable blocks belong to no loop and are never analysed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG, Edge
from ori_dialect.analysis.dominators import DominatorTree

if TYPE_CHECKING:
    from ori_dialect.analysis.manager import AnalysisManager


@dataclass(eq=False)
class Loop:
    """One natural loop.  Block sets hold block ids (region indices)."""

    header: int
    latches: tuple[int, ...]
    """Sources of the back edges into ``header``, in id order."""
    blocks: frozenset[int]
    parent: Loop | None = None
    children: list[Loop] = field(default_factory=list)
    depth: int = 1
    """Nesting depth: 1 for an outermost loop."""
    exit_edges: tuple[Edge, ...] = ()
    """Edges from a block of the loop to a block outside it (duplicates kept)."""
    preheader: int | None = None
    """The unique predecessor of ``header`` outside the loop, if the header is its
    only successor; else None."""

    @property
    def exiting_blocks(self) -> tuple[int, ...]:
        """Blocks in the loop with a successor outside it, in id order."""
        return tuple(sorted({e.src for e in self.exit_edges}))

    @property
    def exit_blocks(self) -> tuple[int, ...]:
        """Blocks outside the loop that are targets of an exit edge, in id order."""
        return tuple(sorted({e.dst for e in self.exit_edges}))

    def contains(self, b: int) -> bool:
        return b in self.blocks

    def sorted_blocks(self) -> list[int]:
        return sorted(self.blocks)

    def __repr__(self) -> str:
        return f"Loop(header={self.header}, depth={self.depth}, blocks={sorted(self.blocks)})"


@dataclass(frozen=True)
class IrreducibleRegion:
    """A strongly connected set of blocks entered at more than one block."""

    blocks: frozenset[int]
    entries: tuple[int, ...]
    """Blocks of the region with a predecessor outside it (or the function entry)."""
    edges: tuple[Edge, ...]
    """The irreducible (retreating, non-back) edges inside this region."""


class LoopInfo:
    """All natural loops of one function, their nesting and the irreducible edges."""

    cfg: CFG
    domtree: DominatorTree
    back_edges: list[Edge]
    """Edges ``u -> h`` with ``h`` dominating ``u`` (edge order of the CFG)."""
    irreducible_edges: list[Edge]
    irreducible_regions: list[IrreducibleRegion]
    loops: list[Loop]
    """Every loop, outermost first (pre-order of the loop tree; siblings by header RPO)."""
    top_level: list[Loop]
    _innermost: list[Loop | None]
    _by_header: dict[int, Loop]

    def __init__(self, cfg: CFG, domtree: DominatorTree) -> None:
        self.cfg = cfg
        self.domtree = domtree
        self.back_edges = []
        self.irreducible_edges = []
        latches: dict[int, list[int]] = {}
        for e in cfg.edges:
            if not cfg.is_retreating(e):
                continue
            if domtree.dominates(e.dst, e.src):
                self.back_edges.append(e)
                lst = latches.setdefault(e.dst, [])
                if e.src not in lst:
                    lst.append(e.src)
            else:
                self.irreducible_edges.append(e)

        # natural loop bodies
        raw: list[Loop] = []
        for h, ls in latches.items():
            body = {h}
            work = [x for x in ls if x != h]
            body.update(work)
            while work:
                b = work.pop()
                for p in cfg.preds[b]:
                    if p not in body and cfg.pre[p] >= 0:
                        body.add(p)
                        work.append(p)
            raw.append(Loop(h, tuple(sorted(ls)), frozenset(body)))

        # nesting: visit larger loops first; the innermost loop seen so far that
        # contains a loop's header is its parent.
        n = cfg.num_blocks
        innermost: list[Loop | None] = [None] * n
        rpo_index = cfg.rpo_index
        raw.sort(key=lambda lp: (-len(lp.blocks), rpo_index[lp.header]))
        for lp in raw:
            parent = innermost[lp.header]
            lp.parent = parent
            if parent is not None:
                lp.depth = parent.depth + 1
            for b in lp.blocks:
                innermost[b] = lp
        self._innermost = innermost
        self._by_header = {lp.header: lp for lp in raw}

        by_rpo = sorted(raw, key=lambda lp: rpo_index[lp.header])
        self.top_level = []
        for lp in by_rpo:
            if lp.parent is None:
                self.top_level.append(lp)
            else:
                lp.parent.children.append(lp)

        # exits and preheaders
        for lp in raw:
            body = lp.blocks
            lp.exit_edges = tuple(
                e for b in sorted(body) for e in cfg.out_edges[b] if e.dst not in body
            )
            outside = [p for p in cfg.preds[lp.header] if p not in body]
            if len(outside) == 1 and cfg.succs[outside[0]] == [lp.header]:
                lp.preheader = outside[0]

        self.loops = list(self.outermost_first())
        self.irreducible_regions = self._irreducible_regions()

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager | None = None) -> LoopInfo:
        if am is None:
            cfg = CFG.compute(func)
            return cls(cfg, DominatorTree(cfg))
        return cls(am.get(CFG, func), am.get(DominatorTree, func))

    # ------------------------------------------------------------------
    def loop_for(self, b: int) -> Loop | None:
        """The innermost loop containing block ``b``, or None."""
        return self._innermost[b]

    def loop_with_header(self, h: int) -> Loop | None:
        return self._by_header.get(h)

    def depth(self, b: int) -> int:
        """Loop nesting depth of block ``b`` (0 outside every loop)."""
        lp = self._innermost[b]
        return lp.depth if lp is not None else 0

    def depths(self) -> list[int]:
        """``loop_depth`` of every block, by id."""
        return [self.depth(b) for b in range(self.cfg.num_blocks)]

    def is_header(self, b: int) -> bool:
        return b in self._by_header

    def outermost_first(self) -> Iterator[Loop]:
        """Pre-order walk of the loop forest (parents before children)."""
        stack = list(reversed(self.top_level))
        while stack:
            lp = stack.pop()
            yield lp
            stack.extend(reversed(lp.children))

    def innermost_first(self) -> Iterator[Loop]:
        """Post-order walk of the loop forest (children before parents)."""
        stack: list[tuple[Loop, bool]] = [(lp, False) for lp in reversed(self.top_level)]
        while stack:
            lp, done = stack.pop()
            if done:
                yield lp
                continue
            stack.append((lp, True))
            stack.extend((c, False) for c in reversed(lp.children))

    def __iter__(self) -> Iterator[Loop]:
        return iter(self.loops)

    def __len__(self) -> int:
        return len(self.loops)

    # ------------------------------------------------------------------
    def _irreducible_regions(self) -> list[IrreducibleRegion]:
        if not self.irreducible_edges:
            return []
        back = {(e.src, e.dst) for e in self.back_edges}
        succs = [[s for s in ss if (b, s) not in back] for b, ss in enumerate(self.cfg.succs)]
        comp = _scc(self.cfg, succs)
        groups: dict[int, list[Edge]] = {}
        for e in self.irreducible_edges:
            groups.setdefault(comp[e.dst], []).append(e)
        regions: list[IrreducibleRegion] = []
        for c in sorted(groups, key=lambda c: min(e.dst for e in groups[c])):
            blocks = frozenset(b for b in range(self.cfg.num_blocks) if comp[b] == c)
            entries = tuple(
                sorted(
                    b
                    for b in blocks
                    if b == self.cfg.entry or any(p not in blocks for p in self.cfg.preds[b])
                )
            )
            regions.append(IrreducibleRegion(blocks, entries, tuple(groups[c])))
        return regions


def _scc(cfg: CFG, succs: list[list[int]]) -> list[int]:
    """Strongly connected component id of every block reachable from the entry over
    ``succs`` (Tarjan, iterative); -1 for the others."""
    n = cfg.num_blocks
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in cfg.rpo[:1]:
        work: list[tuple[int, int]] = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, k = work[-1]
            ss = succs[v]
            if k < len(ss):
                work[-1] = (v, k + 1)
                w = ss[k]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    return comp


__all__ = ["IrreducibleRegion", "Loop", "LoopInfo"]
