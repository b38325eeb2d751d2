"""Function addresses and indirect calls (``mov.u64 %rd, f``, ``call ...,
%rd, (...), proto;``, function-pointer tables in ``.global`` initializers):
nvcc 13 PTX of tests/ptx/inputs/module_vars/indirect.cu, run before and after
``ori-ptxas`` (physically allocated) against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ops.control import CallIndirectOp
from ori_dialect.ptx.lower.module import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

INPUTS = Path(__file__).parent.parent / "inputs" / "module_vars"


def _load(sm: str) -> object:
    return import_ptx((INPUTS / f"indirect_{sm}.ptx").read_text(), f"indirect_{sm}.ptx")


@pytest.mark.parametrize("sm", ["sm80", "sm90"])
def test_dispatch_through_table(sm: str) -> None:
    m = _load(sm)
    calls = [op for op in m.walk() if isinstance(op, CallIndirectOp)]  # type: ignore[attr-defined]
    assert len(calls) == 2 and all(c.params is not None for c in calls)
    n = 70
    a = np.linspace(-3, 3, n).astype(np.float32)
    b = np.linspace(2, 5, n).astype(np.float32)
    sel = (np.arange(n) * 7 % 5).astype(np.int32)
    ref = np.where(sel & 1, a * b, a + b).astype(np.float32)
    for phase in (0, 1):
        if phase:
            apply_pipeline(m, "ori-ptxas", make_context())  # type: ignore[arg-type]
        out = run_kernel(m, "dispatch", 3, 32, [np.zeros(n, np.float32), a, b, sel, np.int32(n)],
                         physical=bool(phase))[0]
        np.testing.assert_array_equal(out, ref)
        for which, want in ((0, a[:32] + 3), (1, a[:32] * 3)):
            out = run_kernel(m, "pick", 1, 32, [np.zeros(32, np.float32), a, np.int32(which)],
                             physical=bool(phase))[0]
            np.testing.assert_array_equal(out, want.astype(np.float32))


def test_bad_function_pointer_fails_loudly() -> None:
    m = _load("sm80")
    sel = np.zeros(4, np.int32)
    args = [np.zeros(4, np.float32), np.ones(4, np.float32), np.ones(4, np.float32), sel,
            np.int32(4)]
    with pytest.raises(InterpreterError, match="not the address of a function"):
        run_kernel(m, "dispatch", 1, 4, args, symbols={"g_ops": np.array([12345, 0], np.uint64)})


_MISMATCH = """
.version 8.0
.target sm_80
.address_size 64
.func (.param .b64 r) f64id(.param .b64 x)
{
    .reg .b64 %rd<2>;
    ld.param.b64 %rd1, [x];
    st.param.b64 [r], %rd1;
    ret;
}
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    mov.u64 %rd2, f64id;
    mov.u32 %r1, 1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r1;
    .param .b32 r0;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %rd2, (a0), proto;
    ld.param.b32 %r2, [r0];
    }
    st.global.u32 [%rd1], %r2;
    ret;
}
"""


def test_prototype_mismatch_fails_loudly() -> None:
    m = import_ptx(_MISMATCH, "mismatch.ptx")
    with pytest.raises(InterpreterError, match="does not match the call's prototype"):
        run_kernel(m, "k", 1, 1, [np.zeros(1, np.uint32)])
