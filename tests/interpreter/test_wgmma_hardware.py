"""``wgmma.mma_async`` (HGMMA) against a GPU: the interpreter, before and after
``ori-ptxas`` (physical registers, strict), reproduces bit for bit what an
NVIDIA H200 (driver 580.159.04) computed for the inputs in
``data/wgmma_h200.npz``.

The fixture comes from ``data/wgmma_probe.cu`` (its header says how it was
built and run, and what each mode and special case is) through
``data/wgmma_npz.py``: single ``m64nNk16`` instructions -- f16 and bf16
inputs, f32 and f16 accumulators, N 8, 16 and 64, A from shared-memory
descriptors (``_ss``) and from registers (``_rs``), scale-d 1 and 0
(``_sd1`` / ``_sd0``), imm-scale-a -1 (``_neg``) -- on random exponents (mode
4), uniform inputs (mode 6) and special values (mode 5: subnormals,
infinities, NaNs, overflow, f16 ties, signed zeros, cancellation, the
alignment boundary, a k8 split), and the H200's results for Triton's
``matmul_m64`` (sm_90a) and the four ``examples/wgmma`` kernels on random
inputs (``_e``: chains of 2 to 4 HGMMAs, 128- and 64-byte swizzles, MN-major
B, f16 accumulators with A from registers).  The kernels run here are the
ones the H200 ran: the probe's PTX (``data/wgmma_probe.ptx``, nvcc 13.0's
for ``wgmma_probe.cu``), Triton's and the examples' committed PTX.

What the H200 showed (90 runs of the probe, 1,382,400 outputs; the fixture
keeps one warp's rows of a sample of them, see ``wgmma_npz.keep``): one HGMMA
rounds exactly as one HMMA with its 16 products as a single step
(:func:`~ori_dialect.interpreter.gmma.hgmma_numerics`, the "Numerics" of
:mod:`ori_dialect.interpreter.gmma`) on every output, and on all 2,048 of
``matmul_m64`` and 20,480 of the examples; ori's former model (a float64
k-sum plus C rounded once to nearest-even) disagreed on 395,279 of the
probe's outputs and on 22 of ``matmul_m64``'s, two steps of 8 products on
314,480, 24 or 26 alignment bits on 255,301 and 142,397 -- on the fixture too
(``test_the_data_tell_the_rules_apart``).
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.interpreter import run_kernel
from ori_dialect.interpreter import tensor as tensor_model
from ori_dialect.interpreter.gmma import hgmma_numerics
from ori_dialect.interpreter.tensor import half_to_f32, mma_reference, to_f16_accumulator
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from examples.triton import launches as triton_launches

DATA = Path(__file__).resolve().parent / "data"
NPZ = DATA / "wgmma_h200.npz"
PTX = DATA / "wgmma_probe.ptx"
FORM = re.compile(r"^(bf16|f16)_(f32|f16)_n(\d+)_(ss|rs)(_neg)?$")
RUN = re.compile(r"^(.*)_sd([01])_m(\d+)$")


@functools.cache
def _fixture() -> dict[str, np.ndarray]:
    return dict(np.load(NPZ))


def _runs() -> list[str]:
    """The probe's runs in the fixture: FORM_sdS_mMODE."""
    return sorted({k.rsplit(".", 1)[0] for k in _fixture() if RUN.match(k.rsplit(".", 1)[0])})


FORMS = sorted({RUN.match(r).group(1) for r in _runs()})  # type: ignore[union-attr]


def _form(form: str) -> tuple[str, str, int, bool]:
    """(input type, accumulator type, N, imm-scale-a -1)."""
    m = FORM.match(form)
    assert m, form
    return m.group(1), m.group(2), int(m.group(3)), bool(m.group(5))


def _case(run: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    d = _fixture()
    return d[f"{run}.a"], d[f"{run}.b"], d[f"{run}.c"], d[f"{run}.d"]


def _rule(form: str, sd: int, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """HGMMA's rule (:func:`hgmma_numerics`) per warpgroup on the fixture's bit
    patterns: D's bit patterns."""
    fmt, acc, _, neg = _form(form)
    av, bv = half_to_f32(a, fmt == "bf16"), half_to_f32(b, fmt == "bf16")
    cv = half_to_f32(c, False) if acc == "f16" else c.view(np.float32)
    out = []
    for w in range(a.shape[0]):
        d = hgmma_numerics(-av[w] if neg else av[w], bv[w],
                           cv[w] if sd else np.zeros_like(cv[w]), fmt, acc)
        out.append(to_f16_accumulator(d).view(np.uint16) if acc == "f16" else d.view(np.uint32))
    return np.stack(out)


# ------------------------------------------------------------------- the probe's kernels
@functools.cache
def _module(physical: bool) -> ModuleOp:
    m = import_ptx(PTX.read_text(), "wgmma_probe.ptx")
    m.verify()
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
        m.verify()
    return m


def _launch(form: str, sd: int, a: np.ndarray, b: np.ndarray, c: np.ndarray,
            physical: bool) -> np.ndarray:
    """The probe's kernel ``form`` on warpgroups of one warp's rows (A (W, 16, 16),
    B (W, 16, N), C (W, 16, N)), each repeated in the four warps: D (W, 64, N),
    as the probe reads it back (one uint32 per element)."""
    w, n = a.shape[0], b.shape[2]
    big_a, big_c = np.tile(a, (1, 4, 1)), np.tile(c, (1, 4, 1))
    out = np.zeros(w * 64 * n, np.uint32)
    got = run_kernel(_module(physical), form, w, 128,
                     [big_a.astype(np.uint32).ravel(), b.astype(np.uint32).ravel(),
                      big_c.astype(np.uint32).ravel(), out, np.int32(sd)],
                     strict=True, physical=physical)[3]
    return got.reshape(w, 64, n)


def _gathered(form: str, sd: int) -> tuple[np.ndarray, ...]:
    """Every warpgroup of the form's runs with scale-d ``sd``, concatenated."""
    runs = [r for r in _runs() if r.startswith(f"{form}_sd{sd}_")]
    parts = [_case(r) for r in runs]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


@pytest.mark.parametrize("physical", [pytest.param(False, marks=pytest.mark.fuzz), True],
                         ids=["ssa", "ori-ptxas"])
@pytest.mark.parametrize("form", FORMS)
def test_interpreter_matches_h200(form: str, physical: bool) -> None:
    """The probe's PTX in the interpreter (after ori-ptxas: physical registers,
    strict) gives the H200's D bit for bit, in each of the four warps.  The
    same before allocation (``ssa``) is ``-m fuzz``: 5-7 s a form, and the
    numerics it checks are the ones the physical run executes."""
    for sd in (0, 1):
        a, b, c, d = _gathered(form, sd)
        got = _launch(form, sd, a, b, c, physical)
        want = np.tile(d.astype(np.uint32), (1, 4, 1))
        assert np.array_equal(got, want), (form, sd, int((got != want).sum()))


@pytest.mark.parametrize("run", _runs())
def test_rule_matches_h200(run: str) -> None:
    m = RUN.match(run)
    assert m
    a, b, c, d = _case(run)
    with np.errstate(invalid="ignore", over="ignore"):
        got = _rule(m.group(1), int(m.group(2)), a, b, c)
    assert np.array_equal(got, d), (run, int((got != d).sum()))


def test_fixture_covers_the_forms() -> None:
    """Every form the probe runs, with scale-d 0 and 1; the special values on
    f16 and bf16 inputs, both accumulators, A from registers and from
    descriptors, negated A."""
    assert len(FORMS) == 15
    for form in FORMS:
        assert any(r.startswith(f"{form}_sd0_") for r in _runs())
        assert any(r.startswith(f"{form}_sd1_") for r in _runs())
    special = [RUN.match(r).group(1) for r in _runs() if r.endswith("_sd1_m5")]  # type: ignore[union-attr]
    kinds = {_form(f)[:2] for f in special} | {(f.endswith("_neg"), "rs" in f) for f in special}
    assert {("f16", "f32"), ("bf16", "f32"), ("f16", "f16"), (True, True), (False, False),
            (True, False), (False, True)} <= kinds


# --------------------------------------------------------------- what the data rule out
def _alternative(form: str, sd: int, a: np.ndarray, b: np.ndarray, c: np.ndarray,
                 model: str) -> np.ndarray:
    fmt, acc, _, neg = _form(form)
    av, bv = half_to_f32(a, fmt == "bf16"), half_to_f32(b, fmt == "bf16")
    av = -av if neg else av
    cv = half_to_f32(c, False) if acc == "f16" else c.view(np.float32)
    cv = cv if sd else np.zeros_like(cv)  # scale-d 0: C is not read
    if model == "float64":  # ori's former model: one rounding to nearest-even
        r = cv.astype(np.float64) + av.astype(np.float64) @ bv.astype(np.float64)
        return (r.astype(np.float16).view(np.uint16) if acc == "f16"
                else r.astype(np.float32).view(np.uint32))
    step = 8 if model == "k8" else 16
    d = cv.astype(np.float32)
    for k0 in range(0, 16, step):
        d = mma_reference(av[:, :, k0:k0 + step], bv[:, k0:k0 + step], d, fmt, acc)
        if acc == "f16":
            d = to_f16_accumulator(d).astype(np.float32)
    return to_f16_accumulator(d).view(np.uint16) if acc == "f16" else d.view(np.uint32)


def test_the_data_tell_the_rules_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the fixture's outputs, ori's former HGMMA model (float64 k-sum plus C,
    one rounding to nearest-even), two steps of 8 products, and 24 or 26
    alignment bits each disagree with the H200: on 6,990, 5,129, 4,314 and
    2,314 of its 27,776 outputs (the full runs' counts are in the module
    docstring)."""
    def wrong(model: str) -> int:
        n = 0
        for run in _runs():
            m = RUN.match(run)
            assert m
            a, b, c, d = _case(run)
            with np.errstate(invalid="ignore", over="ignore"):
                n += int((_alternative(m.group(1), int(m.group(2)), a, b, c, model) != d).sum())
        return n

    counts = {"float64": wrong("float64"), "k8": wrong("k8")}
    monkeypatch.setattr(tensor_model, "MMA_ALIGN_BITS", 24)
    counts["bits24"] = wrong("k16")
    monkeypatch.setattr(tensor_model, "MMA_ALIGN_BITS", 26)
    counts["bits26"] = wrong("k16")
    monkeypatch.setattr(tensor_model, "MMA_ALIGN_BITS", 25)
    assert wrong("k16") == 0
    assert counts == {"float64": 6990, "k8": 5129, "bits24": 4314, "bits26": 2314}, counts
    assert sum(_case(r)[3].size for r in _runs()) == 27776


# ------------------------------------------------------------ matmul_m64 and examples/wgmma
def _triton_m64() -> tuple[object, list[object]]:
    la = next(x for x in triton_launches.LAUNCHES if x.kernel == "matmul_m64")
    args = la.make_args(np.random.default_rng(la.seed))
    d = _fixture()
    assert np.array_equal(d["matmul_m64.0"], args[0]) and np.array_equal(d["matmul_m64.1"], args[1])
    return la, args


@pytest.mark.parametrize("physical", [False, True], ids=["ssa", "ori-ptxas"])
def test_triton_matmul_m64_matches_h200(physical: bool) -> None:
    """Triton's sm_90a matmul_m64 (two m64n16k16 per output tile, an f32
    accumulator chained through them): the H200's C is the launch table's
    reference (the HMMA chain, one rounding per k16 instruction) and the
    interpreter's, bit for bit; the former model's differs on 22 outputs."""
    la, args = _triton_m64()
    hw = _fixture()["matmul_m64.2"]
    want = la.expected(copy.deepcopy(args))[2]  # type: ignore[attr-defined]
    assert np.array_equal(want.view(np.uint32), hw.view(np.uint32))
    a, b = triton_launches.MM_M64.operands(args)
    old = np.zeros((64, 32), np.float32)
    for k0 in (0, 16):
        part = a[:, k0:k0 + 16].astype(np.float64) @ b[k0:k0 + 16].astype(np.float64)
        old = (old.astype(np.float64) + part).astype(np.float32)
    assert int((old.ravel() != hw).sum()) == 22
    module = import_ptx(la.ptx_path("sm_90a").read_text(), "matmul_m64.ptx")  # type: ignore[attr-defined]
    module.verify()
    if physical:
        apply_pipeline(module, "ori-ptxas", make_context())
        module.verify()
    got = run_kernel(module, "matmul_m64", la.grid, la.block,  # type: ignore[attr-defined]
                     copy.deepcopy(args), shared_bytes=la.shared_bytes,  # type: ignore[attr-defined]
                     strict=True, physical=physical)[2]
    assert np.array_equal(np.asarray(got).view(np.uint32), hw.view(np.uint32))


EXAMPLES = {"wgmma_f16_nosw_e": 2, "wgmma_bf16_sw128_e": 2, "wgmma_f16_sw64_mn_e": 2,
            "wgmma_rs_f16acc_e": 3}  # run -> the argument the kernel writes


@functools.cache
def _examples(physical: bool) -> ModuleOp:
    m = import_ptx((ROOT / "examples/wgmma/ptx/sm_90a/wgmma.ptx").read_text(), "wgmma.ptx")
    m.verify()
    if physical:
        apply_pipeline(m, "ori-ptxas", make_context())
        m.verify()
    return m


@pytest.mark.parametrize("physical", [False, True], ids=["ssa", "ori-ptxas"])
@pytest.mark.parametrize("run", sorted(EXAMPLES))
def test_wgmma_examples_match_h200(run: str, physical: bool) -> None:
    """The examples/wgmma kernels on random-exponent inputs (chains of HGMMAs,
    swizzles, MN-major B, A from registers with f16 accumulators): the H200's
    outputs, bit for bit."""
    d = _fixture()
    out = EXAMPLES[run]
    args: list[object] = [d[f"{run}.{j}"] for j in range(out + 1)]
    if run.startswith("wgmma_f16_nosw"):
        args.append(np.int32(48))
    want = args[out]
    args[out] = np.zeros_like(want)
    got = run_kernel(_examples(physical), run[:-2], 1, 128, args, strict=True,
                     physical=physical)[out]
    assert np.array_equal(np.asarray(got).view(np.uint8), np.asarray(want).view(np.uint8)), run


# ------------------------------------------------------------------ the fixture's making
def test_probe_runs_convert_into_cases(tmp_path: Path) -> None:
    """The way probe runs join the fixture: run files in the probe's format (here
    written from the rule itself: W warpgroups, one uint32 per element) go
    through ``data/wgmma_npz.py`` into entries the tests above read."""
    spec = importlib.util.spec_from_file_location("wgmma_npz", DATA / "wgmma_npz.py")
    assert spec is not None and spec.loader is not None
    wgmma_npz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wgmma_npz)
    rng = np.random.default_rng(3)
    names = ["bf16_f32_n8_rs_sd1_m5", "f16_f16_n16_ss_sd1_m4"]
    for name in names:
        form = name.split("_sd")[0]
        fmt, acc, n, _ = _form(form)
        w = 16
        a = rng.integers(0, 0x3C00, (w, 64, 16)).astype(np.uint16)
        b = rng.integers(0, 0x3C00, (w, 16, n)).astype(np.uint16)
        if fmt == "bf16":
            a, b = a >> 5, b >> 5  # bf16 patterns below 2
        c = (rng.integers(0, 0x3C00, (w, 64, n)) if acc == "f16"
             else rng.uniform(-4, 4, (w, 64, n)).astype(np.float32).view(np.uint32))
        d = _rule(form, 1, a, b, c.astype(np.uint16) if acc == "f16" else c)
        np.concatenate([x.astype(np.uint32).ravel() for x in (a, b, c, d)]).tofile(
            tmp_path / f"{name}.bin")
    (tmp_path / "f16_k16_f32_m4.bin").write_bytes(b"")  # an mma_probe run: left alone
    npz = tmp_path / "h200.npz"
    assert wgmma_npz.convert(tmp_path, npz) == names
    data = dict(np.load(npz))
    for name, kept in zip(names, (15, 1), strict=True):
        form = name.split("_sd")[0]
        fmt, acc, n, _ = _form(form)
        a, b, c, d = (data[f"{name}.{x}"] for x in "abcd")
        assert a.shape == (kept, 16, 16) and b.shape == (kept, 16, n) and d.shape == (kept, 16, n)
        assert d.dtype == (np.uint16 if acc == "f16" else np.uint32)
        got = _launch(form, 1, a[:2], b[:2], c[:2], False)
        assert np.array_equal(got, np.tile(d[:2].astype(np.uint32), (1, 4, 1)))


@pytest.mark.fuzz
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH: cannot regenerate")
def test_committed_ptx_is_the_probes(tmp_path: Path) -> None:
    out = tmp_path / "p.ptx"
    subprocess.run(["nvcc", "-gencode", "arch=compute_90a,code=compute_90a", "-ptx", "-o",
                    str(out), str(DATA / "wgmma_probe.cu")], check=True)
    assert out.read_text() == PTX.read_text()
