// ori-remat: the main loop of nvvmrematerialize (seed 002 "Main Algorithm",
// "Block-Level Executor"): live-in per block, the register target, the
// intersection of the live-in sets of the blocks above the target, cheapest
// candidates first, and clones next to the uses -- remat_ where the value was
// live-in, uclone_ where a dominating block already got a clone.
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=4 remarks=true stats=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=4 dump-remat=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=D1
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=4 dump-remat=2}' 2>&1 >/dev/null | filecheck %s --check-prefix=D2
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=4 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=D3
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=4 dump-remat=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=D4
// Without pressure (the kernel is at the SM's maximum occupancy) nothing changes.
// RUN: ori-opt %s --split-input-file -p 'ori-remat{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NONE

// Blocks ^bb1-^bb3 are above the ceiling (live-in 7, 7, 6 > 4); %k1, %k2 and
// %k3 are live-in to all three.  %k3 (cost 1) is cheapest, then %k1 (two
// sites: 1 x 2) and %k2 (IMAD and, since %n is dead after the loop, the MOV
// of c[0x0][0x168]: base 2).  %a (LDC) waits for the load phase, %x (S2R) is
// no rematerializable op, %n would be recomputed inside the loop (use factor
// remat-loop-trip = 20).
// CHECK-LABEL: ori.func kernel @main(
// CHECK:         %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %z = ori.mov 0x0
// CHECK:       ^bb2:
// CHECK-NEXT:    %remat_k1 = ori.iadd3 %x, 0x10, RZ
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_k2 = ori.imad %x, 0x3, %remat_n
// CHECK-NEXT:    %r1 = ori.iadd3 %s2, %remat_k1, %remat_k2
// CHECK:       ^bb3:
// CHECK-NEXT:    %remat_k3 = ori.lop3 %x, 0xff, RZ, 0xc0
// CHECK-NEXT:    %uclone_k1 = ori.iadd3 %x, 0x10, RZ
// CHECK-NEXT:    %r2 = ori.iadd3 %r1, %remat_k3, %uclone_k1
// REM: remark: @main: rematerialized %k3 (cost 1): remat_k3 in ^bb3
// REM-NEXT: remark: @main: rematerialized %k1 (cost 2): remat_k1 in ^bb2, uclone_k1 in ^bb3
// REM-NEXT: remark: @main: rematerialized %k2 (cost 2): remat_k2 in ^bb2
// REM-NEXT: ori-remat: @main: [max live 10 -> 7] [max live-in 7 -> 4] [target 4] [rematerialized 3] [clones 4] [demoted IVs 0] [live-out simplified 0]
// D1: ori-remat: @main: Max live-in = 7 (^bb1), max live = 10, register target = 4 (ceiling 4)
// D1-NEXT: ori-remat: @main: Iteration 1: max live-in = 7 -> 4, target 4
// D1-NEXT: ori-remat: @main: Iteration 2: max live-in = 4 <= target 4: done
// D1-NOT: Block
// D2: Max live-in = 7
// D2-NEXT: ori-remat: @main: Block ^bb0: live-in = 0
// D2-NEXT: ori-remat: @main: Block ^bb1: live-in = 7
// D2-NEXT: ori-remat: @main: Block ^bb2: live-in = 7
// D2-NEXT: ori-remat: @main: Block ^bb3: live-in = 6
// D2-NEXT: ori-remat: @main: Block ^bb4: live-in = 3
// D2-NEXT: ori-remat: @main: Iteration 1
// D2-NOT: Candidate
// D3: ori-remat: @main: Candidate %a: not rematerializable: ori.ldc is a load (load phase only)
// D3-NEXT: ori-remat: @main: Candidate %x: not rematerializable: ori.s2r is not rematerializable
// D3-NEXT: ori-remat: @main: Candidate %k3: selected (cost 1)
// D3-NEXT: ori-remat: @main: Candidate %k1: selected (cost 2)
// D3-NEXT: ori-remat: @main: Candidate %k2: selected (cost 2)
// D3-NEXT: ori-remat: @main: %k3: remat_k3 in ^bb3
// D3-NEXT: ori-remat: @main: %k1: remat_k1 in ^bb2, uclone_k1 in ^bb3
// D3-NEXT: ori-remat: @main: %k2: remat_k2 in ^bb2
// D3-NOT: Total pull-in cost
// D4: ori-remat: @main: %k1: Total pull-in cost = 2 (base 1 x use factor 2)
// D4-NEXT: ori-remat: @main: %k3: Total pull-in cost = 1 (base 1 x use factor 1)
// D4-NEXT: ori-remat: @main: %n: Total pull-in cost = 20 (base 1 x use factor 20)
// D4-NEXT: ori-remat: @main: %k2: Total pull-in cost = 2 (base 2 x use factor 1)
// NONE: ori-remat: @main: [max live 10 -> 10] [max live-in 7 -> 7] [target 10] [rematerialized 0] [clones 0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @main() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %k2 = ori.imad %x, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %k3 = ori.lop3 %x, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %r1 = ori.iadd3 %s2, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %r1, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3, ^bb4(%r1 : !ori.r32)
  ^bb3:
    %r2 = ori.iadd3 %r1, %k3, %k1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb4(%r2 : !ori.r32)
  ^bb4(%r : !ori.r32):
    %r3 = ori.iadd3 %r, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Two candidates whose chains share an op (%t, dead after %u and %v): the
// second clone reuses the first one's copy of %t in the same block, and
// needs no clone of %n (%remat_t already reads it).
// CHECK-LABEL: ori.func kernel @shared(
// CHECK:       ^bb2:
// CHECK-NEXT:    %uclone_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_t = ori.imad %x, 0x9, %uclone_n
// CHECK-NEXT:    %remat_u = ori.lop3 %remat_t, 0xff, RZ, 0xc0
// CHECK-NEXT:    %r1 = ori.iadd3 %i2, %remat_u, %uclone_n
// CHECK-NEXT:    %remat_v = ori.lop3 %remat_t, 0xff00, RZ, 0xc0
// CHECK-NEXT:    %r2 = ori.iadd3 %r1, %remat_v, %x
// REM: remark: @shared: rematerialized %u (cost 2): remat_u in ^bb2
// REM-NEXT: remark: @shared: rematerialized %v (cost 3): remat_v in ^bb2
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @shared() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %t = ori.imad %x, 0x9, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.lop3 %t, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %v = ori.lop3 %t, 0xff00, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    %r1 = ori.iadd3 %i2, %u, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %v, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
