"""The PTX importer on the CUDA examples (nvcc's real output).

* Every ``examples/ptx/sm_80|sm_90/*.ptx`` imports, verifies, prints, and the
  printed text parses back (ori's own text format) to a module that verifies
  and prints identically.
* Every kernel of ``examples/cuda/launches.py`` runs in the interpreter, for
  sm_80 and sm_90, and leaves exactly what the numpy reference says (within
  the recorded tolerance for the one approximate kernel).

Nothing is skipped: a kernel whose PTX the importer cannot lower yet fails
with the importer's diagnostic.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ori_dialect.dialect import Ori
from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError

ROOT = Path(__file__).resolve().parents[2]
PTX_DIR = ROOT / "examples" / "ptx"
ARCHS = ("sm_80", "sm_90")
PTX_FILES = sorted(
    p.relative_to(PTX_DIR).as_posix() for a in ARCHS for p in (PTX_DIR / a).glob("*.ptx")
)


def _load_launches() -> ModuleType:
    path = ROOT / "examples" / "cuda" / "launches.py"
    spec = importlib.util.spec_from_file_location("ori_cuda_examples_launches", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


LAUNCHES_MOD = _load_launches()
LAUNCHES: list[Any] = LAUNCHES_MOD.LAUNCHES


def _context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return ctx


def _text(module: ModuleOp) -> str:
    s = io.StringIO()
    Printer(stream=s).print_op(module)
    return s.getvalue()


@functools.cache
def imported_example(rel: str) -> ModuleOp:
    """The imported module of ``examples/ptx/<rel>`` (imported once per session).

    Failures are re-raised on every call (functools.cache does not cache them).
    """
    path = PTX_DIR / rel
    return import_ptx(path.read_text(), str(path.relative_to(ROOT)))


def test_examples_exist() -> None:
    # Both architectures, and the same files for each (guards against an empty glob).
    assert len(PTX_FILES) >= 2 * 15
    names = {a: {p.split("/")[1] for p in PTX_FILES if p.startswith(a)} for a in ARCHS}
    assert names["sm_80"] == names["sm_90"]


@pytest.mark.parametrize("rel", PTX_FILES)
def test_import_verify_round_trip(rel: str) -> None:
    module = imported_example(rel)
    module.verify()
    arch = rel.split("/")[0]
    assert module.attributes["ori.target"].data == arch  # type: ignore[attr-defined]
    text = _text(module)
    again = Parser(_context(), text, rel).parse_module()
    again.verify()
    assert _text(again) == text


def _launch_id(launch: Any) -> str:
    return f"{Path(launch.file).stem}.{launch.kernel}"


def test_launch_table_is_complete() -> None:
    """Every kernel of every example PTX has a launch (so none goes untested)."""
    entries: set[tuple[str, str]] = set()
    for rel in PTX_FILES:
        if not rel.startswith("sm_80/"):
            continue
        text = (PTX_DIR / rel).read_text()
        for line in text.splitlines():
            if line.startswith((".visible .entry", ".entry")):
                name = line.split(".entry", 1)[1].strip().split("(")[0].strip()
                entries.add((Path(rel).stem, name))
    launched = {(Path(la.file).stem, la.kernel) for la in LAUNCHES}
    assert entries, "no kernels found"
    missing = {e for e in entries if e not in launched}
    assert not missing, f"kernels without a launch: {sorted(missing)}"


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_launch_matches_numpy(launch: Any, arch: str) -> None:
    rel = f"{arch}/{Path(launch.file).stem}.ptx"
    module = imported_example(rel)
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected([copy.deepcopy(a) for a in args])
    assert len(want) == len(args)
    got = run_kernel(
        module,
        launch.kernel,
        launch.grid,
        launch.block,
        [copy.deepcopy(a) for a in args],
        shared_bytes=launch.shared_bytes,
        # Reading an undefined register or an inactive lane's SHFL source is
        # an error here: nvcc's code never does, so it would be a lowering bug.
        strict=True,
    )
    checked = 0
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if w is None:
            continue
        try:
            launch.check(g, w)
        except AssertionError as err:
            g_arr, w_arr = np.asarray(g).ravel(), np.asarray(w).ravel()
            diff = [
                j
                for j in range(min(len(g_arr), len(w_arr)))
                if g_arr[j].tobytes() != w_arr[j].tobytes()
            ]
            raise AssertionError(
                f"{launch.kernel} ({arch}) argument {i}: {err}; {len(diff)} of {len(w_arr)} "
                f"elements differ, first at {diff[:5]}: got {[g_arr[j] for j in diff[:5]]}, "
                f"want {[w_arr[j] for j in diff[:5]]}"
            ) from None
        checked += 1
    assert checked, f"{launch.kernel}: the reference checks no argument"


def test_diagnostic_names_the_file() -> None:
    """A lowering failure in an example would name FILE:LINE:COL (sanity of the harness)."""
    bad = (PTX_DIR / "sm_80" / "saxpy.ptx").read_text().replace("ret;", "frobnicate.u32 %r1;", 1)
    with pytest.raises(PtxSyntaxError) as info:
        import_ptx(bad, "examples/ptx/sm_80/saxpy.ptx")
    assert str(info.value).startswith("examples/ptx/sm_80/saxpy.ptx:")
    assert "frobnicate" in str(info.value)
