"""Back edges, natural loops, nesting and irreducible flow (ori_dialect.analysis.loops)."""

from __future__ import annotations

import io
import random

import pytest

from ori_dialect.analysis import CFG, AnalysisManager, DominatorTree, Loop, LoopInfo
from ori_dialect.ops.func import FuncOp
from passes.print_loops import PrintLoopsPass
from tests.conftest import cfg_text, parse


def loops_of(succs: list[list[int]]) -> LoopInfo:
    f = parse(cfg_text(succs)).ops.first
    assert isinstance(f, FuncOp)
    return LoopInfo.compute(f)


def summary(lp: Loop) -> tuple[int, list[int], tuple[int, ...], int]:
    return lp.header, sorted(lp.blocks), lp.latches, lp.depth


def test_no_loops() -> None:
    li = loops_of([[1], [2, 3], [4], [4], []])
    assert li.loops == [] and li.back_edges == [] and li.irreducible_edges == []
    assert li.depths() == [0] * 5
    assert li.loop_for(2) is None


def test_self_loop() -> None:
    li = loops_of([[1], [1, 2], []])
    (lp,) = li.loops
    assert summary(lp) == (1, [1], (1,), 1)
    assert lp.preheader == 0
    assert lp.exiting_blocks == (1,) and lp.exit_blocks == (2,)
    assert [(e.src, e.dst) for e in lp.exit_edges] == [(1, 2)]
    assert li.depths() == [0, 1, 0]


def test_nested_three_deep() -> None:
    # 0 -> 1(h1) -> 2(h2) -> 3(h3) -> 3|4 ; 4 -> 2|5 ; 5 -> 1|6 ; 6 exit
    li = loops_of([[1], [2], [3], [3, 4], [2, 5], [1, 6], []])
    outer = li.loop_with_header(1)
    mid = li.loop_with_header(2)
    inner = li.loop_with_header(3)
    assert outer and mid and inner
    assert summary(outer) == (1, [1, 2, 3, 4, 5], (5,), 1)
    assert summary(mid) == (2, [2, 3, 4], (4,), 2)
    assert summary(inner) == (3, [3], (3,), 3)
    assert inner.parent is mid and mid.parent is outer and outer.parent is None
    assert outer.children == [mid] and mid.children == [inner]
    assert li.top_level == [outer]
    assert li.depths() == [0, 1, 2, 3, 2, 1, 0]
    assert li.loop_for(3) is inner and li.loop_for(4) is mid and li.loop_for(6) is None
    assert [lp.header for lp in li.innermost_first()] == [3, 2, 1]
    assert [lp.header for lp in li.outermost_first()] == [1, 2, 3]
    assert outer.preheader == 0
    assert mid.preheader == 1
    # block 2 has preds 1 and 4 (latch); 1 has 2 as its only successor
    assert inner.preheader == 2
    assert inner.exit_blocks == (4,) and mid.exit_blocks == (5,) and outer.exit_blocks == (6,)


def test_multiple_latches() -> None:
    # 1 header; 2 -> 1 | 3; 3 -> 1 | 4 ; two back edges into 1
    li = loops_of([[1], [2], [1, 3], [1, 4], []])
    (lp,) = li.loops
    assert summary(lp) == (1, [1, 2, 3], (2, 3), 1)
    assert len(li.back_edges) == 2
    assert lp.exiting_blocks == (3,) and lp.exit_blocks == (4,)


def test_two_disjoint_loops() -> None:
    li = loops_of([[1], [1, 2], [3], [3, 4], []])
    assert [summary(lp) for lp in li.loops] == [(1, [1], (1,), 1), (3, [3], (3,), 1)]
    assert li.top_level == li.loops
    assert li.loops[1].preheader == 2


def test_loop_exiting_from_middle() -> None:
    # header 1 -> 2 ; 2 -> 3 | 5 (exit from the middle) ; 3 -> 1 (latch)
    li = loops_of([[1], [2], [3, 5], [1], [], []])
    (lp,) = li.loops
    assert summary(lp) == (1, [1, 2, 3], (3,), 1)
    assert lp.exiting_blocks == (2,) and lp.exit_blocks == (5,)
    assert 4 in li.cfg.unreachable


def test_no_preheader_when_two_outside_preds() -> None:
    # 0 -> 1 ; 1 -> 2 | 3 ; 2 -> 3 ; 3 (header) -> 3 | 4
    li = loops_of([[1], [2, 3], [3], [3, 4], []])
    (lp,) = li.loops
    assert lp.header == 3 and lp.preheader is None


def test_no_preheader_when_pred_branches_elsewhere() -> None:
    li = loops_of([[1], [2, 3], [2, 3], []])
    (lp,) = li.loops
    assert lp.header == 2 and lp.preheader is None


def test_irreducible_region() -> None:
    # 1 -> 2 | 3 ; 2 -> 3 | 4 ; 3 -> 2 ; two entries into the {2, 3} cycle
    li = loops_of([[1], [2, 3], [3, 4], [2], []])
    assert li.loops == []
    assert len(li.irreducible_edges) == 1
    e = li.irreducible_edges[0]
    assert {e.src, e.dst} == {2, 3}
    (r,) = li.irreducible_regions
    assert r.blocks == frozenset({2, 3}) and r.entries == (2, 3)
    assert li.depths() == [0] * 5


def test_irreducible_inside_natural_loop() -> None:
    # outer loop header 1 with latch 4; inside, 2 and 3 entered both from 1
    li = loops_of([[1], [2, 3], [3, 4], [2, 4], [1, 5], []])
    (lp,) = li.loops
    assert lp.header == 1 and sorted(lp.blocks) == [1, 2, 3, 4]
    (r,) = li.irreducible_regions
    assert r.blocks == frozenset({2, 3})


def test_unreachable_cycle_is_no_loop() -> None:
    li = loops_of([[1], [], [3], [2]])
    assert li.loops == [] and li.irreducible_edges == []


def test_manager_shares_dominators() -> None:
    f = parse(cfg_text([[1], [1, 2], []])).ops.first
    assert isinstance(f, FuncOp)
    am = AnalysisManager()
    li = am.get(LoopInfo, f)
    assert li.domtree is am.get(DominatorTree, f)
    assert li.cfg is am.get(CFG, f)


def test_print_pass_format() -> None:
    m = parse(cfg_text([[1], [2], [3], [3, 4], [2, 5], [1, 6], [], []]))
    out = io.StringIO()
    PrintLoopsPass().print_module(m, out)
    assert out.getvalue().splitlines() == [
        "loops in @k:",
        (
            "  loop ^bb1 depth 1: blocks ^bb1 ^bb2 ^bb3 ^bb4 ^bb5 latches ^bb5 exiting ^bb5 "
            "exits ^bb6 preheader ^bb0"
        ),
        (
            "    loop ^bb2 depth 2: blocks ^bb2 ^bb3 ^bb4 latches ^bb4 exiting ^bb4 exits ^bb5 "
            "preheader ^bb1"
        ),
        (
            "      loop ^bb3 depth 3: blocks ^bb3 latches ^bb3 exiting ^bb3 exits ^bb4 "
            "preheader ^bb2"
        ),
        "  unreachable ^bb7",
        "  loop-depth ^bb0=0 ^bb1=1 ^bb2=2 ^bb3=3 ^bb4=2 ^bb5=1 ^bb6=0 ^bb7=0",
    ]


# ----------------------------------------------------------------------
# randomized: loop bodies against the definition
# ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(30))
def test_random_loops_match_definition(seed: int) -> None:
    rng = random.Random(1000 + seed)
    n = rng.randrange(2, 30)
    succs: list[list[int]] = [[1]]
    for _ in range(1, n):
        k = rng.choice([0, 1, 2, 2])
        succs.append([rng.randrange(1, n) for _ in range(k)])
    li = loops_of(succs)
    cfg, dt = li.cfg, li.domtree
    headers = {e.dst for e in li.back_edges}
    assert {lp.header for lp in li.loops} == headers
    for e in cfg.edges:
        if cfg.is_reachable(e.src) and dt.dominates(e.dst, e.src):
            assert e in li.back_edges
    for lp in li.loops:
        # every block of the loop reaches a latch without passing the header,
        # and is dominated by the header
        for b in lp.blocks:
            assert dt.dominates(lp.header, b)
        for lat in lp.latches:
            assert lat in lp.blocks
        # nesting: children are strict subsets
        for c in lp.children:
            assert c.blocks < lp.blocks and c.depth == lp.depth + 1
    for b in range(n):
        expect = sum(1 for lp in li.loops if b in lp.blocks)
        assert li.depth(b) == expect
