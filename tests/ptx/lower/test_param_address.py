"""The address of a kernel parameter (PTX ISA 5.1.6.1 "Kernel Function
Parameters"; nvcc makes it for ``__grid_constant__`` parameters, CUB's
DeviceSelectSweepKernel for its policy structs).

* ``mov.b64 %rd, param`` gives a .param-space address, the parameter's offset
  in the parameter area; ``ld.param [%rd+off]`` reads constant bank 0 through
  the register, as ptxas 13.0 does (``LDC R0, c[0x0][R0+0x160]``).
* ``cvta.param`` makes a generic address.  ptxas adds it to ``c[0x0][0x40]``,
  the generic address of constant bank 0; ori copies the parameter area into
  a local buffer in the entry block and points into the copy.

The kernels of ``tests/ptx/inputs/runtime/param_address.cu`` (nvcc 13.0,
sm_80) run after import and, with physical registers, after ``ori-ptxas``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.interpreter import run_kernel
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdcOp, StlOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context

PTX = Path(__file__).resolve().parents[1] / "inputs" / "runtime" / "param_address.ptx"
MODES = [pytest.param(False, id="imported"), pytest.param(True, id="ori-ptxas")]


@functools.cache
def _module(physical: bool) -> ModuleOp:
    m = import_ptx(PTX.read_text(), str(PTX))
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
    m.verify()
    return m


def _table(v: np.ndarray, bias: int, tag: int) -> bytes:
    """``struct Table { int v[8]; long long bias; unsigned char tag; }`` (48 bytes)."""
    raw = bytearray(48)
    raw[0:32] = v.astype(np.int32).tobytes()
    raw[32:40] = np.int64(bias).tobytes()
    raw[40] = tag
    return bytes(raw)


def _func(name: str) -> FuncOp:
    return next(f for f in _module(False).walk() if isinstance(f, FuncOp) and
                f.sym_name.data == name)


def test_param_index_reads_bank0_through_register() -> None:
    ldcs = [op for op in _func("param_index").walk() if isinstance(op, LdcOp)]
    # the dynamic index: LDC c[0x0][R + 0x160] with a register base
    assert any(op.src_int("bank") == 0 and op.srcs and op.src_int("offset") == 0x160
               for op in ldcs)
    assert not any(isinstance(op, StlOp) for op in _func("param_index").walk())


def test_param_escape_copies_to_local() -> None:
    f = _func("param_escape")
    stl = [op for op in f.walk() if isinstance(op, StlOp)]
    assert len(stl) == (48 + 8) // 4  # the whole parameter area (Table, out), word by word
    assert all(op.parent is f.entry_block for op in stl)


@pytest.mark.parametrize("physical", MODES)
def test_param_index(physical: bool) -> None:
    v = np.array([5, -3, 8, 100, -77, 12, 0, 9], dtype=np.int32)
    out = run_kernel(_module(physical), "param_index", 1, 40,
                     [_table(v, -1000, 200), np.zeros(40, np.int32)], physical=physical)[1]
    want = v[np.arange(40) & 7] - 1000 + 200
    np.testing.assert_array_equal(out, want.astype(np.int32))


@pytest.mark.parametrize("physical", MODES)
def test_param_escape(physical: bool) -> None:
    v = np.arange(8, dtype=np.int32) * 11 - 20
    out = run_kernel(_module(physical), "param_escape", 2, 32,
                     [_table(v, 5, 7), np.zeros(32, np.int32)], physical=physical)[1]
    want = v[(np.arange(32) * 3) & 7] + 7
    np.testing.assert_array_equal(out, want.astype(np.int32))


_DEVICE_FN = """
.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b64 %rd<3>;
	.reg .b32 %r<3>;
	mov.b64 %rd1, a;
	ld.param.u32 %r1, [%rd1];
	st.param.b32 [r], %r1;
	ret;
}
"""


def test_device_function_parameter_address_is_diagnosed() -> None:
    with pytest.raises(PtxSyntaxError, match="taking the address of parameter 'a'"):
        import_ptx(_DEVICE_FN, "fn.ptx")
