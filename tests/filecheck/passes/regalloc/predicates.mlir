// RUN: ori-opt %s --split-input-file -p ori-regalloc,ori-check-regalloc -t ori-asm | filecheck %s

// Predicates: seven live at once use P0..P6 (PT is not allocatable) with no
// spilling.  An eighth does not fit: like ptxas, a predicate is then kept in
// an R register (P2R) and brought back (R2P) where it is used.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @seven() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %p0 = ori.isetp lt.u32 %t, 0x1, PT : (!ori.r32) -> !ori.p
    %p1 = ori.isetp lt.u32 %t, 0x2, PT : (!ori.r32) -> !ori.p
    %p2 = ori.isetp lt.u32 %t, 0x3, PT : (!ori.r32) -> !ori.p
    %p3 = ori.isetp lt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %p4 = ori.isetp lt.u32 %t, 0x5, PT : (!ori.r32) -> !ori.p
    %p5 = ori.isetp lt.u32 %t, 0x6, PT : (!ori.r32) -> !ori.p
    %p6 = ori.isetp lt.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %s0 = ori.mov 0x0 : () -> !ori.r32
    %s1 = ori.iadd3 %s0, 0x1, RZ if %p0 else %s0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, 0x1, RZ if %p1 else %s1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, 0x1, RZ if %p2 else %s2 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, 0x1, RZ if %p3 else %s3 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, 0x1, RZ if %p4 else %s4 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, 0x1, RZ if %p5 else %s5 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, 0x1, RZ if %p6 else %s6 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%a], %s7 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry seven
// CHECK-NOT:  P2R
// CHECK-COUNT-7: ISETP.LT.U32.AND P{{[0-6]}}, PT,
// CHECK:      MOV [[S:R[0-9]+]], 0x0 ;
// CHECK-COUNT-7: @P{{[0-6]}} IADD3 [[S]], [[S]], 0x1, RZ ;
// CHECK: EXIT ;

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @eight() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %p0 = ori.isetp lt.u32 %t, 0x1, PT : (!ori.r32) -> !ori.p
    %p1 = ori.isetp lt.u32 %t, 0x2, PT : (!ori.r32) -> !ori.p
    %p2 = ori.isetp lt.u32 %t, 0x3, PT : (!ori.r32) -> !ori.p
    %p3 = ori.isetp lt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %p4 = ori.isetp lt.u32 %t, 0x5, PT : (!ori.r32) -> !ori.p
    %p5 = ori.isetp lt.u32 %t, 0x6, PT : (!ori.r32) -> !ori.p
    %p6 = ori.isetp lt.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %p7 = ori.isetp lt.u32 %t, 0x8, PT : (!ori.r32) -> !ori.p
    %s0 = ori.mov 0x0 : () -> !ori.r32
    %s1 = ori.iadd3 %s0, 0x1, RZ if %p0 else %s0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, 0x1, RZ if %p1 else %s1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, 0x1, RZ if %p2 else %s2 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, 0x1, RZ if %p3 else %s3 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, 0x1, RZ if %p4 else %s4 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, 0x1, RZ if %p5 else %s5 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, 0x1, RZ if %p6 else %s6 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, 0x1, RZ if %p7 else %s7 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%a], %s8 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry eight
// CHECK:      ISETP.LT.U32.AND [[P:P[0-6]]], PT, {{R[0-9]+}}, 0x1, PT ;
// CHECK-NEXT: P2R [[K:R[0-9]+]], RZ, 0x1, [[P]] ;
// CHECK:      R2P [[Q:P[0-6]]], [[K]], 0x1 ;
// CHECK-NEXT: @[[Q]] IADD3
// CHECK: EXIT ;
