// ori-cse: phase 29's partial CSE (seed 001 "Pipeline Placement": LICM 35
// "runs after GeneralOptimize at phase 29, which performs partial CSE").
// Dominator-scoped value numbering: an op equal to a dominating one (name,
// operands with guard and prior, modifiers, result types) is removed.
// Constants and LDC merge only within a block; loads of memory, volatile
// clock reads and ops with effects never merge.
// RUN: ori-opt %s -p 'ori-cse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-cse{stats=true},ori-cse{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// CHECK-LABEL: ori.func kernel @cse(
// CHECK-NEXT:    %a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    %n = ori.ldc 0x0, [RZ + 0x168]
// CHECK-NEXT:    %x = ori.s2r SR_TID.X
// same block: the second sum, constant and LDC go
// CHECK-NEXT:    %s1 = ori.iadd3 %x, %n, RZ
// CHECK-NEXT:    %k1 = ori.mov 0x4
// the clock is volatile, the loads may see a store: all four stay
// CHECK-NEXT:    %c1 = ori.s2r SR_CLOCKLO
// CHECK-NEXT:    %c2 = ori.s2r SR_CLOCKLO
// CHECK-NEXT:    %v1 = ori.ldg [%a + 0x40]
// CHECK-NEXT:    ori.stg [%a + 0x40], %x
// CHECK-NEXT:    %v2 = ori.ldg [%a + 0x40]
// a guarded op matches only the same guard, sense and prior
// CHECK-NEXT:    %p = ori.isetp lt %x, %n, PT
// CHECK-NEXT:    %g1 = ori.iadd3 %x, 0x1, RZ if %p else %x
// CHECK-NEXT:    %g3 = ori.iadd3 %x, 0x1, RZ if not %p else %x
// CHECK-NEXT:    %g4 = ori.iadd3 %x, 0x1, RZ if %p else %n
// different modifiers: both stay
// CHECK-NEXT:    %m1 = ori.isetp lt.u32 %x, %n, PT
// uses of the removed ops read the kept ones
// CHECK-NEXT:    %w = ori.iadd3 %s1, %k1, %n
// CHECK-NEXT:    %w2 = ori.sel %g1, %n, %p
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// dominated by the entry's sum: removed; a constant of another block stays
// CHECK-NEXT:    %k3 = ori.mov 0x4
// CHECK-NEXT:    %t1 = ori.lop3 %x, %s1, %k3, 0xc0
// CHECK-NEXT:    ori.bra ^bb3(%t1 : !ori.r32)
// CHECK-NEXT:  ^bb2:
// ^bb1 does not dominate ^bb2: the same lop3 stays
// CHECK-NEXT:    %t2 = ori.lop3 %x, %s1, %k1, 0xc0
// CHECK-NEXT:    ori.bra ^bb3(%t2 : !ori.r32)
// CHECK-NEXT:  ^bb3(%t: !ori.r32):
// CHECK-NEXT:    %u = ori.iadd3 %t, %w, %w2
// CHECK-NEXT:    %u2 = ori.iadd3 %v1, %n, RZ
// CHECK-NEXT:    %u3 = ori.iadd3 %v2, %g3, %g4
// CHECK-NEXT:    %u4 = ori.iadd3 %u, %u2, %u3
// CHECK-NEXT:    %u5 = ori.sel %u4, %x, %m1
// CHECK-NEXT:    ori.stg [%a], %u5
// CHECK-NEXT:    ori.exit
// REM: remark: @cse: cse [removed=6]
// STATS: ori-cse: [removed=6]
// STATS-NEXT: ori-cse: [removed=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @cse() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %s1 = ori.iadd3 %x, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %x, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k1 = ori.mov 0x4 : () -> !ori.r32
    %k2 = ori.mov 0x4 : () -> !ori.r32
    %n2 = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %c1 = ori.s2r SR_CLOCKLO : () -> !ori.r32
    %c2 = ori.s2r SR_CLOCKLO : () -> !ori.r32
    %v1 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    ori.stg [%a + 0x40], %x : (!ori.r64, !ori.r32) -> ()
    %v2 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %p = ori.isetp lt %x, %n2, PT : (!ori.r32, !ori.r32) -> !ori.p
    %g1 = ori.iadd3 %x, 0x1, RZ if %p else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %g2 = ori.iadd3 %x, 0x1, RZ if %p else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %g3 = ori.iadd3 %x, 0x1, RZ if not %p else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %g4 = ori.iadd3 %x, 0x1, RZ if %p else %n : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %m1 = ori.isetp lt.u32 %x, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %m2 = ori.isetp lt %x, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %w = ori.iadd3 %s2, %k2, %n2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w2 = ori.sel %g2, %n, %m2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    %s3 = ori.iadd3 %x, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k3 = ori.mov 0x4 : () -> !ori.r32
    %t1 = ori.lop3 %x, %s3, %k3, 0xc0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%t1 : !ori.r32)
  ^bb2:
    %t2 = ori.lop3 %x, %s1, %k1, 0xc0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%t2 : !ori.r32)
  ^bb3(%t : !ori.r32):
    %u = ori.iadd3 %t, %w, %w2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u2 = ori.iadd3 %v1, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u3 = ori.iadd3 %v2, %g3, %g4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u4 = ori.iadd3 %u, %u2, %u3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u5 = ori.sel %u4, %x, %m1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.stg [%a], %u5 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
