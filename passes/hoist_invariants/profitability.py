"""Stage 5 of the LICM engine: is hoisting a block's invariants worth it?
(seed 001 "Stage 5: Profitability Check", sub_8F8CB0).

For one block, with ``budget`` from stage 1::

    is_hoist_safe:  noop_w = 60 (pass 0) / 150 (later), real_w = 5
    otherwise:      noop_w = 12 (pass 0) / 30 (later),  real_w = 1
    for each instruction:
        invariant:  score += noop_w if no-op else 1
                    per scoreboarded result: score += real_w,
                                             penalty += 2 if latency class > 4 else 1
        otherwise:  per scoreboarded result: penalty += 2 if latency class > 4 else 1
    denominator = instructions scanned (pass 0)
                | body_weight / 3 + header_weight (later passes)
    profitable  = denominator != 0 and score * budget / (real_w * denominator) >= penalty

Readings (the seed's pseudo-code lost its indentation):

* the latency penalty of an invariant instruction is counted inside the loop
  over its scoreboarded results, as for a non-invariant one.  Charging every
  invariant instruction 2 would reject almost every block at the seed's
  budgets (22 for pass 0 against blocks of a dozen instructions), which
  contradicts "pass 0 ... hoists aggressively";
* a *scoreboarded* result is one whose latency is variable, tracked by a
  scoreboard in SASS: memory reads, the XU and LSU/TEX pipes (MUFU, S2R,
  loads) -- asked of the op (``MEM``, ``PIPE``);
* ``is_hoist_safe`` is true for blocks that run on every iteration (hoist
  modes 0, 1, 3) and false for conditional code (mode 2), whose hoisting is
  speculation;
* the vacuous rule: a block without an invariant instruction is rejected by
  pass 0 and goes through the formula with score 0 for later passes (true
  when nothing in it is scoreboarded).  Nothing is hoisted either way; the
  rule shows in the stage-5 statistics.

An unlimited budget (None: HoistBudget = 0) makes every block profitable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.ir import Operation

from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import Pipe
from passes.hoist_invariants.budget import is_no_op


def scoreboarded_results(op: Operation) -> int:
    """Results of ``op`` with a variable latency (see the module docstring)."""
    if not isinstance(op, OriOp):
        return 0
    if op.MEM.reads or op.PIPE in (Pipe.LSU, Pipe.TEX, Pipe.XU):
        return len(op.results)
    return 0


def latency_penalty(op: Operation) -> int:
    lat = int(op.LATENCY) if isinstance(op, OriOp) else 0
    return 2 if lat > 4 else 1


@dataclass(frozen=True)
class Verdict:
    profitable: bool
    score: int
    penalty: int
    denominator: float
    real_weight: int
    budget: float | None

    def text(self) -> str:
        if self.budget is None:
            return "unlimited budget"
        return (f"score {self.score} x budget {self.budget:g} / ({self.real_weight} x "
                f"{self.denominator:g}) {'>=' if self.profitable else '<'} penalty {self.penalty}")


def is_profitable(ops: Iterable[Operation], invariant: set[Operation], *, pass_id: int,
                  budget: float | None, is_hoist_safe: bool, header_weight: int,
                  body_weight: int) -> Verdict:
    """Stage 5 for the instructions ``ops`` of one block; ``invariant`` the
    ones stages 2-4 kept."""
    if is_hoist_safe:
        noop_w, real_w = (60 if pass_id == 0 else 150), 5
    else:
        noop_w, real_w = (12 if pass_id == 0 else 30), 1
    score = penalty = count = n_inv = 0
    for op in ops:
        count += 1
        sb = scoreboarded_results(op)
        if op in invariant:
            n_inv += 1
            score += noop_w if is_no_op(op) else 1
            score += real_w * sb
            penalty += latency_penalty(op) * sb
        else:
            penalty += latency_penalty(op) * sb
    if budget is None:
        return Verdict(n_inv > 0 or pass_id > 0, score, penalty, 0, real_w, None)
    if n_inv == 0 and pass_id == 0:
        # seed: pass 0 returns false at once (no vacuous hoisting)
        return Verdict(False, 0, 0, count, real_w, budget)
    if n_inv == 0:
        score = penalty = 0
    denominator: float = count if pass_id == 0 else body_weight // 3 + header_weight
    ok = denominator != 0 and score * budget / (real_w * denominator) >= penalty
    return Verdict(ok, score, penalty, denominator, real_w, budget)


__all__ = ["Verdict", "is_profitable", "latency_penalty", "scoreboarded_results"]
