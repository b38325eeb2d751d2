"""The stack frame: moving the stack pointer R1 and reading frame addresses.

Seed 003 reserves R0-R3 for fixed ABI roles, R1 being the stack pointer;
ptxas 13.0 gives every activation that needs local memory its own frame
below the caller's (``cuobjdump -sass`` of examples/abi/ptx/sm_80/abi_calls.ptx:
``_Z3fibi`` opens with ``IADD3 R1, R1, -0x10, RZ``, saves at ``[R1+0xc]``
and ends with ``IADD3 R1, R1, 0x10, RZ`` before ``RET``; a kernel with a
local array does the same after ``MOV R1, c[0x0][0x28]``).

* ``ori.frame_enter size`` -- ``R1 -= size``: the first instruction of a
  function's entry block when the function has a frame;
* ``ori.frame_leave size`` -- ``R1 += size``: right before every ``RET`` of
  a device function with a frame (a kernel's frame ends with the thread);
* ``ori.frame_addr offset`` -- ``Rd = R1 + offset``: the local-memory
  address of a frame object, for an address that is computed with
  (``add.u64 %rd, %SPL, %r``) or made generic (``cvta.local``).

A local access at a fixed frame offset names R1 as its base operand
(``ori.ldl [R1 + 0x8]``, :func:`.registers.stack_pointer`), so no register
holds the frame address.  Between a function's ``frame_enter`` and its
``frame_leave`` R1 is constant, which is what lets passes treat
``frame_addr`` as pure (merged, hoisted, recomputed).  Nothing that reads
R1 (a frame access, ``frame_addr``) is placed before the enter or after a
leave: passes that insert at the top of the entry block (the callee saves'
static stores, the ABI's parameter copies) insert code that does not read
R1, the stack-argument loads go after the enter (passes/abi/stack_args.py),
and when the allocator moves a recursive function's saves into its frame it
puts the enter first again (regalloc/frame.py).  The leave is always the
last instruction before its ``RET``.  A kernel's R1 starts at ``c[0x0][stack_init]``
(the interpreter's ``local_bytes``): the listing leaves ptxas's
``MOV R1, c[0x0][0x28]`` implicit.

Frame sizes are multiples of 16, so the 16-byte alignment a ``.local``
variable may ask for holds in every activation (ptxas moves R1 by 8 where
the frame's objects need no more; ori keeps one rule).
"""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, OperandText, OriInstruction, SassForm
from ori_dialect.ir.metadata import LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ops.base import R, imm, ori_op

FRAME_ALIGN = 16
"""Every frame size is a multiple of this (module docstring)."""


def frame_size(nbytes: int) -> int:
    """``nbytes`` rounded up to a frame size."""
    return -(-nbytes // FRAME_ALIGN) * FRAME_ALIGN


class _FrameMove(OriInstruction):
    """Moves R1 by ``size`` bytes.  It is ordered with every local access
    (an access addressed from R1 reads other bytes after it), which the
    local-space read/write effect states to every pass."""

    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    MEM = MemEffect.READ_WRITE
    SPACE = MemSpace.LOCAL
    SIDE_EFFECTS = True
    MAY_FAULT = True  # a frame that does not fit: the interpreter's stack overflow
    DSTS = ()
    SRCS = (imm("size"),)
    SIGN = 1

    def size(self) -> int:
        return self.src_int("size") or 0

    def sass_form(self, operand: OperandText) -> SassForm:
        return SassForm("IADD3", ("R1", "R1", f"{self.SIGN * self.size():#x}", "RZ"),
                        "stack pointer")

    def verify_semantics(self) -> None:
        n = self.size()
        if n <= 0 or n % FRAME_ALIGN:
            raise VerifyException(
                f"{self.name}: the frame size must be a positive multiple of {FRAME_ALIGN}, "
                f"got {n}")


@ori_op
class FrameEnterOp(_FrameMove):
    """``IADD3 R1, R1, -size, RZ``: open the activation's frame."""

    name = "ori.frame_enter"
    SASS = "IADD3"
    SIGN = -1


@ori_op
class FrameLeaveOp(_FrameMove):
    """``IADD3 R1, R1, size, RZ``: close it before the return."""

    name = "ori.frame_leave"
    SASS = "IADD3"


@ori_op
class FrameAddrOp(OriInstruction):
    """``IADD3 Rd, R1, offset, RZ`` (``MOV Rd, R1`` at offset 0): the local
    address of the frame byte at ``offset`` (module docstring: pure between
    the frame's enter and leave)."""

    name = "ori.frame_addr"
    SASS = "IADD3"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    REMATERIALIZABLE = True
    DSTS = (Dst("d", R),)
    SRCS = (imm("offset"),)

    def offset(self) -> int:
        return self.src_int("offset") or 0

    def sass_form(self, operand: OperandText) -> SassForm:
        d = operand(self.dsts[0], None)
        if self.offset() == 0:
            return SassForm("MOV", (d, "R1"))
        return SassForm("IADD3", (d, "R1", f"{self.offset():#x}", "RZ"))

    def verify_semantics(self) -> None:
        if not 0 <= self.offset() < 1 << 24:
            raise VerifyException("ori.frame_addr: the offset must be in 0..0xffffff")


__all__ = ["FRAME_ALIGN", "FrameAddrOp", "FrameEnterOp", "FrameLeaveOp", "frame_size"]
