"""The library kernels (CUB, Thrust, cooperative groups, module-scope data) of
``examples/library``: nvcc's PTX for real library code.

* The launch table covers every kernel of the sources, each launch's kernel is
  an ``.entry`` of the committed PTX, the numpy references are well formed;
  the committed PTX is what nvcc makes today (``-m fuzz``: nvcc needs ~30 s).
* Every PTX file (sm_80 and sm_90) imports and verifies.
* Every launch runs in the interpreter and matches numpy bit for bit, before
  and after ``ori-ptxas`` (physical-register mode after it); every file, and
  every kernel that is not launched on its own, compiles through ``ori-ptxas``.
  The post-pipeline checks run for sm_80 by default; the sm_90 repeat is
  ``-m fuzz``.

Nothing here skips on a missing feature: an import diagnostic, a pass that
refuses a module, an interpreter error or a numpy mismatch is a failure.
(``examples/library/ptx_entries.py``, which imports a file's kernels one at a
time, serves ``benchmarks/import_coverage.py --per-kernel`` on PTX ori cannot
import whole.)
"""

from __future__ import annotations

import copy
import importlib
import re
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
from passes.regalloc.checker import check_module

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # ``examples`` is a namespace package under the root
    sys.path.insert(0, str(ROOT))

lib_launches = importlib.import_module("examples.library.launches")
lib_build = importlib.import_module("examples.library.build_ptx")
single_entry = importlib.import_module("examples.library.ptx_entries").single_entry
entry_names = importlib.import_module("examples.library.ptx_entries").entry_names

LIB_DIR = ROOT / "examples" / "library"
PTX_DIR = LIB_DIR / "ptx"
ARCHS = ("sm_80", "sm_90")
LAUNCHES: list[Any] = lib_launches.LAUNCHES
STEMS = sorted(src.stem for src in lib_build.sources())

_SOURCE_KERNEL_RE = re.compile(r'extern\s+"C"\s+__global__\s+void\s+(\w+)\s*\(')


def _entries(arch: str, stem: str) -> list[str]:
    return entry_names((PTX_DIR / arch / f"{stem}.ptx").read_text())


def _launch_id(launch: Any) -> str:
    return f"{Path(launch.file).stem}.{launch.kernel}"


# ----------------------------------------------------------------------------- import / compile


_IMPORTED: dict[tuple[str, str], ModuleOp] = {}
_COMPILED: dict[tuple[str, str], ModuleOp] = {}


def _imported(arch: str, stem: str) -> ModuleOp:
    """The imported file (cached: cub_device.ptx has 35k lines and many kernels)."""
    key = (arch, stem)
    if key not in _IMPORTED:
        path = PTX_DIR / arch / f"{stem}.ptx"
        _IMPORTED[key] = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    return _IMPORTED[key]


def _compiled(arch: str, stem: str) -> ModuleOp:
    """The file after ori-ptxas, verified (cached like the import)."""
    key = (arch, stem)
    if key not in _COMPILED:
        compiled = _imported(arch, stem).clone()
        apply_pipeline(compiled, "ori-ptxas", make_context())
        compiled.verify()
        _COMPILED[key] = compiled
    return _COMPILED[key]


# ----------------------------------------------------------------------------- (a) the table


def test_enough_kernels() -> None:
    assert len(LAUNCHES) >= 32
    assert len({(la.file, la.kernel) for la in LAUNCHES}) == len(LAUNCHES)


def test_every_source_kernel_has_a_launch() -> None:
    found = {
        (src.name, name)
        for src in lib_build.sources()
        for name in _SOURCE_KERNEL_RE.findall(src.read_text())
    }
    table = {(la.file, la.kernel) for la in LAUNCHES}
    assert found, 'no extern "C" kernels in examples/library'
    assert found == table, (found - table, table - found)


@pytest.mark.parametrize("arch", ARCHS)
def test_committed_ptx_has_every_entry(arch: str) -> None:
    assert {p.stem for p in (PTX_DIR / arch).glob("*.ptx")} == set(STEMS)
    for la in LAUNCHES:
        text = la.ptx_path(arch).read_text()
        assert f".target {arch}" in text
        assert la.kernel in _entries(arch, Path(la.file).stem), (arch, la.kernel)
    # Kernels that are not launched (CUB/Thrust-internal parameters) come only from
    # the files that say so; there must be some, or the compile-only half is untested.
    launched = {(Path(la.file).stem, la.kernel) for la in LAUNCHES}
    compile_only = {Path(f).stem for f in lib_launches.COMPILE_ONLY}
    extra = {(s, k) for s in STEMS for k in _entries(arch, s) if (s, k) not in launched}
    assert extra and {s for s, _ in extra} == compile_only, sorted(extra)


def _stale(root: Path, arch: str) -> list[str]:
    stale = []
    for src in lib_build.sources():
        fresh = lib_build.compile_one(src, arch, root / arch).read_text()
        committed = (PTX_DIR / arch / f"{src.stem}.ptx").read_text()
        if lib_build.normalize_ptx(fresh) != lib_build.normalize_ptx(committed):
            stale.append(f"{arch}/{src.stem}.ptx")
    return stale


# nvcc needs ~15-30 s per target for these headers, a third of the default run's
# budget: the regeneration check runs with -m fuzz.
@pytest.mark.fuzz
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH: cannot regenerate")
@pytest.mark.parametrize("arch", ARCHS)
def test_committed_ptx_matches_nvcc(tmp_path: Path, arch: str) -> None:
    stale = _stale(tmp_path, arch)
    assert not stale, f"committed PTX is stale (run examples/library/build_ptx.py): {stale}"


@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_launch_entry_is_well_formed(launch: Any) -> None:
    la = launch
    assert (LIB_DIR / la.file).is_file()
    for dim in (la.grid, la.block):
        assert len(dim) == 3 and all(isinstance(d, int) and d >= 1 for d in dim)
    assert int(np.prod(la.block)) <= 1024 and la.exact
    args = la.make_args(np.random.default_rng(la.seed))
    again = la.make_args(np.random.default_rng(la.seed))
    for a, b in zip(args, again, strict=True):  # deterministic inputs
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
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
        if w is None:
            continue
        w, a = np.asarray(w), np.asarray(a)
        assert w.dtype == a.dtype and w.shape == a.shape, (la.kernel, w.dtype, a.dtype)
        changed += int(w.tobytes() != a.tobytes())
    assert changed >= 1, "the expected results equal the initial buffers: nothing is tested"
    for name, value in la.symbols.items():
        assert isinstance(value, np.ndarray) and value.ndim == 1, name
        assert re.search(rf"\b{name}\b", (LIB_DIR / la.file).read_text()), name


# ----------------------------------------------------------------------------- (b) import


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("stem", STEMS)
def test_imports(stem: str, arch: str) -> None:
    module = _imported(arch, stem)
    module.verify()
    assert module.attributes["ori.target"].data == arch  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- (c) run


def _run(module: ModuleOp, la: Any, arch: str, physical: bool) -> None:
    kwargs: dict[str, Any] = {}
    if la.symbols:
        kwargs["symbols"] = la.symbols
    printed: list[str] = []
    if la.printed is not None:
        kwargs["printf_out"] = printed
    args = la.make_args(np.random.default_rng(la.seed))
    want = la.expected([copy.deepcopy(a) for a in args])
    got = run_kernel(
        module,
        la.kernel,
        la.grid,
        la.block,
        [copy.deepcopy(a) for a in args],
        shared_bytes=la.shared_bytes,
        strict=not physical,  # undefined reads are a lowering bug (see test_import_examples)
        physical=physical,
        **kwargs,
    )
    mode = "after ori-ptxas" if physical else "imported"
    if la.printed is not None:
        want_lines = la.printed([copy.deepcopy(a) for a in args])
        assert want_lines, f"{la.kernel}: the launch prints nothing (a test that cannot fail)"
        assert sorted(printed) == sorted(want_lines), (
            f"{la.kernel} ({arch}, {mode}): printf printed {len(printed)} lines, want "
            f"{len(want_lines)}; first differences: "
            f"{sorted(set(printed) ^ set(want_lines))[:5]}")
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if w is None:
            continue
        g_arr, w_arr = np.asarray(g).ravel(), np.asarray(w).ravel()
        diff = [j for j in range(len(w_arr)) if g_arr[j].tobytes() != w_arr[j].tobytes()]
        if np.asarray(g).dtype != np.asarray(w).dtype or diff:
            raise AssertionError(
                f"{la.kernel} ({arch}, {mode}) argument {i}: {len(diff)} of {len(w_arr)} "
                f"elements differ, first at {diff[:5]}: got {[g_arr[j] for j in diff[:5]]}, "
                f"want {[w_arr[j] for j in diff[:5]]}"
            )


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_launch_matches_numpy(launch: Any, arch: str) -> None:
    _run(_imported(arch, Path(launch.file).stem), launch, arch, physical=False)


@pytest.mark.parametrize("arch", ["sm_80", pytest.param("sm_90", marks=pytest.mark.fuzz)])
@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_launch_matches_numpy_after_ori_ptxas(launch: Any, arch: str) -> None:
    _run(_compiled(arch, Path(launch.file).stem), launch, arch, physical=True)


# ----------------------------------------------------------------------------- (d) compile


@pytest.mark.parametrize("arch", ["sm_80", pytest.param("sm_90", marks=pytest.mark.fuzz)])
@pytest.mark.parametrize("stem", STEMS)
def test_compiles_with_ori_ptxas(stem: str, arch: str) -> None:
    """The whole file through ori-ptxas, every entry compiled: this is the test
    of the kernels that are never launched (CUB device-wide and Thrust
    parallel algorithms; one test per file, so that one process compiles it:
    cub_device.ptx takes about 90 s); the allocation checker finds every
    allocation valid."""
    module = _compiled(arch, stem)
    assert not check_module(module)
    compiled = {
        op.sym_name.data  # type: ignore[attr-defined]
        for op in module.walk()
        if getattr(op, "is_kernel", False)
    }
    assert set(_entries(arch, stem)) <= compiled


# ----------------------------------------------------------------------------- (e) the harness


def test_single_entry_keeps_lines_and_only_its_kernel() -> None:
    """The per-kernel fallback: the other bodies are blanked (inline asm's own
    column-0 braces included), the line numbers are the file's, and ptxas-valid
    structure (directives, module variables, functions) is kept."""
    text = (
        ".version 9.0\n.target sm_80\n.address_size 64\n.global .u32 g;\n"
        ".func f()\n{\n\tret;\n}\n"
        ".visible .entry a(\n)\n{\n\t// begin inline asm\n\t{\n\tmov.u32 %r1, 1;\n}\n"
        "\tret;\n}\n"
        ".visible .entry b(\n)\n{\n\tret;\n}\n"
    )
    assert entry_names(text) == ["a", "b"]
    only_b = single_entry(text, "b")
    assert only_b.count("\n") == text.count("\n")
    assert entry_names(only_b) == ["b"] and "mov.u32" not in only_b
    assert ".global .u32 g;" in only_b and ".func f()" in only_b
    only_a = single_entry(text, "a")
    assert entry_names(only_a) == ["a"] and "mov.u32" in only_a
    with pytest.raises(KeyError):
        single_entry(text, "c")
    with pytest.raises(ValueError, match="not closed"):
        single_entry(text[: text.rindex("}")], "a")
