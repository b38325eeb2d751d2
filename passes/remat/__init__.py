"""``ori-remat``: NVIDIA's IR-level rematerialization, *nvvmrematerialize*
("Legacy IR Remat", seed 002 "IR-Level Rematerialization"), with its three
cooperating sub-passes in the seed's fixed order ("Multi-Pass Data Flow"):

1. the **main loop** (:mod:`.driver`): live-in per block, the register
   target, at most five rounds that recompute cheap values live-in to the
   blocks above the target next to their uses -- the live-in intersection,
   rematerializability through the def chain (:mod:`.chain`), the pull-in
   cost and its filters, cheapest first (:mod:`.cost`), and the block
   executor with its ``remat_`` / ``uclone_`` clones (:mod:`.executor`);
2. **IV demotion** (:mod:`.iv`, ``remat-iv``; the overflow proof in
   :mod:`.iv_proof`): a 64-bit loop induction variable whose values provably
   fit 32 bits becomes a 32-bit one;
3. **load rematerialization** (``remat-load``): the main loop's rounds again
   with read-only loads (LDC, ``ld.global.nc``) allowed in the chains;
4. **live-out simplification** (:mod:`.live_out`, ``simplify-live-out``):
   ``nloNewBit`` / ``nloNewAdd``.

The target register count (:mod:`.target`), the live-in measurement
(:mod:`.measure`), the knobs (:mod:`.knobs`) and the diagnostics
(:mod:`.report`) have modules of their own.

**Input invariants.**  SSA ``ori.func`` bodies with virtual registers
(``REQUIRES`` SSA and unallocated registers: a clone of an allocated value
would break the allocation).  No loop form is required: IV demotion leaves a
loop without a dedicated preheader and a single latch alone (a remark says
so).  Every transformation keeps the program's results (equal values are
recomputed from equal operands), which the interpreter checks in the tests.

**Where ori departs from the seed** (each module's docstring has the detail):

* pressure is counted in R-file registers, wide values by their registers
  (the seed counts LLVM values);
* the intersection is over the blocks above the target, not all blocks
  (the entry block of a kernel has no live-in, so the seed's literal AND is
  always empty);
* ``remat-for-occ`` is read as a percentage of the resident warps the
  current register count allows (120: aim for 20% more warps); the seed
  gives no formula;
* ``remat-max-live-limit`` caps the registers one round selects (the seed
  gives the name and default 10 only);
* ``max-recurse-depth`` bounds the def chain as the seed says; it gives no
  default, ori uses 8;
* a round that does not lower the max live-in, or raises the max live, is
  undone (the seed recomputes the max live-in and stops; undoing keeps the
  pass from ever making pressure worse);
* ``do-remat`` levels: 1 (conservative) recomputes one instruction per value,
  every operand already live at the uses; 2 (normal) follows the def chain;
  3 (full) also takes the values live-in to the worst block when the
  intersection does not suffice.  The seed names the levels only.

**Knobs** (seed 002 "IR-Level Knobs"): every knob with a meaning in ori is an
option with the seed's name and default.  Not modelled:

* ``remat-add`` / ``dump-remat-add`` (add/GEP factoring into ``factor``
  values): off by default, and the seed describes no algorithm beyond
  "factoring common sub-expressions" of add/mul/GEP chains;
* the machine-level knobs (``nv-remat-*``, ``no-mi-remat``, ``load-remat``,
  ``max-reg-kind``, ``vasp-fix1``) belong to ``ori-remat-block``; ptxas's
  ``RematEnable`` / ``SinkRematEnable`` family to ``ori-regalloc``.

**Bad options** are one diagnostic each (``ori-opt: error: ori-remat:
do-remat must be ...``); a ``no-remat`` list that is not comma-separated
function names is one too, and a name in it that is no function of the
module is a warning (``ori-remat: warning: no-remat names @f, which is not a
function of this module``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.ops.func import FuncOp
from passes.contract import Requirement, emit_line, emit_stats, flush_diagnostics, option, require
from passes.remat.driver import State, load_phase, rounds
from passes.remat.iv import demote_ivs
from passes.remat.knobs import RematKnobs, parse_no_remat, validate
from passes.remat.live_out import simplify_live_out
from passes.remat.measure import measure
from passes.remat.report import PASS, Report
from passes.remat.target import register_target


@dataclass(frozen=True)
class RematPass(ModulePass):
    """IR-level rematerialization: main loop, IV demotion, load remat, live-out simplification (seed 002).

    The rules are in the package docstring."""

    name = "ori-remat"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.UNALLOCATED})
    # undoing a round gives the function new blocks: nothing stays valid
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    do_remat: int = option(
        3, "do-remat: master control of the main loop, 0 off, 1 conservative (one "
        "instruction, operands live at the uses), 2 normal (the def chain), 3 full (also "
        "the worst block's live-in)")
    no_remat: str = option(
        "", "no-remat: comma-separated names of functions not to rematerialize "
        "('Skip rematerialization on @f')")
    remat_iv: int = option(
        4, "remat-iv: IV demotion level, 0 off, 1-2 basic (the IV only split into its "
        "halves), 3 extended (wide uses rebuilt from the 32-bit IV), 4+ full (also IVs "
        "taking negative values)")
    remat_load: int = option(
        1, "remat-load: 1 runs the load rematerialization rounds (read-only loads: LDC, "
        "ld.global.nc) after IV demotion; 0 off")
    remat_single_cost_limit: int = option(
        6000, "remat-single-cost-limit: a candidate whose pull-in cost exceeds it is not "
        "rematerialized")
    remat_loop_trip: int = option(
        20, "remat-loop-trip: assumed trip count of a loop: a clone one loop deeper than "
        "the definition weighs this much in the use factor")
    remat_gep_cost: int = option(
        6000, "remat-gep-cost: most pull-in cost of an address (a value feeding a memory "
        "op's address slot)")
    remat_use_limit: int = option(
        10, "remat-use-limit: a candidate with more uses and a use factor of at least "
        "remat-loop-trip is not rematerialized")
    remat_max_live_limit: int = option(
        10, "remat-max-live-limit: most registers of live-in values one round selects")
    remat_maxreg_ceiling: int = option(
        0, "remat-maxreg-ceiling: register ceiling; when set and below the current count "
        "the target is at most it (0 = uncapped)")
    remat_for_occ: int = option(
        120, "remat-for-occ: occupancy-driven target, in percent of the resident warps the "
        "current register count allows (0: 80% of the register count instead)")
    remat_lli_factor: int = option(
        10, "remat-lli-factor: cost factor of a long-latency instruction (one issuing "
        "outside the ALU and FMA pipes) in a chain")
    remat_ignore_single_cost: bool = option(
        False, "remat-ignore-single-cost: bypass the remat-single-cost-limit filter")
    remat_move: bool = option(
        False, "remat-move: register copies (MOV %r) may be rematerialized")
    simplify_live_out: int = option(
        2, "simplify-live-out: NLO level, 0 off, 1 nloNewBit (wide live-out values used "
        "only through their low word), 2 also nloNewAdd of a live register plus a "
        "constant, 3+ also of live registers only")
    max_recurse_depth: int = option(
        8, "max-recurse-depth: deepest def chain a rematerialized value is rebuilt from "
        "(the seed names the bound without a default; ori: 8)")
    dump_remat: int = option(
        0, "dump-remat: debug dump level to stderr: 1 target and rounds, 2 live-in per "
        "block, 3 candidates and clones, 4 pull-in costs")
    dump_remat_iv: int = option(0, "dump-remat-iv: IV demotion dump to stderr (non-zero: on)")
    dump_remat_load: int = option(
        0, "dump-remat-load: dump level of the load rematerialization rounds (as dump-remat)")
    dump_simplify_live_out: bool = option(
        False, "dump-simplify-live-out: NLO dump to stderr")
    remarks: bool = option(
        False, "ori: one remark per rematerialized value, demoted IV and simplified "
        "live-out value, and per transformation left undone, to stderr")
    stats: bool = option(
        False, "ori: per function, max live and max live-in before and after, to stderr")

    def knobs(self) -> RematKnobs:
        return RematKnobs(**{f.name: getattr(self, f.name) for f in fields(RematKnobs)})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        k = self.knobs()
        why = validate(k)
        excluded = parse_no_remat(self.no_remat)
        if why is None and isinstance(excluded, str):
            why = excluded
        if why is not None:
            raise PassFailedException(f"{self.name}: {why}")
        assert isinstance(excluded, list)
        require(self, op)
        funcs = [f for f in functions_of(op) if isinstance(f, FuncOp)]
        present = {f.sym_name.data for f in funcs}
        for n in excluded:
            if n not in present:
                emit_line(f"{PASS}: warning: no-remat names @{n}, which is not a function "
                          "of this module")
        for func in funcs:
            self.run_function(func, k, excluded)
        flush_diagnostics()

    def run_function(self, func: FuncOp, k: RematKnobs, excluded: list[str]) -> None:
        fname = func.sym_name.data
        if fname in excluded:
            emit_line(f"{PASS}: Skip rematerialization on @{fname}")
            return
        if not (k.do_remat or k.remat_iv or k.remat_load):
            return  # the seed's master gate
        rep = Report(fname, k.dump_remat, k.dump_remat_iv, k.dump_remat_load,
                     k.dump_simplify_live_out, k.remarks)
        info = measure(func)
        tgt = register_target(func, info.max_live, for_occ=k.remat_for_occ,
                              ceiling=k.remat_maxreg_ceiling)
        before = (info.max_live, info.max_live_in)
        rep.dump_line(1, f"Max live-in = {info.max_live_in} (^bb{info.worst}), max live = "
                         f"{info.max_live}, register target = {tgt.target} ({tgt.how})")
        st = State(info, tgt.target)
        if k.do_remat:
            rounds(func, st, k, rep, loads=False)
        if k.remat_iv and demote_ivs(func, k, rep):
            st.info = measure(func)
        if k.remat_load:
            load_phase(func, st, k, rep)
        if k.simplify_live_out and simplify_live_out(func, st, k, rep):
            st.info = measure(func)
        if k.stats:
            c = rep.counts
            emit_stats(PASS, f"@{fname}: [max live {before[0]} -> {st.info.max_live}] "
                       f"[max live-in {before[1]} -> {st.info.max_live_in}] "
                       f"[target {st.target}] [rematerialized {c['rematerialized']}] "
                       f"[clones {c['clones']}] [demoted IVs {c['demoted IVs']}] "
                       f"[live-out simplified {c['live-out simplified']}]")


__all__ = ["RematPass"]
