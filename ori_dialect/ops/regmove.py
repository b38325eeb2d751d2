"""Moves between register files that MOV cannot express.

Register allocation uses them to keep a spilled uniform or barrier register
in a GPR (seed 000 "Spilling Overview": the spill codegen's special handling
of uniform registers; "Register Classes": barrier registers are handled
apart from the six classes).  A GPR reads a uniform register with a plain
``MOV`` (the UR travels through the constant-bank operand port), but the
way back and both directions of a barrier register need their own opcode.
"""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, OriInstruction, Src
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import BarrierType, R32Type, UR32Type
from ori_dialect.ops.base import ori_op, reg


@ori_op
class R2UROp(OriInstruction):
    """R2UR: ``d = a``, a GPR copied into a uniform register.  The hardware
    reads the value of one active thread, so it must be the same in all of
    them (a value that came from a uniform register is); the interpreter
    keeps uniform registers per thread and copies each thread's word."""

    name = "ori.r2ur"
    SASS = "R2UR"
    LATENCY = LatencyClass.UNIFORM_LOAD
    PIPE = Pipe.ALU
    DSTS = (Dst("d", (UR32Type,)),)
    SRCS = (reg("a"),)


@ori_op
class BMovOp(OriInstruction):
    """BMOV.32: ``d = a`` between a convergence barrier register and a GPR
    (exactly one side is a barrier register).  ptxas saves a barrier register
    with ``BMOV.32.CLEAR R, B`` and restores it with ``BMOV.32 B, R``; the
    ``CLEAR`` (which also empties the barrier) is left out: the IR keeps the
    barrier value in SSA form and never reads the old register again."""

    name = "ori.bmov"
    SASS = "BMOV.32"
    LATENCY = LatencyClass.SCOREBOARD
    PIPE = Pipe.ALU
    DSTS = (Dst("d", (R32Type, BarrierType)),)
    SRCS = (Src("a", (R32Type, BarrierType), fixed=False),)

    def verify_semantics(self) -> None:
        a = self.src_reg("a")
        if a is None:
            return
        if isinstance(a.type, BarrierType) == isinstance(self.dsts[0].type, BarrierType):
            raise VerifyException(
                "ori.bmov: moves between a barrier register and a GPR (exactly one side "
                "is !ori.b)"
            )


__all__ = ["BMovOp", "R2UROp"]
