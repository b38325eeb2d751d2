"""The latency and pipe model of ``ori-pipeline`` (seed 001 phase 24): stall
cycles with their caps, pipe routing, ResMII per target (the seed's worked
example among the tables), RecMII of register and memory recurrences, and a
plugin-style target that changes them."""

from __future__ import annotations

import contextlib
import dataclasses
import io

import pytest
from xdsl.ir import Block
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.pipeline_modulo.analysis import loop_shape
from passes.pipeline_modulo.ddg import build_ddg, op_latency, op_pipe, rec_mii, res_mii
from passes.pipeline_modulo.schedule import modulo_schedule, verify_schedule
from targets import get_target, register_target, unregister_target

_HEAD = """builtin.module attributes {{ori.target = "sm_80"}} {{
  ori.func kernel @k() attributes {{params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]}} {{
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %f = ori.mov 0x3f800000 : () -> !ori.r32
    %d = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    ori.bra ^bb1(%z : !ori.r32, %f : !ori.r32, %d : !ori.r64, %d : !ori.r64)
  ^bb1(%i : !ori.r32, %x : !ori.r32, %y : !ori.r64, %y1 : !ori.r64):
{body}
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, {x} : !ori.r32, {y} : !ori.r64, {y1} : !ori.r64), ^bb2
  ^bb2:
    ori.stg [%a], {x} : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}
"""


def _loop(body: str, x: str = "%x", y: str = "%y", y1: str = "%y1") -> Block:
    text = _HEAD.format(body=body, x=x, y=y, y1=y1)
    module = Parser(make_context(), text, "test").parse_module()
    func = functions_of(module)[0]
    return list(func.regions[0].blocks)[1]


def _ddg(block: Block, target: str):  # type: ignore[no-untyped-def]
    shape = loop_shape(block)
    assert not isinstance(shape, str)
    return build_ddg(block, shape.body, shape.back_args, get_target(target))


# the seed's worked example: 8 FP32 instructions and 3 global loads
FP32x8_LDGx3 = "\n".join(
    [f"    %v{k} = ori.ldg [%a + {hex(4 * k)}] : (!ori.r64) -> !ori.r32" for k in range(3)]
    + [f"    %x{k + 1} = ori.ffma %x{k if k else ''}, %f, %f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32"
       .replace("%x0", "%x") for k in range(8)])
# 4 DFMA, 2 MUFU (XU: routed onto the BRA/SMEM entry with the loop branch)
DFMAx4_MUFUx2 = "\n".join(
    [f"    %w{k} = ori.dfma %y, %y, %y : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64" for k in range(4)]
    + [f"    %m{k} = ori.mufu rcp %x : (!ori.r32) -> !ori.r32" for k in range(2)])

# Expected ResMII, by hand from targets/pipes.py's widths (ALU, FMA, DFMA,
# MMA, LSU, TEX, BRA); each body also has the IV IADD3 and ISETP (ALU) and
# the branch (BRA).
RESMII = {
    #           widths                   8 FFMA + 3 LDG   4 DFMA + 2 MUFU
    "sm_50": ((8, 8, 1, 1, 2, 2, 1), 2, 4),  # LSU 3/2
    "sm_60": ((4, 4, 1, 1, 1, 1, 1), 3, 4),  # LSU 3/1
    "sm_70": ((4, 4, 1, 1, 2, 1, 1), 2, 4),
    "sm_75": ((4, 4, 1, 1, 1, 1, 1), 3, 4),
    "sm_80": ((4, 4, 1, 1, 2, 1, 1), 2, 4),  # seed: max(8/4, 3/2) = 2
    "sm_86": ((4, 8, 1, 1, 1, 1, 1), 3, 4),  # FMA 8/8, LSU 3/1
    "sm_90": ((4, 8, 2, 1, 2, 1, 1), 2, 3),  # DFMA 4/2, BRA 3/1
    "sm_100": ((4, 8, 2, 1, 2, 1, 1), 2, 3),
    "sm_103": ((4, 8, 1, 1, 2, 1, 1), 2, 4),
    "sm_120": ((8, 8, 1, 1, 1, 1, 1), 3, 4),
}


@pytest.mark.parametrize("target", sorted(RESMII))
def test_resmii_table(target: str) -> None:
    widths, fp32, fp64 = RESMII[target]
    assert get_target(target).pipe_widths == widths
    assert res_mii(_ddg(_loop(FP32x8_LDGx3, x="%x8"), target), widths) == fp32
    assert res_mii(_ddg(_loop(DFMAx4_MUFUx2), target), widths) == fp64


def test_stall_cycles_and_caps() -> None:
    block = _loop(FP32x8_LDGx3 + "\n" + DFMAx4_MUFUx2, x="%x8")
    ops = {op.name: op for op in block.ops}
    sm80, sm90, sm50 = get_target("sm_80"), get_target("sm_90"), get_target("sm_50")
    # LDG: class 26 (L2 ~200 cycles) capped at 64 on the long LSU pipe
    assert op_latency(ops["ori.ldg"], sm80) == 64
    # FFMA: class 12 (23 on Ampere, 29 on Hopper) under the 32 cap
    assert (op_latency(ops["ori.ffma"], sm80), op_latency(ops["ori.ffma"], sm90)) == (23, 29)
    # DFMA: class 16, full-rate FP64 on GA100 (8), 32 on Maxwell (cap 32)
    assert (op_latency(ops["ori.dfma"], sm80), op_latency(ops["ori.dfma"], sm50)) == (8, 32)
    # MUFU on the XU pipe: long, 14 cycles; IADD3 4 (6 on Maxwell)
    assert op_latency(ops["ori.mufu"], sm80) == 14
    assert (op_latency(ops["ori.iadd3"], sm80), op_latency(ops["ori.iadd3"], sm50)) == (4, 6)
    # pipes: FFMA FMA, DFMA DFMA, LDG LSU, MUFU routed to the last entry
    assert [op_pipe(ops[n], sm80) for n in ("ori.ffma", "ori.dfma", "ori.ldg", "ori.mufu")] == \
        [1, 2, 4, 6]
    assert sm80.stall_cycles(26, "ALU") == 32  # the short cap
    assert sm80.stall_cycles(1, "ALU") == 1


def test_recmii_register_and_memory_recurrences() -> None:
    # the IV's IADD3: 4 cycles over one iteration
    assert rec_mii(_ddg(_loop(""), "sm_80")) == 4
    # a DFMA chain through one back edge (8 cycles) ...
    one = "    %y2 = ori.dfma %y, %y, %y : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64"
    assert rec_mii(_ddg(_loop(one, y="%y2"), "sm_80")) == 8
    # ... and through two (y1 <- y <- new): ceil(8 / 2) = 4, the IV's 4 wins
    two = "    %y2 = ori.dfma %y1, %y1, %y1 : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64"
    assert rec_mii(_ddg(_loop(two, y="%y2", y1="%y"), "sm_80")) == 4
    assert rec_mii(_ddg(_loop(two, y="%y2", y1="%y"), "sm_50")) == 16  # 32 / 2
    # load -> add -> store -> next iteration's load (may alias): 64 + 4 + 1
    mem = """    %v = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %x2 = ori.iadd3 %x, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x4], %x2 : (!ori.r64, !ori.r32) -> ()"""
    assert rec_mii(_ddg(_loop(mem, x="%x2"), "sm_80")) == 69
    # a shared store does not order a global load
    shared = mem.replace("ori.stg [%a + 0x4], %x2 : (!ori.r64, !ori.r32)",
                         "ori.sts [%x2], %x2 : (!ori.r32, !ori.r32)")
    assert rec_mii(_ddg(_loop(shared, x="%x2"), "sm_80")) == 4


def test_schedules_respect_dependences_and_resources() -> None:
    block = _loop(FP32x8_LDGx3 + "\n" + DFMAx4_MUFUx2, x="%x8")
    for target in ("sm_50", "sm_80", "sm_90"):
        ddg = _ddg(block, target)
        widths = get_target(target).pipe_widths
        mii = max(res_mii(ddg, widths), rec_mii(ddg))
        s = modulo_schedule(ddg, mii, widths, frozenset(), budget_ratio=6, max_ii=mii + 64,
                            max_stages=4)
        assert s is not None and s.ii >= mii and s.stages <= 4
        assert verify_schedule(ddg, s, widths)
        # a broken schedule is caught: everything in cycle 0
        assert not verify_schedule(ddg, dataclasses.replace(s, times=(0,) * len(s.times)), widths)


def _remark(text: str, spec: str) -> str:
    module = Parser(make_context(), text, "test").parse_module()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(module, spec)
    return err.getvalue()


def test_a_plugin_target_changes_pipes_latencies_and_caps() -> None:
    base = get_target("sm_80")
    odd = dataclasses.replace(base, name="sm_80_testpipe", pipe_widths=(1, 1, 1, 1, 1, 1, 1),
                              pipe_routes={"XU": "FMA"}, stall_caps=(8, 16))
    register_target(odd)
    try:
        block = _loop(FP32x8_LDGx3 + "\n" + DFMAx4_MUFUx2, x="%x8")
        ddg = _ddg(block, "sm_80_testpipe")
        # FMA: 8 FFMA + 2 MUFU on one slot; LDG capped at 16, FFMA at 8
        assert res_mii(ddg, odd.pipe_widths) == 10
        ops = {op.name: op for op in block.ops}
        assert op_latency(ops["ori.ldg"], odd) == 16 and op_latency(ops["ori.ffma"], odd) == 8
        text = _HEAD.format(body=FP32x8_LDGx3, x="%x8", y="%y", y1="%y1")
        spec = "ori-pipeline{{remarks=true reject-pressure-growth=false target={}}}"
        assert "ResMII 2," in _remark(text, spec.format("sm_80"))
        assert "ResMII 8," in _remark(text, spec.format("sm_80_testpipe"))
    finally:
        unregister_target("sm_80_testpipe")
    with pytest.raises(Exception, match="pipe_routes"):
        dataclasses.replace(base, name="sm_80_bad", pipe_routes={"XU": "NOPE"})
