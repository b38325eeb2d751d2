"""Fuzzing every registered pass and named pipeline with generated programs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass

from ori_dialect.ops import IAdd3Op
from ori_dialect.testing.fuzz import PassNotApplicable, fuzz, named_pipelines
from passes import registry


@pytest.mark.parametrize("first", [0, *(pytest.param(f, marks=pytest.mark.fuzz)
                                       for f in range(10, 50, 10))])
def test_fuzz_every_pass(first: int) -> None:
    """Ten programs (seeds 0-9) through every registered pass and named
    pipeline by default; ``-m fuzz`` adds seeds 10-49, in runs of ten so
    that ``-n auto`` spreads them (each run of ten takes 25-50 s: the
    default suite keeps one, fuzzing a little)."""
    report = fuzz(10, seed0=first)
    print(report)
    assert report.programs == 10
    assert set(registry.all_passes()) <= set(report.transforms)
    assert report.ok, report.summary() + "\n\n" + report.failures[0].message
    assert report.checks == 10 * len(report.transforms) - sum(report.not_applicable.values())


@pytest.mark.fuzz
def test_fuzz_2000() -> None:
    report = fuzz(2000, seed0=1000)
    print(report)
    assert report.ok, report.summary() + "\n\n" + report.failures[0].message


# ---- the runner itself -----------------------------------------------------


@dataclass(frozen=True)
class NegateIAdd3Pass(ModulePass):
    """Wrong on purpose: negates the first source of every unguarded IADD3
    (loops counting up now count down: some never end)."""

    name = "test-negate-iadd3"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if isinstance(o, IAdd3Op) and not o.smod_map() and o.srcs and not o.guard:
                o.properties["smods"] = DictionaryAttr({"a": StringAttr("neg")})


@dataclass(frozen=True)
class NotApplicablePass(ModulePass):
    name = "test-not-applicable"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise PassNotApplicable("needs a shape this program lacks")


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    name = "test-crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise RuntimeError("boom")


@pytest.fixture
def test_passes() -> Iterator[None]:
    for cls in (NegateIAdd3Pass, NotApplicablePass, CrashingPass):
        registry.register_pass(cls.name, lambda cls=cls: cls)
    try:
        yield
    finally:
        for cls in (NegateIAdd3Pass, NotApplicablePass, CrashingPass):
            registry.unregister_pass(cls.name)


def test_runner_reports_failures_and_not_applicable(test_passes: None) -> None:
    report = fuzz(4, seed0=7, passes=["test-negate-iadd3", "test-not-applicable", "test-crash",
                                      "ori-print-loops"])
    text = report.summary()
    assert report.programs == 4 and not report.ok
    kinds = {(f.transform, f.kind) for f in report.failures}
    assert ("test-negate-iadd3", "mismatch") in kinds
    assert ("test-crash", "pass-error") in kinds
    assert report.not_applicable["test-not-applicable"] == 4
    assert report.failed_seeds == [7, 8, 9, 10]
    assert "failures: " in text and "seeds [7, 8, 9, 10]" in text
    mismatch = next(f for f in report.failures if f.kind == "mismatch")
    assert "first differing byte" in mismatch.message and "---- IR after ----" in mismatch.message
    assert report.checks == 4  # ori-print-loops on each program


def test_runner_uses_named_pipelines(monkeypatch: pytest.MonkeyPatch) -> None:
    assert named_pipelines() == registry.named_pipelines()
    monkeypatch.setattr(registry, "named_pipelines",
                        lambda: {"prints": "ori-print-loops,ori-print-liveness"})
    report = fuzz(2, seed0=3, passes=[])
    assert report.transforms == ["pipeline:prints"]
    assert report.ok and report.checks == 2
