// ori-remat: load rematerialization (seed 002 "Post-remat phases", remat-load,
// dump-remat-load): after the main loop and IV demotion, the same rounds with
// read-only loads in the chains -- LDC and ld.global.nc (ori.ldg constant) --
// each a long-latency op (cost x remat-lli-factor).  A load of writable
// memory is never recomputed.
// RUN: ori-opt %s -p 'ori-remat{remat-maxreg-ceiling=2 remarks=true stats=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 stats=true}' 2>&1 | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-remat{remat-maxreg-ceiling=2 dump-remat-load=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: ori-opt %s -p 'ori-remat{remat-maxreg-ceiling=2 remat-lli-factor=3 dump-remat-load=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=LLI

// The main loop recomputes %n (a MOV of c[0x0][0x170]) in the loop; the
// load phase then %a (LDC: 1 x 10) and %c (LDC of %b, dead after ^bb0, then
// LDG.constant: 2 x 10).  %g reads writable global memory.
// CHECK-LABEL: ori.func kernel @loads(
// CHECK:       ^bb2:
// CHECK-NEXT:    %remat_b = ori.ldc b64 0x0, [RZ + 0x168]
// CHECK-NEXT:    %remat_c = ori.ldg constant [%remat_b + 0x10]
// CHECK-NEXT:    %r1 = ori.iadd3 %s1, %remat_c, %g
// CHECK-NEXT:    %remat_a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    ori.stg [%remat_a], %r1
// REM: remark: @loads: rematerialized %n (cost 20): remat_n in ^bb1
// REM-NEXT: remark: @loads: rematerialized %a (cost 10): remat_a in ^bb2
// REM-NEXT: remark: @loads: rematerialized %c (cost 20): remat_c in ^bb2
// REM-NEXT: ori-remat: @loads: [max live 8 -> 5] [max live-in 6 -> 2] [target 2] [rematerialized 3] [clones 3]
// OFF: ori-remat: @loads: [max live 8 -> 8] [max live-in 6 -> 5] [target 2] [rematerialized 1] [clones 1]
// OFF: %c = ori.ldg constant [%b + 0x10]
// DUMP: ori-remat: @loads: Block ^bb1: live-in = 5
// DUMP: ori-remat: @loads: %a: Total pull-in cost = 10 (base 10 x use factor 1)
// DUMP-NEXT: ori-remat: @loads: %c: Total pull-in cost = 20 (base 20 x use factor 1)
// DUMP-NEXT: ori-remat: @loads: Candidate %g: not rematerializable: ori.ldg reads writable memory
// DUMP-NEXT: ori-remat: @loads: Candidate %x: not rematerializable: ori.s2r is not rematerializable
// DUMP-NEXT: ori-remat: @loads: Candidate %a: selected (cost 10)
// DUMP-NEXT: ori-remat: @loads: Candidate %c: selected (cost 20)
// LLI: ori-remat: @loads: %a: Total pull-in cost = 3 (base 3 x use factor 1)
// LLI-NEXT: ori-remat: @loads: %c: Total pull-in cost = 6 (base 6 x use factor 1)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loads() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<4, align 4, at 0x10>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %n = ori.mov c[0x0][0x170] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %c = ori.ldg constant [%b + 0x10] : (!ori.r64) -> !ori.r32
    %g = ori.ldg [%b + 0x20] : (!ori.r64) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s1 = ori.iadd3 %s, %x, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    %r1 = ori.iadd3 %s1, %c, %g : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
