"""``ori-uniform`` and the uniformity analysis (issue 19 item 1;
passes/uniform, ori_dialect/analysis/uniformity.py).

Programs compute what they computed before with their uniform values in
UR/UP registers -- lit inputs, the CUDA examples, generated programs alone
and through ``ori-ptxas`` in the physical interpreter -- and the
interpreter's uniform check (interpreter/uniform_check.py) holds on every
uniform op they run.  A small sample by default; 300 programs under
``-m fuzz``."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.uniformity import Uniformity
from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.registers import OriRegisterType, UR64Type
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp, UnpackOp
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    check_equivalent,
    check_generated,
    check_lit_inputs,
    make_context,
)
from ori_dialect.testing.generator import GenOptions
from passes.pipeline import PHASES, PtxasPipelinePass
from passes.regalloc.checker import check_module
from tests.passes.example_launches import after_pipeline, check_launch, example_rel, launches

LIT_DIR = Path(__file__).resolve().parents[2] / "filecheck" / "passes" / "uniform"


def _parse(text: str) -> ModuleOp:
    from xdsl.parser import Parser

    return Parser(make_context(), text).parse_module()


def _uniform_values(m: ModuleOp) -> int:
    return sum(1 for op in m.walk() for r in op.results
               if isinstance(r.type, OriRegisterType) and r.type.REG_FILE.is_uniform)


def test_lit_inputs_keep_their_results() -> None:
    for pipe in ("ori-uniform", "ori-uniform{max-copies=4}", "ori-uniform{hot-goal=registers}"):
        seen = check_lit_inputs([LIT_DIR], pipe, seeds=(0, 1))
        assert seen.kernels >= 3 and seen.changed >= 1


def _check(seed: int, pipe: str) -> int:
    _, after = check_generated(seed, GenOptions(), pipe)
    return _uniform_values(after)


def test_generated_programs() -> None:
    moved = [_check(s, "ori-uniform{max-copies=4}") for s in range(4)]
    moved += [_check(s, "ori-uniform") for s in range(4, 6)]
    # copies where the R file is fullest, whether or not they reach more warps
    moved += [_check(s, "ori-uniform{hot-goal=registers}") for s in range(6, 8)]
    assert sum(moved) > 0


@pytest.mark.fuzz
def test_generated_programs_many() -> None:
    pipes = ("ori-uniform", "ori-uniform{max-copies=4}", "ori-uniform{hot-goal=registers}")
    moved = [_check(s, pipes[s % 3]) for s in range(900, 1200)]
    assert sum(1 for n in moved if n) > 100


_SAMPLE = {"loops", "stencil", "scan"}


@pytest.mark.parametrize("launch", launches(_SAMPLE), ids=lambda la: la.kernel)
def test_examples_keep_their_results(launch: object) -> None:
    rel = example_rel(launch, "sm_80")
    for uni in ("ori-uniform{hot-goal=registers}", "ori-uniform{max-copies=2}"):
        after = after_pipeline(rel, f"ori-general-optimize,ori-dead-code,{uni}")
        check_launch(after_pipeline(rel), after, launch, f"{uni} {rel}")


def _ptxas_with(uniform: str) -> str:
    """``ori-ptxas``'s phases, one by one, with ``uniform`` for ori-uniform."""
    pp = PtxasPipelinePass()
    return ",".join(uniform if ph.pass_name == "ori-uniform" else pp.phase_text(ph)
                    for ph in PHASES)


@pytest.mark.parametrize("launch", launches({"reduce"}), ids=lambda la: la.kernel)
def test_wide_copies_survive_allocation(launch: Any) -> None:
    """A hot 64-bit uniform value copied to the R file (UNPACK, two MOVs,
    PACK: reduce_warp_xor's output pointer under hot-goal=registers) through
    allocation: the checker accepts it and the physical run matches."""
    rel = example_rel(launch, "sm_80")
    after = after_pipeline(rel, _ptxas_with("ori-uniform{hot-goal=registers}"))
    assert not check_module(after)
    if launch.kernel == "reduce_warp_xor":
        words = [op for op in after.walk() if isinstance(op, UnpackOp)
                 and isinstance(op.operands[0].type, UR64Type)
                 and all(isinstance(u.operation, MovOp) for r in op.results for u in r.uses)]
        assert words, "no 64-bit uniform copy: the test no longer covers it"
    args = launch.make_args(np.random.default_rng(launch.seed))
    check_equivalent(after_pipeline(rel), after, launch.kernel, [args], grid=launch.grid,
                     block=launch.block, shared_bytes=launch.shared_bytes, strict=True,
                     physical_after=True, title=f"wide copies {rel}")


@pytest.mark.fuzz
@pytest.mark.parametrize("launch", launches(), ids=lambda la: la.kernel)
def test_every_example_keeps_its_results(launch: object) -> None:
    rel = example_rel(launch, "sm_80")
    after = after_pipeline(rel, "ori-general-optimize,ori-dead-code,ori-uniform{hot-goal=registers}")
    check_launch(after_pipeline(rel), after, launch, f"ori-uniform {rel}")


# ---- the analysis ---------------------------------------------------------

_KERNEL = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %c = ori.s2r SR_CTAID.X : () -> !ori.r32
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %early = ori.isetp ge.u32 %t, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %early : !ori.p, ^out, ^body
  ^body:
    %u = ori.iadd3 %c, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %odd = ori.lop3 %t, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^side, ^join(%u : !ori.r32)
  ^side:
    %w = ori.iadd3 %u, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^join(%w : !ori.r32)
  ^join(%j: !ori.r32):
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %s = ori.iadd3 %j, %u, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.bra ^out
  ^out:
    ori.exit
  }
}"""


def _values(m: ModuleOp) -> dict[str, object]:
    out: dict[str, object] = {}
    for op in m.walk():
        for r in op.results:
            if r.name_hint:
                out[r.name_hint] = r
        for b in op.regions[0].blocks if op.regions else ():
            for a in b.args:
                if a.name_hint:
                    out[a.name_hint] = a
    return out


def test_analysis_early_exit_divergent_side_and_join() -> None:
    m = _parse(_KERNEL)
    func = next(op for op in m.walk() if isinstance(op, FuncOp))
    uni = Uniformity(func)
    v = _values(m)
    # the early exit splits nothing: the body runs with the whole (live) warp
    assert uni.converged == [True, True, False, True, True]
    assert uni.is_uniform(v["u"]) and uni.is_uniform(v["n"])  # type: ignore[arg-type]
    assert not uni.is_uniform(v["t"]) and not uni.is_uniform(v["w"])  # type: ignore[arg-type]
    assert not uni.is_uniform(v["j"])  # type: ignore[arg-type]  # the divergent join


def test_analysis_part_moves_and_constant_words_are_uniform() -> None:
    """PACK/UNPACK (``MOVES_PARTS``) of uniform values and MOV of a
    constant-bank word are uniform; a part move of a per-thread value is not."""
    m = _parse("""builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %w = ori.mov c[0x0][0x0] : () -> !ori.r32
    %c = ori.s2r SR_CTAID.X : () -> !ori.r32
    %p = ori.imad wide.u32 %c, %w, 0x0 : (!ori.r32, !ori.r32) -> !ori.r64
    %lo, %hi = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %q = ori.pack %lo, %t : (!ori.r32, !ori.r32) -> !ori.r64
    %r = ori.pack %hi, %lo : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%q], %hi : (!ori.r64, !ori.r32) -> ()
    ori.stg [%r], %lo : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}""")
    func = next(op for op in m.walk() if isinstance(op, FuncOp))
    uni = Uniformity(func)
    v = _values(m)
    for name in ("w", "p", "lo", "hi", "r"):
        assert uni.is_uniform(v[name]), name  # type: ignore[arg-type]
    assert not uni.is_uniform(v["q"])  # type: ignore[arg-type]


def test_analysis_one_block_two_edges_selects_its_arguments() -> None:
    """``bra if %p, ^j(%a), ^j(%b)`` with a per-thread ``%p`` is a SEL: the
    argument of ``^j`` differs between threads though ``%a`` and ``%b`` are
    uniform (fuzz seed 31064: a UMOV of it ran with the warp diverged); the
    same branch with equal arguments leaves it uniform."""
    def arg_uniform(second: str) -> bool:
        m = _parse(f"""builtin.module attributes {{ori.target = "sm_80"}} {{
  ori.func kernel @k() attributes {{params = [#ori.param<8, align 8, at 0x0>]}} {{
    %a = ori.mov c[0x0][0x0] : () -> !ori.r32
    %b = ori.mov 0x7 : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^j(%a : !ori.r32), ^j({second} : !ori.r32)
  ^j(%x: !ori.r32):
    %q = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%q], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}""")
        func = next(op for op in m.walk() if isinstance(op, FuncOp))
        uni = Uniformity(func)
        x = func.body.blocks[1].args[0]
        return uni.is_uniform(x)
    assert not arg_uniform("%b")
    assert arg_uniform("%a")


def test_analysis_divergent_loop_exit_makes_the_loop_unconverged() -> None:
    text = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32)
  ^head(%i: !ori.r32):
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, %t, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32), ^done
  ^done:
    %bar = ori.mov 0x0 : () -> !ori.r32
    ori.sts [%bar], %i1 : (!ori.r32, !ori.r32) -> ()
    ori.exit
  }
}"""
    # (a loop whose leavers only exit would stay converged for the rest)
    m = _parse(text)
    func = next(op for op in m.walk() if isinstance(op, FuncOp))
    uni = Uniformity(func)
    assert uni.converged == [True, False, True]
    assert not uni.is_uniform(_values(m)["i1"])  # type: ignore[arg-type]


def test_device_functions_are_not_analysed() -> None:
    m = _parse("""builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%x: !ori.r32) -> !ori.r32 {
    %y = ori.mov 0x1 : () -> !ori.r32
    ori.ret %y : !ori.r32
  }
}""")
    func = next(op for op in m.walk() if isinstance(op, FuncOp))
    uni = Uniformity(func)
    assert uni.converged == [False]
    assert not uni.is_uniform(_values(m)["y"])  # type: ignore[arg-type]


# ---- the interpreter's check ----------------------------------------------

def _run(text: str) -> None:
    m = _parse(text)
    out = np.zeros(64, np.uint32)
    run_kernel(m, "k", grid=1, block=64, args=[out])


def test_interpreter_rejects_a_uniform_op_in_divergent_code() -> None:
    text = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %odd = ori.lop3 %t, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.bra if %q : !ori.p, ^side, ^out(%t : !ori.r32)
  ^side:
    %u = ori.mov 0x5 : () -> !ori.ur32
    %v = ori.iadd3 %t, %u, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    ori.bra ^out(%v : !ori.r32)
  ^out(%o: !ori.r32):
    ori.stg [%a], %o : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}"""
    with pytest.raises(Exception, match="UMOV runs with warp 0 diverged"):
        _run(text)


def test_interpreter_rejects_a_uniform_op_with_per_thread_values() -> None:
    text = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %r = ori.r2ur %t : (!ori.r32) -> !ori.ur32
    %u = ori.iadd3 %r, 0x1, URZ : (!ori.ur32) -> !ori.ur32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.iadd3 %t, %u, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}"""
    with pytest.raises(Exception, match="UIADD3 writes different values"):
        _run(text)


# ---- options and targets --------------------------------------------------

def test_bad_option_is_an_error() -> None:
    m = _parse(_KERNEL)
    with pytest.raises(PassFailedException, match="max-copies must be 0 or more"):
        apply_pipeline(m, "ori-uniform{max-copies=-1}")
    with pytest.raises(PassFailedException, match="hot-copies must be 0 or more"):
        apply_pipeline(m, "ori-uniform{hot-copies=-2}")
    with pytest.raises(PassFailedException, match="hot-goal must be one of occupancy, registers"):
        apply_pipeline(m, "ori-uniform{hot-goal=size}")


def test_targets_without_uniform_registers_are_left_alone() -> None:
    m = _parse(_KERNEL.replace("sm_80", "sm_70"))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, "ori-uniform{remarks=true}")
    assert _uniform_values(m) == 0
    assert "sm_70 has no uniform registers" in err.getvalue()


# ---- calls (ori_dialect/ops/uniform_calls.py) ------------------------

_CALLS = LIT_DIR / "calls.mlir"


def test_uniform_writers_follow_the_calls() -> None:
    from ori_dialect.ops.control import CallOp
    from ori_dialect.ops.uniform_calls import UniformWriters, module_functions

    m = _parse(_CALLS.read_text())
    w = UniformWriters(module_functions(m))
    assert w.writers == {"writes", "wrapper", "across_writer"}  # a kernel calling one too
    calls = {op.callee_name(): op for op in m.walk() if isinstance(op, CallOp)}
    assert not w.may_write(calls["leaf"])  # type: ignore[arg-type]
    assert w.may_write(calls["wrapper"]) and w.may_write(calls["writes"])  # type: ignore[arg-type]


def test_uniform_writers_recursion_and_runtime_functions() -> None:
    from ori_dialect.ops.control import CallOp
    from ori_dialect.ops.uniform_calls import UniformWriters, module_functions

    m = _parse("""builtin.module attributes {ori.target = "sm_80"} {
  ori.runtime_func @malloc : (!ori.r64) -> !ori.r64
  ori.func @rec(%x: !ori.r32) -> !ori.r32 {
    %y = ori.call @rec(%x) : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }
  ori.func @alloc(%x: !ori.r64) -> !ori.r64 {
    %y = ori.call @malloc(%x) : (!ori.r64) -> !ori.r64
    ori.ret %y : !ori.r64
  }
}""")
    w = UniformWriters(module_functions(m))
    assert w.writers == {"alloc"}  # the runtime function is outside the module's ori.funcs
    calls = {op.callee_name(): op for op in m.walk() if isinstance(op, CallOp)}
    assert not w.may_write(calls["rec"])  # type: ignore[arg-type]
    assert w.may_write(calls["malloc"])  # type: ignore[arg-type]


def _calls_outcome(kernel: str, m: ModuleOp, physical: bool = True) -> np.ndarray | None:
    from ori_dialect.testing.equivalence import run_launch

    out = np.zeros(32, np.uint32)
    res = run_launch(m, kernel, [out, np.uint32(3), np.uint32(4)], 1, 32, physical=physical)
    return None if res.results is None else res.results[0]


def test_uniform_value_across_calls_in_the_physical_interpreter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A UR value across a call to @leaf survives the physical interpreter,
    which fills the uniform registers with garbage after a call that may
    write them; letting ori-uniform move the stride across @wrapper (which
    reaches @writes) changes the result there and the allocation checker
    names the call."""
    from ori_dialect.ops import uniform_calls
    from passes.regalloc.checker import check_module

    pipe = "ori-uniform,ori-abi,ori-regalloc"
    want = {k: _calls_outcome(k, _parse(_CALLS.read_text()), physical=False)
            for k in ("across_leaf", "across_writer")}
    assert all(v is not None for v in want.values())
    m = _parse(_CALLS.read_text())
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, pipe)
    assert check_module(m) == []
    for k, v in want.items():
        np.testing.assert_array_equal(_calls_outcome(k, m), v)

    m = _parse(_CALLS.read_text())
    monkeypatch.setattr(uniform_calls.UniformWriters, "may_write", lambda self, call: False)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, pipe)
    monkeypatch.undo()
    got = _calls_outcome("across_writer", m)
    assert got is None or not np.array_equal(got, want["across_writer"])
    assert any("may write the uniform registers" in p for p in check_module(m)), check_module(m)
