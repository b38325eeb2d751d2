"""Comparisons and predicate logic.

A SETP computes ``r = a CMP b`` and writes ``p = r BOP c`` and, when the
second result is present, ``q = (not r) BOP c`` (SASS ISETP/FSETP/DSETP; PTX
``setp`` with a combining predicate).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src, flag
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import PredType
from ori_dialect.ops.base import P, R, fsrc, imm, ori_op, pred, reg, rio

_BOP = ModGroup("bop", ("and", "or", "xor"), default="and")
INT_CMPS = ("f", "lt", "eq", "le", "gt", "ne", "ge", "t")
# Ordered comparisons are false on NaN; the *u forms are true on NaN.
FLOAT_CMPS = (
    "f", "lt", "eq", "le", "gt", "ne", "ge", "num", "nan",
    "ltu", "equ", "leu", "gtu", "neu", "geu", "t",
)
MIRRORED_CMP = {
    "lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne", "f": "f", "t": "t",
}
"""The integer comparison with its operands swapped: ``a CMP b == b MIRRORED_CMP[CMP] a``."""
MIRRORED_FLOAT_CMP = {
    **MIRRORED_CMP, "ltu": "gtu", "gtu": "ltu", "leu": "geu", "geu": "leu", "equ": "equ",
    "neu": "neu", "num": "num", "nan": "nan",
}
"""The float comparison with its operands swapped (``num``/``nan`` and the
unordered forms are as symmetric in NaN as their ordered ones)."""
_SETP_DSTS = (Dst("p", P), Dst("q", P, optional=True))


@ori_op
class ISetPOp(OriInstruction):
    """ISETP: integer compare.  ``ex`` compares the high words of a 64-bit pair
    using the low-word result chained through ``cin``: ``r = (a CMP b)`` on the
    high words when they differ, else ``cin`` -- the predicate written by the
    compare of the low words with the same ``CMP`` on ``u32``
    (``ISETP.GE.U32.AND P0, PT, lo_a, lo_b, PT; ISETP.GE.AND.EX P0, PT, hi_a,
    hi_b, PT, P0`` is a signed 64-bit ``a >= b``)."""

    name = "ori.isetp"
    SASS = "ISETP"
    UNIFORM_SASS = "UISETP"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    REMATERIALIZABLE = True
    FOLDABLE = True
    COMMUTATIVE = (("a", "b"),)
    DSTS = _SETP_DSTS
    SRCS = (reg("a"), rio("b"), pred("c"), pred("cin", optional=True))
    MODS = (
        ModGroup("cmp", INT_CMPS, required=True),
        ModGroup("sign", ("s32", "u32"), default="s32"),
        _BOP,
        flag("ex"),
    )

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        """``a CMP b`` is ``b CMP' a`` with the comparison mirrored (``lt`` <->
        ``gt``, ``le`` <-> ``ge``); the chained ``ex`` form is not swapped."""
        cmp = self.mod("cmp")
        if self.has_mod("ex") or cmp not in MIRRORED_CMP or self.mods is None:
            return ()
        toks = [(MIRRORED_CMP[t] if t == cmp else t) for t in self.mods.data.split(".")]
        return ((("a", "b"), ".".join(toks)),)

    def verify_semantics(self) -> None:
        if self.has_mod("ex") != (self.src("cin") is not None):
            raise VerifyException("ori.isetp: the 'ex' form takes exactly one chained predicate 'cin'")


@ori_op
class FSetPOp(OriInstruction):
    """FSETP: float32 compare (``ftz`` flushes denormal inputs to zero)."""

    name = "ori.fsetp"
    SASS = "FSETP"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.FMA
    REMATERIALIZABLE = True
    DSTS = _SETP_DSTS
    SRCS = (fsrc("a"), fsrc("b", immediate=True, cbank=True), pred("c"))
    MODS = (ModGroup("cmp", FLOAT_CMPS, required=True), _BOP, flag("ftz"))

    def commutations(self) -> tuple[tuple[tuple[str, str], str | None], ...]:
        """``a CMP b`` is ``b CMP' a`` with the comparison mirrored: ptxas's
        ``FSETP.GT.AND P2, PT, R2, c[0x0][0x174], PT`` for PTX's ``setp.lt
        %bound, %x``."""
        cmp = self.mod("cmp")
        if cmp not in MIRRORED_FLOAT_CMP or self.mods is None:
            return ()
        toks = [(MIRRORED_FLOAT_CMP[t] if t == cmp else t) for t in self.mods.data.split(".")]
        return ((("a", "b"), ".".join(toks)),)


@ori_op
class DSetPOp(OriInstruction):
    """DSETP: float64 compare."""

    name = "ori.dsetp"
    SASS = "DSETP"
    LATENCY = LatencyClass.FP64
    PIPE = Pipe.DFMA
    REMATERIALIZABLE = True
    DSTS = _SETP_DSTS
    SRCS = (fsrc("a", width=64), fsrc("b", width=64, immediate=True, cbank=True), pred("c"))
    MODS = (ModGroup("cmp", FLOAT_CMPS, required=True), _BOP)


@ori_op
class PLop3Op(OriInstruction):
    """PLOP3.LUT: ``p = LUT(a, b, c)`` on predicates (bit ``(a<<2)|(b<<1)|c`` of
    ``lut``); the optional ``q`` uses the second table ``lut2``."""

    name = "ori.plop3"
    SASS = "PLOP3.LUT"
    UNIFORM_SASS = "UPLOP3.LUT"
    LATENCY = LatencyClass.SKIP
    PIPE = Pipe.ALU
    REMATERIALIZABLE = True
    FOLDABLE = True
    CONSTANT_LIKE = True
    DSTS = (Dst("p", P), Dst("q", P, optional=True))
    SRCS = (pred("a"), pred("b"), pred("c"), imm("lut"), imm("lut2", optional=True))

    def verify_semantics(self) -> None:
        for s, v in self.slot_values():
            if s.name.startswith("lut") and not 0 <= v.value.data <= 255:  # type: ignore[union-attr]
                raise VerifyException("ori.plop3: truth tables must be in 0..255")
        if (self.dst("q") is None) != (self.src("lut2") is None):
            raise VerifyException("ori.plop3: the second result needs the second table 'lut2'")

    def constant_value(self, index: int = 0) -> int | bool | None:
        """``PLOP3.LUT PT, PT, PT, lut``: row (1,1,1) of the table (the form
        folding writes a constant predicate in)."""
        if not self.is_plain() or len(self.results) != 1:
            return None
        if not isinstance(self.results[index].type, PredType):
            return None
        vals = [v for _, v in self.slot_values()]
        pt = PredType.fixed()
        if vals[:3] == [pt, pt, pt] and isinstance(vals[3], IntegerAttr):
            return bool(vals[3].value.data & 0x80)
        return None


@ori_op
class P2ROp(OriInstruction):
    """P2R: ``d = (a & ~mask) | (bits & mask)`` where bit i of ``bits`` is
    predicate source ``p<i>`` (absent ones read as false)."""

    name = "ori.p2r"
    SASS = "P2R"
    FOLDABLE = True
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    DSTS = (Dst("d", R),)
    SRCS = (reg("a"), imm("mask"), *(pred(f"p{i}", optional=True) for i in range(7)))


@ori_op
class R2POp(OriInstruction):
    """R2P: one predicate result per bit ``mask`` writes (P0-P6: bits 0-6),
    lowest first: result ``k`` is the ``k``-th set bit of ``mask`` read from
    ``a`` (``R2P PR, R19, 0x4`` writes P2 alone, from bit 2 -- a packed
    predicate spill home's reload, passes/regalloc/pred_pack.py)."""

    name = "ori.r2p"
    SASS = "R2P"
    FOLDABLE = True
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    DSTS = (Dst("p0", P), *(Dst(f"p{i}", P, optional=True) for i in range(1, 7)))
    SRCS = (reg("a"), imm("mask"))


__all__ = ["DSetPOp", "FSetPOp", "ISetPOp", "P2ROp", "PLop3Op", "R2POp"]
_ = Src
