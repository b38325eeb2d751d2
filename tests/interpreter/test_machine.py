"""The interpreter machine: launch API, memories, barriers, collectives,
control flow, calls, strict mode and error reporting."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp

from ori_dialect.builder import FuncBuilder, module
from ori_dialect.interpreter import (
    GLOBAL_BASE,
    LOCAL_WINDOW,
    SHARED_WINDOW,
    InterpreterError,
    run_kernel,
)
from ori_dialect.ir.registers import r32
from tests.conftest import parse

P0 = 0x160  # parameter area of constant bank 0 on sm_80


def kernel(body: str, params: Sequence[int] = (8,), funcs: str = "",
           target: str = "sm_80") -> ModuleOp:
    """A module with kernel ``@k`` whose parameters have the given sizes
    (naturally aligned) and ``body`` as its blocks."""
    descs = []
    off = 0
    for size in params:
        al = min(size, 8)
        off = -(-off // al) * al
        descs.append(f"#ori.param<{size}, align {al}, at {off:#x}>")
        off += size
    attrs = f" attributes {{params = [{', '.join(descs)}]}}" if descs else ""
    return parse(
        f'builtin.module attributes {{ori.target = "{target}"}} {{\n'
        f"  ori.func kernel @k(){attrs} {{\n{body}\n  }}\n{funcs}}}"
    )


# Loads the first parameter (a pointer) and computes &out[tid] for 4-byte elements.
PROLOGUE = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %tid, 0x4, %out : (!ori.r32, !ori.r64) -> !ori.r64
"""


def store_tid_kernel(value: str, setup: str = "") -> ModuleOp:
    """out[tid] = the 32-bit ``value`` computed by ``setup``."""
    return kernel(PROLOGUE + setup + f"""
    ori.stg [%a], {value} : (!ori.r64, !ori.r32) -> ()
    ori.exit""")


def err(fn: object, *a: object, **kw: object) -> str:
    with pytest.raises(InterpreterError) as ei:
        fn(*a, **kw)  # type: ignore[operator]
    return str(ei.value)


# ----------------------------------------------------------------------
# launch API
# ----------------------------------------------------------------------
SAXPY = (Path(__file__).resolve().parents[2] / "examples" / "saxpy.mlir").read_text()


def test_saxpy_arrays_scalars_and_return_list() -> None:
    m = parse(SAXPY)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, dtype=np.float32)
    y0 = y.copy()
    res = run_kernel(m, "saxpy", 3, 128, [n, 2.0, x, y])
    assert len(res) == 4
    assert res[0] == n and res[1] == 2.0
    assert res[2].dtype == np.float32 and np.array_equal(res[2], x)
    np.testing.assert_array_equal(res[3], np.float32(2.0) * x + np.float32(0.5))
    assert np.array_equal(y, y0)  # the caller's arrays are not modified


def test_return_keeps_dtype_and_shape() -> None:
    m = store_tid_kernel("%tid")
    out = np.zeros((4, 8), dtype=np.int32)
    (r,) = run_kernel(m, "k", 1, 32, [out])
    assert r.shape == (4, 8) and r.dtype == np.int32
    assert np.array_equal(r.reshape(-1), np.arange(32))


def test_scalar_parameters_by_size() -> None:
    body = """
  ^entry:
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.mov c[0x0][0x168] : () -> !ori.r32
    %b = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    %c = ori.mov c[0x0][0x178] : () -> !ori.r32
    %d = ori.ldc b64 0x0, [RZ + 0x180] : () -> !ori.r64
    %e = ori.mov c[0x0][0x188] : () -> !ori.r32
    ori.stg [%out], %a : (!ori.r64, !ori.r32) -> ()
    ori.stg b64 [%out + 0x8], %b : (!ori.r64, !ori.r64) -> ()
    ori.stg [%out + 0x10], %c : (!ori.r64, !ori.r32) -> ()
    ori.stg b64 [%out + 0x18], %d : (!ori.r64, !ori.r64) -> ()
    ori.stg [%out + 0x20], %e : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body, params=(8, 4, 8, 4, 8, 4))
    out = np.zeros(40, dtype=np.uint8)
    (r, *rest) = run_kernel(m, "k", 1, 1, [out, -2, -3, 1.5, 2.25, np.int32(7)])
    assert rest == [-2, -3, 1.5, 2.25, 7]
    w = r.view(np.uint32)
    assert w[0] == 0xFFFFFFFE
    assert r[8:16].view(np.int64)[0] == -3
    assert r[16:20].view(np.float32)[0] == 1.5
    assert r[24:32].view(np.float64)[0] == 2.25
    assert w[8] == 7


def test_array_addresses_are_distinct_and_aligned() -> None:
    body = """
  ^entry:
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %q = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    ori.stg b64 [%p], %p : (!ori.r64, !ori.r64) -> ()
    ori.stg b64 [%q], %q : (!ori.r64, !ori.r64) -> ()
    ori.exit"""
    m = kernel(body, params=(8, 8))
    a, b = run_kernel(m, "k", 1, 1, [np.zeros(3, np.uint64), np.zeros(1, np.uint64)])
    assert a[0] == GLOBAL_BASE and a[0] % 256 == 0 and b[0] % 256 == 0
    assert b[0] >= a[0] + 24 + 256


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        ([], "takes 1 parameter"),
        ([np.zeros(1), np.zeros(1)], "got 2 argument"),
        ([b"123"], "3 bytes for a 8-byte parameter"),
        ([np.int32(1)], "int32 scalar"),
        ([1 << 64], "does not fit"),
        (["x"], "unsupported argument type str"),
    ],
)
def test_bad_arguments(args: list[object], pattern: str) -> None:
    m = store_tid_kernel("%tid")
    assert pattern in err(run_kernel, m, "k", 1, 1, args)


def test_array_for_small_parameter() -> None:
    m = kernel(PROLOGUE + "    ori.exit", params=(8, 4))
    assert "array (passed as a 64-bit address) for a 4-byte" in err(
        run_kernel, m, "k", 1, 1, [np.zeros(1), np.zeros(1)]
    )


def test_unknown_kernel_and_device_function() -> None:
    m = kernel(PROLOGUE + "    ori.exit", funcs="""
  ori.func @dev(%x : !ori.r32) -> !ori.r32 {
    ori.ret %x : !ori.r32
  }
""")
    msg = err(run_kernel, m, "nope", 1, 1, [np.zeros(1)])
    assert "no kernel named @nope" in msg and "@k" in msg
    assert "device function, not a kernel" in err(run_kernel, m, "dev", 1, 1, [])


@pytest.mark.parametrize("dims", [0, (1, 2, 3, 4), (2, 0)])
def test_bad_dims(dims: object) -> None:
    m = store_tid_kernel("%tid")
    assert "grid must be" in err(run_kernel, m, "k", dims, 1, [np.zeros(1)])


def test_block_too_large() -> None:
    m = store_tid_kernel("%tid")
    assert "exceeds the 1024-thread" in err(run_kernel, m, "k", 1, (32, 33), [np.zeros(1)])


# ----------------------------------------------------------------------
# geometry and special registers
# ----------------------------------------------------------------------
GEOMETRY = """
  ^entry:
    %tx = ori.s2r SR_TID.X : () -> !ori.r32
    %ty = ori.s2r SR_TID.Y : () -> !ori.r32
    %tz = ori.s2r SR_TID.Z : () -> !ori.r32
    %cx = ori.s2r SR_CTAID.X : () -> !ori.r32
    %cy = ori.s2r SR_CTAID.Y : () -> !ori.r32
    %cz = ori.s2r SR_CTAID.Z : () -> !ori.r32
    %l1 = ori.imad %tz, c[0x0][0x4], %ty : (!ori.r32, !ori.r32) -> !ori.r32
    %lt = ori.imad %l1, c[0x0][0x0], %tx : (!ori.r32, !ori.r32) -> !ori.r32
    %g1 = ori.imad %cz, c[0x0][0x10], %cy : (!ori.r32, !ori.r32) -> !ori.r32
    %gc = ori.imad %g1, c[0x0][0xc], %cx : (!ori.r32, !ori.r32) -> !ori.r32
    %ntx = ori.mov c[0x0][0x0] : () -> !ori.r32
    %nt1 = ori.imad %ntx, c[0x0][0x4], RZ : (!ori.r32) -> !ori.r32
    %nt = ori.imad %nt1, c[0x0][0x8], RZ : (!ori.r32) -> !ori.r32
    %gid = ori.imad %gc, %nt, %lt : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %v1 = ori.lea %ty, %tx, 0x4 : (!ori.r32, !ori.r32) -> !ori.r32
    %v2 = ori.lea %tz, %v1, 0x8 : (!ori.r32, !ori.r32) -> !ori.r32
    %v3 = ori.lea %cx, %v2, 0xc : (!ori.r32, !ori.r32) -> !ori.r32
    %v4 = ori.lea %cy, %v3, 0x10 : (!ori.r32, !ori.r32) -> !ori.r32
    %v5 = ori.lea %cz, %v4, 0x14 : (!ori.r32, !ori.r32) -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %gid, 0x4, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %v5 : (!ori.r64, !ori.r32) -> ()
    ori.exit"""


@pytest.mark.parametrize(
    ("grid", "block"),
    [(3, 7), ((2, 3), (4, 5)), ((2, 2, 2), (3, 2, 4)), ((1, 1, 3), (1, 1, 5))],
)
def test_grids_and_blocks(grid: object, block: object) -> None:
    m = kernel(GEOMETRY)
    g = (grid,) if isinstance(grid, int) else tuple(grid)  # type: ignore[arg-type]
    b = (block,) if isinstance(block, int) else tuple(block)  # type: ignore[arg-type]
    g3 = (*g, 1, 1, 1)[:3]
    b3 = (*b, 1, 1, 1)[:3]
    total = int(np.prod(g3) * np.prod(b3))
    (r,) = run_kernel(m, "k", grid, block, [np.zeros(total, np.uint32)])
    exp = []
    for cz in range(g3[2]):
        for cy in range(g3[1]):
            for cx in range(g3[0]):
                for tz in range(b3[2]):
                    for ty in range(b3[1]):
                        for tx in range(b3[0]):
                            exp.append(tx | ty << 4 | tz << 8 | cx << 12 | cy << 16 | cz << 20)
    assert r.tolist() == exp


def test_launch_geometry_in_constant_bank_sm90() -> None:
    body = """
  ^entry:
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %v = ori.ldc b128 0x0, [RZ + 0x0] : () -> !ori.r128
    %w = ori.ldc b64 0x0, [RZ + 0x10] : () -> !ori.r64
    ori.stg b128 [%out], %v : (!ori.r64, !ori.r128) -> ()
    ori.stg b64 [%out + 0x10], %w : (!ori.r64, !ori.r64) -> ()
    ori.exit"""
    m = kernel(body, target="sm_90")
    (r,) = run_kernel(m, "k", (5, 6, 7), (2, 3, 4), [np.zeros(6, np.uint32)])
    assert r.tolist() == [2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize(
    ("sr", "expect"),
    [
        ("SR_LANEID", lambda t: t % 32),
        ("SR_WARPID", lambda t: t // 32),
        ("SR_NWARPID", lambda t: 64),
        ("SR_SMID", lambda t: 0),
        ("SR_NSMID", lambda t: 1),
        ("SR_EQMASK", lambda t: 1 << (t % 32)),
        ("SR_LTMASK", lambda t: (1 << (t % 32)) - 1),
        ("SR_LEMASK", lambda t: (1 << (t % 32 + 1)) - 1),
        ("SR_GTMASK", lambda t: 0xFFFFFFFF & ~((1 << (t % 32 + 1)) - 1)),
        ("SR_GEMASK", lambda t: 0xFFFFFFFF & ~((1 << (t % 32)) - 1)),
    ],
)
def test_special_registers(sr: str, expect: object) -> None:
    m = store_tid_kernel("%v", f"    %v = ori.s2r {sr} : () -> !ori.r32\n")
    (r,) = run_kernel(m, "k", 1, 70, [np.zeros(70, np.uint32)])
    assert r.tolist() == [expect(t) for t in range(70)]  # type: ignore[operator]


def test_clock_counts_executed_instructions() -> None:
    setup = """
    %c0 = ori.s2r SR_CLOCKLO : () -> !ori.r32
    %n1 = ori.nop : () -> ()
    %c1 = ori.cs2r SR_CLOCKLO : () -> !ori.r64
    %hi = ori.s2r SR_CLOCKHI : () -> !ori.r32
    %t = ori.s2r SR_GLOBALTIMERLO : () -> !ori.r32
    %lo = ori.mov %c1 : (!ori.r64) -> !ori.r32
    %d = ori.iadd3 %lo, -%c0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
"""
    setup = setup.replace("%n1 = ori.nop : () -> ()", "ori.nop : () -> ()")
    setup = setup.replace("%lo = ori.mov %c1 : (!ori.r64) -> !ori.r32",
                          "%lo = ori.cs2r SR_CLOCKLO.b32 : () -> !ori.r32")
    body = PROLOGUE + setup + """
    ori.stg [%a], %c0 : (!ori.r64, !ori.r32) -> ()
    %a2 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %b = ori.imad wide.u32 %tid, 0x10, %a2 : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%b], %lo : (!ori.r64, !ori.r32) -> ()
    ori.stg [%b + 0x4], %hi : (!ori.r64, !ori.r32) -> ()
    ori.stg [%b + 0x8], %t : (!ori.r64, !ori.r32) -> ()
    ori.stg [%b + 0xc], %d : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body, params=(8, 8))
    r0, r1 = run_kernel(m, "k", 1, 4, [np.zeros(4, np.uint32), np.zeros(16, np.uint32)])
    # tid, out, a: 3 instructions before the first clock read
    assert r0.tolist() == [3] * 4
    rows = r1.reshape(4, 4)
    assert rows[:, 0].tolist() == [8] * 4  # cs2r b32 after c0, nop, cs2r, s2r, s2r
    assert rows[:, 1].tolist() == [0] * 4
    assert rows[:, 2].tolist() == [7 * 1000] * 4
    assert rows[:, 3].tolist() == [5] * 4


def test_cs2r_srz_and_clock_pair() -> None:
    body = PROLOGUE + """
    %z = ori.cs2r SRZ : () -> !ori.r64
    %c = ori.cs2r SR_CLOCKLO : () -> !ori.r64
    %b = ori.imad wide.u32 %tid, 0x10, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b64 [%b], %z : (!ori.r64, !ori.r64) -> ()
    ori.stg b64 [%b + 0x8], %c : (!ori.r64, !ori.r64) -> ()
    ori.exit"""
    m = kernel(body)
    (r,) = run_kernel(m, "k", 1, 2, [np.full(4, 99, np.uint64)])
    assert r.tolist() == [0, 4, 0, 4]


# ----------------------------------------------------------------------
# memory
# ----------------------------------------------------------------------
def _widths_kernel(load: str, store: str, addr_setup: str, params: Sequence[int] = (8, 8)) -> ModuleOp:
    """Thread t loads element t of every width from the source region and
    stores it (widened) to the destination, through ``load``/``store``."""
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
""" + addr_setup
    for i, (w, ty, size) in enumerate([
        ("u8", "r32", 1), ("s8", "r32", 1), ("u16", "r32", 2), ("s16", "r32", 2),
        ("b32", "r32", 4), ("b64", "r64", 8), ("b128", "r128", 16),
    ]):
        body += f"""
    %s{i} = ori.imad wide.u32 %tid, {size:#x}, %src{i} : (!ori.r32, !ori.r64) -> !ori.r64
    %v{i} = {load} {w} [%s{i}] : (!ori.r64) -> !ori.{ty}
    %d{i} = ori.imad wide.u32 %tid, {max(size, 4):#x}, %dst{i} : (!ori.r32, !ori.r64) -> !ori.r64
    {store} {w if size >= 4 else "b32"} [%d{i}], %v{i} : (!ori.r64, !ori.{ty}) -> ()"""
    body += "\n    ori.exit"
    return kernel(body, params=params)


WIDTH_OFFSETS = [0, 64, 128, 192, 256, 384, 512]  # byte offsets of each width's region


def _region_setup(src: str, dst: str) -> str:
    lines = ""
    for i, off in enumerate(WIDTH_OFFSETS):
        lines += f"""
    %src{i} = ori.imad wide.u32 %c{i}, 0x1, {src} : (!ori.r32, !ori.r64) -> !ori.r64
    %dst{i} = ori.imad wide.u32 %c{i}, 0x4, {dst} : (!ori.r32, !ori.r64) -> !ori.r64"""
    consts = "".join(f"\n    %c{i} = ori.mov {off:#x} : () -> !ori.r32" for i, off in enumerate(WIDTH_OFFSETS))
    return consts + lines


def _widths_expected(data: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(4 * 1024, dtype=np.uint8)
    o32 = out.view(np.uint32)
    for t in range(n):
        b = WIDTH_OFFSETS
        o32[(4 * b[0] + 4 * t) // 4] = data[b[0] + t]
        o32[(4 * b[1] + 4 * t) // 4] = np.int8(data[b[1] + t].view(np.int8)).astype(np.int32).view(np.uint32)
        o32[(4 * b[2] + 4 * t) // 4] = data[b[2]:].view(np.uint16)[t]
        o32[(4 * b[3] + 4 * t) // 4] = data[b[3]:].view(np.int16)[t].astype(np.int32).view(np.uint32)
        o32[(4 * b[4] + 4 * t) // 4] = data[b[4]:].view(np.uint32)[t]
        out[4 * b[5] + 8 * t : 4 * b[5] + 8 * t + 8] = data[b[5] + 8 * t : b[5] + 8 * t + 8]
        out[4 * b[6] + 16 * t : 4 * b[6] + 16 * t + 16] = data[b[6] + 16 * t : b[6] + 16 * t + 16]
    return out


def test_global_loads_and_stores_of_every_width() -> None:
    setup = """
    %in = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %o = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64""" + _region_setup("%in", "%o")
    m = _widths_kernel("ori.ldg", "ori.stg", setup)
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 1024, dtype=np.uint8)
    _, out = run_kernel(m, "k", 1, 8, [data, np.zeros(4096, np.uint8)])
    assert np.array_equal(out, _widths_expected(data, 8))


def test_generic_loads_and_stores_of_every_width() -> None:
    setup = """
    %in = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %o = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64""" + _region_setup("%in", "%o")
    m = _widths_kernel("ori.ld", "ori.st", setup)
    data = np.random.default_rng(2).integers(0, 256, 1024, dtype=np.uint8)
    _, out = run_kernel(m, "k", 1, 8, [data, np.zeros(4096, np.uint8)])
    assert np.array_equal(out, _widths_expected(data, 8))


@pytest.mark.parametrize(("load", "store", "kw"), [
    ("ori.lds", "ori.sts", {"shared_bytes": 256}),
    ("ori.ldl", "ori.stl", {}),
])
def test_shared_and_local_widths(load: str, store: str, kw: dict[str, int]) -> None:
    """Each width: store at offset 16*tid + 0x10, load back, write to global."""
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %off = ori.imad %tid, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v = ori.imad %tid, 0x01010101, 0x80706050 : (!ori.r32) -> !ori.r32
    %o = ori.imad wide.u32 %tid, 0x40, %out : (!ori.r32, !ori.r64) -> !ori.r64
"""
    for i, w in enumerate(["u8", "s8", "u16", "s16", "b32"]):
        body += f"""
    {store} {w} [%off + 0x10], %v : (!ori.r32, !ori.r32) -> ()
    %l{i} = {load} {w} [%off + 0x10] : (!ori.r32) -> !ori.r32
    ori.stg [%o + {4 * i:#x}], %l{i} : (!ori.r64, !ori.r32) -> ()"""
    body += """
    %w = ori.imad wide.u32 %v, 0x3, RZ : (!ori.r32) -> !ori.r64
    %e = ori.ldg b128 [%o] : (!ori.r64) -> !ori.r128"""
    body += f"""
    {store} b64 [%off + 0x10], %w : (!ori.r32, !ori.r64) -> ()
    %x = {load} b64 [%off + 0x10] : (!ori.r32) -> !ori.r64
    ori.stg b64 [%o + 0x18], %x : (!ori.r64, !ori.r64) -> ()
    {store} b128 [%off + 0x10], %e : (!ori.r32, !ori.r128) -> ()
    %y = {load} b128 [%off + 0x10] : (!ori.r32) -> !ori.r128
    ori.stg b128 [%o + 0x20], %y : (!ori.r64, !ori.r128) -> ()
    ori.exit"""
    m = kernel(body)
    (r,) = run_kernel(m, "k", 1, 4, [np.zeros(64, np.uint32)], **kw)  # type: ignore[arg-type]
    rows = r.reshape(4, 16)
    for t in range(4):
        v = (t * 0x01010101 + 0x80706050) & 0xFFFFFFFF
        lo8, lo16 = v & 0xFF, v & 0xFFFF
        exp = [lo8, (lo8 - 256 if lo8 >= 128 else lo8) & 0xFFFFFFFF,
               lo16, (lo16 - 65536 if lo16 >= 32768 else lo16) & 0xFFFFFFFF, v]
        assert rows[t, :5].tolist() == exp
        w = v * 3
        assert rows[t, 6:8].tolist() == [w & 0xFFFFFFFF, w >> 32]
        assert rows[t, 8:12].tolist() == rows[t, 0:4].tolist()


def test_generic_shared_and_local_windows() -> None:
    """Generic stores through the shared and local windows land where
    LDS/LDL find them."""
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %swb = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %lwb = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    %off = ori.imad %tid, 0x4, RZ : (!ori.r32) -> !ori.r32
    %sw = ori.imad wide.u32 %off, 0x1, %swb : (!ori.r32, !ori.r64) -> !ori.r64
    %lw = ori.imad wide.u32 %off, 0x1, %lwb : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.iadd3 %tid, 0x100, RZ : (!ori.r32) -> !ori.r32
    ori.st [%sw], %v : (!ori.r64, !ori.r32) -> ()
    %v2 = ori.iadd3 %tid, 0x200, RZ : (!ori.r32) -> !ori.r32
    ori.st [%lw], %v2 : (!ori.r64, !ori.r32) -> ()
    %s = ori.lds [%off] : (!ori.r32) -> !ori.r32
    %l = ori.ldl [%off] : (!ori.r32) -> !ori.r32
    %o = ori.imad wide.u32 %tid, 0x8, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%o], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%o + 0x4], %l : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body, params=(8, 8, 8))
    (r, *_) = run_kernel(m, "k", 1, 8, [np.zeros(16, np.uint32), SHARED_WINDOW, LOCAL_WINDOW],
                         shared_bytes=64)
    assert r.reshape(8, 2).tolist() == [[0x100 + t, 0x200 + t] for t in range(8)]


def test_same_address_store_highest_lane_wins() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%out], %tid : (!ori.r64, !ori.r32) -> ()
    ori.sts [RZ], %tid : (!ori.r32) -> ()
    %s = ori.lds [RZ] : () -> !ori.r32
    ori.stg [%out + 0x4], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body)
    (r,) = run_kernel(m, "k", 1, 77, [np.zeros(2, np.uint32)], shared_bytes=4)
    assert r.tolist() == [76, 76]


def test_ldc_with_index_register_and_other_banks() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %i = ori.imad %tid, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v = ori.ldc 0x3, [%i + 0x8] : (!ori.r32) -> !ori.r32
    %h = ori.ldc s16 0x3, [%i + 0x2] : (!ori.r32) -> !ori.r32
    %c = ori.iadd3 %v, c[0x3][0x4], RZ : (!ori.r32) -> !ori.r32
    %o = ori.imad wide.u32 %tid, 0x8, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%o], %c : (!ori.r64, !ori.r32) -> ()
    ori.stg [%o + 0x4], %h : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body)
    bank = np.arange(16, dtype=np.uint32) * 0x10001
    bank[0] = 0x8000_0000
    (r,) = run_kernel(m, "k", 1, 4, [np.zeros(8, np.uint32)],
                      const_banks={3: bank.tobytes()})
    rows = r.reshape(4, 2)
    for t in range(4):
        assert rows[t, 0] == (bank[t + 2] + bank[1]) & 0xFFFFFFFF
        hi16 = int(bank[t]) >> 16
        assert rows[t, 1] == (hi16 - 65536 if hi16 >= 32768 else hi16) & 0xFFFFFFFF
    msg = err(run_kernel, m, "k", 1, 4, [np.zeros(8, np.uint32)])
    assert "constant bank 3 is not provided" in msg and "const_banks" in msg
    msg = err(run_kernel, m, "k", 1, 4, [np.zeros(8, np.uint32)], const_banks={3: bytes(12)})
    assert "out of bounds of constant bank 3" in msg and "tid (1,0,0)" in msg


# ----------------------------------------------------------------------
# atomics
# ----------------------------------------------------------------------
def _atom_kernel(mods: str, ty: str = "r32", space: str = "global",
                 value: str = "%v", cmp: str = "", result: bool = True) -> ModuleOp:
    """Every thread applies the atomic to element 0 of the first array (or
    shared word 0, copied out at the end) with value ``value`` (computed from
    the second array's element tid) and records the old value."""
    ldv = "b64 " if ty == "r64" else ""
    size = 8 if ty == "r64" else 4
    body = f"""
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %mem = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %vals = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %olds = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    %va = ori.imad wide.u32 %tid, {size:#x}, %vals : (!ori.r32, !ori.r64) -> !ori.r64
    %oa = ori.imad wide.u32 %tid, {size:#x}, %olds : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg {ldv}[%va] : (!ori.r64) -> !ori.{ty}
    %w = ori.iadd3 %tid, 0x1, RZ : (!ori.r32) -> !ori.r32
"""
    extra = f", {cmp}" if cmp else ""
    types = ", ".join(f"!ori.{ty}" for x in (value, cmp) if x.startswith("%"))
    sep = ", " if types else ""
    if space == "shared":
        init = f"""
    %m0 = ori.ldg {ldv}[%mem] : (!ori.r64) -> !ori.{ty}
    ori.sts {ldv}[RZ], %m0 : (!ori.{ty}) -> ()
    ori.bar 0x0 : () -> ()
    %old = ori.atoms {mods} [RZ], {value}{extra} : ({types}) -> !ori.{ty}
    ori.bar 0x0 : () -> ()
    %m1 = ori.lds {ldv}[RZ] : () -> !ori.{ty}
    ori.stg {ldv}[%mem], %m1 : (!ori.r64, !ori.{ty}) -> ()"""
        body += init
    elif result:
        body += f"""
    %old = ori.atom {mods} [%mem], {value}{extra} : (!ori.r64{sep}{types}) -> !ori.{ty}"""
    else:
        body += f"""
    ori.red {mods} [%mem], {value} : (!ori.r64{sep}{types}) -> ()
    %old = ori.mov RZ : () -> !ori.r32"""
    body += f"""
    ori.stg {ldv}[%oa], %old : (!ori.r64, !ori.{ty}) -> ()
    ori.exit"""
    return kernel(body, params=(8, 8, 8))


def _run_atom(m: ModuleOp, init: np.ndarray, vals: np.ndarray, n: int,
              **kw: object) -> tuple[np.ndarray, np.ndarray]:
    mem_, _, olds = run_kernel(m, "k", 1, n, [init, vals, np.zeros_like(vals)], **kw)  # type: ignore[arg-type]
    return mem_, olds


def _sequential(op: object, init: int, vals: Sequence[int]) -> tuple[int, list[int]]:
    cur = init
    olds = []
    for v in vals:
        olds.append(cur)
        cur = op(cur, v)  # type: ignore[operator]
    return cur, olds


U32 = 0xFFFFFFFF


def _s32(x: int) -> int:
    x &= U32
    return x - (1 << 32) if x >> 31 else x


INT_CASES = [
    ("add.u32", lambda a, b: (a + b) & U32),
    ("add", lambda a, b: (a + b) & U32),
    ("min.s32", lambda a, b: min(_s32(a), _s32(b)) & U32),
    ("max.s32", lambda a, b: max(_s32(a), _s32(b)) & U32),
    ("min.u32", min),
    ("max.u32", max),
    ("inc.u32", lambda a, b: 0 if a >= b else a + 1),
    ("dec.u32", lambda a, b: b if a == 0 or a > b else a - 1),
    ("and.u32", lambda a, b: a & b),
    ("or.u32", lambda a, b: a | b),
    ("xor.u32", lambda a, b: a ^ b),
    ("exch.u32", lambda a, b: b),
]


@pytest.mark.parametrize(("space"), ["global", "shared"])
@pytest.mark.parametrize(("mods", "fn"), INT_CASES, ids=[c[0] for c in INT_CASES])
def test_integer_atomics_contended_in_lane_order(mods: str, fn: object, space: str) -> None:
    n = 40
    vals = np.random.default_rng(3).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    if mods.startswith(("inc", "dec")):
        vals = (vals % 7).astype(np.uint32) + 3
    init = np.array([0x8000_0005], dtype=np.uint32)
    m = _atom_kernel(mods, space=space)
    mem_, olds = _run_atom(m, init, vals, n, shared_bytes=16)
    final, exp = _sequential(fn, int(init[0]), [int(v) for v in vals])
    assert olds.tolist() == exp
    assert int(mem_[0]) == final


def test_64bit_atomics() -> None:
    n = 33
    vals = np.arange(n, dtype=np.uint64) * np.uint64(0x1_0000_0001)
    m = _atom_kernel("add.u64", ty="r64")
    mem_, olds = _run_atom(m, np.array([1 << 40], np.uint64), vals, n)
    final, exp = _sequential(lambda a, b: (a + b) % (1 << 64), 1 << 40, [int(v) for v in vals])
    assert olds.tolist() == exp and int(mem_[0]) == final
    m = _atom_kernel("min.s64", ty="r64")
    svals = (np.arange(n, dtype=np.int64) - 16).view(np.uint64)
    mem_, _ = _run_atom(m, np.array([5], np.uint64), svals, n)
    assert mem_.view(np.int64)[0] == -16


def test_cas_only_first_thread_wins() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %mem = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %olds = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %oa = ori.imad wide.u32 %tid, 0x4, %olds : (!ori.r32, !ori.r64) -> !ori.r64
    %zero = ori.mov 0x0 : () -> !ori.r32
    %w = ori.iadd3 %tid, 0x1, RZ : (!ori.r32) -> !ori.r32
    %old = ori.atom cas [%mem], %zero, %w : (!ori.r64, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%oa], %old : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m2 = kernel(body, params=(8, 8))
    mem_, olds = run_kernel(m2, "k", 1, 64, [np.zeros(1, np.uint32), np.zeros(64, np.uint32)])
    assert mem_[0] == 1  # thread 0 swapped 0 -> 1
    assert olds.tolist() == [0] + [1] * 63


@pytest.mark.parametrize(("ty", "dtype"), [("f32", np.float32), ("f64", np.float64)])
def test_float_atomic_add(ty: str, dtype: type) -> None:
    n = 50
    vals = (np.arange(n) * 0.25 + 0.1).astype(dtype)
    m = _atom_kernel(f"add.{ty}", ty="r64" if ty == "f64" else "r32")
    init = np.array([1.5], dtype=dtype)
    mem_, olds = run_kernel(m, "k", 1, n, [init, vals.view(f"u{vals.itemsize}"),
                                           np.zeros(n, f"u{vals.itemsize}")])[0::2]
    acc = dtype(1.5)
    exp = []
    for v in vals:
        exp.append(acc)
        acc = dtype(acc + v)
    assert olds.view(dtype).tolist() == exp
    assert mem_.view(dtype)[0] == acc


def test_f32_atomic_add_flushes_subnormals() -> None:
    m = _atom_kernel("add.f32")
    tiny = np.array([1e-40], dtype=np.float32).view(np.uint32)
    mem_, _ = _run_atom(m, np.array([0.0], np.float32).view(np.uint32), tiny, 1)
    assert mem_.view(np.float32)[0] == 0.0


@pytest.mark.parametrize("ty", ["f16x2", "bf16x2"])
def test_packed_half_atomic_add(ty: str) -> None:
    n = 8
    def pack(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        if ty == "f16x2":
            lo16, hi16 = lo.astype(np.float16).view(np.uint16), hi.astype(np.float16).view(np.uint16)
        else:
            lo16 = (lo.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            hi16 = (hi.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return lo16.astype(np.uint32) | (hi16.astype(np.uint32) << 16)
    lo = np.arange(n, dtype=np.float32)
    hi = -np.arange(n, dtype=np.float32) * 2
    m = _atom_kernel(f"add.{ty}")
    mem_, _ = _run_atom(m, pack(np.array([0.5]), np.array([1.0])), pack(lo, hi), n)
    word = int(mem_[0])
    if ty == "f16x2":
        got = (np.uint16(word & 0xFFFF).view(np.float16), np.uint16(word >> 16).view(np.float16))
    else:
        got = tuple(np.array([(word & 0xFFFF) << 16, (word >> 16) << 16], np.uint32).view(np.float32))
    assert float(got[0]) == 0.5 + lo.sum() and float(got[1]) == 1.0 + hi.sum()


def test_red_has_no_result() -> None:
    m = _atom_kernel("add.u32", result=False)
    mem_, _ = _run_atom(m, np.array([7], np.uint32), np.arange(10, dtype=np.uint32), 10)
    assert mem_[0] == 7 + 45


def test_atomic_immediate_operand() -> None:
    m = _atom_kernel("add.u32", value="0x3")
    mem_, olds = _run_atom(m, np.array([0], np.uint32), np.zeros(5, np.uint32), 5)
    assert mem_[0] == 15 and olds.tolist() == [0, 3, 6, 9, 12]


def test_unsupported_atomic_combination() -> None:
    m = _atom_kernel("and.f32")
    msg = err(_run_atom, m, np.zeros(1, np.uint32), np.zeros(2, np.uint32), 2)
    assert "atomic operation 'and' on type 'f32' is not supported" in msg
    assert "ori.atom" in msg


# ----------------------------------------------------------------------
# barriers
# ----------------------------------------------------------------------
REVERSE = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %in = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ia = ori.imad wide.u32 %tid, 0x4, %in : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%ia] : (!ori.r64) -> !ori.r32
    %off = ori.imad %tid, 0x4, RZ : (!ori.r32) -> !ori.r32
    ori.sts [%off], %v : (!ori.r32, !ori.r32) -> ()
    ori.bar 0x0 : () -> ()
    %roff = ori.iadd3 -%off, 0x1fc, RZ : (!ori.r32) -> !ori.r32
    %r = ori.lds [%roff] : (!ori.r32) -> !ori.r32
    ori.stg [%ia], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit"""


def test_bar_reverses_through_shared_memory() -> None:
    m = kernel(REVERSE)
    data = np.arange(256, dtype=np.uint32) * 7
    (r,) = run_kernel(m, "k", 1, 128, [data[:128].copy()], shared_bytes=512)
    assert r.tolist() == (data[:128][::-1]).tolist()


def test_shared_memory_is_per_cta() -> None:
    body = PROLOGUE + """
    %old = ori.atoms add.u32 [RZ], 0x1 : () -> !ori.r32
    ori.stg [%a], %old : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body.replace("%a = ori.imad wide.u32 %tid, 0x4, %out", "%cta = ori.s2r SR_CTAID.X : () -> !ori.r32\n    %g = ori.imad %cta, c[0x0][0x0], %tid : (!ori.r32, !ori.r32) -> !ori.r32\n    %a = ori.imad wide.u32 %g, 0x4, %out"))
    (r,) = run_kernel(m, "k", 3, 4, [np.zeros(12, np.uint32)], shared_bytes=4)
    assert r.tolist() == [0, 1, 2, 3] * 3


def test_exited_threads_do_not_block_a_barrier() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp ge.u32 %tid, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^done, ^work
  ^work:
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %off = ori.imad %tid, 0x4, RZ : (!ori.r32) -> !ori.r32
    ori.sts [%off], %tid : (!ori.r32, !ori.r32) -> ()
    ori.bar 0x0 : () -> ()
    %roff = ori.iadd3 -%off, 0xfc, RZ : (!ori.r32) -> !ori.r32
    %r = ori.lds [%roff] : (!ori.r32) -> !ori.r32
    %a = ori.imad wide.u32 %tid, 0x4, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.bra ^done
  ^done:
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 128, [np.zeros(64, np.uint32)], shared_bytes=256)
    assert r.tolist() == list(range(63, -1, -1))


DIVERGENT_BAR = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %tid, 0x20, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^a, ^b
  ^a:
    ori.bar 0x0 : () -> ()
    ori.bra ^done
  ^b:
    ori.bar 0x0 : () -> ()
    ori.bra ^done
  ^done:
    ori.exit"""


def test_barriers_at_different_instructions_fail() -> None:
    msg = err(run_kernel, kernel(DIVERGENT_BAR, params=()), "k", 1, 64, [])
    assert "barrier reached by only part of the CTA" in msg
    assert "ori.bar" in msg and "different instruction" in msg


def test_barrier_in_loop_with_per_thread_trip_counts_fails() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32)
  ^loop(%i : !ori.r32):
    ori.bar 0x0 : () -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp le.u32 %i2, %tid, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i2 : !ori.r32), ^after
  ^after:
    ori.bar 0x1 : () -> ()
    ori.exit"""
    msg = err(run_kernel, kernel(body, params=()), "k", 1, 4, [])
    assert "barrier reached by only part of the CTA" in msg
    assert "missing" in msg and "waits on barrier 1" in msg


def test_counted_barrier_producer_consumer() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %p = ori.isetp lt.u32 %tid, 0x20, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^produce, ^consume
  ^produce:
    %off = ori.imad %tid, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v = ori.iadd3 %tid, 0x500, RZ : (!ori.r32) -> !ori.r32
    ori.sts [%off], %v : (!ori.r32, !ori.r32) -> ()
    ori.bar arv 0x1, 0x40 : () -> ()
    ori.bra ^done
  ^consume:
    ori.bar 0x1, 0x40 : () -> ()
    %coff = ori.imad %tid, 0x4, -0x80 : (!ori.r32) -> !ori.r32
    %r = ori.lds [%coff] : (!ori.r32) -> !ori.r32
    %a = ori.imad wide.u32 %coff, 0x1, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.bra ^done
  ^done:
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 64, [np.zeros(32, np.uint32)], shared_bytes=128)
    assert r.tolist() == [0x500 + t for t in range(32)]


def test_counted_barrier_never_complete() -> None:
    body = """
  ^entry:
    ori.bar 0x2, 0x40 : () -> ()
    ori.exit"""
    msg = err(run_kernel, kernel(body, params=()), "k", 1, 32, [])
    assert "barrier 2 expects 64 threads, only 32 arrived" in msg


def test_bar_arv_needs_count() -> None:
    body = """
  ^entry:
    ori.bar arv 0x1 : () -> ()
    ori.exit"""
    assert "needs a thread count" in err(run_kernel, kernel(body, params=()), "k", 1, 32, [])


# ----------------------------------------------------------------------
# warp collectives
# ----------------------------------------------------------------------
def test_shfl_bfly_reduction() -> None:
    setup = "    %v0 = ori.mov %tid : (!ori.r32) -> !ori.r32\n"
    for i, k in enumerate([16, 8, 4, 2, 1]):
        setup += (f"    %s{i} = ori.shfl bfly %v{i}, {k:#x}, 0x1f : (!ori.r32) -> !ori.r32\n"
                  f"    %v{i + 1} = ori.iadd3 %v{i}, %s{i}, RZ : (!ori.r32, !ori.r32) -> !ori.r32\n")
    m = store_tid_kernel("%v5", setup)
    (r,) = run_kernel(m, "k", 1, 64, [np.zeros(64, np.uint32)])
    assert r.tolist() == [sum(range(32))] * 32 + [sum(range(32, 64))] * 32


@pytest.mark.parametrize(
    ("mode", "lane", "clamp", "src"),
    [
        ("idx", 3, 0x1F, lambda j: (3, True)),
        ("idx", 2, 0x181F, lambda j: ((j & ~7) | 2, True)),
        ("up", 1, 0x0, lambda j: (j - 1, True) if j >= 1 else (j, False)),
        ("up", 2, 0x1800, lambda j: (j - 2, True) if (j & 7) >= 2 else (j, False)),
        ("down", 1, 0x1F, lambda j: (j + 1, True) if j < 31 else (j, False)),
        ("down", 4, 0x181F, lambda j: (j + 4, True) if (j & 7) + 4 <= 7 else (j, False)),
        ("bfly", 5, 0x1F, lambda j: (j ^ 5, True)),
        ("idx", 40, 0x1F, lambda j: (8, True)),
    ],
)
def test_shfl_modes(mode: str, lane: int, clamp: int, src: object) -> None:
    setup = f"""
    %v = ori.imad %tid, 0x3, 0x100 : (!ori.r32) -> !ori.r32
    %s, %p = ori.shfl {mode} %v, {lane:#x}, {clamp:#x} : (!ori.r32) -> (!ori.r32, !ori.p)
    %one = ori.mov 0x10000 : () -> !ori.r32
    %pb = ori.sel %one, 0x0, %p : (!ori.r32, !ori.p) -> !ori.r32
    %r = ori.iadd3 %s, %pb, RZ : (!ori.r32, !ori.r32) -> !ori.r32
"""
    m = store_tid_kernel("%r", setup)
    (r,) = run_kernel(m, "k", 1, 32, [np.zeros(32, np.uint32)])
    exp = []
    for j in range(32):
        s, ok = src(j)  # type: ignore[operator]
        exp.append(s * 3 + 0x100 + (0x10000 if ok else 0))
    assert r.tolist() == exp


PARTIAL_SHFL = """
    %v = ori.imad %tid, 0x3, 0x100 : (!ori.r32) -> !ori.r32
    %s = ori.shfl bfly %v, 0x8, 0x1f : (!ori.r32) -> !ori.r32
"""


def test_shfl_from_missing_lane_nonstrict_reads_own_value() -> None:
    m = store_tid_kernel("%s", PARTIAL_SHFL)
    (r,) = run_kernel(m, "k", 1, 20, [np.zeros(20, np.uint32)])
    exp = [((j ^ 8) if (j ^ 8) < 20 else j) * 3 + 0x100 for j in range(20)]
    assert r.tolist() == exp


def test_shfl_from_missing_lane_strict_fails() -> None:
    m = store_tid_kernel("%s", PARTIAL_SHFL)
    msg = err(run_kernel, m, "k", 1, 20, [np.zeros(20, np.uint32)], strict=True)
    assert "SHFL reads lane 24 of warp 0" in msg and "tid (16,0,0)" in msg


def test_shfl_from_diverged_lane_strict_fails() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^lo, ^done(%tid : !ori.r32)
  ^lo:
    %s = ori.shfl idx %tid, 0x14, 0x1f : (!ori.r32) -> !ori.r32
    ori.bra ^done(%s : !ori.r32)
  ^done(%x : !ori.r32):
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body)
    (r,) = run_kernel(m, "k", 1, 32, [np.zeros(32, np.uint32)])
    assert r.tolist() == list(range(32))  # own values: lane 20 did not take part
    assert "not executing this instruction" in err(
        run_kernel, m, "k", 1, 32, [np.zeros(32, np.uint32)], strict=True)


@pytest.mark.parametrize(("mode", "cond", "red"), [
    ("any", "lt.u32 %lane, 0x3", lambda w: True),
    ("all", "lt.u32 %lane, 0x3", lambda w: False),
    ("all", "ge.u32 %tid, 0x0", lambda w: True),
    ("eq", "ge.u32 %tid, 0x20", lambda w: True),
    ("eq", "lt.u32 %lane, 0x3", lambda w: False),
    ("any", "ge.u32 %tid, 0x20", lambda w: w == 1),
])
def test_vote(mode: str, cond: str, red: object) -> None:
    setup = f"""
    %lane = ori.s2r SR_LANEID : () -> !ori.r32
    %q = ori.isetp {cond}, PT : (!ori.r32) -> !ori.p
    %b, %r = ori.vote {mode} %q : (!ori.p) -> (!ori.r32, !ori.p)
    %one = ori.mov 0x1 : () -> !ori.r32
    %rb = ori.sel %one, 0x0, %r : (!ori.r32, !ori.p) -> !ori.r32
    ori.stg [%a + 0x100], %b : (!ori.r64, !ori.r32) -> ()
"""
    m = kernel(PROLOGUE + setup + """
    ori.stg [%a], %rb : (!ori.r64, !ori.r32) -> ()
    ori.exit""")
    (r,) = run_kernel(m, "k", 1, 64, [np.zeros(128, np.uint32)])

    def pred(t: int) -> bool:
        op, what, k = cond.replace(",", "").split()
        x = t % 32 if what == "%lane" else t
        return x < int(k, 16) if op.startswith("lt") else x >= int(k, 16)
    for w in range(2):
        ballot = sum(1 << j for j in range(32) if pred(32 * w + j))
        assert r[64 + 32 * w : 64 + 32 * w + 32].tolist() == [ballot] * 32
        assert r[32 * w : 32 * w + 32].tolist() == [int(red(w))] * 32  # type: ignore[operator]


def test_vote_among_diverged_lanes() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^lo, ^done(%tid : !ori.r32)
  ^lo:
    %b = ori.vote all PT : () -> !ori.r32
    ori.bra ^done(%b : !ori.r32)
  ^done(%x : !ori.r32):
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 32, [np.zeros(32, np.uint32)])
    assert r.tolist() == [0xFF] * 8 + list(range(8, 32))


# ----------------------------------------------------------------------
# control flow and divergence
# ----------------------------------------------------------------------
def test_if_else_per_lane() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^then, ^else
  ^then:
    %x = ori.iadd3 %tid, 0x100, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^join(%x : !ori.r32)
  ^else:
    %y = ori.imad %tid, 0x2, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^join(%y : !ori.r32)
  ^join(%z : !ori.r32):
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 40, [np.zeros(40, np.uint32)])
    assert r.tolist() == [t + 0x100 if t < 5 else 2 * t for t in range(40)]


def test_divergent_paths_reconverge_at_join() -> None:
    """After an if/else the whole warp runs the join block together: a
    ballot there sees every lane."""
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^then, ^else
  ^then:
    ori.bra ^join
  ^else:
    ori.bra ^join
  ^join:
    %b = ori.vote any PT : () -> !ori.r32
    ori.stg [%a], %b : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 32, [np.zeros(32, np.uint32)])
    assert r.tolist() == [0xFFFFFFFF] * 32


def test_loop_with_per_lane_trip_counts() -> None:
    body = PROLOGUE + """
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %z : !ori.r32)
  ^head(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, %tid, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^body, ^done
  ^body:
    %s2 = ori.iadd3 %s, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^head(%i2 : !ori.r32, %s2 : !ori.r32)
  ^done:
    %b = ori.vote any PT : () -> !ori.r32
    %r = ori.iadd3 %s, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 32, [np.zeros(32, np.uint32)])
    assert r.tolist() == [(t * (t - 1) // 2 + 0xFFFFFFFF) & 0xFFFFFFFF for t in range(32)]


def test_loop_with_two_latches_reconverges_after_exit() -> None:
    """A loop whose latch ``^x`` is visited before the exiting block ``^b``
    by a depth-first walk: plain RPO would order the exit ``^e`` before
    ``^x``; the machine's loop-contiguous order must not."""
    body = PROLOGUE + """
    %z = ori.mov 0x0 : () -> !ori.r32
    %t3 = ori.lop3 %tid, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.bra ^h(%z : !ori.r32)
  ^h(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p1 = ori.isetp lt.u32 %i2, %t3, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra ^a
  ^a:
    ori.bra if %p1 : !ori.p, ^x, ^b
  ^x:
    ori.bra ^h(%i2 : !ori.r32)
  ^b:
    %p2 = ori.isetp lt.u32 %i2, %tid, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p2 : !ori.p, ^h(%i2 : !ori.r32), ^e
  ^e:
    %b = ori.vote any PT : () -> !ori.r32
    ori.stg [%a], %b : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 32, [np.zeros(32, np.uint32)])
    assert r.tolist() == [0xFFFFFFFF] * 32


def test_block_arguments_are_parallel_copies() -> None:
    """A loop that swaps two values through its block arguments."""
    body = PROLOGUE + """
    %one = ori.mov 0x1 : () -> !ori.r32
    %two = ori.mov 0x2 : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%one : !ori.r32, %two : !ori.r32, %z : !ori.r32)
  ^loop(%x : !ori.r32, %y : !ori.r32, %i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %tid, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%y : !ori.r32, %x : !ori.r32, %i2 : !ori.r32), ^done
  ^done:
    %r = ori.lea %x, %y, 0x4 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 6, [np.zeros(6, np.uint32)])
    # after k = max(tid, 1) - 1 swaps
    exp = []
    for t in range(6):
        x, y = 1, 2
        for _ in range(max(t, 1) - 1):
            x, y = y, x
        exp.append((x << 4) + y)
    assert r.tolist() == exp


def test_guarded_op_keeps_prior_and_guarded_store_skips_lanes() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x3, PT : (!ori.r32) -> !ori.p
    %x = ori.iadd3 %tid, 0x100, RZ if %p else %tid : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, 0x1000, RZ if not %p else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%a], %y : (!ori.r64, !ori.r32) -> ()
    %bad = ori.mov 0x8 : () -> !ori.r32
    %b = ori.imad wide.u32 %bad, 0x1, RZ : (!ori.r32) -> !ori.r64
    ori.stg [%b], %tid if not %p : (!ori.r64, !ori.r32, !ori.p) -> ()
    ori.exit"""
    body = body.replace("ori.imad wide.u32 %bad, 0x1, RZ : (!ori.r32) -> !ori.r64",
                        "ori.imad wide.u32 %bad, 0x1, %out : (!ori.r32, !ori.r64) -> !ori.r64")
    body = body.replace("ori.stg [%b], %tid if not %p", "ori.stg [%b], %tid if %p")
    # lanes 0..2 store into element 2 (the highest lane, 2, wins); the others
    # would store out of bounds if they were not guarded off.
    (r,) = run_kernel(kernel(body), "k", 1, 8, [np.zeros(8, np.uint32)])
    assert r.tolist() == [0x100, 0x101, 2, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007]


def test_guarded_load_does_not_fault_for_guarded_off_lanes() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x4, PT : (!ori.r32) -> !ori.p
    %z = ori.mov 0x7 : () -> !ori.r32
    %v = ori.ldg [%a] if %p else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %o = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %oa = ori.imad wide.u32 %tid, 0x4, %o : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%oa], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    _, r = run_kernel(kernel(body, params=(8, 8)), "k", 1, 8,
                      [np.arange(4, dtype=np.uint32) + 10, np.zeros(8, np.uint32)])
    assert r.tolist() == [10, 11, 12, 13, 7, 7, 7, 7]


# ----------------------------------------------------------------------
# device functions
# ----------------------------------------------------------------------
FACT = """
  ori.func @fact(%n : !ori.r32) -> !ori.r32 {
    %p = ori.isetp le.u32 %n, 0x1, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^base, ^rec
  ^base:
    %one = ori.mov 0x1 : () -> !ori.r32
    ori.ret %one : !ori.r32
  ^rec:
    %m = ori.iadd3 %n, -0x1, RZ : (!ori.r32) -> !ori.r32
    %f = ori.call @fact(%m) : (!ori.r32) -> !ori.r32
    %r = ori.imad %n, %f, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %r : !ori.r32
  }
  ori.func @add2(%x : !ori.r32, %y : !ori.r32) -> (!ori.r32, !ori.r32) {
    %s = ori.iadd3 %x, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d = ori.iadd3 %x, -%y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s, %d : !ori.r32, !ori.r32
  }
"""


def test_device_call_with_several_results() -> None:
    body = PROLOGUE + """
    %c = ori.mov 0x64 : () -> !ori.r32
    %s, %d = ori.call @add2(%c, %tid) : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.r32)
    %r = ori.lea %s, %d, 0x10 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body, funcs=FACT), "k", 1, 8, [np.zeros(8, np.uint32)])
    assert r.tolist() == [(((100 + t) << 16) + 100 - t) & 0xFFFFFFFF for t in range(8)]


def test_recursive_calls_from_diverged_lanes() -> None:
    body = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^small, ^big
  ^small:
    %n = ori.iadd3 %tid, 0x1, RZ : (!ori.r32) -> !ori.r32
    %f = ori.call @fact(%n) : (!ori.r32) -> !ori.r32
    ori.bra ^done(%f : !ori.r32)
  ^big:
    %f2 = ori.call @fact(%tid) : (!ori.r32) -> !ori.r32
    ori.bra ^done(%f2 : !ori.r32)
  ^done(%x : !ori.r32):
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body, funcs=FACT), "k", 1, 12, [np.zeros(12, np.uint32)])
    import math

    assert r.tolist() == [math.factorial(t + 1) if t < 4 else math.factorial(t) & 0xFFFFFFFF
                          for t in range(12)]


def test_recursion_depth_limit() -> None:
    body = PROLOGUE + """
    %n = ori.mov 0x1000 : () -> !ori.r32
    %f = ori.call @fact(%n) : (!ori.r32) -> !ori.r32
    ori.stg [%a], %f : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    msg = err(run_kernel, kernel(body, funcs=FACT), "k", 1, 2, [np.zeros(2, np.uint32)])
    assert "call depth limit 64 exceeded calling @fact" in msg
    assert "ori.call @fact" in msg


BAR_FUNC = """
  ori.func @sync(%x : !ori.r32) -> !ori.r32 {
    ori.bar 0x0 : () -> ()
    ori.ret %x : !ori.r32
  }
"""


def test_barrier_inside_device_function() -> None:
    body = PROLOGUE + """
    %y = ori.call @sync(%tid) : (!ori.r32) -> !ori.r32
    ori.stg [%a], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body, funcs=BAR_FUNC), "k", 1, 64, [np.zeros(64, np.uint32)])
    assert r.tolist() == list(range(64))
    partial = PROLOGUE + """
    %p = ori.isetp lt.u32 %tid, 0x20, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^call, ^done
  ^call:
    %y = ori.call @sync(%tid) : (!ori.r32) -> !ori.r32
    ori.bra ^done
  ^done:
    ori.exit"""
    msg = err(run_kernel, kernel(partial, funcs=BAR_FUNC), "k", 1, 64, [np.zeros(64, np.uint32)])
    assert "barrier reached by only part of the CTA" in msg
    assert "tid (32,0,0) is outside this call" in msg


# ----------------------------------------------------------------------
# ori.undef and strict mode
# ----------------------------------------------------------------------
def test_undef_reads_zero_when_not_strict() -> None:
    m = store_tid_kernel("%u", "    %u = ori.undef : () -> !ori.r32\n")
    (r,) = run_kernel(m, "k", 1, 4, [np.ones(4, np.uint32)])
    assert r.tolist() == [0] * 4


def test_strict_direct_use_of_undef() -> None:
    m = store_tid_kernel("%u", "    %u = ori.undef : () -> !ori.r32\n")
    msg = err(run_kernel, m, "k", 1, 4, [np.ones(4, np.uint32)], strict=True)
    assert "use of an undefined value" in msg
    assert "ori.stg" in msg and "tid (0,0,0)" in msg


UNDEF_PHI = PROLOGUE + """
    %u = ori.undef : () -> !ori.r32
    %p = ori.isetp lt.u32 %tid, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^join(%tid : !ori.r32), ^join(%u : !ori.r32)
  ^join(%x : !ori.r32):
    %y = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.stg [%a], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit"""


def test_strict_undef_through_block_argument() -> None:
    m = kernel(UNDEF_PHI)
    (r,) = run_kernel(m, "k", 1, 4, [np.zeros(4, np.uint32)], strict=True)  # defined lanes only
    assert r.tolist() == [1, 2, 3, 4]
    msg = err(run_kernel, m, "k", 1, 6, [np.zeros(6, np.uint32)], strict=True)
    assert "use of an undefined value" in msg and "tid (4,0,0)" in msg
    assert "ori.iadd3" in msg
    (r,) = run_kernel(m, "k", 1, 6, [np.zeros(6, np.uint32)])
    assert r.tolist() == [1, 2, 3, 4, 1, 1]


def test_strict_undef_through_guarded_prior() -> None:
    body = PROLOGUE + """
    %u = ori.undef : () -> !ori.r32
    %p = ori.isetp lt.u32 %tid, 0x4, PT : (!ori.r32) -> !ori.p
    %x = ori.iadd3 %tid, 0x1, RZ if %p else %u : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    m = kernel(body)
    (r,) = run_kernel(m, "k", 1, 4, [np.zeros(4, np.uint32)], strict=True)
    assert r.tolist() == [1, 2, 3, 4]
    assert "tid (4,0,0)" in err(run_kernel, m, "k", 1, 5, [np.zeros(5, np.uint32)], strict=True)


def test_strict_unused_undef_is_fine() -> None:
    body = PROLOGUE + """
    %u = ori.undef : () -> !ori.r64
    ori.bra ^next(%u : !ori.r64)
  ^next(%v : !ori.r64):
    ori.stg [%a], %tid : (!ori.r64, !ori.r32) -> ()
    ori.exit"""
    (r,) = run_kernel(kernel(body), "k", 1, 3, [np.zeros(3, np.uint32)], strict=True)
    assert r.tolist() == [0, 1, 2]


# ----------------------------------------------------------------------
# errors
# ----------------------------------------------------------------------
LOAD_AT = PROLOGUE + """
    %v = ori.ldg {width}[%a + {off}] : (!ori.r64) -> !ori.{ty}
    ori.exit"""


def test_out_of_bounds_global_load() -> None:
    m = kernel(LOAD_AT.format(width="", off="0x0", ty="r32"))
    msg = err(run_kernel, m, "k", 1, 8, [np.zeros(4, np.uint32)])
    assert msg.startswith("in @k block 0 op 3 `%v = ori.ldg [%a] : (!ori.r64) -> !ori.r32`")
    assert "thread ctaid (0,0,0) tid (4,0,0)" in msg
    assert f"global load at {GLOBAL_BASE + 16:#x} out of bounds of the 16-byte allocation" in msg


def test_out_of_bounds_global_store_straddling_the_end() -> None:
    body = PROLOGUE + """
    %w = ori.imad wide.u32 %tid, 0x8, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b64 [%w + 0x8], %w : (!ori.r64, !ori.r64) -> ()
    ori.exit"""
    msg = err(run_kernel, kernel(body), "k", 1, 4, [np.zeros(5, np.uint32)])
    assert f"global store at {GLOBAL_BASE + 16:#x} out of bounds of the 20-byte" in msg
    assert "tid (1,0,0)" in msg


def test_misaligned_access() -> None:
    m = kernel(LOAD_AT.format(width="b64 ", off="0x4", ty="r64"))
    msg = err(run_kernel, m, "k", 1, 1, [np.zeros(4, np.uint64)])
    assert f"misaligned global load of 8 bytes at address {GLOBAL_BASE + 4:#x}" in msg


def test_unmapped_address() -> None:
    body = PROLOGUE + """
    %b = ori.imad wide.u32 %tid, 0x4, 0x1000 : (!ori.r32) -> !ori.r64
    %v = ori.ld [%b] : (!ori.r64) -> !ori.r32
    ori.exit"""
    msg = err(run_kernel, kernel(body), "k", 1, 2, [np.zeros(4, np.uint32)])
    assert "global load at unmapped global address 0x1000" in msg and "tid (0,0,0)" in msg


@pytest.mark.parametrize(("load", "kw", "what", "who"), [
    ("ori.lds", {"shared_bytes": 8},
     "shared load out of bounds of shared memory (8 bytes) at offset 0x8", "tid (1,0,0)"),
    ("ori.ldl", {"local_bytes": 16},
     "local load out of bounds of local memory (16 bytes) at offset 0x10", "tid (2,0,0)"),
])
def test_shared_and_local_bounds(load: str, kw: dict[str, int], what: str, who: str) -> None:
    body = PROLOGUE + f"""
    %off = ori.imad %tid, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v = {load} [%off] : (!ori.r32) -> !ori.r32
    ori.exit"""
    msg = err(run_kernel, kernel(body), "k", 1, 4, [np.zeros(4, np.uint32)], **kw)
    assert what in msg and who in msg


def test_step_limit() -> None:
    body = """
  ^entry:
    ori.bra ^spin
  ^spin:
    ori.nop : () -> ()
    ori.bra ^spin"""
    msg = err(run_kernel, kernel(body, params=()), "k", 1, 32, [], max_steps=1000)
    assert "step limit of 1000 thread-instructions exceeded" in msg
    assert "@k block 1 op 0" in msg


def _module_with_unknown_op(executed: bool) -> ModuleOp:
    fb = FuncBuilder("k", kernel=True, params=[])
    tid = fb.s2r(mods="SR_TID.X")
    if executed:
        fb.insert(UnrealizedConversionCastOp.get([tid], [r32]))
        fb.exit()
    else:
        dead = fb.block()
        fb.exit()
        with fb.at(dead):
            fb.insert(UnrealizedConversionCastOp.get([tid], [r32]))
            fb.exit()
    return module(fb.func)


def test_unknown_op_fails_when_executed() -> None:
    msg = err(run_kernel, _module_with_unknown_op(True), "k", 1, 2, [])
    assert "no semantics for builtin.unrealized_conversion_cast" in msg
    assert "@k block 0 op 1" in msg and "tid (0,0,0)" in msg
    run_kernel(_module_with_unknown_op(False), "k", 1, 2, [])  # never executed: fine


def test_nonuniform_barrier_id() -> None:
    body = """
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    ori.bar %tid : (!ori.r32) -> ()
    ori.exit"""
    msg = err(run_kernel, kernel(body, params=()), "k", 1, 2, [])
    assert "barrier id differs between the threads" in msg and "tid (1,0,0)" in msg


def test_error_inside_device_function_names_the_callee() -> None:
    funcs = """
  ori.func @peek(%p : !ori.r64) -> !ori.r32 {
    %v = ori.ldg [%p + 0x40] : (!ori.r64) -> !ori.r32
    ori.ret %v : !ori.r32
  }
"""
    body = PROLOGUE + """
    %v = ori.call @peek(%a) : (!ori.r64) -> !ori.r32
    ori.exit"""
    msg = err(run_kernel, kernel(body, funcs=funcs), "k", 1, 2, [np.zeros(2, np.uint32)])
    assert msg.startswith("in @peek block 0 op 0") and "out of bounds" in msg
