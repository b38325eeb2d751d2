"""``ori-abi``'s constant arguments (passes/abi/constant_args.py): a
kernel that calls a device function in a loop with a global's address, an
immediate and the generic address of a local buffer computes what numpy
says before ``ori-abi``, after it and after allocation (the physical
interpreter clobbers every register the call may overwrite), with the rule
on and off; with it on the three arguments are written at the call and
fewer registers are used; a value read by anything but argument copies,
and any value that is no constant chain, is left alone."""

from __future__ import annotations

import contextlib
import copy
import io

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import UnpackOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, run_launch
from passes.abi.constant_args import MAX_CHAIN, chain_cost, constant_chain
from passes.abi.lower import ABI_REG_ATTR
from passes.regalloc.checker import check_module
from tests.conftest import parse

N = 32
PTX = """.version 8.0
.target sm_80
.address_size 64

.global .align 4 .u32 g_base[4] = {10, 20, 30, 40};

.func (.param .b32 r) mix(.param .b64 p, .param .b32 k, .param .b64 loc, .param .b32 x)
{
    .reg .u32 %a, %b, %s, %kk, %xx;
    .reg .u64 %pp, %ll;
    ld.param.u64 %pp, [p];
    ld.param.u32 %kk, [k];
    ld.param.u64 %ll, [loc];
    ld.param.u32 %xx, [x];
    ld.global.u32 %a, [%pp+4];
    ld.u32 %b, [%ll];
    mad.lo.s32 %s, %xx, %kk, %a;
    add.s32 %s, %s, %b;
    st.param.b32 [r], %s;
    ret;
}

.visible .entry constant_args(.param .u64 out, .param .u32 n)
{
    .local .align 4 .b8 buf[4];
    .reg .u32 %t, %i, %acc, %n, %r, %k;
    .reg .u64 %o, %g, %lb, %gb, %w;
    .reg .pred %p;
    mov.u32 %t, %tid.x;
    ld.param.u64 %o, [out];
    ld.param.u32 %n, [n];
    mov.u64 %g, g_base;
    cvta.global.u64 %g, %g;
    mov.u64 %lb, buf;
    cvta.local.u64 %gb, %lb;
    st.local.u32 [buf], %t;
    mov.u32 %k, 7;
    mov.u32 %acc, 0;
    mov.u32 %i, 0;
LOOP:
    {
    .param .b64 param0;
    st.param.b64 [param0], %g;
    .param .b32 param1;
    st.param.b32 [param1], %k;
    .param .b64 param2;
    st.param.b64 [param2], %gb;
    .param .b32 param3;
    st.param.b32 [param3], %i;
    .param .b32 retval0;
    call.uni (retval0), mix, (param0, param1, param2, param3);
    ld.param.b32 %r, [retval0];
    }
    add.u32 %acc, %acc, %r;
    add.u32 %i, %i, 1;
    setp.lt.u32 %p, %i, %n;
    @%p bra LOOP;
    cvta.to.global.u64 %o, %o;
    mul.wide.u32 %w, %t, 4;
    add.u64 %o, %o, %w;
    st.global.u32 [%o], %acc;
    ret;
}
"""


def _module(pipeline: str) -> ModuleOp:
    m = import_ptx(PTX, "constant_args.ptx")
    if pipeline:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, pipeline)
        m.verify()
    return m


def _kernel(m: ModuleOp) -> FuncOp:
    return next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "constant_args")


def _want(n: int) -> np.ndarray:
    t = np.arange(N, dtype=np.int64)
    return np.array([sum(i * 7 + 20 + int(x) for i in range(n)) for x in t], np.int32)


@pytest.mark.parametrize("pipeline, physical", [
    ("", False),
    ("ori-abi", False),
    ("ori-abi{constant-args=false}", False),
    ("ori-general-optimize,ori-abi", False),
    ("ori-abi,ori-regalloc", True),
    ("ori-abi{constant-args=false},ori-regalloc", True),
    ("ori-general-optimize,ori-abi,ori-regalloc", True),
    ("ori-ptxas", True),
])
@pytest.mark.parametrize("n", [1, 5])
def test_results_unchanged(pipeline: str, physical: bool, n: int) -> None:
    m = _module(pipeline)
    args = [np.zeros(N, np.int32), np.int32(n)]
    out = run_launch(m, "constant_args", [copy.deepcopy(a) for a in args], 1, N, strict=True,
                     physical=physical)
    assert out.results is not None, out.error
    np.testing.assert_array_equal(out.results[0], _want(n))
    if physical:
        assert check_module(m) == []


def _written_at_call(f: FuncOp) -> list[str]:
    """What writes each parameter register: a copy (MOV of a register, PACK
    of an UNPACK's parts) or the constant's own definition."""
    out = []
    for o in f.walk():
        if ABI_REG_ATTR not in o.attributes:
            continue
        copy_ = o.name == "ori.mov" and bool(o.operands) or o.name == "ori.pack" and all(
            isinstance(v.owner, UnpackOp) for v in o.operands)
        out.append("copy" if copy_ else o.name)
    return sorted(out)


def test_constants_written_at_the_call_and_fewer_registers() -> None:
    on = _module("ori-general-optimize,ori-abi")
    off = _module("ori-general-optimize,ori-abi{constant-args=false}")
    assert _written_at_call(_kernel(on)) == ["copy", "ori.addr", "ori.mov", "ori.pack"]
    assert _written_at_call(_kernel(off)) == ["copy"] * 4
    # the originals are gone: no address or frame address outside the call block
    call_block = next(o for o in _kernel(on).walk() if o.name == "ori.call").parent
    for o in _kernel(on).walk():
        if o.name in ("ori.addr", "ori.frame_addr"):
            assert o.parent is call_block
    regs = []
    for m in (on, off):
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, "ori-regalloc")
        a = _kernel(m).attributes["ori.num_regs"]
        regs.append(a.value.data)  # type: ignore[attr-defined]
    assert regs[0] < regs[1], regs


CHAINS = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.global @g global size 4 align 4
  ori.func kernel @k() attributes {ori.local_bytes = 16 : i32} {
    ori.frame_enter 0x10 : () -> ()
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %t, 0x4, PT : (!ori.r32) -> !ori.p
    %imm = ori.mov 0x2a : () -> !ori.r32
    %addr = ori.addr @g : !ori.r64
    %fa = ori.frame_addr 0x8 : () -> !ori.r32
    %gen = ori.pack %fa, 0x7d00 : (!ori.r32) -> !ori.r64
    %cb = ori.ldc 0x0, [RZ + 0x10] : () -> !ori.r32
    %idx = ori.ldc 0x0, [%t + 0x10] : (!ori.r32) -> !ori.r32
    %old = ori.mov 0x3 : () -> !ori.r32
    %grd = ori.mov 0x1 if %p else %old : (!ori.p, !ori.r32) -> !ori.r32
    %pt = ori.pack %t, 0x0 : (!ori.r32) -> !ori.r64
    %w = ori.pack %imm, %cb : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.pack %imm, %cb, %fa, %fa : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %c2 = ori.ldc 0x0, [RZ + 0x14] : () -> !ori.r32
    %hi = ori.shr %c2, 0x1f : (!ori.r32) -> !ori.r32
    %sx = ori.pack %c2, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    %c4 = ori.ldc 0x0, [RZ + 0x1c] : () -> !ori.r32
    %lo = ori.shr %c4, 0x1f : (!ori.r32) -> !ori.r32
    %three = ori.pack %lo, 0x0 : (!ori.r32) -> !ori.r64
    ori.exit
  }
}
"""


def _values() -> dict[str, object]:
    m = parse(CHAINS)
    out: dict[str, object] = {}
    for o in m.walk():
        for r in o.results:
            if r.name_hint:
                out[r.name_hint] = r
    return out


@pytest.mark.parametrize("name, ops", [
    ("imm", ["ori.mov"]),
    ("addr", ["ori.addr"]),
    ("fa", ["ori.frame_addr"]),
    ("gen", ["ori.frame_addr", "ori.pack"]),
    ("cb", ["ori.ldc"]),
    ("w", ["ori.mov", "ori.ldc", "ori.pack"]),
])
def test_constant_chains(name: str, ops: list[str]) -> None:
    chain = constant_chain(_values()[name])  # type: ignore[arg-type]
    assert chain is not None and [o.name for o in chain] == ops


@pytest.mark.parametrize("name", ["t", "p", "idx", "grd", "pt", "q", "sx"])
def test_not_constant_chains(name: str) -> None:
    """S2R, a predicate, an LDC at a register address, a guarded MOV, a
    PACK with a register part, a chain longer than MAX_CHAIN, a part read
    twice (CUB's sign-extended divisor)."""
    assert constant_chain(_values()[name]) is None  # type: ignore[arg-type]


def test_chain_budget() -> None:
    """A chain is at most MAX_CHAIN instructions: the three of ``w`` fit the
    default budget, not one of two; the two of ``gen`` fit two."""
    v = _values()
    assert constant_chain(v["w"], MAX_CHAIN) is not None  # type: ignore[arg-type]
    assert constant_chain(v["w"], 2) is None  # type: ignore[arg-type]
    assert constant_chain(v["gen"], 2) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("name, cost, width", [
    ("imm", 1, 1), ("addr", 1, 2), ("gen", 2, 2), ("cb", 1, 1), ("w", 2, 2), ("three", 3, 2)])
def test_chain_costs(name: str, cost: int, width: int) -> None:
    """What the clone emits against the copy's one MOV per register: a
    chain costlier than the copy (``three``) is not recomputed."""
    v = _values()[name]
    chain = constant_chain(v)  # type: ignore[arg-type]
    assert chain is not None
    assert chain_cost(chain) == cost
    assert v.type.num_regs() == width  # type: ignore[attr-defined]



TWO_CALLS = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%a: !ori.r32, %b: !ori.r64) -> !ori.r32 {
    %lo, %hi = ori.unpack %b : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %a, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  }
  ori.func kernel @k() {
    %k = ori.mov 0x2a : () -> !ori.r32
    %w = ori.pack %k, 0x7 : (!ori.r32) -> !ori.r64
    %x = ori.mov 0x5 : () -> !ori.r32
    %r1 = ori.call @f(%x, %w) : (!ori.r32, !ori.r64) -> !ori.r32
    %r2 = ori.call @f(%x, %w) : (!ori.r32, !ori.r64) -> !ori.r32
    %r3 = ori.call @f(%r2, %w) : (!ori.r32, !ori.r64) -> !ori.r32
    ori.exit
  }
}
"""


def test_one_constant_passed_to_several_calls() -> None:
    """Each call gets its own clone (the later calls' arguments are then
    clones, not copies, when the loop over calls reaches them); the MOV
    read by the PACK is cloned with it, its other reader (none) keeps no
    original."""
    m = parse(TWO_CALLS)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-abi")
    m.verify()
    k = _kernel_named(m, "k")
    calls = [o for o in k.walk() if o.name == "ori.call"]
    for c in calls:
        owners = [a.owner for a in c.operands]
        assert owners[1].name == "ori.pack" and ABI_REG_ATTR in owners[1].attributes
    assert calls[0].operands[0].owner.name == "ori.mov"
    assert not calls[0].operands[0].owner.operands  # the immediate itself
    assert calls[2].operands[0].owner.operands  # a copy of the call result
    # 3 PACKs + their 3 MOV 0x2a, 2 MOV 0x5; the originals are gone
    movs = [o for o in k.walk() if o.name == "ori.mov" and not o.operands]
    assert len(movs) == 5
    assert len([o for o in k.walk() if o.name == "ori.pack"]) == 3


def _kernel_named(m: ModuleOp, name: str) -> FuncOp:
    return next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == name)
