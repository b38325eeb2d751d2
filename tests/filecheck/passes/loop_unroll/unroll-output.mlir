// Output of full and partial unrolling (the factor is fixed with
// loop-unroll-factor where the heuristic's choice is not the point).
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=4}' | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=4 unknown-trip-remainder=exit-tests}' | filecheck %s --check-prefix=EXT
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{loop-unroll-factor=2}' | filecheck %s --check-prefix=F2
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-factor=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=REM
// RUN: not ori-opt %s --split-input-file -p 'ori-loop-unroll{unknown-trip-remainder=peel}' 2>&1 | filecheck %s --check-prefix=BAD

// BAD: unknown-trip-remainder must be pow2 or exit-tests, got 'peel'

// Unknown trip count (n), rising IV, lt.u32 test on the incremented IV.
// Power-of-two remainder (seed Step O Phase 4): G checks the IV is at least
// 3 below 2^32 (else the original loop runs), C checks 3 more iterations
// exist, M runs 4 copies with one exit test, E1 (at least 2 left) runs 2
// copies, and the original loop runs the last one (its own test leaves).
// CHECK-LABEL: ori.func kernel @sum(
// CHECK:         ori.bra ^[[G:bb[0-9]+]](%z : !ori.r32, %z : !ori.r32)
// CHECK:       ^[[ORIG:bb[0-9]+]](%i: !ori.r32, %s: !ori.r32):
// CHECK:         ori.isetp lt.u32 %i2, %n, PT
// CHECK:         ori.bra if %{{.*}} : !ori.p, ^[[ORIG]](%i2 : !ori.r32, %s2 : !ori.r32), ^[[EX:bb[0-9]+]](
// CHECK:       ^[[C:bb[0-9]+]](%[[CI:.*]]: !ori.r32, %{{.*}}: !ori.r32):
// CHECK-NEXT:    %[[C3:.*]] = ori.iadd3 %[[CI]], 0x3, RZ
// CHECK-NEXT:    %{{.*}} = ori.isetp lt.u32 %[[C3]], %n, PT
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[M:bb[0-9]+]](%{{.*}}), ^[[E1:bb[0-9]+]](
// CHECK:       ^[[M]](
// CHECK:         ori.isetp lt.u32 %{{.*}}, %n, PT
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[G]](%{{.*}}), ^[[EX]](
// CHECK:       ^[[E1]](%[[EI:.*]]: !ori.r32, %{{.*}}: !ori.r32):
// CHECK-NEXT:    %[[E1N:.*]] = ori.iadd3 %[[EI]], 0x1, RZ
// CHECK-NEXT:    %{{.*}} = ori.isetp lt.u32 %[[E1N]], %n, PT
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[E1B:bb[0-9]+]](%{{.*}}), ^[[ORIG]](
// CHECK:       ^[[E1B]](
// CHECK:         ori.isetp lt.u32 %{{.*}}, %n, PT
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[ORIG]](%{{.*}}), ^[[EX]](
// CHECK-NEXT:  ^[[G]](%[[GI:.*]]: !ori.r32, %{{.*}}: !ori.r32):
// CHECK-NEXT:    %[[OK:.*]] = ori.isetp le.u32 %[[GI]], -0x4, PT
// CHECK-NEXT:    ori.bra if %[[OK]] : !ori.p, ^[[C]](%{{.*}}), ^[[ORIG]](
// Every copy keeps its exit test (four tests, one loop).
// EXT-LABEL: ori.func kernel @sum(
// EXT-COUNT-4: ori.isetp lt.u32 %{{.*}}, %n, PT
// EXT-NOT:     ori.isetp
// EXT:         ori.exit
// Factor 2: the power-of-two scheme is for factors above 2 (seed).
// F2-LABEL: ori.func kernel @sum(
// F2-COUNT-2: ori.isetp lt.u32 %{{.*}}, %n, PT
// F2-NOT:     ori.isetp
// F2:         ori.exit
// REM: remark: @sum ^bb1: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @sum() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %m = ori.lop3 %i, 0x3f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %w = ori.imad wide.u32 %m, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w + 0x10] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Falling IV (stride -3), signed gt test on the IV itself, negated guard:
// the wrap guard is "iv >= INT_MIN + 3*(2+0)".
// CHECK-LABEL: ori.func kernel @down(
// CHECK:         ori.isetp ge %{{.*}}, -0x7ffffffa, PT
// REM: remark: @down ^bb1: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @down() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%n : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.imad %s, 0x7, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, -0x3, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp gt.s32 %i, 0x2, PT : (!ori.r32) -> !ori.p
    ori.bra if not %p : !ori.p, ^bb2, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The IV starts near 2^32 (0xfffffff0 + n mod 4) and the loop runs up to
// 0xffffffff: the wrap guard sends it to the original loop, which tests
// every iteration.
// REM: remark: @nearwrap ^bb1: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nearwrap() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %lo4 = ori.lop3 %n, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %st = ori.lop3 %lo4, -0x10, RZ, 0xfc : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%st : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.lop3 %s, %i, %n, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, -0x1, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The same near INT_MAX (0x7ffffff8 + n mod 4) with a signed test.
// REM: remark: @nearmax ^bb1: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nearmax() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %lo = ori.lop3 %n, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %st = ori.iadd3 %lo, 0x7ffffff8, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%st : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.lop3 %s, %i, %n, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.s32 %i2, 0x7fffffff, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Known trip count 7, factor 4: 3 prologue copies (7 mod 4) before a loop of
// 4 copies that keeps only the last exit test.
// CHECK-LABEL: ori.func kernel @known7(
// CHECK-COUNT-3: ori.lop3
// CHECK:         ori.bra ^[[L:bb[0-9]+]](
// CHECK-NEXT:  ^[[L]](
// CHECK-NEXT:    ori.lop3
// CHECK-NEXT:    ori.iadd3
// CHECK-NEXT:    ori.lop3
// CHECK-NEXT:    ori.iadd3
// CHECK-NEXT:    ori.lop3
// CHECK-NEXT:    ori.iadd3
// CHECK-NEXT:    ori.lop3
// CHECK-NEXT:    ori.iadd3
// CHECK-NEXT:    ori.isetp lt.u32 %{{.*}}, 0x7, PT
// CHECK-NEXT:    ori.bra if %{{.*}} : !ori.p, ^[[L]](
// REM: remark: @known7 ^bb1: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @known7() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %n : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.lop3 %s, %i, %n, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x7, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Known trip count 3 with factor 4: full unroll, IV folded, no loop left.
// CHECK-LABEL: ori.func kernel @full3(
// CHECK-COUNT-3: ori.lop3
// CHECK-NOT:     ori.isetp
// CHECK-NOT:     ^bb
// CHECK:         ori.stg [%a + 0x4], %{{.*}}
// CHECK-NEXT:    ori.exit
// REM: remark: @full3 ^bb1: unrolled by 3 (full)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @full3() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %n : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.lop3 %s, %i, %n, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
