"""CFG, RPO and dominator tests (ori_dialect.analysis.cfg / .dominators)."""

from __future__ import annotations

import random

import pytest

from ori_dialect.analysis import CFG, AnalysisManager, DominatorTree
from ori_dialect.ops.func import FuncOp
from tests.conftest import cfg_text, parse


def func_of(succs: list[list[int]]) -> FuncOp:
    m = parse(cfg_text(succs))
    f = m.ops.first
    assert isinstance(f, FuncOp)
    return f


def build(succs: list[list[int]]) -> tuple[CFG, DominatorTree]:
    f = func_of(succs)
    cfg = CFG.compute(f)
    return cfg, DominatorTree(cfg)


def test_straight_line() -> None:
    cfg, dt = build([[1], [2], []])
    assert cfg.succs == [[1], [2], []]
    assert cfg.preds == [[], [0], [1]]
    assert cfg.rpo == [0, 1, 2]
    assert cfg.unreachable == []
    assert [dt.idom(b) for b in range(3)] == [None, 0, 1]
    assert dt.dominates(0, 2) and dt.dominates(1, 2) and not dt.dominates(2, 1)
    assert dt.children == [[1], [2], []]


def test_diamond() -> None:
    cfg, dt = build([[1], [2, 3], [4], [4], []])
    assert cfg.rpo[0] == 0 and cfg.rpo[1] == 1 and cfg.rpo[-1] == 4
    assert sorted(cfg.preds[4]) == [2, 3]
    assert [dt.idom(b) for b in range(5)] == [None, 0, 1, 1, 1]
    assert not dt.dominates(2, 4) and not dt.dominates(3, 4)
    assert dt.dominates(1, 4)
    assert sorted(dt.children[1]) == [2, 3, 4]
    assert len(cfg.edges) == 5


def test_duplicate_successor_edges() -> None:
    # a guarded BRA naming the same block twice: two edges, one succ entry
    cfg, dt = build([[1], [2, 2], []])
    assert cfg.succs[1] == [2]
    assert cfg.preds[2] == [1]
    es = cfg.out_edges[1]
    assert [(e.src, e.dst, e.slot) for e in es] == [(1, 2, 0), (1, 2, 1)]
    assert len(cfg.in_edges[2]) == 2
    assert dt.idom(2) == 1


def test_unreachable_blocks() -> None:
    cfg, dt = build([[1], [], [1], [2]])
    assert cfg.unreachable == [2, 3]
    assert not cfg.is_reachable(2)
    assert cfg.rpo == [0, 1]
    assert dt.idom(2) is None and dt.idom(3) is None
    assert dt.unreachable == [2, 3]
    assert not dt.dominates(0, 2) and not dt.dominates(2, 1)
    assert dt.dominates(2, 2)
    assert dt.dominators(3) == []
    # the reachable block 1 has an unreachable predecessor: idom is still 0
    assert dt.idom(1) == 0


def test_self_loop_retreating() -> None:
    cfg, dt = build([[1], [1, 2], []])
    e = next(e for e in cfg.edges if e.src == 1 and e.dst == 1)
    assert cfg.is_retreating(e)
    assert dt.dominates(1, 1)


def test_reachable_from_and_postorder() -> None:
    cfg, _ = build([[1], [2, 3], [1], []])
    assert cfg.reachable_from(2) == {1, 2, 3}
    assert cfg.postorder() == cfg.rpo[::-1]


def test_deep_chain_no_recursion() -> None:
    n = 5000
    succs = [[i + 1] for i in range(n - 1)] + [[]]
    cfg, dt = build(succs)
    assert cfg.rpo == list(range(n))
    assert dt.idom(n - 1) == n - 2
    assert dt.dominates(0, n - 1)
    assert dt.depth(n - 1) == n - 1


def test_through_manager() -> None:
    f = func_of([[1], [2, 3], [4], [4], []])
    am = AnalysisManager()
    dt = am.get(DominatorTree, f)
    assert dt.cfg is am.get(CFG, f)


# ----------------------------------------------------------------------
# randomized cross-check against a naive set-based dominator computation
# ----------------------------------------------------------------------
def random_cfg(rng: random.Random, n: int) -> list[list[int]]:
    succs: list[list[int]] = [[1]]
    for _ in range(1, n):
        r = rng.random()
        if r < 0.15:
            succs.append([])
        elif r < 0.5:
            succs.append([rng.randrange(1, n)])
        else:
            succs.append([rng.randrange(1, n), rng.randrange(1, n)])
    return succs


def naive_dominators(succs: list[list[int]]) -> list[set[int] | None]:
    n = len(succs)
    preds: list[set[int]] = [set() for _ in range(n)]
    for b, ss in enumerate(succs):
        for s in ss:
            preds[s].add(b)
    reach = {0}
    work = [0]
    while work:
        b = work.pop()
        for s in succs[b]:
            if s not in reach:
                reach.add(s)
                work.append(s)
    dom: list[set[int] | None] = [set(reach) if b in reach else None for b in range(n)]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in range(1, n):
            if b not in reach:
                continue
            ps = [dom[p] for p in preds[b] if p in reach]
            new = set.intersection(*ps) | {b} if ps else {b}  # type: ignore[arg-type]
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


@pytest.mark.parametrize("seed", range(40))
def test_random_dominators(seed: int) -> None:
    rng = random.Random(seed)
    succs = random_cfg(rng, rng.randrange(2, 40))
    cfg, dt = build(succs)
    ref = naive_dominators(succs)
    n = len(succs)
    for b in range(n):
        r = ref[b]
        if r is None:
            assert not cfg.is_reachable(b) and dt.idom(b) is None
            continue
        assert set(dt.dominators(b)) == r
        for a in range(n):
            assert dt.dominates(a, b) == (a in r), (seed, a, b)
        if b != 0:
            # idom: the strict dominator dominated by all other strict dominators
            strict = r - {b}
            idom = next(d for d in strict if all(x in ref[d] for x in strict))  # type: ignore[operator]
            assert dt.idom(b) == idom
    # RPO: every non-retreating edge goes forward
    for e in cfg.edges:
        if cfg.is_reachable(e.src) and not cfg.is_retreating(e):
            assert cfg.rpo_index[e.src] < cfg.rpo_index[e.dst]
