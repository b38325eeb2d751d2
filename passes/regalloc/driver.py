"""``ori-regalloc``: the per-function driver (seed 000 "Entry Point:
sub_9721C0" and "Per-Class Driver: sub_971A90").

For each function (callees before callers, for the static frame layout of
:mod:`.spill`; a function with calls twice, with and without values live
across a call recomputed after it, the better kept: ``call-remat``,
:mod:`.call_remat`):

1. a register-pair zero passed twice on one edge is written once per
   argument (:mod:`.zero_args`); a constant read only as edge operands in
   other blocks is written at those edges (``edge-constants``,
   :mod:`.edge_constants`); the parts of a PACK read again after it are
   read from an UNPACK of the wide value (``pack-parts``,
   :mod:`.pack_parts`); unpacks move down to their first reader,
   so do predicate and 32-bit R definitions where that frees a register
   (``sink-definitions``), and
   tied prior values that outlive their guarded instruction are copied
   (:func:`.copies.unpacks_to_readers`, :func:`.sink_defs.definitions_to_readers`,
   :func:`.copies.split_ties`);
2. **NOSPILL** trials (``num-non-spill-trials``, knob
   RegAllocNumNonSpillTrials; default 2): liveness is rebuilt, units are
   formed (:mod:`.coalesce`; with ``coalescing`` set, a file's copies are
   coalesced until a trial fails in that file, so a coalescing that costs
   registers is retried without while the other files keep theirs; where
   coalescing may cost the R file an occupancy step, the colouring without
   it is tried too, :mod:`.trial`), and every file is allocated in class
   order (:data:`.classes.FILE_ORDER`) -- 6-list ordering (:mod:`.ordering`), then
   the fat-point core (:mod:`.fatpoint`); an R colouring without failures
   is refined (:mod:`.refine`: more trials below its highest register, the
   best kept, ``refine-trials``);
3. **SPILL** retries (at most ``max-spill-rounds``): the units that failed
   are spilled (:mod:`.spill`: R values to local memory -- or to shared
   memory with ``smem-spilling`` / the ``enable_smem_spilling`` pragma where
   seed 000's conditions allow --, P/UP/UR/B values to a GPR home).  A
   failed unit that cannot be spilled (a reload, ...) instead spills the
   cheapest spillable unit of its file live where it needed a register.
   Where nothing spillable is live there, the order fragmented the aligned
   slots (a reload of 32 bits took half of the only free pair a 64-bit
   reload needed): the retries then colour the units that cannot be
   spilled first, widest first (:func:`.trial.fixed_first`), which finds aligned
   registers for one instruction's operands whenever the limit is at least
   :func:`.budget.minimum_limits`.
   ``force-file-limits`` (debug) lowers the limit of any file.  When nothing is left to
   spill the pass fails with the seed's error ``Register allocation failed
   with register count of 'N'``;
4. values are retyped to their physical registers, edge parallel copies are
   lowered (:mod:`.copies`), reloads a register still holds erased
   (:mod:`.reload_reuse`), products added to one uniform register fused
   into IMADs through one copy in a free register (:mod:`.uniform_addends`),
   a device function's callee saves emitted
   (:mod:`.callee_saves`), spill slots compacted -- a recursive function's
   into its own frame below R1 (:mod:`.frame`), every other function's
   statically above its callees' -- and the figures recorded
   on the function: ``ori.max_regs`` (the R budget), ``ori.num_regs``,
   ``ori.stack_frame``, ``ori.spill_stores``, ``ori.spill_loads`` and, for
   SMEM spills, ``ori.smem_spill_bytes`` / ``ori.smem_spill_stores`` /
   ``ori.smem_spill_loads`` (``ori.shared_bytes`` grows by the area).

Register count (``ori.num_regs``, what ``Used N registers`` prints): the
highest R register used (pair/quad halves included) + 1, counting the
reserved R1 (R0-R3 under ``ori-abi{reserve-r0-r3}``), plus the 2 registers ptxas withholds on
sm_70 and later (:func:`.budget.register_count`; the ptxas experiments are in
``passes/stats.py``).  With ``occupancy-budget`` the R budget may first be
lowered by seed 000's budget pressure model (:func:`.budget.plan_occupancy_budget`).

A module that is already allocated (every value has a physical register)
is only checked; a partly allocated one is a diagnostic.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.liveness import FILES
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from passes.contract import Requirement, emit_remark, option, require
from passes.regalloc.abi import is_lowered, record_saves
from passes.regalloc.budget import (
    OCCUPANCY_TARGET_ATTR,
    Budget,
    BudgetModel,
    check_minimum,
    compute_budget,
    function_target,
    hidden_regs,
    occupancy_remark,
    plan_occupancy_budget,
)
from passes.regalloc.call_remat import allocate_trying
from passes.regalloc.callee_saves import emit_callee_saves, is_recursive
from passes.regalloc.checker import check_function
from passes.regalloc.classes import SPILLABLE_FILES, Unit, value_costs
from passes.regalloc.copies import lower_edge_copies, split_ties, unpacks_to_readers
from passes.regalloc.edge_constants import constants_to_edges
from passes.regalloc.frame import move_into_frame
from passes.regalloc.inflight import check_after_assignment, refuse_unkept_claims
from passes.regalloc.inflight import prepare as prepare_in_flight
from passes.regalloc.pack_parts import parts_from_packs
from passes.regalloc.phi_spill import spill_phis
from passes.regalloc.points import LiveMatrix, paused_gc
from passes.regalloc.pred_pack import pack_predicate_homes
from passes.regalloc.reload_reuse import reuse_reloads
from passes.regalloc.remat import readers_first, remat_plan, remat_remark, rematerialize
from passes.regalloc.result import FunctionResult, allocation_failure, record_figures
from passes.regalloc.sink_defs import definitions_to_readers
from passes.regalloc.spill import (
    SmemSpill,
    next_tag,
    smem_requested,
    smem_spill_setup,
    spill_value,
)
from passes.regalloc.ssa_driver import allocate_function_ssa
from passes.regalloc.trial import (
    TrialKnobs,
    better_uncoalesced,
    colour,
    may_lose_warps,
)
from passes.regalloc.uniform_addends import fuse_uniform_addends
from passes.regalloc.zero_args import zeros_per_argument
from passes.stats import print_stats


def _allocated_state(func: FuncOp) -> str:
    seen = {"phys": 0, "virt": 0}
    for op in func.walk():
        vals: list[SSAValue] = list(op.results)
        for r in op.regions:
            for b in r.blocks:
                vals.extend(b.args)
        for v in vals:
            t = v.type
            if isinstance(t, OriRegisterType) and not t.is_fixed:
                seen["phys" if t.phys_index is not None else "virt"] += 1
    if seen["phys"] and seen["virt"]:
        return "partial"
    return "allocated" if seen["phys"] else "virtual"


def allocate_function(
    func: FuncOp,
    *,
    target: str | None = None,
    max_regs: int | None = None,
    coalescing: bool = True,
    threshold: int = 50,
    num_non_spill_trials: int = 2,
    spill_cost: float = 15.0,
    loop_iterations: float = 10.0,
    max_spill_rounds: int = 64,
    spill_base: int = 0,
    smem_spilling: bool = False,
    file_limits: dict[RegFile, int] | None = None,
    lower_bound: bool = False,
    occupancy: tuple[BudgetModel, str] | None = None,
    override: bool = False,
    recursive: bool | None = None,
    remat: bool = True,
    refine_trials: int = 6,
    pack_predicates: bool = True,
    sink_definitions: bool = True,
    edge_constants: bool = True,
    pack_parts: bool = True,
) -> FunctionResult:
    tgt = function_target(func, target)
    budget: Budget = compute_budget(func, tgt, max_regs, lower_bound=lower_bound,
                                    override=override)
    plan = None
    if occupancy is not None:
        plan = plan_occupancy_budget(func, tgt, budget, *occupancy)
        if plan.squeeze:
            # the squeezed limit is the limit, directives or not
            budget = compute_budget(func, tgt, plan.target_regs, quiet=True, override=True)
    # debug: forced low limits on any file (spill.py tests; like NAK's forced
    # low register limit), never above the budget's own
    for f, n in (file_limits or {}).items():
        budget.limits[f] = min(budget.limits.get(f, 0), n)
    rlimit = budget.limits[RegFile.R]
    # below what one instruction needs no allocation exists: say the minimum
    # HGMMA accumulators in flight as one value each (inflight.py)
    in_flight_reads = prepare_in_flight(func)
    check_minimum(func, tgt, budget)
    remarks: list[str] = []
    smem: SmemSpill | None = None
    smem_skipped: str | None = None
    if smem_requested(func, smem_spilling):
        setup = smem_spill_setup(func, tgt)
        if isinstance(setup, str):
            smem_skipped = setup  # a remark if the function spills at all
        else:
            smem = setup
    zeros_per_argument(func)
    if edge_constants:
        constants_to_edges(func)
    if pack_parts:
        parts_from_packs(func)
    unpacks_to_readers(func)
    if sink_definitions:
        definitions_to_readers(func)
    split_ties(func)
    refuse_unkept_claims(func, in_flight_reads)
    attempts = 0
    # block arguments and edge operands can only be spilled as memory phis
    # (phi_spill.py): done first, where a block entry or branch needs more
    # registers than the file has
    spilled = spill_phis(
        func, {f: len(budget.allowed(f)) for f in FILES}, SPILLABLE_FILES, smem
    )
    trial = 0
    rematerialized = 0
    # the files whose optional candidates are merged: a file stops
    # coalescing once a trial that coalesced it failed in it; the others keep
    # their copies coalesced through the later trials and spill rounds (a
    # predicate that finds no P register no longer costs the R file its loop
    # copies: Triton's matmul_i8 kept 11 MOVs per K iteration)
    merging: frozenset[RegFile] = frozenset(FILES) if coalescing else frozenset()
    # set when a unit that cannot be spilled found no register although
    # nothing spillable was live with it: the fallback order below
    fixed_first = False
    knobs = TrialKnobs(threshold, loop_iterations, refine_trials)
    while True:
        attempts += 1
        lm = LiveMatrix(func)
        cost, spillable = value_costs(lm, spill_cost, loop_iterations, remat=remat)
        flags = {"spill_retry": trial >= num_non_spill_trials, "fixed": fixed_first,
                 "trial_zero": trial == 0}
        got = colour(func, tgt, lm, budget, cost, spillable, merging, knobs, **flags)
        if (not got.failed and RegFile.R in merging
                and may_lose_warps(func, tgt, budget, got)):
            # coalescing may have cost an occupancy step (trial.py)
            apart = colour(func, tgt, lm, budget, cost, spillable, merging - {RegFile.R}, knobs,
                           **flags)
            if better_uncoalesced(func, tgt, budget, got, apart):
                got = apart
        units, unit_of, assignment, failed, peaks = (
            got.units, got.unit_of, got.assignment, got.failed, got.peaks)
        if not failed:
            break
        uncoalesce = merging & {u.file for u in failed}
        merging -= uncoalesce
        trial += 1
        if trial < num_non_spill_trials or uncoalesce:
            # a file that failed coalesced is retried without before anything
            # is spilled (once per file)
            continue
        if attempts > num_non_spill_trials + len(FILES) + max_spill_rounds:
            raise allocation_failure(func, rlimit, f"no progress after {max_spill_rounds} spill rounds")
        to_spill: set[int] = set()
        stuck: Unit | None = None
        for u in failed:
            if u.spillable:
                to_spill.update(v for v in u.values if spillable[v])
                continue
            # spill the cheapest spillable unit live where u needed a register
            best: Unit | None = None
            for w in units:
                if w is u or w.file is not u.file or not w.spillable:
                    continue
                if (w.points & u.points).any() and (best is None or w.cost < best.cost):
                    best = w
            if best is None:
                stuck = stuck or u
                continue
            to_spill.update(v for v in best.values if spillable[v])
        if stuck is not None and fixed_first:
            what = "predicate" if stuck.file.is_predicate else f"{stuck.file.value}"
            raise allocation_failure(
                func,
                budget.limits[stuck.file] if stuck.file is not RegFile.R else rlimit,
                f"a {what} value needs a register at a point where every allowed "
                "register is taken and nothing there can be spilled",
            )
        if stuck is not None:
            # only values that cannot be spilled are live where it failed:
            # the registers were fragmented by the order (a 32-bit reload
            # placed first takes the only aligned pair's half), so colour
            # them first, widest first -- what budget.minimum_limits assumes
            fixed_first = True
            if not to_spill:
                continue
        if not to_spill:
            raise allocation_failure(func, rlimit, "nothing left to spill")
        tag = next_tag(func)
        vals = lm.numbering.values
        # a predicate is recomputed from registers only while the R file
        # colours: where it fails, the clones' operands are spilled next and
        # their reloads, never spilled again, fill the file (remat.py)
        live_lm = None if any(u.file is RegFile.R for u in failed) else lm
        plans = {v: rp for v in sorted(to_spill)
                 if remat and (rp := remat_plan(vals[v], live_lm)) is not None}
        clones = list(plans)
        # rematerialized first (a clone that reads a spilled value gets its
        # reload), readers before the values they read (a clone reads the
        # definition's operands where they are live now: remat.py)
        # a PLOP3 a comparison was fused into: its value now has that
        # definition, whose operands were never checked: spilled
        replaced: dict[SSAValue, SSAValue] = {}
        for v in readers_first(clones, lm.numbering):
            if vals[v] in replaced:
                continue
            rematerialized += 1
            rematerialize(vals[v], tag, lm=live_lm, replaced=replaced, chain=plans[v][1])
            tag += 1
            spilled += 1
        for v in sorted(to_spill.difference(clones).union(
                v for v in clones if vals[v] in replaced)):
            spill_value(replaced.get(vals[v], vals[v]), tag, smem)
            tag += 1
            spilled += 1
        if pack_predicates:
            pack_predicate_homes(func)
        trial = max(trial, num_non_spill_trials)

    # ---- commit: retype ----
    num = lm.numbering
    for i, v in enumerate(num.values):
        base = assignment[int(unit_of[i])]
        t = v.type
        assert isinstance(t, OriRegisterType)
        v._type = type(t).physical(base)  # type: ignore[attr-defined]
    if not func.is_kernel:
        ft = func.function_type
        func.function_type = FunctionType.from_lists(
            [a.type for a in func.entry_block.args], list(ft.outputs.data)
        )
    # ---- edge copies ----
    live_in: dict[Block, list[SSAValue]] = {
        blk: lm.liveness.live_in_values(b) for b, blk in enumerate(lm.cfg.blocks)
    }
    allowed_all = {f: budget.allowed(f) for f in FILES}
    copies = lower_edge_copies(func, live_in, allowed_all, peaks)
    reuse_reloads(func)  # reloads of a value its register still holds
    # products added to one UR: one MOV into a free register, fused IMADs
    fuse_uniform_addends(func, allowed_all[RegFile.R], peaks.get(RegFile.R, 0))
    # no instruction touches an HGMMA's registers before its wait (inflight.py)
    remarks.extend(check_after_assignment(func, in_flight_reads))
    record_saves(func)  # the preserved registers a device function saves (abi.py)
    emit_callee_saves(func)  # their STL/LDL (callee_saves.py)
    # ---- frame and figures ----
    if plan is not None:
        func.attributes[OCCUPANCY_TARGET_ATTR] = IntegerAttr(plan.aimed_regs, i32)
    if recursive is None:
        recursive = is_recursive(func)
    num_regs, frame, stores, loads, spill_area = record_figures(
        func, tgt, budget, peaks.get(RegFile.R, 0), smem, 0 if recursive else spill_base,
        remarks)
    if recursive:  # several activations: the slots go into each one's frame (frame.py)
        move_into_frame(func, frame)
    if plan is not None:
        emit_remark(func.sym_name.data, occupancy_remark(plan, tgt, num_regs),
                    pass_name="ori-regalloc")
    if smem_skipped is not None and stores:
        remarks.insert(0, f"SMEM spilling not applicable: {smem_skipped}; spills go to local "
                          "memory")
    if rematerialized:
        remarks.append(remat_remark(rematerialized))
    for r in remarks:
        emit_remark(func.sym_name.data, r, pass_name="ori-regalloc")
    return FunctionResult(num_regs, frame, stores, loads, attempts, spilled, copies,
                          budget.warnings, spill_area.smem_bytes, remarks)


def parse_file_limits(text: str) -> dict[RegFile, int]:
    """``P=2;UR=3`` (``,`` also separates) -> {RegFile.P: 2, RegFile.UR: 3}."""
    out: dict[RegFile, int] = {}
    for item in text.replace(",", ";").split(";"):
        item = item.strip()
        if not item:
            continue
        name, _, num = item.partition("=")
        try:
            f = RegFile(name.strip().upper())
            n = int(num)
        except ValueError:
            raise PassFailedException(
                f"ori-regalloc: force-file-limits takes FILE=N items (R, UR, P, UP, B), got "
                f"{item!r}"
            ) from None
        if n < 1:
            raise PassFailedException(f"ori-regalloc: force-file-limits: {item!r} is below 1")
        out[f] = n
    return out


def _call_order(funcs: list[FuncOp]) -> tuple[list[FuncOp], dict[str, set[str]]]:
    by_name = {f.sym_name.data: f for f in funcs}
    callees: dict[str, set[str]] = {}
    for f in funcs:
        callees[f.sym_name.data] = {
            c for op in f.walk() if isinstance(op, CallOp) for c in op.possible_callees(by_name)
        }
    order: list[FuncOp] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n):
            return
        state[n] = 1
        for c in sorted(callees[n]):
            visit(c)
        state[n] = 2
        order.append(by_name[n])

    for f in funcs:
        visit(f.sym_name.data)
    return order, callees


def _reaches(start: str, callees: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(callees.get(start, ()))
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(callees.get(n, ()))
    return seen


@dataclass(frozen=True)
class RegAllocPass(ModulePass):
    """Register allocation with spilling: fat-point (seed 000) or SSA-based (strategy=ssa).

    See the package docstring."""

    name = "ori-regalloc"
    # Already-allocated input is only checked and a partly allocated function
    # is its own diagnostic, so neither UNALLOCATED nor ALLOCATED is required.
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    max_regs: int | None = option(
        None, "like ptxas --maxrregcount: the R register limit per thread of a function "
        "whose PTX directives set none; ignored (with a remark) for a kernel with .maxnreg, "
        ".maxntid or .reqntid unless override-directive-values; unset = the directives' "
        "limit (.maxnreg, else the thread-count limit of .maxntid/.reqntid and "
        ".minnctapersm), else the target's (budget.py)")
    override_directive_values: bool = option(
        False, "like ptxas --override-directive-values: max-regs overrides the limit of the "
        "kernel's .maxnreg / .maxntid / .reqntid / .minnctapersm, above it too (ptxas: "
        "'values provided with the PTX directives are overriden by the corresponding option "
        "values'); without it ptxas ignores --maxrregcount for such kernels")
    target: str | None = option(
        None, "SM target (sm_80, sm_90a, ...); unset = the module's ori.target, else sm_80")
    coalescing: bool = option(
        True, "RegAllocCoalescing (knob 618): join copy-related values into one register")
    threshold_for_discard_conflicts: int = option(
        50, "RegAllocThresholdForDiscardConflicts (knob 684): slots with more interference "
        "than this are skipped by the fat-point scan")
    num_non_spill_trials: int = option(
        2, "RegAllocNumNonSpillTrials (knob 639): allocation attempts before spilling starts")
    spill_cost: float = option(
        15.0, "base spill cost per definition and use (seed 000, spill codegen sub_94F150)")
    estimated_loop_iterations: float = option(
        10.0, "RegAllocEstimatedLoopIterations (knob 623): block frequency base per loop "
        "level in the spill cost")
    max_spill_rounds: int = option(
        64, "ori: spill rounds after the non-spill trials before allocation fails (the seed's "
        "retry count, knob 638)")
    stats: bool = option(
        False, "print ptxas -v-style figures to stderr (as ori-stats does)")
    smem_spilling: bool = option(
        False, "knob 619 (SMEM spill enable): spill R values of a kernel to shared memory "
        "where seed 000's conditions allow (passes/regalloc/spill.py); a kernel's "
        "enable_smem_spilling pragma turns it on for that kernel")
    force_file_limits: str = option(
        "", "debug: lower the limit of any register file, P=2;UR=3;B=1 (tests of the spill "
        "paths of every file)")
    profile_lower_bound: bool = option(
        False, "raise a limit below 24 to 24 on sm_70+ as ptxas does (budget.py). Off by "
        "default on purpose: max-regs below 24 is how ori forces spilling (lit tests at "
        "16..32, the spill fuzzers); turn it on to compare with ptxas under --maxrregcount "
        "below 24")
    occupancy_budget: bool = option(
        False, "seed 000's occupancy-aware register budget model (budget.py); fatpoint only")
    budget_model: str = option(
        "piecewise", "occupancy-budget model: piecewise (sub_937E90's 4-segment table) or "
        "linear (the fast path)")
    budget_max_threads: int = option(
        119, "occupancy budget: max threads per block breakpoint of the table (seed 000 "
        "+1624)")
    budget_pressure_threshold: int = option(
        160, "occupancy budget: pressure threshold breakpoint of the table (seed 000 +1628)")
    budget_coeff_a: float = option(
        0.2, "occupancy budget: interpolation coefficient A, the flat fraction up to the "
        "pressure threshold")
    budget_coeff_b: float = option(
        1.0, "occupancy budget: interpolation coefficient B, the fraction at the top of "
        "the table")
    budget_coeff_c: float = option(
        0.3, "occupancy budget: interpolation coefficient C, the linear model's lowest "
        "fraction")
    strategy: str = option(
        "fatpoint", "fatpoint (seed 000, the fat-point allocator) or ssa (spill to the "
        "budget first, then assign in dominance order: ssa_driver.py)")
    remat_enable: bool = option(
        True, "RematEnable / RegAllocRematEnable (seed 002, ptxas-side knobs): a value to "
        "spill whose definition reads no register (MOV of an immediate, LDC, ...) is "
        "recomputed before each use instead of stored and reloaded, and so is a predicate "
        "whose definition reads registers live at each use (ISETP; fatpoint strategy; "
        "remat.py)")
    pack_predicates: bool = option(
        True, "ori: spilled predicates share GPR homes, up to seven per register, one bit "
        "each (pred_pack.py; ptxas packs them too); false gives each its own home")
    sink_definitions: bool = option(
        True, "ori (seed 002 names ptxas's SinkRematEnable): a P-file or 32-bit R definition "
        "moves down to its first reader where that frees a register and lengthens at most "
        "one other range (sink_defs.py; fatpoint strategy)")
    edge_constants: bool = option(
        True, "ori: a constant (a definition reading no register) read only as branch-edge "
        "operands in other blocks is written again before each such branch instead of held "
        "in a register until the last one (edge_constants.py; fatpoint strategy)")
    call_remat: bool = option(
        True, "ori: a value live across a call computed by one instruction (with at most "
        "three constants) from values live across it too is computed again after the call, "
        "when the function then needs fewer registers or less spill code (call_remat.py; "
        "fatpoint strategy; the function is allocated both ways)")
    pack_parts: bool = option(
        True, "ori: the parts of a PACK read again after it are read from an UNPACK of the "
        "wide value, so the parts and the pair are not live together (pack_parts.py; "
        "fatpoint strategy)")
    refine_trials: int = option(
        6, "ori's reading of seed 000's best-result recorder (sub_93D070) and refinement "
        "(sub_95BC90): after a colouring without failures, trials that colour the R file "
        "again below its highest register, the best kept (refine.py); 0 = off")
    ssa_search_budget: int = option(
        20000, "strategy=ssa only: candidates the exact search for fewer R registers than "
        "the greedy assignment may try per function (ssa_search.py); 0 keeps the greedy "
        "assignment")

    def _occupancy(self, func: FuncOp) -> tuple[BudgetModel, str] | None:
        if not self.occupancy_budget:
            return None
        tgt = function_target(func, self.target)
        model = BudgetModel(
            max_threads=self.budget_max_threads,
            pressure_threshold=self.budget_pressure_threshold,
            coeff_a=self.budget_coeff_a,
            coeff_b=self.budget_coeff_b,
            coeff_c=self.budget_coeff_c,
            limit=float(tgt.reg_limit("R") - hidden_regs(tgt)),  # type: ignore[attr-defined]
        )
        return model, self.budget_model

    @paused_gc()  # a quarter of the time on large functions was full GC scans
    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strategy not in ("fatpoint", "ssa"):
            raise PassFailedException(
                f"ori-regalloc: unknown strategy '{self.strategy}' (fatpoint or ssa)"
            )
        if self.ssa_search_budget < 0:
            raise PassFailedException(
                f"ori-regalloc: ssa-search-budget must be 0 (off) or more, got {self.ssa_search_budget}"
            )
        if self.refine_trials < 0:
            raise PassFailedException(
                f"ori-regalloc: refine-trials must be 0 (off) or more, got {self.refine_trials}"
            )
        require(self, op)
        funcs = [f for f in op.walk() if isinstance(f, FuncOp)]
        states = {f.sym_name.data: _allocated_state(f) for f in funcs}
        for f in funcs:
            if states[f.sym_name.data] == "partial":
                raise PassFailedException(
                    f"@{f.sym_name.data}: some values already have physical registers and "
                    "others do not; ori-regalloc takes a fully virtual or fully allocated function"
                )
        order, callees = _call_order(funcs)
        tops: dict[str, int] = {}
        for f in order:
            name = f.sym_name.data
            if states[name] == "allocated":
                problems = check_function(f, self.target, self.max_regs,
                                          override=self.override_directive_values)
                if problems:
                    raise PassFailedException(
                        "already-allocated input is inconsistent:\n  " + "\n  ".join(problems)
                    )
                sf = f.attributes.get("ori.stack_frame")
                tops[name] = sf.value.data if isinstance(sf, IntegerAttr) else 0
                continue
            recursive = name in _reaches(name, callees)
            base = max((tops.get(c, 0) for c in callees[name]), default=0)
            if self.strategy == "ssa":
                if self.occupancy_budget or self.profile_lower_bound:
                    raise PassFailedException(
                        "ori-regalloc: occupancy-budget and profile-lower-bound are "
                        "implemented for strategy=fatpoint only"
                    )
                if is_lowered(f):
                    raise PassFailedException(
                        f"ori-regalloc: @{name}: strategy=ssa does not take ori-abi's "
                        "pre-colouring (passes/regalloc/abi.py); allocate with "
                        "strategy=fatpoint or run ori-abi{lower-calls=false}")

                res = allocate_function_ssa(
                    f, target=self.target, max_regs=self.max_regs,
                    override=self.override_directive_values,
                    max_spill_rounds=self.max_spill_rounds,
                    spill_base=0 if recursive else base,
                    smem_spilling=self.smem_spilling,
                    file_limits=parse_file_limits(self.force_file_limits),
                    search_budget=self.ssa_search_budget,
                    remat=self.remat_enable,
                    pack=self.pack_predicates,
                )
            else:
                alloc = functools.partial(
                    allocate_function,
                    target=self.target,
                    max_regs=self.max_regs,
                    coalescing=self.coalescing,
                    threshold=self.threshold_for_discard_conflicts,
                    num_non_spill_trials=max(1, self.num_non_spill_trials),
                    spill_cost=self.spill_cost,
                    remat=self.remat_enable,
                    refine_trials=self.refine_trials,
                    pack_predicates=self.pack_predicates,
                    sink_definitions=self.sink_definitions,
                    edge_constants=self.edge_constants,
                    pack_parts=self.pack_parts,
                    loop_iterations=self.estimated_loop_iterations,
                    max_spill_rounds=self.max_spill_rounds,
                    spill_base=base,
                    smem_spilling=self.smem_spilling,
                    file_limits=parse_file_limits(self.force_file_limits),
                    lower_bound=self.profile_lower_bound,
                    occupancy=self._occupancy(f),
                    override=self.override_directive_values,
                    recursive=recursive,
                )
                res = allocate_trying(f, alloc) if self.call_remat else alloc(f)
            if recursive and self.strategy == "ssa":  # fatpoint's moved them itself
                move_into_frame(f, res.stack_frame)
            # a recursive function's own slots are in its frames, not up here
            tops[name] = base if recursive else max(res.stack_frame, base)
        if self.stats:
            print_stats(op, target=self.target)


__all__ = ["FunctionResult", "RegAllocPass", "allocate_function"]
