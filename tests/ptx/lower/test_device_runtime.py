"""CUDA device-runtime calls: ``malloc``/``free`` (and ``new``/``delete``),
``vprintf`` (``printf``) and ``__assertfail`` (``assert``).

nvcc declares them ``.extern .func`` and ptxas 13.0 keeps each call, as
``CALL.ABS.NOINC`` through an address from constant bank 4 (the driver links
them).  The importer turns them into ``ori.call`` of an ``ori.runtime_func``
declaration; the interpreter implements them (``run_kernel``'s docstring).
Every kernel runs after import and, with physical registers, after the whole
``ori-ptxas`` pipeline, and is compared with numpy.  The input is nvcc 13.0's
PTX for ``tests/ptx/inputs/runtime/device_runtime.cu``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from ori_dialect.asm_printer import format_module
from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ir.registers import R32Type, R64Type
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import RuntimeFuncOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context

PTX = Path(__file__).resolve().parents[1] / "inputs" / "runtime" / "device_runtime.ptx"


@functools.cache
def _imported() -> ModuleOp:
    m = import_ptx(PTX.read_text(), str(PTX))
    m.verify()
    return m


@functools.cache
def _compiled() -> ModuleOp:
    m = _imported().clone()
    apply_pipeline(m, "ori-ptxas", make_context())
    m.verify()
    return m


MODES = [pytest.param(False, id="imported"), pytest.param(True, id="ori-ptxas")]


def _module(physical: bool) -> ModuleOp:
    return _compiled() if physical else _imported()


def test_runtime_declarations() -> None:
    m = _imported()
    decls = {op.sym_name.data: op for op in m.walk() if isinstance(op, RuntimeFuncOp)}
    assert sorted(decls) == ["__assertfail", "free", "malloc", "vprintf"]
    callees = {op.callee_name() for op in m.walk() if isinstance(op, CallOp)}
    assert callees == set(decls)
    again = Parser(make_context(), str(m)).parse_module()  # the text form round-trips
    assert str(again) == str(m)


def test_asm_calls_absolute() -> None:
    text = format_module(_compiled())
    assert "// .extern .func malloc(!ori.r64) -> (!ori.r64): CUDA device runtime" in text
    assert "CALL.ABS.NOINC `(malloc)" in text
    assert "CALL.ABS.NOINC `(free)" in text
    assert "CALL.REL.NOINC `(malloc)" not in text


@pytest.mark.parametrize("physical", MODES)
def test_malloc_free(physical: bool) -> None:
    rng = np.random.default_rng(7)
    x = rng.integers(-1000, 1000, size=64).astype(np.int32)
    out = run_kernel(_module(physical), "heap_copy", 2, 32,
                     [x, np.zeros(64, np.int32), 60], physical=physical)[1]
    want = np.where(np.arange(64) < 60, x * 10, 0).astype(np.int32)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("physical", MODES)
def test_new_delete(physical: bool) -> None:
    out = run_kernel(_module(physical), "new_delete", 1, 96, [np.zeros(96, np.int32)],
                     physical=physical)[0]
    np.testing.assert_array_equal(out, 6 * np.arange(96, dtype=np.int32))


@pytest.mark.parametrize("physical", MODES)
def test_heap_exhausted_returns_null(physical: bool) -> None:
    # 10 blocks of 100 bytes (rounded to 112) fit a 1 KiB heap (9 of them: 1008 bytes)
    out = run_kernel(_module(physical), "heap_exhaust", 1, 32,
                     [100, np.zeros(32, np.uint64)], physical=physical, heap_bytes=1024)[1]
    np.testing.assert_array_equal(out, (np.arange(32) < 1024 // 112).astype(np.uint64))
    full = run_kernel(_module(physical), "heap_exhaust", 1, 32,
                      [100, np.zeros(32, np.uint64)], physical=physical)[1]
    assert full.all()  # the default 8 MiB heap


@pytest.mark.parametrize("physical", MODES)
def test_double_free_names_thread(physical: bool) -> None:
    with pytest.raises(InterpreterError, match=r"tid \(0,0,0\).*free\(0x[0-9a-f]+\): not a "
                       r"pointer malloc returned, or already freed"):
        run_kernel(_module(physical), "double_free", 1, 4, [np.zeros(4, np.int32)],
                   physical=physical)


@pytest.mark.parametrize("physical", MODES)
def test_printf(physical: bool) -> None:
    x = np.array([5, -7, 123456, 0], dtype=np.int32)
    lines: list[str] = []
    run_kernel(_module(physical), "print_vals", 1, 4, [x, np.float32(2.25)],
               physical=physical, printf_out=lines)
    want = [f"thread {i} value {int(v)} f={2.25:f} ll={3 * int(v)}\n" for i, v in enumerate(x)]
    assert lines == want


def test_printf_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    run_kernel(_imported(), "print_vals", 1, 2, [np.array([1, 2], np.int32), np.float32(0.5)])
    assert capsys.readouterr().out == ("thread 0 value 1 f=0.500000 ll=3\n"
                                       "thread 1 value 2 f=0.500000 ll=6\n")


@pytest.mark.parametrize("physical", MODES)
def test_assert(physical: bool) -> None:
    x = np.array([3, 1, -4, 1, -5, 9, 2, 6], dtype=np.int32)
    m = _module(physical)
    out = run_kernel(m, "check_positive", 1, 8, [np.abs(x), np.zeros(8, np.int32)],
                     physical=physical)[1]
    np.testing.assert_array_equal(out, np.abs(x) + 1)
    with pytest.raises(InterpreterError) as e:
        run_kernel(m, "check_positive", 1, 8, [x, np.zeros(8, np.int32)], physical=physical)
    msg = str(e.value)
    assert "tid (2,0,0)" in msg  # the first failing thread
    assert ("device assertion failed: device_runtime.cu:28: void check_positive(const int *, int *): "
            "Assertion `in[i] >= 0` failed.") in msg


def _printf_module(fmt: bytes, arg_words: list[tuple[int, int]]) -> ModuleOp:
    """A kernel that prints ``fmt`` with the packed arguments (size, value)."""
    init = ", ".join(str(b) for b in fmt + b"\0")
    stores = []
    off = 0
    for size, value in arg_words:
        off = -(-off // size) * size
        t = "u64" if size == 8 else "u32"
        stores.append(f"\tmov.{'b64' if size == 8 else 'b32'} {'%rd9' if size == 8 else '%r9'}, "
                      f"{value};\n\tst.local.{t} [%rd2+{off}], {'%rd9' if size == 8 else '%r9'};")
        off += size
    text = f"""
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt[{len(fmt) + 1}] = {{{init}}};
.visible .entry k()
{{
	.local .align 8 .b8 buf[{max(off, 8)}];
	.reg .b32 %r<10>;
	.reg .b64 %rd<10>;
	mov.u64 %rd2, buf;
	cvta.local.u64 %rd3, %rd2;
	mov.u64 %rd4, fmt;
	cvta.global.u64 %rd5, %rd4;
{chr(10).join(stores)}
	{{
	.param .b64 param0;
	st.param.b64 [param0], %rd5;
	.param .b64 param1;
	st.param.b64 [param1], %rd3;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r1, [retval0];
	}}
	ret;
}}
"""
    return import_ptx(text, "printf.ptx")


@pytest.mark.parametrize(("fmt", "args", "want"), [
    (b"%d|%5d|%-4d|%04d\n", [(4, 42), (4, -3), (4, 7), (4, 9)], "42|   -3|7   |0009\n"),
    (b"%u %x %X %#x %o %#o\n", [(4, 0xFFFFFFFF), (4, 255), (4, 255), (4, 16), (4, 8), (4, 8)],
     "4294967295 ff FF 0x10 10 010\n"),
    (b"%lld %llu %lx\n", [(8, (1 << 64) - 5), (8, (1 << 64) - 1), (8, 1 << 40)],
     "-5 18446744073709551615 10000000000\n"),
    (b"%hd %hhu %c%c\n", [(4, 0x18000), (4, 0x1FF), (4, 79), (4, 75)], "-32768 255 OK\n"),
    (b"%.3f %e %g %G\n", [(8, int(np.float64(3.14159).view(np.uint64))),
                          (8, int(np.float64(1e-5).view(np.uint64))),
                          (8, int(np.float64(0.5).view(np.uint64))),
                          (8, int(np.float64(1e20).view(np.uint64)))],
     "3.142 1.000000e-05 0.5 1E+20\n"),
    (b"100%% %s\n", [(8, 0)], "100% (null)\n"),
])
def test_printf_formats(fmt: bytes, args: list[tuple[int, int]], want: str) -> None:
    lines: list[str] = []
    run_kernel(_printf_module(fmt, args), "k", 1, 1, [], printf_out=lines)
    assert lines == [want]


def test_printf_unsupported_conversion() -> None:
    with pytest.raises(InterpreterError, match=r"printf: the conversion '%n' is not supported"):
        run_kernel(_printf_module(b"%n", [(8, 0)]), "k", 1, 1, [], printf_out=[])


def test_runtime_func_verifier() -> None:
    with pytest.raises(VerifyException, match="not a CUDA device runtime function"):
        RuntimeFuncOp("calloc", [R64Type.unallocated()], [R64Type.unallocated()]).verify()
    with pytest.raises(VerifyException, match="the runtime function has type"):
        RuntimeFuncOp("malloc", [R32Type.unallocated()], [R64Type.unallocated()]).verify()
    RuntimeFuncOp.for_runtime("vprintf").verify()


def test_wrong_prototype_is_diagnosed() -> None:
    text = PTX.read_text().replace(".param .b64 malloc_param_0", ".param .b32 malloc_param_0", 1)
    with pytest.raises(PtxSyntaxError, match="'malloc' is declared \\(.b64\\) malloc\\(.b32\\), "
                       "but the CUDA device runtime's function is \\(.b64\\) malloc\\(.b64\\)"):
        import_ptx(text, "bad.ptx")


def test_other_extern_function_still_refused() -> None:
    text = """
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b64 func_retval0) calloc (.param .b64 a, .param .b64 b);
.visible .entry k()
{
	.reg .b64 %rd<3>;
	{
	.param .b64 param0;
	st.param.b64 [param0], 1;
	.param .b64 param1;
	st.param.b64 [param1], 1;
	.param .b64 retval0;
	call.uni (retval0), calloc, (param0, param1);
	ld.param.b64 %rd1, [retval0];
	}
	ret;
}
"""
    with pytest.raises(PtxSyntaxError, match="'calloc' is declared but not defined"):
        import_ptx(text, "calloc.ptx")
