"""The cached analysis manager and pass preservation (ori_dialect.analysis.manager)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from ori_dialect.analysis import (
    CFG,
    PRESERVES_ALL,
    AnalysisManager,
    DominatorTree,
    Liveness,
    LoopInfo,
    RegisterPressure,
    functions_of,
    preserved_by,
    run_and_invalidate,
)
from ori_dialect.dialect import Ori
from passes.print_liveness import PrintLivenessPass
from passes.print_loops import PrintLoopsPass

TEXT = """
builtin.module {
  ori.func kernel @k() {
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %i2, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.exit
  }
  ori.func @f(%x : !ori.r32) -> !ori.r32 {
    ori.ret %x : !ori.r32
  }
}
"""


def parse() -> ModuleOp:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return Parser(ctx, TEXT).parse_module()


class Counting:
    """A toy analysis that counts how often it is computed and uses the CFG."""

    runs: ClassVar[int] = 0

    def __init__(self, cfg: CFG) -> None:
        self.cfg = cfg

    @classmethod
    def compute(cls, func: Operation, am: AnalysisManager) -> Counting:
        cls.runs += 1
        return cls(am.get(CFG, func))


def test_cached_per_function() -> None:
    m = parse()
    k, f = functions_of(m)
    am = AnalysisManager()
    Counting.runs = 0
    a = am.get(Counting, k)
    assert am.get(Counting, k) is a
    assert Counting.runs == 1
    b = am.get(Counting, f)
    assert b is not a and Counting.runs == 2
    assert a.cfg is am.get(CFG, k)
    assert am.cached(Counting, k) is a
    assert am.cached(LoopInfo, k) is None


def test_dependencies_come_from_the_cache() -> None:
    (k, _) = functions_of(parse())
    am = AnalysisManager()
    li = am.get(LoopInfo, k)
    rp = am.get(RegisterPressure, k)
    assert li.cfg is am.get(CFG, k) is rp.liveness.cfg
    assert li.domtree is am.get(DominatorTree, k)
    assert rp.liveness is am.get(Liveness, k)
    assert am.computed == 5  # CFG, DominatorTree, LoopInfo, Liveness, RegisterPressure


def test_invalidate_keeps_preserved() -> None:
    k, f = functions_of(parse())
    am = AnalysisManager()
    cfg = am.get(CFG, k)
    dt = am.get(DominatorTree, k)
    lv = am.get(Liveness, k)
    fcfg = am.get(CFG, f)
    am.invalidate(k, preserved=[CFG, DominatorTree])
    assert am.cached(CFG, k) is cfg and am.cached(DominatorTree, k) is dt
    assert am.cached(Liveness, k) is None
    assert am.get(Liveness, k) is not lv
    assert am.cached(CFG, f) is fcfg  # other functions untouched
    am.invalidate(k)
    assert am.cached(CFG, k) is None and am.cached(DominatorTree, k) is None
    am.invalidate(f, PRESERVES_ALL)
    assert am.cached(CFG, f) is fcfg
    am.invalidate_all()
    assert am.cached(CFG, f) is None


@dataclass(frozen=True)
class TouchesNothingButLiveness(ModulePass):
    name = "test-touch"
    PRESERVES: ClassVar[frozenset[type]] = frozenset({CFG, DominatorTree, LoopInfo})

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class DeclaresNothing(ModulePass):
    name = "test-nothing"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


def test_run_and_invalidate() -> None:
    m = parse()
    k, f = functions_of(m)
    am = AnalysisManager()
    li = am.get(LoopInfo, k)
    am.get(Liveness, k)
    am.get(Liveness, f)
    run_and_invalidate(TouchesNothingButLiveness(), m, am)
    assert am.cached(LoopInfo, k) is li
    assert am.cached(Liveness, k) is None and am.cached(Liveness, f) is None
    run_and_invalidate(PrintLoopsPass(), m, am)
    assert am.cached(LoopInfo, k) is li
    run_and_invalidate(DeclaresNothing(), m, am)
    assert am.cached(LoopInfo, k) is None and am.cached(CFG, f) is None


def test_preserved_by() -> None:
    assert preserved_by(PrintLoopsPass) == PRESERVES_ALL
    assert preserved_by(PrintLivenessPass()) == PRESERVES_ALL
    assert preserved_by(DeclaresNothing()) == frozenset()


def test_print_passes_leave_ir_unchanged(capsys: object) -> None:
    m = parse()
    before = str(m)
    ctx = Context()
    PrintLoopsPass().apply(ctx, m)
    PrintLivenessPass(per_op=True).apply(ctx, m)
    assert str(m) == before
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "loops in @k:" in out and "liveness in @f:" in out
