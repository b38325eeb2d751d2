// ori-pipeline's feasibility filter (seed 001 "Phase 2: Pipeline
// Feasibility Filtering", on ori's op facts) and its option checks: a loop
// out of scope is left as it was, with a remark saying why.
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false ok-to-pipeline-no-unroll=1 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OK
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false pipeline-miovq-to-inst-ratio=0.5 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MIO
// RUN: not ori-opt %s -p 'ori-pipeline{budget-ratio=0}' 2>&1 | filecheck %s --check-prefix=BAD1
// RUN: not ori-opt %s -p 'ori-pipeline{max-stages=1}' 2>&1 | filecheck %s --check-prefix=BAD2
// RUN: not ori-opt %s -p 'ori-pipeline{target=sm_7}' 2>&1 | filecheck %s --check-prefix=BAD3
// RUN: not ori-opt %s -p 'ori-pipeline{max-ii-slack=-1}' 2>&1 | filecheck %s --check-prefix=BAD4
// RUN: not ori-opt %s -p 'ori-pipeline{max-code-growth=-2}' 2>&1 | filecheck %s --check-prefix=BAD5

// BAD1: ori-pipeline: budget-ratio must be >= 1, got 0
// BAD2: ori-pipeline: max-stages must be >= 2, got 1
// BAD3: ori-pipeline: target: unknown
// BAD4: ori-pipeline: max-ii-slack must be >= 0, got -1
// BAD5: ori-pipeline: max-code-growth must be >= -1 (-1: no limit), got -2

// A barrier keeps the loop as it is.
// REM: remark: @barrier ^bb1: not pipelined: barrier ori.bar in the loop
// CHECK-LABEL: ori.func kernel @barrier(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    %w = ori.imad wide.u32 %i, 0x4, %a
// CHECK-NEXT:    %v = ori.ldg constant [%w]
// CHECK-NEXT:    ori.bar 0x0
// CHECK-NEXT:    %s2 = ori.iadd3 %s, %v, RZ
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @barrier() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg constant [%w] : (!ori.r64) -> !ori.r32
    ori.bar 0x0 : () -> ()
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%o], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A nounroll loop is pipelined only with ok-to-pipeline-no-unroll; the
// pragma moves to the kernel, the loop that remains.
// REM: remark: @pragma ^bb1: not pipelined: nounroll pragma (ok-to-pipeline-no-unroll=0)
// OK: remark: @pragma ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=18, stages=4
// MIO: remark: @pragma ^bb1: not pipelined: nounroll pragma
// CHECK-LABEL: ori.func kernel @pragma(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    ori.pragma "nounroll"
// CHECK-NEXT:    %w = ori.imad wide.u32 %i, 0x4, %a
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @pragma() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    ori.pragma "nounroll"
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg constant [%w] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%o], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A loop of two blocks is out of scope; so is the MIO-light loop when
// pipeline-miovq-to-inst-ratio asks for half of the body on LSU/TEX/XU.
// REM: remark: @twoblocks ^bb1: not pipelined: a loop of 2 blocks (single-block loops only)
// MIO: remark: @twoblocks ^bb1: not pipelined: a loop of 2 blocks
// CHECK-LABEL: ori.func kernel @twoblocks(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    %w = ori.imad wide.u32 %i, 0x4, %a
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @twoblocks() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg constant [%w] : (!ori.r64) -> !ori.r32
    ori.bra ^bb2
  ^bb2:
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb3
  ^bb3:
    ori.stg [%o], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// MIO: remark: @light ^bb1: not pipelined: MIO share 1/5 below pipeline-miovq-to-inst-ratio=0.5
// REM: remark: @light ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=18, stages=4
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @light() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg constant [%w] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%o], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
