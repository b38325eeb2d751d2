// RUN: ori-opt %s -p ori-regalloc,ori-check-regalloc -t ori-asm | filecheck %s

// A diamond: both arms leave the joined value in the register of the join
// block's argument (directly or with a copy on the edge), and the value live
// through both arms (%t) keeps one register.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @diamond() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %p = ori.isetp lt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^then, ^else
  ^then:
    %x1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^join(%x1 : !ori.r32)
  ^else:
    %x2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %x3 = ori.iadd3 %x2, %x2, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^join(%x3 : !ori.r32)
  ^join(%x : !ori.r32):
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry diamond
// CHECK:      S2R [[T:R[0-9]+]], SR_TID.X ;
// CHECK:      ISETP.LT.U32.AND [[P:P[0-6]]], PT, [[T]], 0x10, PT ;
// The then-block is next in layout: the guarded branch goes to the else
// side under the inverted guard, and the else-block falls through to the join.
// CHECK-NEXT: @![[P]] BRA [[ELSE:.L_x_[0-9]+]] ;
// CHECK-NEXT: {{.L_x_[0-9]+}}:
// CHECK-NEXT: IADD3 [[X:R[0-9]+]], [[T]], 0x1, RZ ;
// CHECK-NEXT: BRA [[JOIN:.L_x_[0-9]+]] ;
// CHECK:      [[ELSE]]:
// CHECK-NEXT: IADD3 [[X2:R[0-9]+]], [[T]], 0x2, RZ ;
// CHECK:      {{IADD3|MOV}} [[X]], {{.*}}
// CHECK-NEXT: // fall through to [[JOIN]]
// CHECK:      [[JOIN]]:  // block args: [[X]]
// CHECK-NEXT: STG.E [{{R[0-9]+}}.64], [[X]] ;
