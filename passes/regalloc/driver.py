"""``ori-regalloc``: the per-function driver (seed 000 "Entry Point:
sub_9721C0" and "Per-Class Driver: sub_971A90").

For each function (callees before callers, for the static frame layout of
:mod:`.spill`):

1. tied prior values that outlive their guarded instruction are copied
   (:func:`.copies.split_ties`);
2. **NOSPILL** trials (``num-non-spill-trials``, knob
   RegAllocNumNonSpillTrials; default 2): liveness is rebuilt, units are
   formed (:mod:`.coalesce`; the first trial coalesces when ``coalescing``
   is set, later ones do not, so a coalescing that costs registers is
   retried without), and every file is allocated in class order
   (:data:`.classes.FILE_ORDER`) -- 6-list ordering (:mod:`.ordering`), then
   the fat-point core (:mod:`.fatpoint`);
3. **SPILL** retries (at most ``max-spill-rounds``): the units that failed
   are spilled to local memory (:mod:`.spill`).  A failed unit that cannot
   be spilled (a reload, a predicate, ...) instead spills the cheapest
   spillable unit live where it needed a register.  When nothing is left to
   spill the pass fails with the seed's error ``Register allocation failed
   with register count of 'N'``;
4. values are retyped to their physical registers, edge parallel copies are
   lowered (:mod:`.copies`), spill slots compacted, and the figures recorded
   on the function: ``ori.max_regs`` (the R budget), ``ori.num_regs``,
   ``ori.stack_frame``, ``ori.spill_stores``, ``ori.spill_loads``.

Register count (``ori.num_regs``, what ``Used N registers`` prints): the
highest R register used + 1, counting the reserved stack pointer R1, and at
least 2 -- the way ``ptxas -v`` reports it (see ``passes/stats.py``).

A module that is already allocated (every value has a physical register)
is only checked; a partly allocated one is a diagnostic.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.liveness import FILES
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from passes.regalloc.budget import MAX_REGS_ATTR, Budget, compute_budget, function_target
from passes.regalloc.classes import FILE_ORDER, Unit, value_costs
from passes.regalloc.coalesce import build_units
from passes.regalloc.copies import lower_edge_copies, split_ties
from passes.regalloc.fatpoint import fatpoint_allocate
from passes.regalloc.ordering import assignment_order
from passes.regalloc.points import LiveMatrix
from passes.regalloc.spill import compact_slots, next_tag, spill_figures, spill_value

FILE_SIZE = {RegFile.R: 256, RegFile.UR: 64, RegFile.P: 8, RegFile.UP: 8, RegFile.B: 16}


@dataclass
class FunctionResult:
    num_regs: int
    stack_frame: int
    spill_stores: int
    spill_loads: int
    attempts: int
    spilled_values: int
    copies: int
    warnings: list[str]


def _fail(func: FuncOp, count: int, why: str) -> PassFailedException:
    return PassFailedException(
        f"@{func.sym_name.data}: Register allocation failed with register count of "
        f"'{count}' ({why})"
    )


def _allocated_state(func: FuncOp) -> str:
    seen = {"phys": 0, "virt": 0}
    for op in func.walk():
        vals: list[SSAValue] = list(op.results)
        for r in op.regions:
            for b in r.blocks:
                vals.extend(b.args)
        for v in vals:
            t = v.type
            if isinstance(t, OriRegisterType):
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
) -> FunctionResult:
    tgt = function_target(func, target)
    budget: Budget = compute_budget(func, tgt, max_regs)
    rlimit = budget.limits[RegFile.R]
    split_ties(func)
    attempts = 0
    spilled = 0
    trial = 0
    while True:
        attempts += 1
        spill_retry = trial >= num_non_spill_trials
        lm = LiveMatrix(func)
        cost, spillable = value_costs(lm, spill_cost, loop_iterations)
        units, unit_of = build_units(
            lm, cost, spillable, loop_iterations, coalescing and trial == 0
        )
        assignment: dict[int, int] = {}
        failed: list[Unit] = []
        peaks: dict[RegFile, int] = {}
        occ_of: dict[RegFile, np.ndarray] = {}
        for f in FILE_ORDER:
            fu = [u for u in units if u.file is f]
            if not fu:
                continue
            allowed = budget.allowed(f)
            # register pressure per point for this file
            cols = [v for u in fu for v in u.values]
            pressure = (lm.live[:, cols] * lm.numbering.width[cols]).sum(axis=1)
            order = assignment_order(fu, pressure, len(allowed), spill_retry)
            res = fatpoint_allocate(order, allowed, len(lm.points), threshold, FILE_SIZE[f])
            assignment.update(res.assignment)
            failed.extend(res.failed)
            peaks[f] = res.peak
            assert res.occupancy is not None
            occ_of[f] = res.occupancy
        if not failed:
            break
        trial += 1
        if trial < num_non_spill_trials:
            continue
        if attempts > num_non_spill_trials + max_spill_rounds:
            raise _fail(func, rlimit, f"no progress after {max_spill_rounds} spill rounds")
        to_spill: set[int] = set()
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
                what = "predicate" if u.file.is_predicate else f"{u.file.value}"
                raise _fail(
                    func,
                    budget.limits[u.file] if u.file is not RegFile.R else rlimit,
                    f"a {what} value needs a register at a point where every allowed "
                    "register is taken and nothing there can be spilled",
                )
            to_spill.update(v for v in best.values if spillable[v])
        if not to_spill:
            raise _fail(func, rlimit, "nothing left to spill")
        tag = next_tag(func)
        vals = lm.numbering.values
        for v in sorted(to_spill):
            spill_value(vals[v], tag)
            tag += 1
            spilled += 1
        trial = max(trial, num_non_spill_trials)

    # ---- commit: retype ----
    num = lm.numbering
    for i, v in enumerate(num.values):
        base = assignment[int(unit_of[i])]
        t = v.type
        assert isinstance(t, OriRegisterType)
        v._type = type(t).physical(base)  # type: ignore[attr-defined]
    if not func.is_kernel:
        from xdsl.dialects.builtin import FunctionType

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
    # ---- frame ----
    local = func.attributes.get("ori.local_bytes")
    local_bytes = local.value.data if isinstance(local, IntegerAttr) else 0
    base = max(-(-local_bytes // 16) * 16, spill_base)
    area = compact_slots(func, base)
    frame = base + area if area else local_bytes
    stores, loads = spill_figures(func)
    used_r = peaks.get(RegFile.R, 0)
    reserved_top = max(budget.reserved.get(RegFile.R, frozenset()), default=-1) + 1
    num_regs = max(used_r, reserved_top, 2)
    func.attributes[MAX_REGS_ATTR] = IntegerAttr(rlimit, i32)
    func.attributes["ori.num_regs"] = IntegerAttr(num_regs, i32)
    func.attributes["ori.stack_frame"] = IntegerAttr(-(-frame // 8) * 8 if frame else 0, i32)
    func.attributes["ori.spill_stores"] = IntegerAttr(stores, i32)
    func.attributes["ori.spill_loads"] = IntegerAttr(loads, i32)
    return FunctionResult(num_regs, frame, stores, loads, attempts, spilled, copies,
                          budget.warnings)


def _call_order(funcs: list[FuncOp]) -> tuple[list[FuncOp], dict[str, set[str]]]:
    by_name = {f.sym_name.data: f for f in funcs}
    callees: dict[str, set[str]] = {}
    for f in funcs:
        callees[f.sym_name.data] = {
            op.callee.root_reference.data for op in f.walk() if isinstance(op, CallOp)
        } & set(by_name)
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
    """The fat-point register allocator (see the package docstring)."""

    name = "ori-regalloc"
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    max_regs: int | None = None
    """Like ``ptxas --maxrregcount``."""
    target: str | None = None
    coalescing: bool = True
    """RegAllocCoalescing (knob 618)."""
    threshold_for_discard_conflicts: int = 50
    """RegAllocThresholdForDiscardConflicts (knob 684)."""
    num_non_spill_trials: int = 2
    """RegAllocNumNonSpillTrials (knob 639)."""
    spill_cost: float = 15.0
    """Base spill cost per definition/use (seed 000)."""
    estimated_loop_iterations: float = 10.0
    """RegAllocEstimatedLoopIterations (knob 623): block frequency base per loop level."""
    max_spill_rounds: int = 64
    stats: bool = False
    """Print ``ptxas -v``-style figures to stderr (as ``ori-stats`` does)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
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
                from passes.regalloc.checker import check_function

                problems = check_function(f, self.target, self.max_regs)
                if problems:
                    raise PassFailedException(
                        "already-allocated input is inconsistent:\n  " + "\n  ".join(problems)
                    )
                sf = f.attributes.get("ori.stack_frame")
                tops[name] = sf.value.data if isinstance(sf, IntegerAttr) else 0
                continue
            recursive = name in _reaches(name, callees)
            base = max((tops.get(c, 0) for c in callees[name]), default=0)
            res = allocate_function(
                f,
                target=self.target,
                max_regs=self.max_regs,
                coalescing=self.coalescing,
                threshold=self.threshold_for_discard_conflicts,
                num_non_spill_trials=max(1, self.num_non_spill_trials),
                spill_cost=self.spill_cost,
                loop_iterations=self.estimated_loop_iterations,
                max_spill_rounds=self.max_spill_rounds,
                spill_base=base,
            )
            if recursive and res.spill_stores:
                raise PassFailedException(
                    f"@{name}: spilling in a recursive function is not supported (spill slots "
                    "are laid out statically)"
                )
            tops[name] = max(res.stack_frame, base)
        if self.stats:
            from passes.stats import print_stats

            print_stats(op, sys.stderr, self.target)


__all__ = ["FunctionResult", "RegAllocPass", "allocate_function"]
