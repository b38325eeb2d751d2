"""PTX types and the Ori register types that hold them.

Register model of the import (a decision of ori, documented in the README):

* ``.pred`` -> ``!ori.p``.
* Every type of 32 bits or fewer (``b8 u8 s8 b16 u16 s16 f16 bf16 b32 u32 s32
  f32 f16x2 bf16x2``) -> ``!ori.r32``.  A value narrower than 32 bits is
  kept **zero-extended** (its upper bits are 0), whatever its signedness; an
  operation that depends on the upper bits (signed compare, right shift,
  widening convert, division) sign-extends first.  ptxas also gives 8/16-bit
  PTX registers a full 32-bit GPR.
* 64-bit types -> ``!ori.r64`` (an aligned register pair); ``b128`` -> ``!ori.r128``.
"""

from __future__ import annotations

from ori_dialect.ir.registers import OriRegisterType, PredType, R32Type, R64Type, R128Type

_BITS = {
    "pred": 1,
    "b8": 8, "u8": 8, "s8": 8,
    "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
    "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32, "bf16x2": 32,
    "e4m3x2": 16, "e5m2x2": 16,
    "b64": 64, "u64": 64, "s64": 64, "f64": 64,
    "b128": 128,
}


def type_bits(t: str) -> int:
    """Bit width of PTX type ``t`` (``pred`` counts as 1)."""
    return _BITS[t]


def reg_class(t: str) -> type[OriRegisterType]:
    """The Ori register type that holds a PTX register of type ``t``."""
    if t == "pred":
        return PredType
    bits = _BITS[t]
    if bits == 64:
        return R64Type
    if bits == 128:
        return R128Type
    return R32Type


def is_signed(t: str) -> bool:
    return t.startswith("s")


def is_float(t: str) -> bool:
    return t.startswith(("f", "bf"))


__all__ = ["is_float", "is_signed", "reg_class", "type_bits"]
