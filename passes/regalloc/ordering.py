"""The 6-list simplify/select ordering (seed 000, "Six-List Classification").

Each unit of one register file goes to one list:

=============  ===========================================================
list           criterion (ori's reading of the seed's)
=============  ===========================================================
LargeVec       width > 4 registers; merged into VeryHigh (ori has none)
Unconstrained  no constraint: one register wide, not tied, and the
               register pressure at each of its points is within the
               file's allocatable registers (trivially colourable)
VeryHigh       paired mode: a 64/128-bit value (aligned pair or quad)
High           spill cost above the threshold: units that cannot be
               spilled (reload temporaries, spilled values, P/UP/UR/B)
LowConf        the rest, in the NOSPILL attempt
LowLate        the rest, in SPILL retry attempts
=============  ===========================================================

Simplify pushes Unconstrained, VeryHigh and High (in that order, each in
unit order) onto the assignment stack; select then pushes LowConf and
LowLate, each time taking the unit with the lowest spill-cost-to-
interference ratio (ties: wider first, then lower unit id -- the seed's
width and pre-allocation priority tie-breaks).  The interference of a unit
is the register pressure of its file summed over its live points, minus its
own share (:func:`unit_pressure` computes the sums and maxima from the live
segments of :mod:`.points`).

The fat-point core pops the stack (the seed: "pops this stack in
reverse"), so the cheapest-to-spill units are coloured last: when registers
run out they are the ones that fail and get spilled, as in Chaitin-Briggs
optimistic colouring.
"""

from __future__ import annotations

import numpy as np

from passes.regalloc.classes import Unit

LISTS = ("Unconstrained", "VeryHigh", "High", "LowConf", "LowLate")


def unit_pressure(
    units: list[Unit], pressure: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per unit: the number of its points, and the sum and the maximum of
    ``pressure`` over them.

    Computed from the units' live segments for all units at once: sums from
    prefix sums of ``pressure``, maxima from a sparse table (range-maximum in
    O(1) per segment), so the cost is linear in the number of segments plus
    ``points * log(points)``.
    """
    n = len(units)
    sizes = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n, dtype=np.int64)
    maxs = np.zeros(n, dtype=np.int64)
    if not n:
        return sizes, sums, maxs
    counts = np.fromiter((u.points.starts.size for u in units), dtype=np.int64, count=n)
    if not counts.sum() or not pressure.size:
        return sizes, sums, maxs
    starts = np.concatenate([u.points.starts for u in units])
    ends = np.concatenate([u.points.ends for u in units])
    owner = np.repeat(np.arange(n), counts)
    p = np.asarray(pressure, dtype=np.int64)
    prefix = np.concatenate(([0], np.cumsum(p)))
    np.add.at(sums, owner, prefix[ends] - prefix[starts])
    length = ends - starts
    np.add.at(sizes, owner, length)
    # sparse table: level k holds max over [i, i + 2**k)
    levels = [p]
    k = 1
    while 2 * k <= p.size:
        prev = levels[-1]
        levels.append(np.maximum(prev[: prev.size - k], prev[k:]))
        k *= 2
    lg = np.zeros(length.size, dtype=np.int64)
    nz = length > 0
    lg[nz] = np.frexp(length[nz].astype(np.float64))[1].astype(np.int64) - 1  # floor(log2)
    seg_max = np.zeros(length.size, dtype=np.int64)
    for lvl in np.unique(lg[nz]).tolist():
        sel = nz & (lg == lvl)
        tab = levels[lvl]
        s, e = starts[sel], ends[sel]
        seg_max[sel] = np.maximum(tab[s], tab[e - (1 << lvl)])
    np.maximum.at(maxs, owner, seg_max)
    return sizes, sums, maxs


def classify(
    units: list[Unit], pressure: np.ndarray, k: int, spill_retry: bool
) -> dict[str, list[Unit]]:
    lists: dict[str, list[Unit]] = {n: [] for n in LISTS}
    large: list[Unit] = []
    sizes, sums, maxs = unit_pressure(units, pressure)
    for i, u in enumerate(units):
        npts = int(sizes[i])
        own = u.width * npts
        u.interference = float(sums[i]) - own if npts else 0.0
        maxp = int(maxs[i]) if npts else 0
        if u.width > 4:
            large.append(u)
        elif u.width == 1 and not u.tied and maxp <= k:
            lists["Unconstrained"].append(u)
        elif u.width > 1:
            lists["VeryHigh"].append(u)
        elif not u.spillable:
            lists["High"].append(u)
        elif spill_retry:
            lists["LowLate"].append(u)
        else:
            lists["LowConf"].append(u)
    lists["VeryHigh"].extend(large)
    return lists


def assignment_order(
    units: list[Unit], pressure: np.ndarray, k: int, spill_retry: bool
) -> list[Unit]:
    """The order in which the fat-point core colours ``units``."""
    lists = classify(units, pressure, k, spill_retry)
    stack: list[Unit] = []
    for name in ("Unconstrained", "VeryHigh", "High"):
        stack.extend(lists[name])
    for name in ("LowConf", "LowLate"):
        stack.extend(sorted(lists[name], key=lambda u: (u.ratio, -u.width, u.id)))
    return stack[::-1]


__all__ = ["LISTS", "assignment_order", "classify", "unit_pressure"]
