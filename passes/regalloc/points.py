"""Program points and the live matrix shared by the allocator and the checker.

A *program point* is a moment between instructions at which a set of values
occupies registers:

* one **entry point** per block: the block's live-in values plus all of its
  arguments (an argument that is never used is still written by the edge
  copies, so it occupies its register there);
* one point **after each op**: the values live after it plus every value the
  op defines, dead ones included (a dead result is still written).

Every value that is live just before an op is in the point before it (the
block's entry point or the point after the previous op), so two values
*interfere* exactly when some point holds both.  A value that dies at an op
and a result of that op never share a point: they may share a register
(instructions read all sources before writing results), which is also what a
tied prior value and its guarded result need.

``LiveMatrix.live`` is a ``(points, values)`` boolean numpy matrix; the
fat-point allocator sums its rows into per-register interference histograms
and the checker walks it row by row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import Liveness, ValueNumbering
from ori_dialect.analysis.loops import LoopInfo


@dataclass(frozen=True)
class Point:
    block: int
    op: int
    """Position of the op the point follows; -1 for the block entry point."""


class LiveMatrix:
    """Points x values occupancy of one function (see the module docstring)."""

    cfg: CFG
    liveness: Liveness
    numbering: ValueNumbering
    points: list[Point]
    live: npt.NDArray[np.bool_]
    op_point: dict[Operation, int]
    """The point just after each op."""
    block_entry: list[int]
    """The entry point of each block."""
    depth: npt.NDArray[np.int32]
    """Loop nesting depth of each point's block."""

    def __init__(self, func: Operation) -> None:
        cfg = CFG.compute(func)
        lv = Liveness(cfg)
        num = lv.numbering
        self.cfg = cfg
        self.liveness = lv
        self.numbering = num
        from ori_dialect.analysis.dominators import DominatorTree

        loops = LoopInfo(cfg, DominatorTree(cfg))
        points: list[Point] = []
        rows: list[int] = []
        cols: list[int] = []
        self.op_point = {}
        self.block_entry = []
        depths: list[int] = []
        for b in range(cfg.num_blocks):
            ops = num.ops[b]
            d = loops.depth(b)
            # points of this block, computed backwards then laid out forwards
            after: list[list[int]] = [[] for _ in ops]
            live_before_first: set[int] = set(lv.live_out(b)) if not ops else set()
            for k, op, live in lv.walk_backward(b):
                after[k] = [*live, *num.op_defs[b][k]]
            if ops:
                live_before_first = set(live)  # state after the walk: live before op 0
            entry = live_before_first | set(num.arg_ids[b])
            self.block_entry.append(len(points))
            p = len(points)
            points.append(Point(b, -1))
            depths.append(d)
            rows.extend([p] * len(entry))
            cols.extend(entry)
            for k, op in enumerate(ops):
                p = len(points)
                points.append(Point(b, k))
                depths.append(d)
                self.op_point[op] = p
                s = set(after[k])
                rows.extend([p] * len(s))
                cols.extend(s)
        self.points = points
        live_m = np.zeros((len(points), len(num)), dtype=np.bool_)
        if rows:
            live_m[np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)] = True
        self.live = live_m
        self.depth = np.asarray(depths, dtype=np.int32)

    def values_at(self, p: int) -> npt.NDArray[np.intp]:
        return np.flatnonzero(self.live[p])


__all__ = ["LiveMatrix", "Point"]
