"""``lop3-predicate``: a test of a LOP3 result against zero is the LOP3's own
predicate result.

Issue 19 item 3 ("the remaining operand forms SASS has") and seed 001
"Pipeline Placement" (phase 13 GeneralOptimizeEarly): LOP3.LUT writes, next
to its register result, a predicate ``p = (result != 0)``, so ptxas tests a
bit with one instruction -- ``LOP3.LUT P0, RZ, R26, 0x1, RZ, 0xc0, !PT`` in
CUB's onesweep radix-sort kernel (``ptxas -arch=sm_80``), whose warp-match
loop ori wrote as ``LOP3.LUT R0, R26, 0x1, RZ, 0xc0`` + ``ISETP.NE.U32.AND
P0, PT, R0, 0x0, PT`` 184 times.

``q = ISETP.NE x, 0, PT`` (either sign: ``x != 0`` does not depend on it;
``0`` as an immediate or RZ in either slot; combining operation AND with a
plain ``PT``; no ``.EX``; unguarded; its second result unread) whose ``x``
is the register result of an unguarded ``LOP3`` without a predicate result
becomes that LOP3's predicate result: the LOP3 is rebuilt with ``p`` and
``q``'s readers read it.  Only in one block with no op between the two
that writes a predicate (``p`` is written at the LOP3, earlier than ``q``
was: with no other predicate written between, no point gains a P
register); a LOP3 result read by nothing else is then written only for
the predicate (ptxas writes RZ there; ori's allocator gives the dead
result a register at that one point).

``ISETP.EQ x, 0, PT`` (the same conditions) is ``!p``: every reader takes
``p`` negated -- a guard's sense flips (``@!P0``, also a branch's), a
predicate source's ``not`` flips (``SEL R0, R2, R3, !P0``, a PLOP3 input).
When some reader cannot write the negation (an edge argument, a tied
prior), the ISETP stays.  ptxas tests bits so in CUB's histogram sweep
(``LOP3.LUT P0, RZ, R3, 0x3, RZ, 0xc0, !PT``, ``ptxas -arch=sm_80``); ori's
listings of its two sweep kernels are 68 instructions shorter each.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import BraOp
from ori_dialect.ops.integer import Lop3Op
from ori_dialect.ops.predicate import ISetPOp
from passes.general_optimize.common import (
    CountingPattern,
    is_pt,
    is_rz,
    no_write_between,
    rebuild,
    unguarded,
)


def _zero(v: object) -> bool:
    return is_rz(v) or (isinstance(v, IntegerAttr) and v.value.data == 0)


def _tested(op: ISetPOp) -> tuple[SSAValue, bool] | None:
    """``op`` is ``ISETP.NE x, 0, PT`` or ``ISETP.EQ x, 0, PT`` as the module
    docstring says: (``x``, the test is EQ)."""
    if not unguarded(op) or op.has_mod("ex") or op.mod("cmp") not in ("ne", "eq"):
        return None
    if op.mod("bop") not in (None, "and") or any(r.uses for r in op.results[1:]):
        return None
    if op.smod_map():
        return None
    vals = {s.name: v for s, v in op.slot_values()}
    c = vals.get("c")
    if not is_pt(c):
        return None
    a, b = vals.get("a"), vals.get("b")
    eq = op.mod("cmp") == "eq"
    if isinstance(a, SSAValue) and _zero(b):
        return a, eq
    if isinstance(b, SSAValue) and _zero(a):
        return b, eq
    return None


def negated_reader(user: Operation, q: SSAValue, p: SSAValue) -> Operation | None:
    """A copy of ``user`` that reads ``not p`` wherever it read ``q``: a
    guard's sense flips (instructions and branches), a predicate source's
    ``not`` flips.  None when ``user`` reads ``q`` where no negation can be
    written (an edge argument, a tied prior, a call's argument)."""
    if isinstance(user, BraOp):
        if user.guard is not q or any(v is q for s in range(len(user.successors))
                                      for v in user.edge_args(s)):
            return None
        new_bra = BraOp(user.successors[0], list(user.edge_args(0)), guard=p,
                        guard_neg=user.guard_neg is None,
                        fallthrough=user.successors[1] if len(user.successors) > 1 else None,
                        fallthrough_args=list(user.edge_args(1)) if len(user.successors) > 1
                        else ())
        new_bra.attributes.update(user.attributes)
        return new_bra
    if not isinstance(user, OriInstruction):
        return None
    _, guard, prior = user.operand_groups()
    if any(v is q for v in prior):
        return None
    smods = dict(user.smod_map())
    values: list[SSAValue | Attribute] = []
    for slot, v in user.slot_values():
        if v is q:
            if "not" not in slot.smods:
                return None
            flipped = [m for m in smods.get(slot.name, "").split(".") if m]
            flipped = [m for m in flipped if m != "not"] if "not" in flipped else [*flipped, "not"]
            if flipped:
                smods[slot.name] = ".".join(flipped)
            else:
                smods.pop(slot.name, None)
            values.append(p)
        else:
            values.append(v)
    flip = (p, "guard_neg" not in user.properties) if guard is q else None
    return rebuild(user, values, smods=smods, guard=flip)


class Lop3Predicate(CountingPattern):
    """``ISETP.NE (LOP3 ..), 0`` -> the LOP3's predicate result (module docstring)."""

    ROOTS = (ISetPOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ISetPOp, rewriter: PatternRewriter) -> None:
        tested = _tested(op)
        if tested is None:
            return
        x, eq = tested
        lop = x.owner
        if not isinstance(lop, Lop3Op) or len(lop.results) != 1 or not unguarded(lop):
            return
        if lop.parent_block() is not op.parent_block() or not no_write_between(lop, op, RegFile.P):
            return
        new = Lop3Op.make([v for _, v in lop.slot_values()],  # type: ignore[misc]
                          [lop.results[0].type, op.results[0].type],
                          mods=lop.mods.data if lop.mods is not None else "",
                          smods=lop.smod_map(), attributes=dict(lop.attributes))
        new.results[0].name_hint = lop.results[0].name_hint
        q = op.results[0]
        readers: list[tuple[Operation, Operation]] = []
        if eq:
            # every reader must take the predicate negated (``@!P0``, ``!P0``)
            for user in {id(u.operation): u.operation for u in q.uses}.values():
                flipped = negated_reader(user, q, new.results[1])
                if flipped is None:
                    return
                readers.append((user, flipped))
        else:
            new.results[1].name_hint = q.name_hint
        rewriter.insert(new, InsertPoint.before(lop))
        rewriter.replace_all_uses_with(lop.results[0], new.results[0])
        rewriter.erase(lop)
        for user, flipped in readers:
            rewriter.replace(user, flipped)
        if not eq:
            rewriter.replace_all_uses_with(q, new.results[1])
        rewriter.erase(op)
        self.counts["lop3-predicate"] += 1


__all__ = ["Lop3Predicate"]
