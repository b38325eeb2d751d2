// RUN: ori-opt %s -p 'ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s

// Uniform registers come from their own file (UR0..UR62 on sm_80) and do
// not count in "Used N registers" (ptxas counts R only: every ptxas kernel
// that loads UR4/UR5 with ULDC.64 reports the R count alone).  Here R0 and
// the pair R2:R3 are the R registers: 4 + the 2 withheld = 6.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @uniform() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %u0 = ori.ldc 0x0, [RZ + 0x8] : () -> !ori.ur32
    %u1 = ori.ldc 0x0, [RZ + 0x8] : () -> !ori.ur32
    %u2 = ori.ldc 0x0, [RZ + 0x8] : () -> !ori.ur32
    %x = ori.iadd3 %t, %u0, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %y = ori.iadd3 %x, %u1, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %z = ori.iadd3 %y, %u2, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Used 6 registers, used 0 barriers, 364 bytes cmem[0]
// CHECK-LABEL: .entry uniform
// CHECK-COUNT-3: ULDC UR{{[0-9]+}}, c[0x0][0x8] ;
// CHECK-COUNT-3: IADD3 R{{[0-9]+}}, R{{[0-9]+}}, UR{{[0-9]+}}, RZ ;
