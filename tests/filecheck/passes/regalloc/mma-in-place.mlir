// RUN: ori-opt %s -p 'ori-regalloc,ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s

// An MMA K loop as Triton's attention kernel has it (passes/regalloc/
// coalesce.py): the B pair is words 2-3 of an LDSM quad (a slice hint:
// PACK of consecutive UNPACK words), and the accumulator is scaled word by
// word before the LDSM quads are loaded, then the HMMA reads it as C.
// Every PACK and UNPACK is in place, as in ptxas's HMMA.16816.F32 R20,
// R28, R34, R20: before the slice hint the pair was moved out of the quad,
// and before fatpoint.py placed a wide value's parts with it the scaled
// words, coloured after the quads had taken the accumulator's registers,
// were moved into a fresh quad (six MOVs).

// CHECK-LABEL: .entry k
// CHECK:       FMUL
// CHECK:       LDSM.16.M88.4 R[[Q:[0-9]+]], [R{{[0-9]+}}] ;
// CHECK-NOT:   {{^ +}}PACK
// CHECK-NOT:   {{^ +}}UNPACK
// CHECK:       HMMA.16816.F32 R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK-NOT:   {{^ +}}PACK
// CHECK-NOT:   {{^ +}}UNPACK
// CHECK:       // end k:

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %s = ori.shl %t, 0x4 : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %acc0 = ori.pack %z, %z, %z, %z : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    ori.bra ^bb1(%acc0 : !ori.r128, %z : !ori.r32)
  ^bb1(%acc: !ori.r128, %i: !ori.r32):
    %sc = ori.lds [%s + 0x400] : (!ori.r32) -> !ori.r32
    %c0, %c1, %c2, %c3 = ori.unpack %acc : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %m0 = ori.fmul %c0, %sc : (!ori.r32, !ori.r32) -> !ori.r32
    %m1 = ori.fmul %c1, %sc : (!ori.r32, !ori.r32) -> !ori.r32
    %m2 = ori.fmul %c2, %sc : (!ori.r32, !ori.r32) -> !ori.r32
    %m3 = ori.fmul %c3, %sc : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.ldsm b16.m88.x4 [%s] : (!ori.r32) -> !ori.r128
    %a = ori.ldsm b16.m88.x4 [%s + 0x200] : (!ori.r32) -> !ori.r128
    %q0, %q1, %q2, %q3 = ori.unpack %q : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %b = ori.pack %q2, %q3 : (!ori.r32, !ori.r32) -> !ori.r64
    %cc = ori.pack %m0, %m1, %m2, %m3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hmma m16n8k16.f32 %a, %b, %cc : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%d : !ori.r128, %i2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %t, 0x10, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b128 [%w], %d : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}
