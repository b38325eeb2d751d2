"""The fat-point core (seed 000, "Core Fat-Point Allocator: sub_957160").

For the unit being coloured, the *primary* histogram counts, per physical
register, the program points of the unit's live range at which that
register is already occupied (the seed's 512-DWORD array, built per unit).
A candidate slot is an aligned base register (a pair or quad for wide
values) whose registers are all allocatable; its cost is the sum of the
primary counts of its registers.

* Slots whose cost exceeds ``threshold-for-discard-conflicts``
  (RegAllocThresholdForDiscardConflicts, knob 684, default 50) are
  discarded, as in the seed.
* A unit's preferred registers (``Unit.prefer``: a device function's value
  live across calls prefers scratch registers to preserved ones, which cost
  a save) are taken when one of them is free.
* The slot with the minimum cost wins; ties go to the lower *secondary*
  cost -- 0 on registers that hold a coalescing partner (a hint from
  :mod:`.coalesce`) or that put a sub-register partner in place (an
  ``ori.pack``/``ori.unpack`` part at its wide value's base + i; while the
  wide value is unplaced, at the base + i an already placed sibling part
  implies, so that ``UNPACK``'s parts of an ``LDS.64`` form an aligned
  pair the load can then take), 1 elsewhere -- and then to the lowest
  register (which keeps the register count low).  In a retry (a trial
  after the first, ``trial_zero`` false) a hinted slot counts only below
  the registers already used: a hint never raises the count there.
* A wide value placed, its narrower sub-register partners not placed yet
  (``ori.pack`` parts, ``ori.unpack`` results, slices) are placed with it,
  each at the register that puts it in place where that register is free
  over its whole live range (ori's: the hint alone let a unit coloured in
  between take those registers; benchmarks/codesize_vs_ptxas.py, sm_80:
  32747 -> 32308 instructions on the default groups, Triton's loops 934 ->
  916).
* Deviation: ptxas resolves a remaining conflict later (live-range
  splitting); ori does not split live ranges, so a best slot with a
  non-zero cost is not assigned: the unit is marked *needs spill*, exactly
  like a unit that finds no slot.  The threshold therefore only prunes the
  scan.  The input is never miscompiled.

**What is computed.**  Since only a slot of cost 0 is ever assigned, the
decision needs of each register only whether its primary count is zero.
The occupancy is kept as one bit per (point, register) -- a ``(points,
words)`` array of ``uint64`` -- and the unit's *busy set* (the registers
with a non-zero count) is the OR of the rows of its live segments
(:class:`.points.Segments`), one numpy reduction per segment.  The slot
choice -- minimum cost, then secondary cost, then lowest base -- is then
exact bit arithmetic on Python integers: the free candidate bases (all
``width`` registers free), those holding a coalescing partner first, the
lowest one.  This is the same decision as scanning the full histogram
(:func:`primary_histogram` computes it, for tests) at a cost linear in the
unit's live segments instead of ``points x registers``.

The assignment's register consumption is ``base + width`` (sub_939CE0:
``assignment + (1 << pair) - 1``, plus one for a count).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from passes.regalloc.classes import Unit
from passes.regalloc.points import Segments


@dataclass
class FatPointResult:
    assignment: dict[int, int] = field(default_factory=dict)
    """unit id -> base register."""
    failed: list[Unit] = field(default_factory=list)
    peak: int = 0
    """Registers consumed: highest assigned register + 1."""
    occupancy: np.ndarray | None = None
    """``(points, words)`` ``uint64``: bit ``r % 64`` of word ``r // 64`` of
    row ``p`` is set when register ``r`` is assigned at point ``p``."""


def candidate_bases(allowed: list[int], width: int, align: int = 0) -> np.ndarray:
    """The bases of ``width`` consecutive allowed registers at a multiple of
    ``align`` (0: ``width``; a register tuple's type says 4)."""
    ok = set(allowed)
    a = align or width
    return np.asarray(
        [b for b in allowed if b % a == 0 and all(b + i in ok for i in range(width))],
        dtype=np.intp,
    )


def _bits(bases: np.ndarray) -> int:
    m = 0
    for b in bases.tolist():
        m |= 1 << b
    return m


def busy_registers(occ: np.ndarray, points: Segments) -> int:
    """The registers occupied at some point of ``points``, as a bit set."""
    return _busy(occ, list(zip(points.starts.tolist(), points.ends.tolist())))


def _busy(occ: np.ndarray, segs: list[tuple[int, int]]) -> int:
    busy = 0
    reduce = np.bitwise_or.reduce
    for s, e in segs:
        words = (occ[s] if e == s + 1 else reduce(occ[s:e], axis=0)).tolist()
        for i, w in enumerate(words):
            if w:
                busy |= w << (64 * i)
    return busy


def primary_histogram(occ: np.ndarray, points: Segments, file_size: int) -> np.ndarray:
    """The seed's primary array: per register, the points of ``points`` at
    which it is occupied (for tests and debugging: quadratic)."""
    rows = occ[points.indices()]
    if not rows.size:
        return np.zeros(file_size, dtype=np.int64)
    bits = np.unpackbits(rows.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    return bits.sum(axis=0, dtype=np.int64)[:file_size]


def fatpoint_allocate(
    order: list[Unit],
    allowed: list[int],
    num_points: int,
    threshold: int,
    file_size: int = 256,
    masks: dict[int, int] | None = None,
    trial_zero: bool = True,
    partners: bool = False,
) -> FatPointResult:
    """Colour ``order``; ``masks`` (unit id -> bit set) limits a unit to the
    registers the calling convention allows it (``passes/regalloc/abi.py``).
    ``partners``: a part of a wider value that is not placed yet (an
    ``ori.pack`` operand met before the PACK) places the wide value and all
    its parts at once, at the lowest aligned base free for every one of them
    (:func:`_place_whole_first`); refinement's live-point order needs it
    (passes/regalloc/refine.py)."""
    res = FatPointResult()
    nwords = max(1, -(-file_size // 64))
    occ = np.zeros((num_points, nwords), dtype=np.uint64)
    cands = {(w, w): _bits(candidate_bases(allowed, w)) for w in (1, 2, 4)}
    assignment = res.assignment
    by_id = {u.id: u for u in order}

    def place(u: Unit, b: int, segs: list[tuple[int, int]]) -> None:
        assignment[u.id] = b
        words: dict[int, int] = {}
        for r in range(b, b + u.width):
            words[r >> 6] = words.get(r >> 6, 0) | 1 << (r & 63)
        for word, bits in words.items():
            col = occ[:, word]
            bit = np.uint64(bits)
            for s, e in segs:
                col[s:e] |= bit
        res.peak = max(res.peak, b + u.width)

    for u in order:
        if u.id in assignment:
            continue  # a part placed with its wide value (below)
        if partners and _place_whole_first(u, by_id, assignment, occ, cands, allowed, masks,
                                           place):
            continue
        w = u.width
        key = (w, u.align or w)
        cand = cands.get(key)
        if cand is None:
            cand = _bits(candidate_bases(allowed, *key))
            cands[key] = cand
        if not cand or threshold < 0:
            # no slot at all, or every cost (>= 0) is above the threshold
            res.failed.append(u)
            continue
        segs = list(zip(u.points.starts.tolist(), u.points.ends.tolist()))
        free = ~_busy(occ, segs)
        ok = cand
        if masks is not None and u.id in masks:
            m = masks[u.id]
            for i in range(w):
                ok &= m >> i  # every register of the slot is allowed
        for i in range(w):
            ok &= free >> i  # a slot of cost 0: all its registers are free
        if not ok:
            res.failed.append(u)  # the best slot has a conflict: needs spill
            continue
        # secondary cost 0 on a coalescing partner's register
        hinted = 0
        for h in u.hints:
            hb = assignment.get(h)
            if hb is not None:
                hinted |= 1 << hb
        for h, delta in u.offset_hints:
            hb = assignment.get(h)
            if hb is not None and hb + delta >= 0:
                hinted |= 1 << (hb + delta)
            elif hb is None:
                # the wide value is not placed yet, a sibling part may be:
                # the base that puts that sibling in place, aligned for the
                # wide value, puts this part in place too
                whole = by_id.get(h)
                if whole is None or whole.width <= u.width:
                    continue
                for sib, sd in whole.offset_hints:
                    sb = assignment.get(sib)
                    if sb is None or sib == u.id:
                        continue
                    base = sb + sd
                    if base >= 0 and base % (whole.align or whole.width) == 0:
                        hinted |= 1 << (base + delta)
        if hinted and not trial_zero:
            # in a retry, a hint may not raise the register count: only
            # hinted slots below the registers used so far count
            hinted &= (1 << max(0, res.peak - w + 1)) - 1
        if u.prefer and ok & u.prefer:
            ok &= u.prefer
        pick = ok & hinted or ok
        b = (pick & -pick).bit_length() - 1
        place(u, b, segs)
        if w > 1:
            _place_parts(u, b, by_id, assignment, occ, cands, masks, place)
    res.occupancy = occ
    return res


def _place_parts(whole: Unit, b: int, by_id: dict[int, Unit], assignment: dict[int, int],
                 occ: np.ndarray, cands: dict[tuple[int, int], int],
                 masks: dict[int, int] | None,
                 place: Callable[[Unit, int, list[tuple[int, int]]], None]) -> None:
    """Put the unplaced narrower partners of ``whole`` (its ``ori.pack``
    parts, ``ori.unpack`` results, slices) in place now, each where its
    registers are free over its whole live range: a unit coloured between
    the wide value and its parts would otherwise take those registers and
    leave the parts a copy each (the accumulator words of Triton's
    attention loop, scaled word by word before its HMMA, lost R4-R7 to the
    LDSM quad coloured in between: eight MOVs per iteration)."""
    for h, delta in whole.offset_hints:
        part = by_id.get(h)
        r = b - delta
        if part is None or h in assignment or part.width >= whole.width or delta > 0:
            continue
        if r % (part.align or part.width):
            continue
        cand = cands.get((part.width, part.align or part.width), 0)
        if not cand >> r & 1:
            continue
        if masks is not None and h in masks and any(not masks[h] >> (r + i) & 1
                                                    for i in range(part.width)):
            continue
        segs = list(zip(part.points.starts.tolist(), part.points.ends.tolist()))
        busy = _busy(occ, segs)
        if any(busy >> (r + i) & 1 for i in range(part.width)):
            continue
        place(part, r, segs)


def _place_whole_first(u: Unit, by_id: dict[int, Unit], assignment: dict[int, int],
                       occ: np.ndarray, cands: dict[tuple[int, int], int], allowed: list[int],
                       masks: dict[int, int] | None,
                       place: Callable[[Unit, int, list[tuple[int, int]]], None]) -> bool:
    """``u`` a part of a wider value not placed yet (an ``ori.pack``
    operand coloured before the PACK): place the wide value and all its
    parts at once, at the lowest aligned base where every one of them is
    free over its own live range; False when ``u`` is no such part or no
    base fits."""
    whole = next((by_id[h] for h, d in u.offset_hints
                  if h in by_id and h not in assignment and by_id[h].width > u.width), None)
    if whole is None or (masks is not None and whole.id in masks):
        return False
    # a part still live where the wide value is (read after the PACK) is
    # placed later, like a masked one: its unit may hold other values (a
    # loop variable and its update, coalesced) that would overwrite the
    # wide value's word, and where it is live into a block beside the wide
    # value the allocation checker cannot tell the two registers hold the
    # same word (Thrust's merge sort: both failures seen)
    parts = [(by_id[h], -d) for h, d in whole.offset_hints
             if h in by_id and h not in assignment and by_id[h].width < whole.width
             and not (masks is not None and h in masks)
             and not by_id[h].points.intersects(whole.points)]
    if not any(p is u for p, _ in parts):
        return False  # u itself is placed alone (below)
    key = (whole.width, whole.align or whole.width)
    cand = cands.get(key)
    if cand is None:
        cand = _bits(candidate_bases(allowed, *key))
        cands[key] = cand
    wsegs = list(zip(whole.points.starts.tolist(), whole.points.ends.tolist()))
    ok = cand
    free = ~_busy(occ, wsegs)
    for i in range(whole.width):
        ok &= free >> i
    psegs = []
    for part, off in parts:
        segs = list(zip(part.points.starts.tolist(), part.points.ends.tolist()))
        psegs.append(segs)
        if off % (part.align or part.width):
            return False
        pfree = ~_busy(occ, segs)
        for i in range(part.width):
            ok &= pfree >> (off + i)
    if not ok:
        return False
    b = (ok & -ok).bit_length() - 1
    place(whole, b, wsegs)
    for (part, off), segs in zip(parts, psegs, strict=True):
        place(part, b + off, segs)
    return True


__all__ = [
    "FatPointResult",
    "busy_registers",
    "candidate_bases",
    "fatpoint_allocate",
    "primary_histogram",
]
