// RUN: ori-opt %s -p 'ori-loop-simplify{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-loop-simplify' | filecheck %s
// RUN: ori-opt %s -p 'ori-loop-simplify,ori-print-loops' | filecheck %s --check-prefix=LOOPS
// RUN: ori-opt %s -p 'ori-loop-simplify{loop-make-single-entry=false},ori-print-loops' | filecheck %s --check-prefix=NOPRE
// RUN: ori-opt %s -p 'ori-loop-simplify{opt-level=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=PEEL

// Two entry edges (one with different arguments; which one is taken depends
// on the parameter n) and two back edges; the final IV is stored.
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @two() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %o = ori.mov 0x1 : () -> !ori.r32
    %p = ori.isetp lt.u32 %n, %o, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%z : !ori.r32), ^bb1(%o : !ori.r32)
  ^bb1(%i: !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %i2, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    %i3 = ori.iadd3 %i2, 0x2, RZ : (!ori.r32) -> !ori.r32
    %r = ori.isetp lt.u32 %i3, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %r : !ori.p, ^bb1(%i3 : !ori.r32), ^bb3
  ^bb3:
    ori.stg [%a], %i3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ori.bra if %p : !ori.p, ^[[PRE:bb[0-9]+]](%z : !ori.r32), ^[[PRE]](%o : !ori.r32)
// CHECK-NEXT: ^[[PRE]](%[[A:.*]]: !ori.r32):
// CHECK-NEXT:   ori.bra ^[[H:bb[0-9]+]](%[[A]] : !ori.r32)
// CHECK-NEXT: ^[[H]](%i: !ori.r32):
// CHECK:        ori.bra if %q : !ori.p, ^[[L:bb[0-9]+]](%i2 : !ori.r32), ^[[B2:bb[0-9]+]]
// CHECK-NEXT: ^[[B2]]:
// CHECK:        ori.bra if %r : !ori.p, ^[[L]](%i3 : !ori.r32), ^[[EX:bb[0-9]+]]
// CHECK-NEXT: ^[[L]](%[[B:.*]]: !ori.r32):
// CHECK-NEXT:   ori.bra ^[[H]](%[[B]] : !ori.r32)
// CHECK-NEXT: ^[[EX]]:
// CHECK-NEXT:   ori.stg [%a], %i3
// CHECK-NEXT:   ori.exit

// REM: remark: @two ^bb1: merged 2 back edges into a single latch
// REM: remark: @two ^bb1: inserted a preheader for 2 entry edges

// LOOPS: loop ^bb2 depth 1: blocks ^bb2 ^bb3 ^bb4 latches ^bb4 exiting ^bb3 exits ^bb5 preheader ^bb1

// NOPRE: loop ^bb1 depth 1: blocks ^bb1 ^bb2 ^bb3 latches ^bb3 exiting ^bb2 exits ^bb4 preheader ^bb0

// PEEL: remark: @two: loop peeling is not supported by ori; loops are not peeled
