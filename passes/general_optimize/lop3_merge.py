"""``lop3-merge``: two chained LOP3s over at most three inputs become one.

Issue 19 item 3 and seed 001 "Pipeline Placement" (phase 13
GeneralOptimizeEarly; phase 29 GeneralOptimize): LOP3.LUT computes any
bitwise function of three sources, and ptxas fills all three: Triton's
Philox rounds XOR the high product word with the key and the other counter
word in one ``LOP3.LUT R11, R4, UR9, R11, 0x96, !PT`` (``ptxas
-arch=sm_80``), where PTX's two ``xor.b32`` -- and the importer's two
two-input LOP3s -- need two.

``x = LOP3 p, q, r, L1`` whose only use is ``y = LOP3 .., x, .., L2`` in
the same block becomes ``y = LOP3 a, b, c, L`` when the inputs of both,
``x`` aside, are at most three distinct operands (RZ is the constant 0,
not an input): ``L`` is ``L2`` composed with ``L1`` on the truth tables of
``a``, ``b``, ``c`` (0xF0, 0xCC, 0xAA), so every bit of the result is the
same function of the same bits.  Both ops unguarded, without source
modifiers or a predicate result.  The one-port rule holds: at most one
immediate or ``c[][]`` operand, in slot ``b``, the only slot that takes
one.

**Register pressure** (as ``iadd3-merge``): the merged form reads ``x``'s
inputs where ``y`` was, so at most one of them may die at ``x`` (the others
constants or read by another op too, taken to live on: one register lives
on where ``x`` did), or no op between ``x`` and ``y`` may write an R
register (``common.NEAR`` ops at most): then no point gains a register.
(CUB's histogram sweeps still end one register higher, 54 -> 55, at the
same occupancy, 64 instructions shorter each: the allocation of the
shorter code, not a longer live range.)  ``x`` dies (``ori-dead-code``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.instruction import uses_constant_port
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.integer import Lop3Op
from passes.general_optimize.common import (
    CountingPattern,
    is_rz,
    no_write_between,
    rebuild,
    replace_op,
    unguarded,
)

_SLOTS = ("a", "b", "c")
_PATTERN = {"a": 0xF0, "b": 0xCC, "c": 0xAA}


def _table(lut: int, x: int, y: int, z: int) -> int:
    """The truth table of ``LUT(x, y, z)`` for inputs whose tables are ``x``,
    ``y``, ``z`` (bit ``(a<<2)|(b<<1)|c`` of ``lut`` per bit position)."""
    out = 0
    for i in range(8):
        if lut >> i & 1:
            out |= ((x if i & 4 else ~x) & (y if i & 2 else ~y) & (z if i & 1 else ~z))
    return out & 0xFF


def _inputs(op: Lop3Op) -> tuple[list[SSAValue | Attribute], int] | None:
    """The three sources and the table of a plain, unguarded LOP3 with no
    predicate result; None otherwise."""
    if not unguarded(op) or op.smod_map() or len(op.results) != 1:
        return None
    vals = {sl.name: v for sl, v in op.slot_values()}
    lut = vals.get("lut")
    if not isinstance(lut, IntegerAttr) or any(s not in vals for s in _SLOTS):
        return None
    return [vals[s] for s in _SLOTS], lut.value.data


def _same(u: SSAValue | Attribute, v: SSAValue | Attribute) -> bool:
    if isinstance(u, SSAValue) or isinstance(v, SSAValue):
        return u is v
    return u == v


def _lives_on(v: SSAValue | Attribute, op: Lop3Op) -> bool:
    """A constant, or a register another op reads too (taken to live on)."""
    return not isinstance(v, SSAValue) or any(u.operation is not op for u in v.uses)


class MergeLop3(CountingPattern):
    """``LOP3 (LOP3 p, q, r, L1), s, t, L2`` over at most three inputs ->
    one LOP3 (module docstring)."""

    ROOTS = (Lop3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Lop3Op, rewriter: PatternRewriter) -> None:
        outer = _inputs(op)
        if outer is None:
            return
        srcs, lut2 = outer
        for k, x in enumerate(srcs):
            if not isinstance(x, OpResult) or not isinstance(x.op, Lop3Op) or x.op is op:
                continue
            inner_op = x.op
            if sum(1 for _ in x.uses) != 1 or inner_op.parent_block() is not op.parent_block():
                continue
            inner = _inputs(inner_op)
            if inner is None:
                continue
            ins, lut1 = inner
            leaves: list[SSAValue | Attribute] = []
            for v in [*ins, *(s for j, s in enumerate(srcs) if j != k)]:
                if not is_rz(v) and not any(_same(v, w) for w in leaves):
                    leaves.append(v)
            if len(leaves) > 3:
                continue
            dying = {id(v) for v in ins if not is_rz(v) and not _lives_on(v, inner_op)}
            if len(dying) > 1 and not no_write_between(inner_op, op):
                continue  # two of x's inputs would live on to y where x alone did
            new = self._build(op, leaves, ins, lut1, srcs, k, lut2)
            if new is None:
                continue
            replace_op(rewriter, op, new)
            self.counts["lop3-merge"] += 1
            return

    @staticmethod
    def _build(op: Lop3Op, leaves: list[SSAValue | Attribute], ins: list[SSAValue | Attribute],
               lut1: int, srcs: list[SSAValue | Attribute], k: int, lut2: int) -> Lop3Op | None:
        ports = [v for v in leaves if uses_constant_port(v)]
        if len(ports) > 1:
            return None
        regs = [v for v in leaves if not uses_constant_port(v)]
        slots: dict[str, SSAValue | Attribute] = {}
        if ports:
            slots["b"] = ports[0]
        for name in _SLOTS:
            if name not in slots and regs:
                slots[name] = regs.pop(0)
        for name in _SLOTS:
            slots.setdefault(name, R32Type.fixed())

        def table(v: SSAValue | Attribute) -> int:
            if is_rz(v):
                return 0
            name = next(n for n in _SLOTS if _same(slots[n], v))
            return _PATTERN[name]

        x = _table(lut1, *(table(v) for v in ins))
        tabs = [x if j == k else table(v) for j, v in enumerate(srcs)]
        lut = _table(lut2, *tabs)
        return rebuild(op, [slots["a"], slots["b"], slots["c"], lut])  # type: ignore[return-value]


__all__ = ["MergeLop3"]
