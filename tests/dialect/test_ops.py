"""Every ori op verifies, round-trips exactly through its custom syntax, and
parses from the generic form; every op class declares its metadata."""

from __future__ import annotations

import pytest
from xdsl.irdl import IRDLOperation

from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ir.metadata import LatencyClass, MemEffect, Pipe
from ori_dialect.ops import ALL_OPS, FuncOp, RuntimeFuncOp
from ori_dialect.ops.module_vars import GlobalOp
from tests.conftest import parse, show

# One or more instances of every op, in canonical custom syntax.  The values
# %a %b %c (r32), %w %x (r64), %q (r128), %p %p2 (p) and %u (ur32) are defined
# by the wrapper below.
SAMPLES: dict[str, list[str]] = {
    "ori.iadd3": [
        "%0 = ori.iadd3 %a, 0x10, RZ : (!ori.r32) -> !ori.r32",
        "%0, %1 = ori.iadd3 -%a, -%b, %c : (!ori.r32, !ori.r32, !ori.r32) -> (!ori.r32, !ori.p)",
        "%0 = ori.iadd3 x %a, c[0x0][0x160], RZ, %p, not PT : (!ori.r32, !ori.p) -> !ori.r32",
        "%0 = ori.iadd3 %a, %u, %c : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32",
        "%0 = ori.iadd3 x %a, not %b, RZ, %p, not PT : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32",
    ],
    "ori.imad": [
        "%0 = ori.imad %a, %b, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32",
        "%0 = ori.imad hi.u32 %a, 0x4, RZ : (!ori.r32) -> !ori.r32",
        "%0 = ori.imad wide.u32 %a, 0x4, %w : (!ori.r32, !ori.r64) -> !ori.r64",
    ],
    "ori.lea": [
        "%0 = ori.lea %a, %b, 0x2 : (!ori.r32, !ori.r32) -> !ori.r32",
        "%0 = ori.lea hi.x %a, %b, 0x2, %c, %p : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32",
    ],
    "ori.lea_hi_sx32": [
        "%0 = ori.lea_hi_sx32 %a, RZ, 0x1 : (!ori.r32) -> !ori.r32",
        "%0 = ori.lea_hi_sx32 x %a, c[0x0][0x164], 0x1, %p : (!ori.r32, !ori.p) -> !ori.r32",
    ],
    "ori.lop3": [
        "%0 = ori.lop3 %a, %b, %c, 0xc0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32",
        "%0, %1 = ori.lop3 %a, 0xff, RZ, 0xc0 : (!ori.r32) -> (!ori.r32, !ori.p)",
    ],
    "ori.shf": ["%0 = ori.shf l.w.u64.hi %a, 0x3, %b : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.shl": ["%0 = ori.shl %a, 0x5 : (!ori.r32) -> !ori.r32"],
    "ori.shr": ["%0 = ori.shr u32 %a, %b : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.imnmx": ["%0 = ori.imnmx u32 %a, %b, not PT : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.iabs": ["%0 = ori.iabs %a : (!ori.r32) -> !ori.r32"],
    "ori.popc": ["%0 = ori.popc %a : (!ori.r32) -> !ori.r32"],
    "ori.flo": ["%0 = ori.flo s32.sh %a : (!ori.r32) -> !ori.r32"],
    "ori.brev": ["%0 = ori.brev %a : (!ori.r32) -> !ori.r32"],
    "ori.bmsk": ["%0 = ori.bmsk w %a, 0x8 : (!ori.r32) -> !ori.r32"],
    "ori.sgxt": ["%0 = ori.sgxt %a, 0x7 : (!ori.r32) -> !ori.r32",
                 "%0 = ori.sgxt u32 %a, %b : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.prmt": ["%0 = ori.prmt %a, 0x5410, %b : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.sel": ["%0 = ori.sel %a, 0x1, not %p : (!ori.r32, !ori.p) -> !ori.r32"],
    "ori.mov": [
        "%0 = ori.mov 0x3f800000 : () -> !ori.r32",
        "%0 = ori.mov -0x1 : () -> !ori.r32",
        "%0 = ori.ldc 0x3, [RZ + 0x10] : () -> !ori.ur32",
    ],
    "ori.r2ur": ["%0 = ori.r2ur %a : (!ori.r32) -> !ori.ur32"],
    "ori.bmov": ["%0 = ori.bmov %a : (!ori.r32) -> !ori.b"],
    "ori.isetp": [
        "%0 = ori.isetp ge.u32 %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p",
        "%0, %1 = ori.isetp ne.or.ex %a, 0x0, %p, %p2 : (!ori.r32, !ori.p, !ori.p) -> (!ori.p, !ori.p)",
    ],
    "ori.fsetp": ["%0 = ori.fsetp gtu.xor.ftz |%a|, -2.5, PT : (!ori.r32) -> !ori.p"],
    "ori.dsetp": ["%0 = ori.dsetp lt %w, %x, not %p : (!ori.r64, !ori.r64, !ori.p) -> !ori.p"],
    "ori.plop3": [
        "%0 = ori.plop3 %p, not %p2, PT, 0x80 : (!ori.p, !ori.p) -> !ori.p",
        "%0, %1 = ori.plop3 %p, %p2, PT, 0x80, 0x8 : (!ori.p, !ori.p) -> (!ori.p, !ori.p)",
    ],
    "ori.p2r": ["%0 = ori.p2r %a, 0x3, %p, %p2 : (!ori.r32, !ori.p, !ori.p) -> !ori.r32"],
    "ori.r2p": ["%0, %1 = ori.r2p %a, 0x3 : (!ori.r32) -> (!ori.p, !ori.p)"],
    "ori.fadd": ["%0 = ori.fadd rz.ftz -%a, inf : (!ori.r32) -> !ori.r32"],
    "ori.fmul": ["%0 = ori.fmul sat %a, c[0x0][0x164] : (!ori.r32) -> !ori.r32"],
    "ori.ffma": ["%0 = ori.ffma %a, 0.5, -|%c| : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.fmnmx": ["%0 = ori.fmnmx %a, 0x7fc00000, PT : (!ori.r32) -> !ori.r32", "%0 = ori.fsetp nan %a, 1.0, PT : (!ori.r32) -> !ori.p"],
    "ori.mufu": ["%0 = ori.mufu ex2 %a : (!ori.r32) -> !ori.r32"],
    "ori.dadd": ["%0 = ori.dadd %w, -%x : (!ori.r64, !ori.r64) -> !ori.r64"],
    "ori.dmul": ["%0 = ori.dmul rp %w, 2.0 : (!ori.r64) -> !ori.r64"],
    "ori.dfma": ["%0 = ori.dfma %w, %x, %w : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64"],
    "ori.hadd2": ["%0 = ori.hadd2 %a, %b : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.hmul2": ["%0 = ori.hmul2 bf16 %a, 0x3c003c00 : (!ori.r32) -> !ori.r32"],
    "ori.hfma2": ["%0 = ori.hfma2 f32 %a, %b, -%c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32"],
    "ori.i2f": ["%0 = ori.i2f f64.s32 %a : (!ori.r32) -> !ori.r64"],
    "ori.f2i": ["%0 = ori.f2i s32.f32.rz %a : (!ori.r32) -> !ori.r32"],
    "ori.f2f": ["%0 = ori.f2f f32.f64.rm %w : (!ori.r64) -> !ori.r32"],
    "ori.f2fp": ["%0 = ori.f2fp pack_ab %a, %b : (!ori.r32, !ori.r32) -> !ori.r32",
                 "%0 = ori.f2fp bf16.pack_ab %a, c[0x0][0x16c] : (!ori.r32) -> !ori.r32"],
    "ori.i2i": ["%0 = ori.i2i s8.s32.sat %a : (!ori.r32) -> !ori.r32"],
    "ori.s2r": [
        "%0 = ori.s2r SR_TID.X : () -> !ori.r32",
        "%0 = ori.s2r SR_LANEID : () -> !ori.r32",
    ],
    "ori.cs2r": ["%0 = ori.cs2r SR_CLOCKLO : () -> !ori.r64"],
    "ori.nop": ["ori.nop : () -> ()"],
    "ori.pragma": ['ori.pragma "nounroll"'],
    "ori.undef": ["%0 = ori.undef : () -> !ori.r64"],
    "ori.pack": [
        "%0 = ori.pack %a, %b : (!ori.r32, !ori.r32) -> !ori.r64",
        "%0 = ori.pack %a, RZ, 0x1, c[0x0][0x10] : (!ori.r32) -> !ori.r128",
    ],
    "ori.unpack": [
        "%0, %1 = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)",
        "%0, %1, %2, %3 = ori.unpack %q : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)",
    ],
    "ori.ldg": [
        "%0 = ori.ldg [%w + 0x10] : (!ori.r64) -> !ori.r32",
        "%0 = ori.ldg b128.ef.strong.gpu [%w - 0x20] : (!ori.r64) -> !ori.r128",
    ],
    "ori.stg": ["ori.stg b64 [%w + 0x8], %x : (!ori.r64, !ori.r64) -> ()"],
    "ori.lds": ["%0 = ori.lds u16 [%a + 0x4] : (!ori.r32) -> !ori.r32"],
    "ori.sts": ["ori.sts [RZ + 0x100], %a : (!ori.r32) -> ()"],
    "ori.ldl": ["%0 = ori.ldl b64 [%a] : (!ori.r32) -> !ori.r64",
                "%0 = ori.ldl [R1 + 0x8] : () -> !ori.r32"],
    "ori.stl": ["ori.stl b128 [%a + 0x10], %q : (!ori.r32, !ori.r128) -> ()",
                "ori.stl [R1 + 0x4], %a : (!ori.r32) -> ()"],
    "ori.ld": ["%0 = ori.ld s8 [%w] : (!ori.r64) -> !ori.r32"],
    "ori.st": ["ori.st [%w], %a : (!ori.r64, !ori.r32) -> ()"],
    "ori.ldc": [
        "%0 = ori.ldc 0x0, [RZ + 0x160] : () -> !ori.r32",
        "%0 = ori.ldc b64 0x3, [%a + 0x8] : (!ori.r32) -> !ori.r64",
    ],
    "ori.atom": [
        "%0 = ori.atom add [%w], %a : (!ori.r64, !ori.r32) -> !ori.r32",
        "%0 = ori.atom cas.u64.gpu [%w], %x, %x : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64",
    ],
    "ori.atoms": ["%0 = ori.atoms max.u32 [%a + 0x4], 0x1 : (!ori.r32) -> !ori.r32"],
    "ori.red": ["ori.red add.f32 [%w + 0x4], %a : (!ori.r64, !ori.r32) -> ()"],
    "ori.bar": ["ori.bar 0x0 : () -> ()", "ori.bar arv 0x1, 0x40 : () -> ()"],
    "ori.membar": ["ori.membar sys : () -> ()"],
    "ori.shfl": ["%0, %1 = ori.shfl bfly %a, 0x10, 0x1f : (!ori.r32) -> (!ori.r32, !ori.p)",
                 "%0 = ori.shfl idx %a, %b, 0x181f, 0xff00 : (!ori.r32, !ori.r32) -> !ori.r32"],
    "ori.bar_red": ["%0 = ori.bar_red popc 0x0, %p : (!ori.p) -> !ori.r32",
                    "%0 = ori.bar_red or 0x1, not %p, 0x40 : (!ori.p) -> !ori.p"],
    "ori.vote": ["%0, %1 = ori.vote any %p : (!ori.p) -> (!ori.r32, !ori.p)"],
    "ori.redux": ["%0 = ori.redux sum.s32 %a, -0x1 : (!ori.r32) -> !ori.r32",
                  "%0 = ori.redux %a, %b : (!ori.r32, !ori.r32) -> !ori.ur32"],
    "ori.credux": ["%0 = ori.credux maxabs.f32.nan %a, 0xffff : (!ori.r32) -> !ori.r32"],
    "ori.match": ["%0 = ori.match any %a, -0x1 : (!ori.r32) -> !ori.r32",
                  "%0, %1 = ori.match all.u64 %w, %b : (!ori.r64, !ori.r32) -> (!ori.r32, !ori.p)"],
    "ori.acqbulk": ["ori.acqbulk : () -> ()"],
    "ori.preexit": ["ori.preexit : () -> ()"],
    "ori.bpt": ["ori.bpt trap 0x1 : () -> ()"],
    "ori.frame_enter": ["ori.frame_enter 0x20 : () -> ()"],
    "ori.frame_leave": ["ori.frame_leave 0x10 : () -> ()"],
    "ori.frame_addr": ["%r = ori.frame_addr 0x8 : () -> !ori.r32"],
    "ori.call": ["%0 = ori.call @callee(%a) : (!ori.r32) -> !ori.r32"],
    "ori.call_indirect": ["%0 = ori.call_indirect %w(%a) : (!ori.r64, !ori.r32) -> !ori.r32"],
    "ori.addr": ["%0 = ori.addr @callee : !ori.r64"],
    # warpgroup MMA (ops/gmma.py)
    "ori.hgmma": [
        "%0 = ori.hgmma m64n8k16 %w, %x, %q, PT : (!ori.r64, !ori.r64, !ori.r128) -> !ori.r128",
        "%0 = ori.hgmma m64n16k16.bf16.tnspb %w, %x, RZ, not PT : (!ori.r64, !ori.r64) -> !ori.r256",
        "%0 = ori.hgmma m64n32k16.f16.nega %q, %x, RZ, %p : (!ori.r128, !ori.r64, !ori.p) -> !ori.r256",
    ],
    "ori.warpgroup_arrive": ["ori.warpgroup_arrive : () -> ()"],
    "ori.gmma_commit": ["ori.gmma_commit : () -> ()"],
    "ori.warpgroup_depbar": ["ori.warpgroup_depbar 0x1 : () -> ()"],
    "ori.fence_async": ["ori.fence_async : () -> ()"],
    # texture fetches (ops/texture.py)
    "ori.tex": ["%0 = ori.tex dim2 %w, %a, %b : (!ori.r64, !ori.r32, !ori.r32) -> !ori.r128",
                "%0 = ori.tex dim1.s32 %w, %a : (!ori.r64, !ori.r32) -> !ori.r128"],
    "ori.tld": ["%0 = ori.tld dim1 %w, %a : (!ori.r64, !ori.r32) -> !ori.r128",
                "%0 = ori.tld dim2.u32 %w, %a, RZ : (!ori.r64, !ori.r32) -> !ori.r128"],
    "ori.tld4": ["%0 = ori.tld4 g.dim2 %w, %a, %b : (!ori.r64, !ori.r32, !ori.r32) -> !ori.r128"],
    # tensor cores and asynchronous copies (ops/tensor.py)
    "ori.hmma": [
        "%0 = ori.hmma m16n8k16.f32 %q, %w, %q : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128",
        "%0 = ori.hmma m16n8k16.f16 %q, %w, %x : (!ori.r128, !ori.r64, !ori.r64) -> !ori.r64",
        "%0 = ori.hmma m16n8k8.f32.bf16 %w, %a, RZ : (!ori.r64, !ori.r32) -> !ori.r128",
        "%0 = ori.hmma m16n8k8.f32.tf32 %q, %w, %q : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128",
        "%0 = ori.hmma m16n8k4.f32.tf32 %w, %a, RZ : (!ori.r64, !ori.r32) -> !ori.r128",
    ],
    "ori.imma": [
        "%0 = ori.imma m16n8k32.s8.s8 %q, %w, %q : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128",
        "%0 = ori.imma m16n8k16.u8.s8.sat %w, %a, RZ : (!ori.r64, !ori.r32) -> !ori.r128",
    ],
    "ori.ldsm": [
        "%0 = ori.ldsm b16.m88.x4 [%a + 0x200] : (!ori.r32) -> !ori.r128",
        "%0 = ori.ldsm b16.mt88 [%a] : (!ori.r32) -> !ori.r32",
    ],
    "ori.ldgsts": [
        "ori.ldgsts bypass.b128 [%a + 0x10], [%w + 0x10] : (!ori.r32, !ori.r64) -> ()",
        "ori.ldgsts [%a], [%w], not %p : (!ori.r32, !ori.r64, !ori.p) -> ()",
        "ori.ldgsts bypass.b128.zfill [%a], [%w], %p : (!ori.r32, !ori.r64, !ori.p) -> ()",
    ],
    "ori.ldgdepbar": ["ori.ldgdepbar : () -> ()"],
    "ori.depbar": ["ori.depbar le.SB0 0x1 : () -> ()"],
}
GUARDED = [
    "%0 = ori.iadd3 %a, 0x1, RZ if %p else %b : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32",
    "%0 = ori.ldg [%w] if not %p else %c : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32",
    "ori.stg [%w], %a if %p : (!ori.r64, !ori.r32, !ori.p) -> ()",
    # no modifiers, no sources: `if` comes right after the name (a guarded fence)
    "ori.membar if %p : (!ori.p) -> ()",
    "%0, %1 = ori.isetp lt %a, %b, PT if %p else %p2, %p2 : (!ori.r32, !ori.r32, !ori.p, !ori.p, !ori.p) -> (!ori.p, !ori.p)",
]

_PRELUDE = """builtin.module {
  ori.func @callee(%v: !ori.r32) -> !ori.r32 {
    ori.ret %v : !ori.r32
  }
  ori.func @host(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %w: !ori.r64, %x: !ori.r64, %q: !ori.r128, %p: !ori.p, %p2: !ori.p, %u: !ori.ur32) {
    LINE
    ori.ret
  }
}
"""


def _wrap(line: str) -> str:
    return _PRELUDE.replace("LINE", line)


def _all_samples() -> list[str]:
    return [s for lines in SAMPLES.values() for s in lines] + GUARDED


def _body_line(text: str) -> str:
    return text.splitlines()[5].strip()


@pytest.mark.parametrize("line", _all_samples())
def test_roundtrip(line: str) -> None:
    m = parse(_wrap(line))
    m.verify()
    printed = show(m)
    assert _body_line(printed) == line
    assert show(parse(printed)) == printed
    generic = show(m, generic=True)
    m2 = parse(generic)
    m2.verify()
    assert show(m2) == printed


def test_every_op_has_a_sample() -> None:
    covered = {line.split("=", 1)[-1].split()[0] for line in _all_samples()}
    covered |= {"ori.func", "ori.ret", "ori.bra", "ori.exit"}  # see test_dialect_cfg.py
    covered |= {"ori.global"}  # module level: tests/ptx/lower/test_globals.py, filecheck/ptx
    covered |= {"ori.runtime_func"}  # module level: tests/ptx/lower/test_device_runtime.py
    covered |= {"ori.brx"}  # a terminator with successors: filecheck/dialect/warp-ops.mlir
    missing = {op.name for op in ALL_OPS} - covered
    assert not missing, f"ops without a round-trip sample: {sorted(missing)}"


@pytest.mark.parametrize("op", [o for o in ALL_OPS if o not in (FuncOp, GlobalOp, RuntimeFuncOp)],
                         ids=lambda o: o.name)
def test_metadata_declared(op: type[IRDLOperation]) -> None:
    assert issubclass(op, OriOp)
    assert op.SASS, f"{op.name} names no SASS mnemonic"
    assert isinstance(op.LATENCY, LatencyClass)
    assert isinstance(op.PIPE, Pipe)
    assert isinstance(op.MEM, MemEffect)
    if issubclass(op, OriInstruction):
        names = [s.name for s in op.SRCS]
        assert len(names) == len(set(names)), f"{op.name}: duplicate slot names"
        seen_optional = False
        for s in op.SRCS:
            assert not (seen_optional and not s.optional), f"{op.name}: optional slots must trail"
            seen_optional |= s.optional
        tokens = [v for g in op.MODS for v in g.values]
        assert not {"c", "inf", "not", "if", "RZ", "PT"} & set(tokens)


def test_memory_metadata() -> None:
    from ori_dialect.ops import AtomOp, BarOp, LdcOp, LdgOp, MovOp, StgOp

    assert LdgOp.MEM is MemEffect.READ and LdgOp.LATENCY is LatencyClass.GLOBAL_LOAD
    assert StgOp.MEM is MemEffect.WRITE and StgOp.PIPE is Pipe.LSU
    assert AtomOp.MEM is MemEffect.READ_WRITE and AtomOp.SIDE_EFFECTS
    assert BarOp.IS_BARRIER and not MovOp.IS_BARRIER
    assert MovOp.REMATERIALIZABLE and LdcOp.REMATERIALIZABLE and not LdgOp.REMATERIALIZABLE
