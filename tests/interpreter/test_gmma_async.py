"""HGMMA accumulators in flight across branch edges, and reads before the wait
(interpreter/gmma.py, "Asynchrony"; issue 14, "Bad input").

A loop issues ``wgmma.mma_async`` (m64n8k16, f32 += f16 x f16) each
iteration without waiting, so the accumulator reaches the loop header's
block arguments still in flight and the next HGMMA takes it as its
accumulator; ``wgmma.wait_group 0`` follows the loop.

* Read after the wait: the result matches numpy (``iters * A @ B``), in SSA
  mode and, after ``ori-ptxas``, in physical-register mode.
* A read of the header's block argument before the wait (second iteration:
  the value came through the back edge) is an interpreter error naming the
  instruction and the thread, in both modes; ``wait_group 0`` first makes
  it legal, ``wait_group 1`` does not (the newest group is the one read).
* A block argument that gets an untracked value on a later edge loses the
  mark; per thread, only the threads taking the tracked edge are checked.
* Physical mode keys the marks by register: a write of an in-flight register
  faults; an ``ori.unpack`` part out of place carries the mark (a MOV before
  the wait on the GPU, which ``strict`` reports); a write of the registers of
  A's fragments (A in registers) before the wait faults, and so does an
  HGMMA whose D covers its own A.
* The compiled kernels run with ``strict``: ``ori-ptxas`` keeps accumulators
  in place and A apart until the wait (passes/regalloc/inflight.py).
* An HGMMA whose descriptors read shared bytes a ``cp.async`` has not
  completed faults like any other shared access.
"""

from __future__ import annotations

import contextlib
import functools
import io

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from passes.regalloc.checker import check_module
from tests.ptx.lower.wgmma_image import B_BASE, LBO, SBO, kmajor_image

HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n"
DESC_FIELDS = ((LBO >> 4) << 16) | ((SBO >> 4) << 32)
SHARED = 2304


def _kernel(top: str = "", after: str = "", head: str = "") -> str:
    """The loop kernel; ``top`` runs at the start of every iteration (the
    header block), ``after`` after the loop and before ``wait_group 0``,
    ``head`` before the loop.  Output per thread (32 bytes): its four
    accumulator registers and ``%f9``."""
    return HEAD + f""".visible .entry k(.param .u64 img, .param .u64 out, .param .u32 iters)
.maxntid 128, 1, 1
{{
  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<12>; .reg .f32 %f<12>;
  .shared .align 128 .b8 sm[{SHARED}];
  ld.param.u64 %rd1, [img]; ld.param.u64 %rd4, [out]; ld.param.u32 %r9, [iters];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd4, %rd4;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 16; add.s64 %rd6, %rd1, %rd5;
  mov.u32 %r6, sm; shl.b32 %r7, %r1, 4; add.u32 %r8, %r6, %r7;
  ld.global.v4.u32 {{%r2,%r3,%r4,%r5}}, [%rd6];
  st.shared.v4.u32 [%r8], {{%r2,%r3,%r4,%r5}};
  setp.lt.u32 %p1, %r1, {(SHARED - 2048) // 16};
  @!%p1 bra COPIED;
  ld.global.v4.u32 {{%r2,%r3,%r4,%r5}}, [%rd6+2048];
  st.shared.v4.u32 [%r8+2048], {{%r2,%r3,%r4,%r5}};
COPIED:
  bar.sync 0;
  fence.proxy.async.shared::cta;
  shr.u32 %r10, %r6, 4; cvt.u64.u32 %rd2, %r10; or.b64 %rd2, %rd2, {DESC_FIELDS};
  add.u32 %r11, %r6, {B_BASE}; shr.u32 %r11, %r11, 4; cvt.u64.u32 %rd3, %r11;
  or.b64 %rd3, %rd3, {DESC_FIELDS};
  mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000; mov.f32 %f9, 0f00000000;
  mov.u32 %r12, 0;
  {head}
LOOP:
  {top}
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f0,%f1,%f2,%f3}}, %rd2, %rd3, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  add.u32 %r12, %r12, 1;
  setp.lt.u32 %p2, %r12, %r9;
  @%p2 bra LOOP;
  {after}
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %rd7, %r1, 32; add.s64 %rd8, %rd4, %rd7;
  st.global.v4.f32 [%rd8], {{%f0,%f1,%f2,%f3}};
  st.global.f32 [%rd8+16], %f9;
  ret;
}}
"""


def _image(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return kmajor_image(a, b, SHARED)


def _d_matrix(regs: np.ndarray) -> np.ndarray:
    """D (64 x 8) from each thread's four f32 registers, by the PTX ISA's
    fragment layout (9.7.15.5.1: row 16w + l/4 + 8((i%4)/2), column
    8(i/4) + 2(l%4) + i%2)."""
    d = np.zeros((64, 8), np.float32)
    for t in range(128):
        w, lane = divmod(t, 32)
        for i in range(4):
            d[16 * w + lane // 4 + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * (lane % 4) + i % 2] = \
                regs[t, i]
    return d


def _inputs(iters: int) -> tuple[list[object], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(14)
    a = (rng.integers(-8, 9, (64, 16)) / 4).astype(np.float16)
    b = (rng.integers(-8, 9, (8, 16)) / 4).astype(np.float16)
    return [_image(a, b), np.zeros(128 * 8, np.float32), np.uint32(iters)], a, b


def _import(src: str) -> ModuleOp:
    m = import_ptx(src, "loop.ptx")
    m.verify()
    return m


@functools.cache
def _module(top: str = "", after: str = "", head: str = "", compiled: bool = False,
            strategy: str = "fatpoint") -> ModuleOp:
    m = _import(_kernel(top, after, head))
    if compiled:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, f"ori-ptxas{{strategy={strategy}}}", make_context())
    return m


def _run(module: ModuleOp, iters: int, physical: bool, strict: bool = True) -> np.ndarray:
    """Strict by default: in physical mode a move of an accumulator in flight
    faults, as the MOV would misbehave on the GPU (``ori-ptxas`` makes none).
    The kernels that read an accumulator before its wait themselves (undefined
    in PTX) run without it: ``ori-ptxas`` does not keep the accumulator's
    registers for such a read (a remark says so), and the test is that the
    program's own read is reported, not a move made for it."""
    args, _, _ = _inputs(iters)
    out = run_kernel(module, "k", 1, 128, args, physical=physical, strict=strict)[1]
    return np.asarray(out).reshape(128, 8)


MODES = [pytest.param(False, id="ssa"), pytest.param(True, id="physical")]


@pytest.mark.parametrize("physical", MODES)
def test_accumulator_through_the_loop_argument_matches_numpy(physical: bool) -> None:
    iters = 3
    got = _run(_module(compiled=physical), iters, physical)
    _, a, b = _inputs(iters)
    want = (iters * (a.astype(np.float64) @ b.astype(np.float64).T)).astype(np.float32)
    assert np.array_equal(_d_matrix(got[:, :4]), want)


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
@pytest.mark.parametrize("top", ["", "wgmma.wait_group.sync.aligned 1;"], ids=["no-wait", "wait-1"])
def test_accumulator_in_flight_across_the_back_edge_stays_in_place(top: str,
                                                                   strategy: str) -> None:
    """The accumulator is in flight around the loop (no wait, or
    ``wait_group 1`` keeping the newest group pending, as a pipelined loop
    does): after ``ori-ptxas`` the back edge passes it in its own registers
    (one tuple argument, D and C one run), so the strict run -- which faults
    on any move of it before the wait -- matches numpy, and the allocation
    passes ``ori-check-regalloc``."""
    iters = 4
    m = _module(top=top, compiled=True, strategy=strategy)
    assert not check_module(m)
    got = _run(m, iters, physical=True)
    _, a, b = _inputs(iters)
    want = (iters * (a.astype(np.float64) @ b.astype(np.float64).T)).astype(np.float32)
    assert np.array_equal(_d_matrix(got[:, :4]), want)


_A_REGS_LOOP = HEAD + """.visible .entry k(.param .u64 out, .param .u32 n)
.maxntid 128, 1, 1
{
  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .f32 %f<8>;
  .shared .align 128 .b8 sm[2048];
  ld.param.u64 %rd1, [out]; ld.param.u32 %r9, [n];
  mov.b64 %rd3, 0;
  mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000;
  mov.u32 %r1, 0;
LOOP:
  mov.u32 %r2, %r1; mov.u32 %r3, %r1; mov.u32 %r4, %r1; mov.u32 %r5, %r1;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, {%r2,%r3,%r4,%r5}, %rd3, 1, 1, 1, 0;
  wgmma.commit_group.sync.aligned;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, %r9;
  @%p1 bra LOOP;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1], %f0;
  ret;
}
"""


@pytest.mark.parametrize("strategy", ["fatpoint", "ssa"])
def test_a_fragments_redefined_in_flight_are_refused(strategy: str) -> None:
    """A in registers, built again each iteration while the previous
    iteration's HGMMA still reads it (no wait in the loop): no register
    assignment can keep it (one SSA value, one register), so ``ori-ptxas``
    stops with a diagnostic instead of emitting the hazard."""
    m = _import(_A_REGS_LOOP)
    with pytest.raises(PassFailedException, match=r"(?s)registers an HGMMA holds until its "
                       r"wait cannot be kept:.*`%\d+ = ori.pack .* defines !ori.r128 again while "
                       r"an HGMMA still reads it as its A fragments"):
        apply_pipeline(m, f"ori-ptxas{{strategy={strategy}}}", make_context())


@pytest.mark.parametrize("physical", MODES)
def test_read_of_the_loop_argument_before_the_wait_faults(physical: bool) -> None:
    """Iteration 1 reads the initial 0 (untracked, from the entry edge);
    iteration 2 reads the value the back edge passed, still in flight."""
    m = _module(top="add.f32 %f9, %f9, %f1;", compiled=physical)
    with pytest.raises(InterpreterError) as e:
        _run(m, 3, physical, strict=False)
    text = str(e.value)
    assert "ori.fadd" in text and "tid (0,0,0)" in text
    assert ("reads an HGMMA accumulator of commit group 0 before the wgmma.wait_group "
            "(WARPGROUP.DEPBAR) that completes it") in text
    assert ("(register R" in text) == physical
    _run(m, 1, physical, strict=False)  # one iteration: only the entry edge's value is read


@pytest.mark.parametrize("physical", MODES)
def test_wait_group_0_in_the_loop_makes_the_read_legal(physical: bool) -> None:
    iters = 3
    top = "wgmma.wait_group.sync.aligned 0;\n  add.f32 %f9, %f9, %f1;"
    got = _run(_module(top=top, compiled=physical), iters, physical)
    _, a, b = _inputs(iters)
    step = a.astype(np.float64) @ b.astype(np.float64).T
    assert np.array_equal(_d_matrix(got[:, :4]), (iters * step).astype(np.float32))
    # %f9 sums what %f1 (D[16w + l/4][2(l%4) + 1]) held before each iteration:
    # 0 + step + 2 step
    t = np.arange(128)
    w, lane = t // 32, t % 32
    want = (3 * step)[16 * w + lane // 4, 2 * (lane % 4) + 1].astype(np.float32)
    assert np.array_equal(got[:, 4], want)


@pytest.mark.parametrize("physical", MODES)
def test_wait_group_1_leaves_the_newest_group_in_flight(physical: bool) -> None:
    top = "wgmma.wait_group.sync.aligned 1;\n  add.f32 %f9, %f9, %f1;"
    with pytest.raises(InterpreterError, match=r"ori.fadd.*tid \(0,0,0\).*commit group 0 "
                       "before the wgmma.wait_group"):
        _run(_module(top=top, compiled=physical), 3, physical, strict=False)


@pytest.mark.parametrize("physical", MODES)
def test_read_after_the_loop_before_the_wait_faults(physical: bool) -> None:
    with pytest.raises(InterpreterError, match=r"ori.fadd.*tid \(0,0,0\).*commit group 1 "
                       "before the wgmma.wait_group"):
        _run(_module(after="add.f32 %f9, %f2, %f2;", compiled=physical), 2, physical,
             strict=False)


def test_an_untracked_value_on_a_later_edge_clears_the_mark() -> None:
    """SSA mode: the header's argument for %f1 takes the in-flight result
    on the back edge from the HGMMA, then a fresh value on the back edge
    from ``FRESH`` (which writes %f1: PTX leaves that undefined before the
    wait, and physical mode would check the write; SSA mode checks reads),
    and is read in the third iteration without a fault."""
    src = HEAD + """.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<12>;
  .shared .align 128 .b8 sm[4096];
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  mov.b64 %rd2, 0; mov.b64 %rd3, 0;
  mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000; mov.f32 %f9, 0f00000000;
  mov.u32 %r1, 0;
LOOP:
  setp.eq.u32 %p3, %r1, LAST;
  @%p3 bra READ;
  setp.eq.u32 %p2, %r1, 1;
  add.u32 %r1, %r1, 1;
  @%p2 bra FRESH;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd2, %rd3, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  bra.uni LOOP;
FRESH:
  mov.f32 %f1, 0f40000000;
  bra.uni LOOP;
READ:
  add.f32 %f9, %f1, %f1;
  wgmma.wait_group.sync.aligned 0;
  st.global.f32 [%rd1], %f9;
  ret;
}
"""
    out = run_kernel(_import(src.replace("LAST", "2")), "k", 1, 128,
                     [np.zeros(1, np.float32)], shared_bytes=4096)[0]
    assert out[0] == 4.0
    with pytest.raises(InterpreterError, match=r"ori.fadd.*commit group 0 before"):
        run_kernel(_import(src.replace("LAST", "1")), "k", 1, 128, [np.zeros(1, np.float32)],
                   shared_bytes=4096)


def test_only_the_threads_taking_the_tracked_edge_are_checked() -> None:
    """Two warpgroups: only the second issues the HGMMA, so at the join the
    argument for %f1 is in flight in threads 128-255 alone."""
    src = HEAD + """.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<12>;
  .shared .align 128 .b8 sm[4096];
  ld.param.u64 %rd1, [out];
  mov.b64 %rd2, 0; mov.b64 %rd3, 0;
  mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f3F800000; mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 128;
  @%p1 bra JOIN;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd2, %rd3, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
JOIN:
  add.f32 %f9, %f1, %f1;
  wgmma.wait_group.sync.aligned 0;
  ret;
}
"""
    with pytest.raises(InterpreterError, match=r"ori.fadd.*tid \(128,0,0\).*commit group 0"):
        run_kernel(_import(src), "k", 1, 256, [np.zeros(1, np.float32)], shared_bytes=4096)


# ----------------------------------------------------------------------------- physical registers

_ALLOCATED = """builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %0 = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R8>
    %1 = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    ori.warpgroup_arrive : () -> ()
    %2 = ori.hgmma m64n8k16 %1, %1, RZ, not PT : (!ori.r64<R2>, !ori.r64<R2>) -> !ori.r128<R4>
    %3, %4, %5, %6 = ori.unpack %2 : (!ori.r128<R4>) -> (P0, !ori.r32<R5>, !ori.r32<R6>, !ori.r32<R7>)
    ori.gmma_commit : () -> ()
    BEFORE
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.stg [%0], %3 : (!ori.r64<R8>, P0) -> ()
    ori.exit
  }
}
"""


def _allocated(part0: str, before: str = "") -> ModuleOp:
    text = _ALLOCATED.replace("P0", f"!ori.r32<{part0}>").replace("BEFORE", before)
    m = Parser(make_context(), text).parse_module()
    m.verify()
    return m


def _run_allocated(m: ModuleOp, strict: bool = False) -> None:
    run_kernel(m, "k", 1, 128, [np.zeros(1, np.float32)], shared_bytes=4096, physical=True,
               strict=strict)


def test_physical_unpack_in_place_is_no_access() -> None:
    m = _allocated("R4")
    _run_allocated(m)
    _run_allocated(m, strict=True)


def test_physical_unpack_out_of_place_carries_the_mark_or_strictly_faults() -> None:
    m = _allocated("R12")
    _run_allocated(m)  # the MOV R12, R4 stands for the SSA renaming
    with pytest.raises(InterpreterError, match=r"ori.unpack.*tid \(0,0,0\).*reads an HGMMA "
                       r"accumulator of commit group 0 .*\(register R4\)"):
        _run_allocated(m, strict=True)
    read = "%9 = ori.iadd3 %3, RZ, RZ : (!ori.r32<R12>) -> !ori.r32<R13>"
    with pytest.raises(InterpreterError, match=r"ori.iadd3.*commit group 0 .*\(register R12\)"):
        _run_allocated(_allocated("R12", read))


def test_physical_write_of_an_in_flight_register_faults() -> None:
    """Another value placed in a register the HGMMA has not finished writing
    (an allocation the GPU would get wrong) is a fault in physical mode."""
    write = "%9 = ori.mov 0x1 : () -> !ori.r32<R6>"
    with pytest.raises(InterpreterError, match=r"ori.mov.*tid \(0,0,0\).*writes R6, a register "
                       "of the HGMMA accumulator of commit group 0"):
        _run_allocated(_allocated("R4", write))


_A_IN_REGISTERS = """builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %0 = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    %1 = ori.pack RZ, RZ, RZ, RZ : () -> !ori.r128<R8>
    ori.warpgroup_arrive : () -> ()
    %2 = ori.hgmma m64n8k16 %1, %0, RZ, not PT : (!ori.r128<R8>, !ori.r64<R2>) -> !ori.r128<DREG>
    ori.gmma_commit : () -> ()
    BEFORE
    ori.warpgroup_depbar 0x0 : () -> ()
    AFTER
    ori.exit
  }
}
"""


def _a_in_registers(before: str = "", after: str = "", d: str = "R4") -> None:
    text = (_A_IN_REGISTERS.replace("DREG", d).replace("BEFORE", before)
            .replace("AFTER", after))
    m = Parser(make_context(), text).parse_module()
    m.verify()
    _run_allocated(m)


def test_physical_write_of_in_flight_a_fragments_faults() -> None:
    """A in registers: HGMMA reads them until the wait, so writing one of
    them before it is a fault (strict or not); after the wait it is not."""
    write = "%9 = ori.mov 0x1 : () -> !ori.r32<R9>"
    with pytest.raises(InterpreterError, match=r"ori.mov.*tid \(0,0,0\).*writes R9, a register "
                       "of the A fragments an HGMMA of commit group 0 reads"):
        _a_in_registers(before=write)
    _a_in_registers(after=write)


def test_physical_accumulator_over_its_own_a_faults() -> None:
    with pytest.raises(InterpreterError, match=r"ori.hgmma writes its accumulator over R8, a "
                       "register of its own A fragments"):
        _a_in_registers(d="R8")


# ----------------------------------------------------------------------------- cp.async + HGMMA

_CP_ASYNC_THEN_WGMMA = HEAD + """.visible .entry k(.param .u64 src)
{
  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>;
  .shared .align 128 .b8 sm[4096];
  ld.param.u64 %rd1, [src]; cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 4; mov.u32 %r3, sm; add.u32 %r4, %r3, %r2;
  mul.wide.u32 %rd4, %r1, 16; add.s64 %rd5, %rd1, %rd4;
  cp.async.cg.shared.global [%r4], [%rd5], 16;
  cp.async.commit_group;
  WAIT
  bar.sync 0;
  fence.proxy.async.shared::cta;
  mov.b64 %rd2, 0; mov.b64 %rd3, 0;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd2, %rd3, 0, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ret;
}
"""


def test_hgmma_reading_a_pending_cp_async_destination_faults() -> None:
    """The descriptors read the bytes a ``cp.async`` has not written yet (no
    ``cp.async.wait_group``): a fault naming the HGMMA, its thread and the
    copying thread; after the wait the same kernel runs."""
    args = [np.zeros(128 * 4, np.float32)]
    with pytest.raises(InterpreterError, match=r"ori.hgmma.*tid \(0,0,0\).*HGMMA descriptor "
                       r"read of 2 bytes at 0x0 touches the destination of an asynchronous "
                       r"copy \(cp.async / LDGSTS\) by thread 0"):
        run_kernel(_import(_CP_ASYNC_THEN_WGMMA.replace("WAIT", "")), "k", 1, 128, args)
    run_kernel(_import(_CP_ASYNC_THEN_WGMMA.replace("WAIT", "cp.async.wait_group 0;")), "k", 1,
               128, args)
