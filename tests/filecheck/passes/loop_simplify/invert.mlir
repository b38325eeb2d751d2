// Loop inversion in ori-loop-simplify (seed 001 phase 18, knob LoopInversion,
// enabled by default): a top-tested loop becomes a guard in the preheader and
// a bottom-tested loop whose new header is the old header's in-loop successor.
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=UNR
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify{loop-inversion-budget=1},ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BUD
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify{loop-inversion=false},ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OFF

// Known trip count 5; the header computes %h, used in the body and after the
// loop, and the IV is used after the loop.  The guard 0 < 5 folds away.
// CHECK-LABEL: ori.func kernel @known(
// CHECK:         %z = ori.mov 0x0
// CHECK-NEXT:    %h = ori.iadd3 %z, %z, RZ
// CHECK-NEXT:    ori.bra ^[[H:bb[0-9]+]](%z : !ori.r32, %h : !ori.r32)
// CHECK-NEXT:  ^[[H]](%[[I:.*]]: !ori.r32, %[[HA:.*]]: !ori.r32):
// CHECK-NEXT:    %s2 = ori.lop3 %[[HA]], %[[I]], RZ, 0x96
// CHECK-NEXT:    %i2 = ori.iadd3 %[[I]], 0x1, RZ
// CHECK-NEXT:    %p = ori.isetp lt.u32 %i2, 0x5, PT
// CHECK-NEXT:    %[[H2:.*]] = ori.iadd3 %i2, %s2, RZ
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^[[H]](%i2 : !ori.r32, %[[H2]] : !ori.r32), ^[[EX:bb[0-9]+]](%i2 : !ori.r32, %[[H2]] : !ori.r32)
// CHECK-NEXT:  ^[[EX]](%[[IX:.*]]: !ori.r32, %[[HX:.*]]: !ori.r32):
// CHECK-NEXT:    ori.stg [%a], %[[HX]]
// CHECK-NEXT:    ori.stg [%a + 0x4], %[[IX]]
// REM: remark: @known ^bb1: inverted a top-tested loop (guard + bottom test)
// UNR: remark: @known ^bb1: unrolled by 5 (full)
// BUD: remark: @known ^bb1: top-tested loop not inverted: the header has 2 instructions (loop-inversion-budget=1)
// BUD: remark: @known ^bb1: not unrolled (code 13): the latch does not end in a conditional branch: top-tested loop not inverted
// OFF: remark: @known ^bb1: not unrolled (code 13)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @known() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, 0x5, PT : (!ori.r32) -> !ori.p
    %h = ori.iadd3 %i, %s, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    %s2 = ori.lop3 %h, %i, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb3:
    ori.stg [%a], %h : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Unknown trip count (n from the parameters): the guard stays, the rotated
// loop gets a preheader, and the unroller sees the IV (partial unroll).
// CHECK-LABEL: ori.func kernel @unknown(
// CHECK:         %p = ori.isetp lt.u32 %z, %n, PT
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^[[PRE:bb[0-9]+]], ^[[EX:bb[0-9]+]](%z : !ori.r32, %z : !ori.r32)
// CHECK-NEXT:  ^[[PRE]]:
// CHECK-NEXT:    ori.bra ^[[H:bb[0-9]+]](%z : !ori.r32, %z : !ori.r32)
// CHECK-NEXT:  ^[[H]](%[[I:.*]]: !ori.r32, %[[S:.*]]: !ori.r32):
// CHECK:         %i2 = ori.iadd3 %[[I]], 0x1, RZ
// CHECK-NEXT:    %[[Q:.*]] = ori.isetp lt.u32 %i2, %n, PT
// CHECK-NEXT:    ori.bra if %[[Q]] : !ori.p, ^[[H]](%i2 : !ori.r32, %s2 : !ori.r32), ^[[EX]](%i2 : !ori.r32, %s2 : !ori.r32)
// CHECK-NEXT:  ^[[EX]](%[[IX:.*]]: !ori.r32, %[[SX:.*]]: !ori.r32):
// CHECK-NEXT:    ori.stg [%a], %[[SX]]
// REM: remark: @unknown ^bb1: inverted a top-tested loop (guard + bottom test)
// REM: remark: @unknown ^bb1: inserted a preheader for 1 entry edges
// UNR: remark: @unknown ^bb2: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @unknown() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    %m = ori.lop3 %i, 0x3f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %w = ori.imad wide.u32 %m, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w + 0x10] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb3:
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Nested top-tested loops (the inner one in the outer body); both are
// inverted, outer first.  The inner loop (3 trips) is fully unrolled.
// REM: remark: @nested ^bb1: inverted a top-tested loop (guard + bottom test)
// REM: remark: @nested ^bb{{[0-9]+}}: inverted a top-tested loop (guard + bottom test)
// UNR: remark: @nested ^bb{{[0-9]+}}: unrolled by 3 (full)
// UNR: remark: @nested ^bb{{[0-9]+}}: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nested() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%z : !ori.r32, %s : !ori.r32), ^bb4
  ^bb2(%j : !ori.r32, %t : !ori.r32):
    %q = ori.isetp lt.u32 %j, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3, ^bb5
  ^bb3:
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %t3 = ori.iadd3 %t2, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb2(%j2 : !ori.r32, %t3 : !ori.r32)
  ^bb5:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %t : !ori.r32)
  ^bb4:
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The outer loop's body starts with an inner (bottom-tested) loop's header:
// the edge into it is split so the rotated outer loop gets its own header.
// The nounroll pragma of the outer header moves to the new header.
// REM: remark: @split ^bb1: inverted a top-tested loop (guard + bottom test)
// UNR: remark: @split ^bb{{[0-9]+}}: not unrolled (code 11): nounroll pragma
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @split() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    ori.pragma "nounroll"
    %p = ori.isetp lt.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%z : !ori.r32, %s : !ori.r32), ^bb4
  ^bb2(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.iadd3 %t, %j, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x2, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2(%j2 : !ori.r32, %t2 : !ori.r32), ^bb3
  ^bb3:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %t2 : !ori.r32)
  ^bb4:
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The exit block is also reached from elsewhere; the header passes its IV to
// it as an edge argument, which both copies of the test (guard and bottom
// test) pass on.
// CHECK-LABEL: ori.func kernel @shared_exit(
// CHECK:         ori.bra if %e : !ori.p, ^[[EX:bb[0-9]+]](%z : !ori.r32), ^[[G:bb[0-9]+]]
// CHECK-NEXT:  ^[[G]]:
// CHECK-NEXT:    %p = ori.isetp lt.u32 %z, %n, PT
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^{{bb[0-9]+}}, ^[[EX]](%z : !ori.r32)
// CHECK:         ori.bra if %{{.*}} : !ori.p, ^{{bb[0-9]+}}(%i2 : !ori.r32), ^[[EX]](%i2 : !ori.r32)
// REM: remark: @shared_exit ^bb2: inverted a top-tested loop (guard + bottom test)
// UNR: remark: @shared_exit ^bb3: unrolled by 4 (partial)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @shared_exit() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %e = ori.isetp gt.u32 %n, 0x64, PT : (!ori.r32) -> !ori.p
    ori.bra if %e : !ori.p, ^bb4(%z : !ori.r32), ^bb1
  ^bb1:
    ori.bra ^bb2(%z : !ori.r32)
  ^bb2(%i : !ori.r32):
    %p = ori.isetp lt.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb3, ^bb4(%i : !ori.r32)
  ^bb3:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb2(%i2 : !ori.r32)
  ^bb4(%r : !ori.r32):
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
