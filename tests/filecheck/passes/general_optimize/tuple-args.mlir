// ori-general-optimize, accumulators carried whole (passes/general_optimize/tuple_args.py):
// block arguments an edge fills with all the parts, in order, of one MMA
// result become one 128-bit argument.  @acc: the loop header's four scalars
// (PACKed into the HMMA's quad, UNPACKed from its result on the back edge)
// and the exit block's four: the preheader edge passes a PACK of the zeros
// (immediates), the back and exit edges the HMMA result itself.  @vec: the
// parts of vector loads, read one by one, stay scalars although both edges
// pass a whole UNPACK.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{tuple-args=false}' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @acc(
// CHECK:         %[[Z:[0-9]+]] = ori.pack 0x0, 0x0, 0x0, 0x0 : () -> !ori.r128
// CHECK-NEXT:    ori.bra ^bb1(%z : !ori.r32, %[[Z]] : !ori.r128)
// CHECK-NEXT:  ^bb1(%i: !ori.r32, %q: !ori.r128):
// CHECK-NEXT:    %ab = ori.pack %a, %b
// CHECK-NEXT:    %h = ori.hmma m16n8k8.f32.bf16 %ab, %a, %q
// CHECK:         ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %h : !ori.r128), ^bb2(%h : !ori.r128)
// CHECK-NEXT:  ^bb2(%[[E:[0-9]+]]: !ori.r128):
// CHECK-NEXT:    %e0, %e1, %e2, %e3 = ori.unpack %[[E]]
// REM: remark: @acc: general-optimize {{.*}}[tuple-args=2] [dead-code=2]
// OFF:         ^bb1(%i: !ori.r32, %c0: !ori.r32, %c1: !ori.r32, %c2: !ori.r32, %c3: !ori.r32):
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @acc() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %c0 : !ori.r32, %c1 : !ori.r32, %c2 : !ori.r32, %c3 : !ori.r32):
    %q = ori.pack %c0, %c1, %c2, %c3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %ab = ori.pack %a, %b : (!ori.r32, !ori.r32) -> !ori.r64
    %h = ori.hmma m16n8k8.f32.bf16 %ab, %a, %q : (!ori.r64, !ori.r32, !ori.r128) -> !ori.r128
    %d0, %d1, %d2, %d3 = ori.unpack %h : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %more = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %d0 : !ori.r32, %d1 : !ori.r32, %d2 : !ori.r32, %d3 : !ori.r32), ^bb2(%d0 : !ori.r32, %d1 : !ori.r32, %d2 : !ori.r32, %d3 : !ori.r32)
  ^bb2(%e0 : !ori.r32, %e1 : !ori.r32, %e2 : !ori.r32, %e3 : !ori.r32):
    ori.stg [%w + 0x100], %e0 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %e1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %e2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %e3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @vec(
// CHECK:       ^bb1(%i: !ori.r32, %c0: !ori.r32, %c1: !ori.r32, %c2: !ori.r32, %c3: !ori.r32):
// REM: remark: @vec: general-optimize {{.*}}[tuple-args=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @vec() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x10, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    %v = ori.ldg b128 [%w] : (!ori.r64) -> !ori.r128
    %v0, %v1, %v2, %v3 = ori.unpack %v : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    ori.bra ^bb1(%z : !ori.r32, %v0 : !ori.r32, %v1 : !ori.r32, %v2 : !ori.r32, %v3 : !ori.r32)
  ^bb1(%i : !ori.r32, %c0 : !ori.r32, %c1 : !ori.r32, %c2 : !ori.r32, %c3 : !ori.r32):
    %s = ori.iadd3 %c0, %c1, %c2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %c3, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u = ori.ldg b128 [%w + 0x10] : (!ori.r64) -> !ori.r128
    %u0, %u1, %u2, %u3 = ori.unpack %u : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %more = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %u0 : !ori.r32, %u1 : !ori.r32, %u2 : !ori.r32, %u3 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%w + 0x100], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// @interleaved: the exit block takes two accumulators' words interleaved
// (Triton's epilogue: d0, d2, g0, g2, d1, d3, g1, g3), and a zero-trip edge
// passes zeros: it takes both quads whole, each UNPACKed where it starts,
// so the loop no longer splits them on every iteration.
// CHECK-LABEL: ori.func kernel @interleaved(
// CHECK:         ori.bra if %skip : !ori.p, ^bb2(%{{[0-9]+}} : !ori.r128, %{{[0-9]+}} : !ori.r128), ^bb1(
// CHECK:         ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %h : !ori.r128, %k : !ori.r128), ^bb2(%h : !ori.r128, %k : !ori.r128)
// CHECK-NEXT:  ^bb2(%[[X:[0-9]+]]: !ori.r128, %[[Y:[0-9]+]]: !ori.r128):
// CHECK-NEXT:    %e2, %e6, %e3, %e7 = ori.unpack %[[Y]]
// CHECK-NEXT:    %e0, %e4, %e1, %e5 = ori.unpack %[[X]]
// CHECK-NEXT:    ori.stg [%w + 0x100], %e0
// REM: remark: @interleaved: general-optimize {{.*}}[tuple-args=4]
// OFF:         ^bb2(%e0: !ori.r32, %e1: !ori.r32, %e2: !ori.r32, %e3: !ori.r32, %e4: !ori.r32, %e5: !ori.r32, %e6: !ori.r32, %e7: !ori.r32):
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @interleaved() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %skip = ori.isetp gt.u32 %t, 0x1000, PT : (!ori.r32) -> !ori.p
    ori.bra if %skip : !ori.p, ^bb2(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32), ^bb1(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %c0 : !ori.r32, %c1 : !ori.r32, %c2 : !ori.r32, %c3 : !ori.r32, %f0 : !ori.r32, %f1 : !ori.r32, %f2 : !ori.r32, %f3 : !ori.r32):
    %q = ori.pack %c0, %c1, %c2, %c3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %r = ori.pack %f0, %f1, %f2, %f3 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %ab = ori.pack %a, %b : (!ori.r32, !ori.r32) -> !ori.r64
    %h = ori.hmma m16n8k8.f32.bf16 %ab, %a, %q : (!ori.r64, !ori.r32, !ori.r128) -> !ori.r128
    %k = ori.hmma m16n8k8.f32.bf16 %ab, %b, %r : (!ori.r64, !ori.r32, !ori.r128) -> !ori.r128
    %d0, %d1, %d2, %d3 = ori.unpack %h : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %g0, %g1, %g2, %g3 = ori.unpack %k : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %more = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %d0 : !ori.r32, %d1 : !ori.r32, %d2 : !ori.r32, %d3 : !ori.r32, %g0 : !ori.r32, %g1 : !ori.r32, %g2 : !ori.r32, %g3 : !ori.r32), ^bb2(%d0 : !ori.r32, %d2 : !ori.r32, %g0 : !ori.r32, %g2 : !ori.r32, %d1 : !ori.r32, %d3 : !ori.r32, %g1 : !ori.r32, %g3 : !ori.r32)
  ^bb2(%e0 : !ori.r32, %e1 : !ori.r32, %e2 : !ori.r32, %e3 : !ori.r32, %e4 : !ori.r32, %e5 : !ori.r32, %e6 : !ori.r32, %e7 : !ori.r32):
    ori.stg [%w + 0x100], %e0 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %e1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %e2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %e3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %e4 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x380], %e5 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x400], %e6 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x480], %e7 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
