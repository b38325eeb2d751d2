// The allocator recomputes a spilled predicate whose comparison reads
// registers live at each of its uses (passes/regalloc/remat.py): no GPR home,
// no P2R/R2P.  A use that ANDs it with another predicate takes the
// comparison with that predicate as its combining input (ptxas's
// ``ISETP.LT.AND P2, PT, R7, c[0x0][0x178], !P1`` in Triton's matmul loop).
// @chain: a comparison whose operand is computed by one instruction from a
// register live at the use is recomputed with that instruction (ptxas's
// IADD3 R33, R88, 0x1 / ISETP.GE.AND P0, PT, R33, c[0x0][0x184], PT in
// Triton's attention loop).  @dead_leaf: where that register is dead at
// the uses too, the predicate takes a home.
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false}' -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false remat-enable=false}' -t ori-asm | filecheck %s --check-prefix=OFF
// (sink-definitions=false: these inputs overflow a register file on purpose; moving
// definitions to their readers, passes/regalloc/sink_defs.py, would relieve them)

// CHECK-LABEL: .entry fold
// CHECK-NOT:   P2R
// CHECK:       PLOP3.LUT P0, P1, P6, PT, 0xc0 ;
// CHECK-NEXT:  SEL R0, RZ, 0x20, P0 ;
// CHECK:       ISETP.GT.U32.AND P0, PT, [[T:R[0-9]+]], 0x13, P6 ;
// CHECK-NEXT:  SEL R0, RZ, 0x40, P0 ;
// CHECK:       ISETP.GT.U32.AND P0, PT, [[T]], 0x16, P6 ;
// CHECK-NEXT:  SEL R0, RZ, 0x80, P0 ;
// CHECK:       ISETP.GT.U32.AND P0, PT, [[T]], 0x19, P6 ;
// CHECK-NEXT:  SEL R0, RZ, 0x100, P0 ;
// CHECK:       ISETP.GT.U32.AND P0, PT, [[T]], 0x1c, P6 ;
// CHECK-NEXT:  SEL R0, RZ, 0x200, P0 ;
// CHECK-NOT:   R2P
// CHECK:       end fold
// CHECK-LABEL: .entry chain
// CHECK-NOT:   P2R
// CHECK:       IADD3 [[U:R[0-9]+]], [[T:R[0-9]+]], 0x3, RZ ;
// CHECK-NEXT:  ISETP.GT.U32.AND [[P:P[0-6]]], PT, [[U]], 0x10, PT ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x8, [[P]] ;
// CHECK-NOT:   R2P
// CHECK:       end chain
// CHECK-LABEL: .entry dead_leaf
// CHECK:       P2R
// CHECK:       R2P
// OFF-LABEL:   .entry fold
// OFF:         P2R
// OFF:         R2P
// OFF-NOT:     ISETP.GT.U32.AND P{{[0-6]}}, PT, R{{[0-9]+}}, 0x{{[0-9a-f]+}}, P6
// OFF:         end fold

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @fold() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %q = ori.isetp lt.u32 %t, 0x18, PT : (!ori.r32) -> !ori.p
    %p0 = ori.isetp gt.u32 %t, 0x1, PT : (!ori.r32) -> !ori.p
    %p1 = ori.isetp gt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %p2 = ori.isetp gt.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %p3 = ori.isetp gt.u32 %t, 0xa, PT : (!ori.r32) -> !ori.p
    %p4 = ori.isetp gt.u32 %t, 0xd, PT : (!ori.r32) -> !ori.p
    %p5 = ori.isetp gt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    %p6 = ori.isetp gt.u32 %t, 0x13, PT : (!ori.r32) -> !ori.p
    %p7 = ori.isetp gt.u32 %t, 0x16, PT : (!ori.r32) -> !ori.p
    %p8 = ori.isetp gt.u32 %t, 0x19, PT : (!ori.r32) -> !ori.p
    %p9 = ori.isetp gt.u32 %t, 0x1c, PT : (!ori.r32) -> !ori.p
    %a = ori.mov 0x0 : () -> !ori.r32
    %d0 = ori.plop3 %p0, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s0 = ori.sel RZ, 0x1, %d0 : (!ori.p) -> !ori.r32
    %a0 = ori.iadd3 %a, %s0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d1 = ori.plop3 %p1, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s1 = ori.sel RZ, 0x2, %d1 : (!ori.p) -> !ori.r32
    %a1 = ori.iadd3 %a0, %s1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d2 = ori.plop3 %p2, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s2 = ori.sel RZ, 0x4, %d2 : (!ori.p) -> !ori.r32
    %a2 = ori.iadd3 %a1, %s2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d3 = ori.plop3 %p3, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s3 = ori.sel RZ, 0x8, %d3 : (!ori.p) -> !ori.r32
    %a3 = ori.iadd3 %a2, %s3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d4 = ori.plop3 %p4, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s4 = ori.sel RZ, 0x10, %d4 : (!ori.p) -> !ori.r32
    %a4 = ori.iadd3 %a3, %s4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d5 = ori.plop3 %p5, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s5 = ori.sel RZ, 0x20, %d5 : (!ori.p) -> !ori.r32
    %a5 = ori.iadd3 %a4, %s5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d6 = ori.plop3 %p6, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s6 = ori.sel RZ, 0x40, %d6 : (!ori.p) -> !ori.r32
    %a6 = ori.iadd3 %a5, %s6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d7 = ori.plop3 %p7, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s7 = ori.sel RZ, 0x80, %d7 : (!ori.p) -> !ori.r32
    %a7 = ori.iadd3 %a6, %s7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d8 = ori.plop3 %p8, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s8 = ori.sel RZ, 0x100, %d8 : (!ori.p) -> !ori.r32
    %a8 = ori.iadd3 %a7, %s8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d9 = ori.plop3 %p9, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s9 = ori.sel RZ, 0x200, %d9 : (!ori.p) -> !ori.r32
    %a9 = ori.iadd3 %a8, %s9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ad = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %a9 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %u0 = ori.iadd3 %t, 0x0, RZ : (!ori.r32) -> !ori.r32
    %p0 = ori.isetp gt.u32 %u0, 0x10, PT : (!ori.r32) -> !ori.p
    %u1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p1 = ori.isetp gt.u32 %u1, 0x10, PT : (!ori.r32) -> !ori.p
    %u2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %p2 = ori.isetp gt.u32 %u2, 0x10, PT : (!ori.r32) -> !ori.p
    %u3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %p3 = ori.isetp gt.u32 %u3, 0x10, PT : (!ori.r32) -> !ori.p
    %u4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %p4 = ori.isetp gt.u32 %u4, 0x10, PT : (!ori.r32) -> !ori.p
    %u5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %p5 = ori.isetp gt.u32 %u5, 0x10, PT : (!ori.r32) -> !ori.p
    %u6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %p6 = ori.isetp gt.u32 %u6, 0x10, PT : (!ori.r32) -> !ori.p
    %u7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %p7 = ori.isetp gt.u32 %u7, 0x10, PT : (!ori.r32) -> !ori.p
    %u8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %p8 = ori.isetp gt.u32 %u8, 0x10, PT : (!ori.r32) -> !ori.p
    %u9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %p9 = ori.isetp gt.u32 %u9, 0x10, PT : (!ori.r32) -> !ori.p
    %a = ori.mov 0x0 : () -> !ori.r32
    %s0 = ori.sel RZ, 0x1, %p0 : (!ori.p) -> !ori.r32
    %a0 = ori.iadd3 %a, %s0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.sel RZ, 0x2, %p1 : (!ori.p) -> !ori.r32
    %a1 = ori.iadd3 %a0, %s1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.sel RZ, 0x4, %p2 : (!ori.p) -> !ori.r32
    %a2 = ori.iadd3 %a1, %s2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.sel RZ, 0x8, %p3 : (!ori.p) -> !ori.r32
    %a3 = ori.iadd3 %a2, %s3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.sel RZ, 0x10, %p4 : (!ori.p) -> !ori.r32
    %a4 = ori.iadd3 %a3, %s4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.sel RZ, 0x20, %p5 : (!ori.p) -> !ori.r32
    %a5 = ori.iadd3 %a4, %s5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.sel RZ, 0x40, %p6 : (!ori.p) -> !ori.r32
    %a6 = ori.iadd3 %a5, %s6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.sel RZ, 0x80, %p7 : (!ori.p) -> !ori.r32
    %a7 = ori.iadd3 %a6, %s7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.sel RZ, 0x100, %p8 : (!ori.p) -> !ori.r32
    %a8 = ori.iadd3 %a7, %s8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.sel RZ, 0x200, %p9 : (!ori.p) -> !ori.r32
    %a9 = ori.iadd3 %a8, %s9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ad = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %a9 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @dead_leaf() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %u0 = ori.iadd3 %t, 0x0, RZ : (!ori.r32) -> !ori.r32
    %p0 = ori.isetp gt.u32 %u0, 0x10, PT : (!ori.r32) -> !ori.p
    %u1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p1 = ori.isetp gt.u32 %u1, 0x10, PT : (!ori.r32) -> !ori.p
    %u2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %p2 = ori.isetp gt.u32 %u2, 0x10, PT : (!ori.r32) -> !ori.p
    %u3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %p3 = ori.isetp gt.u32 %u3, 0x10, PT : (!ori.r32) -> !ori.p
    %u4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %p4 = ori.isetp gt.u32 %u4, 0x10, PT : (!ori.r32) -> !ori.p
    %u5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %p5 = ori.isetp gt.u32 %u5, 0x10, PT : (!ori.r32) -> !ori.p
    %u6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %p6 = ori.isetp gt.u32 %u6, 0x10, PT : (!ori.r32) -> !ori.p
    %u7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %p7 = ori.isetp gt.u32 %u7, 0x10, PT : (!ori.r32) -> !ori.p
    %u8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %p8 = ori.isetp gt.u32 %u8, 0x10, PT : (!ori.r32) -> !ori.p
    %u9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %p9 = ori.isetp gt.u32 %u9, 0x10, PT : (!ori.r32) -> !ori.p
    %a = ori.mov 0x0 : () -> !ori.r32
    %s0 = ori.sel RZ, 0x1, %p0 : (!ori.p) -> !ori.r32
    %a0 = ori.iadd3 %a, %s0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.sel RZ, 0x2, %p1 : (!ori.p) -> !ori.r32
    %a1 = ori.iadd3 %a0, %s1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.sel RZ, 0x4, %p2 : (!ori.p) -> !ori.r32
    %a2 = ori.iadd3 %a1, %s2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.sel RZ, 0x8, %p3 : (!ori.p) -> !ori.r32
    %a3 = ori.iadd3 %a2, %s3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.sel RZ, 0x10, %p4 : (!ori.p) -> !ori.r32
    %a4 = ori.iadd3 %a3, %s4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.sel RZ, 0x20, %p5 : (!ori.p) -> !ori.r32
    %a5 = ori.iadd3 %a4, %s5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.sel RZ, 0x40, %p6 : (!ori.p) -> !ori.r32
    %a6 = ori.iadd3 %a5, %s6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.sel RZ, 0x80, %p7 : (!ori.p) -> !ori.r32
    %a7 = ori.iadd3 %a6, %s7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.sel RZ, 0x100, %p8 : (!ori.p) -> !ori.r32
    %a8 = ori.iadd3 %a7, %s8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.sel RZ, 0x200, %p9 : (!ori.p) -> !ori.r32
    %a9 = ori.iadd3 %a8, %s9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ty = ori.s2r SR_TID.Y : () -> !ori.r32
    %ad = ori.imad wide.u32 %ty, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %a9 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
