"""A recursive function's spill slots and callee saves in its own frame.

ori's spill areas are static (:mod:`.spill`): each function's slots sit at
fixed local addresses above its callees' areas, which is exact for a
function that cannot reach itself -- only one activation of it is live at a
time.  A recursive one has several, so its slots move into the activation's
frame below the stack pointer R1 (ops/frame.py), as ptxas 13.0 does for
every function: ``_Z3fibi`` in examples/abi/ptx/sm_80/abi_calls.ptx opens
with ``IADD3 R1, R1, -0x10, RZ``, saves R16, R17, R20 and R21 with
``STL [R1+0xc]`` ... and reloads them before ``IADD3 R1, R1, 0x10, RZ`` and
``RET``.

:func:`move_into_frame` runs after the slots are compacted (the driver
lays them out from offset 0 on top of the function's local variables):

* every spill store and reload addressed ``[RZ+a]`` becomes ``[R1+a]``;
* the frame grows to cover them: the entry's ``ori.frame_enter`` (the
  importer's, for the local variables, or a new one) and the
  ``ori.frame_leave`` before each ``RET`` take the new size, and are put
  at the two ends -- the enter first in the entry block (before the callee
  saves' stores, which address the new frame), the leave right before the
  ``RET`` (after the saves' reloads).

A stack-passed parameter lies just above the frame (``[R1 + size + off]``,
passes/abi/stack_args.py): when the frame grows its loads move with it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.ir import Block, Operation

from ori_dialect.ir.registers import R32Type, stack_pointer
from ori_dialect.ops.control import RetOp
from ori_dialect.ops.frame import FrameEnterOp, FrameLeaveOp, frame_size
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdlOp, StlOp
from passes.abi.stack_args import shift_incoming
from passes.regalloc.spill_marks import SPILL_ATTR


def move_into_frame(func: FuncOp, frame_bytes: int) -> int:
    """Address ``func``'s spill code from R1 and size its frame to hold
    ``frame_bytes`` (module docstring); returns the frame size (0: nothing
    to move and no frame)."""
    moved = 0
    for op in func.walk():
        if isinstance(op, StlOp | LdlOp) and SPILL_ATTR in op.attributes:
            base = op.src("addr")
            if isinstance(base, R32Type) and base.is_fixed:  # [RZ + a] -> [R1 + a]
                consts = op.const_map()
                consts["addr"] = stack_pointer()
                op.properties["consts"] = DictionaryAttr(consts)
                moved += 1
    entry = func.entry_block
    enters = [op for op in func.walk() if isinstance(op, FrameEnterOp)]
    if not moved and not enters:
        return 0
    old = max([0, *(op.size() for op in enters)])
    size = max(frame_size(frame_bytes), old)
    if size != old:  # stack-passed parameters are above the frame (stack_args.py)
        shift_incoming(func, size - old)
    for op in enters:
        op.detach()
        op.erase()
    _put_first(entry, FrameEnterOp.make([size]))
    if func.is_kernel:
        return size
    for op in [o for o in func.walk() if isinstance(o, FrameLeaveOp)]:
        op.detach()
        op.erase()
    for b in func.body.blocks:
        if isinstance(b.last_op, RetOp):
            b.insert_op_before(FrameLeaveOp.make([size]), b.last_op)
    return size


def _put_first(block: Block, op: Operation) -> None:
    if block.first_op is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, block.first_op)


__all__ = ["move_into_frame"]
