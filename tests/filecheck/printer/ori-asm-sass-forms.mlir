// The ori-asm listing of the warpgroup MMA, texture and async-copy ops: the
// SASS names and operand forms ptxas 13.0 prints (cuobjdump -sass of
// examples/wgmma, examples/texture, examples/triton/ptx/sm_90a/matmul_m64.ptx
// and small probe kernels).  Each case quotes the ptxas line it follows
// ("ptxas:"); registers are allocated where ptxas puts them when ori's
// alignment allows.  What ori prints differently, and why, is in the
// docstrings of ori_dialect/ops/gmma.py and ori_dialect/ops/texture.py: the
// descriptors and texture handles are in R registers (ptxas: UR), a
// scale-d predicate is a P register (ptxas: UP), the group's last HGMMA has
// no gsb0 operand (ori keeps the commit as its own op, GSB0), and TEX has
// no level-of-detail register.
// RUN: ori-opt %s --split-input-file -t ori-asm | filecheck %s

// HGMMA, scale-d true, B transposed (Triton's tl.dot, matmul_m64):
// ptxas: HGMMA.64x16x16.F32 R24, gdesc[UR8].tnspB, R24, gsb0
// The B descriptor in the pair above A's: gdesc names A's pair alone.
builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @hgmma_tnspb() {
    %acc = ori.undef : () -> !ori.r256<R24>
    %da = ori.undef : () -> !ori.r64<R8>
    %db = ori.undef : () -> !ori.r64<R10>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n16k16.tnspb %da, %db, %acc, PT : (!ori.r64<R8>, !ori.r64<R10>, !ori.r256<R24>) -> !ori.r256<R24>
    ori.gmma_commit : () -> ()
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.exit
  }
}
// CHECK-LABEL: .entry hgmma_tnspb
// CHECK:      WARPGROUP.ARRIVE ;
// CHECK-NEXT: HGMMA.64x16x16.F32 R24, gdesc[R8].tnspB, R24 ;
// CHECK-NEXT: GSB0 ;
// ptxas: WARPGROUP.DEPBAR.LE gsb0, 0x0
// CHECK-NEXT: WARPGROUP.DEPBAR.LE gsb0, 0x0 ;

// -----

// HGMMA, scale-d false (examples/wgmma wgmma_f16_sw64_mn), then bf16 inputs
// (wgmma_bf16_sw128):
// ptxas: HGMMA.64x32x16.F32 R24, gdesc[UR4].tnspB, RZ, !UPT
// ptxas: HGMMA.64x32x16.F32.BF16 R24, gdesc[UR4], RZ, !UPT
// ptxas: HGMMA.64x32x16.F32.BF16 R24, gdesc[UR8], R24
// (ori's 16-register accumulator must start at a multiple of 16: R32.)
builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @hgmma_zero() {
    %da = ori.undef : () -> !ori.r64<R4>
    %db = ori.undef : () -> !ori.r64<R6>
    %d0 = ori.hgmma m64n32k16.tnspb %da, %db, RZ, not PT : (!ori.r64<R4>, !ori.r64<R6>) -> !ori.r512<R32>
    %d1 = ori.hgmma m64n32k16.bf16 %da, %db, RZ, not PT : (!ori.r64<R4>, !ori.r64<R6>) -> !ori.r512<R32>
    %d2 = ori.hgmma m64n32k16.bf16 %da, %db, %d1, PT : (!ori.r64<R4>, !ori.r64<R6>, !ori.r512<R32>) -> !ori.r512<R32>
    ori.exit
  }
}
// CHECK-LABEL: .entry hgmma_zero
// CHECK:      HGMMA.64x32x16.F32 R32, gdesc[R4].tnspB, RZ, !UPT ;
// CHECK-NEXT: HGMMA.64x32x16.F32.BF16 R32, gdesc[R4], RZ, !UPT ;
// CHECK-NEXT: HGMMA.64x32x16.F32.BF16 R32, gdesc[R4], R32 ;

// -----

// HGMMA flags on the descriptor operand, in ptxas's order, and the f16
// accumulator:
// ptxas: HGMMA.64x8x16.F32.BF16 R24, gdesc[UR8].tnspA, R24, gsb0
// ptxas: HGMMA.64x8x16.F32 R24, gdesc[UR8].negA.negB.tnspA.tnspB, R24, gsb0
// ptxas: HGMMA.64x16x16.F16 R24, gdesc[UR4].tnspB, RZ, !UPT, gsb0
// ptxas: HGMMA.64x16x16.F16 R24, gdesc[UR8], R24, gsb0
builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @hgmma_flags() {
    %acc = ori.undef : () -> !ori.r128<R24>
    %acc16 = ori.undef : () -> !ori.r128<R28>
    %da = ori.undef : () -> !ori.r64<R8>
    %db = ori.undef : () -> !ori.r64<R10>
    %d0 = ori.hgmma m64n8k16.bf16.tnspa %da, %db, %acc, PT : (!ori.r64<R8>, !ori.r64<R10>, !ori.r128<R24>) -> !ori.r128<R24>
    %d1 = ori.hgmma m64n8k16.nega.negb.tnspa.tnspb %da, %db, %d0, PT : (!ori.r64<R8>, !ori.r64<R10>, !ori.r128<R24>) -> !ori.r128<R24>
    %d2 = ori.hgmma m64n16k16.f16.tnspb %da, %db, RZ, not PT : (!ori.r64<R8>, !ori.r64<R10>) -> !ori.r128<R28>
    %d3 = ori.hgmma m64n16k16.f16 %da, %db, %acc16, PT : (!ori.r64<R8>, !ori.r64<R10>, !ori.r128<R28>) -> !ori.r128<R28>
    ori.exit
  }
}
// CHECK-LABEL: .entry hgmma_flags
// CHECK:      HGMMA.64x8x16.F32.BF16 R24, gdesc[R8].tnspA, R24 ;
// CHECK-NEXT: HGMMA.64x8x16.F32 R24, gdesc[R8].negA.negB.tnspA.tnspB, R24 ;
// CHECK-NEXT: HGMMA.64x16x16.F16 R28, gdesc[R8].tnspB, RZ, !UPT ;
// CHECK-NEXT: HGMMA.64x16x16.F16 R28, gdesc[R8], R28 ;

// -----

// HGMMA with A from registers: A before the descriptor, which is B's alone;
// imm-scale-a -1 negates the register, imm-scale-b -1 is the descriptor's negB.
// ptxas: HGMMA.64x32x16.F16 R24, -R32, gdesc[UR8], R24, gsb0   (wgmma_rs_f16acc)
// ptxas: HGMMA.64x8x16.F32.BF16 R24, R28, gdesc[UR4].tnspB, R24, gsb0
// ptxas: HGMMA.64x8x16.F32 R24, R28, gdesc[UR4].negB, RZ, !UPT, gsb0
builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @hgmma_rs() {
    %acc = ori.undef : () -> !ori.r256<R24>
    %acc32 = ori.undef : () -> !ori.r128<R40>
    %a = ori.undef : () -> !ori.r128<R32>
    %db = ori.undef : () -> !ori.r64<R8>
    %d0 = ori.hgmma m64n32k16.f16.nega %a, %db, %acc, PT : (!ori.r128<R32>, !ori.r64<R8>, !ori.r256<R24>) -> !ori.r256<R24>
    %d1 = ori.hgmma m64n8k16.bf16.tnspb %a, %db, %acc32, PT : (!ori.r128<R32>, !ori.r64<R8>, !ori.r128<R40>) -> !ori.r128<R40>
    %d2 = ori.hgmma m64n8k16.negb %a, %db, RZ, not PT : (!ori.r128<R32>, !ori.r64<R8>) -> !ori.r128<R40>
    ori.exit
  }
}
// CHECK-LABEL: .entry hgmma_rs
// CHECK:      HGMMA.64x32x16.F16 R24, -R32, gdesc[R8], R24 ;
// CHECK-NEXT: HGMMA.64x8x16.F32.BF16 R40, R32, gdesc[R8].tnspB, R40 ;
// CHECK-NEXT: HGMMA.64x8x16.F32 R40, R32, gdesc[R8].negB, RZ, !UPT ;

// -----

// HGMMA with a scale-d predicate; descriptors not in adjacent pairs, and
// before allocation:
// ptxas: HGMMA.64x8x16.F32 R24, gdesc[UR8], R24, UP0, gsb0
// ptxas: HGMMA.64x8x16.F32 R24, R28, gdesc[UR4], R24, UP0, gsb0
builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @hgmma_pred() {
    %acc = ori.undef : () -> !ori.r128<R24>
    %da = ori.undef : () -> !ori.r64<R4>
    %db = ori.undef : () -> !ori.r64<R2>
    %p = ori.undef : () -> !ori.p<P0>
    %d0 = ori.hgmma m64n8k16 %da, %db, %acc, %p : (!ori.r64<R4>, !ori.r64<R2>, !ori.r128<R24>, !ori.p<P0>) -> !ori.r128<R24>
    %d1 = ori.hgmma m64n8k16 %da, %db, %d0, not %p : (!ori.r64<R4>, !ori.r64<R2>, !ori.r128<R24>, !ori.p<P0>) -> !ori.r128<R24>
    ori.exit
  }
  ori.func kernel @hgmma_virtual() {
    %acc = ori.undef : () -> !ori.r128
    %a = ori.undef : () -> !ori.r128
    %da = ori.undef : () -> !ori.r64
    %db = ori.undef : () -> !ori.r64
    %p = ori.undef : () -> !ori.p
    %d0 = ori.hgmma m64n8k16 %da, %db, %acc, %p : (!ori.r64, !ori.r64, !ori.r128, !ori.p) -> !ori.r128
    %d1 = ori.hgmma m64n8k16 %a, %db, %d0, %p : (!ori.r128, !ori.r64, !ori.r128, !ori.p) -> !ori.r128
    ori.exit
  }
}
// CHECK-LABEL: .entry hgmma_pred
// CHECK:      HGMMA.64x8x16.F32 R24, gdesc[R4, R2], R24, P0 ;
// CHECK-NEXT: HGMMA.64x8x16.F32 R24, gdesc[R4, R2], R24, !P0 ;
// CHECK-LABEL: .entry hgmma_virtual
// CHECK:      HGMMA.64x8x16.F32 %r4, gdesc[%r2, %r3], %r0, %p0 ;
// CHECK-NEXT: HGMMA.64x8x16.F32 %r5, %r1, gdesc[%r3], %r4, %p0 ;

// -----

// TLD (integer coordinates).  The write mask covers the components the
// ori.unpack results that are used read; it is left out when all four are
// written, and RZ stands for the pair of z and w when neither is.
// ptxas: TLD.LZ RZ, R9, R2, UR4, 0x0, 1D, 0x1      (examples/texture gather1d)
// ptxas: TLD.LZ R10, R8, R2, UR4, 0x0, 1D          (gather1d_f4)
// ptxas: TLD.LZ R9, R6, R2, UR4, 0x0, 1D, 0x7      (.x .y .z read)
// ptxas: TLD.LZ RZ, R6, R6, UR4, 0x0, 2D, 0x3      (tex.2d.v4.u32.s32, .x .y read)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @tld() {
    %h = ori.undef : () -> !ori.r64<R4>
    %x = ori.undef : () -> !ori.r32<R2>
    %y = ori.undef : () -> !ori.r32<R3>
    %o = ori.undef : () -> !ori.r64<R12>
    %d0 = ori.tld dim1 %h, %x : (!ori.r64<R4>, !ori.r32<R2>) -> !ori.r128<R8>
    %a0, %b0, %c0, %e0 = ori.unpack %d0 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a0 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    %d1 = ori.tld dim1 %h, %x : (!ori.r64<R4>, !ori.r32<R2>) -> !ori.r128<R8>
    ori.stg b128 [%o], %d1 : (!ori.r64<R12>, !ori.r128<R8>) -> ()
    %d2 = ori.tld dim1 %h, %x : (!ori.r64<R4>, !ori.r32<R2>) -> !ori.r128<R8>
    %a2, %b2, %c2, %e2 = ori.unpack %d2 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a2 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    ori.stg [%o + 0x4], %b2 : (!ori.r64<R12>, !ori.r32<R9>) -> ()
    ori.stg [%o + 0x8], %c2 : (!ori.r64<R12>, !ori.r32<R10>) -> ()
    %d3 = ori.tld dim2.u32 %h, %x, %y : (!ori.r64<R4>, !ori.r32<R2>, !ori.r32<R3>) -> !ori.r128<R8>
    %a3, %b3, %c3, %e3 = ori.unpack %d3 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a3 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    ori.stg [%o + 0x4], %b3 : (!ori.r64<R12>, !ori.r32<R9>) -> ()
    ori.exit
  }
}
// CHECK-LABEL: .entry tld
// CHECK:      TLD.LZ RZ, R8, R2, R4, 0x0, 1D, 0x1 ;
// CHECK:      TLD.LZ R10, R8, R2, R4, 0x0, 1D ;
// CHECK:      TLD.LZ R10, R8, R2, R4, 0x0, 1D, 0x7 ;
// CHECK:      TLD.LZ RZ, R8, R2, R4, 0x0, 2D, 0x3 ;  // u32 results

// -----

// TEX (float coordinates) and TLD4.  ori's TEX has no level-of-detail
// register (ptxas's R8 / R4 / R0 after the coordinates), a 1D TEX stays 1D
// (ptxas fetches at (x, 0) in 2D), coordinates not in a register pair print
// as {x, y}, and a mask is a prefix: only .w read still writes all four
// (ptxas: 0x8).
// ptxas: TEX.LL R8, R6, R6, R8, UR4, 0x0, 2D                (tex2D, all read)
// ptxas: TEX.LL RZ, R7, R6, R4, UR4, 0x0, 2D, 0x1           (examples/texture resize2d)
// ptxas: TEX.LL RZ, R9, R8, R0, UR4, 0x0, 2D, 0x1           (sample1d: tex.1d.v4.f32.f32)
// ptxas: TEX.LL RZ, R7, R6, R0, UR4, 0x0, 2D, 0x8           (only .w read)
// ptxas: TLD4.R R10, R8, R2, UR4, 0x0, 2D                   (gather2d)
// ptxas: TLD4.B RZ, R7, R6, UR4, 0x0, 2D, 0x1               (only .x read)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @tex() {
    %h = ori.undef : () -> !ori.r64<R4>
    %x = ori.undef : () -> !ori.r32<R6>
    %y = ori.undef : () -> !ori.r32<R7>
    %y0 = ori.undef : () -> !ori.r32<R0>
    %o = ori.undef : () -> !ori.r64<R12>
    %d0 = ori.tex dim2 %h, %x, %y : (!ori.r64<R4>, !ori.r32<R6>, !ori.r32<R7>) -> !ori.r128<R8>
    ori.stg b128 [%o], %d0 : (!ori.r64<R12>, !ori.r128<R8>) -> ()
    %d1 = ori.tex dim2 %h, %x, %y0 : (!ori.r64<R4>, !ori.r32<R6>, !ori.r32<R0>) -> !ori.r128<R8>
    %a1, %b1, %c1, %e1 = ori.unpack %d1 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a1 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    %d2 = ori.tex dim1 %h, %x : (!ori.r64<R4>, !ori.r32<R6>) -> !ori.r128<R8>
    %a2, %b2, %c2, %e2 = ori.unpack %d2 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a2 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    %d3 = ori.tex dim2 %h, %x, %y : (!ori.r64<R4>, !ori.r32<R6>, !ori.r32<R7>) -> !ori.r128<R8>
    %a3, %b3, %c3, %e3 = ori.unpack %d3 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %e3 : (!ori.r64<R12>, !ori.r32<R11>) -> ()
    %d4 = ori.tld4 r.dim2 %h, %x, %y : (!ori.r64<R4>, !ori.r32<R6>, !ori.r32<R7>) -> !ori.r128<R8>
    ori.stg b128 [%o], %d4 : (!ori.r64<R12>, !ori.r128<R8>) -> ()
    %d5 = ori.tld4 b.dim2 %h, %x, %y : (!ori.r64<R4>, !ori.r32<R6>, !ori.r32<R7>) -> !ori.r128<R8>
    %a5, %b5, %c5, %e5 = ori.unpack %d5 : (!ori.r128<R8>) -> (!ori.r32<R8>, !ori.r32<R9>, !ori.r32<R10>, !ori.r32<R11>)
    ori.stg [%o], %a5 : (!ori.r64<R12>, !ori.r32<R8>) -> ()
    ori.exit
  }
  ori.func kernel @tex_virtual() {
    %h = ori.undef : () -> !ori.r64
    %x = ori.undef : () -> !ori.r32
    %y = ori.undef : () -> !ori.r32
    %o = ori.undef : () -> !ori.r64
    %d = ori.tex dim2.s32 %h, %x, %y : (!ori.r64, !ori.r32, !ori.r32) -> !ori.r128
    ori.stg b128 [%o], %d : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}
// CHECK-LABEL: .entry tex
// CHECK:      TEX.LL R10, R8, R6, R4, 0x0, 2D ;
// CHECK:      TEX.LL RZ, R8, {R6, R0}, R4, 0x0, 2D, 0x1 ;
// CHECK:      TEX.LL RZ, R8, R6, R4, 0x0, 1D, 0x1 ;
// CHECK:      TEX.LL R10, R8, R6, R4, 0x0, 2D ;
// CHECK:      TLD4.R R10, R8, R6, R4, 0x0, 2D ;
// CHECK:      TLD4.B RZ, R8, R6, R4, 0x0, 2D, 0x1 ;
// CHECK-LABEL: .entry tex_virtual
// CHECK:      TEX.LL %r4+2, %r4, {%r1, %r2}, %r0, 0x0, 2D ;  // s32 results

// -----

// The sm_80 async copies and the L2 prefetch size (a probe of
// cp.async.{cg,ca}.shared.global.L2::{128,64,256}B):
// ptxas: LDGSTS.E.BYPASS.LTC128B.128 [R7], [R2.64]
// ptxas: LDGSTS.E.LTC64B.64 [R7+0x400], [R2.64+0x10]
// ptxas: LDGSTS.E.LTC256B [R7+0x800], [R2.64+0x20]
// ptxas: LDGDEPBAR
// ptxas: DEPBAR.LE SB0, 0x0
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @ldgsts() {
    %s = ori.undef : () -> !ori.r32<R7>
    %g = ori.undef : () -> !ori.r64<R2>
    ori.ldgsts bypass.ltc128b.b128 [%s], [%g] : (!ori.r32<R7>, !ori.r64<R2>) -> ()
    ori.ldgsts ltc64b.b64 [%s + 0x400], [%g + 0x10] : (!ori.r32<R7>, !ori.r64<R2>) -> ()
    ori.ldgsts ltc256b [%s + 0x800], [%g + 0x20] : (!ori.r32<R7>, !ori.r64<R2>) -> ()
    ori.ldgdepbar : () -> ()
    ori.depbar le.SB0 0x0 : () -> ()
    ori.exit
  }
}
// CHECK-LABEL: .entry ldgsts
// CHECK:      LDGSTS.E.BYPASS.LTC128B.128 [R7], [R2.64] ;
// CHECK-NEXT: LDGSTS.E.LTC64B.64 [R7+0x400], [R2.64+0x10] ;
// CHECK-NEXT: LDGSTS.E.LTC256B [R7+0x800], [R2.64+0x20] ;
// CHECK-NEXT: LDGDEPBAR ;
// CHECK-NEXT: DEPBAR.LE SB0, 0x0 ;
