"""The random program generator: determinism, well-formedness, coverage of
every construct, and (in the interpreter) termination without errors."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import pytest

from ori_dialect.ops import BarOp, CallOp, FuncOp, ShflOp
from ori_dialect.testing import FEATURES, GeneratedProgram, GenOptions, generate
from ori_dialect.testing.equivalence import module_text, run_launch
from ori_dialect.testing.generator import OPT_IN_FEATURES, SLOTS, TRIP_CLASSES, trip_count
from tests.conftest import parse

COVERAGE_SEEDS = range(150)


@cache
def program(seed: int) -> GeneratedProgram:
    return generate(seed)


@cache
def feature_totals() -> Counter[str]:
    tot: Counter[str] = Counter()
    for s in COVERAGE_SEEDS:
        tot.update(program(s).features)
    return tot


def test_same_seed_same_program() -> None:
    for s in (0, 1, 17):
        assert module_text(generate(s).module) == module_text(generate(s).module)
    assert module_text(generate(1).module) != module_text(generate(2).module)


def test_inputs_are_deterministic() -> None:
    p = program(3)
    a, b = p.inputs(11), p.inputs(11)
    assert a.grid == b.grid and a.block == b.block and a.seed == 11
    for x, y in zip(a.args, b.args):
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes()
    out = a.args[0]
    assert out.dtype == np.uint32 and out.size == a.threads * SLOTS
    assert a.shared_bytes == a.block[0] * 4


@pytest.mark.parametrize("seed", range(0, 150, 3))
def test_verifies_and_round_trips(seed: int) -> None:
    m = program(seed).module
    m.verify()
    text = module_text(m)
    again = parse(text)
    again.verify()
    assert module_text(again) == text


@pytest.mark.parametrize("feature", [f for f in FEATURES if f not in OPT_IN_FEATURES])
def test_every_feature_appears(feature: str) -> None:
    assert feature_totals()[feature] > 0, f"no program of seeds {COVERAGE_SEEDS} has {feature}"


def test_trip_count_classes_are_spread() -> None:
    tot = feature_totals()
    counts = {c: tot[f"loop_trip_{c}"] for c in TRIP_CLASSES}
    assert all(v > 0 for v in counts.values()), counts
    assert tot["loop_param"] > 5 and tot["loop_thread"] > 5 and tot["loop_down"] > 5
    assert tot["loop_nested"] > 5 and tot["iv_after_loop"] >= tot["loop"] > 50


def test_feature_counts_match_the_ir() -> None:
    """Counted features are really in the IR (spot checks on ops)."""
    for s in range(40):
        p = program(s)
        ops = list(p.module.walk())
        n_bar = sum(isinstance(o, BarOp) for o in ops)
        n_shfl = sum(isinstance(o, ShflOp) for o in ops)
        n_call = sum(isinstance(o, CallOp) for o in ops)
        assert n_bar == p.features["bar"]
        assert n_shfl == p.features["shfl"]
        assert n_call == p.features["call"]
        funcs = [o for o in ops if isinstance(o, FuncOp)]
        assert sum(f.is_kernel for f in funcs) == 1


def test_options_switch_features_off() -> None:
    opts = GenOptions(floats=False, calls=False, shared=False, shfl=False, atomics=False,
                      large_loops=False, pressure=0)
    tot: Counter[str] = Counter()
    for s in range(40):
        tot.update(generate(s, options=opts).features)
    for f in ("float", "fsetp", "call", "shared", "bar", "shfl", "atomic", "loop_trip_1000", "pressure"):
        assert tot[f] == 0, f


def test_abi_calls_knob() -> None:
    """abi_calls: every program calls, some through a function pointer, with
    more than twelve parameters somewhere (issue 17)."""
    tot: Counter[str] = Counter()
    wide = 0
    for s in range(20):
        p = generate(s, options=GenOptions(abi_calls=True))
        assert p.features["call"] > 0
        tot.update(p.features)
        wide += any(isinstance(o, FuncOp) and len(o.function_type.inputs.data) > 12
                    for o in p.module.walk())
    assert tot["call_indirect"] > 0 and wide > 0


def test_pressure_knob() -> None:
    p = generate(5, options=GenOptions(pressure=64, target="sm_90"))
    assert p.features["pressure"] == 1
    assert p.module.attributes["ori.target"].data == "sm_90"  # type: ignore[attr-defined]
    ops = list(p.module.walk())
    assert len(ops) > 64


def test_budget_bounds_the_work() -> None:
    for s in COVERAGE_SEEDS:
        assert program(s).est_cost < 2 * GenOptions().budget


def test_unpacks_as_triple() -> None:
    m, k, factory = program(0)
    assert k == "fuzz0" and m is program(0).module
    li = factory(np.random.default_rng(0))
    assert li.grid[0] in (1, 2)


@pytest.mark.parametrize("seed", range(24))
def test_runs_in_the_interpreter(seed: int) -> None:
    """Generated programs terminate without interpreter errors, and every
    thread reaches the end (the checksum slot is written)."""
    p = program(seed)
    li = p.inputs(seed)
    o = run_launch(p.module, p.kernel, li.args, li.grid, li.block, li.shared_bytes, strict=True)
    assert o.ok, f"seed {seed}: {o.error}\n{module_text(p.module)}"
    assert o.results is not None
    out = o.results[0].reshape(-1, SLOTS)
    assert (out[:, SLOTS - 1] != li.args[0].reshape(-1, SLOTS)[:, SLOTS - 1]).all()


def test_trip_count_model() -> None:
    """The generator checks each constant-trip loop against this 32-bit model."""
    assert trip_count(0xFFFFFFF0, 4, "ne.u32", 0x10, 100) == 8  # wraps through 2**32
    assert trip_count(0xFFFFFFF0, 4, "lt.u32", 0x10, 100) == 0  # why the wrap loop tests !=
    assert trip_count(10, -3, "gt.s32", -2, 100) == 4
    assert trip_count(0, 1, "lt.u32", -1, 100) == 100  # -1 is 0xffffffff unsigned: no end
    assert trip_count(5, 2, "le.s32", 10, 100) == 3
