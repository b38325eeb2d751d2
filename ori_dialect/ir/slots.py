"""Operand slot and modifier specs: what an Ori instruction class declares
(``SRCS``, ``DSTS``, ``MODS``) and how an immediate becomes the constant a
slot stores (docs/architecture.md "IR model", slots and the one-constant-port
rule).  The instruction base (``ir/instruction.py``) builds, verifies and
queries ops from these specs; ``ir/syntax.py`` prints and parses them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Literal

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, f32, f64, i32
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.registers import OriRegisterType, RegFile, reg_type, uniform_counterpart

ImmKind = Literal["int", "f32", "f64"]
SrcMod = Literal["neg", "abs", "not"]
Const = IntegerAttr | FloatAttr | CBankAttr | OriRegisterType


@dataclass(frozen=True)
class Src:
    """One source slot of an instruction.

    ``types`` lists the register types an SSA operand may have.  A slot that
    takes a constant-bank operand also takes a uniform register of the same
    width: on the hardware both travel through the same operand port.
    ``fixed`` lets the slot name its file's RZ/PT register instead of a value.
    ``address`` marks the base of a memory address: it is printed together
    with the following immediate slot as ``[%base + 0x10]``.
    """

    name: str
    types: tuple[type[OriRegisterType], ...] = ()
    imm: ImmKind | None = None
    cbank: bool = False
    fixed: bool = True
    smods: frozenset[str] = frozenset()
    optional: bool = False
    address: bool = False
    all_types: tuple[type[OriRegisterType], ...] = field(default=(), compare=False)
    uniform_types: tuple[type[OriRegisterType], ...] = field(default=(), compare=False)
    """What an SSA operand of the slot may be in the op's uniform-datapath
    form (``OriOp.UNIFORM_SASS``): the uniform counterpart of each type."""

    def __post_init__(self) -> None:
        extra: list[type[OriRegisterType]] = []
        if self.cbank:
            for t in self.types:
                if t.REG_FILE is RegFile.R:
                    extra.append(reg_type(RegFile.UR, t.BITS))
        object.__setattr__(self, "all_types", tuple(dict.fromkeys((*self.types, *extra))))
        uniform = (uniform_counterpart(t) for t in self.types)
        object.__setattr__(self, "uniform_types",
                           tuple(dict.fromkeys(u for u in uniform if u is not None)))

    def describe(self) -> str:
        kinds = [t.name for t in self.all_types]
        if self.imm:
            kinds.append(f"{self.imm} immediate")
        if self.cbank:
            kinds.append("constant-bank operand")
        return ", ".join(kinds)


@dataclass(frozen=True)
class Dst:
    """One result of an instruction; optional results may only trail."""

    name: str
    types: tuple[type[OriRegisterType], ...]
    optional: bool = False


@dataclass(frozen=True)
class ModGroup:
    """A group of mutually exclusive opcode modifiers (``.LO``/``.HI``/``.WIDE``).

    ``default`` is the value meant when none of the group's tokens is written;
    it is never printed.  A group without default and with ``required`` set
    must be written.  A one-token group with no default is a flag.
    """

    name: str
    values: tuple[str, ...]
    default: str | None = None
    required: bool = False


def flag(name: str) -> ModGroup:
    return ModGroup(name, (name,))


@functools.lru_cache(maxsize=8192)
def int_attr(v: int) -> IntegerAttr:
    # Attributes are immutable, so one instance per value serves every op and
    # spares the parser the attribute verification (a large part of its time).
    return IntegerAttr(v, i32) if -(2**31) <= v < 2**32 else IntegerAttr(v, IntegerType(64))


def make_imm(op_name: str, slot: Src, v: float) -> Attribute:
    """The constant an immediate ``v`` written in ``slot`` becomes (what
    ``make()`` and the parser store in ``consts``)."""
    if slot.imm is None:
        raise VerifyException(f"{op_name}: slot '{slot.name}' takes no immediate")
    if slot.imm == "int":
        if isinstance(v, float):
            raise VerifyException(f"{op_name}: slot '{slot.name}' takes an integer")
        return int_attr(v)
    return FloatAttr(float(v), f32 if slot.imm == "f32" else f64)


__all__ = ["Const", "Dst", "ImmKind", "ModGroup", "Src", "SrcMod", "flag", "int_attr", "make_imm"]
