"""The rounds driver of ``ori-general-optimize`` (driver.py): it gives the
same result as full rounds of xDSL's pattern walker (every op, every
pattern, until a round changes nothing) on example PTX and generated
programs, and each pattern's declared roots cover the op types its
``op_type_rewrite_pattern`` method takes."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path
from typing import get_args

import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from ori_dialect.analysis import functions_of
from ori_dialect.ptx.lower.module import import_ptx
from ori_dialect.testing.equivalence import module_text
from ori_dialect.testing.generator import generate
from passes.general_optimize import GeneralOptimizePass
from passes.general_optimize.common import CountingPattern

ROOT = Path(__file__).resolve().parents[3]


def _full_rounds(p: GeneralOptimizePass, func: Operation) -> None:
    counts: Counter[str] = Counter()
    walkers = [PatternRewriteWalker(GreedyRewritePatternApplier(list(ps), dce_enabled=False),
                                    apply_recursively=False)
               for ps in p.patterns_for(counts) if ps]
    for _ in range(p.max_iterations):
        before = counts.total()
        for w in walkers:
            w.rewrite_region(func.regions[0])
        if counts.total() == before:
            break
    p.sweep_dead(func, counts)


def _same(module: object, p: GeneralOptimizePass) -> None:
    ref = module.clone()  # type: ignore[attr-defined]
    with contextlib.redirect_stderr(io.StringIO()):
        for f in functions_of(module):  # type: ignore[arg-type]
            p.run_function(f)
        for f in functions_of(ref):
            _full_rounds(p, f)
    assert module_text(module) == module_text(ref)  # type: ignore[arg-type]


@pytest.mark.parametrize("rel", ["examples/ptx/sm_80/loops.ptx", "examples/ptx/sm_80/float32.ptx",
                                 "examples/library/ptx/sm_80/cub_warp.ptx"])
def test_same_as_full_rounds_on_examples(rel: str) -> None:
    _same(import_ptx((ROOT / rel).read_text(), rel), GeneralOptimizePass())


def test_same_as_full_rounds_on_generated_programs() -> None:
    for seed in range(6):
        _same(generate(seed).module, GeneralOptimizePass())
        _same(generate(seed).module, GeneralOptimizePass(iadd3_merge_extend=True))


@pytest.mark.fuzz
def test_same_as_full_rounds_many() -> None:
    for seed in range(100, 300):
        _same(generate(seed).module, GeneralOptimizePass())
    for p in sorted((ROOT / "examples" / "library" / "ptx" / "sm_80").glob("*.ptx")):
        _same(import_ptx(p.read_text(), p.name), GeneralOptimizePass())


def test_roots_cover_the_decorated_types() -> None:
    checked = 0
    for pattern in GeneralOptimizePass().patterns_for(Counter())[0]:
        assert isinstance(pattern, CountingPattern)
        impl = type(pattern).match_and_rewrite
        cells = [c.cell_contents for c in (impl.__closure__ or ())]
        typed = [t for c in cells for t in (get_args(c) or (c,))
                 if isinstance(t, type) and issubclass(t, Operation)]
        for t in typed:
            assert pattern.applies_to(t), f"{type(pattern).__name__} does not offer {t.__name__}"
            checked += 1
    assert checked >= 8
