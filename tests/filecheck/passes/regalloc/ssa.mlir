// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa},ori-check-regalloc' -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa max-regs=8},ori-check-regalloc' -t ori-asm 2>/dev/null | filecheck %s --check-prefix=SPILL
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa max-regs=8 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SPILLSTATS
// RUN: not ori-opt %s -p 'ori-regalloc{strategy=ssa max-regs=2}' 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: not ori-opt %s -p 'ori-regalloc{strategy=chaitin}' 2>&1 | filecheck %s --check-prefix=BADSTRATEGY

// strategy=ssa: pre-spilling (Braun & Hack 2009) then assignment in
// dominance order.  The loop body has 7 values live at once (t, far, a, b,
// e, i, c): without a limit exactly 7 registers hold values (R0, R2-R7: R1
// is the reserved stack pointer), and ptxas's count adds R1 and the two
// withheld registers: 10.  With max-regs=8 only 5 registers are allowed
// (R0, R2-R5): the two values whose next use lies beyond the loop exit
// (t and far, "far" by the loop-aware next-use distance) are evicted in the
// loop: stored after their definitions, reloaded only after the loop.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %far = ori.iadd3 %t, 0x63, RZ : (!ori.r32) -> !ori.r32
    %a = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %b = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %e = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32)
  ^loop(%i : !ori.r32):
    %c = ori.iadd3 %a, %b, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %d = ori.iadd3 %c, %a, %b : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, %e, %d : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i2 : !ori.r32), ^exit
  ^exit:
    %s = ori.iadd3 %far, %i2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %o = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ad = ori.imad wide.u32 %t, 0x4, %o : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// Dominance order, lowest free register, registers freed at last uses; the
// loop-carried i2 takes i's register (a hint), so the back edge needs no
// copy.
// CHECK:      .entry k
// CHECK-NEXT: .L_x_0:
// CHECK-NEXT:   S2R R0, SR_TID.X ;
// CHECK-NEXT:   IADD3 R2, R0, 0x63, RZ ;
// CHECK-NEXT:   IADD3 R3, R0, 0x1, RZ ;
// CHECK-NEXT:   IADD3 R4, R0, 0x2, RZ ;
// CHECK-NEXT:   IADD3 R5, R0, 0x3, RZ ;
// CHECK-NEXT:   MOV R6, 0x0 ;
// CHECK-NEXT:   // fall through to .L_x_1
// CHECK-NEXT: .L_x_1:  // block args: R6
// CHECK-NEXT:   IADD3 R7, R3, R4, R6 ;
// CHECK-NEXT:   IADD3 R7, R7, R3, R4 ;
// CHECK-NEXT:   IADD3 R6, R6, R5, R7 ;
// CHECK-NEXT:   ISETP.LT.U32.AND P0, PT, R6, 0x10, PT ;
// CHECK-NEXT:   @P0 BRA .L_x_1 ;
// CHECK-NEXT: .L_x_2:
// CHECK-NEXT:   IADD3 R2, R2, R6, RZ ;
// CHECK-NEXT:   LDC.64 R4, c[0x0][0x160] ;
// CHECK-NEXT:   IMAD.WIDE.U32 R4, R0, 0x4, R4 ;
// CHECK-NEXT:   STG.E [R4.64], R2 ;
// CHECK-NEXT:   EXIT ;

// STATS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// STATS: Used 10 registers

// Stores right after the definitions; the uses before the eviction point
// (in the loop) keep the register, so the entry block has no reload.
// SPILL:      .L_x_0:
// SPILL-NEXT:   S2R [[T:R[0-9]+]], SR_TID.X ;
// SPILL-NEXT:   STL [RZ], [[T]] ;
// SPILL-NEXT:   IADD3 [[FAR:R[0-9]+]], [[T]], 0x63, RZ ;
// SPILL-NEXT:   STL [RZ+0x4], [[FAR]] ;
// SPILL-NEXT:   IADD3 {{R[0-9]+}}, [[T]], 0x1, RZ ;
// SPILL-NEXT:   IADD3 {{R[0-9]+}}, [[T]], 0x2, RZ ;
// SPILL-NEXT:   IADD3 {{R[0-9]+}}, [[T]], 0x3, RZ ;
// SPILL-NOT:    LDL
// SPILL:      .L_x_1:
// SPILL-NOT:    LDL
// SPILL-NOT:    STL
// SPILL:      .L_x_2:
// SPILL-NEXT:   LDL [[R:R[0-9]+]], [RZ+0x4] ;
// SPILL-NEXT:   IADD3 {{R[0-9]+}}, [[R]], {{R[0-9]+}}, RZ ;
// SPILL:        LDL {{R[0-9]+}}, [RZ] ;
// SPILL:        EXIT ;

// SPILLSTATS: 8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
// SPILLSTATS: Used 8 registers

// FAIL: Register allocation failed with register count of '2'

// BADSTRATEGY: unknown strategy 'chaitin' (fatpoint or ssa)
