// RUN: ori-opt %s -p ori-regalloc,ori-check-regalloc -t ori-asm | filecheck %s

// Loop-carried values: the header's arguments (%i, %acc, %prev) get
// registers that the entry edge and the back edge both write.  The back edge
// passes (%acc2, %acc) for (%acc, %prev): when the allocator gives them
// crossing registers the edge needs a parallel copy with a cycle, which is
// broken with the XOR swap (3 LOP3.LUT 0x3c) instead of a scratch register.
// The trip-count bound %n lives across the whole loop.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32, %t : !ori.r32, %z : !ori.r32)
  ^loop(%i : !ori.r32, %acc : !ori.r32, %prev : !ori.r32):
    %acc2 = ori.iadd3 %acc, %i, %prev : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %c = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^loop(%i2 : !ori.r32, %acc2 : !ori.r32, %acc : !ori.r32), ^exit
  ^exit:
    ori.stg [%a], %acc2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry loop
// CHECK:      MOV [[N:R[0-9]+]], c[0x0][0x168] ;
// CHECK:      // fall through to [[HEAD:.L_x_[0-9]+]]
// CHECK:      [[HEAD]]:  // block args: [[I:R[0-9]+]], [[ACC:R[0-9]+]], [[PREV:R[0-9]+]]
// CHECK-NEXT: IADD3 [[ACC2:R[0-9]+]], [[ACC]], [[I]], [[PREV]] ;
// CHECK-NEXT: IADD3 [[I2:R[0-9]+]], [[I]], 0x1, RZ ;
// CHECK-NEXT: ISETP.LT.U32.AND [[C:P[0-6]]], PT, [[I2]], [[N]], PT ;
// CHECK-NEXT: @![[C]] BRA [[EXIT:.L_x_[0-9]+]] ;
// CHECK-NEXT: {{.L_x_[0-9]+}}:
// CHECK:      BRA [[HEAD]] ;
// CHECK-NEXT: [[EXIT]]:
// CHECK-NOT:  [[N]],
// CHECK:      EXIT ;
