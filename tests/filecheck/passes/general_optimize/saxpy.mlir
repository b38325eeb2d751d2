// saxpy as nvcc compiles it (examples/ptx/sm_80/saxpy.ptx) through phases 13
// and 16: the kernel parameters are read by the instructions that use them,
// as in ptxas 13.0's SASS for the same PTX:
//   IMAD R4, R4, c[0x0][0x0], R3
//   ISETP.GE.AND P0, PT, R4, c[0x0][0x160], PT
//   HFMA2.MMA R5, -RZ, RZ, 0, 2.384185791015625e-07   (R5 = 4)
//   IMAD.WIDE R2, R4, R5, c[0x0][0x168]
//   FFMA R7, R2, c[0x0][0x164], R7
// RUN: ori-opt %S/../../../../examples/ptx/sm_80/saxpy.ptx -p 'ori-general-optimize{stats=true},ori-dead-code{stats=true}' -t ori-asm 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=STATS < %t.err
// RUN: ori-opt %S/../../../../examples/ptx/sm_80/saxpy.ptx -p 'ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s --check-prefix=RA

// CHECK-LABEL: .entry saxpy
// CHECK-NOT:     LDC
// CHECK:         IMAD %[[I:r[0-9]+]], %r{{[0-9]+}}, c[0x0][0x0], %r{{[0-9]+}} ;
// CHECK-NEXT:    ISETP.GE.AND %[[P:p[0-9]+]], PT, %[[I]], c[0x0][0x160], PT ;
// CHECK-NEXT:    @%[[P]] BRA
// CHECK:         MOV %[[F:r[0-9]+]], 0x4 ;
// CHECK-NEXT:    IMAD.WIDE %[[X:r[0-9]+]], %[[I]], %[[F]], c[0x0][0x168] ;
// CHECK-NEXT:    LDG.E.CONSTANT %[[XV:r[0-9]+]], [%[[X]].64] ;
// CHECK:         IMAD.WIDE %[[Y:r[0-9]+]], %[[I]], %r{{[0-9]+}}, c[0x0][0x170] ;
// CHECK-NEXT:    LDG.E %[[YV:r[0-9]+]], [%[[Y]].64] ;
// CHECK-NEXT:    FFMA %[[R:r[0-9]+]], %[[XV]], c[0x0][0x164], %[[YV]] ;
// CHECK-NEXT:    STG.E [%[[Y]].64], %[[R]] ;
// CHECK-NOT:     PACK
// CHECK:         EXIT
// STATS: ori-general-optimize: [copies=0] [constants=7] [pack-unpack=0] [ldc64-split=2] [folded=0] [imad-identity=0] [wide-add=2]
// STATS-SAME: [dead-code=7]
// STATS: ori-dead-code: [removed=8]
// RA: ISETP.GE.AND P0, PT, R{{[0-9]+}}, c[0x0][0x160], PT ;
// RA: IMAD.WIDE R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x168] ;
// RA: FFMA R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x164], R{{[0-9]+}} ;
