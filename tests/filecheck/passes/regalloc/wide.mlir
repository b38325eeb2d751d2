// RUN: ori-opt %s -p 'ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s

// Wide values: a 64-bit value takes an even-aligned pair, a 128-bit value a
// quad aligned to 4; the register count includes the upper halves (ptxas
// counts LDG.E.64 R4 as using R5): here the address pair R8:R9 is the top,
// so 10 + the 2 withheld registers = 12.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @wide() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x10, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %q = ori.ldg b128 [%a] : (!ori.r64) -> !ori.r128
    %w = ori.ldg b64 [%a + 0x10] : (!ori.r64) -> !ori.r64
    %x = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    ori.stg b128 [%a + 0x20], %q : (!ori.r64, !ori.r128) -> ()
    ori.stg b64 [%a + 0x30], %w : (!ori.r64, !ori.r64) -> ()
    ori.stg [%a + 0x38], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Used 12 registers, used 0 barriers, 360 bytes cmem[0]
// CHECK-LABEL: .entry wide
// CHECK:      IMAD.WIDE.U32 [[A:R[0-9]*[02468]]], {{R[0-9]+}}, 0x10, {{R[0-9]*[02468]}} ;
// CHECK-NEXT: LDG.E.128 [[Q:R[0-9]*[048]]], {{\[}}[[A]].64] ;
// CHECK-NEXT: LDG.E.64 [[W:R[0-9]*[02468]]], {{\[}}[[A]].64+0x10] ;
// CHECK-NEXT: LDG.E [[X:R[0-9]+]], {{\[}}[[A]].64+0x18] ;
// CHECK-NEXT: STG.E.128 {{\[}}[[A]].64+0x20], [[Q]] ;
// CHECK-NEXT: STG.E.64 {{\[}}[[A]].64+0x30], [[W]] ;
// CHECK-NEXT: STG.E {{\[}}[[A]].64+0x38], [[X]] ;
