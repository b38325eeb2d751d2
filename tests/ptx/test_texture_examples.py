"""The texture kernels of ``examples/texture``: nvcc's PTX for texture objects.

* Every kernel of the source has a launch; the committed PTX is what nvcc makes
  today (``-m fuzz``).
* The PTX imports for sm_80 and sm_90 and verifies.
* Every launch matches the scalar reference of ``examples/texture/launches.py``
  bit for bit in the interpreter, before and after ``ori-ptxas`` (physical-register
  mode after it), for both targets.
* The filtered launches agree with float64 filtering with exact weights within
  the 9-bit weight quantisation (half a 1/256 step on each axis, times the
  texel range).
"""

from __future__ import annotations

import functools
import importlib
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.interpreter import Texture, run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # ``examples`` is a namespace package under the root
    sys.path.insert(0, str(ROOT))

tex_launches = importlib.import_module("examples.texture.launches")
tex_build = importlib.import_module("examples.texture.build_ptx")

TEX_DIR = ROOT / "examples" / "texture"
ARCHS = ("sm_80", "sm_90")
LAUNCHES: list[Any] = tex_launches.LAUNCHES
_KERNEL_RE = re.compile(r'extern\s+"C"\s+__global__\s+void\s+(\w+)\s*\(')


def _id(launch: Any) -> str:
    return f"{launch.kernel}[{launch.covers}]"


@functools.cache
def _imported(arch: str) -> ModuleOp:
    path = TEX_DIR / "ptx" / arch / "textures.ptx"
    m = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    m.verify()
    return m


@functools.cache
def _compiled(arch: str) -> ModuleOp:
    m = _imported(arch).clone()
    apply_pipeline(m, "ori-ptxas", make_context())
    return m


def _run(module: ModuleOp, launch: Any, physical: bool) -> None:
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected(args)
    got = run_kernel(module, launch.kernel, launch.grid, launch.block, args, physical=physical)
    checked = 0
    for g, w in zip(got, want):
        if w is not None:
            launch.check(g, w)
            checked += 1
    assert checked, f"{launch.kernel}: the launch checks nothing"


def test_every_kernel_is_launched() -> None:
    kernels = set(_KERNEL_RE.findall((TEX_DIR / "textures.cu").read_text()))
    assert kernels == {la.kernel for la in LAUNCHES}


@pytest.mark.fuzz
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH: cannot regenerate")
@pytest.mark.parametrize("arch", ARCHS)
def test_committed_ptx_matches_nvcc(tmp_path: Path, arch: str) -> None:
    for src in tex_build.sources():
        fresh = tex_build.compile_one(src, arch, tmp_path / arch).read_text()
        committed = (TEX_DIR / "ptx" / arch / f"{src.stem}.ptx").read_text()
        assert tex_build.normalize_ptx(fresh) == tex_build.normalize_ptx(committed), (
            f"{arch}/{src.stem}.ptx is stale (run examples/texture/build_ptx.py)")


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_launch_matches_reference(launch: Any, arch: str) -> None:
    _run(_imported(arch), launch, physical=False)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_launch_matches_reference_after_ori_ptxas(launch: Any, arch: str) -> None:
    _run(_compiled(arch), launch, physical=True)


@pytest.mark.parametrize("launch", [la for la in LAUNCHES if la.kernel in ("sample1d", "sample2d")
                                    and "linear" in la.covers], ids=_id)
def test_linear_filtering_within_weight_quantisation_of_float64(launch: Any) -> None:
    args = launch.make_args(np.random.default_rng(launch.seed))
    tex: Texture = args[0]
    got = run_kernel(_imported("sm_90"), launch.kernel, launch.grid, launch.block, args)[2]
    coords = args[1].reshape(len(got), -1)
    exact = np.array([tex_launches.unquantized_fetch(tex, [float(c) for c in row])[0]
                      for row in coords])
    span = float(np.ptp(np.asarray(tex.array, np.float64))) or 1.0
    dims = coords.shape[1]
    # each weight is off by at most 1/512; the f32 rounding of the result adds
    # at most half an ulp
    bound = dims * span / 512 + np.abs(exact) * 2.0**-24
    assert (np.abs(got.astype(np.float64) - exact) <= bound + 1e-12).all()
    # and the quantisation is visible: some result differs from exact weights
    assert (got.astype(np.float64) != exact.astype(np.float32)).any()
