"""The live segments of ``passes.regalloc.points`` against the point sets
they encode, and the fat-point busy-set scan against the seed's histogram
scan (``primary_histogram`` + minimum cost / secondary cost / lowest base)."""

from __future__ import annotations

import numpy as np
import pytest

from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.generator import generate
from passes.regalloc.classes import FILE_ORDER, Unit, value_costs
from passes.regalloc.coalesce import build_units
from passes.regalloc.copies import split_ties
from passes.regalloc.fatpoint import candidate_bases, fatpoint_allocate, primary_histogram
from passes.regalloc.ordering import assignment_order
from passes.regalloc.points import LiveMatrix, Segments
from passes.regalloc.trial import FILE_SIZE


def _reference_sets(lm: LiveMatrix) -> list[set[int]]:
    """The values at every point, straight from the module docstring: entry =
    live-in + arguments, after an op = live-after + its results."""
    lv, num = lm.liveness, lm.numbering
    out: list[set[int]] = []
    for b in range(lm.cfg.num_blocks):
        ops = num.ops[b]
        after: list[set[int]] = [set() for _ in ops]
        live: set[int] = set(lv.live_out(b))
        for k, _op, live in lv.walk_backward(b):
            after[k] = set(live) | set(num.op_defs[b][k])
        # after the walk the walker's set holds the values live before op 0
        before_first = set(live)
        out.append(before_first | set(num.arg_ids[b]))
        out.extend(after)
    return out


def _functions(seeds: range) -> list[FuncOp]:
    fs: list[FuncOp] = []
    for s in seeds:
        m = generate(s).module
        for f in m.walk():
            if isinstance(f, FuncOp):
                split_ties(f)
                fs.append(f)
    return fs


@pytest.mark.parametrize("seed", range(6))
def test_segments_encode_the_point_sets(seed: int) -> None:
    for f in _functions(range(seed, seed + 1)):
        lm = LiveMatrix(f)
        ref = _reference_sets(lm)
        assert len(ref) == len(lm.points)
        dense = lm.dense()
        for p, s in enumerate(ref):
            assert set(np.flatnonzero(dense[p]).tolist()) == s, p
            assert set(lm.values_at(p).tolist()) == s, p
        # segments are sorted, disjoint and not adjacent per value
        for v in range(len(lm.numbering)):
            sg = lm.segments(v)
            assert (sg.starts < sg.ends).all()
            assert (sg.starts[1:] > sg.ends[:-1]).all()
        # pressure and live-through queries against the sets
        num = lm.numbering
        for fi in range(len(FILE_ORDER)):
            cols = np.flatnonzero(num.file == fi)
            exp = [sum(int(num.width[v]) for v in s if num.file[v] == fi) for s in ref]
            assert lm.pressure(cols).tolist() == exp
        ps = list(range(1, len(ref), 3))
        for p, got in zip(ps, lm.live_through(ps)):
            assert set(got.tolist()) == ref[p - 1] & ref[p]


def test_segment_set_operations() -> None:
    rng = np.random.default_rng(1)
    n = 200
    for _ in range(120):
        masks = []
        segs = []
        for _ in range(2):
            k = int(rng.integers(0, 6))
            st = rng.integers(0, n, size=k)
            en = st + rng.integers(1, 30, size=k)
            en = np.minimum(en, n)
            s = Segments.of(st, en)
            m = np.zeros(n, dtype=bool)
            for a, b in zip(st.tolist(), en.tolist()):
                m[a:b] = True
            assert (s.mask(n) == m).all()
            assert (s.indices() == np.flatnonzero(m)).all()
            assert len(s) == int(m.sum())
            masks.append(m)
            segs.append(s)
        a, b = segs
        assert a.intersects(b) == bool((masks[0] & masks[1]).any())
        assert (a & b).any() == bool((masks[0] & masks[1]).any())
        assert ((a & b).mask(n) == (masks[0] & masks[1])).all()
        assert ((a | b).mask(n) == (masks[0] | masks[1])).all()


def _reference_allocate(order: list[Unit], allowed: list[int], num_points: int,
                        threshold: int, file_size: int) -> tuple[dict[int, int], list[int]]:
    """The seed's scan on exact primary histograms over a dense points x
    registers occupancy (the implementation before live segments)."""
    occ = np.zeros((num_points, file_size), dtype=np.int32)
    assignment: dict[int, int] = {}
    failed: list[int] = []
    for u in order:
        bases = candidate_bases(allowed, u.width)
        if bases.size == 0:
            failed.append(u.id)
            continue
        idx = np.flatnonzero(u.points.mask(num_points))
        primary = occ[idx].sum(axis=0) if idx.size else np.zeros(file_size, dtype=np.int64)
        cost = np.zeros(bases.size, dtype=np.int64)
        for i in range(u.width):
            cost += primary[bases + i]
        secondary = np.ones(bases.size, dtype=np.int64)
        for h in u.hints:
            hb = assignment.get(h)
            if hb is not None:
                secondary[bases == hb] = 0
        keep = cost <= threshold
        if not keep.any():
            failed.append(u.id)
            continue
        kb, kc, ks = bases[keep], cost[keep], secondary[keep]
        best = np.lexsort((kb, ks, kc))[0]
        if kc[best] > 0:
            failed.append(u.id)
            continue
        b = int(kb[best])
        assignment[u.id] = b
        occ[idx, b : b + u.width] += 1
    return assignment, failed


@pytest.mark.parametrize("seed,limit", [(0, None), (3, 12), (7, 20), (11, 16), (14, 24), (21, 10)])
def test_busy_set_scan_matches_histogram_scan(seed: int, limit: int | None) -> None:
    """fatpoint_allocate assigns (and fails) exactly the units the histogram
    scan does, in every file, with and without a register limit; and its
    occupancy bits agree with primary_histogram."""
    for f in _functions(range(seed, seed + 1)):
        lm = LiveMatrix(f)
        cost, spillable = value_costs(lm, 15.0, 10.0)
        units, _ = build_units(lm, cost, spillable, 10.0, True)
        n = len(lm.points)
        for fl in FILE_ORDER:
            fu = [u for u in units if u.file is fl]
            if not fu:
                continue
            size = FILE_SIZE[fl]
            allowed = [r for r in range(min(size, limit or size)) if r != 1]
            pressure = lm.pressure([v for u in fu for v in u.values])
            order = assignment_order(fu, pressure, len(allowed), False)
            got = fatpoint_allocate(order, allowed, n, 50, size)
            exp_assign, exp_failed = _reference_allocate(order, allowed, n, 50, size)
            assert got.assignment == exp_assign
            assert [u.id for u in got.failed] == exp_failed
            assert got.occupancy is not None
            for u in order[:20]:
                h = primary_histogram(got.occupancy, u.points, size)
                b = got.assignment.get(u.id)
                if b is not None:
                    assert (h[b : b + u.width] == len(u.points)).all()


@pytest.mark.parametrize("seed", [2, 4])
def test_checker_reports_exactly_the_conflicting_pairs(seed: int) -> None:
    """Corrupt an allocation (values moved into other values' registers): the
    per-register segment sweep of the checker reports one message per pair of
    values that share a register at some point with different contents --
    exactly the pairs a brute-force scan of every point finds."""
    import random

    from ori_dialect.ir.registers import OriRegisterType
    from ori_dialect.testing.equivalence import apply_pipeline
    from passes.regalloc import checker

    rng = random.Random(seed)
    m = generate(seed).module.clone()
    apply_pipeline(m, "ori-regalloc")
    total = 0
    for f in m.walk():
        if not isinstance(f, FuncOp):
            continue
        vals = [v for v in LiveMatrix(f).numbering.values if isinstance(v.type, OriRegisterType)]
        for _ in range(4):
            a, b = rng.choice(vals), rng.choice(vals)
            if type(a.type) is type(b.type):
                b._type = a.type  # type: ignore[attr-defined]
        lm = LiveMatrix(f)
        num = lm.numbering
        content = checker.value_contents(f, num.index)
        regs = [checker.phys_slot(v) for v in num.values]
        real: set[tuple[int, int]] = set()
        for p in range(len(lm.points)):
            ids = lm.values_at(p).tolist()
            for x, a_id in enumerate(ids):
                for b_id in ids[x + 1 :]:
                    pa, pb = regs[a_id], regs[b_id]
                    if pa is None or pb is None or pa[0] != pb[0]:
                        continue
                    for i in range(pa[2]):
                        for j in range(pb[2]):
                            if pa[1] + i == pb[1] + j and content.get(
                                (a_id, i), (a_id, i)
                            ) != content.get((b_id, j), (b_id, j)):
                                real.add((a_id, b_id))
        got = checker.check_overlap(f, lm, "@f")
        assert len(got) == len(real)
        assert all("live at the same time" in g for g in got)
        total += len(real)
    assert total > 0
