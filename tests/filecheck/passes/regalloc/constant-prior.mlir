// RUN: ori-opt %s -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc' | filecheck %s --check-prefix=IR

// Masked loads sharing one zero prior (Triton's tl.load(..., mask, other=0):
// passes/regalloc/copies.py split_ties).  Each load needs a private
// register for its prior, which the guarded write may leave in place.  The
// shared zero is a constant: each private prior is a MOV of 0 of its own
// (ptxas zeroes each load register in place, PRMT R20, RZ, 0x7610, R20),
// and the last load, where the zero dies, gets the original MOV moved down
// to it, so no register holds the zero across the loads: the kernel needs
// one register less than with copies of it (MOV R5, R4 ...).

// CHECK-LABEL: .entry k
// CHECK-NOT:   MOV R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK:       MOV [[A:R[0-9]+]], 0x0 ;
// CHECK-NEXT:  @P{{[0-6]}} LDG.E.U16 [[A]], [R{{[0-9]+}}.64] ;
// CHECK-NEXT:  MOV [[B:R[0-9]+]], 0x0 ;
// CHECK-NEXT:  @P{{[0-6]}} LDG.E.U16 [[B]], [R{{[0-9]+}}.64+0x2] ;
// CHECK-NEXT:  MOV [[C:R[0-9]+]], 0x0 ;
// CHECK-NEXT:  @P{{[0-6]}} LDG.E.U16 [[C]], [R{{[0-9]+}}.64+0x4] ;
// CHECK-NOT:   MOV R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK:       end k
// IR-COUNT-3:  ori.mov 0x0
// IR-NOT:      ori.mov 0x0

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %a = ori.imad wide.u32 %t, 0x8, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %m0 = ori.isetp lt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    %m1 = ori.isetp lt.u32 %t, 0x11, PT : (!ori.r32) -> !ori.p
    %m2 = ori.isetp lt.u32 %t, 0x12, PT : (!ori.r32) -> !ori.p
    %z = ori.mov 0x0 : () -> !ori.r32
    %v0 = ori.ldg u16 [%a] if %m0 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v1 = ori.ldg u16 [%a + 0x2] if %m1 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v2 = ori.ldg u16 [%a + 0x4] if %m2 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %s = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
