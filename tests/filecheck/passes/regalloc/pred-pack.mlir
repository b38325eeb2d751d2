// Spilled predicates share GPR homes (passes/regalloc/pred_pack.py): ten
// predicates live at once overflow P0-P6; each spill round threads its
// fresh homes into one register, one bit each (ptxas packs up to seven
// into one GPR), and each reload reads its own bit.  remat-enable=false:
// every comparison reads %t, live to the end, so by default the allocator
// recomputes them at their uses instead (pred-remat.mlir).
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false remat-enable=false}' -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa remat-enable=false}' -t ori-asm | filecheck %s --check-prefix=SSA
// (sink-definitions=false: these inputs overflow a register file on purpose; moving
// definitions to their readers, passes/regalloc/sink_defs.py, would relieve them)

// CHECK-LABEL: .entry preds
// CHECK:       ISETP.GT.U32.AND P0, PT, R0, 0x10, PT ;
// CHECK-NEXT:  P2R [[H:R[0-9]+]], RZ, 0x1, P0 ;
// CHECK-NEXT:  ISETP.GT.U32.AND P0, PT, R0, 0x13, PT ;
// CHECK-NEXT:  P2R [[H]], [[H]], 0x2, PT, P0 ;
// CHECK-NEXT:  ISETP.GT.U32.AND P0, PT, R0, 0x16, PT ;
// CHECK-NEXT:  P2R [[H]], [[H]], 0x4, PT, PT, P0 ;
// CHECK:       R2P P0, [[H]], 0x1 ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x20, P0 ;
// CHECK:       R2P P0, [[H]], 0x2 ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x40, P0 ;
// CHECK:       R2P P0, [[H]], 0x4 ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x80, P0 ;
// SSA-LABEL:   .entry preds
// SSA:         P2R [[S:R[0-9]+]], RZ, 0x1, P6 ;
// SSA-NEXT:    ISETP.GT.U32.AND P6, PT, R0, 0x16, PT ;
// SSA-NEXT:    P2R [[S]], [[S]], 0x2, PT, P6 ;
// SSA-NEXT:    ISETP.GT.U32.AND P6, PT, R0, 0x19, PT ;
// SSA-NEXT:    P2R [[S]], [[S]], 0x4, PT, PT, P6 ;
// SSA:         R2P P0, [[S]], 0x1 ;
// SSA:         R2P P0, [[S]], 0x2 ;
// SSA:         R2P P0, [[S]], 0x4 ;

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @preds() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
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
    %z = ori.mov 0x0 : () -> !ori.r32
    %s0 = ori.sel RZ, 0x1, %p0 : (!ori.p) -> !ori.r32
    %a0 = ori.iadd3 %z, %s0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
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
}
