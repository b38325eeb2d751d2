"""One shared layout per kernel (ori_dialect/ptx/lower/shared_layout.py):
tests/ptx/inputs/shared_layout.ptx (nvcc 13.0 of shared_layout.cu) has four
kernels over three ``__shared__`` arrays and a device function two of them
call.  The kernels compute what numpy says before and after ``ori-ptxas``;
the smem figures are ptxas 13.0's; the kernels that share no device
function get ptxas's offsets (measured with cuobjdump: k3 has ``b`` at
0x400, k4 at 0); k1 and k2 share one layout for their common ``dev``.  And
every example kernel's smem figure is ``ptxas -v``'s."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.module_vars import GlobalOp
from ori_dialect.ptx import parse_ptx
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.lower.shared_layout import function_refs, plan_shared_layouts
from ori_dialect.testing.equivalence import apply_pipeline, run_launch

PTX = Path(__file__).parent / "inputs" / "shared_layout.ptx"
ROOT_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
N = 64
T = np.arange(N)
WANT = {
    "k1": 4.0 * (63 - T),
    "k2": 8.0 * (63 - T),
    "k3": np.full(N, 3.0),
    "k4": 2.0 * (63 - T),
}
SMEM = {"k1": 1280, "k2": 512, "k3": 1280, "k4": 256}
"""``ptxas -v``'s ``bytes smem`` of each kernel."""


def _module(pipeline: str) -> ModuleOp:
    m = import_ptx(PTX.read_text(), "shared_layout.ptx")
    if pipeline:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, pipeline)
    return m


@pytest.mark.parametrize("pipeline, physical", [("", False), ("ori-ptxas", True)])
@pytest.mark.parametrize("kernel", sorted(WANT))
def test_kernels_compute_the_reference(kernel: str, pipeline: str, physical: bool) -> None:
    out = run_launch(_module(pipeline), kernel, [np.zeros(N, np.float32)], 1, N, strict=True,
                     physical=physical)
    assert out.results is not None, out.error
    np.testing.assert_array_equal(out.results[0], WANT[kernel].astype(np.float32))


def test_smem_figures_and_extents() -> None:
    m = _module("")
    funcs = {f.sym_name.data: f for f in m.walk() if isinstance(f, FuncOp)}
    for k, smem in SMEM.items():
        assert funcs[k].attributes["ori.shared_bytes"].value.data == smem  # type: ignore[attr-defined]
    # k1 and k2 share a, b, c laid out together (a 0, b 0x400, c 0x500)
    for k in ("k1", "k2"):
        assert funcs[k].attributes["ori.shared_extent"].value.data == 0x600  # type: ignore[attr-defined]
    for k in ("k3", "k4"):
        assert "ori.shared_extent" not in funcs[k].attributes
    offsets = {g.var_name: g.place for g in m.walk() if isinstance(g, GlobalOp)}
    # a is at 0 everywhere; b at 0x400 in k1/k2's and k3's layouts, 0 in k4's
    assert offsets == {"a": 0, "b": None}


def test_layouts() -> None:
    ast = parse_ptx(PTX.read_text(), "shared_layout.ptx")
    order, sizes = ["a", "b", "c"], {"a": (1024, 4), "b": (256, 4), "c": (256, 4)}
    lay = plan_shared_layouts(ast.functions, order, sizes, [], set())
    dev = next(f.name for f in ast.functions if f.kind == "func")
    assert lay.offsets["k1"] == lay.offsets["k2"] == lay.offsets[dev] == {
        "a": 0, "b": 0x400, "c": 0x500}
    assert lay.offsets["k3"] == {"a": 0, "b": 0x400}
    assert lay.offsets["k4"] == {"b": 0}
    assert lay.static_end["k4"] == 0x100
    assert lay.common == {"a": 0, "b": None, "c": 0x500}
    refs = function_refs(next(f for f in ast.functions if f.name == "k1"), set(order),
                         {f.name for f in ast.functions})
    assert refs.shared == {"a"} and refs.callees == {dev} and not refs.indirect


def test_dynamic_shared_after_the_group_static_end() -> None:
    ast = parse_ptx(PTX.read_text(), "shared_layout.ptx")
    order, sizes = ["a", "b", "c"], {"a": (1024, 4), "b": (250, 4), "c": (256, 4)}
    lay = plan_shared_layouts(ast.functions, order, sizes, ["dyn"], set())
    assert lay.offsets["k4"]["dyn"] == 0x100  # 250 rounded up to 16
    assert lay.offsets["k1"]["dyn"] == 0x600


EXAMPLES = sorted(ROOT_EXAMPLES.glob("**/ptx/sm_*/*.ptx"))


def _ptxas_smem(ptx: Path) -> dict[str, int]:
    """``ptxas -v``'s ``bytes smem`` per kernel (0 where it prints none)."""
    arch = next(p for p in ptx.parts if p.startswith("sm_"))
    err = subprocess.run(["ptxas", f"-arch={arch}", "-v", str(ptx), "-o", os.devnull],
                         capture_output=True, text=True, check=True).stderr
    out: dict[str, int] = {}
    kernel = None
    for line in err.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel = m.group(1)
        elif "Used" in line and kernel is not None:
            s = re.search(r"(\d+) bytes smem", line)
            out[kernel] = int(s.group(1)) if s else 0
            kernel = None
    return out


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
def test_smem_equals_ptxas_on_every_example() -> None:
    """Every example kernel's ``ori.shared_bytes`` is ptxas's ``bytes smem``."""
    assert len(EXAMPLES) > 50
    with ThreadPoolExecutor(max_workers=4) as pool:
        want = dict(zip(EXAMPLES, pool.map(_ptxas_smem, EXAMPLES), strict=True))
    wrong = []
    n = 0
    for ptx in EXAMPLES:
        m = import_ptx(ptx.read_text(), str(ptx))
        for f in m.walk():
            if isinstance(f, FuncOp) and f.is_kernel:
                a = f.attributes.get("ori.shared_bytes")
                got = a.value.data if a is not None else 0  # type: ignore[attr-defined]
                n += 1
                if want[ptx].get(f.sym_name.data) != got:
                    wrong.append(f"{ptx}: {f.sym_name.data[:60]} ori {got}, ptxas "
                                 f"{want[ptx].get(f.sym_name.data)}")
    assert n > 300
    assert not wrong, "\n".join(wrong)
