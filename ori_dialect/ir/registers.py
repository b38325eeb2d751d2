"""Register types of the Ori IR.

Registers are types, in the manner of ``xdsl.backend.register_type``: a value of
an unallocated type (``!ori.r32``) is a virtual register; register allocation
retypes it to a physical one (``!ori.r32<R4>``).  There is one type per
(register file, width) pair so that verifiers and the allocator can read both
off the type without looking at the op.

Register files (docs/architecture.md "IR model"; seed 000 "Register Classes"):

====  ==========================  =============================  ==================
file  meaning                     physical names                 fixed registers
====  ==========================  =============================  ==================
R     32-bit GPR                  R0 .. R254                     RZ (index 255)
UR    32-bit uniform GPR          UR0 .. UR62                    URZ (index 63)
P     predicate                   P0 .. P6                       PT (index 7)
UP    uniform predicate           UP0 .. UP6                     UPT (index 7)
B     convergence barrier         B0 .. B15                      --
====  ==========================  =============================  ==================

R and UR values are 32, 64 or 128 bits wide, R values also 256 to 2048 bits
(register tuples of 8 to 64 registers, :data:`TUPLE_TYPES`: warpgroup MMA
accumulators).  A wide value occupies 2, 4, ... consecutive registers and its
base register must be a multiple of its type's :meth:`~OriRegisterType.alignment`:
its size for pairs and quads (``R4`` for a 64-bit value names R4:R5), 4 for
a register tuple (ptxas places them at any quad, :data:`TUPLE_TYPES`).  The fixed registers (RZ, URZ, PT,
UPT) read as zero / true, discard writes and never take an allocatable slot;
RZ and URZ may stand for a zero of any width.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from enum import Enum
from typing import ClassVar, Self

from xdsl.backend.register_type import RegisterType
from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException


class RegFile(Enum):
    """A hardware register file.  The value is the printed prefix."""

    R = "R"
    UR = "UR"
    P = "P"
    UP = "UP"
    B = "B"

    @property
    def is_uniform(self) -> bool:
        return self in (RegFile.UR, RegFile.UP)

    @property
    def is_predicate(self) -> bool:
        return self in (RegFile.P, RegFile.UP)


# Number of addressable (allocatable) registers per file and the index of the
# file's fixed "zero/true" register.  Allocation limits of a particular SM are
# narrower and live on the target descriptor (targets/).
_FILE_SIZE: dict[RegFile, int] = {
    RegFile.R: 255,
    RegFile.UR: 63,
    RegFile.P: 7,
    RegFile.UP: 7,
    RegFile.B: 16,
}
_FIXED_NAME: dict[RegFile, str | None] = {
    RegFile.R: "RZ",
    RegFile.UR: "URZ",
    RegFile.P: "PT",
    RegFile.UP: "UPT",
    RegFile.B: None,
}


def _names_for(file: RegFile) -> dict[str, int]:
    names = {f"{file.value}{i}": i for i in range(_FILE_SIZE[file])}
    fixed = _FIXED_NAME[file]
    if fixed is not None:
        names[fixed] = _FILE_SIZE[file]
    return names


_INDEX_BY_NAME: dict[RegFile, dict[str, int]] = {f: _names_for(f) for f in RegFile}
_UNALLOCATED: dict[type, RegisterType] = {}
_FIXED: dict[type, RegisterType] = {}
_PHYSICAL: dict[tuple[type, int], RegisterType] = {}


class OriRegisterType(RegisterType, ABC):
    """Base of every Ori register type.

    Subclasses fix ``reg_file`` and ``bits``; ``num_regs`` is the number of
    consecutive physical registers a value occupies, ``alignment`` what its
    base register must be a multiple of (``ALIGN``, else ``num_regs``).
    """

    REG_FILE: ClassVar[RegFile]
    BITS: ClassVar[int]
    ALIGN: ClassVar[int | None] = None
    """The base-register multiple when it is not the size (register tuples)."""

    @classmethod
    def num_regs(cls) -> int:
        return max(1, cls.BITS // 32) if not cls.REG_FILE.is_predicate else 1

    @classmethod
    def alignment(cls) -> int:
        """What a physical value's base register must be a multiple of: the
        size of a pair or quad, 4 for a register tuple (:data:`TUPLE_TYPES`)."""
        return cls.ALIGN or cls.num_regs()

    @classmethod
    def index_by_name(cls) -> dict[str, int]:
        # The abstract base names no registers (xDSL's name-clash check then
        # has nothing to compare).
        if "REG_FILE" not in cls.__dict__:
            return {}
        return _INDEX_BY_NAME[cls.REG_FILE]

    @classmethod
    def infinite_register_prefix(cls) -> str:
        # Spill-pool registers of xDSL's generic allocators; lower-case so the
        # prefix can never clash with a hardware name.
        if "REG_FILE" not in cls.__dict__:
            return "v"
        return "v" + cls.REG_FILE.value.lower()

    @classmethod
    def unallocated(cls) -> Self:
        # One shared instance per class: attributes are immutable, and building
        # (and verifying) a fresh one was a large part of PTX import time.
        t = _UNALLOCATED.get(cls)
        if t is None:
            t = _UNALLOCATED[cls] = super().unallocated()
        return t  # type: ignore[return-value]

    @classmethod
    def fixed_index(cls) -> int | None:
        """Index of the file's RZ/PT-style register, or None (B has none)."""
        return _FILE_SIZE[cls.REG_FILE] if _FIXED_NAME[cls.REG_FILE] else None

    @classmethod
    def fixed(cls) -> OriRegisterType:
        """The file's RZ/PT-style register: one shared instance per class (the
        rewrite rules ask for RZ thousands of times; building it from its name
        each time was a visible part of general-optimize, issue 20)."""
        t = _FIXED.get(cls)
        if t is None:
            name = _FIXED_NAME[cls.REG_FILE]
            if name is None:
                raise VerifyException(f"register file {cls.REG_FILE.value} has no fixed register")
            t = _FIXED[cls] = cls.from_name(name)
        return t

    @classmethod
    def physical(cls, index: int) -> OriRegisterType:
        """The physical register with base ``index`` (e.g. ``R64Type.physical(4)``).

        One shared instance per (class, index), as for :meth:`unallocated`:
        building and verifying a fresh type was most of the time the
        register allocator spent retyping values."""
        t = _PHYSICAL.get((cls, index))
        if t is None:
            if index == cls.fixed_index():
                t = cls.fixed()
            else:
                t = cls.from_name(f"{cls.REG_FILE.value}{index}")
            _PHYSICAL[(cls, index)] = t
        return t  # type: ignore[return-value]

    @property
    def is_fixed(self) -> bool:
        return self.register_name.data == _FIXED_NAME[self.REG_FILE]

    @property
    def phys_index(self) -> int | None:
        """Physical base index, or None while unallocated."""
        return self.index.data if isinstance(self.index, IntAttr) else None

    def phys_range(self) -> range:
        """The physical registers this value occupies (empty for fixed ones)."""
        base = self.phys_index
        if base is None or self.is_fixed:
            return range(0)
        return range(base, base + self.num_regs())

    def verify(self) -> None:
        name = self.register_name.data
        if name and name not in self.index_by_name() and not name.startswith(
            self.infinite_register_prefix()
        ):
            raise VerifyException(
                f"unknown register '{name}' for {self.name}: expected one of "
                f"{self.REG_FILE.value}0..{self.REG_FILE.value}{_FILE_SIZE[self.REG_FILE] - 1}"
                + (f" or {_FIXED_NAME[self.REG_FILE]}" if _FIXED_NAME[self.REG_FILE] else "")
            )
        super().verify()
        base = self.phys_index
        if base is None or self.is_fixed or base < 0:
            return
        n = self.num_regs()
        if base % self.alignment():
            raise VerifyException(
                f"misaligned register {name} for {self.name}: a {self.BITS}-bit value "
                f"needs a base register that is a multiple of {self.alignment()}"
            )
        if base + n > _FILE_SIZE[self.REG_FILE]:
            raise VerifyException(
                f"register {name} for {self.name} runs past the last "
                f"{self.REG_FILE.value} register"
            )


@irdl_attr_definition
class R32Type(OriRegisterType):
    """A 32-bit general-purpose register."""

    name = "ori.r32"
    REG_FILE = RegFile.R
    BITS = 32


@irdl_attr_definition
class R64Type(OriRegisterType):
    """A 64-bit value in an aligned pair of GPRs."""

    name = "ori.r64"
    REG_FILE = RegFile.R
    BITS = 64


@irdl_attr_definition
class R128Type(OriRegisterType):
    """A 128-bit value in an aligned quad of GPRs."""

    name = "ori.r128"
    REG_FILE = RegFile.R
    BITS = 128


@irdl_attr_definition
class R256Type(OriRegisterType):
    """A 256-bit register tuple: 8 consecutive GPRs at a multiple of 4 (the
    accumulator of ``HGMMA.64x16x16.F32``, docs/architecture.md "IR model")."""

    name = "ori.r256"
    REG_FILE = RegFile.R
    BITS = 256
    ALIGN = 4


@irdl_attr_definition
class R512Type(OriRegisterType):
    """A 512-bit register tuple: 16 consecutive GPRs at a multiple of 4."""

    name = "ori.r512"
    REG_FILE = RegFile.R
    BITS = 512
    ALIGN = 4


@irdl_attr_definition
class R1024Type(OriRegisterType):
    """A 1024-bit register tuple: 32 consecutive GPRs at a multiple of 4."""

    name = "ori.r1024"
    REG_FILE = RegFile.R
    BITS = 1024
    ALIGN = 4


@irdl_attr_definition
class R2048Type(OriRegisterType):
    """A 2048-bit register tuple: 64 consecutive GPRs at a multiple of 4
    (the f32 accumulator of ``HGMMA.64x128x16.F32``)."""

    name = "ori.r2048"
    REG_FILE = RegFile.R
    BITS = 2048
    ALIGN = 4


@irdl_attr_definition
class R4096Type(OriRegisterType):
    """A 4096-bit register tuple: 128 consecutive GPRs at a multiple of 4
    (the f32 accumulator of ``HGMMA.64x256x16.F32``; ptxas 13.0 compiles
    ``m64n256k16.f32`` to ``HGMMA.64x256x16.F32 R24, ...`` and 154
    registers)."""

    name = "ori.r4096"
    REG_FILE = RegFile.R
    BITS = 4096
    ALIGN = 4


TUPLE_TYPES: tuple[type[OriRegisterType], ...] = (
    R256Type, R512Type, R1024Type, R2048Type, R4096Type)
"""Register tuples wider than a quad (8 to 128 registers): only the warpgroup
MMA reads and writes them whole; ``ori.pack`` / ``ori.unpack`` build and
split them.  Their base register is a multiple of 4 (``ALIGN``), whatever
their size: ptxas 13.0 (``cuobjdump -sass``, sm_90a, kernels holding
several accumulators at once) places ``HGMMA.64x16x16.F32`` (8 registers)
at R36, ``HGMMA.64x32x16.F32`` (16) at R44, ``HGMMA.64x64x16.F32`` (32) at
R116 and ``HGMMA.64x128x16.F32`` (64) at R92 -- quads, never a pair
boundary -- while 2-register (``m64n8k16.f16``) accumulators take R26 and
R30 (an ``!ori.r64`` pair) and 4-register ones R28 (a quad).  The hardware
agrees: on an H200 (driver 580.159.04) ptxas's cubins for 4-, 8- and
16-register accumulators patched to R4, R8, R12, R16 and R20 compute the
same as at ptxas's R24, and bases R5, R6, R10 stop with
``CUDA_ERROR_ILLEGAL_INSTRUCTION``.  ptxas never places an HGMMA
accumulator below R24 (its C7602 minimum is 24 + size + 2 for a lone
accumulator, ``R0``-``R23`` otherwise free); the same runs show that floor
is ptxas's choice, not the hardware's, and ori does not keep it
(benchmarks/README.md)."""


@irdl_attr_definition
class UR32Type(OriRegisterType):
    """A 32-bit uniform register (sm_75+)."""

    name = "ori.ur32"
    REG_FILE = RegFile.UR
    BITS = 32


@irdl_attr_definition
class UR64Type(OriRegisterType):
    """A 64-bit value in an aligned pair of uniform registers."""

    name = "ori.ur64"
    REG_FILE = RegFile.UR
    BITS = 64


@irdl_attr_definition
class UR128Type(OriRegisterType):
    """A 128-bit value in an aligned quad of uniform registers."""

    name = "ori.ur128"
    REG_FILE = RegFile.UR
    BITS = 128


@irdl_attr_definition
class PredType(OriRegisterType):
    """A predicate register."""

    name = "ori.p"
    REG_FILE = RegFile.P
    BITS = 1


@irdl_attr_definition
class UPredType(OriRegisterType):
    """A uniform predicate register."""

    name = "ori.up"
    REG_FILE = RegFile.UP
    BITS = 1


@irdl_attr_definition
class BarrierType(OriRegisterType):
    """A convergence-barrier register (BSSY/BSYNC/WARPSYNC operand)."""

    name = "ori.b"
    REG_FILE = RegFile.B
    BITS = 32


REGISTER_TYPES: tuple[type[OriRegisterType], ...] = (
    R32Type,
    R64Type,
    R128Type,
    *TUPLE_TYPES,
    UR32Type,
    UR64Type,
    UR128Type,
    PredType,
    UPredType,
    BarrierType,
)

_BY_FILE_WIDTH: dict[tuple[RegFile, int], type[OriRegisterType]] = {
    (t.REG_FILE, t.BITS): t for t in REGISTER_TYPES
}


def reg_type(file: RegFile, bits: int = 32) -> type[OriRegisterType]:
    """The register type class for a file and width (bits ignored for P/UP)."""
    if file.is_predicate:
        bits = 1
    try:
        return _BY_FILE_WIDTH[(file, bits)]
    except KeyError:
        raise VerifyException(f"no {bits}-bit registers in file {file.value}") from None


def uniform_counterpart(t: type[OriRegisterType]) -> type[OriRegisterType] | None:
    """The uniform file's type of ``t``'s width (R32 -> UR32, P -> UP; a
    uniform type is its own), None where the uniform files have none (the
    wide R tuples, barriers): what a value of type ``t`` becomes on the
    uniform datapath (passes/uniform)."""
    if t.REG_FILE.is_uniform:
        return t
    counterpart = {RegFile.R: RegFile.UR, RegFile.P: RegFile.UP}.get(t.REG_FILE)
    if counterpart is None:
        return None
    return _BY_FILE_WIDTH.get((counterpart, 1 if counterpart.is_predicate else t.BITS))


# Short aliases for builders and tests.
r32 = R32Type.unallocated()
r64 = R64Type.unallocated()
r128 = R128Type.unallocated()
ur32 = UR32Type.unallocated()
ur64 = UR64Type.unallocated()
ur128 = UR128Type.unallocated()
pred = PredType.unallocated()
upred = UPredType.unallocated()
barrier = BarrierType.unallocated()


def same_register_classes(a: Sequence[Attribute], b: Sequence[Attribute]) -> bool:
    """Equal lists of types, a register type matching any allocation of its
    class (how ``ori.call`` and ``ori.ret`` are checked against a function's
    signature: each side's physical registers are its own allocation)."""
    return len(a) == len(b) and all(
        type(x) is type(y) if isinstance(x, OriRegisterType) else x == y for x, y in zip(a, b)
    )


def r_registers(v: SSAValue | Attribute | None) -> tuple[int, ...]:
    """The R registers an allocated value occupies, lowest first (none for a
    constant, RZ, another register file or an unallocated value)."""
    t = v.type if isinstance(v, SSAValue) else None
    if not isinstance(t, OriRegisterType) or t.REG_FILE is not RegFile.R or t.is_fixed:
        return ()
    base = t.phys_index
    return () if base is None else tuple(range(base, base + t.num_regs()))



STACK_POINTER_INDEX = 1
"""R1: the stack pointer every SM target reserves (ptxas initialises it from
``c[0x0][stack_init]`` and moves it by each function's frame size)."""


def stack_pointer() -> OriRegisterType:
    """R1 as an operand constant: the base of a local access addressed in
    the current activation's frame (``[R1+0x8]``; ops/frame.py)."""
    return R32Type.physical(STACK_POINTER_INDEX)


def is_stack_pointer(v: object) -> bool:
    """``v`` is the constant operand R1 (not an SSA value allocated to R1)."""
    return isinstance(v, R32Type) and not v.is_fixed and v.phys_index == STACK_POINTER_INDEX
