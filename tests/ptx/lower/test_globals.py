"""Module-scope ``.global``/``.const``/``.shared`` variables, float immediates
in integer moves and per-kernel shared memory: each kernel (nvcc 13 PTX of
tests/ptx/inputs/module_vars/*.cu, sm_80 and sm_90) runs in the interpreter
before and after ``ori-ptxas`` (physically allocated) against numpy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ops.memory import LdcOp
from ori_dialect.ops.module_vars import AddrOp, GlobalOp
from ori_dialect.ptx.lower.module import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context

INPUTS = Path(__file__).parent.parent / "inputs" / "module_vars"
SMS = ("sm80", "sm90")


def _load(name: str, sm: str) -> Any:
    return import_ptx((INPUTS / f"{name}_{sm}.ptx").read_text(), f"{name}_{sm}.ptx")


def _both(module: Any, kernel: str, grid: int, block: int, args: Callable[[], list[Any]],
          **kw: Any) -> list[tuple[list[Any], dict[str, np.ndarray]]]:
    """Results before and after ori-ptxas (physical registers)."""
    out = []
    for phase in (0, 1):
        if phase:
            apply_pipeline(module, "ori-ptxas", make_context())
        got: dict[str, np.ndarray] = {}
        res = run_kernel(module, kernel, grid, block, args(), symbols_out=got,
                         physical=bool(phase), **kw)
        out.append((res, got))
    return out


@pytest.mark.parametrize("sm", SMS)
def test_globals_and_constants(sm: str) -> None:
    m = _load("globals", sm)
    ops = {op.var_name: op for op in m.body.ops if isinstance(op, GlobalOp)}
    assert ops["c_coef"].space.data == "const" and ops["c_coef"].place == 0
    assert ops["c_n"].place == 16  # ptxas: cmem[3] = 20 bytes
    assert ops["g_table"].init_bytes() == np.array([10, 20, 30, 40], np.int32).tobytes()
    n = 100
    x = np.linspace(-1.5, 1.5, n).astype(np.float32)
    for res, got in _both(m, "count", 2, 64, lambda: [np.zeros(n, np.int32), x, np.int32(n)],
                          symbols={"c_n": np.int32(7), "g_counter": np.int32(5)}):
        c = np.float32([1, 2, 3, 4])
        r = c[0] + x * (c[1] + x * (c[2] + x * c[3]))
        ref = (r.astype(np.float64) * 2.5).astype(np.int32) + np.int32(
            [10, 20, 30, 40])[np.arange(n) & 3] + 7
        np.testing.assert_array_equal(res[0], ref)
        assert int(got["g_counter"].view(np.int32)[0]) == 5 + n
    # const loads are constant-bank reads of bank 3
    m2 = _load("globals", sm)
    assert any(isinstance(op, LdcOp) and op.src_int("bank") == 3 for op in m2.walk())
    assert any(isinstance(op, AddrOp) and op.symbol_name == "g_table" for op in m2.walk())


@pytest.mark.parametrize("sm", SMS)
def test_symbols_round_trip(sm: str) -> None:
    m = _load("globals", sm)
    table = np.array([1, 2, 3, 4], np.int32)
    for _, got in _both(m, "bump", 1, 4, lambda: [np.int32(3)], symbols={"g_table": table}):
        np.testing.assert_array_equal(got["g_table"], table + 3)
        assert got["g_table"].dtype == np.int32
    with pytest.raises(InterpreterError, match="no .global or .const variable named 'nope'"):
        run_kernel(m, "bump", 1, 4, [np.int32(1)], symbols={"nope": np.int32(0)})
    with pytest.raises(InterpreterError, match="24 bytes for a 16-byte variable"):
        run_kernel(m, "bump", 1, 4, [np.int32(1)], symbols={"g_table": np.zeros(6, np.int32)})


@pytest.mark.parametrize("sm", SMS)
def test_per_kernel_shared_memory(sm: str) -> None:
    """ptxas -v: k_small 128, k_big 1024, k_call 256 (its callee's array) bytes smem."""
    m = _load("shared2", sm)
    smem = {f.sym_name.data: f.attributes["ori.shared_bytes"].value.data  # type: ignore[union-attr]
            for f in m.body.ops if getattr(f, "is_kernel", False)}
    assert smem == {"k_small": 128, "k_big": 1024, "k_call": 256}
    for res, _ in _both(m, "k_small", 1, 32, lambda: [np.zeros(32, np.float32)]):
        np.testing.assert_array_equal(res[0], np.arange(31, -1, -1, dtype=np.float32))
    for res, _ in _both(_load("shared2", sm), "k_big", 1, 128, lambda: [np.zeros(128)]):
        np.testing.assert_array_equal(res[0], 2.0 * np.arange(127, -1, -1))
    for res, _ in _both(_load("shared2", sm), "k_call", 1, 64,
                        lambda: [np.zeros(64, np.float32)]):
        np.testing.assert_array_equal(res[0], ((np.arange(64) + 1) & 63).astype(np.float32))


@pytest.mark.parametrize("sm", SMS)
def test_cub_block_exchange(sm: str) -> None:
    """CUB's BlockExchange scatter addresses shared memory as [base - k + k']."""
    d = np.arange(128, dtype=np.int32)
    ref = np.empty(128, np.int32)
    ref[127 - d] = d
    for res, _ in _both(_load("exchange", sm), "exch", 1, 32, lambda: [d.copy()]):
        np.testing.assert_array_equal(res[0], ref)
    d2 = np.arange(256, dtype=np.int32)
    for res, _ in _both(_load("exchange", sm), "b2s", 1, 64, lambda: [d2.copy()]):
        np.testing.assert_array_equal(res[0], d2)


_FLOAT_MOVES = """
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    .reg .pred %q;
    ld.param.u64 %rd1, [p];
    mov.b32 %r1, 0f3F800000;
    mov.u32 %r2, 0fC0490FDB;
    mov.b64 %rd2, 0d3FF0000000000000;
    setp.ne.u32 %q, %r1, 0;
    selp.b32 %r3, 0f40000000, 0, %q;
    st.global.b32 [%rd1], %r1;
    st.global.b32 [%rd1+4], %r2;
    st.global.b64 [%rd1+8], %rd2;
    st.global.b32 [%rd1+16], %r3;
    st.global.b32 [%rd1+20], 0f7F800000;
    st.global.u32 [%rd1+24], 0fBF800000;
    ret;
}
"""


def test_float_immediates_keep_their_bits() -> None:
    m = import_ptx(_FLOAT_MOVES, "fmov.ptx")
    want = np.array([0x3F800000, 0xC0490FDB, 0, 0x3FF00000, 0x40000000, 0x7F800000,
                     0xBF800000, 0], np.uint32)
    for res, _ in _both(m, "k", 1, 1, lambda: [np.zeros(8, np.uint32)]):
        np.testing.assert_array_equal(res[0], want)


def test_initializer_forms() -> None:
    text = """
.version 8.0
.target sm_80
.address_size 64
.global .align 4 .b32 g_bits[3] = {0f3F800000, 7, -1};
.global .align 8 .f64 g_d[2] = {0d4000000000000000, 0d3FF0000000000000};
.global .align 4 .u32 g_m[2][2] = {{1, 2}, {3}};
.global .align 8 .u64 g_p[2] = {generic(g_bits), g_m+8};
.visible .global .align 4 .f32 g_f = 0f40490FDB;
.weak .global .align 4 .u32 g_w = 9;
.const .align 8 .u64 c_x = 0x123456789;
.shared .align 16 .b8 s_buf[64];
.visible .entry k() { ret; }
"""
    m = import_ptx(text, "init.ptx")
    ops = {op.var_name: op for op in m.body.ops if isinstance(op, GlobalOp)}
    assert ops["g_bits"].init_bytes() == np.array([0x3F800000, 7, 0xFFFFFFFF], np.uint32).tobytes()
    assert ops["g_d"].init_bytes() == np.array([2.0, 1.0]).tobytes()
    assert ops["g_m"].init_bytes() == np.array([1, 2, 3, 0], np.uint32).tobytes()
    assert ops["g_p"].reloc_list() == [(0, "g_bits", 0), (8, "g_m", 8)]
    assert ops["c_x"].place == 0 and ops["s_buf"].space.data == "shared"
    got: dict[str, np.ndarray] = {}
    run_kernel(m, "k", 1, 1, [], symbols_out=got)
    p = got["g_p"].view(np.uint64)
    assert p[1] - p[0] != 0 and got["g_f"].view(np.float32)[0] == np.float32(3.1415927)


@pytest.mark.parametrize("decl, message", [
    (".global .u32 g[2] = {1, 2, 3};", "initializer of 'g' has 3 elements, the variable holds 2"),
    (".global .u64 g = nowhere;", "undefined symbol 'nowhere'"),
    (".global .u32 g = k;", "needs 64-bit elements"),
    (".extern .global .u32 g;", "not defined in this module"),
    (".global .u32 g = 1.5;", "does not fit a .u32 element"),
])
def test_bad_variables(decl: str, message: str) -> None:
    text = f".version 8.0\n.target sm_80\n.address_size 64\n{decl}\n.visible .entry k() {{ ret; }}\n"
    with pytest.raises(PtxSyntaxError, match=message) as e:
        import_ptx(text, "bad.ptx")
    assert "bad.ptx:4:" in str(e.value)
