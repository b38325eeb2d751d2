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
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.integer import Lop3Op
from ori_dialect.ops.predicate import ISetPOp
from passes.general_optimize.common import (
    CountingPattern,
    is_pt,
    is_rz,
    no_write_between,
    unguarded,
)


def _zero(v: object) -> bool:
    return is_rz(v) or (isinstance(v, IntegerAttr) and v.value.data == 0)


def _tested(op: ISetPOp) -> SSAValue | None:
    """``op`` is ``ISETP.NE x, 0, PT`` as the module docstring says: ``x``."""
    if not unguarded(op) or op.has_mod("ex") or op.mod("cmp") != "ne":
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
    if isinstance(a, SSAValue) and _zero(b):
        return a
    if isinstance(b, SSAValue) and _zero(a):
        return b
    return None


class Lop3Predicate(CountingPattern):
    """``ISETP.NE (LOP3 ..), 0`` -> the LOP3's predicate result (module docstring)."""

    ROOTS = (ISetPOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ISetPOp, rewriter: PatternRewriter) -> None:
        x = _tested(op)
        if x is None:
            return
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
        new.results[1].name_hint = op.results[0].name_hint
        rewriter.insert(new, InsertPoint.before(lop))
        rewriter.replace_all_uses_with(lop.results[0], new.results[0])
        rewriter.erase(lop)
        rewriter.replace_all_uses_with(op.results[0], new.results[1])
        rewriter.erase(op)
        self.counts["lop3-predicate"] += 1


__all__ = ["Lop3Predicate"]
