"""Carrying out an ``ori-uniform`` plan (passes/uniform/select.py).

1. Every chosen value is retyped to its uniform counterpart (``!ori.r32`` ->
   ``!ori.ur32``, ``!ori.p`` -> ``!ori.up``): the op becomes its uniform form
   (``OriOp.UNIFORM_SASS``) without being rebuilt, as allocation retypes
   values to registers.
2. A chosen op's constant operands are put in uniform terms: RZ/PT become
   URZ/UPT, a ``c[bank][offset]`` word is read by a ``ULDC`` placed before
   the op (one per block and word).
3. Each GPR-file user of a chosen value reads it through its constant port,
   with commutative operands swapped where that is what makes it fit; any
   other read gets ``MOV r, ur`` right before the user (before the branch
   for a block argument that stays in the R file).  The plan only contains
   such copies when ``max-copies`` allowed them.
"""

from __future__ import annotations

from collections import Counter

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import (
    OriRegisterType,
    R32Type,
    R64Type,
    UR32Type,
    UR64Type,
    uniform_counterpart,
)
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from passes.uniform.select import Plan, copied_operands, is_cbank_move, placement


def apply_plan(plan: Plan) -> tuple[Counter[str], list[Operation]]:
    """Rewrite the function as ``plan`` says; returns counts (``op:`` by
    uniform mnemonic, ``uldc``, ``copies``, ``swapped``, ``rematerialized``
    immediates and their ``immediate_movs``) and the ops it
    retyped, built or rewrote (for the caller's verification)."""
    counts: Counter[str] = Counter()
    plan.ops = [new for op in plan.ops for new in _substituted(op)]
    chosen = plan.chosen_values()
    for v in chosen:
        ut = uniform_counterpart(type(v.type))  # type: ignore[arg-type]
        assert ut is not None
        v._type = ut.unallocated()  # type: ignore[attr-defined]
    uldc: dict[tuple[Block, CBankAttr, int], SSAValue] = {}
    new_ops: list[Operation] = []
    for op in plan.ops:
        assert isinstance(op, OriInstruction)
        new_ops.append(_uniform_constants(op, uldc, counts))
    chosen_ops = set(new_ops)
    # rebuilt ops have new results: the chosen values are theirs now
    chosen = set(plan.args) | {r for op in new_ops for r in op.results}
    for op in new_ops:
        counts[f"op:{_mnemonic(op)}"] += 1
    users: dict[Operation, None] = {}
    for v in chosen:
        for use in v.uses:
            if use.operation not in chosen_ops:
                users[use.operation] = None
    touched: list[Operation] = list(new_ops)
    for user in users:
        touched.append(_fix_user(user, chosen, counts))
    for op in new_ops:
        if isinstance(op, MovOp) and not any(r.uses for r in op.results):
            # every reader got the immediate itself (_copy)
            counts[f"op:{_mnemonic(op)}"] -= 1
            counts["rematerialized"] += 1
            touched.remove(op)
            Rewriter.erase_op(op)
    return counts, touched


def _mnemonic(op: Operation) -> str:
    """The remark's name of a moved op: its uniform SASS form, or for a
    pseudo-op without one (PACK/UNPACK of UR parts) its own name."""
    cls = type(op)
    return str(getattr(cls, "UNIFORM_SASS", None) or getattr(cls, "SASS", cls.__name__))


def _substituted(op: Operation) -> list[Operation]:
    """A chosen op without a uniform form of its own (SHL/SHR, IMAD.HI)
    replaced by its ``uniform_substitute``, still in R types (retyped
    below)."""
    if not isinstance(op, OriInstruction) or isinstance(op, PackOp | UnpackOp) or (
            type(op).UNIFORM_SASS is not None and op.has_uniform_form()):
        return [op]
    sub = op.uniform_substitute()
    assert sub is not None, f"{op.name} was chosen without a uniform version"
    for old, r in zip(op.results, sub.results):
        r.name_hint = old.name_hint
    Rewriter.replace_op(op, list(sub.ops), new_results=list(sub.results))
    return list(sub.ops)


def _uniform_constants(op: OriInstruction, uldc: dict[tuple[Block, CBankAttr, int], SSAValue],
                       counts: Counter[str]) -> Operation:
    if is_cbank_move(op):
        # MOV d, c[b][o] into a UR is ULDC d, c[b][o] itself
        c = op.src("a")
        assert isinstance(c, CBankAttr)
        ld = LdcOp.make([c.bank.data, R32Type.fixed(), c.offset.data], [op.results[0].type],
                        attributes=dict(op.attributes))
        ld.results[0].name_hint = op.results[0].name_hint
        Rewriter.replace_op(op, ld)
        return ld
    vals = op.slot_values()
    new_vals: list[SSAValue | Attribute] = []
    changed = False
    for slot, v in vals:
        if isinstance(v, OriRegisterType) and v.is_fixed and not slot.address:
            ut = uniform_counterpart(type(v))
            if ut is not None and ut is not type(v):
                v = ut.fixed()
                changed = True
        elif isinstance(v, CBankAttr):
            v = _uldc(op, v, op.slot_bits(slot), uldc, counts)
            changed = True
        new_vals.append(v)
    if not changed:
        return op
    return _rebuild(op, new_vals)


def _uldc(op: Operation, c: CBankAttr, bits: int,
          cache: dict[tuple[Block, CBankAttr, int], SSAValue], counts: Counter[str]) -> SSAValue:
    block = op.parent_block()
    assert block is not None
    key = (block, c, bits)
    hit = cache.get(key)
    if hit is not None:
        return hit
    t = (UR32Type if bits == 32 else UR64Type).unallocated()
    ld = LdcOp.make([c.bank.data, R32Type.fixed(), c.offset.data], [t],
                    mods="b64" if bits == 64 else "")
    Rewriter.insert_op(ld, InsertPoint.before(op))
    counts["uldc"] += 1
    cache[key] = ld.results[0]
    return ld.results[0]


def _rebuild(op: OriInstruction, values: list[SSAValue | Attribute], *,
             smods: dict[str, str] | None = None, mods: str | None = None,
             prior: list[SSAValue] | None = None) -> OriInstruction:
    _, guard, old_prior = op.operand_groups()
    new = type(op).make(
        values,  # type: ignore[arg-type]
        [r.type for r in op.results],
        mods=(op.mods.data if op.mods is not None else "") if mods is None else mods,
        smods=op.smod_map() if smods is None else smods,
        guard=guard,
        guard_neg="guard_neg" in op.properties,
        prior=list(old_prior) if prior is None else prior,
        attributes=dict(op.attributes),
    )
    for old, r in zip(op.results, new.results):
        r.name_hint = old.name_hint
    Rewriter.replace_op(op, new)
    return new


def _copy(v: SSAValue, before: Operation, counts: Counter[str]) -> SSAValue:
    """``MOV r, v`` before ``before``; for a uniform immediate (``UMOV ur,
    imm``) the copy is ``MOV r, imm`` itself, which needs no UR (the UMOV
    goes once no uniform reader is left)."""
    if isinstance(v.type, UR64Type):
        # one MOV per word, between the free UNPACK and PACK pseudo-ops
        # (ptxas: ``IMAD.U32 R2, RZ, RZ, UR4 ; IMAD.U32 R3, RZ, RZ, UR5``
        # before argmax_rows' STG)
        un = UnpackOp.make([v], [UR32Type.unallocated()] * 2)
        movs = [MovOp.make([w], [R32Type.unallocated()]) for w in un.results]
        pack = PackOp.make([m.results[0] for m in movs], [R64Type.unallocated()])
        Rewriter.insert_op([un, *movs, pack], InsertPoint.before(before))
        counts["copies"] += 2
        return pack.results[0]
    owner = v.owner
    imm = owner.src("a") if isinstance(owner, MovOp) and owner.is_plain() else None
    src: SSAValue | Attribute = imm if isinstance(imm, IntegerAttr) else v
    mov = MovOp.make([src], [R32Type.unallocated()])
    Rewriter.insert_op(mov, InsertPoint.before(before))
    counts["copies" if src is v else "immediate_movs"] += 1
    return mov.results[0]


def _fix_user(user: Operation, chosen: set[SSAValue], counts: Counter[str]) -> Operation:
    """Make ``user`` read the chosen values it reads (module docstring, 3);
    returns the op that now stands where it stood."""
    if isinstance(user, BraOp) or not isinstance(user, OriInstruction):
        for i in copied_operands(user, chosen):
            user.operands[i] = _copy(user.operands[i], user, counts)
        return user
    p = placement(user, chosen)
    if p.values is None and not p.copies:
        return user
    vals = p.values if p.values is not None else user.slot_values()
    if p.values is not None:
        counts["swapped"] += 1
    new_vals: list[SSAValue | Attribute] = []
    for slot, v in vals:
        if slot.name in p.copies and isinstance(v, SSAValue):
            v = _copy(v, user, counts)
        new_vals.append(v)
    _, _, prior = user.operand_groups()
    new_prior = [_copy(x, user, counts) if f"prior#{i}" in p.copies else x
                 for i, x in enumerate(prior)]
    return _rebuild(user, new_vals, smods=p.smods, mods=p.mods, prior=new_prior)


__all__ = ["apply_plan"]
