"""What ``ori-pipeline`` decides about one loop: the feasibility filter
(seed 001 "Phase 2: Pipeline Feasibility Filtering", adapted to ori's op
facts), the MII (ddg.py), the schedule (schedule.py) and the remark.

The seed's filter rejects an instruction whose "pipe assignment class is
<= 3 (control/barrier pipe)", yet its ResMII table numbers ALU, FMA, DFMA
and MMA 0-3; the stated intent -- barriers and control -- is what ori
keeps, through the op facts (``IS_BARRIER``, ``SIDE_EFFECTS``,
``WARP_COLLECTIVE``, ``ASYNC``), not through pipe numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from xdsl.ir import Block, Operation, OpResult

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.metadata import Pipe
from ori_dialect.ops.control import BraOp, PragmaOp
from ori_dialect.ops.memory import AtomicOp
from ori_dialect.ops.texture import TextureOp
from passes.loop_unroll.ivs import Reject, analyze
from passes.pipeline_modulo.codegen import LoopShape
from passes.pipeline_modulo.ddg import LoopDDG, build_ddg, rec_mii, res_mii
from passes.pipeline_modulo.schedule import Schedule, modulo_schedule
from targets import SMTarget

_MIO = (Pipe.LSU, Pipe.TEX, Pipe.XU)


class Knobs(Protocol):
    ok_to_pipeline_no_unroll: int
    pipeline_multi_output_tex: int
    pipeline_miovq_to_inst_ratio: float
    budget_ratio: int
    max_ii_slack: int
    max_stages: int


@dataclass
class LoopReport:
    block_id: int = -1
    reason: str | None = None
    res_mii: int | None = None
    rec_mii: int | None = None
    schedule: Schedule | None = None
    trip_count: int | None = None
    ops: int = 0
    applied: bool = False

    @property
    def mii(self) -> int | None:
        if self.res_mii is None or self.rec_mii is None:
            return None
        return max(self.res_mii, self.rec_mii)

    def figures(self) -> str:
        out = f"MII={self.mii} (ResMII {self.res_mii}, RecMII {self.rec_mii})"
        if self.schedule is not None:
            out += f", II={self.schedule.ii}, stages={self.schedule.stages}"
        return out

    def remark(self) -> str:
        if self.applied:
            return f"pipelined: {self.figures()}"
        if self.mii is None:
            return f"not pipelined: {self.reason}"
        return f"not pipelined: {self.reason} ({self.figures()})"

    @staticmethod
    def shape_in(block: Block) -> LoopShape:
        """The loop shape of ``block`` (which :func:`analyze_loop` accepted)."""
        shape = loop_shape(block)
        assert not isinstance(shape, str)
        return shape


def loop_shape(block: Block) -> LoopShape | str:
    """The single-block loop ``block`` as a :class:`LoopShape`, or why not."""
    term = block.last_op
    if not isinstance(term, BraOp) or term.guard is None or term.fallthrough is None:
        return "the loop branch is not a conditional ori.bra"
    succs = list(term.successors)
    if succs.count(block) != 1:
        return "the loop branch does not leave the loop"
    outside = [p for p in block.predecessors() if p is not block]
    if len(outside) != 1:
        return f"{len(outside)} entries from outside the loop (run ori-loop-simplify)"
    pre = outside[0]
    pterm = pre.last_op
    if not isinstance(pterm, BraOp) or list(pterm.successors).count(block) != 1:
        return "the preheader does not branch to the loop once"
    body = [op for op in block.ops if op is not term and not isinstance(op, PragmaOp)]
    return LoopShape(block, body, term, succs.index(block), pre,
                     list(pterm.successors).index(block))


def op_rejection(op: Operation, knobs: Knobs) -> str | None:
    """Why ``op`` keeps its loop from being pipelined (None: it does not)."""
    if not isinstance(op, OriInstruction):
        return f"{op.name} is not an instruction"
    what = op.name
    if op.IS_BARRIER:
        return f"barrier {what} in the loop"
    if op.WARP_COLLECTIVE:
        return f"warp-collective {what} in the loop"
    if op.ASYNC is not None:
        return f"asynchronous {what} in the loop"
    if op.SIDE_EFFECTS and not isinstance(op, AtomicOp):
        return f"{what} has side effects"
    if op.is_volatile:
        return f"volatile {what} in the loop"
    if isinstance(op, TextureOp) and not knobs.pipeline_multi_output_tex:
        return f"multi-output texture {what} (pipeline-multi-output-tex=0)"
    return None


def exit_slice(ddg: LoopDDG, pred: OpResult) -> frozenset[int]:
    """The exit test and what it depends on in the same iteration."""
    index = {op: i for i, op in enumerate(ddg.ops)}
    preds = ddg.preds()
    todo = [index[pred.op]]
    seen: set[int] = set()
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        todo.extend(e.src for e in preds[i] if e.distance == 0)
    return frozenset(seen)


def analyze_loop(block: Block, target: SMTarget, knobs: Knobs) -> LoopReport:
    """Filter, MII and schedule of the single-block loop ``block``."""
    rep = LoopReport()
    shape = loop_shape(block)
    if isinstance(shape, str):
        rep.reason = shape
        return rep
    rep.ops = len(shape.body)
    if not shape.body:
        rep.reason = "empty loop body"
        return rep
    for op in shape.body:
        why = op_rejection(op, knobs)
        if why is not None:
            rep.reason = why
            return rep
    guard = shape.term.guard
    if not isinstance(guard, OpResult) or guard.op not in shape.body:
        rep.reason = "the exit predicate is not computed in the loop"
        return rep
    ddg = build_ddg(block, shape.body, shape.back_args, target)
    rep.res_mii = res_mii(ddg, target.pipe_widths)
    rep.rec_mii = rec_mii(ddg)
    mii = max(rep.res_mii, rep.rec_mii)
    sched = modulo_schedule(ddg, mii, target.pipe_widths, exit_slice(ddg, guard),
                            budget_ratio=knobs.budget_ratio, max_ii=mii + knobs.max_ii_slack,
                            max_stages=knobs.max_stages)
    if sched is None:
        rep.reason = (f"no modulo schedule of at most {knobs.max_stages} stages with "
                      f"II <= {mii + knobs.max_ii_slack}")
        return rep
    rep.schedule = sched
    # the knobs' policy decisions come after the figures, which the remark shows
    if not knobs.ok_to_pipeline_no_unroll and any(
            isinstance(op, PragmaOp) and op.text.data == "nounroll" for op in block.ops):
        rep.reason = "nounroll pragma (ok-to-pipeline-no-unroll=0)"
        return rep
    if knobs.pipeline_miovq_to_inst_ratio >= 0:
        mio = sum(1 for op in shape.body if isinstance(op, OriInstruction) and op.PIPE in _MIO)
        if mio / len(shape.body) < knobs.pipeline_miovq_to_inst_ratio:
            rep.reason = (f"MIO share {mio}/{len(shape.body)} below "
                          f"pipeline-miovq-to-inst-ratio={knobs.pipeline_miovq_to_inst_ratio}")
            return rep
    if sched.stages < 2:
        rep.reason = "the schedule has one stage (no iterations overlap)"
        return rep
    try:
        rep.trip_count = analyze(block, block, {block}, shape.pre_block).trip_count
    except Reject:
        rep.trip_count = None
    if rep.trip_count is not None and rep.trip_count < sched.stages:
        rep.reason = f"trip count {rep.trip_count} below the {sched.stages} stages"
    return rep


__all__ = ["Knobs", "LoopReport", "analyze_loop", "exit_slice", "loop_shape", "op_rejection"]
