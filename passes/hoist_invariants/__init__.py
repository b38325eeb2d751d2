"""``ori-hoist-invariants``: phases 35, 66, 79 and 88, *OriHoistInvariants*
Early / Late / Late2 / Late3 (seed 001, "Phases 35, 66, 79, 88 --
OriHoistInvariants (LICM)").

One engine, four instances: ``ori-hoist-invariants{pass-id=N}`` and the
names ``ori-hoist-invariants-early`` (pass id 0, phase 35), ``-late`` (1,
phase 66), ``-late2`` (2, phase 79) and ``-late3`` (3, phase 88).  The pass
id sets the budget (HoistLoopInvBudget 22 for pass 0, 100 later; x100 for
pass 3), stage 5's weights and denominator, and the vacuous rule.

The modules, one job each:

* :mod:`.driver` -- the guard (master switch, invocation limit, more than
  two blocks), innermost-first loop walk, boundary analysis, the HoistLate
  policy, preheader find-or-create, movement, the fixed point;
* :mod:`.budget` -- stage 1 and the instruction weights (no-op 1, real 30);
* :mod:`.engine` -- stages 2 (forward marking, or the set-based routine of
  knob 934), 3 (backward revocation) and 4 (transitive propagation);
* :mod:`.profitability` -- stage 5;
* :mod:`.mid_blocks` -- which invariants of the blocks ptxas's driver does
  not visit move (EnableHoistLowLatencyInstMidBlock, ori's
  ``hoist-duplicates``), and the merging of identical moved copies;
* :mod:`.safety` -- the side-effect blocking table, the alias rule for loads
  and the zero-trip rule for instructions that may fault.

Input invariants: SSA ``ori.func`` bodies (virtual or physical registers:
moving an instruction changes no register).  Loops need no canonical form:
a loop without a dedicated preheader gets one when something moves.

**The HoistLate policy (knob 381).**  The seed's table gives the values 0
(always hoist from this loop), 1 (only from inner loops) and 3 (never); its
decompiled excerpt of sub_8FFDE0 ties them to pass ids in a way that
contradicts the bullet list under it (value 0 would make every later pass
skip the loop while "Late2, Late3 ... only hoist from blocks where knob 381
returns 0").  ori implements the table: 0 every pass hoists, 1 only loops
without inner loops, 3 none.  ``hoist-late`` sets it for every loop and
``hoist-late-override`` per loop: comma-separated ``N=V`` (``N`` the
header's block number as the pass receives the function, the ``^bbN`` of
the remarks) or ``*=V`` for every loop, e.g. ``"3=3,*=1"``.

Remarks (``remarks=true``, stderr), one per loop::

    remark: @k ^bb2: hoisted 3 instructions from ^bb2 to ^bb1
    remark: @k ^bb5: not hoisted: load under a possibly aliasing store ...
    remark: @k ^bb2: sank 2 instructions read only after the loop to its exit ^bb3

and with ``remarks=true`` or ``stats=true`` one total per function::

    ori-hoist-invariants-early: @k: [hoisted instructions=3] [loops hoisted=1] [loops not hoisted=1]

(and ``[sunk instructions=N]`` where something sank).

Seed knobs of the "Hoisting Knobs" table that ori models are options with
the seed's kebab-case name and default.  Not modelled:

* HoistCBOMode, HoistCBOLoad, HoistCBOFromLoopWithColdNest,
  HoistCBOHighCostSBInstRatioThreshold, HoistCBOLoadIDOMTravseLimit,
  HoistCBORRegPressureLimitApplyRate: the seed names the constant-buffer
  path but gives no algorithm for it; ori's constant-bank loads (``ori.ldc``)
  are read-only and go through the general engine like any invariant;
* HoistTexToInstRatioHigh / Low: the seed gives the two thresholds but
  not the ratio's terms nor what each threshold switches; ori's texture
  instructions (TEX/TLD/TLD4) go through the general engine as GLOBAL
  loads (the alias rule of :mod:`.safety`);
* NestedHoistInnerThreshold, NestedHoistOuterThreshold: the seed says they
  equal HoistLoopInvBudget / HoistBudget but not where they are read; the
  nested-hoist condition it gives uses max_iterations
  (``max-mid-header-size-rate-for-aggressive-hoist``) instead;
* MovWeightForSinkingHoisting: the seed gives no place in the algorithm
  where it acts (ori has no sinking);
* knob 484 (movement gate), the pass-2 convergence bit and the pass-3
  IADD3 carry-out linkage: ptxas bookkeeping on registers that SSA values
  do not have (a moved instruction keeps all its results).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from passes.contract import Requirement, emit_remark, emit_stats, flush_diagnostics, option, require
from passes.hoist_invariants.budget import BudgetKnobs
from passes.hoist_invariants.driver import DriverKnobs, hoist_function
from passes.hoist_invariants.sink import sink_function

PASS_NAMES = ("ori-hoist-invariants-early", "ori-hoist-invariants-late",
              "ori-hoist-invariants-late2", "ori-hoist-invariants-late3")
"""The instance names by pass id."""

_OVERRIDE_ITEM = re.compile(r"^\s*(\*|\d+)\s*=\s*(\d+)\s*$")


def parse_policy_override(text: str) -> dict[int, int]:
    """``"N=V,..."`` / ``"*=V"`` -> {header block number (-1 = every loop): policy}.
    Raises ValueError when malformed."""
    out: dict[int, int] = {}
    if not text.strip():
        return out
    for item in text.split(","):
        m = _OVERRIDE_ITEM.match(item)
        if m is None:
            raise ValueError(f"malformed hoist-late-override '{text}': expected comma-separated "
                             f"'N=V' or '*=V' with V in 0, 1, 3")
        value = int(m.group(2))
        if value not in (0, 1, 3):
            raise ValueError(f"hoist-late-override: policy {value} for '{m.group(1)}' is not "
                             f"0 (always), 1 (inner loops only) or 3 (never)")
        out[-1 if m.group(1) == "*" else int(m.group(1))] = value
    return out


@dataclass(frozen=True)
class HoistInvariantsPass(ModulePass):
    """Loop-invariant code motion, the seed's four-stage engine (phases 35, 66, 79, 88)."""

    name = "ori-hoist-invariants"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()
    FIXED_ID: ClassVar[int | None] = None
    """The pass id of a named instance (None: taken from ``pass-id``)."""

    pass_id: int = option(
        0, "ori: which instance the engine runs as: 0 Early (phase 35), 1 Late (66), "
        "2 Late2 (79), 3 Late3 (88) -- the seed's a2 of sub_8FFDE0")
    hoist_invariants: bool = option(True, "Knob 499: master switch of the LICM passes")
    max_invocations: int = option(
        -1, "ori: the guard's invocation limit (the seed's counters at allocator[9]+35936): "
        "at most this many functions are processed per run; -1 = no limit")
    hoist_budget: float = option(
        10.0, "HoistBudget (knob 483): stage 1's budget of a multi-depth loop; 0 = unlimited")
    hoist_loop_inv_budget: float | None = option(
        None, "HoistLoopInvBudget (knob 482): stage 1's budget of a simple loop's header and "
        "dominated blocks; unset = 22 for pass id 0, 100 for later passes; 0 = unlimited")
    hoist_conservative_scale: int = option(
        10, "HoistConservativeScale (knob 380): the budget is divided by it for blocks of an "
        "inner loop (multi-depth hoisting); at least 1")
    hoist_late: int = option(
        0, "HoistLate (knob 381): per-loop policy, 0 always hoist, 1 inner loops only, "
        "3 never")
    hoist_late_override: str = option(
        "", "HoistLate per-block override: comma-separated N=V (N the header's ^bbN) or *=V, "
        "V in 0, 1, 3")
    multi_depth_hoist: bool = option(
        True, "Knob 220: allow hoisting from a loop that contains loops (multi-depth)")
    disable_nested_hoist: bool = option(
        False, "DisableNestedHoist: never hoist from the blocks of an inner loop")
    max_mid_header_size_rate_for_aggressive_hoist: int = option(
        2, "MaxMidHeaderSizeRateForAggressiveHoist: max_iterations of the nested-hoist "
        "condition (inner body weight < header weight x it); 0 = unlimited")
    use_new_loop_invariant_routine_for_hoisting: bool = option(
        False, "UseNewLoopInvariantRoutineForHoisting (knob 934): the set-based invariance "
        "routine (fixed point in stage 2) instead of the single-pass scan")
    enable_hoist_low_latency_inst_mid_block: bool = option(
        False, "EnableHoistLowLatencyInstMidBlock: also hoist the low-latency invariants (fixed "
        "latency, nothing scoreboarded) of the mid blocks, the blocks between the header and "
        "the back edge that ptxas's driver does not visit")
    hoist_duplicates: bool = option(
        True, "ori: hoist an invariant of a mid block when the loop computes the same value "
        "more than once, merging the copies at the preheader (passes/hoist_invariants/mid_blocks.py)")
    sink_to_exits: bool = option(
        True, "ori: move a pure instruction whose results only the code after its loop reads "
        "to the loop's exit block (passes/hoist_invariants/sink.py; off with the master switch "
        "hoist-invariants=false); the seed names sinking (MovWeightForSinkingHoisting) but "
        "gives no algorithm")
    remarks: bool = option(
        False, "ori: print one remark per loop (hoisted N instructions, or not hoisted and "
        "why) and the per-function totals to stderr")
    stats: bool = option(False, "ori: print the per-function totals to stderr")

    @property
    def effective_id(self) -> int:
        return self.FIXED_ID if self.FIXED_ID is not None else self.pass_id

    def _validate(self) -> dict[int, int]:
        def bad(msg: str) -> PassFailedException:
            return PassFailedException(f"{self.name}: {msg}")

        if self.FIXED_ID is not None and self.pass_id != self.FIXED_ID:
            raise bad(f"the pass id of {self.name} is {self.FIXED_ID}; use "
                      f"ori-hoist-invariants{{pass-id={self.pass_id}}} for another")
        if self.effective_id not in (0, 1, 2, 3):
            raise bad(f"pass-id must be 0, 1, 2 or 3, got {self.pass_id}")
        if self.hoist_budget < 0:
            raise bad(f"hoist-budget must be >= 0, got {self.hoist_budget}")
        if self.hoist_loop_inv_budget is not None and self.hoist_loop_inv_budget < 0:
            raise bad(f"hoist-loop-inv-budget must be >= 0, got {self.hoist_loop_inv_budget}")
        if self.hoist_conservative_scale < 1:
            raise bad(f"hoist-conservative-scale must be >= 1, got {self.hoist_conservative_scale}")
        if self.hoist_late not in (0, 1, 3):
            raise bad(f"hoist-late must be 0 (always), 1 (inner loops only) or 3 (never), "
                      f"got {self.hoist_late}")
        if self.max_mid_header_size_rate_for_aggressive_hoist < 0:
            raise bad("max-mid-header-size-rate-for-aggressive-hoist must be >= 0")
        if self.max_invocations < -1:
            raise bad(f"max-invocations must be -1 (no limit) or >= 0, got {self.max_invocations}")
        try:
            return parse_policy_override(self.hoist_late_override)
        except ValueError as e:
            raise bad(str(e)) from None

    def knobs(self, overrides: dict[int, int]) -> DriverKnobs:
        pid = self.effective_id
        inv = self.hoist_loop_inv_budget
        if inv is None:
            inv = 22.0 if pid == 0 else 100.0
        return DriverKnobs(
            budget=BudgetKnobs(pid, self.hoist_budget, inv, self.hoist_conservative_scale),
            policy=self.hoist_late, overrides=overrides, multi_depth=self.multi_depth_hoist,
            disable_nested=self.disable_nested_hoist,
            max_iterations=self.max_mid_header_size_rate_for_aggressive_hoist,
            set_based=self.use_new_loop_invariant_routine_for_hoisting,
            mid_block_low_latency=self.enable_hoist_low_latency_inst_mid_block,
            hoist_duplicates=self.hoist_duplicates)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        overrides = self._validate()
        if not self.hoist_invariants:
            return
        require(self, op)
        k = self.knobs(overrides)
        invocations = 0
        for func in functions_of(op):
            fname = func.sym_name.data  # type: ignore[attr-defined]
            if self.sink_to_exits:
                self._sink(fname, func)
            blocks = list(func.regions[0].blocks)
            if len(blocks) <= 2:
                # the guard: "two-block functions have at most a trivial loop"
                continue
            if 0 <= self.max_invocations <= invocations:
                if self.remarks:
                    emit_remark(fname, f"not hoisted: invocation limit reached "
                                f"(max-invocations={self.max_invocations})")
                continue
            invocations += 1
            rep = hoist_function(func, k)
            if self.remarks:
                for bid, msg in rep.remarks:
                    emit_remark(fname, msg, block=bid)
            if (self.remarks or self.stats) and rep.remarks:
                emit_stats(self.name, f"@{fname}: [hoisted instructions={rep.hoisted}] "
                           f"[loops hoisted={rep.loops_hoisted}] "
                           f"[loops not hoisted={rep.loops_not}]")
        if self.remarks or self.stats:
            flush_diagnostics()

    def _sink(self, fname: str, func: Operation) -> None:
        sunk = sink_function(func)
        if self.remarks:
            for s in sunk:
                plural = "s" if s.count != 1 else ""
                emit_remark(fname, f"sank {s.count} instruction{plural} read only after the "
                            f"loop to its exit ^bb{s.exit}", block=s.header)
        if (self.remarks or self.stats) and sunk:
            emit_stats(self.name, f"@{fname}: [sunk instructions={sum(s.count for s in sunk)}]")


def fixed_pass_id(pass_id: int) -> int:
    """The ``pass-id`` option of a named instance: fixed to its seed id."""
    return option(pass_id, f"ori: fixed to {pass_id} for this instance "
                  "(ori-hoist-invariants{pass-id=N} runs another)")


@dataclass(frozen=True)
class HoistInvariantsEarlyPass(HoistInvariantsPass):
    """OriHoistInvariantsEarly, phase 35 (pass id 0): after GeneralOptimize."""

    name = "ori-hoist-invariants-early"
    FIXED_ID: ClassVar[int | None] = 0

    pass_id: int = fixed_pass_id(0)


@dataclass(frozen=True)
class HoistInvariantsLatePass(HoistInvariantsPass):
    """OriHoistInvariantsLate, phase 66 (pass id 1): after predication."""

    name = "ori-hoist-invariants-late"
    FIXED_ID: ClassVar[int | None] = 1

    pass_id: int = fixed_pass_id(1)


@dataclass(frozen=True)
class HoistInvariantsLate2Pass(HoistInvariantsPass):
    """OriHoistInvariantsLate2, phase 79 (pass id 2): after late expansion."""

    name = "ori-hoist-invariants-late2"
    FIXED_ID: ClassVar[int | None] = 2

    pass_id: int = fixed_pass_id(2)


@dataclass(frozen=True)
class HoistInvariantsLate3Pass(HoistInvariantsPass):
    """OriHoistInvariantsLate3, phase 88 (pass id 3): after GMMA fixup."""

    name = "ori-hoist-invariants-late3"
    FIXED_ID: ClassVar[int | None] = 3

    pass_id: int = fixed_pass_id(3)


__all__ = ["PASS_NAMES", "HoistInvariantsEarlyPass", "HoistInvariantsLate2Pass",
           "HoistInvariantsLate3Pass", "HoistInvariantsLatePass", "HoistInvariantsPass",
           "parse_policy_override"]
