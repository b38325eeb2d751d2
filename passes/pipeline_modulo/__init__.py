"""``ori-pipeline``: modulo software pipelining of single-block loops (seed 001,
phase 24 *OriPipelining*).

Contract
--------
Input: SSA ``ori.func`` bodies with virtual registers, after unrolling
(phase 22): the loops it left -- partially unrolled or not unrolled -- in
the rotated (do-while) form of ``ori-loop-simplify`` with a dedicated
preheader.  Output: every loop that passes the feasibility filter and
schedules is replaced by a prologue, a kernel loop that overlaps ``stages``
iterations with one new iteration every ``II`` cycles, an epilogue, and
drains for trip counts below the stage count (codegen.py); every other loop
is left unchanged.  The results, the memory accesses and their order per
address are those of the original loop for every trip count (0 is the
preheader guard's business, as before).  Phase 24's other half, the post-RA
SoftwarePipeline scheduler variant, is not ori's (no post-RA scheduler).

Algorithm (seed 001 "Software Pipelining Algorithm")
----------------------------------------------------
1. *Latency annotation*: each op's latency class and pipe are its op class's
   ``LATENCY`` / ``PIPE``; the SM target turns them into stall cycles (the
   stall-cycle calculator with its 32/64-cycle caps) and a ResMII pipe
   (PipeAssignment), ``targets.SMTarget.stall_cycles`` / ``issue_pipe``.
2. *Feasibility filter* (CheckPipelineFeasibility): a loop of one block whose
   branch goes back to it or to the exit; no barrier, no side effect other
   than an atomic's, no warp-collective or cross-lane op, no asynchronous
   protocol op, no volatile read (clock), no call; multi-output texture ops
   only with ``pipeline-multi-output-tex``; a ``nounroll`` loop only with
   ``ok-to-pipeline-no-unroll``.
3. *MII*: ResMII = ``ceil(max(ops on pipe / pipe width))`` with the target's
   7 widths; RecMII = the least II without a dependence cycle of positive
   ``latency - II x distance`` (register and memory recurrences, ddg.py);
   MII = max of both.
4. *Modulo scheduling*: Rau's iterative modulo scheduling (schedule.py), II
   from MII up to ``MII + max-ii-slack``, the exit test in stage 0; the
   first II whose schedule has at most ``max-stages`` stages wins (a 64-cycle
   global load at II 5 would take 14 stages).
5. *Code generation* (codegen.py) and ori's two gates, both measured on a
   pipelined copy of the loop alone (pressure_gate.py): a pipelined loop
   that raises the function's peak R pressure is put back
   (``reject-pressure-growth``; the seed's pressure knobs are unset by
   default and concern hoisting, see below), and so is one that adds more
   than ``max-code-growth`` SASS instructions (default no limit).  The seed
   gives phase 24 no profitability rule beyond ``PipelineMIOVQToInstRatio``
   (unset); ``ori-ptxas`` runs this pass with ``max-code-growth=0``
   because ptxas 13.0 was not seen to pipeline any loop (passes/pipeline.py).

Remarks (``remarks=true``), one per loop: ``pipelined: MII=4 (ResMII 2,
RecMII 4), II=4, stages=2`` or ``not pipelined: <why>``.

Not modelled
------------
* The GEMM pipeliner (sub_92C240, ``GemmPipelinerEnabled`` and its five
  depth/scoreboard knobs): ori has no TMA pipeline-depth model; WGMMA loops
  are rejected by the filter (asynchronous ops).
* The per-operand latency classes of the classifier (sub_91A0F0 returns a
  class per operand; ori's op classes declare one per op), hence the
  filter's "operands 0 and 1 differ in latency class" and operand-flag
  rejections, and the operand encoding rewrite.
* The constant folding of pipelined bodies (sub_921820, sub_9203A0): ori's
  general optimizer folds.
* ``PipelineHoistCondLimit``, ``PipelineHoistRRegPressureLimit``,
  ``PipelineHoistPRegPressureLimit``, ``PipelineSpecUsesInHeadOnly``: ori
  neither hoists into nor speculates in a pipelined body, so they have no
  meaning here.
* Warp-divergent trip counts need nothing: no iteration is started
  speculatively, each thread leaves through the drain of its own count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import LoopInfo, functions_of
from passes.contract import Requirement, emit_remark, flush_diagnostics, option, require
from passes.loop_utils import delete_dead
from passes.pipeline_modulo.analysis import LoopReport, analyze_loop
from passes.pipeline_modulo.codegen import Pipeliner, used_outside
from passes.pipeline_modulo.pressure_gate import FunctionPeaks, trial_region
from targets import TargetError, get_target


@dataclass
class FunctionReport:
    loops: list[LoopReport] = field(default_factory=list)


@dataclass(frozen=True)
class PipelinePass(ModulePass):
    """Modulo scheduling of single-block loops with prologue, kernel and epilogue (phase 24)."""

    name = "ori-pipeline"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    ok_to_pipeline_no_unroll: int = option(
        0, "OkToPipelineNoUnroll: pipeline a loop whose unrolling was suppressed (an "
        "ori.pragma \"nounroll\" loop); 0 = leave it")
    pipeline_multi_output_tex: int = option(
        0, "PipelineMultiOutputTex: pipeline loops with texture ops of several results; "
        "0 = reject them")
    pipeline_miovq_to_inst_ratio: float = option(
        -1.0, "PipelineMIOVQToInstRatio: pipeline a loop only when its share of MIO ops "
        "(LSU, TEX, XU pipes) is at least this; negative = unset (no check)")
    budget_ratio: int = option(
        6, "ori: iterative modulo scheduling's budget, placement steps per op and II "
        "(Rau's BudgetRatio); >= 1")
    max_ii_slack: int = option(
        64, "ori: the largest II tried is MII + max-ii-slack; >= 0")
    max_stages: int = option(
        4, "ori: the most stages a schedule may have: the II search goes on past MII "
        "until one fits (code grows with stages^2, live values with stages); >= 2")
    reject_pressure_growth: bool = option(
        True, "ori: put a pipelined loop back when it raises the function's peak "
        "R-register pressure (keeps ori-ptxas from gaining registers)")
    max_code_growth: int = option(
        -1, "ori: put a pipelined loop back when it adds more than this many SASS "
        "instructions (prologue, epilogue, drains, stage copies) to the function; "
        "-1 = no limit (ori-ptxas gives 0: ptxas 13.0 adds none, see its docs)")
    target: str | None = option(
        None, "SM target whose latencies and pipe widths are used (unset: the module's "
        "ori.target, else sm_80)")
    remarks: bool = option(
        False, "ori: print one remark per loop (pipelined with MII, II and stages, or why not)")

    def _validate(self) -> None:
        def bad(msg: str) -> PassFailedException:
            return PassFailedException(f"ori-pipeline: {msg}")

        if self.budget_ratio < 1:
            raise bad(f"budget-ratio must be >= 1, got {self.budget_ratio}")
        if self.max_ii_slack < 0:
            raise bad(f"max-ii-slack must be >= 0, got {self.max_ii_slack}")
        if self.max_stages < 2:
            raise bad(f"max-stages must be >= 2, got {self.max_stages}")
        if self.max_code_growth < -1:
            raise bad(f"max-code-growth must be >= -1 (-1: no limit), got "
                      f"{self.max_code_growth}")
        if self.target is not None:
            try:
                get_target(self.target)
            except TargetError as e:
                raise bad(f"target: {e}") from None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._validate()
        require(self, op)
        for func in functions_of(op):
            name = func.sym_name.data  # type: ignore[attr-defined]
            rep = self.run_function(func)
            if self.remarks:
                for lr in sorted(rep.loops, key=lambda lr: lr.block_id):
                    emit_remark(name, lr.remark(), block=lr.block_id)
        if self.remarks:
            flush_diagnostics()

    def target_of(self, func: Operation) -> object:
        name = self.target or func.target_name() or "sm_80"  # type: ignore[attr-defined]
        try:
            return get_target(name)
        except TargetError as e:
            raise PassFailedException(f"ori-pipeline: {e}") from None

    def run_function(self, func: Operation) -> FunctionReport:
        """Pipeline every single-block loop of ``func`` (which may be
        transformed in place); reports per loop."""
        rep = FunctionReport()
        target = self.target_of(func)
        blocks = list(func.regions[0].blocks)
        ids = {b: i for i, b in enumerate(blocks)}
        todo = [b for b in blocks if b.last_op is not None
                and any(s is b for s in b.last_op.successors)]
        # loops of several blocks are out of scope: a remark each
        li = LoopInfo.compute(func)
        for lp in li:
            if len(lp.blocks) > 1:
                head = li.cfg.blocks[lp.header]
                rep.loops.append(LoopReport(block_id=ids[head], reason=(
                    f"a loop of {len(lp.blocks)} blocks (single-block loops only)")))
        gated = self.reject_pressure_growth or self.max_code_growth >= 0
        peaks = FunctionPeaks(func) if gated and todo else None
        for block in todo:
            lr = analyze_loop(block, target, self)  # type: ignore[arg-type]
            lr.block_id = ids[block]
            rep.loops.append(lr)
            if lr.schedule is None or lr.reason is not None:
                continue
            if peaks is not None:
                # the gates measure the loop alone (pressure_gate.py): the
                # function's other blocks keep their live sets
                trial = trial_region(block, peaks, lambda b, lr=lr: self._transform(b, lr))
                after = max(peaks.peak_without(block), trial.peak)
                if 0 <= self.max_code_growth < trial.growth:
                    lr.reason = (f"adds {trial.growth} instructions, more than "
                                 f"max-code-growth={self.max_code_growth}")
                    continue
                if self.reject_pressure_growth and after > peaks.peak:
                    lr.reason = (f"raises the peak R pressure from {peaks.peak} to {after} "
                                 "(reject-pressure-growth)")
                    continue
                self._transform(block, lr)
                peaks = FunctionPeaks(func)
            else:
                self._transform(block, lr)
            lr.applied = True
        return rep

    @staticmethod
    def _transform(block: Block, lr: LoopReport) -> None:
        shape = lr.shape_in(block)
        assert lr.schedule is not None
        outside = used_outside(block, shape.body)
        p = Pipeliner(shape, lr.schedule, lr.trip_count)
        kernel = p.run(outside)
        for b in p.made:
            if b is not kernel:
                delete_dead(list(b.ops))


__all__ = ["FunctionReport", "PipelinePass"]
