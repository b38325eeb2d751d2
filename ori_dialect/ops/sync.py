"""Barriers, fences and warp-collective instructions."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src
from ori_dialect.ir.metadata import LatencyClass, MemEffect, Pipe
from ori_dialect.ops.base import P, R, ori_op, pred, reg, rio


@ori_op
class BarOp(OriInstruction):
    """BAR: CTA barrier ``id`` (0..15).  ``sync`` waits for ``count`` threads
    (default: the whole CTA); ``arv`` arrives without waiting; ``red``
    forms (``popc``/``and``/``or``) are not modelled yet and rejected by the
    verifier rather than accepted silently."""

    name = "ori.bar"
    SASS = "BAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.BRA
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = (rio("id"), rio("count", optional=True))
    MODS = (ModGroup("mode", ("sync", "arv"), default="sync"),)

    def verify_semantics(self) -> None:
        b = self.src_int("id")
        if b is not None and not 0 <= b <= 15:
            raise VerifyException("ori.bar: barrier id must be in 0..15")


@ori_op
class MembarOp(OriInstruction):
    """MEMBAR: memory fence at CTA, GPU or system scope."""

    name = "ori.membar"
    SASS = "MEMBAR"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.LSU
    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    IS_BARRIER = True
    DSTS = ()
    SRCS = ()
    MODS = (ModGroup("scope", ("cta", "gpu", "sys"), default="gpu"),)


@ori_op
class ShflOp(OriInstruction):
    """SHFL: warp shuffle.  Lane ``j`` reads ``a`` of the source lane computed
    from ``lane`` (``idx``: lane; ``up``: j - lane; ``down``: j + lane; ``bfly``:
    j ^ lane) within the segment described by ``clamp`` (PTX ``c`` operand:
    bits 0-4 clamp value, bits 8-12 segment mask).  If the source lane is out
    of range the lane keeps its own ``a`` and ``p`` is false."""

    name = "ori.shfl"
    SASS = "SHFL"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.LSU
    SIDE_EFFECTS = True  # reads other lanes' registers: must not move across divergence
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (reg("a"), Src("lane", R, imm="int"), Src("clamp", R, imm="int"))
    MODS = (ModGroup("mode", ("idx", "up", "down", "bfly"), required=True),)


@ori_op
class VoteOp(OriInstruction):
    """VOTE: warp vote over ``a`` among active lanes.  ``d`` receives the ballot
    mask; the optional ``p`` receives the ``all``/``any``/``eq`` reduction."""

    name = "ori.vote"
    SASS = "VOTE"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    SIDE_EFFECTS = True
    WARP_COLLECTIVE = True
    DSTS = (Dst("d", R), Dst("p", P, optional=True))
    SRCS = (pred("a"),)
    MODS = (ModGroup("mode", ("all", "any", "eq"), required=True),)


__all__ = ["BarOp", "MembarOp", "ShflOp", "VoteOp"]
