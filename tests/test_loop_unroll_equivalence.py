"""``ori-loop-simplify,ori-loop-unroll`` keep the interpreter's results on
hand-written and real inputs:

* every kernel of the lit inputs in ``tests/filecheck/loops/`` that runs in
  the interpreter (a kernel with ``params``; the others read parameters that
  no launch can give them and are counted as skipped), on several values of
  its 32-bit parameters (trip counts 0, 1, 2, 3, odd, large) and several
  option sets (defaults, factors 3 and 8; under ``-m fuzz`` also the
  override string, the exit-tests remainder and no inversion);
* every kernel of the CUDA examples (``examples/ptx/sm_80`` and ``sm_90``,
  launched as in ``tests/test_ptx_import_examples.py``).  The default run
  takes a subset of the kernels with loops; ``-m fuzz`` runs all of them on
  both architectures.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import (
    apply_pipeline,
    check_equivalent,
    make_context,
    run_launch,
)

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "tests" / "filecheck" / "loops"
PIPES = (
    "ori-loop-simplify,ori-loop-unroll",
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=3}",
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=8}",
)
MORE_PIPES = (
    'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor-override="+"}',
    "ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=8 unknown-trip-remainder=exit-tests}",
    "ori-loop-simplify{loop-inversion=false},ori-loop-unroll{loop-unroll-factor=5}",
)
SCALARS = (0, 1, 2, 3, 7, 37)
MAX_STEPS = 200_000
"""Lit kernels are small: a reference run longer than this is a broken test."""


def _chunks() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(LIT_DIR.glob("*.mlir")):
        for i, text in enumerate(path.read_text().split("// -----")):
            if "ori.func" in text:
                out.append((path.name, i, text))
    return out


CHUNKS = _chunks()


def _args(func: FuncOp, rng: np.random.Generator, scalar: int) -> list[Any]:
    args: list[Any] = []
    assert func.params is not None
    for p in func.params.data:
        if p.size.data == 8:
            args.append(rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32))
        else:
            args.append(np.uint32(scalar))
    return args


def _parse(text: str) -> ModuleOp:
    return Parser(make_context(), text, "lit").parse_module()


@pytest.mark.parametrize("pipe", PIPES)
def test_lit_inputs_keep_results(pipe: str) -> None:
    _check_lit(pipe)


@pytest.mark.fuzz
@pytest.mark.parametrize("pipe", MORE_PIPES)
def test_lit_inputs_keep_results_more_options(pipe: str) -> None:
    _check_lit(pipe)


def _check_lit(pipe: str) -> None:
    checked = skipped = 0
    for name, idx, text in CHUNKS:
        module = _parse(text)
        for func in functions_of(module):
            if not isinstance(func, FuncOp) or func.kernel is None:
                continue
            kname = func.sym_name.data
            if func.params is None:
                skipped += 1  # no launch can give it the parameters it reads
                continue
            after = module.clone()
            with contextlib.redirect_stderr(io.StringIO()):
                apply_pipeline(after, pipe)
            after.verify()
            inputs = [_args(func, np.random.default_rng(s), s) for s in SCALARS]
            for a in inputs:
                ref = run_launch(module, kname, a, 1, 4, max_steps=MAX_STEPS)
                assert ref.ok, f"{name} chunk {idx} @{kname} does not run: {ref.error}"
            check_equivalent(module, after, kname, inputs, grid=1, block=4,
                             title=f"{name} chunk {idx} @{kname}: {pipe}")
            checked += 1
    assert checked >= 8, f"only {checked} lit kernels ran ({skipped} skipped)"


# ----------------------------------------------------------------------------
# the CUDA examples
# ----------------------------------------------------------------------------

_EX = None


def _examples() -> Any:
    global _EX
    if _EX is None:
        from tests import test_ptx_import_examples as ex  # launch table, importer cache

        _EX = ex
    return _EX


def _launches() -> list[Any]:
    return list(_examples().LAUNCHES)


def _lid(launch: Any) -> str:
    return f"{Path(launch.file).stem}.{launch.kernel}"


@functools.cache
def _transformed(rel: str) -> ModuleOp:
    m = _examples()._imported(rel).clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-loop-simplify,ori-loop-unroll")
    m.verify()
    return m


def _check_example(launch: Any, arch: str) -> None:
    rel = f"{arch}/{Path(launch.file).stem}.ptx"
    before = _examples()._imported(rel)
    after = _transformed(rel)
    args = launch.make_args(np.random.default_rng(launch.seed))
    check_equivalent(before, after, launch.kernel, [[copy.deepcopy(a) for a in args]],
                     grid=launch.grid, block=launch.block, shared_bytes=launch.shared_bytes,
                     strict=True, title=f"{rel} @{launch.kernel}")


# kernels with loops the unroller changes (full, partial, inverted), kept small
DEFAULT = {"loops", "reduce", "stencil", "intdiv", "histogram"}


@pytest.mark.parametrize("launch", [la for la in _launches() if Path(la.file).stem in DEFAULT], ids=_lid)
def test_examples_keep_results(launch: Any) -> None:
    _check_example(launch, "sm_80")


@pytest.mark.fuzz
@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", _launches(), ids=_lid)
def test_all_examples_keep_results(launch: Any, arch: str) -> None:
    _check_example(launch, arch)
