"""The tensor-core and async-copy kernels of ``examples/tensor`` (wmma and
mma.sync/ldmatrix GEMMs on f16/bf16, wmma on tf32 and s8/u8, cp.async copies): the
committed PTX imports, every launch matches its numpy model (HmmaOp's rule, as an H200
computes it: wmma_f16_f32 and mma_ldmatrix_gemm were run there) bit for bit in the
interpreter before and after ``ori-ptxas`` (physical registers after it), the model
itself stays within its stated bound of float64, and the kernels compile and still
compute the same under ``max-regs=32`` (ptxas spills there too)."""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from examples.tensor.build_ptx import compile_all, normalize_ptx, sources
from examples.tensor.launches import LAUNCHES, PTX_DIR, TensorLaunch

ARCHS = ("sm_80", "sm_90")
STEMS = sorted({Path(la.file).stem for la in LAUNCHES})


def _id(la: TensorLaunch) -> str:
    return la.kernel


@functools.cache
def _imported(arch: str, stem: str) -> ModuleOp:
    path = PTX_DIR / arch / f"{stem}.ptx"
    return import_ptx(path.read_text(), str(path.relative_to(ROOT)))


@functools.cache
def _compiled(arch: str, stem: str, pipeline: str) -> ModuleOp:
    m = _imported(arch, stem).clone()
    with contextlib.redirect_stdout(io.StringIO()):
        apply_pipeline(m, pipeline, make_context())
    m.verify()
    return m


def _run(module: ModuleOp, la: TensorLaunch, physical: bool) -> tuple[list[Any], list[Any]]:
    args = la.make_args(np.random.default_rng(la.seed))
    want = la.expected(copy.deepcopy(args))
    got = run_kernel(module, la.kernel, la.grid, la.block, copy.deepcopy(args),
                     shared_bytes=la.shared_bytes, strict=not physical, physical=physical)
    return got, want


def _check_exact(la: TensorLaunch, got: list[Any], want: list[Any], mode: str) -> None:
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if w is None:
            continue
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype, (la.kernel, i, g.dtype, w.dtype)
        bad = np.flatnonzero(g.view(np.uint8) != w.view(np.uint8)) // g.itemsize
        assert not len(bad), (f"{la.kernel} ({mode}) argument {i}: {len(set(bad))} elements "
                              f"differ, first {bad[0]}: {g[bad[0]]} vs {w[bad[0]]}")


def test_every_source_kernel_has_a_launch() -> None:
    launched = {la.kernel for la in LAUNCHES}
    for src in sources():
        for line in src.read_text().splitlines():
            if '__global__ void' in line:
                name = line.split("void", 1)[1].split("(")[0].strip()
                assert name in launched, f"{src.name}: kernel {name} has no launch"


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("stem", STEMS)
def test_imports(stem: str, arch: str) -> None:
    _imported(arch, stem).verify()


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("la", LAUNCHES, ids=_id)
def test_launch_matches_model(la: TensorLaunch, arch: str) -> None:
    got, want = _run(_imported(arch, Path(la.file).stem), la, physical=False)
    _check_exact(la, got, want, f"{arch}, imported")


@pytest.mark.parametrize("la", LAUNCHES, ids=_id)
def test_launch_matches_model_after_ori_ptxas(la: TensorLaunch) -> None:
    got, want = _run(_compiled("sm_80", Path(la.file).stem, "ori-ptxas"), la, physical=True)
    _check_exact(la, got, want, "sm_80, after ori-ptxas")


@pytest.mark.parametrize("la", [la for la in LAUNCHES if la.float64 is not None], ids=_id)
def test_model_is_close_to_float64(la: TensorLaunch) -> None:
    assert la.float64 is not None
    args = la.make_args(np.random.default_rng(la.seed))
    want = la.expected(copy.deepcopy(args))
    exact = la.float64(copy.deepcopy(args))
    for w, e in zip(want, exact, strict=True):
        if e is not None:
            w = np.asarray(w)
            if w.dtype == np.uint32:  # packed f16x2 words (mma_f16_f16)
                w = w.view(np.float16)
            np.testing.assert_allclose(w.astype(np.float64), e, rtol=la.rtol, atol=la.atol)
            if w.dtype.kind == "f":  # not trivially: the inputs make some sum inexact
                assert np.any(w.astype(np.float64) != e), la.kernel


@pytest.mark.parametrize("la", [la for la in LAUNCHES if la.kernel in (
    "wmma_f16_f32", "mma_ldmatrix_gemm", "cp_async_double_buffer", "wmma_tf32_f32",
    "wmma_s8_s32")], ids=_id)
def test_max_regs_32(la: TensorLaunch) -> None:
    """Under ptxas's --maxrregcount 32 the fragments still allocate as aligned
    runs (spilling where needed) and the results do not change."""
    got, want = _run(_compiled("sm_80", Path(la.file).stem, "ori-ptxas{max-regs=32}"), la,
                     physical=True)
    _check_exact(la, got, want, "sm_80, ori-ptxas max-regs=32")


@pytest.mark.fuzz
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_committed_ptx_matches_nvcc(tmp_path: Path) -> None:
    for out in compile_all(tmp_path):
        committed = PTX_DIR / out.parent.name / out.name
        assert normalize_ptx(out.read_text()) == normalize_ptx(committed.read_text()), out.name
