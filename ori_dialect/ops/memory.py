"""Memory instructions.

Addresses are ``[base + offset]``: a 64-bit base for global and generic
memory, a 32-bit base for shared and local memory (byte addresses within the
window), RZ for an absolute address.  ``width`` gives the access size:
``u8 s8 u16 s16`` (zero/sign-extended into a 32-bit register), ``b32``
(default), ``b64`` (register pair), ``b128`` (quad).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import Dst, ModGroup, OriInstruction, Src
from ori_dialect.ir.metadata import LatencyClass, MemEffect, MemSpace, Pipe
from ori_dialect.ir.registers import (
    OriRegisterType,
    R32Type,
    R64Type,
    R128Type,
    uniform_counterpart,
)
from ori_dialect.ops.base import INDEX_SCALES, RW, R, addr, imm, ori_op

WIDTHS = ("u8", "s8", "u16", "s16", "b32", "b64", "b128")
_WIDTH = ModGroup("width", WIDTHS, default="b32")
_CACHE = ModGroup("cache", ("ef", "el", "lu", "ev", "na", "constant"))
_SEM = ModGroup("sem", ("weak", "relaxed", "acquire", "release", "strong"), default="weak")
_SCOPE = ModGroup("scope", ("cta", "gpu", "sys"))


def width_bytes(width: str) -> int:
    return {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "b32": 4, "b64": 8, "b128": 16}[width]


def _reg_for_width(width: str) -> type[OriRegisterType]:
    return {"b64": R64Type, "b128": R128Type}.get(width, R32Type)


class MemoryOp(OriInstruction):
    """Loads and stores.  ``data_value`` is the loaded result or the stored value."""

    PIPE = Pipe.LSU
    LATENCY = LatencyClass.STANDARD
    MAY_FAULT = True  # an address may be unmapped or misaligned
    DATA_SLOT: ClassVar[str | None] = None

    def data_value(self) -> SSAValue | None:
        if self.DATA_SLOT is None:
            return self.dsts[0] if self.dsts else None
        v = self.src(self.DATA_SLOT)
        return v if isinstance(v, SSAValue) else None

    def access_bytes(self) -> int:
        return width_bytes(self.mod("width") or "b32")

    def is_read_only_load(self) -> bool:
        """A constant-bank load, or a weak global load with the ``constant``
        cache modifier (PTX ``ld.global.nc``)."""
        if self.MEM is not MemEffect.READ or self.is_guarded:
            return False
        if self.SPACE is MemSpace.CONST:
            return True
        if self.SPACE is not MemSpace.GLOBAL or not any(g.name == "cache" for g in self.MODS):
            return False
        return self.mod("cache") == "constant" and not self.is_ordered()

    def offset(self) -> int:
        return self.src_int("offset") or 0

    def index_scale(self) -> int:
        """What the address's base register is multiplied by (``[%a * 4 +
        o]``: 4; 1 for a plain base)."""
        return INDEX_SCALES.get(self.smod_map().get("addr", ""), 1)

    def verify_semantics(self) -> None:
        w = self.mod("width") or "b32"
        want = _reg_for_width(w)
        v = self.data_value()
        if self.UNIFORM_SASS is not None and v is not None and self.is_uniform_form():
            want = uniform_counterpart(want) or want  # ULDC.64 into a UR pair
        if v is not None and not isinstance(v.type, want):
            raise VerifyException(
                f"{self.name}: a {w} access moves a {want.name} value, got {v.type}"
            )
        o = self.offset()
        if not -(2**23) <= o < 2**24:
            raise VerifyException(f"{self.name}: address offset {o} out of the 24-bit range")


def _load(space: MemSpace, base_bits: int, latency: LatencyClass, sass: str):
    class _Load(MemoryOp):
        MEM = MemEffect.READ
        SPACE = space
        LATENCY = latency
        SASS = sass
        DSTS = (Dst("d", RW),)
        SRCS = addr(base_bits, scaled=space is MemSpace.SHARED)
        MODS = (_WIDTH, _CACHE, _SEM, _SCOPE)

    return _Load


def _store(space: MemSpace, base_bits: int, sass: str):
    class _Store(MemoryOp):
        MEM = MemEffect.WRITE
        SPACE = space
        SASS = sass
        LATENCY = LatencyClass.WIDE_MEMORY
        DATA_SLOT = "value"
        SRCS = (*addr(base_bits, scaled=space is MemSpace.SHARED), Src("value", RW))
        MODS = (_WIDTH, _CACHE, _SEM, _SCOPE)

    return _Store


@ori_op
class LdgOp(_load(MemSpace.GLOBAL, 64, LatencyClass.GLOBAL_LOAD, "LDG.E")):
    """LDG: load from global memory."""

    name = "ori.ldg"


@ori_op
class StgOp(_store(MemSpace.GLOBAL, 64, "STG.E")):
    """STG: store to global memory."""

    name = "ori.stg"


@ori_op
class LdsOp(_load(MemSpace.SHARED, 32, LatencyClass.STANDARD, "LDS")):
    """LDS: load from the CTA's shared memory."""

    name = "ori.lds"


@ori_op
class StsOp(_store(MemSpace.SHARED, 32, "STS")):
    """STS: store to the CTA's shared memory."""

    name = "ori.sts"


@ori_op
class LdlOp(_load(MemSpace.LOCAL, 32, LatencyClass.STANDARD, "LDL")):
    """LDL: load from the thread's local memory (where spills live)."""

    name = "ori.ldl"


@ori_op
class StlOp(_store(MemSpace.LOCAL, 32, "STL")):
    """STL: store to the thread's local memory."""

    name = "ori.stl"


@ori_op
class LdOp(_load(MemSpace.GENERIC, 64, LatencyClass.GLOBAL_LOAD, "LD.E")):
    """LD: load through a generic address (global, shared or local window)."""

    name = "ori.ld"


@ori_op
class StOp(_store(MemSpace.GENERIC, 64, "ST.E")):
    """ST: store through a generic address."""

    name = "ori.st"


@ori_op
class LdcOp(MemoryOp):
    """LDC: load from constant bank ``bank`` at ``[index + offset]`` (index may be RZ).
    Constant memory is read-only for a launch, so LDC is rematerializable."""

    name = "ori.ldc"
    SASS = "LDC"
    UNIFORM_SASS = "ULDC"
    MEM = MemEffect.READ
    SPACE = MemSpace.CONST
    LATENCY = LatencyClass.UNIFORM_LOAD
    REMATERIALIZABLE = True
    MAY_FAULT = False  # constant-bank reads do not fault
    CONSTANT_LIKE = True
    UNIFORM_SOURCE = True
    DSTS = (Dst("d", RW),)
    SRCS = (imm("bank"), *addr(32))
    MODS = (_WIDTH,)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        b = self.src_int("bank")
        if b is not None and not 0 <= b < 18:
            raise VerifyException("ori.ldc: constant bank must be in 0..17")

    def has_rz_index(self) -> bool:
        """The address is the immediate offset alone (``c[b][o]``)."""
        return self.src("addr") == R32Type.fixed()

    def constant_operand(self) -> tuple[Attribute, int] | None:
        """``LDC c[b][o]`` (RZ index): the constant-bank word, 32-bit, or the
        64-bit pair at an 8-aligned offset for ``LDC.64``."""
        if not self.is_plain() or not self.has_rz_index():
            return None
        bank = self.src_int("bank")
        if bank is None:
            return None
        w = self.mod("width")
        if w == "b32":
            return CBankAttr(bank, self.offset()), 32
        if w == "b64" and self.offset() % 8 == 0:
            return CBankAttr(bank, self.offset()), 64
        return None

    def reads_only_uniform_inputs(self) -> bool:
        """``c[b][o]`` with an RZ index reads the same word in every thread."""
        return self.operand_groups()[1] is None and self.has_rz_index()

    def has_uniform_form(self) -> bool:
        """``ULDC`` reads ``c[b][o]`` (an RZ index) of up to 64 bits
        (``ULDC``, ``ULDC.64``, ``ULDC.U8`` ...)."""
        return self.has_rz_index() and self.mod("width") != "b128"


ATOM_OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas")
ATOM_TYPES = ("s32", "u32", "s64", "u64", "f32", "f64", "f16x2", "bf16x2")


class AtomicOp(MemoryOp):
    """Atomic read-modify-write: ``d = old = mem[a]; mem[a] = old OP b`` (for
    ``cas``: ``mem[a] = old == value ? swap : old``, so ``value`` is the
    compare operand, as in PTX ``atom.cas d, [a], b, c``)."""

    MEM = MemEffect.READ_WRITE
    SIDE_EFFECTS = True
    LATENCY = LatencyClass.STANDARD
    DATA_SLOT = "value"
    MODS = (
        ModGroup("op", ATOM_OPS, required=True),
        ModGroup("type", ATOM_TYPES, default="s32"),
        _SCOPE,
    )

    def access_bytes(self) -> int:
        return 8 if (self.mod("type") or "").endswith("64") else 4

    def variable_slot_bits(self, slot: Src) -> int:
        # value/swap take either width: the ``type`` modifier decides.
        return 64 if (self.mod("type") or "").endswith("64") else 32

    def verify_semantics(self) -> None:
        want = R64Type if self.access_bytes() == 8 else R32Type
        for name in ("value", "swap"):
            v = self.src(name)
            if isinstance(v, SSAValue) and not isinstance(v.type, want):
                raise VerifyException(f"{self.name}: operand '{name}' must be {want.name}")
        for r in self.dsts:
            if not isinstance(r.type, want):
                raise VerifyException(f"{self.name}: result must be {want.name}")
        if (self.mod("op") == "cas") != (self.src("swap") is not None):
            raise VerifyException(f"{self.name}: 'cas' takes a compare and a swap value, others one value")


def _atom_srcs(base_bits: int, scaled: bool = False) -> tuple[Src, ...]:
    return (
        *addr(base_bits, scaled=scaled),
        Src("value", (R32Type, R64Type), imm="int"),
        Src("swap", (R32Type, R64Type), optional=True),
    )


@ori_op
class AtomOp(AtomicOp):
    """ATOM: atomic on global (or generic) memory, returning the old value."""

    name = "ori.atom"
    SASS = "ATOM.E"
    SPACE = MemSpace.GLOBAL
    DSTS = (Dst("d", (R32Type, R64Type)),)
    SRCS = _atom_srcs(64)


@ori_op
class AtomsOp(AtomicOp):
    """ATOMS: atomic on shared memory, returning the old value."""

    name = "ori.atoms"
    SASS = "ATOMS"
    SPACE = MemSpace.SHARED
    DSTS = (Dst("d", (R32Type, R64Type)),)
    SRCS = _atom_srcs(32, scaled=True)  # ATOMS.ADD [R4.X4], R5


@ori_op
class RedOp(AtomicOp):
    """RED: atomic reduction on global memory without a result."""

    name = "ori.red"
    SASS = "RED.E"
    SPACE = MemSpace.GLOBAL
    LATENCY = LatencyClass.WIDE_MEMORY
    DSTS = ()
    SRCS = _atom_srcs(64)[:3]


__all__ = [
    "WIDTHS",
    "AtomOp",
    "AtomicOp",
    "AtomsOp",
    "LdOp",
    "LdcOp",
    "LdgOp",
    "LdlOp",
    "LdsOp",
    "MemoryOp",
    "RedOp",
    "StOp",
    "StgOp",
    "StlOp",
    "StsOp",
    "width_bytes",
]
_ = R
