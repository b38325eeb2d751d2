"""``scaled-index``: a shared-memory address that is an index shifted by 2,
3 or 4 reads the index scaled (``[R8.X4+0x100]``).

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly, phase 29
GeneralOptimize): SASS's shared-memory loads and stores scale a 32-bit
index register by 4, 8 or 16 in the address itself, and ptxas uses it
wherever an index is shifted only to address shared memory: ``STS
[R8.X4+0x100], RZ`` / ``LDS.128 R4, [R8.X16]`` in CUB's
``BlockRadixSort`` (``ptxas -arch=sm_80``, examples/library
block_radix_sort_keys), 587 such addresses in the CUB device kernels.
ori's listing kept ``SHL R6, R0, 0x2`` before them, one per access in the
radix sort's scatter (``SHL R7, R12, 0x2`` / ``STS [R7], R8``).

``y = SHL x, k`` (k = 2, 3 or 4; unguarded, no ``.W``) or ``y = IMAD x,
2^k, RZ`` (the ``lo`` form), read only as the base address of ``LDS``,
``STS`` and ``ATOMS`` (``ATOMS.ADD [R4.X4], R5``: 112 in the CUB device
kernels) with no scale yet, becomes ``[x * 2^k + o]`` at each access; the
shift then has no reader (dead-code erases it).  The address is computed
in 32 bits either way (the interpreter scales in 32 bits, as the shift
did).  A shift with any other reader stays: ``x`` would live on to the
accesses beside ``y``.  :mod:`.addr_offset` then folds a constant added to
the index into the offset, scaled (``[(x + K) * 4]`` is ``[x * 4 + 4K]``).
"""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern

from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.base import INDEX_SCALES
from ori_dialect.ops.integer import IMadOp, ShlOp
from ori_dialect.ops.memory import AtomsOp, LdsOp, StsOp
from passes.general_optimize.common import (
    CountingPattern,
    address_index,
    is_rz,
    rebuild,
    replace_op,
    unguarded,
)

SCALE_OF_SHIFT = {2: "x4", 3: "x8", 4: "x16"}


def scaled(v: SSAValue) -> tuple[SSAValue, str] | None:
    """``(x, token)`` when ``v`` is ``x`` shifted left by 2, 3 or 4 (a
    ``SHL`` or a power-of-two ``IMAD``), else None."""
    op = v.owner
    if isinstance(op, ShlOp):
        if not unguarded(op) or op.smod_map() or op.has_mod("w"):
            return None
        x, k = op.src("a"), op.src_int("b")
    elif isinstance(op, IMadOp):
        if not op.is_plain() or (op.mod("mode") or "lo") != "lo" or op.has_mod("x"):
            return None
        if len(op.results) != 1 or not is_rz(op.src("c")):
            return None
        x, m = op.src("a"), op.src_int("b")
        k = m.bit_length() - 1 if m is not None and m > 0 and m & (m - 1) == 0 else None
    else:
        return None
    if not isinstance(x, SSAValue) or not isinstance(x.type, R32Type) or k not in SCALE_OF_SHIFT:
        return None
    return x, SCALE_OF_SHIFT[k]


def _scalable_access(user: object, v: SSAValue) -> bool:
    """``user`` is an LDS/STS/ATOMS reading ``v`` as its unscaled base only."""
    if not isinstance(user, LdsOp | StsOp | AtomsOp) or user.index_scale() != 1:
        return False
    vals = user.slot_values()
    i = address_index(vals)
    if i is None or vals[i][1] is not v:
        return False
    return not any(x is v for j, (_, x) in enumerate(vals) if j != i)


class ScaledIndex(CountingPattern):
    """``LDS/STS/ATOMS [(x << k) + o]`` -> ``[x * 2^k + o]`` (module docstring)."""

    ROOTS = (LdsOp, StsOp, AtomsOp)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LdsOp | StsOp | AtomsOp, rewriter: PatternRewriter) -> None:
        vals = op.slot_values()
        i = address_index(vals)
        if i is None:
            return
        base = vals[i][1]
        if not isinstance(base, SSAValue) or not _scalable_access(op, base):
            return
        found = scaled(base)
        if found is None:
            return
        if not all(_scalable_access(u.operation, base) for u in base.uses):
            return
        x, token = found
        assert token in INDEX_SCALES
        values = [v for _, v in vals]
        values[i] = x
        new = rebuild(op, values, smods={**op.smod_map(), "addr": token})
        if new is None:
            return
        replace_op(rewriter, op, new)
        self.counts["scaled-index"] += 1


__all__ = ["SCALE_OF_SHIFT", "ScaledIndex", "scaled"]
