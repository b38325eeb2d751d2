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
own share.

The fat-point core pops the stack (the seed: "pops this stack in
reverse"), so the cheapest-to-spill units are coloured last: when registers
run out they are the ones that fail and get spilled, as in Chaitin-Briggs
optimistic colouring.
"""

from __future__ import annotations

import numpy as np

from passes.regalloc.classes import Unit

LISTS = ("Unconstrained", "VeryHigh", "High", "LowConf", "LowLate")


def classify(
    units: list[Unit], pressure: np.ndarray, k: int, spill_retry: bool
) -> dict[str, list[Unit]]:
    lists: dict[str, list[Unit]] = {n: [] for n in LISTS}
    large: list[Unit] = []
    for u in units:
        idx = np.flatnonzero(u.points)
        own = u.width * idx.size
        u.interference = float(pressure[idx].sum()) - own if idx.size else 0.0
        maxp = int(pressure[idx].max()) if idx.size else 0
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


__all__ = ["LISTS", "assignment_order", "classify"]
