"""Semantics of the register-file moves (``ori_dialect.ops.regmove``)."""

from __future__ import annotations

from collections.abc import Sequence

from ori_dialect.interpreter.semantics.integer import U32, Arr, Slots, bcopy
from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ops.regmove import BMovOp, R2UROp


@compiles(R2UROp)
def _r2ur(op: R2UROp) -> OpFn:
    """R2UR: ``d = a`` per thread (uniform registers are kept per thread)."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (bcopy(src[ia], n, U32),)

    return fn


@compiles(BMovOp)
def _bmov(op: BMovOp) -> OpFn:
    """BMOV.32: ``d = a``, the 32-bit barrier word copied between files."""
    ia = Slots(op).ix["a"]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (bcopy(src[ia], n, U32),)

    return fn
