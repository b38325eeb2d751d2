// ori-general-optimize, scaled shared-memory indices
// (passes/general_optimize/scaled_index.py): an index shifted by 2, 3 or 4
// only to address shared memory is read scaled by the access itself --
// ptxas's `STS [R8.X4+0x100], RZ` and `LDS.128 R4, [R8.X16]` in CUB's
// BlockRadixSort.  %s4: SHL by 2 read by a store and a load; %s16: by 4 for
// a 128-bit load; %m8: an IMAD by 8; %k: (t + 3) << 2, whose constant
// addr-offset then moves into the offset scaled (0xc); %s8: a store
// of 64 bits; %h: an ATOMS.ADD (CUB's histogram bins).
// Not rewritten: %n1 (a shift by 1), %n2 (also added to), %n3 (a global
// address), %n4 (also the stored value), %n5 (SHL.W), %n6 (an IMAD by 12).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{scaled-index=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @scaled() attributes {params = [#ori.param<8, align 8, at 0x0>], ori.shared_bytes = 4096 : i32} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %s4 = ori.shl %t, 0x2 : (!ori.r32) -> !ori.r32
    ori.sts [%s4 + 0x100], %t : (!ori.r32, !ori.r32) -> ()
    %v1 = ori.lds [%s4] : (!ori.r32) -> !ori.r32
    %s16 = ori.shl %t, 0x4 : (!ori.r32) -> !ori.r32
    %q = ori.lds b128 [%s16] : (!ori.r32) -> !ori.r128
    %m8 = ori.imad %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %d = ori.lds b64 [%m8 + 0x200] : (!ori.r32) -> !ori.r64
    %k3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %k = ori.shl %k3, 0x2 : (!ori.r32) -> !ori.r32
    %v2 = ori.lds [%k] : (!ori.r32) -> !ori.r32
    %s8 = ori.shl %t, 0x3 : (!ori.r32) -> !ori.r32
    ori.sts b64 [%s8 + 0x400], %d : (!ori.r32, !ori.r64) -> ()
    %h4 = ori.shl %v1, 0x2 : (!ori.r32) -> !ori.r32
    %h = ori.atoms add.u32 [%h4 + 0x800], 0x1 : (!ori.r32) -> !ori.r32
    %n1 = ori.shl %t, 0x1 : (!ori.r32) -> !ori.r32
    %v3 = ori.lds u16 [%n1] : (!ori.r32) -> !ori.r32
    %n2 = ori.shl %v1, 0x2 : (!ori.r32) -> !ori.r32
    %v4 = ori.lds [%n2] : (!ori.r32) -> !ori.r32
    %a2 = ori.iadd3 %n2, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %n3 = ori.shl %t, 0x2 : (!ori.r32) -> !ori.r32
    %g = ori.imad wide.u32 %n3, 0x1, %out : (!ori.r32, !ori.r64) -> !ori.r64
    %n4 = ori.shl %v2, 0x2 : (!ori.r32) -> !ori.r32
    ori.sts [%n4], %n4 : (!ori.r32, !ori.r32) -> ()
    %n5 = ori.shl w %v3, 0x2 : (!ori.r32) -> !ori.r32
    %v5 = ori.lds [%n5] : (!ori.r32) -> !ori.r32
    %n6 = ori.imad %v3, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.lds [%n6] : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %a2, %v5, %v6 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%g], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg b128 [%out + 0x10], %q : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}

// CHECK-LABEL: ori.func kernel @scaled
// CHECK:         ori.sts [%t * 4 + 0x100], %t
// CHECK-NEXT:    %v1 = ori.lds [%t * 4]
// CHECK-NEXT:    %q = ori.lds b128 [%t * 16]
// CHECK-NEXT:    %d = ori.lds b64 [%t * 8 + 0x200]
// CHECK-NEXT:    %v2 = ori.lds [%t * 4 + 0xc]
// CHECK-NEXT:    ori.sts b64 [%t * 8 + 0x400], %d
// CHECK-NEXT:    %h = ori.atoms add.u32 [%v1 * 4 + 0x800], 0x1
// CHECK-NEXT:    %n1 = ori.shl %t, 0x1
// CHECK-NEXT:    %v3 = ori.lds u16 [%n1]
// CHECK-NEXT:    %n2 = ori.shl %v1, 0x2
// CHECK-NEXT:    %v4 = ori.lds [%n2]
// CHECK:         %n3 = ori.shl %t, 0x2
// CHECK:         %n4 = ori.shl %v2, 0x2
// CHECK-NEXT:    ori.sts [%n4], %n4
// CHECK-NEXT:    %n5 = ori.shl w %v3, 0x2
// CHECK-NEXT:    %v5 = ori.lds [%n5]
// CHECK-NEXT:    %n6 = ori.imad %v3, 0xc, RZ
// CHECK-NEXT:    %v6 = ori.lds [%n6]

// REM: [scaled-index=7]

// OFF:           %s4 = ori.shl %t, 0x2
// OFF-NEXT:      ori.sts [%s4 + 0x100], %t

// ASM-LABEL: .entry scaled
// ASM:       STS [[[T:R[0-9]+]].X4+0x100], [[T]] ;
// ASM-NEXT:  LDS {{R[0-9]+}}, [[[T]].X4] ;
// ASM-NEXT:  LDS.128 {{R[0-9]+}}, [[[T]].X16] ;
// ASM-NEXT:  LDS.64 {{R[0-9]+}}, [[[T]].X8+0x200] ;
// ASM-NEXT:  LDS {{R[0-9]+}}, [[[T]].X4+0xc] ;
// ASM:       ATOMS.ADD.U32 {{R[0-9]+}}, [{{R[0-9]+}}.X4+0x800], 0x1 ;
