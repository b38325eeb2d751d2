"""``imad-identity``: ``IMAD a, 1, c`` is an add, ``IMAD a, 0, c`` is ``c``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold
+ copy prop"): once constant propagation has written a multiplier of 1 or 0
into an IMAD (the wmma lowering's ``row * ldm + col * 1`` fragment
offsets, address arithmetic whose stride is a known 1), the multiply is an
identity.  ``IMAD d, a, 0x1, c`` becomes ``IADD3 d, a, c, RZ`` (which
``iadd3-merge`` may then merge into its reader), ``IMAD d, a, 0x1, RZ``
and ``IMAD d, a, 0x0, c`` are copies (every reader of ``d`` reads ``a`` or
``c``; a constant ``c`` becomes a ``MOV``).

Only the plain 32-bit ``lo`` form: unguarded, no carry-in or carry-out, no
source modifier (the ``.hi`` and ``.wide`` forms and carry chains compute
other words).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp, MovOp
from passes.general_optimize.common import CountingPattern, erase_replaced, is_rz, replace_op


def _multiplier(op: IMadOp) -> int | None:
    b = op.src("b")
    return b.value.data & 0xFFFFFFFF if isinstance(b, IntegerAttr) else None


class ImadIdentity(CountingPattern):
    """``IMAD a, 1, c`` -> ``IADD3 a, c, RZ`` (or ``a``); ``IMAD a, 0, c`` -> ``c``."""

    ROOTS = (IMadOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IMadOp, rewriter: PatternRewriter) -> None:
        if (not op.is_plain() or op.mod("mode") not in (None, "lo") or op.has_mod("x")
                or len(op.results) != 1 or not isinstance(op.results[0].type, R32Type)):
            return
        k = _multiplier(op)
        a, c = op.src("a"), op.src("c")
        if k not in (0, 1) or not isinstance(a, SSAValue) or c is None:
            return
        d = op.results[0]
        keep = a if k == 1 else c
        if (k == 0 or is_rz(c)) and isinstance(keep, SSAValue) and keep.type == d.type:
            erase_replaced(rewriter, op, [keep])
            self.counts["imad-identity"] += 1
            return
        try:
            if k == 0 or is_rz(c):
                new: Operation = MovOp.make([0 if is_rz(keep) else keep], [d.type])
            else:
                new = IAdd3Op.make([a, c, R32Type.fixed()], [d.type])
            new.verify()
        except VerifyException:
            return  # a form the replacement does not take (a UR source...): left as it is
        replace_op(rewriter, op, new)
        self.counts["imad-identity"] += 1


__all__ = ["ImadIdentity"]
