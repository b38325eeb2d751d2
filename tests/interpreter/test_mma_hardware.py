"""tf32 and int8 ``mma.sync`` against a GPU: the interpreter (before and after
``ori-ptxas``, physical registers after it) reproduces, bit for bit, what an
NVIDIA H200 computed for the inputs in ``data/mma_h200.npz`` (made by
``data/mma_probe.cu``, whose header says how).

The probe built each lane's fragments from row-major A, B and C with the PTX
ISA's tables (9.7.14.5.6 - 9.7.14.5.10); the kernels here take the fragments
pre-arranged per lane (word ``i`` of lane ``l`` of warp ``w`` at
``(w*n + i)*32 + l``), arranged by this file's own reading of those tables, so
a wrong fragment layout in the interpreter, a wrong tf32 operand rule
(truncation of the low 13 bits), a wrong tf32 accumulation model (including
overflow to infinity, NaN propagation and the 0x7FFFFFFF NaN, subnormals,
signed zeros: ``tf32_k8_special``) or a wrong int8 wrap/saturation shows as a
mismatch with the hardware."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.interpreter.tensor import imma_reference, tf32_mma_reference, tf32_value
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context

DATA = Path(__file__).resolve().parent / "data" / "mma_h200.npz"

# name -> (PTX form, K, A type, B type)
CASES: dict[str, tuple[str, int, str, str]] = {
    "tf32_k8_m0": ("m16n8k8.row.col.f32.tf32.tf32.f32", 8, "tf32", "tf32"),
    "tf32_k8_m1": ("m16n8k8.row.col.f32.tf32.tf32.f32", 8, "tf32", "tf32"),
    "tf32_k4_m0": ("m16n8k4.row.col.f32.tf32.tf32.f32", 4, "tf32", "tf32"),
    "tf32_k4_m1": ("m16n8k4.row.col.f32.tf32.tf32.f32", 4, "tf32", "tf32"),
    "tf32_k8_special": ("m16n8k8.row.col.f32.tf32.tf32.f32", 8, "tf32", "tf32"),
    "ss_k32_m2": ("m16n8k32.row.col.s32.s8.s8.s32", 32, "s8", "s8"),
    "us_k32_m2": ("m16n8k32.row.col.s32.u8.s8.s32", 32, "u8", "s8"),
    "su_k32_m2": ("m16n8k32.row.col.s32.s8.u8.s32", 32, "s8", "u8"),
    "uu_k32_m2": ("m16n8k32.row.col.s32.u8.u8.s32", 32, "u8", "u8"),
    "ss_k32_m3": ("m16n8k32.row.col.s32.s8.s8.s32", 32, "s8", "s8"),
    "ss_k32_sat_m3": ("m16n8k32.row.col.satfinite.s32.s8.s8.s32", 32, "s8", "s8"),
    "uu_k32_sat_m3": ("m16n8k32.row.col.satfinite.s32.u8.u8.s32", 32, "u8", "u8"),
    "ss_k16_m2": ("m16n8k16.row.col.s32.s8.s8.s32", 16, "s8", "s8"),
    "us_k16_sat_m3": ("m16n8k16.row.col.satfinite.s32.u8.s8.s32", 16, "u8", "s8"),
}


@functools.cache
def _data() -> dict[str, np.ndarray]:
    return dict(np.load(DATA))


def _case(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    d = _data()
    return d[f"{name}.a"], d[f"{name}.b"], d[f"{name}.c"], d[f"{name}.d"]


# ------------------------------------------------------------- the ISA's tables
def _lane() -> tuple[np.ndarray, np.ndarray]:
    lane = np.arange(32)
    return lane >> 2, lane % 4


def _a_words(a: np.ndarray, per: int) -> np.ndarray:
    """(W, 16, K) -> (W, regs, 32) words: register i of lane (g, t) holds
    A[g + 8*(i%2)][per*t + 4*per*(i//2) + h], element h in bits 8h (int8)."""
    w, _, k = a.shape
    g, t = _lane()
    out = np.zeros((w, k // (2 * per), 32), np.uint32)
    for i in range(k // (2 * per)):
        for h in range(per):
            v = a[:, g + 8 * (i % 2), per * t + 4 * per * (i // 2) + h].astype(np.uint32)
            out[:, i] |= v << (8 * h) if per == 4 else v
    return out


def _b_words(b: np.ndarray, per: int) -> np.ndarray:
    """(W, K, 8) -> (W, regs, 32): register i of lane (g, t) holds B[per*t + 4*per*i + h][g]."""
    w, k, _ = b.shape
    g, t = _lane()
    out = np.zeros((w, k // (4 * per), 32), np.uint32)
    for i in range(k // (4 * per)):
        for h in range(per):
            v = b[:, per * t + 4 * per * i + h, g].astype(np.uint32)
            out[:, i] |= v << (8 * h) if per == 4 else v
    return out


def _c_words(c: np.ndarray) -> np.ndarray:
    """(W, 16, 8) -> (W, 4, 32): register j of lane (g, t) holds C[g + 8*(j//2)][2t + j%2]."""
    g, t = _lane()
    return np.stack([c[:, g + 8 * (j // 2), 2 * t + j % 2] for j in range(4)], 1)


# ------------------------------------------------------------------- the kernel
def _ptx(form: str, na: int, nb: int) -> str:
    def loads(reg: str, n: int, base: str) -> str:
        return "\n".join(f"\tld.global.b32 %{reg}{i}, [{base}+{128 * i}];" for i in range(n))

    def regs(reg: str, n: int) -> str:
        return "{" + ", ".join(f"%{reg}{i}" for i in range(n)) + "}"

    return f""".version 8.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
	.reg .b32 %a<4>;
	.reg .b32 %b<2>;
	.reg .b32 %c<4>;
	.reg .b32 %d<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<20>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u64 %rd4, [pd];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mul.wide.u32 %rd5, %r1, 4;
	mul.wide.u32 %rd6, %r2, {128 * na};
	mul.wide.u32 %rd7, %r2, {128 * nb};
	mul.wide.u32 %rd8, %r2, 512;
	add.s64 %rd9, %rd1, %rd6;
	add.s64 %rd9, %rd9, %rd5;
	add.s64 %rd10, %rd2, %rd7;
	add.s64 %rd10, %rd10, %rd5;
	add.s64 %rd11, %rd3, %rd8;
	add.s64 %rd11, %rd11, %rd5;
	add.s64 %rd12, %rd4, %rd8;
	add.s64 %rd12, %rd12, %rd5;
{loads("a", na, "%rd9")}
{loads("b", nb, "%rd10")}
{loads("c", 4, "%rd11")}
	mma.sync.aligned.{form} {regs("d", 4)}, {regs("a", na)}, {regs("b", nb)}, {regs("c", 4)};
{chr(10).join(f"	st.global.b32 [%rd12+{128 * j}], %d{j};" for j in range(4))}
	ret;
}}
"""


def _run(name: str, physical: bool) -> tuple[np.ndarray, np.ndarray]:
    form, _k, at, _ = CASES[name]
    per = 1 if at == "tf32" else 4
    a, b, c, d = _case(name)
    aw, bw, cw = _a_words(a, per), _b_words(b, per), _c_words(c)
    w = a.shape[0]
    module = import_ptx(_ptx(form, aw.shape[1], bw.shape[1]), f"{name}.ptx")
    if physical:
        apply_pipeline(module, "ori-ptxas", make_context())
        module.verify()
    out = np.zeros(w * 128, np.uint32)
    got = run_kernel(module, "k", (w, 1, 1), (32, 1, 1),
                     [aw.ravel(), bw.ravel(), cw.ravel().copy(), out],
                     strict=not physical, physical=physical)[3]
    return got.reshape(w, 4, 32), _c_words(d)


@pytest.mark.parametrize("name", sorted(CASES))
def test_interpreter_matches_h200(name: str) -> None:
    got, want = _run(name, physical=False)
    assert np.array_equal(got, want), (name, int((got != want).sum()))


@pytest.mark.parametrize("name", ["tf32_k8_m1", "tf32_k4_m1", "tf32_k8_special", "us_k32_m2",
                                  "ss_k32_sat_m3", "us_k16_sat_m3"])
def test_interpreter_matches_h200_after_ori_ptxas(name: str) -> None:
    got, want = _run(name, physical=True)
    assert np.array_equal(got, want), (name, int((got != want).sum()))


def _signed(x: np.ndarray, t: str) -> np.ndarray:
    v = x.astype(np.int64)
    return np.where(v >= 128, v - 256, v) if t == "s8" else v


@pytest.mark.parametrize("name", sorted(CASES))
def test_references_match_h200(name: str) -> None:
    _, _, at, bt = CASES[name]
    a, b, c, d = _case(name)
    if at == "tf32":
        with np.errstate(invalid="ignore", over="ignore"):
            got = tf32_mma_reference(tf32_value(a), tf32_value(b),
                                     c.view(np.float32)).view(np.uint32)
    else:
        got = imma_reference(_signed(a, at), _signed(b, bt), c.view(np.int32),
                             "sat" in name).view(np.uint32)
    assert np.array_equal(got, d)


def test_tf32_data_tell_the_rules_apart() -> None:
    """The fixture is not trivially matched: rounding the operands instead of
    truncating them, or an f32 k-order sum, disagrees with the hardware."""
    a, b, c, d = _case("tf32_k8_m0")
    rounded = ((a.astype(np.uint64) + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)
    rb = ((b.astype(np.uint64) + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)
    wrong = tf32_mma_reference(rounded, rb, c.view(np.float32)).view(np.uint32)
    assert (wrong != d).mean() > 0.5
    a, b, c, d = _case("tf32_k8_m1")
    acc = c.view(np.float32).copy()
    ta, tb = tf32_value(a), tf32_value(b)
    for kk in range(8):
        acc += ta[:, :, kk, None] * tb[:, None, kk, :]
    assert (acc.view(np.uint32) != d).mean() > 0.2
    sat_a, sat_b, sat_c, sat_d = _case("ss_k32_sat_m3")
    wrapped = imma_reference(_signed(sat_a, "s8"), _signed(sat_b, "s8"), sat_c.view(np.int32),
                             False)
    assert (wrapped != sat_d.view(np.int32)).any()
