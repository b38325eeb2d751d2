"""HGMMA registers in flight (ori_dialect/analysis/inflight.py,
passes/regalloc/inflight.py): the claims per commit group, the form the
allocator takes accumulators in, both strategies at low register limits
(allocations that compile are hazard-free: ``ori-check-regalloc`` and a
strict physical-mode run), and the diagnostics where registers cannot be
kept."""

from __future__ import annotations

import contextlib
import copy
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from examples.triton import launches as tl_launches
from examples.wgmma import launches as wg_launches
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.inflight import InFlight
from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.instruction import OriInstruction, OriOp
from ori_dialect.ops import ALL_OPS
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.gmma import GmmaCommitOp, HgmmaOp, WarpgroupDepbarOp
from ori_dialect.ops.integer import PackOp, UnpackOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.regalloc.checker import check_module
from passes.regalloc.inflight import normalize_in_flight, program_reads

ROOT = Path(__file__).resolve().parents[3]
HEAD = 'builtin.module attributes {ori.target = "sm_90a"} {\n'
PARAMS = "attributes {params = [#ori.param<8, align 8, at 0x0>], maxntid = array<i32: 128, 1, 1>}"


def _parse(body: str) -> ModuleOp:
    m = Parser(make_context(), HEAD + body + "\n}\n").parse_module()
    m.verify()
    return m


def _func(m: ModuleOp) -> FuncOp:
    return next(op for op in m.walk() if isinstance(op, FuncOp))


# ----------------------------------------------------------------------------- op facts


@pytest.mark.parametrize("cls", [c for c in ALL_OPS if issubclass(c, OriOp) and (
    c.TIED or c.ASYNC is not None or c.SPLITS is not None)], ids=lambda c: c.name)
def test_tied_async_and_split_facts_name_real_slots(cls: type[OriOp]) -> None:
    """``TIED`` pairs a result slot with a source slot that can hold the same
    register type; ``SPLITS`` names a source slot; the asynchronous roles
    are the three warpgroup ops."""
    assert issubclass(cls, OriInstruction)
    dsts = {d.name: d for d in cls.DSTS}
    srcs = {s.name: s for s in cls.SRCS}
    for d, src in cls.TIED:
        assert d in dsts and src in srcs
        assert set(dsts[d].types) <= set(srcs[src].types)
    if cls.SPLITS is not None:
        assert cls.SPLITS in srcs
    if cls.ASYNC is not None:
        assert cls in (HgmmaOp, GmmaCommitOp, WarpgroupDepbarOp)


# ----------------------------------------------------------------------------- claims

_GROUPS = f"""  ori.func kernel @k() {PARAMS} {{
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    ori.warpgroup_arrive : () -> ()
    %d1 = ori.hgmma m64n8k16 %b, %b, RZ, not PT : (!ori.r64, !ori.r64) -> !ori.r128
    ori.gmma_commit : () -> ()
    %d2 = ori.hgmma m64n8k16 %b, %b, RZ, not PT : (!ori.r64, !ori.r64) -> !ori.r128
    ori.gmma_commit : () -> ()
    ori.warpgroup_depbar 0x1 : () -> ()
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.exit
  }}"""


def test_a_wait_completes_the_groups_beyond_its_pending_count() -> None:
    """``wait_group 1`` after two groups completes the older one only;
    ``wait_group 0`` the rest."""
    f = _func(_parse(_GROUPS))
    fl = InFlight(CFG.compute(f))
    h1, h2 = [op for op in f.walk() if isinstance(op, HgmmaOp)]
    w1, w0 = [op for op in f.walk() if isinstance(op, WarpgroupDepbarOp)]
    d1, d2 = h1.results[0], h2.results[0]
    before = fl.claims_before(w1)
    assert before[d1].commits == 2 and before[d2].commits == 1
    assert before[d1].acc and before[d1].regs == 4
    assert set(fl.claims_after(w1)) == {d2}
    assert fl.claims_after(w0) == {}
    assert not fl.reads and not fl.redefined


_JOIN = f"""  ori.func kernel @k() {PARAMS} {{
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %t, 0x40, PT : (!ori.r32) -> !ori.p
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %b, %b, RZ, not PT : (!ori.r64, !ori.r64) -> !ori.r128
    ori.gmma_commit : () -> ()
    ori.bra if %p : !ori.p, ^more, ^join
  ^more:
    ori.gmma_commit : () -> ()
    ori.bra ^join
  ^join:
    ori.warpgroup_depbar 0x1 : () -> ()
    ori.exit
  }}"""


def test_a_join_keeps_the_fewest_commits() -> None:
    """One path commits once more: at the join the claim keeps the fewer
    commits (1), so ``wait_group 1`` does not complete it (conservative)."""
    f = _func(_parse(_JOIN))
    fl = InFlight(CFG.compute(f))
    (h,) = [op for op in f.walk() if isinstance(op, HgmmaOp)]
    (w,) = [op for op in f.walk() if isinstance(op, WarpgroupDepbarOp)]
    assert fl.claims_before(w)[h.results[0]].commits == 1
    assert h.results[0] in fl.claims_after(w)


# ----------------------------------------------------------------------------- the form

_LOOP = f"""  ori.func kernel @k() {PARAMS} {{
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32)
  ^loop(%i : !ori.r32, %f0 : !ori.r32, %f1 : !ori.r32, %f2 : !ori.r32, %f3 : !ori.r32):
    ori.warpgroup_arrive : () -> ()
    %c = ori.pack %f0, %f1, %f2, %f3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hgmma m64n8k16 %b, %b, %c, PT : (!ori.r64, !ori.r64, !ori.r128) -> !ori.r128
    %g0, %g1, %g2, %g3 = ori.unpack %d : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %e = ori.hgmma m64n8k16 %b, %b, %d, PT : (!ori.r64, !ori.r64, !ori.r128) -> !ori.r128
    %h0, %h1, %h2, %h3 = ori.unpack %e : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    ori.gmma_commit : () -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i2 : !ori.r32, %h0 : !ori.r32, %h1 : !ori.r32, %h2 : !ori.r32, %h3 : !ori.r32), ^done
  ^done:
    ori.warpgroup_depbar 0x0 : () -> ()
    %s = ori.iadd3 %h0, %h1, %h3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%out + 0x4], %h2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}"""


def test_normal_form_keeps_packs_and_unpacks_out_of_the_windows() -> None:
    """The loop passes its accumulator in flight around the back edge as
    four registers: afterwards the header takes one tuple, each HGMMA takes
    the previous D as C, the dead unpack is gone and the read one follows
    the wait; nothing reads an accumulator in flight."""
    f = _func(_parse(_LOOP))
    assert normalize_in_flight(f)
    loop = f.body.blocks[1]
    assert [str(a.type) for a in loop.args] == ["!ori.r32", "!ori.r128"]
    h1, h2 = [op for op in f.walk() if isinstance(op, HgmmaOp)]
    assert h1.operands[2] is loop.args[1] and h2.operands[2] is h1.results[0]
    fl = InFlight(CFG.compute(f))
    windows = [op for op in f.walk() if isinstance(op, PackOp | UnpackOp)
               and any(c.acc for c in fl.claims_before(op).values())]
    assert not windows and not fl.reads and not program_reads(f)
    (un,) = [op for op in f.walk() if isinstance(op, UnpackOp)]
    assert isinstance(un.prev_op, WarpgroupDepbarOp) and un.operands[0] is h2.results[0]
    assert not normalize_in_flight(f)  # a fixpoint


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
def test_normal_form_allocates_in_place_and_runs_strict(strategy: str) -> None:
    m = _parse(_LOOP)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-regalloc{{strategy={strategy}}}", make_context())
    assert not check_module(m)
    run_kernel(m, "k", 1, 128, [np.zeros(2, np.uint32)], shared_bytes=4096, physical=True,
               strict=True)


_SHARED_JOIN = f"""  ori.func kernel @k() {PARAMS} {{
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %t, 0x40, PT : (!ori.r32) -> !ori.p
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %b, %b, RZ, not PT : (!ori.r64, !ori.r64) -> !ori.r128
    ori.gmma_commit : () -> ()
    ori.bra if %p : !ori.p, ^left, ^right
  ^left:
    ori.bra ^join(%d : !ori.r128)
  ^right:
    ori.bra ^join(%d : !ori.r128)
  ^join(%x : !ori.r128):
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.stg b128 [%out], %x : (!ori.r64, !ori.r128) -> ()
    ori.stg b128 [%out + 0x10], %d : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }}"""


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
def test_an_edge_copy_in_flight_is_a_diagnostic(strategy: str) -> None:
    """The accumulator in flight reaches the join both as the block
    argument and directly, so the two are live together and the edges must
    copy it before the wait: the allocation refuses to emit that (the
    check after assignment), naming the moves."""
    m = _parse(_SHARED_JOIN)
    with pytest.raises(PassFailedException, match=r"(?s)the allocation lets instructions touch "
                       r"the registers of an HGMMA before the wait that completes it.*reads R\d+ "
                       r"of the accumulator"), contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-regalloc{{strategy={strategy}}}", make_context())


def test_a_program_read_in_flight_is_a_remark() -> None:
    """A read of the accumulator before its wait is the program's (undefined
    in PTX): compiled with a remark, the check after assignment not held."""
    body = _GROUPS.replace("    ori.warpgroup_depbar 0x1 : () -> ()\n",
                           "    %u0, %u1, %u2, %u3 = ori.unpack %d2 : (!ori.r128) -> (!ori.r32, "
                           "!ori.r32, !ori.r32, !ori.r32)\n"
                           "    %r = ori.iadd3 %u1, 0x1, RZ : (!ori.r32) -> !ori.r32\n"
                           "    ori.warpgroup_depbar 0x1 : () -> ()\n")
    m = _parse(body)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(m, "ori-regalloc", make_context())
    assert "reads an HGMMA accumulator before the wgmma.wait_group" in err.getvalue()
    assert "undefined in PTX" in err.getvalue()


# ----------------------------------------------------------------------------- low limits


def _kernel_module(src: str, kernel: str) -> ModuleOp:
    m = import_ptx(src, "k.ptx")
    for f in [op for op in m.walk() if isinstance(op, FuncOp) and op.sym_name.data != kernel]:
        f.detach()
        f.erase()
    return m


def _matmul_m64() -> tuple[str, Any, str]:
    la = next(x for x in tl_launches.LAUNCHES if x.kernel == "matmul_m64")
    return la.ptx_path("sm_90a").read_text(), la, "sm_90a"


def _wgmma(kernel: str) -> tuple[str, Any, str | None]:
    la = next(x for x in wg_launches.LAUNCHES if x.kernel == kernel)
    return (ROOT / "examples" / "wgmma" / "ptx" / "sm_90a" / "wgmma.ptx").read_text(), la, None


CASES = [
    ("matmul_m64", 16), ("matmul_m64", 24), ("matmul_m64", 32),
    ("wgmma_rs_f16acc", 24), ("wgmma_bf16_sw128", 24), ("wgmma_f16_nosw", 44),
]


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
@pytest.mark.parametrize(("kernel", "limit"), CASES, ids=[f"{k}-{n}" for k, n in CASES])
def test_low_limits_spill_outside_the_windows(kernel: str, limit: int, strategy: str) -> None:
    """Under a cap through the launch bounds the kernels spill, never an
    accumulator or A fragments in flight: the allocation passes
    ``ori-check-regalloc`` and runs strict in physical mode as numpy says."""
    src, la, arch = _matmul_m64() if kernel == "matmul_m64" else _wgmma(kernel)
    m = _kernel_module(src, kernel)
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, f"ori-ptxas{{max-regs={limit} override-directive-values=true "
                          f"strategy={strategy}}}", make_context())
    assert not check_module(m)
    f = _func(m)
    assert f.attributes["ori.num_regs"].value.data <= limit  # type: ignore[union-attr]
    args = la.make_args(np.random.default_rng(la.seed))
    ref = la.expected_for(arch) if arch else la.expected
    want = ref([copy.deepcopy(a) for a in args])
    got = run_kernel(m, la.kernel, la.grid, la.block, [copy.deepcopy(a) for a in args],
                     shared_bytes=getattr(la, "shared_bytes", 0), physical=True, strict=True)
    for g, w in zip(got, want):
        if w is not None:
            la.check(g, w)
