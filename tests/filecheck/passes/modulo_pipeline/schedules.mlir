// ori-pipeline (seed 001 phase 24): the schedule of a loop summing a
// read-only global array.  On sm_80 the LDG's stall cycles are the 64-cycle
// cap of a long-latency pipe, the IADD3 recurrence gives RecMII 4 (ALU
// latency 4 over distance 1), one branch and four other instructions give
// ResMII 1.  With max-stages=2 the II search stops at the first II that puts
// the load and the add that consumes it one stage apart.
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false max-stages=2 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false max-stages=3}' | filecheck %s --check-prefix=S3
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=DEF
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=GATE
// max-code-growth counts the SASS instructions the prologue, epilogue and
// drains add (an unconditional branch counts none: block layout decides
// later whether it falls through): @known's two stages add 4, @unknown's 7
// (its prologue tests iteration 0's exit, its drain runs stage 1).
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false max-stages=2 max-code-growth=0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=GROW0
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false max-stages=2 max-code-growth=4 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=GROW4
// RUN: ori-opt %s --split-input-file -p 'ori-pipeline{reject-pressure-growth=false max-stages=2 max-code-growth=7 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=GROW7
// GROW0: remark: @known ^bb1: not pipelined: adds 4 instructions, more than max-code-growth=0 (MII=4 (ResMII 1, RecMII 4), II=35, stages=2)
// GROW0-NEXT: remark: @unknown ^bb1: not pipelined: adds 7 instructions, more than max-code-growth=0
// GROW4: remark: @known ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=35, stages=2
// GROW4-NEXT: remark: @unknown ^bb1: not pipelined: adds 7 instructions, more than max-code-growth=4
// GROW7: remark: @known ^bb1: pipelined:
// GROW7-NEXT: remark: @unknown ^bb1: pipelined:

// Known trip count 16 >= 2 stages: the prologue step branches straight into
// the kernel (no exit test, no drain).  Stage 0 holds the address, the IV
// step, the load and the exit test; stage 1 the accumulation.
// CHECK-LABEL: ori.func kernel @known(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    %w = ori.imad wide.u32 %i, 0x4, %a
// CHECK-NEXT:    %i2 = ori.iadd3 %i, 0x1, RZ
// CHECK-NEXT:    %v = ori.ldg constant [%w]
// CHECK-NEXT:    ori.bra ^[[K:bb[0-9]+]](%i2 : !ori.r32, %s : !ori.r32, %v : !ori.r32)
// CHECK-NEXT:  ^[[K]](%[[KI:.*]]: !ori.r32, %[[KS:.*]]: !ori.r32, %[[KV:.*]]: !ori.r32):
// CHECK-NEXT:    %[[W:.*]] = ori.imad wide.u32 %[[KI]], 0x4, %a
// CHECK-NEXT:    %[[I2:.*]] = ori.iadd3 %[[KI]], 0x1, RZ
// CHECK-NEXT:    %[[V:.*]] = ori.ldg constant [%[[W]]]
// CHECK-NEXT:    %[[P:.*]] = ori.isetp lt.u32 %[[I2]], 0x10, PT
// CHECK-NEXT:    %[[S2:.*]] = ori.iadd3 %[[KS]], %[[KV]], RZ
// CHECK-NEXT:    ori.bra if %[[P]] : !ori.p, ^[[K]](%[[I2]] : !ori.r32, %[[S2]] : !ori.r32, %[[V]] : !ori.r32), ^[[E:bb[0-9]+]]
// The epilogue finishes the last iteration's stage 1.
// CHECK-NEXT:  ^[[E]]:
// CHECK-NEXT:    %[[LAST:.*]] = ori.iadd3 %[[S2]], %[[V]], RZ
// CHECK-NEXT:    ori.bra ^[[X:bb[0-9]+]](%[[LAST]] : !ori.r32)
// CHECK-NEXT:  ^[[X]](%[[OUT:.*]]: !ori.r32):
// CHECK-NEXT:    ori.bra ^[[AFTER:bb[0-9]+]]
// CHECK-NEXT:  ^[[AFTER]]:
// CHECK-NEXT:    ori.stg [%o], %[[OUT]]
// REM: remark: @known ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=35, stages=2
// DEF: remark: @known ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=18, stages=4
// GATE: remark: @known ^bb1: not pipelined: raises the peak R pressure from 8 to 11 (reject-pressure-growth) (MII=4 (ResMII 1, RecMII 4), II=18, stages=4)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @known() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
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

// -----
// Unknown trip count: the prologue tests iteration 0's exit; a loop of one
// trip leaves through the drain, which runs iteration 0's stage 1.  Both
// exits meet in one block that feeds the code after the loop.
// CHECK-LABEL: ori.func kernel @unknown(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK:         %v = ori.ldg constant [%w]
// CHECK-NEXT:    %p = ori.isetp lt.u32 %i2, %n, PT
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^[[K:bb[0-9]+]](%i2 : !ori.r32, %s : !ori.r32, %v : !ori.r32), ^[[D:bb[0-9]+]]
// CHECK-NEXT:  ^[[K]](
// CHECK:         ori.bra if %{{.*}} : !ori.p, ^[[K]](%{{.*}}), ^[[E:bb[0-9]+]]
// CHECK-NEXT:  ^[[E]]:
// CHECK-NEXT:    %[[L1:.*]] = ori.iadd3
// CHECK-NEXT:    ori.bra ^[[X:bb[0-9]+]](%[[L1]] : !ori.r32)
// CHECK-NEXT:  ^[[D]]:
// CHECK-NEXT:    %[[L2:.*]] = ori.iadd3 %s, %v, RZ
// CHECK-NEXT:    ori.bra ^[[X]](%[[L2]] : !ori.r32)
// CHECK-NEXT:  ^[[X]](%[[OUT:.*]]: !ori.r32):
// REM: remark: @unknown ^bb1: pipelined: MII=4 (ResMII 1, RecMII 4), II=35, stages=2
// Three stages (the accumulation two stages after the load): two prologue
// steps, each testing its iteration's exit; the drain after step 0 finishes
// one iteration, the one after step 1 two, the epilogue two.
// S3-LABEL: ori.func kernel @unknown(
// S3:         %p = ori.isetp lt.u32 %i2, %n, PT
// S3-NEXT:    ori.bra if %p : !ori.p, ^[[P1:bb[0-9]+]], ^[[D0:bb[0-9]+]]
// S3-NEXT:  ^[[P1]]:
// S3:         %[[P1P:.*]] = ori.isetp lt.u32
// S3-NEXT:    ori.bra if %[[P1P]] : !ori.p, ^[[K:bb[0-9]+]](%{{.*}}), ^[[D1:bb[0-9]+]]
// S3-NEXT:  ^[[K]](%{{.*}}: !ori.r32, %[[KS:.*]]: !ori.r32, %[[KV0:.*]]: !ori.r32, %[[KV1:.*]]: !ori.r32):
// S3:         %[[S2:.*]] = ori.iadd3 %[[KS]], %[[KV0]], RZ
// S3-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[K]](%{{.*}} : !ori.r32, %[[S2]] : !ori.r32, %[[KV1]] : !ori.r32, %{{.*}} : !ori.r32), ^[[E:bb[0-9]+]]
// S3-NEXT:  ^[[E]]:
// S3-NEXT:    ori.iadd3 %[[S2]], %[[KV1]], RZ
// S3-NEXT:    ori.iadd3
// S3-NEXT:    ori.bra ^[[X:bb[0-9]+]](
// S3-NEXT:  ^[[D0]]:
// S3-NEXT:    ori.iadd3 %s, %v, RZ
// S3-NEXT:    ori.bra ^[[X]](
// S3-NEXT:  ^[[D1]]:
// S3-NEXT:    %[[A:.*]] = ori.iadd3 %s, %v, RZ
// S3-NEXT:    ori.iadd3 %[[A]], %v_1, RZ
// S3-NEXT:    ori.bra ^[[X]](
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @unknown() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<4, align 4, at 0x10>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    %n = ori.mov c[0x0][0x170] : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg constant [%w] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%o], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A store to the array the next iteration loads from: the memory
// recurrence LDG -> IADD3 -> STG -> (next iteration) LDG makes RecMII
// 64 + 4 + 1 = 69.  At II 69 only the store moves to stage 1, and in the
// kernel the store of iteration i still comes before the load of i + 1.
// REM: remark: @recur ^bb1: pipelined: MII=69 (ResMII 1, RecMII 69), II=69, stages=2
// DEF: remark: @recur ^bb1: pipelined: MII=69 (ResMII 1, RecMII 69), II=69, stages=2
// CHECK-LABEL: ori.func kernel @recur(
// CHECK:       ^[[K:bb[0-9]+]](%{{.*}}: !ori.r32, %[[KW:.*]]: !ori.r64, %[[KS:.*]]: !ori.r32):
// CHECK-NEXT:    %[[W:.*]] = ori.imad wide.u32
// CHECK-NEXT:    ori.iadd3
// CHECK-NEXT:    ori.stg [%[[KW]] + 0x4], %[[KS]]
// CHECK-NEXT:    ori.ldg [%[[W]]]
// CHECK-NEXT:    ori.isetp
// CHECK-NEXT:    ori.iadd3 %[[KS]],
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[K]](
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @recur() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x4], %s2 : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
