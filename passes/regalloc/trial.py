"""One colouring trial of the fat-point driver (seed 000 "Per-Class Driver:
sub_971A90"): units are formed from the current liveness and every file is
coloured in class order.

:func:`colour` is one trial as :mod:`.driver` runs it.  :func:`better_uncoalesced`
decides between a trial that merged the R file's copies and one that left
them as hints, when both colour every unit: merging two values joins their
live ranges into one unit that needs one register over all of them, which
can raise the count above what the same values need apart (Triton's
matmul_tf32 on sm_80: 70 registers coalesced against 64, ptxas's count, with
the copies kept).  The uncoalesced trial is run where the coalesced one
stays above the occupancy step its R pressure allows, or reached it only by
giving up copies (:mod:`.refine`), and kept where it gives more resident
warps (``targets.occupancy.kernel_warps``, with the kernel's launch
bounds), or as many with fewer copies left; otherwise the copies stay
coalesced, since every copy left is an instruction, often in a loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.regalloc.abi import abi_masks, pinned_first
from passes.regalloc.budget import Budget, launch_threads, register_count
from passes.regalloc.classes import FILE_ORDER, Unit
from passes.regalloc.coalesce import build_units
from passes.regalloc.fatpoint import fatpoint_allocate
from passes.regalloc.ordering import assignment_order
from passes.regalloc.points import LiveMatrix
from passes.regalloc.refine import broken_hints, refine
from passes.regalloc.ssa_search import pressure_bound
from targets.occupancy import kernel_warps

FILE_SIZE = {RegFile.R: 256, RegFile.UR: 64, RegFile.P: 8, RegFile.UP: 8, RegFile.B: 16}


@dataclass
class Trial:
    """What one trial found: the units, the unit of every value, the base
    register of every coloured unit, the units that found none, and the
    highest register + 1 used in each file."""

    units: list[Unit]
    unit_of: np.ndarray
    assignment: dict[int, int]
    failed: list[Unit]
    peaks: dict[RegFile, int]
    bounds: dict[RegFile, int]
    """The fewest registers (highest + 1) each file's pressure allows."""
    copies: int = 0
    """The R file's unmet coalescing hints (copies left)."""
    traded: bool = False
    """Refinement gave up copies for resident warps (:mod:`.refine`)."""


@dataclass(frozen=True)
class TrialKnobs:
    """The driver's knobs a trial reads (``ori-regalloc``'s options)."""

    threshold: int
    loop_iterations: float
    refine_trials: int


def fixed_first(order: list[Unit]) -> list[Unit]:
    """``order`` with the units that cannot be spilled first, widest first
    (otherwise in ``order``): the fallback order of the SPILL retries once a
    unit that cannot be spilled found no register where nothing spillable
    was live.  Around one instruction those units are its reloads and
    copies, all live together before it, and widest-first first-fit finds
    aligned registers for such a set whenever any assignment exists (the
    test of ``budget.minimum_limits``); the spillable units then fail and
    are spilled instead (seed 000 "Spill / Retry Control Block": the retry
    spills more, the limit stays)."""
    fixed = sorted((u for u in order if not u.spillable), key=lambda u: -u.width)
    return fixed + [u for u in order if u.spillable]


def colour(
    func: FuncOp,
    tgt: object,
    lm: LiveMatrix,
    budget: Budget,
    cost: np.ndarray,
    spillable: np.ndarray,
    merging: frozenset[RegFile],
    knobs: TrialKnobs,
    *,
    spill_retry: bool,
    fixed: bool,
    trial_zero: bool,
) -> Trial:
    """One trial: units formed with the copies of ``merging``'s files
    coalesced (:mod:`.coalesce`), then every file coloured in class order --
    6-list ordering (:mod:`.ordering`), the fat-point core (:mod:`.fatpoint`)
    and, for an R colouring without failures, :mod:`.refine`."""
    units, unit_of = build_units(lm, cost, spillable, knobs.loop_iterations, merging)
    # the calling convention's pre-colouring and scratch/preserved split
    abi_mask, pinned = abi_masks(func, lm, units, spillable)
    out = Trial(units, unit_of, {}, [], {}, {})
    for f in FILE_ORDER:
        fu = [u for u in units if u.file is f]
        if not fu:
            continue
        allowed = budget.allowed(f)
        # register pressure per point for this file
        pressure = lm.pressure([v for u in fu for v in u.values])
        order = assignment_order(fu, pressure, len(allowed), spill_retry)
        if fixed:
            order = fixed_first(order)
        if pinned:
            order = pinned_first(order, pinned)
        res = fatpoint_allocate(order, allowed, len(lm.points), knobs.threshold, FILE_SIZE[f],
                                abi_mask or None, trial_zero=trial_zero)
        if f is RegFile.R and not res.failed and knobs.refine_trials:
            def more_warps(new: int, old: int) -> bool:
                return (resident_warps(func, tgt, budget, new)
                        > resident_warps(func, tgt, budget, old))
            before = broken_hints(fu, res.assignment)
            res, _, out.copies = refine(fu, res, allowed, pressure, len(lm.points),
                                        knobs.threshold, FILE_SIZE[f], abi_mask or None, pinned,
                                        knobs.refine_trials, more_warps,
                                        partial(unit_weights, fu, lm, knobs.loop_iterations))
            out.traded = out.copies > before
        out.assignment.update(res.assignment)
        out.failed.extend(res.failed)
        out.peaks[f] = res.peak
        out.bounds[f] = pressure_bound(allowed, int(pressure.max()) if pressure.size else 0)
    return out


def unit_weights(units: list[Unit], lm: LiveMatrix, loop_iterations: float) -> dict[int, float]:
    """Unit id -> ``loop_iterations`` ** the deepest loop its live points reach."""
    out: dict[int, float] = {}
    depth = lm.depth
    for u in units:
        d = 0
        for s, e in zip(u.points.starts.tolist(), u.points.ends.tolist()):
            if e > s:
                d = max(d, int(depth[s:e].max()))
        out[u.id] = float(loop_iterations) ** d
    return out


def resident_warps(func: FuncOp, tgt: object, budget: Budget, peak: int) -> int:
    """The resident warps per SM an R colouring up to ``peak`` (highest
    register + 1) allows."""
    regs = register_count(tgt, peak - 1, budget.reserved.get(RegFile.R, frozenset()))
    return kernel_warps(tgt, regs, launch_threads(func))  # type: ignore[arg-type]


def may_lose_warps(func: FuncOp, tgt: object, budget: Budget, merged: Trial) -> bool:
    """Whether ``merged`` (no failures, R copies coalesced) has fewer
    resident warps than the R pressure alone would allow, or gave up
    copies for them: only then is the trial without R coalescing worth its
    time."""
    peak, bound = merged.peaks.get(RegFile.R, 0), merged.bounds.get(RegFile.R, 0)
    return merged.traded or (resident_warps(func, tgt, budget, peak)
                             < resident_warps(func, tgt, budget, bound))


def better_uncoalesced(func: FuncOp, tgt: object, budget: Budget, merged: Trial,
                       apart: Trial) -> bool:
    """Whether ``apart`` (R copies left as hints) is kept over ``merged``
    (R copies coalesced), both without failures: for more resident warps,
    or as many with fewer copies left (module docstring)."""
    if apart.failed:
        return False
    warps = [resident_warps(func, tgt, budget, t.peaks.get(RegFile.R, 0)) for t in (apart, merged)]
    return warps[0] > warps[1] or (warps[0] == warps[1] and apart.copies < merged.copies)


__all__ = ["FILE_SIZE", "Trial", "TrialKnobs", "better_uncoalesced", "colour", "fixed_first",
           "may_lose_warps", "resident_warps"]
