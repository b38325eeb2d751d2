"""The Triton examples (``examples/triton``): Triton 3.9's PTX imports, runs and compiles.

* The corpus: every kernel of ``examples/triton/launches.py`` has committed PTX for sm_80
  and sm_90a, and the table is well formed (deterministic inputs, references that do
  not mutate them and that change something). When a Python with Triton is found
  (``$ORI_TRITON_PYTHON``, else ``/tmp/tvenv/bin/python``) the committed PTX must be
  what ``build_ptx.py`` produces today; when ptxas is on PATH it must accept it.
* Every PTX file imports, verifies and round-trips through ori's text format.
* Every launch leaves exactly what its numpy reference says (within the recorded
  tolerance for the kernels that use approximate MUFU/division) in the interpreter,
  on the imported module and, in physical-register mode, after ``ori-ptxas``.
* The ``tl.dot`` kernels' references (ori's HMMA numeric model, which HGMMA shares,
  tf32 included; IMMA's exact int8 products) are within a stated bound of float64.
* The sm_90a ``wgmma`` kernel (``matmul_m64``) passes like every other: nothing skips.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from examples.triton import launches as tl_launches
from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context, module_text
from passes.regalloc.checker import check_module

ROOT = Path(__file__).resolve().parents[2]
TRITON_DIR = ROOT / "examples" / "triton"
PTX_DIR = TRITON_DIR / "ptx"
ARCHS = tl_launches.ARCHS
LAUNCHES: list[Any] = tl_launches.LAUNCHES

def _id(launch: Any) -> str:
    return str(launch.kernel)


def _uses_wgmma(launch: Any, arch: str) -> bool:
    return "wgmma." in launch.ptx_path(arch).read_text()


def _import_uncached(rel: str) -> ModuleOp:
    path = PTX_DIR / rel
    return import_ptx(path.read_text(), str(path.relative_to(ROOT)))


_import = functools.cache(_import_uncached)


def _module(launch: Any, arch: str) -> ModuleOp:
    """The imported module of ``launch`` (a fresh copy: passes mutate it)."""
    return _import(f"{arch}/{launch.kernel}.ptx").clone()


# ----------------------------------------------------------------------------- corpus


def test_corpus_is_complete() -> None:
    kernels = [la.kernel for la in LAUNCHES]
    assert len(kernels) >= 12 and len(set(kernels)) == len(kernels)
    for arch in ARCHS:
        files = {p.stem for p in (PTX_DIR / arch).glob("*.ptx")}
        assert files == set(kernels), (arch, files ^ set(kernels))
    for la in LAUNCHES:
        for arch in ARCHS:
            text = la.ptx_path(arch).read_text()
            assert re.search(rf"\.entry\s+{la.kernel}\s*\(", text), (arch, la.kernel)
            assert re.search(rf"^\.target {arch}$", text, re.MULTILINE), (arch, la.kernel)


def test_every_kernel_in_kernels_py_is_launched() -> None:
    # kernels.py needs Triton to import: read the KERNELS names from its text
    src = (TRITON_DIR / "kernels.py").read_text()
    # (jitted helpers, named _*, are inlined into the kernels and have no PTX of their own)
    jitted = set(re.findall(r"@triton\.jit\ndef ([A-Za-z]\w*)\(", src))
    listed = set(re.findall(r"^    Kernel\((\w+),", src, re.MULTILINE))
    assert jitted == listed == {la.kernel for la in LAUNCHES}


@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_launch_entry_is_well_formed(launch: Any) -> None:
    la = launch
    for dim in (la.grid, la.block):
        assert len(dim) == 3 and all(isinstance(d, int) and d >= 1 for d in dim)
    text = la.ptx_path("sm_80").read_text()
    reqntid = re.search(r"^\.reqntid (\d+)", text, re.MULTILINE)
    assert reqntid is not None and la.block == (int(reqntid.group(1)), 1, 1)
    # Triton's two trailing scratch pointers are parameters like any other
    n_params = len(re.findall(rf"\.param\s[^\n]*{la.kernel}_param_\d+", text))
    args = la.make_args(np.random.default_rng(la.seed))
    again = la.make_args(np.random.default_rng(la.seed))
    assert len(args) == n_params
    for a, b in zip(args, again, strict=True):  # deterministic inputs
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    for a in args:
        assert isinstance(a, np.ndarray | np.generic), type(a)
        if isinstance(a, np.ndarray):
            assert a.ndim == 1 and a.flags.c_contiguous
    snapshot = copy.deepcopy(args)
    want = la.expected(args)
    assert len(want) == len(args)
    for a, s in zip(args, snapshot, strict=True):  # expected() must not mutate its inputs
        assert np.asarray(a).tobytes() == np.asarray(s).tobytes()
    changed = 0
    for a, w in zip(args, want, strict=True):
        if w is not None:
            w, a = np.asarray(w), np.asarray(a)
            assert w.dtype == a.dtype and w.shape == a.shape, (la.kernel, w.dtype, a.dtype)
            if w.dtype.kind == "f":
                assert np.all(np.isfinite(w)), la.kernel
            changed += int(w.tobytes() != a.tobytes())
    assert changed >= 1, "the expected results equal the initial buffers: nothing is tested"


def test_tolerances_are_documented() -> None:
    loose = [la.kernel for la in LAUNCHES if not la.exact]
    assert loose == ["softmax", "layernorm", "attention_fwd"]
    for la in LAUNCHES:
        if not la.exact:
            assert "tolerance" in la.covers, la.kernel


DOT_LAUNCHES = [la for la in LAUNCHES if la.float64 is not None]


def test_dot_kernels_have_float64_checks() -> None:
    dots = {la.kernel for la in LAUNCHES if "tl.dot" in la.covers}
    assert dots == {la.kernel for la in DOT_LAUNCHES}
    assert {"matmul", "matmul_f16out", "matmul_bf16", "attention_fwd", "matmul_tf32",
            "matmul_i8"} <= dots


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", DOT_LAUNCHES, ids=_id)
def test_reference_is_close_to_float64(launch: Any, arch: str) -> None:
    """The bit-exact models (HMMA's rule, one truncating step per mma.sync or wgmma,
    f16/bf16 and tf32) and the attention's algorithmic reference are within
    their stated bounds of float64, and not trivially so: the float32 result differs
    from float64 somewhere. An integer result (IMMA) equals the exact product."""
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected_for(arch)(copy.deepcopy(args))
    exact = launch.float64(copy.deepcopy(args))
    compared = 0
    for w, e in zip(want, exact, strict=True):
        if e is None or w is None:
            continue
        if np.asarray(w).dtype.kind == "i":  # (Triton's uint8 scratch buffers are not results)
            assert np.array_equal(np.asarray(w).astype(np.float64), e)
            compared += 1
            continue
        if np.asarray(w).dtype.kind != "f":
            continue
        w64 = np.asarray(w).astype(np.float64)
        np.testing.assert_allclose(w64, e, rtol=launch.float64_rtol, atol=launch.float64_atol)
        assert np.any(w64 != e), "the inputs make every sum exact: the order is not tested"
        compared += 1
    assert compared == 1


def test_wgmma_and_mma_share_the_reference() -> None:
    # HGMMA rounds as HMMA (measured on an H200: tests/interpreter/test_wgmma_hardware.py,
    # where the H200's matmul_m64 output is this reference bit for bit): the sm_90a
    # wgmma kernel is checked against the same reference as its sm_80 mma.sync build,
    # and no launch needs an arch-specific one
    assert not [la.kernel for la in LAUNCHES if la.arch_expected]
    m64 = next(la for la in LAUNCHES if la.kernel == "matmul_m64")
    assert _uses_wgmma(m64, "sm_90a") and not _uses_wgmma(m64, "sm_80")
    assert m64.expected_for("sm_90a") is m64.expected


def test_philox_reference_known_answers() -> None:
    # Random123's known-answer vectors for philox4x32-10 (kat_vectors)
    def words(*v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        w = [np.array([x], np.uint32) for x in v]
        return w[0], w[1], w[2], w[3]

    m = 0xFFFFFFFF
    cases = [
        ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((m, m, m, m), (m, m), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
         (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
    ]
    for ctr, key, want in cases:
        got = tl_launches.philox4x32(words(*ctr), key)
        assert tuple(int(g[0]) for g in got) == want


def _triton_python() -> str | None:
    cand = os.environ.get("ORI_TRITON_PYTHON", "/tmp/tvenv/bin/python")
    if not Path(cand).is_file():
        return None
    probe = subprocess.run([cand, "-c", "import triton"], capture_output=True, check=False)
    return cand if probe.returncode == 0 else None


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
@pytest.mark.skipif(_triton_python() is None, reason="no Python with Triton: cannot regenerate")
def test_committed_ptx_matches_triton(tmp_path: Path) -> None:
    python = _triton_python()
    assert python is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRITON_")}
    proc = subprocess.run(
        [python, str(TRITON_DIR / "build_ptx.py"), str(tmp_path)],
        capture_output=True, text=True, check=False, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    stale = [
        f"{arch}/{la.kernel}.ptx"
        for arch in ARCHS
        for la in LAUNCHES
        if (tmp_path / arch / f"{la.kernel}.ptx").read_text() != la.ptx_path(arch).read_text()
    ]
    assert not stale, f"committed PTX is stale (run examples/triton/build_ptx.py): {stale}"


def _ptxas(arch: str, ptx: Path, out: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    cmd = ["ptxas", f"-arch={arch}", str(ptx), "-o", str(out / f"{arch}_{ptx.stem}.cubin")]
    return ptx, subprocess.run(cmd, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
def test_ptxas_accepts_committed_ptx(tmp_path: Path) -> None:
    work = [(arch, la.ptx_path(arch)) for arch in ARCHS for la in LAUNCHES]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda w: _ptxas(w[0], w[1], tmp_path), work))
    failed = [f"{p}: {r.stderr}" for p, r in results if r.returncode != 0]
    assert not failed, "\n".join(failed)


# ----------------------------------------------------------------------------- import


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_import_verify_round_trip(launch: Any, arch: str) -> None:
    module = _module(launch, arch)
    module.verify()
    assert module.attributes["ori.target"].data == arch  # type: ignore[attr-defined]
    text = module_text(module)
    again = Parser(make_context(), text, f"{arch}/{launch.kernel}").parse_module()
    again.verify()
    assert module_text(again) == text


# ----------------------------------------------------------------------------- run


def _check(launch: Any, arch: str, got: list[Any], want: list[Any]) -> None:
    checked = 0
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if w is None:
            continue
        try:
            launch.check(g, w)
        except AssertionError as err:
            g_arr, w_arr = np.asarray(g).ravel(), np.asarray(w).ravel()
            diff = [j for j in range(len(w_arr)) if g_arr[j].tobytes() != w_arr[j].tobytes()]
            raise AssertionError(
                f"{launch.kernel} ({arch}) argument {i}: {err}; {len(diff)} of {len(w_arr)} "
                f"elements differ, first at {diff[:5]}: got {[g_arr[j] for j in diff[:5]]}, "
                f"want {[w_arr[j] for j in diff[:5]]}"
            ) from None
        checked += 1
    assert checked, f"{launch.kernel}: the reference checks no argument"


def _run(launch: Any, module: ModuleOp, arch: str, *, physical: bool) -> None:
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected_for(arch)([copy.deepcopy(a) for a in args])
    got = run_kernel(
        module, launch.kernel, launch.grid, launch.block, [copy.deepcopy(a) for a in args],
        shared_bytes=launch.shared_bytes,
        # Triton's code never reads an undefined register or an inactive lane's SHFL
        # source: doing so here would be a lowering (or allocation) bug; in physical
        # mode strict also faults on any move of an HGMMA accumulator (or write of its
        # A fragments) before the wait (sm_90a tl.dot), as it would misbehave on the GPU.
        strict=True,
        physical=physical,
    )
    _check(launch, arch, got, want)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_launch_matches_numpy(launch: Any, arch: str) -> None:
    _run(launch, _module(launch, arch), arch, physical=False)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_launch_matches_numpy_after_ori_ptxas(launch: Any, arch: str) -> None:
    module = _module(launch, arch)
    apply_pipeline(module, "ori-ptxas", make_context())
    module.verify()
    _run(launch, module, arch, physical=True)


@pytest.mark.parametrize("launch", [la for la in LAUNCHES if _uses_wgmma(la, "sm_90a")], ids=_id)
def test_wgmma_launch_after_ori_ptxas_ssa(launch: Any) -> None:
    """The sm_90a ``wgmma`` kernels with the other strategy too: D and C one
    run, no move of the accumulator before the wait (strict), checked."""
    module = _module(launch, "sm_90a")
    apply_pipeline(module, "ori-ptxas{strategy=ssa}", make_context())
    module.verify()
    assert not check_module(module)
    _run(launch, module, "sm_90a", physical=True)


def test_launch_table_module_is_importable_without_triton() -> None:
    # the table (and so these tests) must not need Triton: only build_ptx.py does
    src = (TRITON_DIR / "launches.py").read_text()
    assert not re.search(r"^\s*(import|from)\s+triton\b", src, re.MULTILINE)
