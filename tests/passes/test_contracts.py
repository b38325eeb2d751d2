"""Pass contracts (``passes/contract.py``): every option described, every pass
declaring REQUIRES and PRESERVES, each requirement checker rejecting a
violating input with its message and accepting the example inputs, and the
remark helpers writing the texts the passes always wrote."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, get_pass_option_infos
from xdsl.utils.arg_spec import parse_spec

from ori_dialect.analysis import CFG
from ori_dialect.analysis.manager import AllAnalyses
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline
from ori_dialect.testing.fuzz import is_not_applicable
from passes.contract import (
    CFG_ANALYSES,
    ContractViolation,
    Requirement,
    emit_line,
    emit_remark,
    emit_stats,
    option,
    option_infos,
    require,
    violation,
)
from passes.registry import all_passes
from tests.conftest import cfg_text, parse

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.mlir")) + sorted(
    (REPO / "tests" / "golden" / "inputs").glob("*.mlir"))
PASSES = {name: factory() for name, factory in all_passes().items()}

KERNEL = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %a = ori.mov 0x1 : () -> !ori.r32
    %b = ori.iadd3 %a, %a, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.exit
  }
}
"""


def only_func(m: ModuleOp) -> FuncOp:
    return next(op for op in m.walk() if isinstance(op, FuncOp))


# ---------------------------------------------------------------- declarations


@pytest.mark.parametrize("name", PASSES)
def test_every_option_has_a_description(name: str) -> None:
    fields = dataclasses.fields(PASSES[name])
    infos = option_infos(PASSES[name])
    assert len(infos) == len(fields)
    for f, info in zip(fields, infos, strict=True):
        assert info.doc.strip(), f"{name}: option {info.name} has no description"
        assert info.name == f.name.replace("_", "-")


@pytest.mark.parametrize("name", PASSES)
def test_every_pass_declares_requires_and_preserves(name: str) -> None:
    cls = PASSES[name]
    assert isinstance(getattr(cls, "REQUIRES", None), frozenset), name
    assert all(isinstance(r, Requirement) for r in cls.REQUIRES)  # type: ignore[attr-defined]
    assert isinstance(getattr(cls, "PRESERVES", None), frozenset), name
    assert getattr(cls, "SELF_CHECKED", frozenset()) <= cls.REQUIRES  # type: ignore[attr-defined]
    assert cls.__doc__ and cls.__doc__.strip(), f"{name} has no summary line"


def test_options_keep_xdsl_parsing_and_defaults() -> None:
    unroll = PASSES["ori-loop-unroll"]
    p = unroll.from_pass_spec(parse_spec("ori-loop-unroll{unroll-budget=7 remarks=true}"))
    assert (p.unroll_budget, p.remarks, p.unroll_unknown_count) == (7, True, 4)  # type: ignore[attr-defined]
    infos = {i.name: i for i in get_pass_option_infos(PASSES["ori-regalloc"])}
    assert infos["max_regs"].default_value == "none"
    assert infos["spill_cost"].default_value == "15.0"
    assert unroll().spec().name == "ori-loop-unroll"


def test_option_needs_a_description() -> None:
    with pytest.raises(ValueError, match="description"):
        option(1, " ")


@pytest.mark.parametrize("name", ["ori-dead-code"])
def test_cfg_preserving_passes_keep_every_block(name: str) -> None:
    # ori-general-optimize declares the same (checked in its own tests)
    assert PASSES[name].PRESERVES == CFG_ANALYSES  # type: ignore[attr-defined]
    for path in EXAMPLES[:6]:
        m = parse(path.read_text())
        funcs = [f for f in m.walk() if isinstance(f, FuncOp)]
        before = [(CFG.compute(f).blocks, CFG.compute(f).succs) for f in funcs]
        apply_pipeline(m, name)
        assert [(CFG.compute(f).blocks, CFG.compute(f).succs) for f in funcs] == before


def test_print_passes_preserve_everything() -> None:
    for name in ("ori-print-loops", "ori-print-liveness", "ori-stats", "ori-check-regalloc"):
        assert AllAnalyses in PASSES[name].PRESERVES  # type: ignore[attr-defined]


# ---------------------------------------------------------------- checkers


def test_ssa_rejects_a_use_before_its_definition() -> None:
    m = parse(KERNEL)
    f = only_func(m)
    a, b = list(f.body.blocks[0].ops)[:2]
    b.detach()
    f.body.blocks[0].insert_op_before(b, a)
    assert violation(Requirement.SSA, f) == "operand 0 of ori.iadd3 is used before its definition"


def test_ssa_rejects_a_value_of_another_function() -> None:
    m = parse(KERNEL)
    other = parse(KERNEL)
    f = only_func(m)
    b = list(f.body.blocks[0].ops)[1]
    b.operands = [next(iter(only_func(other).body.blocks[0].ops)).results[0], *b.operands[1:]]
    assert violation(Requirement.SSA, f) == "operand 0 of ori.iadd3 is not defined in the function"


def test_unallocated_rejects_allocated_code() -> None:
    m = parse(KERNEL)
    apply_pipeline(m, "ori-regalloc")
    why = violation(Requirement.UNALLOCATED, only_func(m))
    assert why is not None and why.startswith("a value already has the physical register R")


def test_allocated_rejects_virtual_registers() -> None:
    why = violation(Requirement.ALLOCATED, only_func(parse(KERNEL)))
    assert why == "a value of type R32Type has no physical register"


def test_loop_simplified_rejects_a_missing_preheader_and_two_latches() -> None:
    # ^bb1 is entered from the guarded ^bb0 (no dedicated preheader)
    f = only_func(parse(cfg_text([[1, 3], [2], [1, 3], []])))
    assert violation(Requirement.LOOP_SIMPLIFIED, f) == (
        "loop at ^bb1 is not in simplified form (no dedicated preheader)")
    # ^bb2 and ^bb3 both branch back to ^bb2
    f = only_func(parse(cfg_text([[1], [2], [3, 2], [2, 4], []])))
    assert violation(Requirement.LOOP_SIMPLIFIED, f) == (
        "loop at ^bb2 is not in simplified form (2 latches)")


def test_target_rejects_a_module_without_target() -> None:
    f = only_func(parse(KERNEL.replace(' attributes {ori.target = "sm_80"}', "")))
    assert violation(Requirement.TARGET, f) == "the module has no ori.target attribute"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_meet_the_requirements(path: Path) -> None:
    m = parse(path.read_text())
    funcs = [f for f in m.walk() if isinstance(f, FuncOp)]
    for req in (Requirement.SSA, Requirement.UNALLOCATED, Requirement.TARGET):
        assert [violation(req, f) for f in funcs] == [None] * len(funcs), req
    apply_pipeline(m, "ori-loop-simplify")
    assert [violation(Requirement.LOOP_SIMPLIFIED, f) for f in funcs] == [None] * len(funcs)
    apply_pipeline(m, "ori-regalloc")
    for req in (Requirement.SSA, Requirement.ALLOCATED):
        assert [violation(req, f) for f in funcs] == [None] * len(funcs), req


# ---------------------------------------------------------------- require()


@dataclass(frozen=True)
class _NeedsLoops(ModulePass):
    """A pass that needs simplified loops."""

    name = "test-needs-loops"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.LOOP_SIMPLIFIED})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)


def test_require_names_pass_function_violation_and_remedy() -> None:
    m = parse(cfg_text([[1, 3], [2], [1, 3], []]))
    with pytest.raises(ContractViolation) as e:
        _NeedsLoops().apply(Context(), m)
    assert str(e.value) == (
        "test-needs-loops: @k: loop at ^bb1 is not in simplified form (no dedicated "
        "preheader); run ori-loop-simplify first")
    assert is_not_applicable(e.value)
    apply_pipeline(m, "ori-loop-simplify")
    _NeedsLoops().apply(Context(), m)


def test_require_leaves_self_checked_requirements_to_the_pass() -> None:
    m = parse(KERNEL)
    with pytest.raises(Exception, match="has not been register-allocated"):
        PASSES["ori-stats"]().apply(Context(), m)


# ---------------------------------------------------------------- remarks


def test_remark_formats(capsys: pytest.CaptureFixture[str]) -> None:
    emit_remark("f", "dead-code [removed=2]")
    emit_remark("k", "unrolled by 4 (partial)", block=2)
    emit_remark("k", "SMEM spilling not applicable", pass_name="ori-regalloc")
    emit_stats("ori-dead-code", "[removed=3]")
    emit_line("ptxas warning : x")
    assert capsys.readouterr().err == (
        "remark: @f: dead-code [removed=2]\n"
        "remark: @k ^bb2: unrolled by 4 (partial)\n"
        "ori-regalloc: @k: remark: SMEM spilling not applicable\n"
        "ori-dead-code: [removed=3]\n"
        "ptxas warning : x\n")
