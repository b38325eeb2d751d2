"""What a call may overwrite (passes/regalloc/abi.py ``call_clobbers``): a
CUDA device runtime function only R0-R15 (the target's
``abi_runtime_scratch``) and the return address; a callee ori has not
allocated every scratch register of the convention (R0, R3-R15, R32+)."""

from __future__ import annotations

from pathlib import Path

from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.regalloc.abi import call_clobbers, runtime_call_survivors, runtime_calls_only
from targets import get_target

LIT = Path(__file__).resolve().parents[2] / "filecheck/passes/regalloc/runtime-calls.mlir"


def _bits(regs: frozenset[int]) -> int:
    out = 0
    for r in regs:
        out |= 1 << r
    return out


def test_runtime_call_clobbers_r0_to_r15_alone() -> None:
    m = Parser(make_context(), LIT.read_text()).parse_module()
    apply_pipeline(m, "ori-abi")
    (func,) = [f for f in functions_of(m) if isinstance(f, FuncOp)]
    (call,) = [op for op in func.walk() if isinstance(op, CallOp)]
    assert isinstance(func.abi, AbiAttr)
    scratch = func.abi.fields().scratch or {}
    standard = (_bits(scratch.get(RegFile.R, frozenset())), _bits(scratch.get(RegFile.P, frozenset())))
    ret = 3 << 20
    runtime_r, _ = call_clobbers(call, {}, standard, (1 << 16) - 1)
    unknown_r, _ = call_clobbers(call, {}, standard)
    assert runtime_r == (standard[0] & 0xFFFF) | ret
    assert unknown_r == standard[0] | ret
    assert unknown_r >> 32 & 1 and not runtime_r >> 32
    # R2 stays preserved either way
    assert not runtime_r & 4 and not unknown_r & 4
    # what ori-remat-block counts before ori-abi ran: the registers this
    # clobber mask leaves, R1 (the stack pointer) aside
    tgt = get_target("sm_80")
    assert runtime_call_survivors(tgt) == [
        r for r in range(tgt.reg_limit("R")) if r != 1 and not runtime_r >> r & 1]
    assert runtime_call_survivors(tgt)[:6] == [2, 16, 17, 18, 19, 22]


_KERNELS = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.runtime_func @malloc : (!ori.r64) -> !ori.r64
  ori.runtime_func @free : (!ori.r64) -> ()
  ori.func @id(%x: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    ori.ret %x : !ori.r32
  }
  ori.func kernel @none() attributes {params = []} {
    ori.exit
  }
  ori.func kernel @runtime() attributes {params = []} {
    %sz = ori.pack 0x10, RZ : () -> !ori.r64
    %m = ori.call @malloc(%sz) : (!ori.r64) -> !ori.r64
    ori.call @free(%m) : (!ori.r64) -> ()
    ori.exit
  }
  ori.func kernel @mixed() attributes {params = []} {
    %sz = ori.pack 0x10, RZ : () -> !ori.r64
    %m = ori.call @malloc(%sz) : (!ori.r64) -> !ori.r64
    %x = ori.mov 0x1 : () -> !ori.r32
    %y = ori.call @id(%x) : (!ori.r32) -> !ori.r32
    ori.exit
  }
}
"""


def test_runtime_calls_only_is_about_device_runtime_callees() -> None:
    """A kernel calling malloc and free alone qualifies (it aims at occupancy
    in ori-remat-block); one that also calls a device function does not,
    nor does a device function; a kernel without calls trivially does."""
    m = Parser(make_context(), _KERNELS).parse_module()
    got = {f.sym_name.data: runtime_calls_only(f) for f in functions_of(m)
           if isinstance(f, FuncOp)}
    assert got == {"id": False, "none": True, "runtime": True, "mixed": False}
