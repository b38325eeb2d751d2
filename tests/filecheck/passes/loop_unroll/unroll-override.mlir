// The per-block override string loop-unroll-factor-override (seed knob 427:
// "-N-" skips block N, "+N+" forces it, "-" skips all, "+" forces all; N is
// the header's block index as the unroller receives it) and the PTX pragmas
// (ori.pragma "unroll" forces, "nounroll" rejects with code 11).  A forced
// loop takes factor 1 << force-factor-log2 (4 by default).
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true force-factor-log2=3 loop-unroll-factor-override="-1-+4+"}' 2>&1 >/dev/null | filecheck %s --check-prefix=MIX
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor-override="-"}' 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor-override="+"}' 2>&1 >/dev/null | filecheck %s --check-prefix=ALL
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor-override="+"}' | filecheck %s --check-prefix=ALLIR
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=PRAG

// Two loops: ^bb1 (known trip count 1000; top-tested before inversion) and
// ^bb4 (unknown trip count, ne test).
// MIX: remark: @two ^bb1: not unrolled (code 11): skipped by loop-unroll-factor-override
// MIX: remark: @two ^bb4: unrolled by 8 (partial)
// SKIP: remark: @two ^bb1: not unrolled (code 11): skipped by loop-unroll-factor-override
// SKIP: remark: @two ^bb4: not unrolled (code 11): skipped by loop-unroll-factor-override
// SKIP: remark: @two: [partially unrolled loops=0] [non-unrolled loops=2]
// ALL: remark: @two ^bb1: unrolled by 4 (partial)
// ALL: remark: @two ^bb4: unrolled by 4 (partial)
// ALL: remark: @two: [partially unrolled loops=2] [non-unrolled loops=0]
// Known trip count 1000 = 4 x 250: no prologue, one exit test per 4 copies.
// ALLIR-LABEL: ori.func kernel @two(
// ALLIR:         ori.bra ^[[L:bb[0-9]+]](
// ALLIR-NEXT:  ^[[L]](
// ALLIR-NEXT:    ori.imad
// ALLIR-NEXT:    ori.iadd3
// ALLIR-NEXT:    ori.imad
// ALLIR-NEXT:    ori.iadd3
// ALLIR-NEXT:    ori.imad
// ALLIR-NEXT:    ori.iadd3
// ALLIR-NEXT:    ori.imad
// ALLIR-NEXT:    ori.iadd3
// ALLIR-NEXT:    ori.isetp lt.u32 %{{.*}}, 0x3e8, PT
// ALLIR-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[L]](
// The ne loop keeps all four exit tests (the power-of-two remainder needs a
// monotone lt/le/gt/ge test).
// ALLIR-COUNT-4: ori.isetp ne.u32 %{{.*}}, %n, PT
// ALLIR:         ori.exit
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @two() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %n : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, 0x3e8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    %s2 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb3:
    %q0 = ori.isetp ne.u32 %n, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q0 : !ori.p, ^bb4(%z : !ori.r32, %s : !ori.r32), ^bb5(%s : !ori.r32)
  ^bb4(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.lop3 %t, %j, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %r = ori.isetp ne.u32 %j2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %r : !ori.p, ^bb4(%j2 : !ori.r32, %t2 : !ori.r32), ^bb5(%t2 : !ori.r32)
  ^bb5(%v : !ori.r32):
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// ori.pragma "unroll" forces factor 4 on a loop the heuristic sizes itself
// (known trip count 1000); ori.pragma "nounroll" rejects a loop that would
// be fully unrolled (trip count 3).
// PRAG: remark: @pragmas ^bb1: unrolled by 4 (partial)
// PRAG: remark: @pragmas ^bb3: not unrolled (code 11): nounroll pragma
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @pragmas() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %n : !ori.r32)
  ^bb1(%j : !ori.r32, %t : !ori.r32):
    ori.pragma "unroll"
    %t2 = ori.lop3 %t, %j, %n, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %r = ori.isetp lt.u32 %j2, 0x3e8, PT : (!ori.r32) -> !ori.p
    ori.bra if %r : !ori.p, ^bb1(%j2 : !ori.r32, %t2 : !ori.r32), ^bb2
  ^bb2:
    ori.bra ^bb3(%z : !ori.r32, %t2 : !ori.r32)
  ^bb3(%i : !ori.r32, %s : !ori.r32):
    ori.pragma "nounroll"
    %s2 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb3(%i2 : !ori.r32, %s2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
