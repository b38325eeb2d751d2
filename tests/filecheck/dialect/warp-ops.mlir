// The warp reductions and matches, grid-dependency control, BPT.TRAP and the
// indexed branch BRX survive print -> parse -> print, and print as ptxas
// 13.0 spells them.
// RUN: ori-opt %s | ori-opt | filecheck %s
// RUN: ori-opt %s > %t.1.mlir && ori-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: ori-opt %s -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_90"} {
  ori.func @all(%a: !ori.r32, %w: !ori.r64, %p: !ori.p) {
    %0 = ori.redux sum.s32 %a, -0x1 : (!ori.r32) -> !ori.r32
    %1 = ori.redux %a, %a : (!ori.r32, !ori.r32) -> !ori.ur32
    %2 = ori.redux max %a, 0xffff if %p else %0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %3 = ori.credux maxabs.f32.nan %a, -0x1 : (!ori.r32) -> !ori.r32
    %4 = ori.credux min.f32 %a, -0x1 : (!ori.r32) -> !ori.r32
    %5 = ori.match any %a, -0x1 : (!ori.r32) -> !ori.r32
    %6, %7 = ori.match all.u64 %w, 0xff : (!ori.r64) -> (!ori.r32, !ori.p)
    ori.acqbulk : () -> ()
    ori.preexit : () -> ()
    ori.bpt trap 0x1 if %p : (!ori.p) -> ()
    ori.brx %a : !ori.r32, [^bb1, ^bb2, ^bb1]
  ^bb1:
    ori.ret
  ^bb2:
    ori.exit
  }
}

// CHECK:      %0 = ori.redux sum.s32 %a, -0x1 : (!ori.r32) -> !ori.r32
// CHECK-NEXT: %1 = ori.redux %a, %a : (!ori.r32, !ori.r32) -> !ori.ur32
// CHECK-NEXT: %2 = ori.redux max %a, 0xffff if %p else %0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
// CHECK-NEXT: %3 = ori.credux maxabs.f32.nan %a, -0x1 : (!ori.r32) -> !ori.r32
// CHECK-NEXT: %4 = ori.credux min.f32 %a, -0x1 : (!ori.r32) -> !ori.r32
// CHECK-NEXT: %5 = ori.match any %a, -0x1 : (!ori.r32) -> !ori.r32
// CHECK-NEXT: %6, %7 = ori.match all.u64 %w, 0xff : (!ori.r64) -> (!ori.r32, !ori.p)
// CHECK-NEXT: ori.acqbulk : () -> ()
// CHECK-NEXT: ori.preexit : () -> ()
// CHECK-NEXT: ori.bpt trap 0x1 if %p : (!ori.p) -> ()
// CHECK-NEXT: ori.brx %a : !ori.r32, [^bb1, ^bb2, ^bb1]
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: ori.ret
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: ori.exit

// ASM:      REDUX.SUM.S32 %r2, %r0 ;  // membermask -0x1
// ASM-NEXT: REDUX %ur0, %r0 ;  // membermask %r0
// ASM-NEXT: @%p0 REDUX.MAX %r3, %r0 ;  // membermask 0xffff; else %r3 = %r2
// ASM-NEXT: CREDUX.MAXABS.F32.NAN %r4, %r0 ;  // membermask -0x1
// ASM-NEXT: CREDUX.MIN.F32 %r5, %r0 ;  // membermask -0x1
// ASM-NEXT: MATCH.ANY %r6, %r0 ;  // membermask -0x1
// ASM-NEXT: MATCH.ALL.U64 %p1, %r7, %r1 ;  // membermask 0xff
// ASM-NEXT: ACQBULK ;
// ASM-NEXT: PREEXIT ;
// ASM-NEXT: @%p0 BPT.TRAP 0x1 ;
// ASM-NEXT: BRX %r0 ;  // targets .L_x_1, .L_x_2, .L_x_1
// ASM-NEXT: .L_x_1:
// ASM-NEXT: RET.REL.NODEC ;
// ASM-NEXT: .L_x_2:
// ASM-NEXT: EXIT ;
