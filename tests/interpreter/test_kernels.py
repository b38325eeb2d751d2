"""Hand-written Ori kernels run in the interpreter and checked against numpy.

Each kernel is built at the SASS level (FuncBuilder or text); parameters live
in constant bank 0 at the target's parameter offset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import pred, r32, r64
from targets import get_target
from tests.conftest import parse

TARGET = "sm_80"
_CB = get_target(TARGET).cbank0
assert _CB is not None
PARAM = _CB.params
NTID = _CB.ntid
AND = 0xC0  # LOP3 truth table of a & b
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def kernel(name: str, params: list[tuple[int, int]]) -> FuncBuilder:
    return FuncBuilder(name, kernel=True, params=params)


def pval(off: int) -> Any:
    """``c[0x0][param + off]``."""
    return cbank(0, PARAM + off)


def pptr(fb: FuncBuilder, off: int) -> SSAValue:
    return fb.ldc(0, RZ, PARAM + off, mods="b64", types=[r64])


def gid(fb: FuncBuilder) -> tuple[SSAValue, SSAValue]:
    tid = fb.s2r(mods="SR_TID.X")
    ctaid = fb.s2r(mods="SR_CTAID.X")
    return tid, fb.imad(ctaid, cbank(0, NTID), tid)


def elem(fb: FuncBuilder, base: SSAValue, idx: SSAValue, size: int = 4) -> SSAValue:
    return fb.imad(idx, size, base, mods="wide.u32", types=[r64])


def finish(fb: FuncBuilder, *callees: FuncBuilder) -> ModuleOp:
    fb.exit()
    m = module(*(c.func for c in callees), fb.func, target=TARGET)
    m.verify()
    return m


def run(m: ModuleOp, name: str, grid: int, block: int, args: list[Any], shared: int = 0) -> list[Any]:
    return run_kernel(m, name, (grid, 1, 1), (block, 1, 1), args, shared)


RNG = np.random.default_rng(20240613)


def u32(n: int) -> np.ndarray:
    return RNG.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)


# ----------------------------------------------------------------------------
# saxpy
# ----------------------------------------------------------------------------


def fma32(a: np.ndarray | np.float32, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """a * x + y rounded once (the product of two floats is exact in float64)."""
    return (np.float64(a) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)


@pytest.mark.parametrize(("n", "grid", "block"), [(100, 2, 64), (300, 1, 128), (0, 1, 32)])
def test_saxpy_example(n: int, grid: int, block: int) -> None:
    m = parse((EXAMPLES / "saxpy.mlir").read_text())
    x = RNG.standard_normal(max(n, 1)).astype(np.float32)
    y = RNG.standard_normal(max(n, 1)).astype(np.float32)
    a = np.float32(1.75)
    res = run_kernel(m, "saxpy", (grid, 1, 1), (block, 1, 1), [np.uint32(n), a, x, y])
    want = y.copy()
    want[:n] = fma32(a, x[:n], y[:n])
    np.testing.assert_array_equal(res[3], want)
    np.testing.assert_array_equal(res[2], x)


def test_saxpy_builder() -> None:
    """Straight-line saxpy (one element per thread, guarded store)."""
    fb = kernel("saxpy1", [(4, 4), (4, 4), (8, 8), (8, 8)])
    _, i = gid(fb)
    inb = fb.isetp(i, pval(0), PT, mods="lt.u32")
    x, y = pptr(fb, 8), pptr(fb, 16)
    xa, ya = elem(fb, x, i), elem(fb, y, i)
    xv = fb.ldg(xa, 0, guard=inb, prior=[fb.mov(0)])
    yv = fb.ldg(ya, 0, guard=inb, prior=[fb.mov(0)])
    r = fb.ffma(xv, fb.mov(pval(4)), yv)
    fb.stg(ya, 0, r, guard=inb)
    m = finish(fb)
    n = 150
    x_h = RNG.standard_normal(n).astype(np.float32)
    y_h = RNG.standard_normal(n).astype(np.float32)
    res = run(m, "saxpy1", 3, 64, [np.uint32(n), np.float32(-0.5), x_h, y_h])
    np.testing.assert_array_equal(res[3], fma32(np.float32(-0.5), x_h, y_h))


# ----------------------------------------------------------------------------
# warp reductions with SHFL.BFLY
# ----------------------------------------------------------------------------


def _warp_reduce_kernel(name: str, op: str) -> ModuleOp:
    fb = kernel(name, [(8, 8), (8, 8)])
    _, i = gid(fb)
    v = fb.ldg(elem(fb, pptr(fb, 0), i), 0)
    for m in (16, 8, 4, 2, 1):
        o = fb.shfl(v, m, 0x1F, mods="bfly")
        v = fb.iadd3(v, o, RZ) if op == "int" else fb.fadd(v, o)
    fb.stg(elem(fb, pptr(fb, 8), i), 0, v)
    return finish(fb)


def test_warp_reduce_int() -> None:
    m = _warp_reduce_kernel("wsum", "int")
    x = u32(128)
    res = run(m, "wsum", 2, 64, [x, np.zeros(128, np.uint32)])
    sums = x.reshape(-1, 32).astype(np.uint64).sum(axis=1) % 2**32
    np.testing.assert_array_equal(res[1], np.repeat(sums.astype(np.uint32), 32))


def test_warp_reduce_float() -> None:
    m = _warp_reduce_kernel("fsum", "float")
    x = RNG.standard_normal(64).astype(np.float32)
    res = run(m, "fsum", 1, 64, [x, np.zeros(64, np.float32)])
    v = x.reshape(-1, 32).copy()
    lanes = np.arange(32)
    for k in (16, 8, 4, 2, 1):  # the butterfly's order of additions, in float32
        v = v + v[:, lanes ^ k]
    np.testing.assert_array_equal(res[1], v.reshape(-1))
    np.testing.assert_allclose(res[1][::32], x.reshape(-1, 32).sum(axis=1), rtol=1e-5)


# ----------------------------------------------------------------------------
# prefix sum: Hillis-Steele over 128 threads in shared memory
# ----------------------------------------------------------------------------


def test_prefix_sum_shared() -> None:
    fb = kernel("scan", [(8, 8), (8, 8)])
    tid, i = gid(fb)
    ntid = fb.mov(cbank(0, NTID))
    v0 = fb.ldg(elem(fb, pptr(fb, 0), i), 0)
    sa = fb.lea(tid, 0, 2)
    fb.sts(sa, 0, v0)
    fb.bar(0)
    one = fb.mov(1)
    loop = fb.block(r32, r32)
    done = fb.block(r32)
    fb.bra(loop, one, v0)
    with fb.at(loop):
        d, v = loop.args
        has = fb.isetp(tid, d, PT, mods="ge.u32")
        j = fb.iadd3(tid, d, RZ, smods={"b": "neg"})
        ja = fb.lea(j, 0, 2)
        # lanes with tid < d would read below the array: the guard keeps them out
        t = fb.lds(ja, 0, guard=has, prior=[fb.mov(0)])
        fb.bar(0)
        v2 = fb.iadd3(v, t, RZ)
        fb.sts(sa, 0, v2)
        fb.bar(0)
        d2 = fb.shl(d, 1)
        more = fb.isetp(d2, ntid, PT, mods="lt.u32")
        fb.bra(loop, d2, v2, guard=more, fallthrough=done, fallthrough_args=[v2])
    fb.goto(done)
    fb.stg(elem(fb, pptr(fb, 8), i), 0, done.args[0])
    m = finish(fb)
    x = RNG.integers(0, 1000, size=128).astype(np.uint32)
    res = run(m, "scan", 1, 128, [x, np.zeros(128, np.uint32)], shared=128 * 4)
    np.testing.assert_array_equal(res[1], np.cumsum(x, dtype=np.uint64).astype(np.uint32))
    # two CTAs of 64: each scans its own half
    res = run(m, "scan", 2, 64, [x, np.zeros(128, np.uint32)], shared=64 * 4)
    want = np.concatenate([np.cumsum(x[:64]), np.cumsum(x[64:])]).astype(np.uint32)
    np.testing.assert_array_equal(res[1], want)


# ----------------------------------------------------------------------------
# histogram with ATOM
# ----------------------------------------------------------------------------


def test_histogram_atom() -> None:
    fb = kernel("hist", [(8, 8), (8, 8), (4, 4)])
    _, i = gid(fb)
    inb = fb.isetp(i, pval(16), PT, mods="lt.u32")
    skip = fb.block()
    body = fb.block()
    fb.bra(body, guard=inb, fallthrough=skip)
    with fb.at(body):
        v = fb.ldg(elem(fb, pptr(fb, 0), i), 0)
        b = fb.lop3(v, 15, RZ, AND)
        fb.atom(elem(fb, pptr(fb, 8), b), 0, 1, mods="add.u32")
        fb.bra(skip)
    fb.goto(skip)
    m = finish(fb)
    n = 200
    x = u32(256)
    res = run(m, "hist", 2, 128, [x, np.zeros(16, np.uint32), np.uint32(n)])
    np.testing.assert_array_equal(res[1], np.bincount(x[:n] & 15, minlength=16).astype(np.uint32))


# ----------------------------------------------------------------------------
# 64-bit arithmetic: IMAD.WIDE, IADD3 with carry into the high word
# ----------------------------------------------------------------------------


def test_wide_arithmetic() -> None:
    """Per thread: 64-bit a + b and a - b on 32-bit halves (IADD3 carries),
    a * c + b with IMAD.WIDE.U32 and IMAD.WIDE (signed)."""
    fb = kernel("wide", [(8, 8), (8, 8), (8, 8), (8, 8)])
    _, i = gid(fb)
    a_in, b_in, c_in, out = (pptr(fb, o) for o in (0, 8, 16, 24))
    a = fb.ldg(elem(fb, a_in, i, 8), 0, mods="b64", types=[r64])
    b = fb.ldg(elem(fb, b_in, i, 8), 0, mods="b64", types=[r64])
    ap, bp = elem(fb, a_in, i, 8), elem(fb, b_in, i, 8)
    alo, ahi = fb.ldg(ap, 0), fb.ldg(ap, 4)
    blo, bhi = fb.ldg(bp, 0), fb.ldg(bp, 4)
    c = fb.ldg(elem(fb, c_in, i), 0)
    o = elem(fb, out, i, 40)
    # a + b
    s_lo, co = fb.iadd3(alo, blo, RZ, types=[r32, pred]).results
    s_hi = fb.iadd3(ahi, bhi, RZ, co, PT, mods="x", smods={"ci1": "not"})
    fb.stg(o, 0, s_lo)
    fb.stg(o, 4, s_hi)
    # a - b = a + ~b + 1: the low word negated, the high word inverted plus the carry
    d_lo, dco = fb.iadd3(alo, blo, RZ, types=[r32, pred], smods={"b": "neg"}).results
    d_hi = fb.iadd3(ahi, bhi, RZ, dco, PT, mods="x", smods={"b": "not", "ci1": "not"})
    fb.stg(o, 8, d_lo)
    fb.stg(o, 12, d_hi)
    # c * 0x9e3779b9 + a (unsigned and signed wide multiply-add)
    wu = fb.imad(c, 0x9E3779B9 - 2**32, a, mods="wide.u32", types=[r64])
    ws = fb.imad(c, -7, b, mods="wide", types=[r64])
    fb.stg(o, 16, wu, mods="b64")
    fb.stg(o, 24, ws, mods="b64")
    m = finish(fb)
    n = 64
    av = RNG.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    bv = RNG.integers(0, 2**63, size=n, dtype=np.uint64)
    av[:4] = [0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0, 0x80000000FFFFFFFF]
    bv[:4] = [1, 1, 1, 0x00000000FFFFFFFF]
    cv = u32(n)
    cv[:2] = [0xFFFFFFFF, 0x80000000]
    res = run(m, "wide", 1, n, [av, bv, cv, np.zeros(n * 10, np.uint32)])
    got = res[3].reshape(n, 10).view(np.uint64).reshape(n, 5)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got[:, 0], av + bv)
        np.testing.assert_array_equal(got[:, 1], av - bv)
        np.testing.assert_array_equal(got[:, 2], cv.astype(np.uint64) * np.uint64(0x9E3779B9) + av)
        signed = cv.view(np.int32).astype(np.int64) * np.int64(-7)
        np.testing.assert_array_equal(got[:, 3], signed.view(np.uint64) + bv)


def test_pointer_plus_offset_two_ways() -> None:
    """A parameter pointer plus a byte offset, computed on 32-bit halves with
    IADD3 carry and with IMAD.WIDE.U32, then used to store."""
    fb = kernel("ptr", [(8, 8), (8, 8)])
    _, i = gid(fb)
    lo = fb.mov(pval(8))
    hi = fb.mov(pval(12))
    off = fb.imad(i, 4, RZ)
    s_lo, co = fb.iadd3(lo, off, RZ, types=[r32, pred]).results
    s_hi = fb.iadd3(hi, RZ, RZ, co, PT, mods="x", smods={"ci1": "not"})
    wide = fb.imad(off, 1, pptr(fb, 8), mods="wide.u32", types=[r64])
    o = elem(fb, pptr(fb, 0), i, 16)
    fb.stg(o, 0, s_lo)
    fb.stg(o, 4, s_hi)
    fb.stg(o, 8, wide, mods="b64")
    fb.stg(wide, 0, fb.iadd3(i, 0x100, RZ))  # and it addresses the second buffer
    m = finish(fb)
    res = run(m, "ptr", 1, 32, [np.zeros(32 * 4, np.uint32), np.zeros(32, np.uint32)])
    got = res[0].reshape(32, 4).view(np.uint64)
    np.testing.assert_array_equal(got[:, 0], got[:, 1])
    np.testing.assert_array_equal(np.diff(got[:, 0].astype(np.int64)), np.full(31, 4))
    np.testing.assert_array_equal(res[1], np.arange(32, dtype=np.uint32) + 0x100)


# ----------------------------------------------------------------------------
# unsigned 32-bit division / remainder as ptxas emits it
# ----------------------------------------------------------------------------


def udiv_kernel() -> ModuleOp:
    """q = a / b, r = a % b with the I2F.U32.RP -> MUFU.RCP -> IADD 0xffffffe ->
    F2I.FTZ.U32.TRUNC -> IMAD.HI refinement -> ISETP/guarded fix-up sequence;
    b == 0 gives 0xffffffff for both (LOP3 ~b under !P)."""
    fb = kernel("udiv", [(8, 8), (8, 8), (8, 8)])
    _, i = gid(fb)
    a = fb.ldg(elem(fb, pptr(fb, 0), i), 0)
    b = fb.ldg(elem(fb, pptr(fb, 8), i), 0)
    bf = fb.i2f(b, mods="f32.u32.rp")
    rc = fb.mufu(bf, mods="rcp")
    rc2 = fb.iadd3(rc, 0xFFFFFFE, RZ)
    r0 = fb.f2i(rc2, mods="u32.f32.rz.ftz")
    nr = fb.iadd3(RZ, r0, RZ, smods={"b": "neg"})
    t = fb.imad(nr, b, RZ)
    r1 = fb.imad(r0, t, r0, mods="hi.u32")
    q0 = fb.imad(r1, a, RZ, mods="hi.u32")
    nq = fb.iadd3(RZ, q0, RZ, smods={"b": "neg"})
    rem0 = fb.imad(nq, b, a)
    p0 = fb.isetp(rem0, b, PT, mods="ge.u32")
    rem1 = fb.iadd3(rem0, b, RZ, smods={"b": "neg"}, guard=p0, prior=[rem0])
    q1 = fb.iadd3(q0, 1, RZ, guard=p0, prior=[q0])
    p1 = fb.isetp(rem1, b, PT, mods="ge.u32")
    q2 = fb.iadd3(q1, 1, RZ, guard=p1, prior=[q1])
    rem2 = fb.iadd3(rem1, b, RZ, smods={"b": "neg"}, guard=p1, prior=[rem1])
    pz = fb.isetp(b, 0, PT, mods="ne.u32")
    q3 = fb.lop3(RZ, b, RZ, 0x33, guard=pz, guard_neg=True, prior=[q2])
    rem3 = fb.lop3(RZ, b, RZ, 0x33, guard=pz, guard_neg=True, prior=[rem2])
    o = elem(fb, pptr(fb, 16), i, 8)
    fb.stg(o, 0, q3)
    fb.stg(o, 4, rem3)
    return finish(fb)


def test_unsigned_division_sequence() -> None:
    m = udiv_kernel()
    edge_a = [0, 1, 2, 7, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x7FFFFFFF, 12345678, 1 << 31, 100, 99]
    edge_b = [1, 2, 3, 7, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x80000001, 10, 0x10000, 100, 100]
    n = 256
    a = u32(n)
    b = u32(n)
    small = RNG.integers(1, 1000, size=n // 4).astype(np.uint32)
    b[: n // 4] = small  # small divisors as well as large ones
    pairs = [(x, y) for x in edge_a for y in edge_b]
    k = len(pairs)
    a[n // 4 : n // 4 + k] = [p[0] for p in pairs]
    b[n // 4 : n // 4 + k] = [p[1] for p in pairs]
    b[-3:] = 0  # division by zero
    res = run(m, "udiv", 2, 128, [a, b, np.zeros(2 * n, np.uint32)])
    q, r = res[2].reshape(n, 2).T
    nz = b != 0
    np.testing.assert_array_equal(q[nz], a[nz] // b[nz])
    np.testing.assert_array_equal(r[nz], a[nz] % b[nz])
    np.testing.assert_array_equal(q[~nz], np.full((~nz).sum(), 0xFFFFFFFF, np.uint32))
    np.testing.assert_array_equal(r[~nz], np.full((~nz).sum(), 0xFFFFFFFF, np.uint32))


# ----------------------------------------------------------------------------
# predication
# ----------------------------------------------------------------------------


def test_predicated_clamp_and_guarded_memory() -> None:
    """clamp(x, -100, 100) with guarded MOVs (prior values), a negated guard,
    SEL, a guarded load from an address that is only valid where the guard
    holds, and a guarded store."""
    fb = kernel("pred", [(8, 8), (8, 8), (8, 8)])
    _, i = gid(fb)
    x = fb.ldg(elem(fb, pptr(fb, 0), i), 0)
    hi = fb.isetp(x, 100, PT, mods="gt")
    c1 = fb.mov(100, guard=hi, prior=[x])
    lo = fb.isetp(c1, -100, PT, mods="ge")
    c2 = fb.mov(-100, guard=lo, guard_neg=True, prior=[c1])
    neg = fb.isetp(x, 0, PT, mods="lt")
    sgn = fb.sel(fb.mov(-1), 1, neg)
    # lanes with an even x load table[x & 0xff]; the others keep 7
    ev = fb.lop3(x, 1, RZ, AND)
    pe = fb.isetp(ev, 0, PT, mods="eq")
    idx = fb.lop3(x, 0xFF, RZ, AND)
    # odd lanes would fault: their index is x itself, far out of bounds
    ix = fb.sel(idx, x, pe)
    t = fb.ldg(elem(fb, pptr(fb, 8), ix), 0, guard=pe, prior=[fb.mov(7)])
    o = elem(fb, pptr(fb, 16), i, 16)
    fb.stg(o, 0, c2)
    fb.stg(o, 4, sgn)
    fb.stg(o, 8, t)
    fb.stg(o, 12, x, guard=pe, guard_neg=True)  # odd lanes only
    m = finish(fb)
    n = 128
    xs = RNG.integers(-300, 300, size=n).astype(np.int32)
    xs[:4] = [100, 101, -100, -101]
    table = u32(256)
    out0 = u32(4 * n)
    res = run(m, "pred", 1, n, [xs.view(np.uint32), table, out0.copy()])
    got = res[2].reshape(n, 4)
    np.testing.assert_array_equal(got[:, 0].view(np.int32), np.clip(xs, -100, 100))
    np.testing.assert_array_equal(got[:, 1].view(np.int32), np.where(xs < 0, -1, 1))
    even = (xs & 1) == 0
    np.testing.assert_array_equal(got[:, 2], np.where(even, table[xs.view(np.uint32) & 0xFF], 7))
    np.testing.assert_array_equal(got[:, 3], np.where(even, out0.reshape(n, 4)[:, 3], xs.view(np.uint32)))


# ----------------------------------------------------------------------------
# a loop with a device-function call and an IV used after the loop
# ----------------------------------------------------------------------------


def test_call_in_loop() -> None:
    dev = FuncBuilder("mix", [r32, r32], [r32, r32])
    a, b = dev.entry.args
    s = dev.iadd3(a, b, RZ)
    x = dev.lop3(a, b, RZ, 0x3C)
    dev.ret(s, x)
    fb = kernel("loopcall", [(8, 8), (4, 4)])
    _, i = gid(fb)
    n = fb.mov(pval(8))
    z = fb.mov(0)
    head = fb.block(r32, r32, r32)
    body = fb.block()
    done = fb.block(r32, r32, r32)
    fb.bra(head, z, i, z)
    with fb.at(head):
        k, acc, acc2 = head.args
        p = fb.isetp(k, n, PT, mods="lt.u32")
        fb.bra(body, guard=p, fallthrough=done, fallthrough_args=[k, acc, acc2])
    with fb.at(body):
        c = fb.call("mix", acc, k, results=[r32, r32])
        k2 = fb.iadd3(k, 1, RZ)
        fb.bra(head, k2, c.results[0], c.results[1])
    fb.goto(done)
    kf, af, xf = done.args
    o = elem(fb, pptr(fb, 0), i, 12)
    fb.stg(o, 0, kf)
    fb.stg(o, 4, af)
    fb.stg(o, 8, xf)
    m = finish(fb, dev)
    for nn in (0, 1, 5):
        res = run(m, "loopcall", 1, 32, [np.zeros(96, np.uint32), np.uint32(nn)])
        got = res[0].reshape(32, 3)
        acc = np.arange(32, dtype=np.uint64)
        x = np.zeros(32, np.uint64)
        for kk in range(nn):
            acc, x = (acc + kk) % 2**32, acc ^ kk
        np.testing.assert_array_equal(got[:, 0], np.full(32, nn))
        np.testing.assert_array_equal(got[:, 1], acc)
        np.testing.assert_array_equal(got[:, 2], x)


# ----------------------------------------------------------------------------
# reconvergence after a divergent loop (was an interpreter bug: threads that
# left the loop early ran the blocks after it first when the loop body was the
# guarded BRA's taken successor)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("body_taken", [True, False])
def test_shfl_after_divergent_loop(body_taken: bool) -> None:
    fb = kernel("after", [(8, 8)])
    tid = fb.s2r(mods="SR_TID.X")
    n = fb.lop3(tid, 3, RZ, AND)
    head = fb.block(r32)
    body = fb.block()
    exit_ = fb.block(r32)
    fb.bra(head, fb.mov(0))
    with fb.at(head):
        i = head.args[0]
        p = fb.isetp(i, n, PT, mods="lt.u32")
        if body_taken:
            fb.bra(body, guard=p, fallthrough=exit_, fallthrough_args=[i])
        else:
            fb.bra(exit_, i, guard=p, neg=True, fallthrough=body)
    with fb.at(body):
        fb.bra(head, fb.iadd3(i, 1, RZ))
    fb.goto(exit_)
    s = fb.shfl(exit_.args[0], 1, 0x1F, mods="bfly")
    fb.stg(elem(fb, pptr(fb, 0), tid), 0, s)
    m = finish(fb)
    res = run_kernel(m, "after", 1, 32, [np.zeros(32, np.uint32)], strict=True)
    np.testing.assert_array_equal(res[0], (np.arange(32) ^ 1) & 3)
