"""Helpers shared by the ``ori-general-optimize`` rewrite patterns: the
constant port rule, rebuilding an instruction with new slot values, constants
as the interpreter represents them, and the counting pattern base.

docs/architecture.md "Rewrite patterns": each rule family is one
``RewritePattern``; the pass drives them with xDSL's walker and reads the
counts the patterns keep.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, Src, port_operands
from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, RegFile, UPredType
from ori_dialect.ops.integer import IAdd3Op


class CountingPattern(RewritePattern):
    """A rewrite pattern that counts what it changed under the remark keys
    (``[copies=..]``); the pass sums the counts per function and sees a round
    with no count added as the fixed point."""

    ROOTS: ClassVar[tuple[type[Operation], ...] | None] = None
    """The op classes ``match_and_rewrite`` can rewrite at (its
    ``op_type_rewrite_pattern`` type); None: any op.  The driver offers an op
    only to the patterns whose roots it is (driver.py)."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts

    @classmethod
    def applies_to(cls, op_class: type[Operation]) -> bool:
        return cls.ROOTS is None or issubclass(op_class, cls.ROOTS)


def is_const(v: SSAValue | Attribute) -> bool:
    return isinstance(v, IntegerAttr | FloatAttr | CBankAttr)


def port_constants(op: OriInstruction, values: Sequence[tuple[Src, SSAValue | Attribute]]) -> int:
    """Non-register operands in register-capable slots: immediates,
    constant-bank words and uniform registers (which use the same port;
    :func:`ori_dialect.ir.instruction.port_operands`, the verifier's count)."""
    return len(port_operands(values))


def unguarded(op: OriInstruction) -> bool:
    return op.operand_groups()[1] is None


def address_index(values: Sequence[tuple[Src, SSAValue | Attribute]]) -> int | None:
    """The position of the address base among an access's ``slot_values()``
    (the offset follows it), or None for an op without an address."""
    return next((i for i, (slot, _) in enumerate(values) if slot.address), None)


def is_rz(v: object) -> bool:
    """``v`` is the constant operand RZ."""
    return isinstance(v, R32Type) and v.is_fixed


def is_pt(v: object) -> bool:
    """``v`` is the constant predicate PT."""
    return isinstance(v, PredType) and v.is_fixed


SlotMap = dict[str, SSAValue | Attribute]


def add64_slots(lo: object, hi: object) -> tuple[SlotMap, SlotMap] | None:
    """The slot values of the importer's 64-bit add whose words are ``lo``
    and ``hi``: ``lo, c = IADD3 a0, b0, RZ``; ``hi = IADD3.X a1, b1, RZ,
    c`` (both unguarded, without source modifiers, the second carry-out
    unread).  ``wide-add`` and ``addr-offset`` both read this form."""
    if not isinstance(lo, SSAValue) or not isinstance(hi, SSAValue):
        return None
    la, ha = lo.owner, hi.owner
    if not (isinstance(la, IAdd3Op) and isinstance(ha, IAdd3Op)):
        return None
    if lo.index != 0 or hi.index != 0:  # type: ignore[attr-defined]
        return None
    if not (unguarded(la) and unguarded(ha)) or la.smod_map() or ha.smod_map():
        return None
    if la.has_mod("x") or not ha.has_mod("x") or len(ha.results) != 1:
        return None
    lv = {sl.name: v for sl, v in la.slot_values()}
    hv = {sl.name: v for sl, v in ha.slot_values()}
    if set(lv) != {"a", "b", "c"} or set(hv) != {"a", "b", "c", "ci0"}:
        return None
    if not (is_rz(lv["c"]) and is_rz(hv["c"])):
        return None
    co, co1 = la.dst("co0"), la.dst("co1")
    if co is None or hv["ci0"] is not co or (co1 is not None and co1.uses):
        return None
    return lv, hv


NEAR = 16
"""How far apart (ops) two ops may be for :func:`no_write_between`;
further apart a rule declines rather than scans (the walk is per
candidate)."""


def no_write_between(x_op: Operation, y_op: Operation, file: RegFile = RegFile.R) -> bool:
    """No op after ``x_op`` and before ``y_op`` (same block, at most
    :data:`NEAR` apart) writes a register of ``file``."""
    op = x_op.next_op
    for _ in range(NEAR):
        if op is None:
            return False
        if op is y_op:
            return True
        if any(isinstance(r.type, OriRegisterType) and r.type.REG_FILE is file
               for r in op.results):
            return False
        op = op.next_op
    return False



def rebuild(
    op: OriInstruction,
    values: Sequence[SSAValue | Attribute],
    *,
    smods: dict[str, str] | None = None,
    mods: str | None = None,
    guard: tuple[SSAValue, bool] | None = None,
) -> OriInstruction | None:
    """A copy of ``op`` with new slot values (and, given ``guard``, a new
    guard and sense), built by ``make`` and verified; None when that form
    does not verify."""
    _, old_guard, prior = op.operand_groups()
    g, neg = guard if guard is not None else (old_guard, "guard_neg" in op.properties)
    try:
        new = type(op).make(
            list(values),  # type: ignore[arg-type]
            [r.type for r in op.results],
            mods=(op.mods.data if op.mods is not None else "") if mods is None else mods,
            smods=op.smod_map() if smods is None else smods,
            guard=g,
            guard_neg=neg,
            prior=list(prior),
            attributes=dict(op.attributes),
        )
        new.verify()
    except VerifyException:
        return None
    return new


def before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


def replace_op(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    """``Rewriter.replace_op`` (every new result without a name takes the first
    old result's name, which the recorded listings show) with the walker told
    that ``op`` is gone and ``new`` is there (the driver's later rounds visit
    what changed, driver.py)."""
    rewriter.handle_operation_removal(op)
    Rewriter.replace_op(op, new)
    rewriter.handle_operation_insertion(new)
    rewriter.has_done_action = True


def erase_replaced(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    """Every result of ``op`` read as the value at its position in ``values``,
    then ``op`` erased (names are not carried over)."""
    for r, v in zip(op.results, values):
        rewriter.replace_all_uses_with(r, v)
    rewriter.erase(op)


def known(v: SSAValue) -> Any:
    """The value of a register defined by a constant-producing op (the op's
    ``constant_value``), as the interpreter represents it; None otherwise."""
    d = v.owner
    if not isinstance(d, OriInstruction) or not d.CONSTANT_LIKE:
        return None
    x = d.constant_value(v.index)  # type: ignore[attr-defined]
    if x is None:
        return None
    if isinstance(x, bool):
        return np.bool_(x)
    assert isinstance(v.type, OriRegisterType)
    return np.uint64(x) if v.type.BITS == 64 else np.uint32(x)


def materialise(op: OriInstruction, slot: Src, v: Attribute) -> Any:
    """A constant operand as the interpreter hands it to a semantics function
    (before a predicate's ``not``); None for one not known here (c[..][..])."""
    if isinstance(v, OriRegisterType):
        if isinstance(v, PredType | UPredType):
            return np.True_
        return np.uint64(0) if v.BITS == 64 else np.uint32(0)
    if not isinstance(v, IntegerAttr):
        return None
    x = v.value.data
    if op.slot_bits(slot) == 64:
        return np.uint64(x & 0xFFFFFFFFFFFFFFFF)
    return np.uint32(x & 0xFFFFFFFF)


__all__ = [
    "NEAR",
    "CountingPattern",
    "address_index",
    "before",
    "erase_replaced",
    "is_const",
    "is_pt",
    "known",
    "materialise",
    "no_write_between",
    "port_constants",
    "rebuild",
    "replace_op",
    "unguarded",
]
