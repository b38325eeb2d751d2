"""``imad-add``: a product read only by an add becomes that add's ``IMAD``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, phase 29
GeneralOptimize): IMAD multiplies and adds in one instruction, and ptxas
fills its addend.  PTX keeps ``mul.lo.s32`` and ``add.s32`` apart (Triton's
row offsets ``row * stride + k``), ptxas's SASS for them is one ``IMAD R27,
R6, c[0x0][0x18c], R40`` (``ptxas -arch=sm_80``, Triton's ``matmul`` K
loop) where ori wrote ``IMAD R12, R6, c[0x0][0x18c], RZ`` / ``IADD3 R27,
R12, R40, RZ``.

``x = IMAD a, b, RZ`` (the ``lo`` form) whose only use is ``y = IADD3 x,
c, RZ`` (RZ in any slot) becomes ``y = IMAD a, b, c``: ``lo32(a * b) + c``
is the same sum mod 2^32.  Both ops unguarded, no carry-in (``.X``) and
no carry-out read, no source modifier on either; ``c`` a register, an
immediate or a ``c[][]`` word, as the one-port rule allows beside ``b``
(an ``IMAD a, c[][], c`` needs ``c`` in a register).  In one block only:
across blocks ``a`` and ``b`` would live where ``x`` did.  As for
``iadd3-merge`` (its module docstring has the measurements), a merge that
would keep both ``a`` and ``b`` live up to ``y`` where ``x`` alone was
needs no R write between the two ops.

:func:`fused` builds the merged op for any ``a``, ``b``: ``ori-remat-block``
uses it when the copy of a product it pulls into a loop is read by one such
add there (passes/remat_block/context.py), which is how ptxas's K loop
recomputes ``row * stride`` inside the ``IMAD`` it needed anyway.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.integer import IAdd3Op, IMadOp
from passes.general_optimize.common import (
    CountingPattern,
    is_rz,
    no_write_between,
    replace_op,
    unguarded,
)
from passes.general_optimize.iadd3_merge import dies_at, two_input


def product(op: Operation) -> tuple[SSAValue, SSAValue | Attribute] | None:
    """``(a, b)`` of a plain ``IMAD a, b, RZ`` (lo form, 32-bit, no carry
    read); None for any other op."""
    if not isinstance(op, IMadOp) or not op.is_plain() or op.has_mod("x"):
        return None
    if op.mod("mode") not in (None, "lo") or any(r.uses for r in op.results[1:]):
        return None
    a, b, c = op.src("a"), op.src("b"), op.src("c")
    if not is_rz(c) or not isinstance(a, SSAValue) or b is None:
        return None
    if not isinstance(op.results[0].type, R32Type):
        return None
    return a, b


def fused(add: Operation, x: SSAValue, a: SSAValue, b: SSAValue | Attribute) -> IMadOp | None:
    """``IMAD a, b, c`` computing ``add``'s sum with ``a * b`` in place of
    its operand ``x``; None when ``add`` is not a plain two-input ``IADD3``
    reading ``x`` once, or the merged form does not verify."""
    if not isinstance(add, IAdd3Op) or len(add.results) != 1:
        return None
    terms = two_input(add)
    if terms is None or any(m is not None for _, m in terms):
        return None
    rest = [v for v, _ in terms if v is not x]
    if len(rest) != 1:
        return None
    new = IMadOp.make([a, b, rest[0]], [add.results[0].type])
    try:
        new.verify()
    except VerifyException:
        new.drop_all_references()  # no uses left behind on a, b, c
        return None  # two constant ports, a UR addend...
    return new


class ImadAdd(CountingPattern):
    """``IADD3 (IMAD a, b, RZ), c, RZ`` -> ``IMAD a, b, c`` (module docstring)."""

    ROOTS = (IAdd3Op,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IAdd3Op, rewriter: PatternRewriter) -> None:
        if not unguarded(op):
            return
        for _, x in op.slot_values():
            if not isinstance(x, SSAValue) or not isinstance(x.owner, IMadOp):
                continue
            mul = x.owner
            ab = product(mul)
            if ab is None or x.index != 0 or sum(1 for _ in x.uses) != 1:  # type: ignore[attr-defined]
                continue
            if mul.parent_block() is not op.parent_block():
                continue
            if dies_at(ab[0], mul) and dies_at(ab[1], mul) and not no_write_between(mul, op):
                continue  # a and b would both live on to the add where x alone did
            new = fused(op, x, *ab)
            if new is None:
                continue
            replace_op(rewriter, op, new)
            self.counts["imad-add"] += 1
            return


__all__ = ["ImadAdd", "fused", "product"]
