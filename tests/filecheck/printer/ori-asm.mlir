// The ori-asm output target: a SASS-like listing.
// RUN: ori-opt %s -t ori-asm | filecheck %s

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
  ^bb0:
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg b64.ef [%w + 0x10] : (!ori.r64) -> !ori.r64
    %lo = ori.ldg [%w - 0x8] : (!ori.r64) -> !ori.r32
    %f = ori.ffma -%lo, 1.5, |%lo| : (!ori.r32, !ori.r32) -> !ori.r32
    %g = ori.mufu rcp %f : (!ori.r32) -> !ori.r32
    ori.stg [%w], %g : (!ori.r64, !ori.r32) -> ()
    %i2, %c = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %q = ori.isetp ge.u32.or %i2, %n, not %p : (!ori.r32, !ori.r32, !ori.p) -> !ori.p
    %m = ori.sel %i2, 0x5, not %q if not %p else %i2 : (!ori.r32, !ori.p, !ori.p, !ori.r32) -> !ori.r32
    ori.bar 0x0 : () -> ()
    ori.bra if %p : !ori.p, ^bb1(%m : !ori.r32), ^bb2
  ^bb2:
    ori.bra if not %q : !ori.p, ^bb4, ^bb3
  ^bb4:
    ori.exit
  ^bb3:
    ori.exit
  }
  ori.func @f(%x : !ori.r32) -> !ori.r32 {
    %r = ori.call @f(%x) : (!ori.r32) -> !ori.r32
    ori.ret %r : !ori.r32
  }
  ori.func kernel @allocated() attributes {maxnreg = 32 : i32} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R2>
    %i = ori.s2r SR_TID.X : () -> !ori.r32<R4>
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32<R4>, !ori.r64<R2>) -> !ori.r64<R2>
    %p = ori.isetp ge.u32 %i, c[0x0][0x218], PT : (!ori.r32<R4>) -> !ori.p<P0>
    ori.bra if %p : !ori.p<P0>, ^bb1, ^bb2
  ^bb1:
    ori.exit
  ^bb2:
    %v = ori.ldg [%w] : (!ori.r64<R2>) -> !ori.r32<R5>
    %d = ori.fadd %v, %v : (!ori.r32<R5>, !ori.r32<R5>) -> !ori.r32<R5>
    ori.stg [%w], %d : (!ori.r64<R2>, !ori.r32<R5>) -> ()
    ori.exit
  }
}

// CHECK:      // ori-asm, target sm_80
// CHECK-EMPTY:
// CHECK-NEXT: .entry k  // target sm_80; params: 0x0 (8 B, align 8), 0x8 (4 B, align 4)
// CHECK-NEXT: .L_x_0:
// CHECK-NEXT:   LDC.64 %r0, c[0x0][0x210] ;
// CHECK-NEXT:   MOV %r1, c[0x0][0x218] ;
// CHECK-NEXT:   S2R %r2, SR_TID.X ;
// CHECK-NEXT:   MOV %r3, 0x0 ;
// CHECK-NEXT:   // fall through to .L_x_1(%r4 <- %r3)
// CHECK-NEXT: .L_x_1:  // block args: %r4
// CHECK-NEXT:   IMAD.WIDE.U32 %r5, %r4, 0x4, %r0 ;
// CHECK-NEXT:   LDG.E.64.EF %r6, [%r5.64+0x10] ;
// CHECK-NEXT:   LDG.E %r7, [%r5.64-0x8] ;
// CHECK-NEXT:   FFMA %r8, -%r7, 1.5, |%r7| ;
// CHECK-NEXT:   MUFU.RCP %r9, %r8 ;
// CHECK-NEXT:   STG.E [%r5.64], %r9 ;
// CHECK-NEXT:   IADD3 %r10, %p0, %r4, 0x1, RZ ;
// CHECK-NEXT:   ISETP.LT.U32.AND %p1, PT, %r10, %r1, PT ;
// CHECK-NEXT:   ISETP.GE.U32.OR %p2, PT, %r10, %r1, !%p1 ;
// CHECK-NEXT:   @!%p1 SEL %r11, %r10, 0x5, !%p2 ;  // else %r11 = %r10
// CHECK-NEXT:   BAR.SYNC 0x0 ;
// CHECK-NEXT:   @%p1 BRA .L_x_1 ;  // .L_x_1(%r4 <- %r11)
// CHECK-NEXT: .L_x_2:
// CHECK-NEXT:   @%p2 BRA .L_x_4 ;
// CHECK-NEXT: .L_x_3:
// CHECK-NEXT:   EXIT ;
// CHECK-NEXT: .L_x_4:
// CHECK-NEXT:   EXIT ;
// CHECK-NEXT: // end k: 19 instructions, 5 blocks
// CHECK-EMPTY:
// CHECK-NEXT: .func f(%r0) -> (r32)  // target sm_80
// CHECK-NEXT: .L_x_0:  // block args: %r0
// CHECK-NEXT:   CALL.REL.NOINC `(f) ;  // (%r0) -> %r1
// CHECK-NEXT:   RET.REL.NODEC ;  // returns %r1
// CHECK-NEXT: // end f: 2 instructions, 1 block
// CHECK-EMPTY:
// CHECK-NEXT: .entry allocated  // target sm_80
// CHECK-NEXT: .maxnreg 32
// CHECK-NEXT: .L_x_0:
// CHECK-NEXT:   LDC.64 R2, c[0x0][0x210] ;
// CHECK-NEXT:   S2R R4, SR_TID.X ;
// CHECK-NEXT:   IMAD.WIDE.U32 R2, R4, 0x4, R2 ;
// CHECK-NEXT:   ISETP.GE.U32.AND P0, PT, R4, c[0x0][0x218], PT ;
// CHECK-NEXT:   @!P0 BRA .L_x_2 ;
// CHECK-NEXT: .L_x_1:
// CHECK-NEXT:   EXIT ;
// CHECK-NEXT: .L_x_2:
// CHECK-NEXT:   LDG.E R5, [R2.64] ;
// CHECK-NEXT:   FADD R5, R5, R5 ;
// CHECK-NEXT:   STG.E [R2.64], R5 ;
// CHECK-NEXT:   EXIT ;
// CHECK-NEXT: // end allocated: 10 instructions, 3 blocks
