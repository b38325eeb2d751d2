"""sm_90a warpgroup MMA: the PTX import of ``wgmma.*`` / ``fence.proxy.async``
(ori_dialect/ptx/lower/gmma.py), the interpreter's HGMMA (interpreter/gmma.py)
and the kernels of ``examples/wgmma``.

* The examples match numpy bit for bit before and after ``ori-ptxas`` (physical
  registers: the accumulator tuples allocated as aligned runs).
* On random f16 inputs the results equal the accumulation model the H200
  showed (interpreter/gmma.py, "Numerics") and float64 within its bound.
* Fragments and descriptors: the D layout is checked element by element, the
  swizzle formula on known addresses, and unmodelled descriptors fault.
* Asynchrony: reading an accumulator before the covering ``wgmma.wait_group``
  is an interpreter error naming the instruction and the thread; after
  ``wait_group 1`` the older group may be read and the newer may not.
* Every unmodelled form stops with one diagnostic.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.interpreter.gmma import descriptor_offsets, hgmma_numerics
from ori_dialect.ir.registers import R1024Type, R2048Type
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.gmma import (
    FenceAsyncOp,
    GmmaCommitOp,
    HgmmaOp,
    WarpgroupArriveOp,
    WarpgroupDepbarOp,
)
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.regalloc.checker import check_module

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

wg_launches = importlib.import_module("examples.wgmma.launches")
wg_build = importlib.import_module("examples.wgmma.build_ptx")
LAUNCHES: list[Any] = wg_launches.LAUNCHES
PTX = ROOT / "examples" / "wgmma" / "ptx" / "sm_90a" / "wgmma.ptx"


@functools.cache
def _imported() -> ModuleOp:
    m = import_ptx(PTX.read_text(), "wgmma.ptx")
    m.verify()
    return m


@functools.cache
def _compiled(strategy: str = "fatpoint") -> ModuleOp:
    m = _imported().clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-ptxas{{strategy={strategy}}}", make_context())
    return m


def _check(module: ModuleOp, launch: Any, physical: bool) -> None:
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected(args)
    # strict: in physical mode a move of an HGMMA accumulator (or a write of
    # its A fragments) before the wait faults, as it would misbehave on the GPU
    got = run_kernel(module, launch.kernel, launch.grid, launch.block, args, physical=physical,
                     strict=True)
    assert any(w is not None for w in want)
    for g, w in zip(got, want):
        if w is not None:
            launch.check(g, w)


# ----------------------------------------------------------------------------- examples


@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda la: la.kernel)
def test_example_matches_numpy(launch: Any) -> None:
    _check(_imported(), launch, physical=False)


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda la: la.kernel)
def test_example_matches_numpy_after_ori_ptxas(launch: Any, strategy: str) -> None:
    """Physical registers, strict: no move of an accumulator and no write of
    A's fragments before the wait (passes/regalloc/inflight.py)."""
    m = _compiled(strategy)
    assert not check_module(m)
    _check(m, launch, physical=True)


def test_accumulators_allocate_as_aligned_runs() -> None:
    """Register tuples sit at quads, as ptxas places them (R44 for a
    16-register and R116 for a 32-register accumulator: registers.py
    TUPLE_TYPES); ori's allocator uses that freedom."""
    seen, below_size = 0, 0
    for op in _compiled().walk():
        if isinstance(op, HgmmaOp):
            t = op.results[0].type
            base = t.phys_index  # type: ignore[attr-defined]
            assert base is not None and base % type(t).alignment() == 0  # type: ignore[attr-defined]
            below_size += base % type(t).num_regs() != 0  # type: ignore[attr-defined]
            seen += 1
    assert seen >= 4 and below_size


def test_every_kernel_is_launched() -> None:
    import re

    src = (ROOT / "examples" / "wgmma" / "wgmma.cu").read_text()
    names = set(re.findall(r'extern "C" __global__ void __launch_bounds__\(128\) (\w+)', src))
    assert names == {la.kernel for la in LAUNCHES}


@pytest.mark.fuzz
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH: cannot regenerate")
def test_committed_ptx_matches_nvcc(tmp_path: Path) -> None:
    for src in wg_build.sources():
        fresh = wg_build.compile_one(src, "sm_90a", tmp_path).read_text()
        assert wg_build.normalize_ptx(fresh) == wg_build.normalize_ptx(PTX.read_text())


def test_random_inputs_follow_the_accumulation_model() -> None:
    """f16 inputs with full significands: each wgmma rounds as the H200 does
    (interpreter/gmma.py, "Numerics": HMMA's rule with the 16 products as one
    step, the sum cut toward zero to f32 -- tests/interpreter/test_wgmma_hardware.py
    holds the measurements), chained over the K loop; that is within the rule's
    bound of the float64 product over the whole K (tolerance) and differs from
    a float64 k16 sum rounded once to nearest (ori's former model)."""
    rng = np.random.default_rng(7)
    k = 32
    a = rng.uniform(-1, 1, (64, k)).astype(np.float16)
    bt = rng.uniform(-1, 1, (64, k)).astype(np.float16)
    got = run_kernel(_imported(), "wgmma_f16_nosw", 1, 128,
                     [a, bt, np.zeros((64, 64), np.float32), np.int32(k)])[2]
    a32, b32 = a.astype(np.float32), bt.astype(np.float32).T
    model = np.zeros((64, 64), np.float32)
    nearest = np.zeros((64, 64), np.float32)
    for k0 in range(0, k, 16):  # one commit group per k16 step, each rounded to f32
        model = hgmma_numerics(a32[:, k0:k0 + 16], b32[k0:k0 + 16], model, "f16", "f32")
        part = a32[:, k0:k0 + 16].astype(np.float64) @ b32[k0:k0 + 16].astype(np.float64)
        nearest = (nearest.astype(np.float64) + part).astype(np.float32)
    assert np.array_equal(got.view(np.uint32), model.view(np.uint32))
    assert not np.array_equal(got, nearest)
    # per wgmma: 17 terms truncated below 2**(E - 25), E <= 4 (|sum| < 16 + 16), and the
    # cut to f32 (< 2**-23 of the sum); two wgmmas
    exact = a32.astype(np.float64) @ b32.astype(np.float64)
    bound = (k // 16) * (17 * 2.0**(4 - 25) + 2.0**-23 * 32)
    assert np.abs(got - exact).max() < bound
    assert not np.array_equal(got, exact.astype(np.float32))


# ----------------------------------------------------------------------------- import


def test_lowering_builds_the_sass_families() -> None:
    m = _imported()
    kinds = {type(op) for op in m.walk()}
    assert {HgmmaOp, WarpgroupArriveOp, GmmaCommitOp, WarpgroupDepbarOp, FenceAsyncOp} <= kinds
    mods = {op.properties["mods"].data for op in m.walk() if isinstance(op, HgmmaOp)}  # type: ignore[union-attr]
    assert {"m64n64k16", "m64n32k16.bf16", "m64n32k16.tnspb", "m64n32k16.f16.nega"} <= mods
    tuples = {type(op.results[0].type) for op in m.walk() if isinstance(op, HgmmaOp)}
    assert R1024Type in tuples


HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n"


def _kernel(body: str, acc: int = 4, extra: str = "") -> str:
    regs = ",".join(f"%f{i}" for i in range(acc))
    body = body.replace("ACC", "{" + regs + "}")
    return HEAD + f""".visible .entry k(.param .u64 p)
{{
  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .f32 %f<80>;
  ld.param.u64 %rd1, [p];
  mov.b64 %rd2, 0; mov.b64 %rd3, 0;
  {extra}
  {body}
  ret;
}}
"""


def _ptx_error(src: str) -> str:
    with pytest.raises(PtxSyntaxError) as e:
        import_ptx(src)
    return str(e.value)


@pytest.mark.parametrize(
    ("body", "acc", "message"),
    [
        ("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16 ACC, %rd2, %rd3, 1, 1, 1, 0, 0;",
         4, "the sparse form"),
        ("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 ACC, %rd2, %rd3, 1, 1, 1, 0, 0;",
         4, "expected wgmma.mma_async.sync.aligned.m64nNk16"),
        ("wgmma.mma_async.sync.aligned.m64n8k16.f32.e4m3.e4m3 ACC, %rd2, %rd3, 1, 1, 1, 0, 0;",
         4, "only f16 x f16"),
        ("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 ACC, %rd2, %rd3, 1, 2, 1, 0, 0;",
         4, "imm-scale-a must be one of 1, -1"),
        ("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 ACC, %rd2, %rd3, 1, 1, 1, 0, 0;",
         4, "accumulator is a vector of 8 registers"),
        ("@%p1 wgmma.fence.sync.aligned;", 4, "a guarded wgmma"),
        ("wgmma.wait_group.sync.aligned 9;", 4, "operand must be one of 0, 1"),
        ("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 ACC, %rd2, %rd3, 1, 1, 1, 0, 0;",
         64, "bad vector width: 64 elements|a vector of 128 registers|at most 64"),
    ],
)
def test_unmodelled_forms_stop_with_one_diagnostic(body: str, acc: int, message: str) -> None:
    import re

    assert re.search(message, _ptx_error(_kernel(body, acc)))


def test_long_vectors_only_for_wgmma() -> None:
    src = _kernel("mov.b32 %r1, 0;", extra="st.global.v16.f32 [%rd1], {%f0,%f1,%f2,%f3,%f4,%f5,"
                  "%f6,%f7,%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};")
    assert "bad vector width" in _ptx_error(src)


def test_widest_accumulator_is_a_2048_bit_tuple() -> None:
    body = ("wgmma.fence.sync.aligned;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 ACC, %rd2, %rd3, 0, 1, 1, 0, 0;\n"
            "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;")
    m = import_ptx(_kernel(body, 64))
    (op,) = [o for o in m.walk() if isinstance(o, HgmmaOp)]
    assert isinstance(op.results[0].type, R2048Type)


# ----------------------------------------------------------------------------- semantics


def test_d_fragment_layout() -> None:
    """Through the real kernel's store of its fragments: with A = [I16; 0]
    and Bt[c][k] = c + 64 k (exact in f16), D[r][c] = c + 64 r for the first
    16 rows and 0 below, so every thread's registers hold the elements the
    PTX ISA's D layout gives them."""
    a = np.zeros((64, 16), np.float16)
    a[np.arange(16), np.arange(16)] = 1
    bt = (np.arange(64)[:, None] + 64 * np.arange(16)[None, :]).astype(np.float16)
    got = run_kernel(_imported(), "wgmma_f16_nosw", 1, 128,
                     [a, bt, np.zeros((64, 64), np.float32), np.int32(16)])[2]
    want = np.zeros((64, 64), np.float32)
    want[:16] = np.arange(64)[None, :] + 64 * np.arange(16)[:, None]
    assert np.array_equal(got, want)


def test_descriptor_swizzle_and_unmodelled_modes() -> None:
    sw128 = (1 << 62) | ((1024 >> 4) << 32)  # start 0, SBO 1024
    x = descriptor_offsets(sw128, 16, False)
    assert x[0, 0] == 0 and x[1, 0] == 128 + 16  # row 1: chunk 0 -> chunk 1
    assert x[9, 8] == 1024 + 128 + (16 ^ 16)  # row 9: chunk 1 -> chunk 0
    nosw = (128 >> 4 << 16) | (256 >> 4 << 32)
    y = descriptor_offsets(nosw, 16, False)
    assert y[9, 9] == 256 + 128 + 16 + 2
    with pytest.raises(Exception, match="MN-major operand without swizzling"):
        descriptor_offsets(nosw, 16, True)
    with pytest.raises(Exception, match="matrix base offset"):
        descriptor_offsets(sw128 | (1 << 49), 16, False)


_SETUP = """
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd2, %rd3, 0, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
"""


def _run_small(body: str, threads: int = 128) -> None:
    m = import_ptx(_kernel(_SETUP + body))
    run_kernel(m, "k", 1, threads, [np.zeros(256, np.float32)], shared_bytes=4096)


def test_read_before_wait_is_an_error() -> None:
    with pytest.raises(InterpreterError) as e:
        _run_small("add.f32 %f9, %f1, %f1;\n wgmma.wait_group.sync.aligned 0;")
    text = str(e.value)
    assert "reads an HGMMA accumulator of commit group 0 before the wgmma.wait_group" in text
    assert "ori.fadd" in text and "tid (0,0,0)" in text


def test_read_after_wait_is_fine_and_wait_1_leaves_the_newest_pending() -> None:
    _run_small("wgmma.wait_group.sync.aligned 0;\n add.f32 %f9, %f1, %f1;\n"
               "st.global.f32 [%rd1], %f9;")
    second = ("wgmma.fence.sync.aligned;\n"
              "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4,%f5,%f6,%f7}, %rd2, %rd3, "
              "0, 1, 1, 0, 0;\n wgmma.commit_group.sync.aligned;\n"
              "wgmma.wait_group.sync.aligned 1;\n add.f32 %f9, %f1, %f1;\n")
    _run_small(second + "st.global.f32 [%rd1], %f9;")
    with pytest.raises(InterpreterError, match="commit group 1 before"):
        _run_small(second + "add.f32 %f10, %f5, %f5;")


def test_partial_warpgroup_faults() -> None:
    with pytest.raises(InterpreterError, match="64 of the warpgroup's 128 threads execute it"):
        _run_small("wgmma.wait_group.sync.aligned 0;", threads=64)


def test_descriptor_outside_shared_memory_faults() -> None:
    body = _SETUP.replace("%rd2, %rd3", "%rd4, %rd3")
    m = import_ptx(_kernel(body, extra="mov.b64 %rd4, 16383;"))
    with pytest.raises(InterpreterError, match="outside the CTA's"):
        run_kernel(m, "k", 1, 128, [np.zeros(4, np.float32)])


# ----------------------------------------------------------------------------- allocation


def test_max_regs_32_stops_with_a_diagnostic() -> None:
    """ptxas 13.0 on these kernels without launch bounds, or with
    ``--override-directive-values``: ``C7602 Insufficient registers (32) to
    compile instruction``; ori stops with its own minimum."""
    src = PTX.read_text().replace(".maxntid 128, 1, 1", "")
    m = import_ptx(src, "wgmma.ptx")
    with pytest.raises(PassFailedException, match="Register allocation failed with register "
                       "count of '32' .*ori.hgmma"):
        apply_pipeline(m, "ori-ptxas{max-regs=32}", make_context())
    m = _imported().clone()
    with pytest.raises(PassFailedException, match="Register allocation failed with register "
                       "count of '32' .*ori.hgmma"):
        apply_pipeline(m, "ori-ptxas{max-regs=32 override-directive-values=true}",
                       make_context())


@functools.cache
def _compiled_at_32() -> ModuleOp:
    m = _imported().clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-ptxas{max-regs=32}", make_context())
    return m


@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda la: la.kernel)
def test_max_regs_32_is_ignored_under_launch_bounds(launch: Any) -> None:
    """The kernels' ``.maxntid 128`` sets their limit, so ptxas 13.0 ignores
    ``--maxrregcount 32`` (38 to 64 registers, no spills; ``ptxas -v`` says
    nothing) and so does ori: they compile, unchanged in what they compute."""
    _check(_compiled_at_32(), launch, physical=True)
    f = next(f for f in _compiled_at_32().walk()
             if isinstance(f, FuncOp) and f.sym_name.data == launch.kernel)
    assert f.attributes["ori.max_regs"].value.data == 255  # type: ignore[union-attr]


@functools.cache
def _compiled_at_48(strategy: str) -> ModuleOp:
    m = _imported().clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-ptxas{{max-regs=48 override-directive-values=true "
                          f"strategy={strategy}}}", make_context())
    return m


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda la: la.kernel)
def test_overridden_cap_of_48(launch: Any, strategy: str) -> None:
    """``max-regs=48`` through the launch bounds: the 32-register
    accumulator of ``wgmma_f16_nosw`` and its copies fit only as quad-aligned
    runs with the rest spilled, and the kernels still compute what numpy
    does.  (ptxas refuses this cap: ``C7602 ... register target of 58``, its
    accumulators never go below R24; ori's may, as the hardware allows.)"""
    m = _compiled_at_48(strategy)
    assert not check_module(m)
    f = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == launch.kernel)
    assert f.attributes["ori.num_regs"].value.data <= 48  # type: ignore[union-attr]
    _check(m, launch, physical=True)
