"""``ori-regalloc{strategy=ssa}``: spill first, then assign in dominance order.

An alternative to the seed-faithful fat-point strategy (``strategy=fatpoint``,
the default, :mod:`.driver`), after Braun & Hack ("Register Spilling and
Live-Range Splitting for SSA-Form Programs", CC 2009) and Hack, Grund & Goos
("Register Allocation for Programs in SSA-Form", CC 2006).  Both strategies
share the spiller (:mod:`.spill`), the budgets (:mod:`.budget`), the edge
parallel copies (:mod:`.copies`), the checker and the recorded figures.

Per function:

1. tied prior values that outlive their guarded instruction are copied
   (:func:`.copies.split_ties`);
2. **pre-spilling** (:mod:`.ssa_spill`): every spillable file is spilled
   until no program point needs more registers than the file's allowed
   registers (its *target*) and the values of every point fit the allowed
   registers' aligned pairs and quads; a file that cannot be spilled and
   exceeds its registers is the seed's error ``Register allocation failed
   with register count of 'N'``;
3. **assignment** (:mod:`.ssa_assign`): greedy along the dominator tree,
   exactly the maximum pressure for one-register values.  When alignment
   fragmentation leaves a wide value without an aligned slot, the values
   holding one slot it could take are spilled (:func:`_free_a_slot`) and
   steps 2-3 are repeated; only where none of them can be spilled is the
   file's target lowered by the value's width (at most
   ``max-spill-rounds`` times).  Lowering the target could end below what
   one instruction needs, which used to fail at the minimum (issue 13);
   spilling more cannot;
4. **tightening** (:mod:`.ssa_search`): when the greedy assignment uses more
   R registers than the maximum pressure needs (alignment), a bounded exact
   search looks for one with fewer, and says whether the count kept is
   proven minimal (``ori.r_assign_optimal`` = 1 proven, 0 not proven;
   ``ori.r_pressure_bound`` is the count the pressure alone would need;
   option ``ssa-search-budget``, candidates per function, 0 = off);
5. commit, as the fat-point driver does: values are retyped, edge parallel
   copies lowered, spill slots compacted (local memory, or shared memory in
   the SMEM mode), and ``ori.max_regs``, ``ori.num_regs``,
   ``ori.stack_frame``, ``ori.spill_stores``, ``ori.spill_loads`` (and the
   ``ori.smem_spill_*`` figures) recorded.

Options shared with the fat-point strategy: ``max-regs``, ``target``,
``max-spill-rounds``, ``smem-spilling`` (and the kernel pragma),
``force-file-limits``, ``stats``.  The fat-point knobs (coalescing,
threshold, non-spill trials, spill cost, loop iterations) do not apply;
``occupancy-budget`` and ``profile-lower-bound`` are refused by the pass.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType, IntegerAttr, i32
from xdsl.ir import Block, SSAValue

from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import FILES, Liveness
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.func import FuncOp
from passes.contract import emit_remark
from passes.regalloc.budget import (
    check_minimum,
    compute_budget,
    function_target,
    hidden_regs,
)
from passes.regalloc.classes import SPILLABLE_FILES
from passes.regalloc.copies import lower_edge_copies, split_ties, unpacks_to_readers
from passes.regalloc.inflight import check_after_assignment, refuse_unkept_claims
from passes.regalloc.inflight import prepare as prepare_in_flight
from passes.regalloc.phi_spill import spill_phis
from passes.regalloc.pred_pack import pack_predicate_homes
from passes.regalloc.reload_reuse import reuse_reloads
from passes.regalloc.remat import remat_remark
from passes.regalloc.result import FunctionResult, allocation_failure, record_figures
from passes.regalloc.spill import (
    SmemSpill,
    next_tag,
    smem_requested,
    smem_spill_setup,
    spill_value,
)
from passes.regalloc.ssa_assign import AssignFailure, Assignment, assign
from passes.regalloc.ssa_search import tighten
from passes.regalloc.ssa_spill import prespill, spillable_values


def allocate_function_ssa(
    func: FuncOp,
    *,
    target: str | None = None,
    max_regs: int | None = None,
    override: bool = False,
    max_spill_rounds: int = 64,
    spill_base: int = 0,
    smem_spilling: bool = False,
    file_limits: dict[RegFile, int] | None = None,
    search_budget: int = 20000,
    remat: bool = True,
    pack: bool = True,
) -> FunctionResult:
    """Allocate ``func`` with the ssa strategy (module docstring).
    ``smem_spilling`` and ``file_limits`` mean what they mean for
    :func:`.driver.allocate_function` (SMEM spill mode where seed 000's
    conditions allow; forced low limits of any file, for tests), ``override``
    what it means for :func:`.budget.compute_budget`."""
    tgt = function_target(func, target)
    budget = compute_budget(func, tgt, max_regs, override=override)
    for f, n in (file_limits or {}).items():
        budget.limits[f] = min(budget.limits.get(f, 0), n)
    remarks: list[str] = []
    smem: SmemSpill | None = None
    if smem_requested(func, smem_spilling):
        setup = smem_spill_setup(func, tgt)
        if isinstance(setup, str):
            remarks.append(f"SMEM spilling not applicable: {setup}; spills go to local memory")
        else:
            smem = setup
    # below what one instruction needs no allocation exists: say the minimum
    # HGMMA accumulators in flight as one value each (inflight.py)
    in_flight_reads = prepare_in_flight(func)
    check_minimum(func, tgt, budget)
    unpacks_to_readers(func)
    split_ties(func)
    refuse_unkept_claims(func, in_flight_reads)
    allowed = {f: budget.allowed(f) for f in FILES}
    limits = {f: len(allowed[f]) for f in FILES}
    spill_files = set(SPILLABLE_FILES)
    attempts = 0
    # block arguments and edge operands can only be spilled as memory phis
    # (phi_spill.py): done first, where a block entry or branch needs more
    # registers than the file has
    spilled = spill_phis(func, limits, spill_files, smem)
    rematerialized = 0
    while True:
        attempts += 1
        ps = prespill(func, limits, spill_files, max_rounds=max_spill_rounds,
                      report=budget.limits, smem=smem, allowed=allowed, remat=remat,
                      pack=pack)
        spilled += ps.spilled
        rematerialized += ps.rematerialized
        lv = ps.liveness if ps.liveness is not None else Liveness(CFG.compute(func))
        try:
            asg: Assignment = assign(lv, allowed, record=RegFile.R)
            break
        except AssignFailure as e:
            if e.file not in spill_files:
                raise allocation_failure(
                    func, budget.limits.get(e.file, 0),
                    f"a {e.width}-register {e.file.value} value finds no aligned free slot "
                    f"in block #{e.block} and {e.file.value} values cannot be spilled",
                ) from None
            # the pressure fits the aligned slots at every point (prespill),
            # but the greedy walk fragmented them: spill the values holding
            # the cheapest slot the value could take -- spilling more, where
            # lowering the whole file's target could go below what one
            # instruction needs (issue 13: never fail at the minimum)
            freed = _free_a_slot(func, e, lv, spill_files, smem, pack)
            if freed:
                spilled += freed
                if attempts > max_spill_rounds + len(lv.numbering):
                    raise allocation_failure(
                        func, budget.limits.get(e.file, 0),
                        f"a {e.width}-register {e.file.value} value finds no aligned free "
                        f"slot in block #{e.block} after {attempts} attempts",
                    ) from None
                continue
            if attempts > max_spill_rounds or limits[e.file] - e.width < e.width:
                raise allocation_failure(
                    func, budget.limits.get(e.file, 0),
                    f"a {e.width}-register {e.file.value} value finds no aligned free slot "
                    f"in block #{e.block}",
                ) from None
            limits[e.file] -= e.width

    if rematerialized:
        remarks.append(remat_remark(rematerialized))
    # ---- tightening: fewer R registers than the greedy peak, if any exist ----
    pressure = RegisterPressure(lv).max.get(RegFile.R, 0)
    found = tighten(lv, allowed[RegFile.R], asg, pressure, search_budget)
    func.attributes["ori.r_assign_optimal"] = IntegerAttr(int(found.optimal), i32)
    func.attributes["ori.r_pressure_bound"] = IntegerAttr(
        found.pressure_bound + hidden_regs(tgt) if found.pressure_bound else 0, i32
    )
    if found.peak < found.greedy_peak:
        remarks.append(
            f"exact search: R{found.peak - 1} is the highest register instead of "
            f"R{found.greedy_peak - 1} ({found.nodes} candidates tried"
            + (", proven minimal)" if found.optimal else ")")
        )

    # ---- commit: retype ----
    num = lv.numbering
    for i, v in enumerate(num.values):
        t = v.type
        assert isinstance(t, OriRegisterType)
        v._type = type(t).physical(asg.reg[i])  # type: ignore[attr-defined]
    if not func.is_kernel:
        ft = func.function_type
        func.function_type = FunctionType.from_lists(
            [a.type for a in func.entry_block.args], list(ft.outputs.data)
        )
    # ---- edge copies ----
    live_in: dict[Block, list[SSAValue]] = {
        blk: lv.live_in_values(b) for b, blk in enumerate(lv.cfg.blocks)
    }
    copies = lower_edge_copies(func, live_in, allowed, asg.peak)
    reuse_reloads(func)  # reloads of a value its register still holds
    # no instruction touches an HGMMA's registers before its wait (inflight.py)
    remarks.extend(check_after_assignment(func, in_flight_reads))
    # ---- frame and figures ----
    num_regs, frame, stores, loads, spill_area = record_figures(
        func, tgt, budget, asg.peak.get(RegFile.R, 0), smem, spill_base, remarks
    )
    for r in remarks:
        emit_remark(func.sym_name.data, r, pass_name="ori-regalloc")
    return FunctionResult(num_regs, frame, stores, loads, attempts, spilled, copies,
                          budget.warnings, spill_area.smem_bytes, remarks)


def _free_a_slot(func: FuncOp, e: AssignFailure, lv: Liveness, files: set[RegFile],
                 smem: SmemSpill | None, pack: bool = True) -> int:
    """Spill the values occupying one aligned slot of ``e`` (the slot whose
    occupants are all spillable and fewest registers wide).  Where every
    slot holds a value that cannot be spilled (a reload of the same
    instruction that took the pair's half because the other registers were
    taken), spill every spillable value holding a register there instead:
    the reload then finds the registers that keep the pair free.  Returns
    the number of values spilled (0: nothing there can be spilled).  Each
    call spills at least one value that was not spilled before, so the
    retries end."""
    num = lv.numbering
    ok = spillable_values(num, files)
    best: list[int] | None = None
    for occ in e.blockers:
        if occ and all(ok[v] for v in occ):
            cost = sum(int(num.width[v]) for v in occ)
            if best is None or cost < sum(int(num.width[v]) for v in best):
                best = occ
    if best is None:
        best = [v for v in e.held if ok[v]]
    if not best:
        return 0
    tag = next_tag(func)
    for v in best:
        spill_value(num.values[v], tag, smem)
        tag += 1
    if pack:
        pack_predicate_homes(func)
    return len(best)


__all__ = ["allocate_function_ssa"]
