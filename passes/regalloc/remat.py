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

**Predicates with register operands** (given the allocation round's
:class:`.points.LiveMatrix`).  A P-file value whose definition reads
registers is cloned too when every register it reads is live at the point
before each of its users: the clones then lengthen no live range.  This is
how a comparison whose operands stay live anyway is recomputed instead of
taking a predicate home: Triton's matmul keeps its row masks (``ISETP.LT
row, M``) live across the K loop while the rows stay live for the
epilogue, and ptxas recomputes them in the loop (``ISETP.LT.AND P2, PT,
R7, c[0x0][0x178], !P1``) where ori spilled them to ``P2R``/``R2P`` homes.
A use that ANDs the predicate with another (``PLOP3.LUT d, p, q, PT,
0xc0``) takes the comparison with ``q`` as its combining input instead
(``ISETP.CMP.AND d, a, b, q``): one instruction, as in ptxas's listing.
An operand that is not live there but is computed by one clonable
instruction from registers that are is recomputed with it, for a predicate
read by at most :data:`CHAIN_USERS` instructions (:func:`pred_chain`: two
instructions per reader against a ``P2R`` and an ``R2P`` per reader, the
original two gone; ptxas's ``IADD3 R33, R88, 0x1`` / ``ISETP.GE.AND P0, PT,
R33, c[0x0][0x184], PT`` in Triton's attention loop); at a reader where
that operand is still live it is read, not recomputed (the attention
loop's first K load computed its row bound twice in a row).
Not for R values: ``ori-remat-block`` recomputes those before allocation,
and a clone is never spilled again.  The driver does this only in a round
where the R file coloured: where it failed, the operands are spilled next,
and the clones' reloads with the predicate homes filled every register of
matmul_m64 at a 16-register limit.  The driver rematerializes before it
spills (a clone that reads a spilled value then gets its reload), and a
value whose definition reads another value rematerialized in the same
round before that one (:func:`readers_first`): its clones read the
operand's definition where it is now, and then get clones of their own.

The clones carry ``ori.spill_remat = ID`` (:data:`REMAT_ATTR`): they count
as reloads (never spilled again: :func:`.spill_marks.is_spill_reload`).  A
fused comparison replaces its ``PLOP3`` and defines that value: it carries
no mark.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, OpResult, SSAValue

from ori_dialect.analysis.liveness import ValueNumbering
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, PLop3Op
from passes.regalloc.points import LiveMatrix
from passes.regalloc.spill_marks import REMAT_ATTR
from passes.remat_block.candidates import def_check
from passes.remat_block.knobs import Knobs

REMAT_COST_FACTOR = 0.1
"""Spill-cost scale of a rematerializable value: ALU clone cost 1 over the
load cost 10 (seed 002 "Machine-Level Knobs", ``nv-remat-block-load-cost``)."""

_KNOBS = Knobs()


def _live_at(lm: LiveMatrix, v: int, p: int) -> bool:
    seg = lm.segments(v)
    i = int(np.searchsorted(seg.starts, p, side="right")) - 1
    return i >= 0 and p < int(seg.ends[i])


def _live_before(lm: LiveMatrix, v: SSAValue, user: Operation) -> bool:
    """``v`` is live at the point before ``user`` in ``lm``."""
    i = lm.numbering.index.get(v)
    at = lm.op_point.get(user)
    return i is not None and at is not None and _live_at(lm, i, at - 1)


CHAIN_USERS = 2
"""At most this many instructions may read a predicate whose comparison is
recomputed with an operand's definition (two clones per reader, against a
``P2R`` and an ``R2P`` per reader for a predicate home)."""


def pred_chain(op: OriInstruction, v: SSAValue, lm: LiveMatrix) -> list[Operation] | None:
    """The definitions to clone ahead of ``op`` at each user of ``v``: []
    when every register ``op`` reads is live at the point before each
    user; the instruction computing a register that is not, when that one
    instruction is clonable, its own registers are live there and ``v`` has
    at most :data:`CHAIN_USERS` users; None otherwise.  ``op`` and the
    chain unguarded, without prior values."""
    srcs, guard, prior = op.operand_groups()
    if guard is not None or prior:
        return None
    users = [use.operation for use in v.uses]
    if any(lm.op_point.get(u) is None for u in users):
        return None

    def live(x: SSAValue) -> bool:
        return all(_live_before(lm, x, u) for u in users)

    chain: list[Operation] = []
    for o in dict.fromkeys(srcs):
        if live(o):
            continue
        d = o.owner
        if (not isinstance(o, OpResult) or not isinstance(d, OriInstruction)
                or len(d.results) != 1 or _clonable(o, d) is None):
            return None
        dsrcs, dguard, dprior = d.operand_groups()
        if dguard is not None or dprior or not all(live(x) for x in dsrcs):
            return None
        chain.append(d)
    if chain and len({use.operation for use in v.uses}) > CHAIN_USERS:
        return None
    return chain


def remat_plan(v: SSAValue, lm: LiveMatrix | None = None,
               ) -> tuple[Operation, list[Operation]] | None:
    """The definition the allocator may clone instead of spilling ``v`` and
    the operand definitions cloned ahead of it, or None; with ``lm``, a
    predicate's comparison whose registers are live at all of ``v``'s
    users, or computed there by one instruction (:func:`pred_chain`),
    qualifies too (module docstring)."""
    if not isinstance(v, OpResult):
        return None
    op = v.op
    if not isinstance(op, OriInstruction):
        return None
    chain: list[Operation] | None = []
    if op.operands:
        chain = (pred_chain(op, v, lm) if lm is not None and isinstance(v.type, PredType)
                 else None)
        if chain is None:
            return None
    src = _clonable(v, op)
    return (src, chain) if src is not None else None


def remat_source(v: SSAValue, lm: LiveMatrix | None = None) -> Operation | None:
    """The definition of :func:`remat_plan`, or None."""
    plan = remat_plan(v, lm)
    return plan[0] if plan is not None else None


def clonable(v: SSAValue) -> bool:
    """``v``'s definition may be cloned anywhere its operands are available
    (:func:`_clonable`: the checks of :func:`remat_source` but the
    operands); ``call_remat.py`` checks the operands' liveness itself."""
    return (isinstance(v, OpResult) and isinstance(v.op, OriInstruction)
            and _clonable(v, v.op) is not None)


def _clonable(v: OpResult, op: OriInstruction) -> Operation | None:
    """The checks of :func:`remat_source` but the operands' liveness."""
    if REMAT_ATTR in op.attributes:
        return None  # already a clone: like a reload, never spilled again
    if type(op).UNIFORM_SASS is not None and op.is_uniform_form():
        # A clone goes next to each use, which may be in divergent code,
        # where a uniform-datapath write is unsound (passes/uniform): the
        # value takes the GPR-home path of UR values instead.
        return None
    return op if def_check(v, _KNOBS) is None else None


def _and_fold(op: Operation, v: SSAValue, user: Operation) -> SSAValue | None:
    """``user`` is ``PLOP3.LUT d, v, q, PT, 0xc0`` (``v AND q``, either
    order) and ``op`` a comparison ``v = a CMP b AND PT``: the predicate
    ``q`` to combine into the comparison, else None."""
    if not isinstance(user, PLop3Op) or not user.is_plain() or len(user.results) != 1:
        return None
    if not isinstance(op, ISetPOp | FSetPOp | DSetPOp) or len(op.results) != 1:
        return None
    if op.smod_map() or op.mod("bop") != "and" or op.has_mod("ex"):
        return None
    pt = PredType.fixed()
    if op.src("c") != pt or user.src("c") != pt or user.src_int("lut") != 0xC0:
        return None
    a, b = user.src("a"), user.src("b")
    q = b if a is v else a if b is v else None
    if not isinstance(q, SSAValue) or q is v:
        return None
    return q


def _fused(op: Operation, q: SSAValue, mapping: dict[SSAValue, SSAValue]) -> Operation:
    """``op`` (a comparison) with ``q`` as its combining input, reading the
    clones in ``mapping`` for the values they copy."""
    assert isinstance(op, OriInstruction)
    srcs = [q if slot.name == "c" else mapping.get(val, val) if isinstance(val, SSAValue) else val
            for slot, val in op.slot_values()]
    mods = op.mods.data if op.mods is not None else ""
    return type(op).make(srcs, [r.type for r in op.results], mods=mods)


def rematerialize(v: SSAValue, tag: int, keep: Collection[Operation] = (),
                  lm: LiveMatrix | None = None,
                  replaced: dict[SSAValue, SSAValue] | None = None,
                  chain: Collection[Operation] = ()) -> int:
    """Replace the uses of ``v`` by clones of its definition, one placed right
    before each user, after clones of the ``chain`` ops it reads there
    (:func:`remat_plan`); users in ``keep`` go on reading ``v`` (the SSA
    strategy's uses before the eviction point).  A user that ANDs ``v``
    with another predicate is replaced by the comparison combining it
    (module docstring); ``replaced`` records its value and the fused
    comparison's.  The definition, then each chain op, is erased once
    nothing reads it.  Returns the number of clones."""
    # with ``lm`` the driver's verdict on the operands stands: a user a
    # rematerialization earlier in the round added (a fused comparison) has
    # no point in ``lm``
    owner = v.owner
    if lm is not None and isinstance(v, OpResult) and isinstance(owner, OriInstruction):
        op = _clonable(v, owner)
    else:
        op = remat_source(v)
    assert op is not None, "rematerialize() of a value remat_source() refuses"
    users: list[Operation] = []
    for use in list(v.uses):
        if use.operation not in users and use.operation not in keep:
            users.append(use.operation)
    for user in users:
        mapping: dict[SSAValue, SSAValue] = {}
        for d in chain:
            if lm is not None and _live_before(lm, d.results[0], user):
                continue  # live at this reader: its register still holds it
            dc = d.clone()
            dc.attributes[REMAT_ATTR] = IntegerAttr(tag, i32)
            blk = user.parent_block()
            assert blk is not None
            blk.insert_op_before(dc, user)
            mapping[d.results[0]] = dc.results[0]
        q = _and_fold(op, v, user)
        if q is not None:
            fused = _fused(op, q, mapping)
            if "loc" in user.attributes:
                fused.attributes["loc"] = user.attributes["loc"]
            blk = user.parent_block()
            assert blk is not None
            blk.insert_op_before(fused, user)
            user.results[0].replace_all_uses_with(fused.results[0])
            if replaced is not None:
                replaced[user.results[0]] = fused.results[0]
            fused.results[0].name_hint = user.results[0].name_hint
            user.detach()
            user.erase()
            continue
        clone = op.clone(value_mapper=mapping)
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
        for d in chain:
            if not d.results[0].uses:
                d.detach()
                d.erase()
    return len(users)


def readers_first(values: list[int], numbering: ValueNumbering) -> list[int]:
    """``values`` (numbered) ordered so that a value whose definition reads
    another of them comes before it."""
    vals = numbering.values
    pending = set(values)
    read_by: dict[int, set[int]] = {v: set() for v in values}
    for v in values:
        owner = vals[v].owner
        if isinstance(owner, Operation):
            for o in owner.operands:
                w = numbering.index.get(o)
                if w is not None and w in pending and w != v:
                    read_by[w].add(v)
    out: list[int] = []
    while pending:
        ready = sorted(v for v in pending if not (read_by[v] & pending))
        if not ready:  # a cycle cannot occur in SSA; keep the order total anyway
            ready = sorted(pending)
        for v in ready:
            out.append(v)
            pending.discard(v)
    return out


def remat_remark(count: int) -> str:
    """The allocator's remark for ``count`` rematerialized values."""
    return (f"rematerialized {count} value{'s' if count != 1 else ''} instead of spilling "
            "(remat-enable)")


__all__ = ["CHAIN_USERS", "REMAT_COST_FACTOR", "pred_chain", "readers_first", "remat_plan",
           "remat_remark", "remat_source", "rematerialize"]
