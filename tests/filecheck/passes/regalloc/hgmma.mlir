// RUN: ori-opt %s --split-input-file -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s --check-prefixes=CHECK,FAT
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc{strategy=ssa},ori-check-regalloc' -t ori-asm 2>/dev/null | filecheck %s --check-prefixes=CHECK,SSA

// HGMMA is asynchronous (PTX ISA 9.7.15.7): from the HGMMA to the
// WARPGROUP.DEPBAR that completes its commit group no instruction may read
// or write its accumulator run (but a later HGMMA accumulating in place) or
// write the registers of A's fragments.  Both strategies: D and C are one
// register run (HgmmaOp.TIED); a chain of HGMMAs takes the previous D
// itself (no PACK / UNPACK between them); A stays apart from D and keeps its
// registers until the wait, as does an accumulator nothing reads; the
// unpack of the result moves after the wait; and ori-check-regalloc (rule 7)
// passes on every chunk.  Before, `ssa` gave the chain's second HGMMA
// `R4, R4, gdesc[R12], R8` (D over A, D != C) and both strategies put an
// IADD3 of the window in the unread accumulator's R4.

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>], maxntid = array<i32: 128, 1, 1>} {
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    %a0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %a1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %a2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %a3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.warpgroup_arrive : () -> ()
    %A = ori.pack %a0, %a1, %a2, %a3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %c0 = ori.pack %z, %z, %z, %z : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d1 = ori.hgmma m64n8k16 %A, %b, %c0, PT : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %p0, %p1, %p2, %p3 = ori.unpack %d1 : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %c1 = ori.pack %p0, %p1, %p2, %p3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d2 = ori.hgmma m64n8k16 %A, %b, %c1, PT : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %q0, %q1, %q2, %q3 = ori.unpack %d2 : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    ori.gmma_commit : () -> ()
    %x = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.warpgroup_depbar 0x0 : () -> ()
    %s = ori.iadd3 %q0, %q3, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%out + 0x4], %q1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%out + 0x8], %q2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry chain
// FAT:        HGMMA.64x8x16.F32 R8, R4, gdesc[R12], R8 ;
// FAT-NEXT:   HGMMA.64x8x16.F32 R8, R4, gdesc[R12], R8 ;
// SSA:        HGMMA.64x8x16.F32 R8, R4, gdesc[R12], R8 ;
// SSA-NEXT:   HGMMA.64x8x16.F32 R8, R4, gdesc[R12], R8 ;
// CHECK-NEXT: GSB0 ;
// CHECK-NOT:  PACK
// FAT-NEXT:   IADD3 R12, R0, 0x7, RZ ;
// SSA-NEXT:   IADD3 R12, R0, 0x7, RZ ;
// CHECK-NEXT: IADD3
// CHECK-NEXT: WARPGROUP.DEPBAR.LE gsb0, 0x0 ;
// FAT-NEXT:   // UNPACK R8, R9, R10, R11, R8 ;  no instruction: in place
// SSA-NEXT:   UNPACK R4, R5, R6, R7, R8 ;

// -----

// scale-d false: C is RZ, nothing is tied, and D still keeps off A's quad.

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @zero_acc() attributes {params = [#ori.param<8, align 8, at 0x0>], maxntid = array<i32: 128, 1, 1>} {
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    %a0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %a1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %a2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %a3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    ori.warpgroup_arrive : () -> ()
    %A = ori.pack %a0, %a1, %a2, %a3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hgmma m64n8k16 %A, %b, RZ, not PT : (!ori.r128, !ori.r64) -> !ori.r128
    %q0, %q1, %q2, %q3 = ori.unpack %d : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    ori.gmma_commit : () -> ()
    %x = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.warpgroup_depbar 0x0 : () -> ()
    %s = ori.iadd3 %q0, %q3, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry zero_acc
// CHECK:      HGMMA.64x8x16.F32 R4, R8, gdesc[R4], RZ, !UPT ;
// CHECK-NEXT: GSB0 ;
// FAT-NEXT:   IADD3 R12, R0, 0x7, RZ ;
// SSA-NEXT:   IADD3 R12, R0, 0x7, RZ ;
// CHECK-NEXT: IADD3
// CHECK-NEXT: WARPGROUP.DEPBAR.LE gsb0, 0x0 ;

// -----

// An accumulator nothing reads keeps its registers until the wait: the
// window's values go elsewhere.

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @unread() attributes {params = [#ori.param<8, align 8, at 0x0>], maxntid = array<i32: 128, 1, 1>} {
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.warpgroup_arrive : () -> ()
    %c = ori.pack %z, %z, %z, %z : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hgmma m64n8k16 %b, %b, %c, PT : (!ori.r64, !ori.r64, !ori.r128) -> !ori.r128
    ori.gmma_commit : () -> ()
    %x0 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %x1 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %x2 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %x3 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %x4 = ori.iadd3 %x0, %x1, %x2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x5 = ori.iadd3 %x4, %x3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.stg [%out], %x5 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry unread
// CHECK:      HGMMA.64x8x16.F32 R4, gdesc[{{R[0-9]+}}, {{R[0-9]+}}], R4 ;
// CHECK-NEXT: GSB0 ;
// CHECK-NOT:  IADD3 R{{[4-7]}},
// CHECK:      WARPGROUP.DEPBAR.LE gsb0, 0x0 ;

// -----

// In flight around the loop (no wait inside it): the back edge passes the
// accumulator as one tuple in its own registers, so the loop body holds no
// PACK, UNPACK or MOV of it; the unpack waits for the DEPBAR after the loop.

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>], maxntid = array<i32: 128, 1, 1>} {
    %out = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.ldc 0x0, [RZ + 0x218] : () -> !ori.r32
    %b = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^loop(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32)
  ^loop(%i : !ori.r32, %f0 : !ori.r32, %f1 : !ori.r32, %f2 : !ori.r32, %f3 : !ori.r32):
    ori.warpgroup_arrive : () -> ()
    %c = ori.pack %f0, %f1, %f2, %f3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hgmma m64n8k16 %b, %b, %c, PT : (!ori.r64, !ori.r64, !ori.r128) -> !ori.r128
    %g0, %g1, %g2, %g3 = ori.unpack %d : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    ori.gmma_commit : () -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i2 : !ori.r32, %g0 : !ori.r32, %g1 : !ori.r32, %g2 : !ori.r32, %g3 : !ori.r32), ^done
  ^done:
    ori.warpgroup_depbar 0x0 : () -> ()
    %s = ori.iadd3 %g0, %g1, %g3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%out + 0x4], %g2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: .entry loop
// CHECK:      .L_x_1:  // block args: R0, R4
// CHECK-NEXT: WARPGROUP.ARRIVE ;
// CHECK-NEXT: HGMMA.64x8x16.F32 R4, gdesc[{{R[0-9]+}}, {{R[0-9]+}}], R4 ;
// CHECK-NEXT: GSB0 ;
// CHECK-NEXT: IADD3 R0, R0, 0x1, RZ ;
// CHECK-NEXT: ISETP.LT.U32.AND P0, PT, R0, R10, PT ;
// CHECK-NEXT: @P0 BRA .L_x_1 ;
// CHECK-NEXT: .L_x_2:
// CHECK-NEXT: WARPGROUP.DEPBAR.LE gsb0, 0x0 ;
// CHECK-NEXT: UNPACK
