"""Refinement trials: colour the R file again below its highest register.

Seed 000's per-class driver records the best result of every trial
(``record_best_result``, sub_93D070, "Best result recorder"; the refinement
routine sub_95BC90, "Allocation retry / refinement") rather than stopping
at the first colouring.  ori's reading: once a trial coloured the R file
without a failure, more trials are run with the allowed registers cut
below that trial's highest register; each one that succeeds is recorded as
the best, and the next aims one register lower still.  The first trial
that finds no colouring ends the refinement, and the best colouring is
kept (never worse than the first: a trial is only kept when it succeeds
entirely, below the count before it, leaving no more coalescing hints
unmet -- each unmet hint is a copy instruction -- or, given the occupancy
view, where its count keeps more warps resident: copies for warps, as
ptxas's occupancy-driven register target trades instructions for them;
Triton's matmul_tf32 on sm_80 colours 64 registers with its copies met
and 62 (ptxas's 64 with its two withheld) without).

Why it pays: the fat-point core gives each unit the lowest free slot in
the order of the 6-list stack, so one-register values that are
"Unconstrained" (most of them) are coloured last, in reverse unit order;
one long-lived value coloured after the short ones of a loop finds only
the registers above them (``tid`` in R6 while R0-R5 suffice: the
``histogram256`` example, 9 registers where ptxas uses 8).  Another order
-- long-lived values first when they start first -- puts them low, and
with the registers above the count cut away a trial either fits or fails
at once.

Each refinement trial tries, in turn, these orders (the first that
colours every unit with no more unmet hints is kept):

1. by first live point, wider first among units that start together, each
   PACK operand met before its PACK placing the wide value and all its
   parts at once where they all fit in place (``partners``,
   :func:`.fatpoint.fatpoint_allocate`): first-fit in the order values are
   defined reaches the pressure bound where the wide-first orders leave
   holes, and placing a PACK with its first operand keeps the operands in
   place (Triton's attention on sm_80: the 6-list colouring and orders 2-3
   end at 70 registers with 40 unmet hints, this one at 64 with 14, 10 of
   them fewer copies in the loop; 72 -> 66 registers);
2. wide units first, then by first live point (linear-scan order, which is
   optimal for one-register values on straight-line code);
3. wide units first, then by last live point, latest first.

(The 6-list order recomputed for the smaller file never coloured a trial
on the 135 example kernels, so it is not tried.)

**Polish** (ori): where the colouring kept still leaves hints unmet and
refinement is on, the three orders are tried once more at the register
count it reached (three colourings beyond ``refine-trials``), and one of
the same count that leaves fewer unmet is kept, each unmet hint counted
at the loop frequency of its units (``estimated-loop-iterations`` per
loop depth: a copy in a loop runs on every iteration).  The first
colouring's order is decided by spill costs and fat points, not by
copies: Triton's attention loop moved half of an LDSM quad (two MOVs)
and packed an MMA accumulator (four) where the linear order meets both
hints, and matmul_i8's loop lost two MOVs the same way.

Pre-coloured (ABI) units stay first in every order and keep their masks.
A trial stops at the pressure bound: fewer registers than the most values
live at one point cannot work, so no trial below it is run.  Option
``refine-trials`` (``ori-regalloc``, default 6) bounds the colourings
tried per allocation attempt, each order counting as one (0 turns the
refinement off).  Cost: about a fifth more allocator time (cub_device's
``ori-regalloc`` 1.33 -> 1.64 s).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from passes.regalloc.abi import pinned_first
from passes.regalloc.classes import Unit
from passes.regalloc.fatpoint import FatPointResult, fatpoint_allocate
from passes.regalloc.ssa_search import pressure_bound


def _by_start(units: list[Unit]) -> list[Unit]:
    def key(u: Unit) -> tuple[int, int, int]:
        first = int(u.points.starts[0]) if u.points.starts.size else 0
        return (first, -u.width, u.id)
    return sorted(units, key=key)


def _linear(units: list[Unit]) -> list[Unit]:
    def key(u: Unit) -> tuple[int, int, int]:
        first = int(u.points.starts[0]) if u.points.starts.size else 0
        return (-u.width, first, u.id)
    return sorted(units, key=key)


def _latest_end(units: list[Unit]) -> list[Unit]:
    def key(u: Unit) -> tuple[int, int, int]:
        last = int(u.points.ends[-1]) if u.points.ends.size else 0
        return (-u.width, -last, u.id)
    return sorted(units, key=key)


ORDERS: tuple[tuple[Callable[[list[Unit]], list[Unit]], bool], ...] = (
    (_by_start, True), (_linear, False), (_latest_end, False))
"""The refinement orders, each with whether units are placed with their
partners (module docstring)."""


def broken_hints(units: list[Unit], assignment: dict[int, int]) -> int:
    """The coalescing hints ``assignment`` leaves unmet: each is a copy (a
    MOV for a block argument or a tied operand, a PACK/UNPACK that is not
    in place)."""
    n = 0
    for u in units:
        b = assignment.get(u.id)
        if b is None:
            continue
        n += sum(1 for h in u.hints if assignment.get(h, b) != b)
        n += sum(1 for h, d in u.offset_hints if h in assignment and assignment[h] + d != b)
    return n


def weighted_broken(units: list[Unit], assignment: dict[int, int],
                    weight: dict[int, float]) -> float:
    """:func:`broken_hints` with each unmet hint counted at the lower
    ``weight`` of its two units (the loop frequency their live points
    reach): a copy in a loop costs an instruction per iteration."""
    n = 0.0
    for u in units:
        b = assignment.get(u.id)
        if b is None:
            continue
        wu = weight.get(u.id, 1.0)
        for h in u.hints:
            if assignment.get(h, b) != b:
                n += min(wu, weight.get(h, 1.0))
        for h, d in u.offset_hints:
            if h in assignment and assignment[h] + d != b:
                n += min(wu, weight.get(h, 1.0))
    return n


def refine(
    units: list[Unit],
    first: FatPointResult,
    allowed: list[int],
    pressure: np.ndarray,
    num_points: int,
    threshold: int,
    file_size: int,
    masks: dict[int, int] | None,
    pinned: set[int],
    trials: int,
    more_warps: Callable[[int, int], bool] | None = None,
    weight: Callable[[], dict[int, float]] | None = None,
) -> tuple[FatPointResult, int, int]:
    """The best colouring of ``units`` (one register file) found by at most
    ``trials`` refinement trials after ``first`` (which coloured every
    unit), the number of trials run and the hints it leaves unmet.
    ``more_warps(new_peak, peak)``:
    whether a colouring up to ``new_peak`` keeps more warps resident than
    one up to ``peak`` -- such a colouring is kept even with more unmet
    hints (module docstring)."""
    best = first
    copies = broken_hints(units, first.assignment)
    bound = pressure_bound(allowed, int(pressure.max()) if pressure.size else 0)
    run = 0

    while run < trials and best.peak - 1 >= bound:
        limit = best.peak - 1
        tight = [r for r in allowed if r < limit]
        found: FatPointResult | None = None
        # a colouring that leaves more copies is kept only where no order
        # colours without them
        trade: tuple[FatPointResult, int] | None = None
        for order, partners in ORDERS:
            if run >= trials:
                break
            run += 1
            res = fatpoint_allocate(pinned_first(order(units), pinned), tight, num_points, threshold,
                                    file_size, masks, trial_zero=True, partners=partners)
            if res.failed:
                continue
            broken = broken_hints(units, res.assignment)
            if broken <= copies:
                found = res
                break
            if trade is None and more_warps is not None and more_warps(res.peak, best.peak):
                trade = (res, broken)
        if found is None and trade is not None:
            found, copies = trade
        if found is None:
            break
        best = found
    # the same count with fewer copies: the orders at the count reached
    if copies and trials:
        w = weight() if weight is not None else {}
        cost = weighted_broken(units, best.assignment, w)
        same = [r for r in allowed if r < best.peak]
        for order, partners in ORDERS:
            res = fatpoint_allocate(pinned_first(order(units), pinned), same, num_points,
                                    threshold, file_size, masks, trial_zero=True,
                                    partners=partners)
            run += 1
            if not res.failed and res.peak == best.peak:
                c = weighted_broken(units, res.assignment, w)
                if c < cost:
                    best, cost = res, c
    return best, run, broken_hints(units, best.assignment)


__all__ = ["broken_hints", "refine", "weighted_broken"]
