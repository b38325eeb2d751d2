"""The CUDA examples: sources, committed PTX and the launch table agree.

The PTX import tests (with the PTX frontend, later) loop over ``examples/cuda/launches.py``;
here we check that the table covers every kernel, that the committed PTX is what nvcc
produces today (when nvcc is installed), that ptxas accepts it (when installed) and that
the numpy reference functions are well formed.
"""

from __future__ import annotations

import copy
import importlib.util
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CUDA_DIR = ROOT / "examples" / "cuda"
PTX_DIR = ROOT / "examples" / "ptx"
ARCHS = ("sm_80", "sm_90")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"ori_cuda_examples_{name}", CUDA_DIR / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


launches = _load("launches")
build_ptx = _load("build_ptx")
LAUNCHES = launches.LAUNCHES

_KERNEL_RE = re.compile(
    r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\('
)


def _source_kernels() -> set[tuple[str, str]]:
    found = set()
    for src in build_ptx.sources():
        for name in _KERNEL_RE.findall(src.read_text()):
            found.add((src.name, name))
    return found


def _ids(launch: object) -> str:
    return launch.kernel  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- (a) table


def test_enough_kernels() -> None:
    assert len(LAUNCHES) >= 25
    assert len({(lnch.file, lnch.kernel) for lnch in LAUNCHES}) == len(LAUNCHES)


def test_every_source_kernel_is_in_the_table() -> None:
    table = {(lnch.file, lnch.kernel) for lnch in LAUNCHES}
    sources = _source_kernels()
    assert sources, "no kernels found in examples/cuda"
    assert sources == table, (sources - table, table - sources)


@pytest.mark.parametrize("arch", ARCHS)
def test_committed_ptx_has_every_entry(arch: str) -> None:
    ptx_files = {p.stem for p in (PTX_DIR / arch).glob("*.ptx")}
    assert ptx_files == {src.stem for src in build_ptx.sources()}
    for lnch in LAUNCHES:
        text = lnch.ptx_path(arch).read_text()
        assert re.search(rf"\.entry\s+{lnch.kernel}\s*\(", text), (arch, lnch.kernel)
        assert f".target {arch}" in text


# ----------------------------------------------------------------------------- (b) nvcc


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH: cannot regenerate PTX")
def test_committed_ptx_matches_nvcc(tmp_path: Path) -> None:
    build_ptx.compile_all(tmp_path, jobs=4)
    stale = []
    for arch in ARCHS:
        for src in build_ptx.sources():
            fresh = (tmp_path / arch / f"{src.stem}.ptx").read_text()
            committed = (PTX_DIR / arch / f"{src.stem}.ptx").read_text()
            if build_ptx.normalize_ptx(fresh) != build_ptx.normalize_ptx(committed):
                stale.append(f"{arch}/{src.stem}.ptx")
    assert not stale, f"committed PTX is stale (run examples/cuda/build_ptx.py): {stale}"


def test_normalize_ptx_drops_comments_and_paths() -> None:
    a = '//\n// Cuda compilation tools, release 13.0\n.version 9.0\n\t.file\t1 "/x/y/k.cu"\n'
    b = '//\n// other header\n.version 9.0\n\t.file\t1 "/other/k.cu"\n'
    assert build_ptx.normalize_ptx(a) == build_ptx.normalize_ptx(b)
    assert '"k.cu"' in build_ptx.normalize_ptx(a)
    # the path hash nvcc puts into .debug_str names is dropped too
    c = a + "\t.section\t.debug_str\n\t{\n.b8 95,90,55\n\t}\n"
    d = a + "\t.section\t.debug_str\n\t{\n.b8 95,90,56\n\t}\n"
    assert build_ptx.normalize_ptx(c) == build_ptx.normalize_ptx(d)


# ----------------------------------------------------------------------------- (c) ptxas


def _ptxas(arch: str, ptx: Path, out_dir: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    cmd = ["ptxas", f"-arch={arch}", str(ptx), "-o", str(out_dir / f"{arch}_{ptx.stem}.cubin")]
    return ptx, subprocess.run(cmd, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
def test_ptxas_accepts_committed_ptx(tmp_path: Path) -> None:
    work = [(arch, ptx) for arch in ARCHS for ptx in sorted((PTX_DIR / arch).glob("*.ptx"))]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda w: _ptxas(w[0], w[1], tmp_path), work))
    failed = [f"{p}: {r.stderr}" for p, r in results if r.returncode != 0]
    assert not failed, "\n".join(failed)


# ----------------------------------------------------------------------------- (d) numpy


@pytest.mark.parametrize("launch", LAUNCHES, ids=_ids)
def test_launch_entry_is_well_formed(launch: object) -> None:
    lnch = launch
    assert (CUDA_DIR / lnch.file).is_file()  # type: ignore[attr-defined]
    for dim in (lnch.grid, lnch.block):  # type: ignore[attr-defined]
        assert len(dim) == 3 and all(isinstance(d, int) and d >= 1 for d in dim)
    threads = int(np.prod(lnch.block))  # type: ignore[attr-defined]
    assert threads <= 1024
    assert lnch.shared_bytes >= 0 and lnch.rtol >= 0 and lnch.atol >= 0  # type: ignore[attr-defined]

    args = lnch.make_args(np.random.default_rng(lnch.seed))  # type: ignore[attr-defined]
    again = lnch.make_args(np.random.default_rng(lnch.seed))  # type: ignore[attr-defined]
    for a, b in zip(args, again, strict=True):  # deterministic inputs
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    for a in args:
        assert isinstance(a, np.ndarray | np.generic), type(a)
        if isinstance(a, np.ndarray):
            assert a.ndim == 1 and a.flags.c_contiguous

    snapshot = copy.deepcopy(args)
    want = lnch.expected(args)  # type: ignore[attr-defined]
    assert len(want) == len(args)
    for a, s in zip(args, snapshot, strict=True):  # expected() must not mutate its inputs
        assert np.asarray(a).tobytes() == np.asarray(s).tobytes()
    checked = 0
    changed = 0
    for a, w in zip(args, want, strict=True):
        if w is None:
            continue
        checked += 1
        w = np.asarray(w)
        a = np.asarray(a)
        assert w.dtype == a.dtype and w.shape == a.shape, (lnch.kernel, w.dtype, a.dtype)  # type: ignore[attr-defined]
        if lnch.exact and w.dtype.kind == "f":  # type: ignore[attr-defined]
            assert np.all(np.isfinite(w)) or lnch.kernel == "half_convert"  # type: ignore[attr-defined]
        lnch.check(w.copy(), w)  # type: ignore[attr-defined]
        changed += int(w.tobytes() != a.tobytes())
    assert checked >= 1, "a launch must check at least one result"
    assert changed >= 1, "the expected results equal the initial buffers: nothing is tested"


def test_tolerances_are_documented() -> None:
    loose = [lnch.kernel for lnch in LAUNCHES if not lnch.exact]
    assert loose == ["fast_math"]
