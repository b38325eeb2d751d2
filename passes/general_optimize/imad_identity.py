"""``imad-identity``: ``IMAD a, 1, c`` is an add, ``IMAD a, 0, c`` is ``c``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold
+ copy prop"): once constant propagation has written a multiplier of 1 or 0
into an IMAD (the wmma lowering's ``row * ldm + col * 1`` fragment
offsets, address arithmetic whose stride is a known 1), the multiply is an
identity.  ``IMAD d, a, 0x1, c`` becomes ``IADD3 d, a, c, RZ`` (which
``iadd3-merge`` may then merge into its reader), ``IMAD d, a, 0x1, RZ``
and ``IMAD d, a, 0x0, c`` are copies (every reader of ``d`` reads ``a`` or
``c``; a constant ``c`` becomes a ``MOV``).

A multiplicand that is a known constant (a ``MOV imm`` const-prop could not
write into the slot because the immediate port is taken: the wmma
lowering's ``ldm`` register times a fragment stride) makes the product a
constant too: ``IMAD d, K, imm, c`` becomes ``IADD3 d, c, K*imm, RZ``
(``MOV`` when ``c`` is RZ, ``c`` when the product is 0), which
``addr-offset`` then folds into the accesses that read it.

``IADD3 x, RZ, RZ`` (what is left once const-prop writes a 0 addend as
RZ) is ``x``: its readers read ``x``.

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
from passes.general_optimize.common import (
    CountingPattern,
    erase_replaced,
    is_rz,
    known,
    replace_op,
)


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
        if k is None or not (isinstance(a, SSAValue) or is_rz(a)) or c is None:
            return
        ka = 0 if is_rz(a) else known(a)
        if ka is not None and (is_rz(a) or isinstance(a.type, R32Type)):
            self._constant_product((int(ka) * k) & 0xFFFFFFFF, op, rewriter)
            return
        if k not in (0, 1) or not isinstance(a, SSAValue):
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

    def _constant_product(self, p: int, op: IMadOp, rewriter: PatternRewriter) -> None:
        """``IMAD K, imm, c`` with ``K`` a known constant: ``c + K*imm``."""
        c = op.src("c")
        d = op.results[0]
        if p == 0 and isinstance(c, SSAValue) and c.type == d.type:
            erase_replaced(rewriter, op, [c])
            self.counts["imad-identity"] += 1
            return
        if not isinstance(c, SSAValue) and not is_rz(c):
            return  # an immediate or c[..][..] addend: all-constant ``fold``'s, or two ports
        try:
            if is_rz(c):
                new: Operation = MovOp.make([p], [d.type])
            else:
                new = IAdd3Op.make([c, p, R32Type.fixed()], [d.type])
            new.verify()
        except VerifyException:
            return
        replace_op(rewriter, op, new)
        self.counts["imad-identity"] += 1


class AddIdentity(CountingPattern):
    """``IADD3 x, RZ, RZ`` (in any slot order, 0 for RZ) is ``x``: what is
    left of an add once const-prop has written a constant 0 as RZ."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if not op.is_plain() or op.has_mod("x") or op.smod_map() or any(
                r.uses for r in op.results[1:]):
            return
        regs = [v for _, v in op.slot_values()
                if not (is_rz(v) or isinstance(v, IntegerAttr) and v.value.data == 0)]
        d = op.results[0]
        if len(regs) != 1 or not isinstance(regs[0], SSAValue) or regs[0].type != d.type:
            return
        erase_replaced(rewriter, op, [regs[0]])
        self.counts["imad-identity"] += 1


__all__ = ["AddIdentity", "ImadIdentity"]
