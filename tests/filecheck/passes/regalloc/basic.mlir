// RUN: ori-opt %s -p ori-regalloc,ori-check-regalloc -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=16}',ori-check-regalloc -t ori-asm | filecheck %s --check-prefix=SPILL
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=24 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=32}',ori-stats 2>&1 >/dev/null | filecheck %s --check-prefix=STATS32
// RUN: not ori-opt %s -p 'ori-regalloc{max-regs=2}' 2>&1 | filecheck %s --check-prefix=FAIL

// Straight line, a diamond, a loop-carried value, 64-bit values and
// predicates; with 24 values live at once, max-regs=16 forces spills.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^then, ^else
  ^then:
    %x1 = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^join(%x1 : !ori.r32)
  ^else:
    %x2 = ori.iadd3 %v3, %v4, %v5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^join(%x2 : !ori.r32)
  ^join(%x : !ori.r32):
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32, %x : !ori.r32)
  ^loop(%i : !ori.r32, %acc : !ori.r32):
    %acc2 = ori.iadd3 %acc, %i, %v6 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %q = ori.isetp eq.u32 %i, 0x3, PT : (!ori.r32) -> !ori.p
    %acc3 = ori.iadd3 %acc2, 0x100, RZ if %q else %acc2 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %c = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^loop(%i2 : !ori.r32, %acc3 : !ori.r32), ^exit
  ^exit:
    %s0 = ori.iadd3 %acc3, %v7, %v8 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %v9, %v10 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v11, %v12 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v13, %v14 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v15, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s4 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK: .entry k
// CHECK-NOT: %r
// CHECK: IMAD.WIDE.U32 R{{[0-9]*[02468]}},
// CHECK: ISETP.LT.U32.AND P{{[0-6]}}, PT, R{{[0-9]+}}, 0x10, PT ;
// CHECK: EXIT ;

// SPILL: STL [RZ+0x{{[0-9a-f]+}}], R{{[0-9]+}} ;
// SPILL: LDL R{{[0-9]+}}, [RZ+0x{{[0-9a-f]+}}] ;

// STATS: ptxas info    : Compiling entry function 'k' for 'sm_80'
// STATS-NEXT: ptxas info    : Function properties for k
// STATS-NEXT:     {{[0-9]+}} bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// STATS-NEXT: ptxas info    : Used {{[0-9]+}} registers, used 0 barriers
// STATS-NEXT: ori info      : Occupancy for k: {{[0-9]+}} warps per SM

// STATS32: 0 bytes spill stores, 0 bytes spill loads
// STATS32: Used {{2[0-9]|3[0-2]}} registers

// FAIL: Register allocation failed with register count of '2'
