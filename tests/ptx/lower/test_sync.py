"""PTX import of atomics, barriers, fences and warp collectives (ori_dialect/ptx/lower/sync.py).

Every lowering is checked by running imported PTX kernels in the interpreter
on several warps and blocks and comparing with a numpy model written from the
PTX ISA's description of the instruction.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ori_dialect.interpreter import run_kernel
from ori_dialect.ops.memory import AtomOp, AtomsOp, RedOp
from ori_dialect.ops.sync import BarOp, MembarOp, VoteOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.ptx.parser import PtxSyntaxError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ptx"
HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"
HEAD_SM90 = HEAD.replace("sm_80", "sm_90")
DECLS = """
.reg .pred %p<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .f32 %f<40>; .reg .f64 %fd<40>;
"""
# %r4 = global thread id, %r1 = tid.x, %r20 = lane id
GID = """
mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;
mul.lo.s32 %r4, %r2, %r3; add.s32 %r4, %r4, %r1;
mov.u32 %r20, %laneid;
"""


def build(body: str, params: str, name: str = "k", extra: str = "", head: str = HEAD) -> object:
    src = head + extra + f".visible .entry {name}({params})\n{{\n{DECLS}\n{GID}\n{body}\nret;\n}}\n"
    m = import_ptx(src)
    m.verify()
    return m


def ops_of(module: object, cls: type) -> list:
    return [op for op in module.walk() if isinstance(op, cls)]  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------
# atomics on per-thread slots: every op x type, in every space

U32 = 0xFFFFFFFF
U64 = (1 << 64) - 1


def _ftz32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float32)
    return np.where(np.abs(x) < np.float32(2.0**-126), np.copysign(np.float32(0), x), x)


def ref_atom(op: str, t: str, old: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    """New memory value per the PTX ISA (arrays of the access's unsigned dtype)."""
    if t == "f32":
        x, y = old.view(np.float32), b.view(np.float32)
        return _ftz32(_ftz32(x) + _ftz32(y)).astype(np.float32).view(np.uint32)
    if t == "f64":
        return (old.view(np.float64) + b.view(np.float64)).view(np.uint64)
    if t == "f16x2":
        out = np.zeros_like(old)
        for sh in (0, 16):
            x = ((old >> sh) & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
            y = ((b >> sh) & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
            out |= (x + y).astype(np.float16).view(np.uint16).astype(np.uint32) << np.uint32(sh)
        return out
    bits = 64 if t.endswith("64") else 32
    mask = (1 << bits) - 1
    res = [_int_atom(op, t[0] == "s", bits, o, v, k) & mask for o, v, k in zip(
        old.tolist(), b.tolist(), (c.tolist() if c is not None else old.tolist()))]
    return np.array(res, dtype=old.dtype)


def _int_atom(op: str, signed: bool, bits: int, o: int, v: int, k: int) -> int:
    def sx(x: int) -> int:
        return x - (1 << bits) if signed and x >> (bits - 1) else x

    if op == "add":
        return o + v
    if op in ("min", "max"):
        r = (min if op == "min" else max)(sx(o), sx(v))
        return r
    if op == "inc":
        return 0 if o >= v else o + 1
    if op == "dec":
        return v if (o == 0 or o > v) else o - 1
    if op == "and":
        return o & v
    if op == "or":
        return o | v
    if op == "xor":
        return o ^ v
    if op == "exch":
        return v
    assert op == "cas"
    return k if o == v else o


def _regs(t: str) -> tuple[str, str]:
    """(register prefix, load/store type) for values of PTX type ``t``."""
    if t == "f32":
        return "%f", "f32"
    if t == "f64":
        return "%fd", "f64"
    if t.endswith("64"):
        return "%rd", "b64"
    return "%r", "b32"


def atom_slot_kernel(op: str, t: str, space: str) -> object:
    size = 8 if t.endswith("64") else 4
    rp, lt = _regs(t)
    v1, v2, v3, mv = f"{rp}31", f"{rp}32", f"{rp}33", f"{rp}34"
    if rp == "%rd":
        v1, v2, v3, mv = "%rd31", "%rd32", "%rd33", "%rd34"
    body = f"""
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd2, [pv]; ld.param.u64 %rd3, [pc]; ld.param.u64 %rd4, [po];
mul.wide.u32 %rd5, %r4, {size};
add.s64 %rd6, %rd1, %rd5; add.s64 %rd7, %rd2, %rd5; add.s64 %rd8, %rd3, %rd5; add.s64 %rd9, %rd4, %rd5;
ld.global.{lt} {v1}, [%rd7];
ld.global.{lt} {v2}, [%rd8];
"""
    operands = f"{v1}, {v2}" if op == "cas" else v1
    ty = f"noftz.{t}" if t == "f16x2" else t
    if space in ("global", "generic"):
        sp = ".global" if space == "global" else ""
        body += f"atom{sp}.{op}.{ty} {v3}, [%rd6], {operands};\n"
    else:
        body += f"""
mul.lo.s32 %r5, %r1, {size}; mov.u32 %r6, sm; add.s32 %r7, %r6, %r5;
ld.global.{lt} {mv}, [%rd6]; st.shared.{lt} [%r7], {mv};
"""
        if space == "shared":
            body += f"atom.shared.{op}.{ty} {v3}, [%r7+0], {operands};\n"
        else:  # generic address of shared memory
            body += f"""
mov.u64 %rd10, sm; mul.wide.u32 %rd11, %r1, {size}; add.s64 %rd12, %rd10, %rd11;
cvta.shared.u64 %rd13, %rd12;
atom.{op}.{ty} {v3}, [%rd13], {operands};
"""
        body += f"ld.shared.{lt} {mv}, [%r7]; st.global.{lt} [%rd6], {mv};\n"
    body += f"st.global.{lt} [%rd9], {v3};\n"
    return build(body, ".param .u64 pm, .param .u64 pv, .param .u64 pc, .param .u64 po",
                 extra=".shared .align 8 .b8 sm[1024];\n")


def _inputs(op: str, t: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    wide = t.endswith("64")
    dt = np.uint64 if wide else np.uint32
    bits = 64 if wide else 32
    if t == "f32":
        x = rng.standard_normal(n).astype(np.float32) * 100
        y = rng.standard_normal(n).astype(np.float32) * 100
        x[:4] = [1e-40, -1e-40, 3.0, np.inf]  # subnormal inputs flush
        y[:4] = [0.0, 2e-39, -3.0, 1.0]
        y[4] = -x[4] * (1 + 2**-20)  # a tiny (but normal) difference
        return x.view(np.uint32), y.view(np.uint32), y.view(np.uint32)
    if t == "f64":
        x, y = rng.standard_normal(n) * 1e3, rng.standard_normal(n)
        x[0], y[0] = 1e-310, 1e-310  # f64 atomics keep subnormals
        return x.view(np.uint64), y.view(np.uint64), y.view(np.uint64)
    if t == "f16x2":
        h = rng.standard_normal(2 * n).astype(np.float16).view(np.uint32)
        g = rng.standard_normal(2 * n).astype(np.float16).view(np.uint32)
        return h, g, g
    edge = [0, 1, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << bits) - 1, 2, 5, 7]
    old = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(dt)
    b = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(dt)
    old[:len(edge)] = edge
    b[:len(edge)] = edge[::-1]
    if op in ("inc", "dec"):
        b = rng.integers(0, 10, n).astype(dt)
        old = (b.astype(np.int64) + rng.integers(-2, 3, n)).clip(0).astype(dt)
        old[::7] = 0
        b[::11] = U32
        old[::13] = U32
    c = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(dt)
    if op == "cas":
        b = np.where(rng.random(n) < 0.5, old, b).astype(dt)
    return old, b, c


SLOT_CASES = [
    ("add", "u32", "global"), ("add", "s32", "global"), ("add", "u64", "global"),
    ("add", "f32", "global"), ("add", "f64", "global"), ("add", "f16x2", "global"),
    ("min", "s32", "global"), ("min", "u32", "global"), ("max", "s32", "global"),
    ("max", "u32", "global"), ("min", "s64", "global"), ("max", "u64", "global"),
    ("max", "s64", "global"), ("inc", "u32", "global"), ("dec", "u32", "global"),
    ("and", "b32", "global"), ("or", "b64", "global"), ("xor", "b32", "global"),
    ("exch", "b32", "global"), ("exch", "b64", "global"), ("cas", "b32", "global"),
    ("cas", "b64", "global"),
    ("add", "u32", "shared"), ("min", "s32", "shared"), ("inc", "u32", "shared"),
    ("dec", "u32", "shared"), ("cas", "b64", "shared"), ("exch", "b32", "shared"),
    ("add", "f32", "shared"), ("max", "s64", "shared"),
    ("add", "u32", "generic"), ("cas", "b32", "generic"), ("max", "s32", "generic"),
    ("add", "u32", "generic_shared"), ("cas", "b64", "generic_shared"),
    ("dec", "u32", "generic_shared"),
]


@pytest.mark.parametrize(("op", "t", "space"), SLOT_CASES)
def test_atom_per_thread_slot(op: str, t: str, space: str) -> None:
    rng = np.random.default_rng(hash((op, t, space)) & 0xFFFF)
    grid, block = 2, 64
    n = grid * block
    old, b, c = _inputs(op, t, n, rng)
    m = atom_slot_kernel(op, t, space)
    mem, _, _, out = run_kernel(m, "k", grid=grid, block=block,
                                args=[old.copy(), b, c, np.zeros_like(old)])
    np.testing.assert_array_equal(out, old)  # atom returns the old value
    np.testing.assert_array_equal(mem, ref_atom(op, t, old, b, c if op == "cas" else None))


def test_atom_immediate_operands_and_sink() -> None:
    """Immediate values (32- and 64-bit) and a '_' destination."""
    body = """
ld.param.u64 %rd1, [pm];
atom.global.add.u32 %r5, [%rd1], 3;
atom.global.add.u64 %rd5, [%rd1+8], 0x100000001;
atom.global.exch.b32 _, [%rd1+16], -1;
atom.global.cas.b32 %r6, [%rd1+20], 7, %r4;
mul.wide.u32 %rd2, %r4, 4; ld.param.u64 %rd3, [po]; add.s64 %rd3, %rd3, %rd2;
st.global.u32 [%rd3], %r6;
"""
    m = build(body, ".param .u64 pm, .param .u64 po")
    mem = np.array([10, 0, 5, 0, 0, 7], dtype=np.uint32)
    out, o2 = run_kernel(m, "k", grid=1, block=40, args=[mem, np.zeros(40, np.uint32)])
    assert out[0] == 10 + 3 * 40
    assert int(out[2]) | (int(out[3]) << 32) == 5 + 40 * 0x100000001
    assert out[4] == U32
    # lane order: thread 0 swaps 7 -> 0; no other thread sees 7 again
    assert out[5] == 0 and o2[0] == 7 and (o2[1:] == 0).all()


def test_atom_contention_add_returns_distinct_prefixes() -> None:
    """Many threads on a few addresses: every old value is a distinct prefix sum."""
    body = """
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd2, [pv]; ld.param.u64 %rd4, [po];
mul.wide.u32 %rd5, %r4, 4; add.s64 %rd7, %rd2, %rd5; add.s64 %rd9, %rd4, %rd5;
and.b32 %r5, %r4, 3; mul.wide.u32 %rd6, %r5, 4; add.s64 %rd6, %rd1, %rd6;
ld.global.u32 %r6, [%rd7];
atom.global.add.u32 %r7, [%rd6], %r6;
st.global.u32 [%rd9], %r7;
"""
    m = build(body, ".param .u64 pm, .param .u64 pv, .param .u64 po")
    rng = np.random.default_rng(1)
    n = 3 * 96
    v = rng.integers(0, 1000, n).astype(np.uint32)
    init = np.array([0, 5, U32 - 100, 1 << 31], dtype=np.uint32)
    mem, _, old = run_kernel(m, "k", grid=3, block=96, args=[init.copy(), v, np.zeros(n, np.uint32)])
    for s in range(4):
        sel = np.arange(n) % 4 == s
        assert mem[s] == (int(init[s]) + int(v[sel].sum())) & U32
        o = old[sel].astype(np.int64)
        order = np.argsort((o - int(init[s])) % (1 << 32), kind="stable")
        steps = (o[order] + v[sel][order].astype(np.int64)) & U32
        np.testing.assert_array_equal(steps[:-1], o[order][1:])  # each old = previous new


def test_atom_cas_spin_increment() -> None:
    """A CAS retry loop (divergent: one lane per warp wins per round)."""
    body = """
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd4, [po];
mul.wide.u32 %rd5, %r4, 4; add.s64 %rd9, %rd4, %rd5;
ld.global.u32 %r5, [%rd1];
LOOP:
add.s32 %r6, %r5, 1;
atom.global.cas.b32 %r7, [%rd1], %r5, %r6;
setp.ne.s32 %p1, %r7, %r5;
mov.b32 %r5, %r7;
@%p1 bra LOOP;
st.global.u32 [%rd9], %r5;
"""
    m = build(body, ".param .u64 pm, .param .u64 po")
    n = 2 * 64
    mem, got = run_kernel(m, "k", grid=2, block=64, args=[np.array([U32 - 10], np.uint32),
                                                         np.zeros(n, np.uint32)])
    assert mem[0] == (U32 - 10 + n) & U32
    np.testing.assert_array_equal(np.sort((got.astype(np.int64) + 11) & U32), np.arange(n))


def test_atom_exch_lock_serializes_critical_section() -> None:
    """A lock taken with atom.exch and released with atom.exch (one thread per block
    tries): the critical section's non-atomic read-modify-write never loses an update."""
    body = """
ld.param.u64 %rd1, [pm];
setp.ne.s32 %p1, %r1, 0;
@%p1 bra DONE;
SPIN:
atom.global.acquire.gpu.exch.b32 %r5, [%rd1], 1;
setp.ne.s32 %p2, %r5, 0;
@%p2 bra SPIN;
ld.global.u32 %r6, [%rd1+4]; add.s32 %r6, %r6, %r2; add.s32 %r6, %r6, 1; st.global.u32 [%rd1+4], %r6;
atom.global.release.gpu.exch.b32 %r7, [%rd1], 0;
DONE:
"""
    m = build(body, ".param .u64 pm")
    (mem,) = run_kernel(m, "k", grid=5, block=32, args=[np.zeros(2, np.uint32)])
    assert mem[0] == 0 and mem[1] == sum(range(1, 6))
    membars = ops_of(m, MembarOp)
    assert [mb.mod("scope") for mb in membars] == ["gpu", "gpu"]


def test_atom_semantics_become_fences() -> None:
    body = """
ld.param.u64 %rd1, [pm];
atom.acquire.cta.global.add.u32 %r5, [%rd1], 1;
atom.release.sys.global.add.u32 %r5, [%rd1], 1;
atom.acq_rel.gpu.shared.add.u32 %r5, [%r1], 1;
atom.relaxed.cluster.global.add.u32 %r5, [%rd1], 1;
red.release.gpu.global.add.u32 [%rd1], 1;
"""
    m = build(body, ".param .u64 pm", head=HEAD_SM90)  # .cluster needs sm_90
    seq = [(type(op).__name__, op.mod("scope")) for op in m.walk()
           if isinstance(op, MembarOp | AtomOp | AtomsOp | RedOp)]
    assert seq == [("AtomOp", "cta"), ("MembarOp", "cta"),
                   ("MembarOp", "sys"), ("AtomOp", "sys"),
                   ("MembarOp", "gpu"), ("AtomsOp", "gpu"), ("MembarOp", "gpu"),
                   ("AtomOp", "gpu"),
                   ("MembarOp", "gpu"), ("RedOp", "gpu")]


def test_guarded_atom_keeps_destination() -> None:
    body = """
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd4, [po];
mov.u32 %r5, 1000;
setp.lt.u32 %p1, %r1, 10;
@%p1 atom.global.add.u32 %r5, [%rd1], 1;
@!%p1 atom.global.exch.b32 %r6, [%rd1+4], %r1;
mul.wide.u32 %rd5, %r4, 4; add.s64 %rd9, %rd4, %rd5;
st.global.u32 [%rd9], %r5;
"""
    m = build(body, ".param .u64 pm, .param .u64 po")
    mem, out = run_kernel(m, "k", grid=1, block=64, args=[np.zeros(2, np.uint32),
                                                          np.zeros(64, np.uint32)])
    assert mem[0] == 10 and mem[1] == 63  # the highest lane's exch comes last
    np.testing.assert_array_equal(out[:10], np.arange(10))
    assert (out[10:] == 1000).all()


@pytest.mark.parametrize(("op", "t", "space"), [
    ("add", "u32", "global"), ("add", "u64", ""), ("max", "s32", "global"),
    ("min", "u32", "shared"), ("add", "u32", "shared"), ("inc", "u32", "global"),
    ("xor", "b32", "shared"), ("add", "f32", "global"),
])
def test_red(op: str, t: str, space: str) -> None:
    """red.* on 4 addresses shared by all threads, compared with a sequential reduction."""
    size = 8 if t.endswith("64") else 4
    rp, lt = _regs(t)
    v = f"{rp}31" if rp != "%rd" else "%rd31"
    if space == "shared":
        body = f"""
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd2, [pv];
setp.lt.u32 %p1, %r1, 4;
mul.lo.s32 %r5, %r1, {size}; mov.u32 %r6, sm; add.s32 %r7, %r6, %r5;
mul.wide.u32 %rd5, %r1, {size}; add.s64 %rd6, %rd1, %rd5;
@%p1 ld.global.{lt} %rd20, [%rd6]; @%p1 st.shared.{lt} [%r7], %rd20;
bar.sync 0;
mul.wide.u32 %rd8, %r4, {size}; add.s64 %rd8, %rd2, %rd8; ld.global.{lt} {v}, [%rd8];
and.b32 %r8, %r4, 3; mul.lo.s32 %r8, %r8, {size}; add.s32 %r8, %r6, %r8;
red.shared.{op}.{t} [%r8], {v};
bar.sync 0;
@%p1 ld.shared.{lt} %rd20, [%r7]; @%p1 st.global.{lt} [%rd6], %rd20;
"""
        if size == 4:
            body = body.replace("%rd20", "%r21")
    else:
        sp = f".{space}" if space else ""
        body = f"""
ld.param.u64 %rd1, [pm]; ld.param.u64 %rd2, [pv];
mul.wide.u32 %rd8, %r4, {size}; add.s64 %rd8, %rd2, %rd8; ld.global.{lt} {v}, [%rd8];
and.b32 %r8, %r4, 3; mul.wide.u32 %rd9, %r8, {size}; add.s64 %rd9, %rd1, %rd9;
red{sp}.{op}.{t} [%rd9], {v};
"""
    m = build(body, ".param .u64 pm, .param .u64 pv", extra=".shared .align 8 .b8 sm[64];\n")
    grid, block = 2, 64
    n = grid * block
    rng = np.random.default_rng(7)
    old, b, _ = _inputs(op, t, n, rng)
    if t == "f32":  # integral values: the f32 sum is exact whatever the order
        b = rng.integers(-50, 50, n).astype(np.float32).view(np.uint32)
        old = np.arange(4, dtype=np.float32).view(np.uint32)
    init = old[:4].copy()
    if op == "inc":
        b = np.full(n, 20, np.uint32)
        init = np.array([0, 3, 19, 25], np.uint32)
    mem, _ = run_kernel(m, "k", grid=grid, block=block, args=[init.copy(), b])
    want = init.copy()
    for s in range(4):
        # blocks run one after the other, lanes in order: any order gives the same
        # final value for these ops (inc with one common bound counts modulo it)
        for i in range(s, n, 4):
            want[s:s + 1] = ref_atom(op, t, want[s:s + 1], b[i:i + 1], None)
    np.testing.assert_array_equal(mem, want)
    assert ops_of(m, AtomsOp if space == "shared" else RedOp)


def test_histogram_shared_and_global_atomics() -> None:
    body = """
ld.param.u64 %rd1, [p_in]; ld.param.u64 %rd2, [p_out]; ld.param.u32 %r10, [p_n];
ld.param.u64 %rd20, [p_old];
setp.lt.u32 %p1, %r1, 16;
mov.u32 %r6, bins;
shl.b32 %r7, %r1, 2; add.s32 %r8, %r6, %r7;
@%p1 st.shared.u32 [%r8], 0;
bar.sync 0;
setp.lt.u32 %p2, %r4, %r10;
mul.wide.u32 %rd3, %r4, 4; add.s64 %rd4, %rd1, %rd3; add.s64 %rd21, %rd20, %rd3;
@%p2 ld.global.u32 %r9, [%rd4];
shl.b32 %r11, %r9, 2; add.s32 %r11, %r6, %r11;
@%p2 atom.shared.add.u32 %r12, [%r11], 1;
@%p2 st.global.u32 [%rd21], %r12;
bar.sync 0;
@%p1 ld.shared.u32 %r9, [%r8];
mul.wide.u32 %rd5, %r1, 4; add.s64 %rd6, %rd2, %rd5;
@%p1 atom.global.add.u32 %r13, [%rd6], %r9;
"""
    m = build(body, ".param .u64 p_in, .param .u64 p_out, .param .u32 p_n, .param .u64 p_old",
              extra=".shared .align 4 .b32 bins[16];\n")
    rng = np.random.default_rng(3)
    n = 300
    x = rng.integers(0, 16, n).astype(np.uint32)
    x[:40] = 5  # a hot bin
    _, hist, _, old = run_kernel(m, "k", grid=4, block=96,
                                 args=[x, np.zeros(16, np.uint32), n, np.zeros(n, np.uint32)])
    np.testing.assert_array_equal(hist, np.bincount(x, minlength=16))
    for blk in range(4):  # per block, the old counts of a bin are 0..count-1
        seg = slice(blk * 96, min(n, blk * 96 + 96))
        for b in range(16):
            sel = x[seg] == b
            np.testing.assert_array_equal(np.sort(old[seg][sel]), np.arange(sel.sum()))


# ----------------------------------------------------------------------------
# barriers and fences


def test_bar_sync_shared_tree_reduction() -> None:
    body = """
ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout];
mul.wide.u32 %rd3, %r4, 4; add.s64 %rd3, %rd1, %rd3; ld.global.u32 %r5, [%rd3];
mov.u32 %r6, sm; shl.b32 %r7, %r1, 2; add.s32 %r8, %r6, %r7;
st.shared.u32 [%r8], %r5;
bar.sync 0;
shr.u32 %r9, %r3, 1;
LOOP:
setp.ge.u32 %p1, %r1, %r9;
@%p1 bra SKIP;
shl.b32 %r10, %r9, 2; add.s32 %r10, %r8, %r10;
ld.shared.u32 %r11, [%r10]; ld.shared.u32 %r12, [%r8]; add.s32 %r12, %r12, %r11;
st.shared.u32 [%r8], %r12;
SKIP:
barrier.sync.aligned 0;
shr.u32 %r9, %r9, 1;
setp.ne.s32 %p2, %r9, 0;
@%p2 bra LOOP;
setp.ne.s32 %p3, %r1, 0;
@%p3 bra END;
ld.shared.u32 %r13, [sm];
mul.wide.u32 %rd4, %r2, 4; add.s64 %rd4, %rd2, %rd4; st.global.u32 [%rd4], %r13;
END:
"""
    m = build(body, ".param .u64 pin, .param .u64 pout", extra=".shared .align 4 .b32 sm[128];\n")
    rng = np.random.default_rng(4)
    x = rng.integers(0, 1 << 32, 3 * 128, dtype=np.uint64).astype(np.uint32)
    _, out = run_kernel(m, "k", grid=3, block=128, args=[x, np.zeros(3, np.uint32)])
    want = (x.reshape(3, 128).astype(np.uint64).sum(axis=1) & U32).astype(np.uint32)
    np.testing.assert_array_equal(out, want)
    assert len(ops_of(m, BarOp)) == 2


def test_bar_arrive_producer_consumer() -> None:
    """Warp 0 produces and arrives at barrier 1; warp 1 waits there (64 threads)
    and consumes; a register barrier id and a thread count through barrier.sync."""
    body = """
ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout];
mul.wide.u32 %rd3, %r4, 4; add.s64 %rd5, %rd2, %rd3; add.s64 %rd3, %rd1, %rd3;
and.b32 %r5, %r1, 31; shl.b32 %r5, %r5, 2; mov.u32 %r6, sm; add.s32 %r5, %r6, %r5;
mov.u32 %r9, 1;
setp.ge.u32 %p1, %r1, 32;
@%p1 bra CONSUME;
ld.global.u32 %r7, [%rd3]; st.shared.u32 [%r5], %r7;
bar.arrive 1, 64;
bra.uni END;
CONSUME:
barrier.sync %r9, 64;
ld.shared.u32 %r8, [%r5]; st.global.u32 [%rd5], %r8;
END:
bar.sync 2;
"""
    m = build(body, ".param .u64 pin, .param .u64 pout", extra=".shared .align 4 .b32 sm[32];\n")
    x = np.arange(2 * 64, dtype=np.uint32) * 7 + 1
    _, out = run_kernel(m, "k", grid=2, block=64, args=[x, np.zeros(128, np.uint32)])
    xs, os_ = x.reshape(2, 64), out.reshape(2, 64)
    np.testing.assert_array_equal(os_[:, 32:], xs[:, :32])
    assert (os_[:, :32] == 0).all()
    modes = [op.mod("mode") for op in ops_of(m, BarOp)]
    assert sorted(modes) == ["arv", "sync", "sync"]


def test_membar_fence_warp_sync() -> None:
    """Fences become MEMBAR of their scope; bar.warp.sync a CTA-scope MEMBAR that
    orders lanes' shared-memory exchange."""
    body = """
ld.param.u64 %rd2, [pout];
mov.u32 %r6, sm; shl.b32 %r7, %r1, 2; add.s32 %r8, %r6, %r7;
st.shared.u32 [%r8], %r4;
bar.warp.sync -1;
xor.b32 %r9, %r1, 1; shl.b32 %r9, %r9, 2; add.s32 %r9, %r6, %r9;
ld.shared.u32 %r10, [%r9];
membar.gl; membar.cta; membar.sys;
fence.sc.gpu; fence.acq_rel.sys; fence.cta; fence.acq_rel.cluster;
mul.wide.u32 %rd3, %r4, 4; add.s64 %rd3, %rd2, %rd3; st.global.u32 [%rd3], %r10;
"""
    m = build(body, ".param .u64 pout", extra=".shared .align 4 .b32 sm[64];\n", head=HEAD_SM90)
    (out,) = run_kernel(m, "k", grid=2, block=64, args=[np.zeros(128, np.uint32)])
    np.testing.assert_array_equal(out, np.arange(128) ^ 1)
    assert [op.mod("scope") for op in ops_of(m, MembarOp)] == [
        "cta", "gpu", "cta", "sys", "gpu", "sys", "cta", "gpu"]


def test_hints_emit_nothing() -> None:
    body = """
ld.param.u64 %rd1, [pm];
nanosleep.u32 100;
nanosleep.u32 %r1;
prefetch.global.L2 [%rd1];
prefetch.L1 [%rd1+64];
prefetchu.L1 [%rd1];
st.global.u32 [%rd1], %r1;
"""
    m = build(body, ".param .u64 pm")
    names = {op.name for op in m.walk()}
    assert "ori.stg" in names and not names & {"ori.nop", "ori.membar", "ori.ldg"}
    (mem,) = run_kernel(m, "k", grid=1, block=1, args=[np.array([9, 9], np.uint32)])
    assert list(mem) == [0, 9]


# ----------------------------------------------------------------------------
# warp collectives


def ref_shfl(a: np.ndarray, mode: str, b: int, c: int) -> tuple[np.ndarray, np.ndarray]:
    """The PTX ISA's shfl.sync pseudo-code, per lane of full warps."""
    d = np.empty_like(a)
    p = np.empty(len(a), dtype=bool)
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    for t in range(len(a)):
        lane, base = t % 32, t - t % 32
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - bval
            ok = j >= max_lane
        elif mode == "down":
            j = lane + bval
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ bval
            ok = j <= max_lane
        else:
            j = min_lane | (bval & ~seg)
            ok = j <= max_lane
        d[t] = a[base + (j if ok else lane)]
        p[t] = ok
    return d, p


def shfl_kernel(mode: str, b: str = "%r8", c: str = "%r9") -> object:
    body = f"""
ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pd]; ld.param.u64 %rd3, [pp];
ld.param.u32 %r8, [pb]; ld.param.u32 %r9, [pc];
mul.wide.u32 %rd4, %r4, 4; add.s64 %rd1, %rd1, %rd4; add.s64 %rd2, %rd2, %rd4; add.s64 %rd3, %rd3, %rd4;
ld.global.u32 %r7, [%rd1];
shfl.sync.{mode}.b32 %r10|%p1, %r7, {b}, {c}, -1;
selp.u32 %r11, 1, 0, %p1;
st.global.u32 [%rd2], %r10; st.global.u32 [%rd3], %r11;
"""
    return build(body, ".param .u64 pa, .param .u64 pd, .param .u64 pp, .param .u32 pb, "
                 ".param .u32 pc")


@pytest.mark.parametrize("mode", ["up", "down", "bfly", "idx"])
def test_shfl_matches_isa_pseudocode(mode: str) -> None:
    """All widths (segment masks) and lane operands, CUDA's c encodings and odd ones;
    the predicate result marks out-of-range source lanes."""
    m = shfl_kernel(mode)
    rng = np.random.default_rng(5)
    n = 2 * 64
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    cases = []
    for width in (32, 16, 8, 4, 2):
        clamp = 0 if mode == "up" else 31
        for b in (0, 1, 3, 5, 17, 31, 33):
            cases.append((b, ((32 - width) << 8) | clamp))
    cases += [(2, 0x0C07), (1, 0x1F10), (9, 0x0010), (4, 0xFFFFE11F)]  # unusual clamps
    for b, c in cases:
        _, d, p, _, _ = run_kernel(m, "k", grid=2, block=64,
                                   args=[a, np.zeros(n, np.uint32), np.zeros(n, np.uint32), b, c])
        wd, wp = ref_shfl(a, mode, b, c)
        np.testing.assert_array_equal(d, wd, err_msg=f"b={b} c={c:#x}")
        np.testing.assert_array_equal(p.astype(bool), wp, err_msg=f"b={b} c={c:#x}")


def test_shfl_immediate_operands() -> None:
    m = shfl_kernel("down", "3", "0x181f")
    a = np.arange(64, dtype=np.uint32) * 3
    _, d, p, _, _ = run_kernel(m, "k", grid=1, block=64,
                               args=[a, np.zeros(64, np.uint32), np.zeros(64, np.uint32), 0, 0])
    wd, wp = ref_shfl(a, "down", 3, 0x181F)
    np.testing.assert_array_equal(d, wd)
    np.testing.assert_array_equal(p.astype(bool), wp)


def test_warp_reductions_and_scans() -> None:
    """Sum with shfl.down, butterfly all-reduce, inclusive scan with shfl.up and its
    predicate in 8-lane segments, and an idx broadcast in 16-lane segments."""
    body = """
ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pout];
mul.wide.u32 %rd4, %r4, 16; add.s64 %rd2, %rd2, %rd4;
mul.wide.u32 %rd4, %r4, 4; add.s64 %rd1, %rd1, %rd4;
ld.global.u32 %r7, [%rd1];
mov.b32 %r10, %r7;
shfl.sync.down.b32 %r11, %r10, 16, 31, -1; add.s32 %r10, %r10, %r11;
shfl.sync.down.b32 %r11, %r10, 8, 31, -1; add.s32 %r10, %r10, %r11;
shfl.sync.down.b32 %r11, %r10, 4, 31, -1; add.s32 %r10, %r10, %r11;
shfl.sync.down.b32 %r11, %r10, 2, 31, -1; add.s32 %r10, %r10, %r11;
shfl.sync.down.b32 %r11, %r10, 1, 31, -1; add.s32 %r10, %r10, %r11;
mov.b32 %r12, %r7;
shfl.sync.bfly.b32 %r11, %r12, 16, 31, -1; add.s32 %r12, %r12, %r11;
shfl.sync.bfly.b32 %r11, %r12, 8, 31, -1; add.s32 %r12, %r12, %r11;
shfl.sync.bfly.b32 %r11, %r12, 4, 31, -1; add.s32 %r12, %r12, %r11;
shfl.sync.bfly.b32 %r11, %r12, 2, 31, -1; add.s32 %r12, %r12, %r11;
shfl.sync.bfly.b32 %r11, %r12, 1, 31, -1; add.s32 %r12, %r12, %r11;
mov.b32 %r13, %r7;
shfl.sync.up.b32 %r11|%p1, %r13, 1, 0x1800, -1; @%p1 add.s32 %r13, %r13, %r11;
shfl.sync.up.b32 %r11|%p1, %r13, 2, 0x1800, -1; @%p1 add.s32 %r13, %r13, %r11;
shfl.sync.up.b32 %r11|%p1, %r13, 4, 0x1800, -1; @%p1 add.s32 %r13, %r13, %r11;
shfl.sync.idx.b32 %r14, %r7, 3, 0x101f, -1;
st.global.v4.u32 [%rd2], {%r10, %r12, %r13, %r14};
"""
    m = build(body, ".param .u64 pa, .param .u64 pout")
    rng = np.random.default_rng(6)
    n = 3 * 64
    a = rng.integers(0, 1 << 20, n).astype(np.uint32)
    _, out = run_kernel(m, "k", grid=3, block=64, args=[a, np.zeros(4 * n, np.uint32)])
    out = out.reshape(n, 4)
    warps = a.reshape(-1, 32).astype(np.int64)
    assert (out[::32, 0] == warps.sum(axis=1)).all()  # lane 0 of each warp has the sum
    np.testing.assert_array_equal(out[:, 1], np.repeat(warps.sum(axis=1), 32))
    seg8 = a.reshape(-1, 8).astype(np.int64)
    np.testing.assert_array_equal(out[:, 2], np.cumsum(seg8, axis=1).ravel())
    np.testing.assert_array_equal(out[:, 3], np.repeat(a.reshape(-1, 16)[:, 3], 16))


def test_guarded_shfl_keeps_destination() -> None:
    body = """
ld.param.u64 %rd2, [pout];
mov.u32 %r10, 777;
setp.lt.u32 %p2, %r20, 20;
@%p2 shfl.sync.idx.b32 %r10, %r4, 5, 31, 0xfffff;
mul.wide.u32 %rd4, %r4, 4; add.s64 %rd2, %rd2, %rd4; st.global.u32 [%rd2], %r10;
"""
    m = build(body, ".param .u64 pout")
    (out,) = run_kernel(m, "k", grid=1, block=64, args=[np.zeros(64, np.uint32)], strict=True)
    lane = np.arange(64) % 32
    np.testing.assert_array_equal(out, np.where(lane < 20, np.arange(64) - lane + 5, 777))


def vote_ref(pred: np.ndarray, active: np.ndarray, nthreads: int) -> dict[str, np.ndarray]:
    out = {k: np.zeros(nthreads, np.uint32) for k in ("ballot", "all", "any", "uni", "nball")}
    for w in range(0, nthreads, 32):
        lanes = [t for t in range(w, min(w + 32, nthreads)) if active[t]]
        if not lanes:
            continue
        ps = [bool(pred[t]) for t in lanes]
        ball = sum(1 << (t - w) for t, q in zip(lanes, ps) if q)
        nball = sum(1 << (t - w) for t, q in zip(lanes, ps) if not q)
        for t in lanes:
            out["ballot"][t], out["nball"][t] = ball, nball
            out["all"][t], out["any"][t] = all(ps), any(ps)
            out["uni"][t] = all(ps) or not any(ps)
    return out


def test_vote_with_inactive_lanes() -> None:
    """Lanes inactive by a branch and by a guard; warps whose active lanes all agree;
    a partial last warp; negated sources; activemask."""
    body = """
ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout]; ld.param.u32 %r15, [pact];
mul.wide.u32 %rd4, %r4, 4; add.s64 %rd1, %rd1, %rd4;
mul.wide.u32 %rd4, %r4, 32; add.s64 %rd2, %rd2, %rd4;
ld.global.u32 %r7, [%rd1];
setp.ne.s32 %p1, %r7, 0;
mov.u32 %r16, 0xdead;
setp.lt.u32 %p6, %r1, %r15;
@%p6 vote.sync.ballot.b32 %r16, !%p1, -1;
st.global.u32 [%rd2+20], %r16;
setp.ge.u32 %p0, %r1, %r15;
@%p0 bra END;
vote.sync.ballot.b32 %r10, %p1, -1;
vote.sync.all.pred %p2, %p1, -1;
vote.sync.any.pred %p3, %p1, -1;
vote.sync.uni.pred %p4, !%p1, -1;
activemask.b32 %r14;
selp.u32 %r11, 1, 0, %p2; selp.u32 %r12, 1, 0, %p3; selp.u32 %r13, 1, 0, %p4;
st.global.v4.u32 [%rd2], {%r10, %r11, %r12, %r13};
st.global.u32 [%rd2+16], %r14;
END:
"""
    m = build(body, ".param .u64 pin, .param .u64 pout, .param .u32 pact")
    assert len(ops_of(m, VoteOp)) == 6
    rng = np.random.default_rng(8)
    block, grid = 56, 3
    n = block * grid
    x = rng.integers(0, 2, n).astype(np.uint32)
    x[block:block + 32] = 1  # block 1, warp 0: all true
    x[2 * block + 32:] = 0  # block 2, warp 1: all false
    for act in (56, 40, 13):
        _, out, _ = run_kernel(m, "k", grid=grid, block=block,
                               args=[x, np.zeros(8 * n, np.uint32), act])
        out = out.reshape(n, 8)
        tid = np.arange(n) % block
        active = tid < act
        ref = vote_ref(x != 0, active, n) if block % 32 == 0 else None
        # warps are per block: evaluate the model block by block
        ref = {k: np.concatenate([vote_ref(x[i * block:(i + 1) * block] != 0,
                                           active[i * block:(i + 1) * block], block)[k]
                                  for i in range(grid)]) for k in ("ballot", "all", "any",
                                                                   "uni", "nball")}
        for col, k in enumerate(("ballot", "all", "any", "uni")):
            np.testing.assert_array_equal(out[active, col], ref[k][active], err_msg=f"{k} {act}")
        # activemask: the lanes of the warp that took the branch
        am = np.concatenate([vote_ref(np.ones(block, bool), active[i * block:(i + 1) * block],
                                      block)["ballot"] for i in range(grid)])
        np.testing.assert_array_equal(out[active, 4], am[active])
        # guarded ballot of !p: inactive lanes keep their old value
        np.testing.assert_array_equal(out[:, 5], np.where(active, ref["nball"], 0xDEAD))


# ----------------------------------------------------------------------------
# diagnostics


@pytest.mark.parametrize(("ins", "msg"), [
    ("match.any.sync.b32 %r5|%p2, %r1, -1;", "only match.all.sync has a predicate destination"),
    ("match.all.sync.b16 %r5, %r1, -1;", "expected match.{any,all}.sync.{b32,b64}"),
    ("redux.sync.and.u32 %r5, %r1, -1;", "Incorrect type '.u32' for operation '.and'"),
    ("redux.sync.add.b32 %r5, %r1, -1;", "Incorrect type '.b32' for operation '.add'"),
    ("redux.sync.min.f32 %f5, %f1, -1;", "redux.sync .f32 is not supported on target sm_80"),
    ("redux.sync.add.abs.s32 %r5, %r1, -1;", "'.abs' is for redux.sync.{min,max}.f32 only"),
    ("redux.add.s32 %r5, %r1;", "without .sync"),
    ("griddepcontrol.wait;", "griddepcontrol requires .target sm_90 or higher"),
    ("bar.red.popc.u32 %r5, 16, %p1;", "barrier id 16 out of range"),
    ("barrier.cta.red.or.u32 %r5, 1, %p1;", "barrier.red.{and,or}.pred"),
    ("discard.global.L2 [%rd1], 128;", "indeterminate"),
    ("atom.global.cas.b16 %r5, [%rd1], %r1, %r2;", "16-bit atomics"),
    ("atom.global.exch.b128 %rd5, [%rd1], %rd2;", "128-bit atomics"),
    ("atom.global.v2.f32.add {%f1, %f2}, [%rd1], {%f3, %f4};", "vector atomics"),
    ("atom.global.add.f16x2 %r5, [%rd1], %r1;", "requires the '.noftz' modifier"),
    ("atom.global.min.noftz.f16x2 %r5, [%rd1], %r1;", "atomic min on .f16x2"),
    ("atom.global.inc.u64 %rd5, [%rd1], %rd2;", "requires the .u32 type"),
    ("atom.global.min.b32 %r5, [%rd1], %r1;", "signed or unsigned integer type"),
    ("atom.global.min.f32 %f1, [%rd1], %f2;", "signed or unsigned integer type"),
    ("atom.global.mmio.relaxed.sys.add.u32 %r5, [%rd1], 1;", "modifier '.mmio'"),
    ("red.global.exch.b32 [%rd1], %r1;", "modifier '.exch'"),
    ("shfl.up.b32 %r5, %r1, 1, 0;", "without .sync"),
    ("vote.all.pred %p2, %p1;", "without .sync"),
    ("fence.proxy.alias;", "proxy"),
    ("membar.proxy.alias;", "only membar.cta/.gl/.sys"),
    ("barrier.cluster.arrive;", "cluster barriers"),
    ("bar.sync 16;", "barrier id 16 out of range"),
    ("bar.arrive 1;", "thread count"),
    ("bar.sync 1, 48;", "multiple of 32"),
])
def test_unsupported_and_invalid_forms(ins: str, msg: str) -> None:
    src = HEAD + f".visible .entry k()\n{{\n{DECLS}\n{ins}\nret;\n}}\n"
    with pytest.raises(PtxSyntaxError, match=msg.replace(".", r"\.").replace("(", r"\(")):
        import_ptx(src, "t.ptx")


# ----------------------------------------------------------------------------
# the nvcc examples that use these instructions


@pytest.mark.parametrize("path", [f"{sm}/{f}.ptx" for sm in ("sm_80", "sm_90")
                                  for f in ("reduce", "histogram", "scan", "misc")])
def test_examples_import(path: str) -> None:
    m = import_ptx((EXAMPLES / path).read_text(), path)
    m.verify()
