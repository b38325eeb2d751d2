"""Exact search for the fewest R registers an SSA assignment can use
(``ori-regalloc{strategy=ssa}``, after :mod:`.ssa_assign`).

Why: the greedy dominance-order assignment needs exactly the maximum
pressure for one-register values (Hack, Grund & Goos, CC 2006), but aligned
pairs and quads -- and reserved registers such as R1 that break the pair
R0:R1 -- can make it use one or two registers more, and no polynomial rule
says how many an optimal assignment needs (colouring chordal graphs with
aligned multi-register values is NP-hard in general).  This module answers
the question for the function at hand by a bounded backtracking search over
the same walk the greedy assignment does: it either finds an assignment of
the R file below a register count ``K`` or proves that none exists, which
turns "the lower bound plus alignment" from a claim into a per-function
certificate (``ori.r_assign_optimal``, printed by
``benchmarks/regalloc_vs_ptxas.py``).

**Model.**  Exactly the greedy walk's (:func:`.ssa_assign.assign`): blocks
in dominator-tree pre-order; at a block's entry its live-in values occupy
the registers they were given; block arguments, then each op's results, take
a free aligned slot of the allowed registers below ``K`` after the values
that die at the op are freed; a guarded result takes its tied prior value's
register; edge operands and arguments are reconciled by parallel copies
(which need no extra register: :mod:`.copies`).  A found assignment is
therefore as valid as a greedy one, and "none below ``K``" is a statement
about every assignment the walk can produce -- every assignment of the
strict-SSA program with free edge copies.

**Search.**  Depth first over the results in walk order; the first
candidate is the greedy choice (hints, hole filling), then the other slots
in ascending order.  Limited discrepancy passes (at most 1, then 2 choices
off the first candidate on a path; Harvey & Ginsberg, IJCAI 1995) run
before the complete search: on ``int64_mix`` they find the assignment at
the bound in 393 candidates where plain backtracking needed
about 1.5 million.  Symmetry pruning (sound because every constraint of
the rest of the walk is invariant under these register permutations):
registers never used so far on the current path are interchangeable when
the permutation keeps aligned pairs and quads together, so among the
*clean* 4-aligned blocks (all four registers allowed, below ``K``, never
used) only the lowest is offered, and only at its first register; and a
never-used allowed pair offers a single value only its even half.  Each
tried candidate is one *node*; a search that reaches ``budget`` nodes stops
without an answer.

**Use.**  :func:`tighten` starts from the greedy peak ``G`` and asks for an
assignment below ``G - 1``, ``G - 2`` ... down to the pressure bound (the
fewest allowed registers that hold the maximum pressure), keeping every
improvement; the answer is *proven optimal* when the search for one
register fewer exhausts its space, or when the pressure bound is reached.
"""

from __future__ import annotations

from dataclasses import dataclass

from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ir.registers import RegFile
from passes.regalloc.classes import value_alignments
from passes.regalloc.ssa_assign import (
    WALK_GIVE,
    WALK_RELEASE,
    WALK_RESET,
    Assignment,
    FileSlots,
)


@dataclass
class SearchOutcome:
    """What :func:`tighten` found for the R file."""

    greedy_peak: int
    """Registers (highest + 1) of the greedy assignment."""
    peak: int
    """Registers of the assignment kept (``<= greedy_peak``)."""
    pressure_bound: int
    """The fewest registers (highest + 1) any assignment can use: the lowest
    ``P`` allowed registers, ``P`` the maximum pressure."""
    optimal: bool
    """Whether ``peak`` is proven minimal."""
    nodes: int
    """Candidates tried in all searches."""


def _bits(base: int, w: int) -> int:
    return ((1 << w) - 1) << base


class ExactSearch:
    """The bounded exact search for an R assignment under ``k`` registers
    (module docstring); :func:`tighten` drives it."""

    def __init__(self, lv: Liveness, asg: Assignment, allowed: list[int],
                 symmetry: bool = True) -> None:
        """``asg``: a greedy assignment made with ``assign(record=...)`` of
        the file searched (its walk events and coalescing hints)."""
        self.width = lv.numbering.width.tolist()
        self.align = value_alignments(lv.numbering.values)
        self.events = asg.events
        self.partners = asg.partners
        self.allowed = allowed
        self.symmetry = symmetry
        """Symmetry pruning (module docstring); off only to test that it loses nothing."""
        self.nodes = 0

    def _candidates(self, st: FileSlots, used: int, w: int, k: int, hints: list[int],
                    align: int = 0) -> list[int]:
        below_k = (1 << max(k - w + 1, 0)) - 1
        s = st.slots(w, align) & below_k
        if not s:
            return []
        ok, limit = st.ok, (1 << k) - 1
        offered: list[int] = []
        clean_seen = False
        x = s
        while x:
            base = (x & -x).bit_length() - 1
            x &= x - 1
            if not self.symmetry:
                offered.append(base)
                continue
            blk = base & ~3
            blk_bits = _bits(blk, 4)
            if (ok & blk_bits) == blk_bits and (blk_bits & ~limit) == 0 and not (used & blk_bits):
                # a clean block: only the lowest one, at its first register
                if clean_seen or base != blk:
                    continue
                clean_seen = True
            elif w == 1 and base & 1:
                pair = _bits(base - 1, 2)
                if (ok & pair) == pair and not (used & pair) and not (st.occ & pair):
                    continue  # the even half of this never-used pair is offered instead
            offered.append(base)
        first = st.choose(w, hints, align)
        if first is not None and first in offered:
            offered.remove(first)
            offered.insert(0, first)
        return offered

    def run(self, k: int, budget: int, max_disc: int | None = None) -> tuple[dict[int, int] | None, bool]:
        """An assignment of the file below ``k`` registers (value -> base),
        or None; the flag says whether the answer is definite (found, or the
        space exhausted) rather than cut by ``budget`` (a cap on
        ``self.nodes``, which counts over all runs) or by ``max_disc``
        (limited discrepancy search: at most that many choices on a path
        other than the first candidate)."""
        st = FileSlots([r for r in self.allowed if r < k])
        width, events = self.width, self.events
        reg: dict[int, int] = {}
        # [event index, candidates, next position, occ, used, mark, discrepancies before]
        stack: list[list] = []
        used = 0
        disc, cut = 0, False
        i, n = 0, len(events)
        while i < n:
            kind, v, tied = events[i]
            if kind == WALK_RESET:
                st.occ = 0
                for u in tied:  # type: ignore[union-attr]  # the block's live-in values
                    st.occ |= _bits(reg[u], width[u])
                i += 1
                continue
            if kind == WALK_RELEASE:
                st.occ &= ~_bits(reg[v], width[v])
                i += 1
                continue
            w, a = width[v], self.align[v]
            assert kind == WALK_GIVE and isinstance(tied, int)
            if tied >= 0:
                base = reg[tied]
                if not st.free_slot(base, w, a):
                    base = -1
                cands = [base] if base >= 0 else []
            else:
                hints = [reg[p] for p in self.partners.get(v, ()) if p in reg]
                cands = self._candidates(st, used, w, k, hints, a)
            if cands:
                if self.nodes >= budget:
                    return None, False
                self.nodes += 1
                stack.append([i, cands, 1, st.occ, used, st.mark, disc])
                base = cands[0]
            else:
                # backtrack to the latest choice with an untried candidate
                while stack:
                    fr = stack[-1]
                    if fr[2] < len(fr[1]):
                        if max_disc is None or fr[6] < max_disc:
                            break
                        cut = True
                    stack.pop()
                if not stack:
                    return None, not cut
                fr = stack[-1]
                i, base = fr[0], fr[1][fr[2]]
                fr[2] += 1
                disc = fr[6] + 1
                st.occ, used, st.mark = fr[3], fr[4], fr[5]
                v = events[i][1]
                w = width[v]
                if self.nodes >= budget:
                    return None, False
                self.nodes += 1
            st.take(base, w)
            used |= _bits(base, w)
            reg[v] = base
            i += 1
        return reg, True


def pressure_bound(allowed: list[int], pressure: int) -> int:
    """Registers (highest + 1) of the lowest ``pressure`` allowed registers."""
    if pressure <= 0:
        return 0
    regs = sorted(allowed)
    return regs[min(pressure, len(regs)) - 1] + 1


def tighten(lv: Liveness, allowed: list[int], asg: Assignment, pressure: int,
            budget: int, file: RegFile = RegFile.R) -> SearchOutcome:
    """Lower ``asg``'s peak of ``file`` by the search (module docstring);
    ``asg`` must come from ``assign(..., record=file)`` and is updated in
    place when an assignment with fewer registers is found."""
    greedy = asg.peak.get(file, 0)
    low = pressure_bound(allowed, pressure)
    out = SearchOutcome(greedy, greedy, low, greedy <= low, 0)
    if out.optimal or budget <= 0:
        return out
    srch = ExactSearch(lv, asg, allowed)
    k = greedy - 1
    while k >= low:
        # Limited discrepancy passes first (the greedy choice is usually
        # right; a few deviations from it find most assignments far sooner
        # than chronological backtracking), then the complete search.
        found, definite = None, False
        for max_disc in (1, 2, None):
            found, definite = srch.run(k, budget, max_disc)
            if found is not None or definite or srch.nodes >= budget:
                break  # found, proven impossible (nothing was cut), or out of budget
        if found is None:
            out.optimal = definite
            break
        for v, base in found.items():
            asg.reg[v] = base
        regs = {r for v, base in found.items() for r in range(base, base + srch.width[v])}
        asg.used[file] = regs
        asg.peak[file] = max(regs, default=-1) + 1
        out.peak = asg.peak[file]
        if out.peak <= low:
            out.optimal = True
            break
        k = out.peak - 1
    out.nodes = srch.nodes
    return out


__all__ = ["ExactSearch", "SearchOutcome", "pressure_bound", "tighten"]
