"""``add-chain``: a constant added to a sum with a constant is one add.

Issue 19 item 3 and seed 001 "Pipeline Placement" (phase 29
GeneralOptimize, after unrolling): loop unrolling gives each copy of a body
its own ``iv + step`` and ``p + stride``, so a loop unrolled ``F`` times
steps its IV and each pointer ``F`` times per iteration.  ptxas steps each
once (``IADD3 R10, R10, 0x1000, RZ`` and one ``IADD3 R2, P4, R2, 0x4000,
RZ`` / ``IMAD.X R3, RZ, RZ, R3, P4`` per pointer in the 4x-unrolled CUB
reduce loop, ``ptxas -arch=sm_80``); the copies' loads read ``[p +
k*stride]`` (``addr-offset``).

* 32-bit: ``y = IADD3 x, K1, RZ``; ``z = IADD3 y, K2, RZ`` becomes ``z =
  IADD3 x, K1+K2, RZ`` (mod 2^32): both adds in ``addr-offset``'s form
  (``narrow_offset``), no carry-in, neither carry-out read.
* 64-bit, the importer's form (``addr_offset.py``): ``p1 = p0 + sext(K1)``;
  ``p2 = p1 + sext(K2)`` becomes ``p2 = p0 + sext(K1+K2)`` when ``K1+K2``
  is a signed 32-bit value, so the sum keeps the form ``addr-offset`` and
  this rule read (``p0 + K`` mod 2^64 either way).

Only where the inner sum has no other live reader (a reader that is itself
a dead pure op does not count: ``addr-offset`` leaves the copies' PACKs
dead): the inner add dies, and its source lives on in its place, so no
point gains a register.
"""

from __future__ import annotations

from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.slots import int_attr
from ori_dialect.ops.integer import IAdd3Op
from passes.general_optimize.addr_offset import add64, narrow_offset, sext_constant, split_constant
from passes.general_optimize.common import CountingPattern, is_rz, rebuild, replace_op
from passes.loop_utils import is_pure, signed_imm32


def live_uses(v: SSAValue) -> int:
    """Readers of ``v`` other than pure ops whose results are all unread."""
    return sum(1 for u in v.uses
               if not (is_pure(u.operation) and all(not r.uses for r in u.operation.results)))


class ConstantAddChain(CountingPattern):
    """``(x + K1) + K2`` -> ``x + (K1 + K2)``, 32- and 64-bit (module docstring)."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if op.has_mod("x"):
            self._wide(op, rewriter)
            return
        # the outer sum's carry-out would change, and the inner add must die
        # (a read carry-out keeps it): neither carry-out may be read
        if any(r.uses for r in op.results[1:]):
            return
        outer = narrow_offset(op.results[0])
        if outer is None:
            return
        y, k2 = outer
        inner = narrow_offset(y)
        if inner is None or y.index != 0 or live_uses(y) != 1:  # type: ignore[attr-defined]
            return
        if any(r.uses for r in y.owner.results[1:]):  # type: ignore[union-attr]
            return
        x, k1 = inner
        new = rebuild(op, self._values(op, x, signed_imm32(k1 + k2)))
        if new is None:
            return
        replace_op(rewriter, op, new)
        self.counts["add-chain"] += 1

    @staticmethod
    def _values(op: IAdd3Op, x: SSAValue, k: int,
                carry: SSAValue | None = None) -> list[SSAValue | Attribute]:
        """``op``'s slot values as ``x, K, RZ`` (the immediate in slot b,
        the only one that takes it), the carry-in kept for ``IADD3.X``."""
        rz = next(v for sl, v in op.slot_values() if sl.name in ("a", "b", "c") and is_rz(v))
        vals: list[SSAValue | Attribute] = [x, int_attr(k), rz]
        if carry is not None:
            vals.append(carry)
        return vals

    def _wide(self, hi_op: IAdd3Op, rewriter: PatternRewriter) -> None:
        carry = next((v for sl, v in hi_op.slot_values() if sl.name == "ci0"), None)
        if not isinstance(carry, SSAValue) or not isinstance(carry.owner, IAdd3Op):
            return
        lo_op = carry.owner
        sides = add64(lo_op.results[0], hi_op.results[0])
        if sides is None:
            return
        for inner, kp in (sides, sides[::-1]):
            k2 = sext_constant(kp)
            if k2 is None or not all(isinstance(w, SSAValue) for w in inner):
                continue
            if any(live_uses(w) != 1 for w in inner):  # type: ignore[arg-type]
                continue
            found = split_constant(inner)
            if found is None:
                continue
            (z_lo, z_hi), k1 = found
            k = k1 + k2
            if not -(1 << 31) <= k < (1 << 31):
                continue
            new_lo = rebuild(lo_op, self._values(lo_op, z_lo, k))  # type: ignore[arg-type]
            if new_lo is None:
                return
            new_hi = rebuild(hi_op, self._values(hi_op, z_hi, -1 if k < 0 else 0,  # type: ignore[arg-type]
                                                 new_lo.results[1]))
            if new_hi is None:
                new_lo.drop_all_references()
                return
            replace_op(rewriter, lo_op, new_lo)
            replace_op(rewriter, hi_op, new_hi)
            self.counts["add-chain"] += 1
            return


__all__ = ["ConstantAddChain", "live_uses"]
