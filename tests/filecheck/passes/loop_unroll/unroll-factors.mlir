// Factor paths, full/partial output, the override string and the pragma.
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>/dev/null | filecheck %s
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REM
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor-override="-1-+4+"}' 2>&1 >/dev/null | filecheck %s --check-prefix=OVR
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor-override="-"}' 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=FAC
// RUN: not ori-opt %s -p 'ori-loop-unroll{loop-unroll-factor-override="3"}' 2>&1 | filecheck %s --check-prefix=BAD

builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %q = ori.isetp ne.u32 %n, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3(%z : !ori.r32, %s2 : !ori.r32), ^bb4(%s2 : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.lop3 %t, %j, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %r = ori.isetp ne.u32 %j2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %r : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4(%t2 : !ori.r32)
  ^bb4(%u : !ori.r32):
    ori.stg [%a], %u : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// Trip count 3, body cost 4: full unroll, the IV folded to constants, no back edge.
// CHECK:      ori.func kernel @k() attributes {params = [
// CHECK:        %w = ori.imad wide.u32 %z, 0x4, %a
// CHECK:        %i2 = ori.mov 0x1
// CHECK:        ori.imad wide.u32 %i2, 0x4, %a
// CHECK:        ori.mov 0x2
// CHECK-NOT:    ori.isetp lt.u32
// Unknown trip count, small body (K3: cost < 22): factor 4, every copy keeps its exit test.
// CHECK:        ori.isetp ne.u32 %j2
// CHECK:        ori.isetp ne.u32
// CHECK:        ori.isetp ne.u32
// CHECK:        ori.isetp ne.u32
// CHECK-NOT:    ori.isetp ne.u32
// REM: remark: @k ^bb1: unrolled by 3 (full)
// REM: remark: @k ^bb4: unrolled by 4 (partial)
// REM: remark: @k: [partially unrolled loops=1] [non-unrolled loops=0]

// OVR: remark: @k ^bb1: not unrolled (code 11): skipped by loop-unroll-factor-override
// OVR: remark: @k ^bb4: unrolled by 4 (partial)

// SKIP: remark: @k ^bb1: not unrolled (code 11): skipped by loop-unroll-factor-override
// SKIP: remark: @k ^bb4: not unrolled (code 11): skipped by loop-unroll-factor-override
// SKIP: remark: @k: [partially unrolled loops=0] [non-unrolled loops=2]

// FAC: remark: @k ^bb1: unrolled by 3 (full)
// FAC: remark: @k ^bb4: unrolled by 3 (partial)

// BAD: malformed loop-unroll-factor-override '3'
