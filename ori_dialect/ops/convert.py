"""Conversions.  Modifiers name the destination type first, then the source
type (``f32.s32`` converts a signed 32-bit integer to float32).  Result and
source widths follow the types: 64-bit types use register pairs."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src, flag
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ir.registers import OriRegisterType, R32Type, R64Type
from ori_dialect.ops.base import ori_op

INT_TYPES = ("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64")
FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
_RND = ModGroup("rnd", ("rn", "rm", "rp", "rz"), default="rn")
_WIDE = (R32Type, R64Type)


def _bits(t: str) -> int:
    return 64 if t.endswith("64") else 32


class ConvertOp(OriInstruction):
    LATENCY = LatencyClass.CONVERT
    PIPE = Pipe.XU
    REMATERIALIZABLE = True
    DSTS = (Dst("d", _WIDE),)
    SRCS = (Src("a", _WIDE, imm="int", cbank=True),)

    def verify_semantics(self) -> None:
        dt, st = self.mod("dst"), self.mod("src")
        assert dt is not None and st is not None  # required groups
        _check_width(self, "result", self.dsts[0].type, dt)
        a = self.src_reg("a")
        if a is not None:
            _check_width(self, "source", a.type, st)


def _check_width(op: OriInstruction, what: str, t: object, ty: str) -> None:
    want = 64 if _bits(ty) == 64 else 32
    if isinstance(t, OriRegisterType) and t.BITS != want:
        raise VerifyException(f"{op.name}: {ty} {what} needs a {want}-bit register, got {t}")


@ori_op
class I2FOp(ConvertOp):
    """I2F: integer to float with rounding."""

    name = "ori.i2f"
    SASS = "I2F"
    MODS = (
        ModGroup("dst", FLOAT_TYPES, required=True),
        ModGroup("src", INT_TYPES, required=True),
        _RND,
    )


@ori_op
class F2IOp(ConvertOp):
    """F2I: float to integer; rounds per ``rnd`` (``rz`` = truncate), saturates
    to the integer range, NaN gives 0 (PTX ``cvt.rzi`` semantics)."""

    name = "ori.f2i"
    SASS = "F2I"
    MODS = (
        ModGroup("dst", INT_TYPES, required=True),
        ModGroup("src", FLOAT_TYPES, required=True),
        _RND,
        flag("ftz"),
    )


@ori_op
class F2FOp(ConvertOp):
    """F2F: float to float with rounding (and ``rni``-style integral rounding
    when ``int`` is given, PTX ``cvt.rni.f32.f32``)."""

    name = "ori.f2f"
    SASS = "F2F"
    MODS = (
        ModGroup("dst", FLOAT_TYPES, required=True),
        ModGroup("src", FLOAT_TYPES, required=True),
        _RND,
        flag("int"),
        flag("ftz"),
        flag("sat"),
    )


@ori_op
class I2IOp(ConvertOp):
    """I2I: integer narrowing / widening with optional saturation."""

    name = "ori.i2i"
    SASS = "I2I"
    LATENCY = LatencyClass.SHORT_ALU
    PIPE = Pipe.ALU
    MODS = (
        ModGroup("dst", INT_TYPES, required=True),
        ModGroup("src", INT_TYPES, required=True),
        flag("sat"),
    )


__all__ = ["FLOAT_TYPES", "INT_TYPES", "F2FOp", "F2IOp", "I2FOp", "I2IOp"]


@ori_op
class F2FPOp(OriInstruction):
    """F2FP.PACK_AB (``F2FP.BF16.PACK_AB``): two float32 values rounded to
    nearest even to f16 (bf16) and packed into one register, ``a`` in the
    upper half and ``b`` in the lower -- PTX ``cvt.rn.f16x2.f32 d, a, b``
    (``bf16x2``) in one instruction, as ptxas 13.0 emits it on sm_80 and
    later (Triton's attention kernel packs its probabilities this way)."""

    name = "ori.f2fp"
    SASS = "F2FP"
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.FMA
    REMATERIALIZABLE = True
    DSTS = (Dst("d", (R32Type,)),)
    SRCS = (Src("a", (R32Type,)), Src("b", (R32Type,), cbank=True))
    MODS = (
        ModGroup("dst", ("f16", "bf16"), default="f16"),
        ModGroup("pack", ("pack_ab",), required=True),
    )

