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
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    assert_pass_preserves,
    check_equivalent,
    check_lit_inputs,
    make_context,
)
from ori_dialect.testing.generator import generate
from passes.regalloc.call_remat import recompute_after_calls
from tests.passes.regalloc.rule_seeds import seeds_where

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
    prog = generate(seed)
    assert_pass_preserves(prog.module, "ori-abi,ori-regalloc,ori-check-regalloc", prog.kernel,
                          prog.input_factory, n=2)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 400))
def test_many_generated_programs_keep_results(seed: int) -> None:
    _rewritten_keeps_results(seed)  # most have values across calls, some none
