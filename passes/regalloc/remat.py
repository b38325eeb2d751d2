"""Spilling by rematerialization: the allocator's own remat (seed 002
"Complementary ptxas-side Knobs": ``RematEnable=1``, ``RegAllocRematEnable=1``;
seed 000 "Per-Class Rematerialization Lists", the candidate lists the
allocator fills before its loop for the classes that support remat).

A value the allocator must spill whose definition reads no register -- an
immediate ``MOV``, a constant-bank ``LDC`` at a fixed address, an ``IADD3
RZ, -c[0x0][0x190], RZ`` -- is not stored and reloaded: its definition is
cloned right before each instruction that reads it (before the branch for an
edge operand), like a reload, and the original disappears once unused.  No
local memory is touched and each clone's live range is as short as a
reload's.  Whether a definition may be recomputed is the machine-level
remat pass's own verdict (:func:`passes.remat_block.candidates.def_check`:
op facts ``REMATERIALIZABLE``, speculatable, not volatile, no memory but the
constant bank, one result of at most four registers); the allocator adds
"no register operand", because it has no liveness of the operands at the
uses (``ori-remat-block`` before allocation recomputes values with live
operands).

**Cost.**  A rematerialized use costs one instruction where a reload costs
a local-memory load: the spill cost of such a value is scaled by
:data:`REMAT_COST_FACTOR`, the ratio of seed 002's clone costs (an ALU
instruction 1, a load ``nv-remat-block-load-cost`` 10), so the fat-point
order gives up these values first when registers run out.

The clones carry ``ori.spill_remat = ID`` (:data:`REMAT_ATTR`): they count
as reloads (never spilled again: :func:`.spill_marks.is_spill_reload`).
"""

from __future__ import annotations

from collections.abc import Collection

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from passes.regalloc.spill_marks import REMAT_ATTR
from passes.remat_block.candidates import def_check
from passes.remat_block.knobs import Knobs

REMAT_COST_FACTOR = 0.1
"""Spill-cost scale of a rematerializable value: ALU clone cost 1 over the
load cost 10 (seed 002 "Machine-Level Knobs", ``nv-remat-block-load-cost``)."""

_KNOBS = Knobs()


def remat_source(v: SSAValue) -> Operation | None:
    """The definition the allocator may clone instead of spilling ``v``, or None."""
    if not isinstance(v, OpResult):
        return None
    op = v.op
    if not isinstance(op, OriInstruction) or op.operands:
        return None
    if REMAT_ATTR in op.attributes:
        return None  # already a clone: like a reload, never spilled again
    if type(op).UNIFORM_SASS is not None and op.is_uniform_form():
        # A clone goes next to each use, which may be in divergent code,
        # where a uniform-datapath write is unsound (passes/uniform): the
        # value takes the GPR-home path of UR values instead.
        return None
    return op if def_check(v, _KNOBS) is None else None


def rematerialize(v: SSAValue, tag: int, keep: Collection[Operation] = ()) -> int:
    """Replace the uses of ``v`` by clones of its definition, one placed right
    before each user; users in ``keep`` go on reading ``v`` (the SSA
    strategy's uses before the eviction point).  The definition is erased
    once nothing reads it.  Returns the number of clones."""
    op = remat_source(v)
    assert op is not None, "rematerialize() of a value remat_source() refuses"
    users: list[Operation] = []
    for use in list(v.uses):
        if use.operation not in users and use.operation not in keep:
            users.append(use.operation)
    for user in users:
        clone = op.clone()
        clone.attributes[REMAT_ATTR] = IntegerAttr(tag, i32)
        blk = user.parent_block()
        assert blk is not None
        blk.insert_op_before(clone, user)
        for k, o in enumerate(user.operands):
            if o is v:
                user.operands[k] = clone.results[0]
    if not v.uses:
        op.detach()
        op.erase()
    return len(users)


def remat_remark(count: int) -> str:
    """The allocator's remark for ``count`` rematerialized values."""
    return (f"rematerialized {count} value{'s' if count != 1 else ''} instead of spilling "
            "(remat-enable)")


__all__ = ["REMAT_COST_FACTOR", "remat_remark", "remat_source", "rematerialize"]
