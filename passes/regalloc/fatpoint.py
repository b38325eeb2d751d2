"""The fat-point core (seed 000, "Core Fat-Point Allocator: sub_957160").

For the unit being coloured, the *primary* histogram counts, per physical
register, the program points of the unit's live range at which that
register is already occupied (``occupancy[points].sum(axis=0)`` over a
points x registers numpy matrix -- the seed's 512-DWORD array, built per
unit).  A candidate slot is an aligned base register (a pair or quad for
wide values) whose registers are all allocatable; its cost is the sum of
the primary counts of its registers.

* Slots whose cost exceeds ``threshold-for-discard-conflicts``
  (RegAllocThresholdForDiscardConflicts, knob 684, default 50) are
  discarded, as in the seed.
* The slot with the minimum cost wins; ties go to the lower *secondary*
  cost -- 0 on registers that hold a coalescing partner (a hint from
  :mod:`.coalesce`), 1 elsewhere -- and then to the lowest register (which
  keeps the register count low).
* Deviation: ptxas resolves a remaining conflict later (live-range
  splitting); ori does not split live ranges, so a best slot with a
  non-zero cost is not assigned: the unit is marked *needs spill*, exactly
  like a unit that finds no slot.  The threshold therefore only prunes the
  scan.  The input is never miscompiled.

The assignment's register consumption is ``base + width`` (sub_939CE0:
``assignment + (1 << pair) - 1``, plus one for a count).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from passes.regalloc.classes import Unit


@dataclass
class FatPointResult:
    assignment: dict[int, int] = field(default_factory=dict)
    """unit id -> base register."""
    failed: list[Unit] = field(default_factory=list)
    peak: int = 0
    """Registers consumed: highest assigned register + 1."""
    occupancy: np.ndarray | None = None


def candidate_bases(allowed: list[int], width: int) -> np.ndarray:
    ok = set(allowed)
    return np.asarray(
        [b for b in allowed if b % width == 0 and all(b + i in ok for i in range(width))],
        dtype=np.intp,
    )


def fatpoint_allocate(
    order: list[Unit],
    allowed: list[int],
    num_points: int,
    threshold: int,
    file_size: int = 256,
) -> FatPointResult:
    res = FatPointResult()
    occ = np.zeros((num_points, file_size), dtype=np.int32)
    cands = {w: candidate_bases(allowed, w) for w in (1, 2, 4)}
    assignment = res.assignment
    for u in order:
        bases = cands.get(u.width)
        if bases is None:
            bases = candidate_bases(allowed, u.width)
            cands[u.width] = bases
        if bases.size == 0:
            res.failed.append(u)
            continue
        idx = np.flatnonzero(u.points)
        primary = occ[idx].sum(axis=0) if idx.size else np.zeros(file_size, dtype=np.int64)
        cost = np.zeros(bases.size, dtype=np.int64)
        for i in range(u.width):
            cost += primary[bases + i]
        secondary = np.ones(bases.size, dtype=np.int64)
        for h in u.hints:
            hb = assignment.get(h)
            if hb is not None:
                secondary[bases == hb] = 0
        keep = cost <= threshold
        if not keep.any():
            res.failed.append(u)
            continue
        kb, kc, ks = bases[keep], cost[keep], secondary[keep]
        best = np.lexsort((kb, ks, kc))[0]
        if kc[best] > 0:
            res.failed.append(u)
            continue
        b = int(kb[best])
        assignment[u.id] = b
        if idx.size:
            occ[idx, b : b + u.width] += 1
        res.peak = max(res.peak, b + u.width)
    res.occupancy = occ
    return res


__all__ = ["FatPointResult", "candidate_bases", "fatpoint_allocate"]
