"""Floating-point arithmetic: FP32 (FMA pipe), FP64 (DFMA pipe), packed FP16
(HADD2/HMUL2/HFMA2) and the MUFU transcendental unit.

Rounding modifiers ``rn`` (default), ``rm``, ``rp``, ``rz``; ``ftz`` flushes
denormals; ``sat`` clamps the result to [0, 1].  FFMA/DFMA/HFMA2 are fused
(one rounding).
"""

from __future__ import annotations

from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src, flag
from ori_dialect.ir.metadata import LatencyClass, Pipe
from ori_dialect.ops.base import R64, R, fsrc, ori_op, pred

_RND = ModGroup("rnd", ("rn", "rm", "rp", "rz"), default="rn")
_FTZ = flag("ftz")
_SAT = flag("sat")


class Fp32Op(OriInstruction):
    LATENCY = LatencyClass.STANDARD
    PIPE = Pipe.FMA
    REMATERIALIZABLE = True
    DSTS = (Dst("d", R),)


@ori_op
class FAddOp(Fp32Op):
    """FADD: ``d = a + b``."""

    name = "ori.fadd"
    SASS = "FADD"
    COMMUTATIVE = (("a", "b"),)
    SRCS = (fsrc("a"), fsrc("b", immediate=True, cbank=True))
    MODS = (_RND, _FTZ, _SAT)


@ori_op
class FMulOp(Fp32Op):
    """FMUL: ``d = a * b``."""

    name = "ori.fmul"
    SASS = "FMUL"
    COMMUTATIVE = (("a", "b"),)
    SRCS = (fsrc("a"), fsrc("b", immediate=True, cbank=True))
    MODS = (_RND, _FTZ, _SAT)


@ori_op
class FFmaOp(Fp32Op):
    """FFMA: ``d = a * b + c``, rounded once."""

    name = "ori.ffma"
    SASS = "FFMA"
    COMMUTATIVE = (("a", "b"),)
    SRCS = (fsrc("a"), fsrc("b", immediate=True, cbank=True), fsrc("c", immediate=True, cbank=True))
    MODS = (_RND, _FTZ, _SAT)


@ori_op
class FMnMxOp(Fp32Op):
    """FMNMX: ``d = sel ? min(a, b) : max(a, b)``; a NaN input yields the other input."""

    name = "ori.fmnmx"
    SASS = "FMNMX"
    SRCS = (fsrc("a"), fsrc("b", immediate=True, cbank=True), pred("sel"))
    MODS = (_FTZ,)


MUFU_FUNCS = ("rcp", "rsq", "sqrt", "sin", "cos", "ex2", "lg2", "tanh", "rcp64h", "rsq64h")


@ori_op
class MufuOp(OriInstruction):
    """MUFU: approximate transcendental of ``a`` on the XU pipe.

    ``sin``/``cos`` take the angle in radians pre-scaled by 1/(2*pi) as PTX's
    ``sin.approx`` lowering does on sm_70+ (ptxas multiplies by 0.15915494 first);
    ``ex2``/``lg2`` are base 2; ``rcp64h``/``rsq64h`` give the high word of the
    FP64 seed from the high word of an FP64 input.
    """

    name = "ori.mufu"
    SASS = "MUFU"
    LATENCY = LatencyClass.SPECIAL
    PIPE = Pipe.XU
    DSTS = (Dst("d", R),)
    SRCS = (fsrc("a", immediate=True, cbank=True),)
    MODS = (ModGroup("func", MUFU_FUNCS, required=True), _FTZ)


class Fp64Op(OriInstruction):
    LATENCY = LatencyClass.FP64
    PIPE = Pipe.DFMA
    REMATERIALIZABLE = True
    DSTS = (Dst("d", R64),)
    MODS = (_RND,)


@ori_op
class DAddOp(Fp64Op):
    """DADD: ``d = a + b`` in float64."""

    name = "ori.dadd"
    SASS = "DADD"
    SRCS = (fsrc("a", width=64), fsrc("b", width=64, immediate=True, cbank=True))


@ori_op
class DMulOp(Fp64Op):
    """DMUL: ``d = a * b`` in float64."""

    name = "ori.dmul"
    SASS = "DMUL"
    SRCS = (fsrc("a", width=64), fsrc("b", width=64, immediate=True, cbank=True))


@ori_op
class DFmaOp(Fp64Op):
    """DFMA: ``d = a * b + c`` in float64, rounded once."""

    name = "ori.dfma"
    SASS = "DFMA"
    SRCS = (
        fsrc("a", width=64),
        fsrc("b", width=64, immediate=True, cbank=True),
        fsrc("c", width=64, immediate=True, cbank=True),
    )


def _h2(name: str) -> Src:
    """A packed pair of halves in one GPR (low half = element 0)."""
    return Src(name, R, imm="int", cbank=True, smods=frozenset({"neg", "abs"}))


class Half2Op(OriInstruction):
    """Packed half-precision pairs; ``bf16`` switches both lanes to bfloat16,
    ``f32`` makes the (first-lane) result a float32."""

    LATENCY = LatencyClass.PAIRED
    PIPE = Pipe.FMA
    REMATERIALIZABLE = True
    DSTS = (Dst("d", R),)
    MODS = (ModGroup("fmt", ("f16", "bf16"), default="f16"), flag("f32"), _FTZ, _SAT)


@ori_op
class HAdd2Op(Half2Op):
    """HADD2: lane-wise ``d = a + b``."""

    name = "ori.hadd2"
    SASS = "HADD2"
    SRCS = (_h2("a"), _h2("b"))


@ori_op
class HMul2Op(Half2Op):
    """HMUL2: lane-wise ``d = a * b``."""

    name = "ori.hmul2"
    SASS = "HMUL2"
    SRCS = (_h2("a"), _h2("b"))


@ori_op
class HFma2Op(Half2Op):
    """HFMA2: lane-wise fused ``d = a * b + c``."""

    name = "ori.hfma2"
    SASS = "HFMA2"
    SRCS = (_h2("a"), _h2("b"), _h2("c"))


__all__ = [
    "MUFU_FUNCS",
    "DAddOp",
    "DFmaOp",
    "DMulOp",
    "FAddOp",
    "FFmaOp",
    "FMnMxOp",
    "FMulOp",
    "HAdd2Op",
    "HFma2Op",
    "HMul2Op",
    "MufuOp",
]
