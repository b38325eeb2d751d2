"""``const-prop``: constants into the source slots that take them.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const fold +
copy prop"): the code handed to the loop passes and the allocator reads
kernel parameters straight from the constant bank in the instruction that
needs them (``ISETP.GE.AND P0, PT, R4, c[0x0][0x160], PT``, ``IMAD.WIDE R2,
R4, R5, c[0x0][0x168]``, ``FFMA R7, R2, c[0x0][0x164], R7`` in ``ptxas
-arch=sm_80`` output for saxpy) instead of a register that stays live.

A value an op defines as a constant (its ``constant_operand``: ``MOV imm``,
``MOV c[b][o]``, ``LDC c[b][o]``, ``LDC.64`` at an 8-aligned offset, a
64-bit ``PACK`` whose low word is 0) is written into each source slot that
accepts that kind of constant (the slot's ``imm``/``cbank`` flags; an integer
word reaches an ``f32`` slot as the float with that bit pattern, NaN patterns
excepted; the 64-bit pair reaches an ``f64`` slot, whose immediates keep the
high 32 bits: ``DFMA R6, -R2, R4, 1``).  The width the slot reads a constant
at (the op's ``slot_bits``) must be the value's width.  SASS encodes at most
one constant-port operand (immediate, ``c[..][..]`` or uniform register) per
instruction, so a constant only goes where there is none yet; an immediate 0
in another 32-bit slot that takes RZ is written as RZ to free the port
(``ISETP.LE.AND P0, PT, RZ, c[0x0][0x170], PT``), and a 32-bit constant 0
reaches any slot that takes RZ as RZ, port or no port (``IMAD R5, R4, 0x2,
RZ`` for the wmma lowering's ``lane * 2 + smem_base`` with a base of 0).  ``PACK`` is exempt (no
instruction).  With ``commute``, an op's ``commutations`` (IADD3, IMAD,
FADD/FMUL/FFMA, ISETP with the comparison mirrored) are tried when that moves
the constant into the one slot that takes it.
"""

from __future__ import annotations

import math
import struct
from collections import Counter

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f32, f64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, Src
from ori_dialect.ir.registers import R32Type, R64Type
from passes.general_optimize.common import CountingPattern, port_constants, rebuild, replace_op

SlotValues = list[tuple[Src, SSAValue | Attribute]]
Form = tuple[SlotValues, dict[str, str], str | None]
"""An operand order of an op: (slot values, source modifiers, modifier text or None)."""


class ConstantPropagation(CountingPattern):
    """The constant a ``CONSTANT_LIKE`` op defines, into its users' slots."""

    def __init__(self, counts: Counter[str], *, commute: bool) -> None:
        super().__init__(counts)
        self.commute = commute

    @classmethod
    def applies_to(cls, op_class: type[Operation]) -> bool:
        return issubclass(op_class, OriInstruction) and op_class.CONSTANT_LIKE

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, OriInstruction) or not op.CONSTANT_LIKE:
            return
        c = op.constant_operand()
        if c is None:
            return
        const, bits = c
        d = op.results[0]
        for use in list(d.uses):
            user = use.operation
            if not isinstance(user, OriInstruction) or user.parent is None:
                continue
            srcs = user.operand_groups()[0]
            if use.index >= len(srcs):
                continue  # guard or tied prior value: must stay a register
            new = self.substitute(user, d, const, bits)
            if new is not None:
                replace_op(rewriter, user, new)
                self.counts["constants"] += 1

    def substitute(
        self, op: OriInstruction, value: SSAValue, const: Attribute, bits: int
    ) -> OriInstruction | None:
        """``op`` with one source slot that reads ``value`` turned into ``const``."""
        vals = op.slot_values()
        smods = op.smod_map()
        candidates: list[Form] = [(vals, smods, None)]
        if self.commute:
            candidates += commuted(op, vals, smods)
        for cvals, csmods, cmods in candidates:
            for i, (slot, v) in enumerate(cvals):
                if v is not value:
                    continue
                ks: list[Attribute] = []
                k = const_for_slot(slot, const, bits, csmods.get(slot.name))
                if k is not None:
                    ks.append(k)
                if takes_rz(op, slot, const, bits, csmods.get(slot.name)):
                    # 0 is RZ, which needs no constant port: a slot that takes
                    # no immediate, or one beside an occupied port, reads it too
                    ks.append(R32Type.fixed())
                for k in ks:
                    new = self._trial(op, cvals, i, k, csmods, cmods, bits)
                    if new is not None:
                        return new
        return None

    @staticmethod
    def _trial(op: OriInstruction, cvals: SlotValues, i: int, k: Attribute,
               csmods: dict[str, str], cmods: str | None, bits: int) -> OriInstruction | None:
        """``op`` in the operand order ``cvals`` with slot ``i`` reading ``k``,
        or None if that breaks the port rule or the op's forms."""
        slot = cvals[i][0]
        trial = zero_to_rz(list(cvals), i, op)
        trial[i] = (slot, k)
        if port_constants(op, trial) > op.CONSTANT_PORTS:
            return None
        new = rebuild(op, [v for _, v in trial], smods=csmods, mods=cmods)
        # The interpreter must read the constant at the value's width.
        if new is None or new.slot_bits(slot) != bits:
            return None
        return new


def commuted(op: OriInstruction, vals: SlotValues, smods: dict[str, str]) -> list[Form]:
    """The operand orders ``op.commutations()`` allows, present slots only."""
    names = [s.name for s, _ in vals]
    slots = {s.name: s for s, _ in vals}
    vmap = {s.name: v for s, v in vals}
    out: list[Form] = []
    for (x, y), mods in op.commutations():
        if x not in vmap or y not in vmap:
            continue
        nv = dict(vmap)
        nv[x], nv[y] = vmap[y], vmap[x]
        for name, value in op.commuted_immediates(x, y).items():
            old = vmap[name]
            assert isinstance(old, IntegerAttr)
            nv[name] = IntegerAttr(value, old.type)
        ns = {k: v for k, v in smods.items() if k not in (x, y)}
        if x in smods:
            ns[y] = smods[x]
        if y in smods:
            ns[x] = smods[y]
        ns = op.commuted_smods(x, y, ns)
        out.append(([(slots[n], nv[n]) for n in names], ns, mods))
    return out


def zero_to_rz(vals: SlotValues, keep: int, op: OriInstruction | None = None) -> SlotValues:
    """``vals`` with the immediate 0 of every 32-bit slot that takes RZ (but
    slot ``keep``) written as RZ: the same value, without using the one
    constant port (ptxas: ``ISETP.LE.AND P0, PT, RZ, c[0x0][0x170], PT``).
    Given ``op``, a slot it reads 64 bits from takes the 64-bit RZ too
    (``IMAD.WIDE.U32 R2, R0, c[0x0][0x18c], RZ``: PTX's ``mul.wide`` is an
    ``IMAD.WIDE`` with the addend 0, which would hold the port the
    multiplier's constant-bank word needs)."""
    out = list(vals)
    rz = R32Type.fixed()
    for j, (slot, v) in enumerate(out):
        if (
            j == keep
            or not isinstance(v, IntegerAttr)
            or v.value.data != 0
            or not slot.fixed
            or not slot.types
        ):
            continue
        if all(t is R32Type for t in slot.types):
            out[j] = (slot, rz)
        elif op is not None and R64Type in slot.types and op.slot_bits(slot) == 64:
            out[j] = (slot, R64Type.fixed())
    return out


def takes_rz(op: OriInstruction, slot: Src, const: Attribute, bits: int,
             smod: str | None) -> bool:
    """The 32-bit constant 0 can be written into ``op``'s ``slot`` as RZ:
    the slot reads 32 bits in this op and takes the R file's fixed register."""
    return (
        bits == 32
        and isinstance(const, IntegerAttr)
        and const.value.data & 0xFFFFFFFF == 0
        and not smod
        and slot.fixed
        and R32Type in slot.types
        and op.slot_bits(slot) == 32
    )


def const_for_slot(slot: Src, const: Attribute, bits: int, smod: str | None) -> Attribute | None:
    """``const`` in the form ``slot`` takes, or None if it takes none."""
    if isinstance(const, CBankAttr):
        return const if slot.cbank else None
    if smod:
        return None  # -imm / |imm| would need the modifier folded into the value
    assert isinstance(const, IntegerAttr)
    if bits == 64:
        if slot.imm != "f64":
            return None
        d = struct.unpack("<d", struct.pack("<Q", const.value.data & (2**64 - 1)))[0]
        return None if math.isnan(d) else FloatAttr(d, f64)
    assert bits == 32
    if slot.imm == "int":
        return const
    if slot.imm == "f32":
        raw = const.value.data & 0xFFFFFFFF
        f = struct.unpack("<f", struct.pack("<I", raw))[0]
        if math.isnan(f):
            return None
        return FloatAttr(f, f32)
    return None


__all__ = ["ConstantPropagation", "commuted", "const_for_slot", "takes_rz", "zero_to_rz"]
