// RUN: ori-opt %s -p ori-regalloc,ori-check-regalloc -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Straight-line code: a value may take the register of an operand that dies
// at its instruction (sources are read before results are written), the
// 64-bit address sits in an even pair, and R1 (the stack pointer) is never
// given out.  Register count = highest R + 1 + the 2 registers ptxas
// withholds on sm_70+ (passes/stats.py): R4 is the highest -> 7.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @straight() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %y = ori.iadd3 %x, 0x1, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.iadd3 %y, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry straight
// CHECK-NOT: R1,
// CHECK:      S2R [[T:R[0-9]+]], SR_TID.X ;
// CHECK-NEXT: LDC.64 [[B:R[0-9]*[02468]]], c[0x0][0x0] ;
// CHECK-NEXT: IMAD.WIDE.U32 [[A:R[0-9]*[02468]]], [[T]], 0x4, [[B]] ;
// CHECK-NEXT: LDG.E [[X:R[0-9]+]], {{\[}}[[A]].64] ;
// CHECK-NEXT: IADD3 [[Y:R[0-9]+]], [[X]], 0x1, [[T]] ;
// CHECK-NEXT: IADD3 [[Z:R[0-9]+]], [[Y]], [[X]], RZ ;
// CHECK-NEXT: STG.E {{\[}}[[A]].64], [[Z]] ;
// CHECK-NOT: R1,
// CHECK: EXIT ;

// STATS:      ptxas info    : Function properties for straight
// STATS-NEXT:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// STATS-NEXT: ptxas info    : Used 7 registers, used 0 barriers, 360 bytes cmem[0]
// STATS-NEXT: ori info      : Occupancy for straight: 64 warps per SM (100%) at 7 registers
