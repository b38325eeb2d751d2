"""Program points and live intervals shared by the allocator and the checker.

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

**Representation.**  Points are numbered linearly, block by block in region
order (the entry point, then the point after each op).  Within one block the
points holding a value are contiguous (a backward walk adds a value at its
last use and drops it at its definition), so the points of a value are a few
half-open *segments* ``[start, end)`` -- at most one per block, and segments
of consecutive blocks are merged.  :class:`LiveMatrix` keeps all of them in
three flat numpy arrays sorted by (value, start); the total size is the sum
of the live ranges' segment counts, linear in the function's size for a
bounded register pressure, instead of the ``points x values`` matrix (which
is quadratic: 10^10 cells for 100k instructions).  Per-point questions are
answered from the segments: register pressure with a difference array and a
cumulative sum, the values at a point by a scan of the segments.  (ptxas too
keeps live ranges as intervals next to the fat-point histograms: seed 000,
"Live Range Infrastructure", the interval primitives at 0x994000.)

:class:`Segments` is one set of points (a unit's live range): sorted,
disjoint, non-adjacent ``[start, end)`` pairs with intersection, union and
the ``(a & b).any()`` idiom of boolean masks.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from xdsl.ir import Operation

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness, ValueNumbering
from ori_dialect.analysis.loops import LoopInfo

IntArray = npt.NDArray[np.int64]


class Point(NamedTuple):
    block: int
    op: int
    """Position of the op the point follows; -1 for the block entry point."""


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector (a context manager and decorator).

    Allocation creates many short-lived objects while the IR holds millions
    of long-lived ones, so each full collection scans the whole IR: a quarter
    of the CPU time of a 100k-instruction allocation.  The same reasoning as
    ``import_ptx``'s pause."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _merge(starts: IntArray, ends: IntArray) -> tuple[IntArray, IntArray]:
    """Sort segments and merge overlapping or adjacent ones."""
    if starts.size <= 1:
        return starts, ends
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    if s.size > 1 and np.all(s[1:] > e[:-1]):
        return s, e
    reach = np.maximum.accumulate(e)
    new = np.empty(s.size, dtype=np.bool_)
    new[0] = True
    new[1:] = s[1:] > reach[:-1]
    first = np.flatnonzero(new)
    last = np.append(first[1:], s.size) - 1
    return s[first], reach[last]


def _rows_to_indices(rows: npt.NDArray[np.uint64]) -> list[list[int]]:
    """The set bits of every packed row (liveness bitsets), ascending; only
    non-zero words are unpacked, so the cost is the number of words plus the
    number of set bits, not rows x values."""
    bi, wi = np.nonzero(rows)
    out: list[list[int]] = [[] for _ in range(rows.shape[0])]
    if not bi.size:
        return out
    words = rows[bi, wi].astype("<u8")
    bits = np.unpackbits(words.view(np.uint8), bitorder="little").reshape(bi.size, 64)
    r, c = np.nonzero(bits)
    blk = bi[r]
    vals = (wi[r] * 64 + c).tolist()
    bounds = np.searchsorted(blk, np.arange(rows.shape[0] + 1)).tolist()
    for b in range(rows.shape[0]):
        if bounds[b] < bounds[b + 1]:
            out[b] = vals[bounds[b] : bounds[b + 1]]
    return out


class Segments:
    """A set of program points as sorted, disjoint, non-adjacent half-open
    segments ``[starts[i], ends[i])``."""

    __slots__ = ("ends", "starts")

    starts: IntArray
    ends: IntArray

    def __init__(self, starts: IntArray, ends: IntArray) -> None:
        self.starts = starts
        self.ends = ends

    @classmethod
    def of(cls, starts: Sequence[int] | IntArray, ends: Sequence[int] | IntArray) -> Segments:
        """Segments from any (possibly unsorted, overlapping) pairs."""
        s, e = _merge(np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))
        return cls(s, e)

    def __len__(self) -> int:
        """The number of points."""
        return int((self.ends - self.starts).sum())

    def any(self) -> bool:
        return self.starts.size > 0

    def __bool__(self) -> bool:
        return self.starts.size > 0

    def intersects(self, other: Segments) -> bool:
        a_s, a_e, b_s, b_e = self.starts, self.ends, other.starts, other.ends
        if not a_s.size or not b_s.size:
            return False
        if a_s.size == 1 and b_s.size == 1:
            return bool(a_s[0] < b_e[0] and b_s[0] < a_e[0])
        if a_s.size > b_s.size:
            a_s, a_e, b_s, b_e = b_s, b_e, a_s, a_e
        # first segment of b ending after each start of a
        j = np.searchsorted(b_e, a_s, side="right")
        ok = j < b_s.size
        if not ok.any():
            return False
        return bool((b_s[j[ok]] < a_e[ok]).any())

    def __and__(self, other: Segments) -> Segments:
        """The points in both sets."""
        if not self.starts.size or not other.starts.size:
            return Segments(np.empty(0, np.int64), np.empty(0, np.int64))
        # fast paths (the driver tests ``(a & b).any()`` over many units):
        # disjoint hulls, and two single segments
        a0, a1 = int(self.starts[0]), int(self.ends[-1])
        b0, b1 = int(other.starts[0]), int(other.ends[-1])
        if a1 <= b0 or b1 <= a0:
            return Segments(np.empty(0, np.int64), np.empty(0, np.int64))
        if self.starts.size == 1 and other.starts.size == 1:
            return Segments(np.array([max(a0, b0)], np.int64), np.array([min(a1, b1)], np.int64))
        # pairs (i, j) of overlapping segments, found by a merge on searchsorted
        j0 = np.searchsorted(other.ends, self.starts, side="right")
        j1 = np.searchsorted(other.starts, self.ends, side="left")
        cnt = np.maximum(j1 - j0, 0)
        i = np.repeat(np.arange(self.starts.size), cnt)
        if not i.size:
            return Segments(np.empty(0, np.int64), np.empty(0, np.int64))
        off = np.repeat(np.cumsum(cnt) - cnt, cnt)
        j = np.arange(i.size) - off + np.repeat(j0, cnt)
        s = np.maximum(self.starts[i], other.starts[j])
        e = np.minimum(self.ends[i], other.ends[j])
        return Segments.of(s, e)

    def __or__(self, other: Segments) -> Segments:
        return Segments.of(
            np.concatenate((self.starts, other.starts)), np.concatenate((self.ends, other.ends))
        )

    def mask(self, num_points: int) -> npt.NDArray[np.bool_]:
        """The set as a boolean mask over ``num_points`` points."""
        m = np.zeros(num_points + 1, dtype=np.int8)
        np.add.at(m, self.starts, 1)
        np.add.at(m, self.ends, -1)
        return np.cumsum(m[:-1]) > 0

    def indices(self) -> IntArray:
        """The points, ascending."""
        if not self.starts.size:
            return np.empty(0, np.int64)
        lens = self.ends - self.starts
        off = np.repeat(self.starts - (np.cumsum(lens) - lens), lens)
        return np.arange(int(lens.sum()), dtype=np.int64) + off

    def __repr__(self) -> str:
        return "Segments(" + ", ".join(
            f"[{s}, {e})" for s, e in zip(self.starts.tolist(), self.ends.tolist())
        ) + ")"


class LiveMatrix:
    """Points and the live segments of every value of one function (see the
    module docstring).  The name is historical: no matrix is built."""

    cfg: CFG
    liveness: Liveness
    numbering: ValueNumbering
    points: list[Point]
    op_point: dict[Operation, int]
    """The point just after each op."""
    block_entry: list[int]
    """The entry point of each block."""
    depth: npt.NDArray[np.int32]
    """Loop nesting depth of each point's block."""
    seg_value: IntArray
    seg_start: IntArray
    seg_end: IntArray
    """All live segments, sorted by (value, start); merged where adjacent."""
    value_seg: IntArray
    """The segments of value ``v`` are ``value_seg[v]:value_seg[v + 1]``."""

    def __init__(self, func: Operation) -> None:
        cfg = CFG.compute(func)
        lv = Liveness(cfg)
        num = lv.numbering
        self.cfg = cfg
        self.liveness = lv
        self.numbering = num
        loops = LoopInfo(cfg, DominatorTree(cfg))
        points: list[Point] = []
        self.op_point = {}
        self.block_entry = []
        depths: list[int] = []
        sv: list[int] = []
        ss: list[int] = []
        se: list[int] = []
        op_point = self.op_point
        live_out = lv.live_out_lists()
        for b in range(cfg.num_blocks):
            ops = num.ops[b]
            n = len(ops)
            pe = len(points)
            self.block_entry.append(pe)
            depths.append(loops.depth(b))
            points.append(Point(b, -1))
            points.extend(Point(b, k) for k in range(n))
            for k, op in enumerate(ops):
                op_point[op] = pe + 1 + k
            # backward walk: ``end`` of every value live at the current point
            # (exclusive); a value's segment opens at its definition's point
            end: dict[int, int] = dict.fromkeys(live_out[b], pe + n + 1)
            defs_b = num.op_defs[b]
            uses_b = num.op_uses[b]
            for k in range(n - 1, -1, -1):
                p = pe + 1 + k
                for d in defs_b[k]:
                    sv.append(d)
                    ss.append(p)
                    se.append(end.pop(d, p + 1))  # a dead result holds its point only
                for u in uses_b[k]:
                    if u not in end:
                        end[u] = p  # live up to the point before op k
            for a in num.arg_ids[b]:
                sv.append(a)
                ss.append(pe)
                se.append(end.pop(a, pe + 1))  # every argument is written at entry
            for v, e in end.items():  # live-in
                sv.append(v)
                ss.append(pe)
                se.append(e)
        self.points = points
        self.depth = np.asarray(depths, dtype=np.int32).repeat(
            np.diff(np.append(self.block_entry, len(points)))
        ) if points else np.zeros(0, dtype=np.int32)
        v_a = np.asarray(sv, dtype=np.int64)
        s_a = np.asarray(ss, dtype=np.int64)
        e_a = np.asarray(se, dtype=np.int64)
        order = np.lexsort((s_a, v_a))
        v_a, s_a, e_a = v_a[order], s_a[order], e_a[order]
        # merge a value's segments of consecutive blocks ([x, p) and [p, y))
        if v_a.size > 1:
            join = (v_a[1:] == v_a[:-1]) & (s_a[1:] <= e_a[:-1])
            if join.any():
                first = np.ones(v_a.size, dtype=np.bool_)
                first[1:] = ~join
                grp = np.cumsum(first) - 1
                ends = np.zeros(int(grp[-1]) + 1, dtype=np.int64)
                np.maximum.at(ends, grp, e_a)
                keep = np.flatnonzero(first)
                v_a, s_a, e_a = v_a[keep], s_a[keep], ends
        self.seg_value, self.seg_start, self.seg_end = v_a, s_a, e_a
        self.value_seg = np.searchsorted(v_a, np.arange(len(num) + 1), side="left")
        self._bounds: list[int] = self.value_seg.tolist()

    # ------------------------------------------------------------------
    def segments(self, v: int) -> Segments:
        """The points of value ``v``."""
        bounds = self._bounds
        a, b = bounds[v], bounds[v + 1]
        return Segments(self.seg_start[a:b], self.seg_end[a:b])

    def values_at(self, p: int) -> npt.NDArray[np.intp]:
        """The values at point ``p``, ascending (a scan of all segments)."""
        m = (self.seg_start <= p) & (self.seg_end > p)
        return self.seg_value[m].astype(np.intp)

    def live_through(self, after: Sequence[int] | IntArray) -> list[IntArray]:
        """For each point ``p`` of ``after``: the values at both ``p - 1`` and
        ``p`` (one sweep over the segments, output-sensitive)."""
        q = np.asarray(after, dtype=np.int64)
        if not q.size:
            return []
        order = np.argsort(q, kind="stable")
        qs = q[order]
        # a segment holds p - 1 and p when start <= p - 1 and end >= p + 1
        lo = np.searchsorted(qs, self.seg_start + 1, side="left")
        hi = np.searchsorted(qs, self.seg_end - 1, side="right")
        cnt = np.maximum(hi - lo, 0)
        seg = np.repeat(np.arange(self.seg_start.size), cnt)
        off = np.repeat(np.cumsum(cnt) - cnt, cnt)
        qi = np.arange(seg.size) - off + np.repeat(lo, cnt)
        vals = self.seg_value[seg]
        by_q = np.argsort(qi, kind="stable")
        qi, vals = qi[by_q], vals[by_q]
        bounds = np.searchsorted(qi, np.arange(qs.size + 1), side="left")
        out: list[IntArray] = [np.empty(0, np.int64)] * q.size
        for k in range(qs.size):
            out[int(order[k])] = np.sort(vals[bounds[k] : bounds[k + 1]])
        return out

    def pressure(self, values: Sequence[int] | IntArray) -> IntArray:
        """Registers occupied at each point by ``values`` (each counted by its
        width): a difference array over the segments' ends and a cumulative
        sum."""
        npts = len(self.points)
        sel = np.zeros(len(self.numbering) + 1, dtype=np.bool_)
        idx = np.asarray(values, dtype=np.int64)
        if idx.size:
            sel[idx] = True
        m = sel[self.seg_value]
        w = self.numbering.width.astype(np.int64)[self.seg_value[m]]
        diff = np.bincount(self.seg_start[m], weights=w, minlength=npts + 1)
        diff -= np.bincount(self.seg_end[m], weights=w, minlength=npts + 1)
        return np.cumsum(diff[:npts]).round().astype(np.int64)

    def dense(self) -> npt.NDArray[np.bool_]:
        """The ``(points, values)`` boolean matrix (quadratic: only for small
        functions, tests and debugging)."""
        m = np.zeros((len(self.points), len(self.numbering)), dtype=np.bool_)
        for v, s, e in zip(self.seg_value.tolist(), self.seg_start.tolist(),
                           self.seg_end.tolist()):
            m[s:e, v] = True
        return m


__all__ = ["LiveMatrix", "Point", "Segments", "paused_gc"]
