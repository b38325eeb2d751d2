"""Semantics of comparisons and predicate logic (``ori_dialect.ops.predicate``).

A SETP computes ``r = a CMP b`` and writes ``p = r BOP c`` and ``q = (not r)
BOP c`` (PTX ``setp`` with a combining predicate, ISA 9.7.3.x/9.7.1.x
"setp"; SASS adds the second result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ori_dialect.interpreter.semantics.floating import (
    apply_masks,
    as_f32,
    as_f64,
    flush32,
    smod_masks,
)
from ori_dialect.interpreter.semantics.integer import U32, U64, Arr, Slots, bcast, nres
from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, P2ROp, PLop3Op, R2POp

_B = np.bool_

_ORDERED: dict[str, Callable[[Arr, Arr], Arr]] = {
    "lt": np.less,
    "eq": np.equal,
    "le": np.less_equal,
    "gt": np.greater,
    "ne": np.not_equal,
    "ge": np.greater_equal,
}
_BOPS: dict[str, Callable[[Arr, Arr], Arr]] = {
    "and": np.logical_and,
    "or": np.logical_or,
    "xor": np.logical_xor,
}


def _int_cmp(cmp: str) -> Callable[[Arr, Arr], Arr]:
    if cmp == "f":
        return lambda a, b: np.zeros(np.broadcast(a, b).shape, _B)
    if cmp == "t":
        return lambda a, b: np.ones(np.broadcast(a, b).shape, _B)
    return _ORDERED[cmp]


def _float_cmp(cmp: str) -> Callable[[Arr, Arr], Arr]:
    """IEEE comparison ``cmp`` (PTX setp float compares, ISA 9.7.3.x Table
    "Floating-point comparison operators"): the plain forms are false when
    either operand is NaN (``ne`` too), the ``u`` forms true; ``num`` = both
    are numbers, ``nan`` = either is NaN."""
    if cmp in ("f", "t"):
        return _int_cmp(cmp)
    if cmp == "num":
        return lambda a, b: ~(np.isnan(a) | np.isnan(b))
    if cmp == "nan":
        return lambda a, b: np.isnan(a) | np.isnan(b)
    if cmp == "ne":
        return lambda a, b: (a != b) & ~(np.isnan(a) | np.isnan(b))
    if cmp.endswith("u"):
        base = _ORDERED[cmp[:-1]]
        if cmp == "neu":
            return np.not_equal
        return lambda a, b: base(a, b) | np.isnan(a) | np.isnan(b)
    return _ORDERED[cmp]


def _setp_results(r: Arr, c: Arr, bop: Callable[[Arr, Arr], Arr], two: bool, n: int) -> tuple[Arr, ...]:
    p = bcast(bop(r, c), n, _B)
    if two:
        return p, bcast(bop(np.logical_not(r), c), n, _B)
    return (p,)


@compiles(ISetPOp)
def _isetp(op: ISetPOp) -> OpFn:
    """ISETP (PTX ``setp.s32/u32``).

    ``ex`` (extended, the high-word half of a 64-bit compare): ``r = a CMP
    b`` when the high words ``a``, ``b`` differ, else ``r = cin``, where
    ``cin`` is the predicate written by the compare of the low words with the
    same ``CMP`` on ``u32`` (ptxas: ``ISETP.GE.U32.AND P0, PT, lo_a, lo_b, PT;
    ISETP.GE.AND.EX P0, PT, hi_a, hi_b, PT, P0`` for a signed ``a >= b``).
    This gives the 64-bit result for every ``CMP``.
    """
    sl = Slots(op)
    cmp = _int_cmp(op.mod("cmp") or "f")
    signed = op.mod("sign") == "s32"
    bop = _BOPS[op.mod("bop") or "and"]
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    icin = sl.ix.get("cin") if op.has_mod("ex") else None
    two = nres(op) > 1

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = np.asarray(src[ia], U32), np.asarray(src[ib], U32)
        r = cmp(a.view(np.int32), b.view(np.int32)) if signed else cmp(a, b)
        if icin is not None:
            r = np.where(a != b, r, src[icin])
        return _setp_results(r, src[ic], bop, two, n)

    return fn


@compiles(FSetPOp)
def _fsetp(op: FSetPOp) -> OpFn:
    """FSETP (PTX ``setp.f32``): IEEE compare of the (``abs``/``neg``
    modified, ``ftz``-flushed) operands."""
    sl = Slots(op)
    cmp = _float_cmp(op.mod("cmp") or "f")
    bop = _BOPS[op.mod("bop") or "and"]
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    ma, mb = smod_masks(sl, "a"), smod_masks(sl, "b")
    ftz = op.has_mod("ftz")
    two = nres(op) > 1

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = apply_masks(src[ia], ma, U32), apply_masks(src[ib], mb, U32)
        if ftz:
            a, b = flush32(a), flush32(b)
        return _setp_results(cmp(as_f32(a), as_f32(b)), src[ic], bop, two, n)

    return fn


@compiles(DSetPOp)
def _dsetp(op: DSetPOp) -> OpFn:
    """DSETP (PTX ``setp.f64``): IEEE compare of float64 operands."""
    sl = Slots(op)
    cmp = _float_cmp(op.mod("cmp") or "f")
    bop = _BOPS[op.mod("bop") or "and"]
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    ma, mb = smod_masks(sl, "a", 64), smod_masks(sl, "b", 64)
    two = nres(op) > 1

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a, b = apply_masks(src[ia], ma, U64), apply_masks(src[ib], mb, U64)
        return _setp_results(cmp(as_f64(a), as_f64(b)), src[ic], bop, two, n)

    return fn


def _table(lut: int) -> np.ndarray:
    return np.array([(lut >> i) & 1 for i in range(8)], dtype=_B)


@compiles(PLop3Op)
def _plop3(op: PLop3Op) -> OpFn:
    """PLOP3.LUT: ``p = lut[(a<<2)|(b<<1)|c]`` (bit index into the 8-bit
    table, as LOP3; PTX ``lop3`` on predicates), ``q`` likewise with ``lut2``."""
    sl = Slots(op)
    ia, ib, ic = sl.ix["a"], sl.ix["b"], sl.ix["c"]
    t1 = _table(sl.imm("lut", 0) or 0)
    t2 = _table(sl.imm("lut2", 0) or 0)
    two = nres(op) > 1
    u8 = np.uint8

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        idx = (
            (np.asarray(src[ia], u8) << u8(2))
            | (np.asarray(src[ib], u8) << u8(1))
            | np.asarray(src[ic], u8)
        )
        p = bcast(t1[idx], n, _B)
        if two:
            return p, bcast(t2[idx], n, _B)
        return (p,)

    return fn


@compiles(P2ROp)
def _p2r(op: P2ROp) -> OpFn:
    """P2R: ``d = (a & ~mask) | (bits & mask)``, bit ``i`` of ``bits`` being
    predicate ``p<i>`` (absent predicates read as false)."""
    sl = Slots(op)
    ia = sl.ix["a"]
    mask = U32(sl.imm("mask", 0) or 0)
    preds = [(U32(i), sl.ix[f"p{i}"]) for i in range(7) if f"p{i}" in sl.ix]

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        bits = np.zeros(n, U32)
        for sh, i in preds:
            bits = bits | (np.asarray(src[i], U32) << sh)
        a = np.asarray(src[ia], U32)
        return (bcast((a & ~mask) | (bits & mask), n, U32),)

    return fn


@compiles(R2POp)
def _r2p(op: R2POp) -> OpFn:
    """R2P: one result per bit the mask writes, lowest first: result ``k``
    is the ``k``-th set bit of ``mask`` taken from ``a`` (``R2P PR, R, 0x4``
    writes P2 alone, from bit 2)."""
    sl = Slots(op)
    ia = sl.ix["a"]
    m = int(sl.imm("mask", 0) or 0) & 0x7F
    count = nres(op)
    bits = [U32(i) for i in range(7) if m >> i & 1][:count]
    bits += [U32(31)] * (count - len(bits))  # results beyond the mask: bit 31 masked off, false
    mask = U32(m)

    def fn(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        a = np.asarray(src[ia], U32) & mask
        return tuple(bcast((a >> b) & U32(1) != 0, n, _B) for b in bits)

    return fn


__all__: list[str] = []
