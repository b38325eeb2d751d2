"""``call-remat`` (passes/regalloc/call_remat.py): values live across a
call recomputed after it -- results unchanged in the interpreter on the lit
input and on generated programs with calls (the rewrite alone, whether or
not the allocation would keep it, and through ``ori-ptxas``), the values it
must leave alone left alone, and the trial keeping the better allocation."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import Operation
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    check_equivalent,
    check_lit_inputs,
    make_context,
)
from ori_dialect.testing.generator import generate
from passes.regalloc.call_remat import recompute_after_calls
from tests.passes.regalloc.rule_seeds import keeps_results, seeds_where

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "tests" / "filecheck" / "passes" / "regalloc" / "call-remat.mlir"


def _chunk(k: int) -> dict[str, FuncOp]:
    text = LIT.read_text().split("// -----")[k]
    mod = Parser(make_context(), text, "lit").parse_module()
    return {f.sym_name.data: f for f in functions_of(mod)}


def _after_call(func: FuncOp, sass: str) -> list[Operation]:
    """The ops named ``sass`` after the function's (one) call."""
    ops = list(func.walk())
    (call,) = [op for op in ops if isinstance(op, CallOp)]
    return [op for op in ops[ops.index(call):] if op.name == sass]


def test_addresses_recomputed_after_the_call() -> None:
    func = _chunk(0)["recompute"]
    assert recompute_after_calls(func) == 2
    # each address and the constant-bank base it adds, after the call
    assert len(_after_call(func, "ori.imad")) == 2
    assert len(_after_call(func, "ori.ldc")) == 2


CHAINED = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @g(%x: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %y = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %a = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %b = ori.iadd3 %a, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.call @g(%b) : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %r, %a, %b : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
"""


def test_value_computed_from_another_reads_its_clone() -> None:
    """%b = %a + %t and %a = %t + 16 both cross the call: %b's clone reads
    %a's clone, so only %t is live across the call afterwards."""
    mod = Parser(make_context(), CHAINED, "t").parse_module()
    func = next(f for f in functions_of(mod) if f.sym_name.data == "k")
    assert recompute_after_calls(func) == 2
    (call,) = [op for op in func.walk() if isinstance(op, CallOp)]
    lv = Liveness.compute(func)
    across = lv.live_before(call) & lv.live_after(call)
    assert [v.name_hint for v in across] == ["t"]


def test_value_read_again_around_a_loop_left_alone() -> None:
    assert recompute_after_calls(_chunk(1)["loop"]) == 0


def test_device_function_values_recomputed() -> None:
    assert recompute_after_calls(_chunk(2)["twice"]) == 2


def test_kept_only_where_registers_drop() -> None:
    """The trial: @loop's allocation is the one without the rule (nothing
    to do), @recompute's the one with it, and @mix (no call) is allocated
    once, as without the option."""
    text = LIT.read_text()
    for chunk, name, want in ((0, "recompute", 12), (1, "loop", 15)):
        mods = []
        for on in ("true", "false"):
            mod = Parser(make_context(), text.split("// -----")[chunk], "lit").parse_module()
            apply_pipeline(mod, f"ori-abi,ori-regalloc{{call-remat={on}}},ori-check-regalloc")
            mods.append({f.sym_name.data: f for f in functions_of(mod)})
        got = mods[0][name].attributes["ori.num_regs"].value.data  # type: ignore[union-attr]
        assert got == want
        base = mods[1][name].attributes["ori.num_regs"].value.data  # type: ignore[union-attr]
        assert got <= base
        assert str(mods[0]["mix"]) == str(mods[1]["mix"])


def test_results_unchanged(tmp_path: Path) -> None:
    shutil.copy(LIT, tmp_path / LIT.name)
    seen = check_lit_inputs([tmp_path], "ori-abi,ori-regalloc,ori-check-regalloc",
                            seeds=range(4))
    assert seen.kernels == 3


def test_generated_programs_have_values_across_calls() -> None:
    """Not vacuous: the generator's calls give the rule work."""
    assert len(seeds_where(recompute_after_calls, range(40))) >= 5


def _rewritten_keeps_results(seed: int) -> int:
    prog = generate(seed)
    after = prog.module.clone()
    made = sum(recompute_after_calls(f) for f in functions_of(after)
               if isinstance(f, FuncOp))
    after.verify()
    inputs = [prog.input_factory(np.random.default_rng(s)) for s in range(2)]
    check_equivalent(prog.module, after, prog.kernel, inputs, title="call-remat")
    return made


@pytest.mark.parametrize("seed", seeds_where(recompute_after_calls, range(40))[:6])
def test_generated_programs_keep_results(seed: int) -> None:
    assert _rewritten_keeps_results(seed) > 0
    keeps_results(seed, "ori-abi,ori-regalloc,ori-check-regalloc")


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 400))
def test_many_generated_programs_keep_results(seed: int) -> None:
    _rewritten_keeps_results(seed)  # most have values across calls, some none
