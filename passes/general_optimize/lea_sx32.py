"""``lea-sx32``: the high half of ``base + (int64)i`` reads ``i``'s sign
extension through ``LEA.HI.X.SX32`` instead of a sign word in a register.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly) and issue 19
item 3 ("the remaining operand forms SASS has"): PTX's ``cvt.s64.s32 %rd,
%r; add.s64 %rd2, %rd, %rb`` imports as ``h = SHR x, 0x1f`` (the sign word),
``lo, c = IADD3 x, bl, RZ`` and ``hi = IADD3.X h, bh, RZ, c``; ptxas writes
the high half as ``LEA.HI.X.SX32 R9, R2, RZ, 0x1, P0`` (CUB's reduce,
histogram and radix-sort kernels, ``ptxas -arch=sm_80``), so the sign word
needs neither an instruction nor a register -- in CUB's reduce kernel ori
kept sixteen of them live across the tile loop.

``hi = IADD3.X a, b, c, ci0`` (unguarded, no source modifiers, no second
carry-in, no carry-out read) with one source ``h = SHR.S32 x, 0x1f``
(unguarded, ``x`` a register), one ``RZ`` and one other source ``y``
becomes ``LEA.HI.X.SX32 hi = x, y, 0x1, ci0``: ``(sext64(x) << 1) >> 32``
is ``x``'s sign word.  The SHR dies with its last reader (the dead-code
sweep).

The scaled form too (:class:`SignWordLeaHi`): ``LEA.HI[.X] d = a, b, s,
(SHR.S32 a, 31)[, ci]`` -- the high word of ``base + ((int64)a << s)``, as
``cvt.s64.s32; shl.b64; add.s64`` (an indexed 64-bit address) imports --
is ``LEA.HI[.X].SX32 d = a, b, s[, ci]`` (ptxas's ``LEA.HI.X.SX32 R5, R7,
R0, 0x1, P0`` in CUB's histogram sweep): ``(a_sign:a) << s >> 32`` is
``(sext64(a) << s) >> 32``.  dhorner kept the sign word of its index live
across the whole loop for the store address after it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ops.integer import IAdd3Op, LeaHiSx32Op, LeaOp, ShrOp
from passes.general_optimize.common import CountingPattern, is_rz, port_constants, unguarded


def sign_word_of(v: SSAValue | Attribute) -> SSAValue | None:
    """``v`` is ``SHR.S32 x, 0x1f`` of a register ``x`` (unguarded): ``x``."""
    if not isinstance(v, SSAValue) or not isinstance(v.owner, ShrOp):
        return None
    shr = v.owner
    if not unguarded(shr) or shr.mod("sign") == "u32" or shr.smod_map():
        return None
    amount = shr.src("b")
    x = shr.src("a")
    if not (isinstance(amount, IntegerAttr) and amount.value.data == 31):
        return None
    return x if isinstance(x, SSAValue) else None


def _rewritable(op: IAdd3Op | LeaOp, mod: str) -> bool:
    """``op`` has ``mod``, no guard, no source modifiers and no carry out
    that is read (LEA.HI.SX32 writes none)."""
    return (op.has_mod(mod) and unguarded(op) and not op.smod_map()
            and not any(r.uses for r in op.results[1:]))


def _replace_by_sx32(op: IAdd3Op | LeaOp, srcs: list[object], mods: str,
                     rewriter: PatternRewriter) -> bool:
    """``op``'s first result becomes ``LEA.HI[.X].SX32 srcs`` -- unless that
    does not verify (a ``b`` form LEA's slot does not take) or reads more
    than one constant-bank or immediate port -- and ``op`` goes."""
    try:
        new = LeaHiSx32Op.make(srcs, [op.results[0].type], mods=mods,  # type: ignore[arg-type]
                               attributes=dict(op.attributes))
        new.verify()
    except VerifyException:
        return False
    if port_constants(new, new.slot_values()) > 1:
        return False
    new.results[0].name_hint = op.results[0].name_hint
    rewriter.insert(new, InsertPoint.before(op))
    rewriter.replace_all_uses_with(op.results[0], new.results[0])
    rewriter.erase(op)
    return True


class SignWordToLea(CountingPattern):
    """``IADD3.X (SHR.S32 x, 31), y, RZ, c`` -> ``LEA.HI.X.SX32 x, y, 0x1, c``."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if not _rewritable(op, "x"):
            return
        vals = {s.name: v for s, v in op.slot_values()}
        ci = vals.get("ci0")
        if ci is None or "ci1" in vals or not isinstance(ci, SSAValue):
            return
        srcs = [vals.get(k) for k in ("a", "b", "c")]
        for i, s in enumerate(srcs):
            x = sign_word_of(s) if s is not None else None
            if x is None:
                continue
            rest = [t for j, t in enumerate(srcs) if j != i]
            if any(t is None for t in rest):
                return
            if is_rz(rest[0]):
                y = rest[1]
            elif is_rz(rest[1]):
                y = rest[0]
            else:
                return
            break
        else:
            return
        assert y is not None
        if _replace_by_sx32(op, [x, y, 1, ci], "x", rewriter):
            self.counts["lea-sx32"] += 1


class SignWordLeaHi(CountingPattern):
    """``LEA.HI[.X] a, b, s, (SHR.S32 a, 31)[, ci]`` -> ``LEA.HI[.X].SX32 a,
    b, s[, ci]`` (module docstring)."""

    ROOTS = (LeaOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LeaOp, rewriter: PatternRewriter) -> None:
        if not _rewritable(op, "hi"):
            return
        a, c = op.src("a"), op.src("c")
        if not isinstance(a, SSAValue) or c is None or sign_word_of(c) is not a:
            return
        x = op.has_mod("x")
        ci = op.src("ci")
        if x != isinstance(ci, SSAValue):
            return
        srcs: list[object] = [a, op.src("b"), op.src("shift")]
        if x:
            srcs.append(ci)
        if _replace_by_sx32(op, srcs, "x" if x else "", rewriter):
            self.counts["lea-sx32"] += 1


__all__ = ["SignWordLeaHi", "SignWordToLea", "sign_word_of"]
