"""Unit tests of ``ori-hoist-invariants``: stage 1's budget arithmetic, stage
5's formula and vacuous rule, the alias rule, the override string, the four
registered instances and their place in ``ori-ptxas``, idempotence on every
example, and a loop the pass cannot analyse."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.metadata import MemSpace
from ori_dialect.ir.registers import r32
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context, module_text
from ori_dialect.testing.generator import generate
from passes.hoist_invariants import (
    PASS_NAMES,
    HoistInvariantsLate3Pass,
    HoistInvariantsPass,
    parse_policy_override,
)
from passes.hoist_invariants.budget import (
    BACK_EDGE,
    CONDITIONAL,
    DOMINATED,
    HEADER,
    BudgetKnobs,
    hoist_budget,
)
from passes.hoist_invariants.profitability import is_profitable
from passes.hoist_invariants.safety import may_alias
from passes.pipeline import PHASES
from passes.registry import all_passes

ROOT = Path(__file__).resolve().parents[3]


def knobs(pid: int, inv: float | None = None) -> BudgetKnobs:
    return BudgetKnobs(pid, 10.0, inv if inv is not None else (22.0 if pid == 0 else 100.0), 10)


# ---------------------------------------------------------------- stage 1
@pytest.mark.parametrize(("pid", "simple", "mode", "edges", "inner", "want"), [
    (0, True, HEADER, 1, False, 22.0),
    (0, True, DOMINATED, 1, False, 22.0),
    (0, True, CONDITIONAL, 1, False, 200.0),
    (1, True, CONDITIONAL, 1, False, 300.0),
    (1, True, HEADER, 1, False, 100.0),
    (2, True, BACK_EDGE, 2, False, 150.0),  # 300 split between two back edges
    (0, True, BACK_EDGE, 4, False, 50.0),
    (3, True, HEADER, 1, False, 10000.0),  # Late3: x100
    (3, True, BACK_EDGE, 2, False, 15000.0),
    (0, False, HEADER, 1, False, 10.0),  # multi-depth: HoistBudget
    (0, False, DOMINATED, 1, True, 1.0),  # inner block: / HoistConservativeScale
    (3, False, BACK_EDGE, 2, True, 50.0),  # 10 x 100 / 2 / 10
])
def test_stage1_budget(pid: int, simple: bool, mode: int, edges: int, inner: bool, want: float) -> None:
    got = hoist_budget(knobs(pid), is_simple=simple, hoist_mode=mode, num_back_edges=edges,
                       is_inner=inner)
    assert got == want


def test_stage1_zero_is_unlimited() -> None:
    assert hoist_budget(knobs(0, 0.0), is_simple=True, hoist_mode=HEADER, num_back_edges=1,
                        is_inner=False) is None
    k = BudgetKnobs(1, 0.0, 100.0, 10)
    assert hoist_budget(k, is_simple=False, hoist_mode=HEADER, num_back_edges=1,
                        is_inner=False) is None


# ---------------------------------------------------------------- stage 5
def _block_ops() -> tuple[list[Operation], set[Operation]]:
    fb = FuncBuilder("k", kernel=True, params=[(8, 8)])
    n = fb.mov(cbank(0, 0x210))
    k = fb.imad(n, 3, n)
    k2 = fb.lop3(k, n, RZ, 0x96)
    s = fb.iadd3(k, k2, RZ)
    ops = [k.owner, k2.owner, s.owner]
    return ops, {k.owner, k2.owner}


def test_stage5_weights_and_denominators() -> None:
    ops, inv = _block_ops()
    # pass 0, safe: score 2 (two real invariants), no scoreboarded result:
    # 2 x 22 / (5 x 3) >= 0
    v = is_profitable(ops, inv, pass_id=0, budget=22.0, is_hoist_safe=True,
                      header_weight=90, body_weight=0)
    assert v.profitable and v.score == 2 and v.penalty == 0 and v.denominator == 3
    assert v.real_weight == 5
    # later passes: denominator body / 3 + header
    v = is_profitable(ops, inv, pass_id=1, budget=100.0, is_hoist_safe=False,
                      header_weight=90, body_weight=300)
    assert v.denominator == 190 and v.real_weight == 1


def test_stage5_vacuous_rule() -> None:
    ops, _ = _block_ops()
    # no invariant: pass 0 rejects outright, later passes go through the
    # formula with score 0 and penalty 0 (vacuously profitable)
    assert not is_profitable(ops, set(), pass_id=0, budget=22.0, is_hoist_safe=True,
                             header_weight=90, body_weight=0).profitable
    v = is_profitable(ops, set(), pass_id=2, budget=100.0, is_hoist_safe=True,
                      header_weight=90, body_weight=0)
    assert v.profitable and v.score == 0 and v.penalty == 0
    # ... unless the denominator is 0
    assert not is_profitable(ops, set(), pass_id=2, budget=100.0, is_hoist_safe=True,
                             header_weight=0, body_weight=0).profitable


# ---------------------------------------------------------------- safety
def test_alias_rule() -> None:
    G, S, L, C, X = MemSpace.GLOBAL, MemSpace.SHARED, MemSpace.LOCAL, MemSpace.CONST, MemSpace.GENERIC
    assert may_alias(G, G) and may_alias(S, S) and may_alias(L, L)
    assert not may_alias(S, G) and not may_alias(G, S) and not may_alias(L, G)
    assert may_alias(X, S) and may_alias(G, X)
    assert not may_alias(G, C) and not may_alias(None, C) and not may_alias(X, C)
    assert may_alias(None, G)


# ---------------------------------------------------------------- options
def test_policy_override() -> None:
    assert parse_policy_override("") == {}
    assert parse_policy_override("3=3, *=1") == {3: 3, -1: 1}
    for bad in ("3", "3=2", "x=1", "3=1,,"):
        with pytest.raises(ValueError):
            parse_policy_override(bad)


def test_four_instances_registered() -> None:
    reg = all_passes()
    assert reg["ori-hoist-invariants"]() is HoistInvariantsPass
    for pid, name in enumerate(PASS_NAMES):
        cls = reg[name]()
        assert cls.name == name and cls().effective_id == pid
    assert HoistInvariantsPass(pass_id=2).effective_id == 2
    assert HoistInvariantsLate3Pass().knobs({}).budget.loop_inv_budget == 100.0


def test_phases_in_ptxas() -> None:
    got = {p.number: p.pass_name for p in PHASES if p.pass_name.startswith("ori-hoist")}
    assert got == dict(zip((35, 66, 79, 88), PASS_NAMES, strict=True))


# ---------------------------------------------------------------- behaviour
def _counting_loop() -> tuple[ModuleOp, SSAValue]:
    fb = FuncBuilder("k", kernel=True, params=[(8, 8), (4, 4)])
    n = fb.mov(cbank(0, 0x218))
    z = fb.mov(0)
    loop = fb.block(r32, r32)
    done = fb.block()
    fb.bra(loop, z, z)
    with fb.at(loop):
        i, s = loop.args
        k = fb.imad(n, 3, n)
        s2 = fb.iadd3(s, k, i)
        i2 = fb.iadd3(i, 1, RZ)
        p = fb.isetp(i2, n, PT, mods="lt.u32")
        fb.bra(loop, i2, s2, guard=p, fallthrough=done)
    with fb.at(done):
        fb.exit()
    return module(fb.func, target="sm_80"), k


def test_moves_into_preheader_and_is_idempotent() -> None:
    m, k = _counting_loop()
    apply_pipeline(m, "ori-hoist-invariants")
    func = next(iter(m.body.block.ops))
    entry = func.regions[0].blocks.first
    assert k.owner.parent_block() is entry
    once = module_text(m)
    apply_pipeline(m, "ori-hoist-invariants")
    assert module_text(m) == once


def _inputs() -> list[Path]:
    ptx = sorted((ROOT / "examples" / "ptx").glob("sm_*/*.ptx"))
    return ptx + sorted((ROOT / "tests" / "filecheck" / "passes" / "hoist-invariants").glob("*.mlir"))


@pytest.mark.parametrize("pipe", [
    ("ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,"
     "ori-hoist-invariants-early,ori-hoist-invariants-late,ori-hoist-invariants-late2,"
     "ori-hoist-invariants-late3"),
    "ori-hoist-invariants{pass-id=3 use-new-loop-invariant-routine-for-hoisting=true}",
])
def test_second_run_hoists_nothing(pipe: str) -> None:
    """Idempotence (issue 15, item 6): after the pipeline, another run of
    every instance leaves every example and generated program unchanged."""
    mods = []
    for path in _inputs():
        if path.suffix == ".ptx":
            mods.append(import_ptx(path.read_text(), str(path)))
        else:
            for chunk in path.read_text().split("// -----"):
                if "ori.func" in chunk:
                    mods.append(Parser(make_context(), chunk, "lit").parse_module())
    mods += [generate(s).module for s in range(8)]
    moved = 0
    for m in mods:
        before = module_text(m)
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, pipe)
        moved += module_text(m) != before
        once = module_text(m)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            apply_pipeline(m, "ori-hoist-invariants{pass-id=0 remarks=true},"
                           "ori-hoist-invariants{pass-id=3 remarks=true}")
        assert module_text(m) == once
        assert re.search(r"hoisted \d+ instruction", err.getvalue()) is None
    assert moved > 10


def test_unanalysable_loop_is_left_with_a_remark() -> None:
    """A loop whose header is the function's entry block can have no
    preheader: it is left unchanged with a remark, never a traceback."""
    text = """
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @entry() attributes {params = [#ori.param<4, align 4, at 0x0>]} {
  ^bb0:
    %n = ori.mov c[0x0][0x210] : () -> !ori.r32
    %k = ori.imad %n, 0x3, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %k, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb0, ^bb1
  ^bb1:
    ori.bra ^bb2
  ^bb2:
    ori.exit
  }
}"""
    m = Parser(make_context(), text, "t").parse_module()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, "ori-hoist-invariants{remarks=true}")
    assert ("remark: @entry ^bb0: not hoisted: the header is the function's entry block "
            "(no preheader can exist)") in err.getvalue()
    assert module_text(m) == module_text(Parser(make_context(), text, "t").parse_module())
