"""``ori-remat-block``: machine-level block rematerialization, ptxas's
``nv-remat-block`` / "Do Remat Machine Block" (seed 002 "Machine-Level Block
Rematerialization (nv-remat-block)", its "Machine-Level Knobs" table and
"Diagnostic Strings").

Where pressure in a block exceeds the target, values live across it whose
definition is cheap are recomputed where they are read instead of being
kept in a register: the seed's iterative pull-in -- measure max live per
block, enumerate the live registers of the over-target blocks, classify
them (MULTIDEF, opcode exclusions, operand safety, recursive pullability to
depth 50, second chance), cost them (double-wide values count 2), select
the cheapest greedily, clone, and iterate up to ``nv-remat-max-times``.

The modules, one job each:

* :mod:`.knobs` -- the validated knobs and the bits of ``nv-remat-block``
  (the seed names no bit: ori's reading is in that module);
* :mod:`.maxlive` -- max live per block and its peak point (sub_2186590);
* :mod:`.candidates` -- the def-level checks, where copies go and the
  recursive operand check (sub_217E810, sub_2181550, second chance);
* :mod:`.search` -- the over-target blocks, their candidates in the
  live-out or the internal view, the second-chance loop, the relief;
* :mod:`.cost` -- clone cost limits and the greedy selection;
* :mod:`.execute` -- cloning, rewriting, dead originals, undo (and a
  product merged into the add that reads it);
* :mod:`.exits` -- loop-exit edges split before the rounds, folded back
  where no copy went (ori's);
* :mod:`.driver` -- the rounds and the re-measurement that keeps max live
  from ever rising.

**In ori.**  ptxas runs the pass on machine IR "after instruction selection
and register allocation decisions"; ori's instructions are SASS opcodes on
virtual registers from the start, so the pass runs on SSA Ori IR before
``ori-regalloc`` (a function whose registers are already allocated is left
unchanged with a remark).  "Max live" is the R-file count of
``RegisterPressure`` (a 64-bit value counts 2, a 128-bit one 4); the pass
pulls R values only, and checks that no file's maximum rises.

**Target.**  The register count the pass reduces max live to: the
allocatable R registers (``passes.regalloc.budget.compute_budget``: the
limit less R1 (R0-R3 under ``ori-abi{reserve-r0-r3}``) and the two ptxas
withholds) where the function has a limit -- ``max-regs`` (ptxas ``--maxrregcount``, with
``override-directive-values`` as ``ori-ptxas`` passes them), ``.maxnreg``,
``.maxntid`` / ``.reqntid`` -- else ``nv-remat-default-max-reg`` (70).

**Occupancy target** (ori, ``remat-for-occ``, default 120; 0 restores the
seed's target).  The seed's 70 leaves every kernel below 70 registers
alone, yet the warps a kernel keeps resident change at every allocation
step below it: ptxas ends wmma_f16_f16_shared at 32 registers where ori's
max live was 37 (benchmarks/codesize_vs_ptxas.py).  A kernel therefore
aims, like ``ori-remat``'s register target
(:func:`passes.remat.target.occupancy_target`, seed 002's IR-level
``remat-for-occ``), at the register count that gives ``remat-for-occ``
percent of the warps its count allows now -- the count being max live + R1
+ the two withheld registers; the GPR homes the allocator will give the
predicates beyond P0-P6, seven to a register, come off the max live that
reaches it (:func:`.maxlive.predicate_homes`: CUB's select sweep on sm_90
keeps 36 predicates live and ended at 60 registers, ptxas 56, until its
target counted them; counted into the present count instead, they moved
Triton's attention kernel to an easier goal, 85 -> 95 registers) -- when
that is below the target above (the
allocatable registers of a ``.maxntid`` kernel are a cap, not a goal:
CUB's select sweep, 128 threads, went from 74 registers to 61 with it,
ptxas 64).  Not for a kernel that makes calls: its count is set by the
registers its calls overwrite, which max live does not see (the CUB
histogram sweeps gained 66 and 89 loop instructions for no register) --
unless each is a call of a CUDA device runtime function (``malloc``,
``free``, ``vprintf`` ...; :func:`passes.regalloc.abi.runtime_calls_only`),
which overwrites R0-R15 alone: a value across it takes a register above
R15 (R2 aside), so max live counts, at each call, the register the values
live across it need (:mod:`.maxlive`, "Calls of device-runtime
functions"), and the pass recomputes values after the call where that is
the peak (Thrust's seq sorts, which malloc a buffer and free it: 61 -> 56
registers on sm_80, ptxas's count, and 98 -> 84, ptxas's too; a loop
calling printf: 41 -> 40 registers, 40 -> 48 warps, ptxas 38).
Where the rounds stop above that target and the max live they reached
allows no more resident warps than the one they started from, the copies
are undone (the function is restored and run against the seed's target
alone), with a remark: they would cost instructions, in loops on every
iteration, for no warp (four CUB/Thrust kernels of
benchmarks/codesize_vs_ptxas.py, 142 instructions, their register counts
still at or below ptxas's).
Where they stop above it but do gain warps, the pass runs again from its
input against the highest max live that gives the warps reached (counted
without GPR homes, which the allocator's definition sinking mostly avoids)
and keeps that run when it reaches them with fewer copies: the rounds aimed
past it recomputed values that buy no warp (Triton's matmul_m64 on sm_80:
the goal 51 was missed at 59, which gives 32 warps as 61 does; 15 copies
became 8, a five-instruction shared-memory address no longer recomputed in
the K loop: 78 -> 71 loop instructions, 62 registers, ptxas 64).
The pass runs after ``ori-uniform`` (passes/pipeline.py), so max live is
that of the R file the allocator fills: before it, a warp-uniform value
still counted and could be recomputed for nothing (``cp_async``'s double
buffer went from 30 to 36 registers when such an ``SHR`` was recomputed in
two blocks and then stayed in the R file).

**Knobs** (seed "Machine-Level Knobs"), options with the seed's name and
default: ``nv-remat-block`` (14), ``nv-remat-max-times`` (10),
``nv-remat-block-single-cost`` (10), ``nv-remat-block-map-size-limit`` (6),
``nv-remat-block-max-cost`` (100), ``nv-remat-block-liveout-min-percentage``
(70), ``nv-remat-block-loop-cost-factor`` (20), ``nv-remat-default-max-reg``
(70), ``nv-remat-block-load-cost`` (10), ``nv-dump-remat-block`` (false),
``nv-remat-check-internal-live`` (false), ``no-mi-remat`` (empty),
``load-remat`` (true); and the IR-level ``dump-remat`` (0) for the dump
levels.  Not modelled:

* ``nv-remat-threshold-for-spec-reg`` (20): special-register reads (S2R)
  are not ``REMATERIALIZABLE`` in ori's op facts, so there is nothing for a
  threshold to gate (adding the fact to ``S2ROp`` would give it meaning);
* ``max-reg-kind`` (0): the seed gives the knob's default only, not what
  its kinds are; ori's target comes from the function's limit (above);
* ``vasp-fix1`` (false): a fix for ptxas's volatile / ADDSP handling; ori
  has no ADDSP, and volatile values (clock reads) are excluded by their
  op facts anyway;
* the sm_62-only exclusions of opcodes 380-396 ("Architecture-Specific
  Behavior"): the seed does not say which instructions they are.

**Output.**  ``dump-remat=N`` prints the seed's diagnostic strings with ori's
names, ``ori-remat-block: @f: ...`` on stderr: level 1 ``Max-Live-Function(
<blocks>) = <max live>`` and ``Really Final Pull-in: <count> (<total
cost>)`` per round; level 2 per over-target block ``^bbN: Max-Live = M,
live-out = <count>`` and ``^bbN: Pullable: <count>``, ``After pre-check,
<N> good candidates, <N> given second-chance``, ``ADD <N> candidates from
second-chance``, ``Total Pullable before considering cost: <count>``;
level 3 every rejection (``%v: MULTIDEF``, ``%v: not pullable: ...``,
``%v: not pulled: cost ...``); level 4 every candidate's copies and costs.
``nv-dump-remat-block=true`` is level 4.  A function named in
``no-mi-remat`` prints ``Skip machine-instruction rematerialization on
<name>``.  ``remarks=true``: one line per rematerialized value;
``stats=true``: max live before and after per function.

Input invariants: SSA ``ori.func`` bodies with virtual registers.  Blocks
and edges change only where a loop-exit edge keeps the block of its own
that received a copy (:mod:`.exits`); the pass preserves no CFG analysis.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.contract import (
    Requirement,
    emit_line,
    emit_remark,
    emit_stats,
    flush_diagnostics,
    option,
    require,
    violation,
)
from passes.regalloc.abi import runtime_calls_only
from passes.regalloc.budget import (
    compute_budget,
    directive_limit,
    function_target,
    hidden_regs,
    uses_abi,
)
from passes.remat.target import block_threads, occupancy_target
from passes.remat_block.driver import Report, remat_function
from passes.remat_block.knobs import ALL_MODES, Knobs
from passes.remat_block.maxlive import (
    across_call_registers,
    compute_max_live,
    predicate_homes,
)
from targets.descriptor import SMTarget
from targets.errors import TargetError
from targets.occupancy import kernel_warps, max_regs_for_warps

_NAME = re.compile(r"^[A-Za-z_$%][A-Za-z0-9_$.]*$")


def parse_function_list(text: str) -> list[str]:
    """``"f,g"`` -> ``["f", "g"]``; raises ValueError when malformed."""
    if not text.strip():
        return []
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if not _NAME.match(n):
            raise ValueError(f"malformed no-mi-remat '{text}': expected comma-separated function "
                             f"names, got {n!r}")
    return names


@dataclass(frozen=True)
class RematBlockPass(ModulePass):
    """Machine-level block rematerialization (seed 002 nv-remat-block): recompute cheap values where they are read."""

    name = "ori-remat-block"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # a loop-exit edge may keep the block exits.py split it with (a copy
    # went there): the CFG and what is computed from it change
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    nv_remat_block: int = option(
        14, "nv-remat-block: bitmask of remat modes, 1 local split after a block's peak, 2 "
        "pull-in of live registers, 4 recursive pullability, 8 second chance; 0 = off")
    nv_remat_max_times: int = option(10, "nv-remat-max-times: max outer loop iterations")
    nv_remat_block_single_cost: int = option(
        10, "nv-remat-block-single-cost: max cost of one copy, per register freed")
    nv_remat_block_map_size_limit: int = option(
        6, "nv-remat-block-map-size-limit: max instructions one copy recomputes")
    nv_remat_block_max_cost: int = option(
        100, "nv-remat-block-max-cost: max total clone cost (loop factors included) per "
        "register freed")
    nv_remat_block_liveout_min_percentage: int = option(
        70, "nv-remat-block-liveout-min-percentage: a block whose live-out registers are at "
        "least this percent of its max live is relieved through its live-out set; below, "
        "through the values live at its peak")
    nv_remat_block_loop_cost_factor: int = option(
        20, "nv-remat-block-loop-cost-factor: cost multiplier per loop level a copy is "
        "placed deeper than the original")
    nv_remat_default_max_reg: int = option(
        70, "nv-remat-default-max-reg: the max-live target of a function without a register "
        "limit (max-regs, .maxnreg, .maxntid/.reqntid)")
    remat_for_occ: int = option(
        120, "ori: a kernel that makes no call but of device-runtime functions (malloc, "
        "free, vprintf) aims at the count that reaches this percent "
        "of the warps its max live allows (as ori-remat's remat-for-occ) when that is below "
        "the limit's or nv-remat-default-max-reg's target; 0 = those targets alone")
    nv_remat_block_load_cost: int = option(
        10, "nv-remat-block-load-cost: clone cost of a constant-bank load")
    nv_dump_remat_block: bool = option(
        False, "nv-dump-remat-block: print every diagnostic (dump-remat=4)")
    nv_remat_check_internal_live: bool = option(
        False, "nv-remat-check-internal-live: judge every over-target block at its internal "
        "peak, never by its live-out set")
    no_mi_remat: str = option(
        "", "no-mi-remat: comma-separated names of functions to leave alone")
    load_remat: bool = option(
        True, "load-remat: constant-bank loads (LDC) may be recomputed")
    dump_remat: int = option(
        0, "dump-remat: diagnostic level 0-4 (1 max live and selection per round, 2 per "
        "block and candidate counts, 3 rejections, 4 costs and copies)")
    max_regs: int | None = option(
        None, "ori: ptxas --maxrregcount, the R limit whose allocatable registers are the "
        "target (as ori-ptxas passes it to ori-regalloc)")
    override_directive_values: bool = option(
        False, "ori: ptxas --override-directive-values: max-regs overrides .maxnreg, "
        ".maxntid, .reqntid")
    target: str | None = option(
        None, "ori: SM target for the register limit (unset: the module's .target)")
    remarks: bool = option(
        False, "ori: print one line per rematerialized value to stderr")
    stats: bool = option(
        False, "ori: print max live before and after per function to stderr")

    def knobs(self) -> Knobs:
        """The validated knobs; one diagnostic for a bad value."""
        def bad(msg: str) -> PassFailedException:
            return PassFailedException(f"{self.name}: {msg}")

        if not 0 <= self.nv_remat_block <= ALL_MODES:
            raise bad(f"nv-remat-block must be a bitmask in 0..15, got {self.nv_remat_block}")
        for opt, value, low in (
                ("nv-remat-max-times", self.nv_remat_max_times, 0),
                ("nv-remat-block-single-cost", self.nv_remat_block_single_cost, 0),
                ("nv-remat-block-map-size-limit", self.nv_remat_block_map_size_limit, 1),
                ("nv-remat-block-max-cost", self.nv_remat_block_max_cost, 0),
                ("nv-remat-block-loop-cost-factor", self.nv_remat_block_loop_cost_factor, 1),
                ("nv-remat-default-max-reg", self.nv_remat_default_max_reg, 1),
            ("remat-for-occ", self.remat_for_occ, 0),
                ("nv-remat-block-load-cost", self.nv_remat_block_load_cost, 0),
                ("dump-remat", self.dump_remat, 0)):
            if value < low:
                raise bad(f"{opt} must be at least {low}, got {value}")
        if not 0 <= self.nv_remat_block_liveout_min_percentage <= 100:
            raise bad("nv-remat-block-liveout-min-percentage must be in 0..100, got "
                      f"{self.nv_remat_block_liveout_min_percentage}")
        return Knobs(
            mode=self.nv_remat_block, max_times=self.nv_remat_max_times,
            single_cost=self.nv_remat_block_single_cost,
            map_size_limit=self.nv_remat_block_map_size_limit,
            max_cost=self.nv_remat_block_max_cost,
            liveout_min_percentage=self.nv_remat_block_liveout_min_percentage,
            loop_cost_factor=self.nv_remat_block_loop_cost_factor,
            default_max_reg=self.nv_remat_default_max_reg,
            load_cost=self.nv_remat_block_load_cost,
            check_internal_live=self.nv_remat_check_internal_live,
            load_remat=self.load_remat,
            dump=4 if self.nv_dump_remat_block else min(self.dump_remat, 4))

    def target_of(self, func: FuncOp) -> int:
        """The max-live target of ``func`` (module docstring, "Target" and
        "Occupancy target")."""
        tgt = function_target(func, self.target)
        if self.max_regs is None and directive_limit(func, tgt) is None:
            base = self.nv_remat_default_max_reg
        else:
            try:
                budget = compute_budget(func, tgt, self.max_regs, quiet=True,
                                        override=self.override_directive_values)
            except PassFailedException as e:
                raise PassFailedException(f"{self.name}: {e}") from None
            base = len(budget.allowed(RegFile.R))
        occ = self._occupancy_target(func, tgt)
        return occ if occ is not None and occ < base else base

    def _warps_at(self, func: FuncOp, max_live: int) -> int | None:
        """The resident warps per SM of the register count a max live of
        ``max_live`` (R file) leads to, or None without a target."""
        tgt = function_target(func, self.target)
        if not isinstance(tgt, SMTarget):
            return None
        live = Liveness(CFG.compute(func))
        regs = max_live + 1 + hidden_regs(tgt) + predicate_homes(live, tgt)
        try:
            return kernel_warps(tgt, regs, block_threads(func))
        except TargetError:
            return None

    @staticmethod
    def _occupancy_bound(func: FuncOp) -> bool:
        """Whether ``func``'s warps follow its max live: a kernel that calls
        is held up by what its calls overwrite, which max live does not
        see -- except device-runtime calls, which leave R16 up alone."""
        return func.is_kernel and (not uses_abi(func) or runtime_calls_only(func))

    def _occupancy_target(self, func: FuncOp, tgt: object) -> int | None:
        """The max live at which a kernel reaches ``remat-for-occ`` percent of
        the warps its max live allows now, or None (no gain, not a kernel,
        ``remat-for-occ=0``).  A register count is max live + R1 + the
        registers ptxas withholds (``regalloc.budget.register_count``); the
        homes of the predicates the P file cannot hold (``predicate_homes``)
        come off the result."""
        if not self.remat_for_occ or not self._occupancy_bound(func):
            return None
        live = Liveness(CFG.compute(func))
        over = 1 + hidden_regs(tgt)
        ml = compute_max_live(live, across_call_registers(func, tgt)).max
        found = occupancy_target(func, ml + over, self.remat_for_occ,
                                 tgt if isinstance(tgt, SMTarget) else None)
        if found is None or found[0] >= ml + over:
            return None
        # the goal stays the warps of max live's count; the homes come off
        # the max live that reaches it
        return found[0] - over - predicate_homes(live, tgt)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(op)

    def run(self, op: ModuleOp, targets: dict[str, int] | None = None) -> dict[str, Report]:
        """The pass on ``op``; returns the report of every kernel whose
        copies were aimed at an occupancy goal and kept (``Report.aimed``),
        and of every kernel whose warps follow its max live that stopped
        short of its target or of an occupancy goal it gave up
        (``Report.goal``; ``ori-ptxas`` retunes those against their
        allocation: passes/occupancy_retune.py).
        ``targets``: function name -> a max-live target to use instead of
        :meth:`target_of` (no occupancy rule, undo or rerun then)."""
        knobs = self.knobs()
        try:
            skip = parse_function_list(self.no_mi_remat)
        except ValueError as e:
            raise PassFailedException(f"{self.name}: {e}") from None
        require(self, op)
        funcs = [f for f in functions_of(op) if isinstance(f, FuncOp)]
        names = {f.sym_name.data for f in funcs}
        for n in skip:
            if n not in names:
                emit_line(f"{self.name}: warning: no-mi-remat names no function of the "
                          f"module: {n}")
        retunable: dict[str, Report] = {}
        for func in funcs:
            fname = func.sym_name.data
            if fname in skip:
                emit_line(f"{self.name}: Skip machine-instruction rematerialization on {fname}")
                continue
            if knobs.mode == 0:
                continue
            if violation(Requirement.UNALLOCATED, func) is not None:
                emit_remark(fname, "not rematerialized: registers are already allocated "
                            "(ori-remat-block runs before ori-regalloc)")
                continue
            across = across_call_registers(func, function_target(func, self.target))
            if targets is not None and fname in targets:
                rep = remat_function(func, knobs, targets[fname], across)
                self.report(fname, rep)
                continue
            target = self.target_of(func)
            occupancy_only = target < self._seed_target(func)
            backup = func.clone() if occupancy_only else None
            warps0 = self._warps_at(func, compute_max_live(
                Liveness(CFG.compute(func)), across).max) if occupancy_only else None
            rep = remat_function(func, knobs, target, across)
            kept = occupancy_only
            if backup is not None and rep.after > target and warps0 is not None:
                warps = self._warps_at(func, rep.after)
                if warps is not None and warps <= warps0:
                    # the occupancy goal was not reached and no warp was
                    # gained on the way: the copies would cost instructions
                    # (in loops, every iteration) for nothing
                    func = self._restore(func, backup)
                    why = (f"occupancy target {target} not reached: max live {rep.after} "
                           f"allows {warps} resident warps, as {rep.before} did")
                    first = rep.log
                    rep = remat_function(func, knobs, self._seed_target(func), across)
                    rep.log = [*first, f"{why}: undone", *rep.log]
                    rep.remarks = [f"copies for occupancy undone ({why})", *rep.remarks]
                    rep.missed = target
                    kept = False
                elif warps is not None:
                    func, rep = self._loosen(func, backup, knobs, rep, warps, across)
            if kept and rep.copies:
                rep.aimed = True
                retunable[fname] = rep
            elif rep.goal < rep.after and self.remat_for_occ and self._occupancy_bound(func):
                retunable[fname] = rep
            self.report(fname, rep)
        flush_diagnostics()
        return retunable

    def _loosen(self, func: FuncOp, backup: FuncOp, knobs: Knobs, rep: Report,
                warps: int, across: Sequence[int] | None) -> tuple[FuncOp, Report]:
        """The occupancy goal was missed but ``warps`` resident warps were
        gained: run again from the input against the highest max live that
        still gives those warps, and keep that run when it reaches them with
        fewer copies.  The rounds aimed past it recomputed values that buy
        no warp (module docstring, "Occupancy target")."""
        tgt = function_target(backup, self.target)
        if not isinstance(tgt, SMTarget):
            return func, rep
        over = 1 + hidden_regs(tgt)
        threads = block_threads(backup)
        try:
            # counted without GPR homes: the allocator's definition sinking
            # keeps most predicates in the P file, so the first run often
            # has more warps than the count with homes says, and loosening
            # to that count's boundary gave them up (Triton's matmul_bf16 on
            # sm_90a: 59 -> 66 registers, ptxas 64)
            warps = max(warps, kernel_warps(tgt, rep.after + over, threads))
            loose = min(max_regs_for_warps(tgt, warps, threads) - over,
                        self._seed_target(backup))
        except TargetError:
            return func, rep
        if loose <= rep.after:
            return func, rep
        trial = backup.clone()
        again = remat_function(trial, knobs, loose, across)
        if again.after > loose or again.copies >= rep.copies:
            trial.erase(safe_erase=False)
            return func, rep
        why = (f"occupancy target {rep.target} not reached: aimed at max live {loose} instead, "
               f"the highest that gives the {warps} resident warps reached")
        again.log = [*rep.log, f"{why}: rerun", *again.log]
        again.remarks = [why, *again.remarks]
        return self._restore(func, trial), again

    def _seed_target(self, func: FuncOp) -> int:
        """The target without the occupancy rule (``remat-for-occ=0``)."""
        return replace(self, remat_for_occ=0).target_of(func)

    @staticmethod
    def _restore(func: FuncOp, backup: FuncOp) -> FuncOp:
        """Put ``backup`` (a clone of ``func`` before the pass) in its place."""
        parent = func.parent_block()
        assert parent is not None
        parent.insert_op_before(backup, func)
        func.detach()
        func.erase(safe_erase=False)
        return backup

    def report(self, fname: str, rep: Report) -> None:
        for line in rep.log:
            emit_stats(self.name, f"@{fname}: {line}")
        if self.remarks:
            for line in rep.remarks:
                emit_remark(fname, line)
        if self.stats:
            emit_stats(self.name, f"@{fname}: max live {rep.before} -> {rep.after} (target "
                       f"{rep.target}) [rematerialized values={rep.values}] "
                       f"[instructions cloned={rep.copies}] [rounds={rep.rounds}]")


__all__ = ["RematBlockPass", "parse_function_list"]
