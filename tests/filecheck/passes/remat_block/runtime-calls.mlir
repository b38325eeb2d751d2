// ori-remat-block in a kernel whose calls are all of device-runtime
// functions (passes/remat_block/maxlive.py, "Calls of device-runtime
// functions"): a value live across malloc or free may not sit in R0-R15
// (but R2) nor in R20:R21, so the twelve registers live across the malloc
// of ^bb1 (%t, %p, %k0-%k7, %i) need R2, R16-R19, R22-R28: the call point
// counts 28, where RegisterPressure counts 14.  With a target of 20 the
// pass recomputes six of the invariants after the calls, where they are
// read (%t is read there too), and %p after the loop: %t, %k6, %k7 and %i
// across the calls need R2, R16-R18 -- 18.
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=20 dump-remat=2 remarks=true stats=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-print-liveness' | filecheck %s --check-prefix=PLAIN

// CHECK-LABEL: ori.func kernel @loop_calls(
// CHECK:         %m = ori.call @malloc(%sz)
// CHECK-NEXT:    ori.call @free(%m)
// CHECK-NEXT:    %remat_k0 = ori.iadd3 %t, 0x1, RZ
// CHECK-NEXT:    %s0 = ori.iadd3 %i, %remat_k0, RZ
// CHECK:         %remat_k5 = ori.iadd3 %t, 0x6, RZ
// CHECK-NEXT:    %s5 = ori.iadd3 %s4, %remat_k5, RZ
// CHECK-NEXT:    %s6 = ori.iadd3 %s5, %k6, RZ
// CHECK:       ^bb2:
// CHECK-NEXT:    %remat_p = ori.ldc b64
// REM: ori-remat-block: @loop_calls: Max-Live-Function(3) = 28
// REM-NEXT: ori-remat-block: @loop_calls: ^bb1: Max-Live = 28, live-out = 12, peak at ^bb1 across the call op 1
// REM: remark: @loop_calls: rematerialized %k5 (IADD3, 1 register): pulled into ^bb1 (1 instruction, cost 20)
// REM-NEXT: ori-remat-block: @loop_calls: max live 28 -> 18 (target 20) [rematerialized values=7] [instructions cloned=7] [rounds=1]
// PLAIN: max pressure R=14

builtin.module attributes {ori.target = "sm_80"} {
  ori.runtime_func @malloc : (!ori.r64) -> !ori.r64
  ori.runtime_func @free : (!ori.r64) -> ()
  ori.func kernel @loop_calls() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %k0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %k1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %k3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %k4 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %k5 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %k6 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %k7 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i: !ori.r32):
    %sz = ori.pack 0x10, RZ : () -> !ori.r64
    %m = ori.call @malloc(%sz) : (!ori.r64) -> !ori.r64
    ori.call @free(%m) : (!ori.r64) -> ()
    %s0 = ori.iadd3 %i, %k0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %k1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %k2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %k3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %k4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %k5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %k6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %k7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %c = ori.isetp lt.u32 %s8, 0x100, PT : (!ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb1(%s8 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%p], %s8 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
