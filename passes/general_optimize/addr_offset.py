"""``addr-offset``: a constant added to an address goes into the access's
immediate offset.

Issue 19 item 3 ("immediate operands in every slot that takes them") and
seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, "const
fold"): SASS memory instructions add a signed 24-bit immediate to their
address register (``LDG.E R0, [R2.64+0x10]``, ``ATOM.E.ADD.U32 R0,
[R4.64-0x200], R0``, ``LDS R0, [R9+0x100]`` in ``ptxas -arch=sm_80``
output), so ptxas never spends an instruction on ``p + K`` when ``p + K`` is
only an address.  The PTX importer (and loop unrolling, which gives each
copy of a body its ``p + k*step``) writes such an address as

* 64-bit: ``lo, hi = UNPACK p``; ``s0, c = IADD3 lo, K, RZ``; ``s1 =
  IADD3.X hi, Kh, RZ, c``; ``PACK s0, s1`` with ``Kh`` the sign extension
  of ``K`` (``0`` or ``-1``): that is ``p + sext(K)`` mod 2^64, exactly
  what the access computes from ``[p + K]``;
* 32-bit (shared, local): ``IADD3 a, K, RZ``.

A global, generic, shared or local access (``MemoryOp``, not the constant
bank) through such an address reads ``[p + offset + K]`` when the sum
stays in the signed 24-bit range; the adds die with their last use
(``ori-dead-code``).  R1-based frame accesses are ``frame-addr``'s.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import OriRegisterType, R32Type, R64Type
from ori_dialect.ir.slots import int_attr
from ori_dialect.ops.integer import IAdd3Op, PackOp, UnpackOp
from ori_dialect.ops.memory import MemoryOp
from passes.general_optimize.common import CountingPattern, rebuild, replace_op, unguarded

OFFSET_MIN = -(1 << 23)
OFFSET_MAX = (1 << 23) - 1
"""The signed 24-bit immediate of a SASS memory address."""

_M32 = 0xFFFFFFFF


def _is_rz(v: SSAValue | Attribute) -> bool:
    return isinstance(v, R32Type) and v.is_fixed


def _add_imm(op: object, *, carry: bool) -> tuple[SSAValue, int, list[SSAValue]] | None:
    """``op`` is an unguarded ``IADD3 x, K, RZ`` (``carry``: ``IADD3.X x,
    K, RZ, c``; a missing ``K`` is 0): (x, K as an unsigned word, the
    carry-in predicates)."""
    if not isinstance(op, IAdd3Op) or not unguarded(op) or op.smod_map():
        return None
    if op.has_mod("x") != carry:
        return None
    reg: SSAValue | None = None
    k = 0
    carries: list[SSAValue] = []
    for slot, v in op.slot_values():
        if slot.name.startswith("ci"):
            if not isinstance(v, SSAValue):
                return None  # a constant carry-in: not this form
            carries.append(v)
            continue
        if isinstance(v, SSAValue):
            if reg is not None:
                return None
            reg = v
        elif isinstance(v, IntegerAttr):
            k = v.value.data & _M32
        elif not _is_rz(v):
            return None
    if reg is None:
        return None
    return reg, k, carries


def wide_offset(v: SSAValue) -> tuple[SSAValue, int] | None:
    """``v`` is ``p + sext(K)`` built as the module docstring's 64-bit
    form: (p, K as a signed integer)."""
    pack = v.owner
    if not isinstance(pack, PackOp) or not unguarded(pack) or len(pack.operands) != 2:
        return None
    s0, s1 = pack.operands
    lo_add = _add_imm(s0.owner, carry=False)
    hi_add = _add_imm(s1.owner, carry=True)
    if lo_add is None or hi_add is None or s0.index != 0:  # type: ignore[attr-defined]
        return None
    lo, k, _ = lo_add
    hi, kh, carries = hi_add
    low_results = s0.owner.results  # type: ignore[union-attr]
    if len(low_results) != 2 or carries != [low_results[1]]:
        return None  # the high add must take exactly the low add's carry
    un = lo.owner
    if (not isinstance(un, UnpackOp) or hi.owner is not un or lo.index != 0  # type: ignore[attr-defined]
            or hi.index != 1 or len(un.results) != 2):  # type: ignore[attr-defined]
        return None
    p = un.operands[0]
    if not isinstance(p.type, R64Type):
        return None
    if kh == 0 and k < (1 << 31):
        return p, k
    if kh == _M32 and k >= (1 << 31):
        return p, k - (1 << 32)
    return None


def narrow_offset(v: SSAValue) -> tuple[SSAValue, int] | None:
    """``v`` is ``IADD3 a, K, RZ`` (no carry-out read): (a, K signed)."""
    add = _add_imm(v.owner, carry=False)
    if add is None:
        return None
    a, k, _ = add
    if not isinstance(a.type, R32Type):
        return None
    return a, k - (1 << 32) if k >= (1 << 31) else k


class AddressOffset(CountingPattern):
    """``[p + K] + off`` -> ``[p + off + K]`` (module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MemoryOp, rewriter: PatternRewriter) -> None:
        if op.SPACE is MemSpace.CONST:
            return
        vals = op.slot_values()
        i = next((j for j, (s, _) in enumerate(vals) if s.address), None)
        if i is None or i + 1 >= len(vals) or vals[i + 1][0].name != "offset":
            return
        base = vals[i][1]
        if not isinstance(base, SSAValue) or not isinstance(base.type, OriRegisterType):
            return
        found = wide_offset(base) if base.type.BITS == 64 else narrow_offset(base)
        if found is None:
            return
        p, k = found
        new_off = op.offset() + k
        if not OFFSET_MIN <= new_off <= OFFSET_MAX:
            return
        values: list[SSAValue | Attribute] = [v for _, v in vals]
        values[i] = p
        values[i + 1] = int_attr(new_off)
        new = rebuild(op, values)
        if new is None:
            return
        replace_op(rewriter, op, new)
        self.counts["addr-offset"] += 1


__all__ = ["OFFSET_MAX", "OFFSET_MIN", "AddressOffset", "narrow_offset", "wide_offset"]
