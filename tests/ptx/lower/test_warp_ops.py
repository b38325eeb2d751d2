"""Warp reductions and matches, grid-dependency control, traps, ``exit`` in a
device function, indexed branches and two-destination ``a|b`` operands, from
the PTX that library code (CUB, cooperative groups) makes.

Every kernel runs in the interpreter straight after import and again, in
physical-register mode, after the whole ``ori-ptxas`` pipeline; both results
are compared with a numpy model written from the PTX ISA's description of
the instruction, over random inputs and several member masks (full warps,
partial warps and single lanes).  The inputs are nvcc 13.0's PTX for
``tests/ptx/inputs/warp_ops.cu`` and ``control_ops.cu`` (sm_80 and sm_90) and
the hand-written ``brx.ptx``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.asm_printer import format_module
from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ops.control import BrxOp, ExitOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.special import BptOp
from ori_dialect.ops.sync import AcqBulkOp, MatchOp, PreExitOp, ReduxOp, ShflOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context

INPUTS = Path(__file__).resolve().parents[1] / "inputs"
U32 = 0xFFFFFFFF
MASKS = [U32, 0x0000FFFF, 0xAAAAAAAA, 0x80000001, 0x00000100, 0x7FFFFFFE]


@functools.cache
def _imported(name: str) -> ModuleOp:
    path = INPUTS / name
    m = import_ptx(path.read_text(), str(path))
    m.verify()
    return m


@functools.cache
def _compiled(name: str) -> ModuleOp:
    m = _imported(name).clone()
    apply_pipeline(m, "ori-ptxas", make_context())
    m.verify()
    return m


def both(name: str, kernel: str, grid: int, block: int, args: list[Any]) -> list[list[Any]]:
    """The results of ``kernel`` after import and after ``ori-ptxas`` (physical
    registers), each from fresh copies of ``args``."""
    out = []
    for m, physical in ((_imported(name), False), (_compiled(name), True)):
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        out.append(run_kernel(m, kernel, grid=grid, block=block, args=fresh, physical=physical))
    return out


def ops_of(module: ModuleOp, cls: type) -> list[Any]:
    return [op for op in module.walk() if isinstance(op, cls)]


def per_warp(mask: int, n: int, fn: Callable[[np.ndarray, np.ndarray], np.ndarray],
             *values: np.ndarray) -> np.ndarray:
    """``fn(lanes, values of the member lanes)`` for every warp of ``n``
    threads whose member lanes (bits of ``mask``) execute together."""
    lanes = np.arange(n) & 31
    member = ((mask >> lanes) & 1).astype(bool)
    out = np.zeros(n, dtype=np.uint32)
    for w in range(0, n, 32):
        sel = np.flatnonzero(member[w:w + 32]) + w
        if len(sel):
            out[sel] = fn(lanes[sel], *(v[sel] for v in values))
    return out


# ----------------------------------------------------------------------------
# redux.sync (REDUX)


def redux_model(mask: int, v: np.ndarray) -> np.ndarray:
    def one(lanes: np.ndarray, x: np.ndarray) -> np.ndarray:
        s = x.astype(np.int64)
        u = x.astype(np.uint32)
        total = int(s.sum())
        red = (total + 3 * int(s.min()) + 5 * int(u.max()) + 7 * int(np.bitwise_and.reduce(u))
               + 11 * int(np.bitwise_or.reduce(u)) + 13 * int(np.bitwise_xor.reduce(u)))
        return np.full(len(x), red & U32, dtype=np.uint32)

    return per_warp(mask, len(v), one, v)


@pytest.mark.parametrize("ptx", ["warp_ops.ptx", "warp_ops_sm90.ptx"])
@pytest.mark.parametrize("mask", MASKS)
def test_redux_all_operations(ptx: str, mask: int) -> None:
    rng = np.random.default_rng(mask & 0xFFFF)
    grid, block = 2, 64
    n = grid * block
    v = rng.integers(-(1 << 31), 1 << 31, n, dtype=np.int64).astype(np.int32)
    sentinel = np.full(n, 0x5A5A5A5A, dtype=np.uint32)
    want = redux_model(mask, v)
    lanes = np.arange(n) & 31
    member = ((mask >> lanes) & 1).astype(bool)
    want = np.where(member, want, sentinel)
    for _, out, _ in both(ptx, "redux_add", grid, block, [v, sentinel, mask]):
        np.testing.assert_array_equal(out.view(np.uint32), want)


def test_redux_spelling_and_facts() -> None:
    m = _imported("warp_ops.ptx")
    mods = sorted(op.mod("op") or "and" for op in ops_of(m, ReduxOp)
                  if op.parent_op().sym_name.data == "redux_add")  # type: ignore[union-attr]
    assert mods == ["and", "max", "min", "or", "sum", "xor"]
    text = format_module(m)
    for line in ("REDUX.SUM.S32", "REDUX.MIN.S32", "REDUX.MAX ", "REDUX ", "REDUX.OR",
                 "REDUX.XOR"):
        assert line in text
    assert ReduxOp.WARP_COLLECTIVE and ReduxOp.SIDE_EFFECTS
    assert not ReduxOp.is_side_effect_free()


# ----------------------------------------------------------------------------
# match.sync (MATCH)


def match_models(mask: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = len(a)
    out = np.zeros((n, 4), dtype=np.uint32)

    def any_of(lanes: np.ndarray, x: np.ndarray) -> np.ndarray:
        bits = np.uint64(1) << lanes.astype(np.uint64)
        return np.array([int(bits[x == xi].sum()) for xi in x], dtype=np.uint32)

    def all_of(lanes: np.ndarray, x: np.ndarray) -> np.ndarray:
        same = bool((x == x[0]).all())
        m = int((np.uint64(1) << lanes.astype(np.uint64)).sum())
        return np.full(len(x), m if same else 0, dtype=np.uint32)

    def all_pred(lanes: np.ndarray, x: np.ndarray) -> np.ndarray:
        return np.full(len(x), int((x == x[0]).all()), dtype=np.uint32)

    out[:, 0] = per_warp(mask, n, any_of, a)
    out[:, 1] = per_warp(mask, n, all_of, a) + per_warp(mask, n, all_pred, a)
    out[:, 2] = per_warp(mask, n, any_of, b)
    out[:, 3] = per_warp(mask, n, all_of, b) + (per_warp(mask, n, all_pred, b) << 1)
    return out


@pytest.mark.parametrize("ptx", ["warp_ops.ptx", "warp_ops_sm90.ptx"])
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("uniform", [False, True])
def test_match_any_all(ptx: str, mask: int, uniform: bool) -> None:
    rng = np.random.default_rng(mask & 0xFFFF)
    grid, block = 2, 64
    n = grid * block
    # few distinct values so that lanes match; 64-bit values differing only
    # in the high word check that all 64 bits are compared
    a = rng.integers(0, 3, n).astype(np.uint32)
    b = (rng.integers(0, 3, n).astype(np.uint64) << np.uint64(32)) | np.uint64(7)
    if uniform:
        a[:] = 5
        b[:] = 1 << 40
    want = match_models(mask, a, b)
    lanes = np.arange(n) & 31
    member = ((mask >> lanes) & 1).astype(bool)
    for _, _, out, _ in both(ptx, "match_k", grid, block,
                             [a, b, np.zeros(4 * n, np.uint32), mask]):
        got = out.reshape(n, 4)
        np.testing.assert_array_equal(got[member], want[member])
        assert (got[~member] == 0).all()


def test_match_spelling() -> None:
    m = _imported("warp_ops.ptx")
    assert sorted(op.mods.data if op.mods else "" for op in ops_of(m, MatchOp)) == [
        "all", "all.u64", "any", "any.u64"]
    text = format_module(m)
    assert "MATCH.ALL %p" in text and "MATCH.ALL.U64 %p" in text  # predicate first, as SASS


# ----------------------------------------------------------------------------
# CUB and cooperative groups: shfl.sync with `r0|p` in inline-asm scopes


def scan_models(v: np.ndarray) -> np.ndarray:
    n = len(v)
    out = np.zeros((n, 4), dtype=np.int64)
    for w in range(0, n, 32):
        x = v[w:w + 32].astype(np.int64)
        inc = np.cumsum(x)
        out[w:w + 32, 0] = inc
        out[w:w + 32, 1] = inc - x
        out[w:w + 32, 2] = x.sum()
        out[w:w + 32, 3] = x.max()
    return (out & U32).astype(np.uint32)


@pytest.mark.parametrize("ptx", ["warp_ops.ptx", "warp_ops_sm90.ptx"])
def test_cub_warp_scan_and_reduce(ptx: str) -> None:
    assert ops_of(_imported(ptx), ShflOp), "CUB's scan is expected to use shfl.sync.up r0|p"
    rng = np.random.default_rng(1)
    grid, block = 2, 128
    n = grid * block
    v = rng.integers(-1000, 1000, n).astype(np.int32)
    want = scan_models(v)
    for _, out in both(ptx, "cub_warp", grid, block, [v, np.zeros(4 * n, np.int32)]):
        got = out.view(np.uint32).reshape(n, 4)
        # WarpReduce's result is defined in lane 0 only
        np.testing.assert_array_equal(got[:, :2], want[:, :2])
        lane0 = (np.arange(n) & 31) == 0
        np.testing.assert_array_equal(got[lane0, 2:], want[lane0, 2:])


@pytest.mark.parametrize("ptx", ["warp_ops.ptx", "warp_ops_sm90.ptx"])
def test_cub_block_scan_and_reduce(ptx: str) -> None:
    rng = np.random.default_rng(2)
    grid, block = 2, 128
    n = grid * block
    v = rng.integers(-1000, 1000, n).astype(np.int32)
    for _, out in both(ptx, "cub_block", grid, block, [v, np.zeros(2 * n, np.int32)]):
        got = out.reshape(n, 2)
        for c in range(grid):
            x = v[c * block:(c + 1) * block].astype(np.int64)
            np.testing.assert_array_equal(got[c * block:(c + 1) * block, 0], np.cumsum(x))
            assert got[c * block, 1] == x.sum()


@pytest.mark.parametrize("ptx", ["warp_ops.ptx", "warp_ops_sm90.ptx"])
def test_cooperative_groups_reduce(ptx: str) -> None:
    rng = np.random.default_rng(3)
    grid, block = 2, 96
    n = grid * block
    v = rng.integers(-500, 500, n).astype(np.int32)
    x = v.astype(np.int64).reshape(-1, 32)
    want = np.repeat(x.sum(axis=1) + 1000 * x.max(axis=1), 32)
    for _, out in both(ptx, "cg_reduce", grid, block, [v, np.zeros(n, np.int32)]):
        np.testing.assert_array_equal(out, want.astype(np.int32))


# two-destination operands with plain names, as CUB's inline asm writes them
PAIRS = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry pairs(.param .u64 po, .param .u32 pk)
{
    .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<4>;
    ld.param.u64 %rd1, [po];
    ld.param.u32 %r10, [pk];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 16;
    add.s64 %rd2, %rd2, %rd3;
    mov.u32 %r2, -1;
    {
    .reg .s32 r0;
    .reg .pred p, q;
    shfl.sync.down.b32 r0|p, %r1, %r10, 31, %r2;
    @p add.s32 r0, r0, 1000;
    @!p add.s32 r0, r0, 2000;
    mov.s32 %r3, r0;
    setp.lt.u32 p|q, %r1, %r10;
    selp.u32 %r4, 1, 0, p;
    selp.u32 %r5, 1, 0, q;
    }
    setp.ge.and.u32 %p1|%p2, %r1, 8, %p3;
    setp.eq.u32 %p3, %r1, %r1;
    setp.ge.or.u32 %p1|%p2, %r1, 8, %p3;
    selp.u32 %r6, 1, 0, %p2;
    st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};
    ret;
}
"""


@pytest.mark.parametrize("k", [1, 5, 16])
def test_plain_named_pairs(k: int) -> None:
    m = import_ptx(PAIRS, "pairs.ptx")
    m.verify()
    c = m.clone()
    apply_pipeline(c, "ori-ptxas", make_context())
    t = np.arange(64)
    lane = t & 31
    src_ok = lane + k <= 31
    want = np.zeros((64, 4), dtype=np.uint32)
    want[:, 0] = np.where(src_ok, t + k + 1000, t + 2000)
    want[:, 1] = t < k
    want[:, 2] = t >= k  # q = !(a < b) AND PT
    # q = !(a >= 8) OR true: always true
    want[:, 3] = 1
    for mod, phys in ((m, False), (c, True)):
        out, _ = run_kernel(mod, "pairs", grid=1, block=64,
                            args=[np.zeros(4 * 64, np.uint32), k], physical=phys)
        np.testing.assert_array_equal(out.reshape(64, 4), want)


def test_pair_with_undeclared_second_register_is_diagnosed() -> None:
    bad = PAIRS.replace("shfl.sync.down.b32 r0|p,", "shfl.sync.down.b32 r0|nope,")
    with pytest.raises(PtxSyntaxError, match=r"pairs.ptx:\d+:\d+: error: expected register "
                                              r"after '\|'"):
        import_ptx(bad, "pairs.ptx")


# ----------------------------------------------------------------------------
# trap, exit in a device function, griddepcontrol


@pytest.mark.parametrize("ptx", ["control_ops.ptx", "control_ops_sm90.ptx"])
def test_trap_not_taken_and_taken(ptx: str) -> None:
    assert len(ops_of(_imported(ptx), BptOp)) == 1
    assert "BPT.TRAP 0x1" in format_module(_imported(ptx))
    rng = np.random.default_rng(4)
    v = rng.integers(0, 1000, 64).astype(np.int32)
    for _, out in both(ptx, "trap_k", 1, 64, [v, np.zeros(64, np.int32)]):
        np.testing.assert_array_equal(out, 2 * v)
    v[37] = -5
    for m, phys in ((_imported(ptx), False), (_compiled(ptx), True)):
        with pytest.raises(InterpreterError, match=r"tid \(37,0,0\): trap: BPT.TRAP 0x1"):
            run_kernel(m, "trap_k", grid=1, block=64, args=[v, np.zeros(64, np.int32)],
                       physical=phys)


@pytest.mark.parametrize("ptx", ["control_ops.ptx", "control_ops_sm90.ptx"])
def test_exit_in_device_function_ends_the_thread(ptx: str) -> None:
    m = _imported(ptx)
    exits = [op for op in ops_of(m, ExitOp)
             if isinstance(op.parent_op(), FuncOp) and not op.parent_op().is_kernel]
    assert exits, "maybe_exit should contain an ori.exit"
    rng = np.random.default_rng(5)
    n = 96
    v = rng.integers(0, 12, n).astype(np.int32)
    v[:40] = 7  # a whole warp and part of the next exit
    want = np.where(v == 7, -1, v + 11)
    for _, out in both(ptx, "exit_k", 1, n, [v, np.full(n, -1, np.int32)]):
        np.testing.assert_array_equal(out, want)


def test_griddepcontrol() -> None:
    m = _imported("control_ops_sm90.ptx")
    assert len(ops_of(m, AcqBulkOp)) == 1 and len(ops_of(m, PreExitOp)) == 1
    text = format_module(m)
    assert "ACQBULK" in text and "PREEXIT" in text
    assert AcqBulkOp.IS_BARRIER and PreExitOp.SIDE_EFFECTS
    v = np.arange(100, dtype=np.int32)
    for _, out in both("control_ops_sm90.ptx", "pdl_k", 2, 50, [v, np.zeros(100, np.int32)]):
        np.testing.assert_array_equal(out, v + 1)
    assert len(ops_of(_compiled("control_ops_sm90.ptx"), AcqBulkOp)) == 1


# ----------------------------------------------------------------------------
# brx.idx (BRX)


def test_brx_in_device_function() -> None:
    m = _imported("brx.ptx")
    (pick,) = [op for op in ops_of(m, BrxOp)
               if op.parent_op().sym_name.data == "pick"]  # type: ignore[union-attr]
    assert len(pick.successors) == 5
    rng = np.random.default_rng(6)
    n = 128
    x = rng.integers(0, 7, n).astype(np.int32)
    t = np.arange(n, dtype=np.int64)
    cases = [t + 1, t * 3, t ^ 85, t << 2, t + 1]
    want = np.array([cases[xi][i] if xi <= 4 else -1 for i, xi in enumerate(x)],
                    dtype=np.int64).astype(np.int32)
    for _, out in both("brx.ptx", "brx_call", 2, 64, [x, np.zeros(n, np.int32)]):
        np.testing.assert_array_equal(out, want)


def test_brx_guarded() -> None:
    rng = np.random.default_rng(7)
    n = 96
    x = rng.integers(-20, 20, n).astype(np.int32)
    t = np.arange(n)
    want = np.where(x < 0, t + 100, np.choose(x & 3, [10 + 0 * t, 20 + 0 * t, x * 7, -t]))
    for _, out in both("brx.ptx", "brx_guarded", 1, n, [x, np.zeros(n, np.int32)]):
        np.testing.assert_array_equal(out, want.astype(np.int32))


def test_brx_index_out_of_range_is_an_error() -> None:
    x = np.zeros(64, np.int32)
    x[1::2] = 1
    for _, out in both("brx.ptx", "brx_unchecked", 1, 64, [x, np.zeros(64, np.int32)]):
        np.testing.assert_array_equal(out, np.where(x == 0, 1, 2))
    x[45] = 2
    for m, phys in ((_imported("brx.ptx"), False), (_compiled("brx.ptx"), True)):
        with pytest.raises(InterpreterError,
                           match=r"ori.brx .*tid \(45,0,0\): BRX index 2 is outside its "
                                 r"2-entry target list"):
            run_kernel(m, "brx_unchecked", grid=1, block=64, args=[x, np.zeros(64, np.int32)],
                       physical=phys)


@pytest.mark.parametrize(("edit", "msg"), [
    (("brx.idx \t%r5, $L_two;", "brx.idx \t%r5, $L_x;"),
     "brx.idx: '$L_x' is not a .branchtargets list"),
    (("$L_two: .branchtargets $L_x, $L_y;", "$L_two: .branchtargets $L_x, $L_nowhere;"),
     "undefined label '$L_nowhere'"),
    (("brx.idx \t%r5, $L_two;", "brx.rel \t%r5, $L_two;"), "only brx.idx{.uni} exists"),
])
def test_brx_diagnostics(edit: tuple[str, str], msg: str) -> None:
    text = (INPUTS / "brx.ptx").read_text()
    assert edit[0] in text
    with pytest.raises(PtxSyntaxError, match=r"brx.ptx:\d+:\d+: error: .*" + re.escape(msg)):
        import_ptx(text.replace(edit[0], edit[1]), "brx.ptx")


# ----------------------------------------------------------------------------
# member masks that split a warp (cooperative groups' tiles), and bad masks

def tile_kernel(name: str, body: str) -> str:
    """A kernel that reads one u32 per thread into %r3 and computes in %r7 the
    member mask of this lane's tile of ``pw`` lanes, ((1 << w) - 1) << (lane & -w)
    (all ones for w = 32), then runs ``body``; %rd2 is the output pointer."""
    return f"""
.version 8.0
.target sm_80
.address_size 64
.visible .entry {name}(.param .u64 pi, .param .u64 po, .param .u32 pw)
{{
    .reg .b32 %r<16>; .reg .b64 %rd<6>; .reg .pred %p<6>;
    ld.param.u64 %rd1, [pi];
    ld.param.u64 %rd2, [po];
    ld.param.u32 %r9, [pw];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %laneid;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r3, [%rd4];
    neg.s32 %r4, %r9;
    and.b32 %r5, %r2, %r4;
    mov.u32 %r6, 1;
    shl.b32 %r6, %r6, %r9;
    add.s32 %r6, %r6, -1;
    setp.eq.u32 %p1, %r9, 32;
    @%p1 mov.u32 %r6, -1;
    shl.b32 %r7, %r6, %r5;
{body}    ret;
}}
"""


TILES = tile_kernel("tiles", """    redux.sync.add.u32 %r10, %r3, %r7;
    redux.sync.max.s32 %r11, %r3, %r7;
    and.b32 %r12, %r3, 1;
    match.any.sync.b32 %r13, %r12, %r7;
    match.all.sync.b32 %r14|%p1, %r12, %r7;
    selp.u32 %r15, 1, 0, %p1;
    mul.wide.u32 %rd3, %r1, 32;
    add.s64 %rd5, %rd2, %rd3;
    st.global.v4.u32 [%rd5], {%r10, %r11, %r13, %r14};
    st.global.u32 [%rd5+16], %r15;
""")


def tile_model(v: np.ndarray, w: int) -> np.ndarray:
    n = len(v)
    out = np.zeros((n, 5), dtype=np.uint32)
    for t0 in range(0, n, w):
        x = v[t0:t0 + w]
        lanes = np.arange(t0, min(t0 + w, n)) & 31
        bits = (np.uint64(1) << lanes.astype(np.uint64))
        odd = x & 1
        out[t0:t0 + w, 0] = int(x.astype(np.int64).sum()) & U32
        out[t0:t0 + w, 1] = int(x.view(np.int32).max()) & U32
        out[t0:t0 + w, 2] = [int(bits[odd == o].sum()) for o in odd]
        same = bool((odd == odd[0]).all())
        out[t0:t0 + w, 3] = int(bits.sum()) if same else 0
        out[t0:t0 + w, 4] = same
    return out


@pytest.mark.parametrize("w", [1, 4, 8, 16, 32])
def test_member_masks_split_the_warp(w: int) -> None:
    m = import_ptx(TILES, "tiles.ptx")
    m.verify()
    c = m.clone()
    apply_pipeline(c, "ori-ptxas", make_context())
    rng = np.random.default_rng(w)
    v = rng.integers(0, 1 << 31, 64).astype(np.uint32)
    if w == 8:
        v[8:16] = 2 * (v[8:16] // 2)  # a tile whose values are all even: match.all holds
    want = tile_model(v, w)
    for mod, phys in ((m, False), (c, True)):
        _, out, _ = run_kernel(mod, "tiles", grid=1, block=64,
                               args=[v, np.zeros(8 * 64, np.uint32), w], physical=phys)
        np.testing.assert_array_equal(out.reshape(64, 8)[:, :5], want)


def test_partial_warp_with_a_full_mask() -> None:
    # 48 threads: the second warp has 16 lanes, a full mask names lanes that do not exist
    rng = np.random.default_rng(8)
    v = rng.integers(-(1 << 31), 1 << 31, 48, dtype=np.int64).astype(np.int32)
    for _, out, _ in both("warp_ops.ptx", "redux_add", 1, 48, [v, np.zeros(48, np.uint32), U32]):
        want = np.concatenate([redux_model(U32, v[:32]), redux_model(U32, v[32:])])
        np.testing.assert_array_equal(out, want)


BADMASK = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry badmask(.param .u64 po, .param .u32 pm, .param .u32 pl)
{
    .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<2>;
    ld.param.u64 %rd1, [po];
    ld.param.u32 %r1, [pm];
    ld.param.u32 %r2, [pl];
    mov.u32 %r3, %laneid;
    setp.ge.u32 %p1, %r3, %r2;
    @%p1 bra $L_done;
    redux.sync.add.u32 %r4, %r3, %r1;
    st.global.u32 [%rd1], %r4;
$L_done:
    ret;
}
"""


@pytest.mark.parametrize(("mask", "limit", "msg"), [
    (0x0000FFFE, 32, r"tid \(0,0,0\): REDUX: thread is not in its membermask 0xfffe"),
    (0x0001FFFF, 16, (r"tid \(0,0,0\): REDUX: membermask 0x1ffff names lanes that do not "
                      r"execute it with this thread \(executing: 0xffff\)")),
])
def test_bad_member_masks_are_errors(mask: int, limit: int, msg: str) -> None:
    m = import_ptx(BADMASK, "badmask.ptx")
    with pytest.raises(InterpreterError, match=r"ori.redux .*" + msg):
        run_kernel(m, "badmask", grid=1, block=64, args=[np.zeros(1, np.uint32), mask, limit])


TILE_VOTES = tile_kernel("tvotes", """    setp.ne.u32 %p1, %r3, 0;
    vote.sync.ballot.b32 %r10, %p1, %r7;
    vote.sync.any.pred %p2, %p1, %r7;
    vote.sync.all.pred %p3, !%p1, %r7;
    vote.sync.uni.pred %p4, %p1, %r7;
    selp.u32 %r11, 1, 0, %p2;
    selp.u32 %r12, 1, 0, %p3;
    selp.u32 %r13, 1, 0, %p4;
    mul.wide.u32 %rd3, %r1, 16;
    add.s64 %rd5, %rd2, %rd3;
    st.global.v4.u32 [%rd5], {%r10, %r11, %r12, %r13};
""")


@pytest.mark.parametrize("w", [2, 8, 16])
def test_votes_with_tile_masks(w: int) -> None:
    m = import_ptx(TILE_VOTES, "tvotes.ptx")
    m.verify()
    c = m.clone()
    apply_pipeline(c, "ori-ptxas", make_context())
    rng = np.random.default_rng(w)
    v = (rng.random(64) < 0.3).astype(np.uint32)
    v[:w] = 0  # a tile of all-false
    v[w:2 * w] = 1  # a tile of all-true
    want = np.zeros((64, 4), dtype=np.uint32)
    for t0 in range(0, 64, w):
        x = v[t0:t0 + w].astype(bool)
        bits = np.uint64(1) << (np.arange(t0, t0 + w) & 31).astype(np.uint64)
        want[t0:t0 + w] = [int(bits[x].sum()), x.any(), (~x).all(), x.all() or not x.any()]
    for mod, phys in ((m, False), (c, True)):
        _, out, _ = run_kernel(mod, "tvotes", grid=1, block=64,
                               args=[v, np.zeros(4 * 64, np.uint32), w], physical=phys)
        np.testing.assert_array_equal(out.reshape(64, 4), want)
