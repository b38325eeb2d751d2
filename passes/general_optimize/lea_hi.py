"""``lea-hi``: ``x + (a >> n)`` (a logical shift right by 1..31) becomes one
``LEA.HI d, a, x, RZ, 32 - n``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly) and issue 19
item 3 ("the remaining operand forms SASS has"): a signed division by
``2^k`` rounds toward zero by adding ``2^k - 1`` to a negative dividend
first; nvcc writes it ``shr.s32 s, x, 31; shr.u32 t, s, 32-k; add.s32 u,
x, t; shr.s32 q, u, k``, which imports as ``SHR``, ``SHR.U32``, ``IADD3``,
``SHR``.  ptxas 13.0 adds the shifted sign word in the LEA's high form
(``SHF.R.S32.HI R17, RZ, 0x1f, R4`` / ``LEA.HI R22, R17, R4, RZ, 0x4``
in the WGMMA examples' shared-memory swizzle, sixteen per loop
iteration): ``LEA.HI d, a, b, RZ, s`` is ``b + ((RZ:a) << s >> 32)``,
``b + (a >> (32 - s))``, so the ``SHR.U32`` costs no instruction of its
own.

``d = IADD3 x, t, RZ`` (either order, RZ or 0 as the third source;
unguarded, no source modifiers, no carry in, no carry out read) with ``t =
SHR.U32 a, n`` (unguarded, ``a`` a register, ``n`` an immediate in 1..31)
becomes ``LEA.HI d = a, x, RZ, 32 - n``.  The ``SHR.U32`` dies with its
last reader (the dead-code sweep); while other readers keep it, the
``LEA.HI`` costs what the ``IADD3`` did.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.integer import IAdd3Op, LeaOp, ShrOp
from passes.general_optimize.common import CountingPattern, is_rz, port_constants, unguarded


def logical_shift_of(v: SSAValue | Attribute) -> tuple[SSAValue, int] | None:
    """``v`` is ``SHR.U32 a, n`` of a register ``a`` with ``n`` in 1..31
    (unguarded): ``(a, n)``."""
    if not isinstance(v, SSAValue) or not isinstance(v.owner, ShrOp):
        return None
    shr = v.owner
    if not unguarded(shr) or shr.mod("sign") != "u32" or shr.smod_map():
        return None
    a, n = shr.src("a"), shr.src("b")
    if not isinstance(a, SSAValue) or not isinstance(n, IntegerAttr):
        return None
    if not 1 <= n.value.data <= 31:
        return None
    return a, n.value.data


def _zero(v: object) -> bool:
    return is_rz(v) or (isinstance(v, IntegerAttr) and v.value.data == 0)


class ShiftedAddToLeaHi(CountingPattern):
    """``IADD3 x, (SHR.U32 a, n), RZ`` -> ``LEA.HI a, x, RZ, 32 - n``."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if op.has_mod("x") or not unguarded(op) or op.smod_map():
            return
        if any(r.uses for r in op.results[1:]):
            return
        srcs = [op.src(k) for k in ("a", "b", "c")]
        zeros = [k for k, s in enumerate(srcs) if _zero(s)]
        if len(zeros) != 1:
            return
        rest = [s for k, s in enumerate(srcs) if k != zeros[0]]
        for t, x in (rest, rest[::-1]):
            shifted = logical_shift_of(t)  # type: ignore[arg-type]
            if shifted is None:
                continue
            a, n = shifted
            try:
                lea = LeaOp.make([a, x, 32 - n, R32Type.fixed()], [op.results[0].type],
                                 mods="hi", attributes=dict(op.attributes))
                lea.verify()
            except VerifyException:
                continue
            if port_constants(lea, lea.slot_values()) > 1:
                continue
            lea.results[0].name_hint = op.results[0].name_hint
            rewriter.insert(lea, InsertPoint.before(op))
            rewriter.replace_all_uses_with(op.results[0], lea.results[0])
            rewriter.erase(op)
            self.counts["lea-hi"] += 1
            return


__all__ = ["ShiftedAddToLeaHi", "logical_shift_of"]
