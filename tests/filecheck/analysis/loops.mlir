// RUN: xdsl-opt %s -p ori-print-loops | filecheck %s

// Three nested loops, the middle one with two latches.
builtin.module {
  ori.func kernel @nest() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra ^bb1
  ^bb1:
    ori.bra ^bb2
  ^bb2:
    ori.bra ^bb3
  ^bb3:
    ori.bra if %p : !ori.p, ^bb3, ^bb4
  ^bb4:
    ori.bra if %p : !ori.p, ^bb2, ^bb5
  ^bb5:
    ori.bra if %p : !ori.p, ^bb2, ^bb6
  ^bb6:
    ori.bra if %p : !ori.p, ^bb1, ^bb7
  ^bb7:
    ori.exit
  }
// CHECK:      loops in @nest:
// CHECK-NEXT:   loop ^bb1 depth 1: blocks ^bb1 ^bb2 ^bb3 ^bb4 ^bb5 ^bb6 latches ^bb6 exiting ^bb6 exits ^bb7 preheader ^bb0
// CHECK-NEXT:     loop ^bb2 depth 2: blocks ^bb2 ^bb3 ^bb4 ^bb5 latches ^bb4 ^bb5 exiting ^bb5 exits ^bb6 preheader ^bb1
// CHECK-NEXT:       loop ^bb3 depth 3: blocks ^bb3 latches ^bb3 exiting ^bb3 exits ^bb4 preheader ^bb2
// CHECK-NEXT:   loop-depth ^bb0=0 ^bb1=1 ^bb2=2 ^bb3=3 ^bb4=2 ^bb5=2 ^bb6=1 ^bb7=0

  // Two blocks each entered from outside and branching to each other, plus a
  // dead block.
  ori.func kernel @irr() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    ori.bra ^bb1
  ^bb3:
    ori.exit
  ^bb4:
    ori.bra ^bb3
  }
// CHECK:      loops in @irr:
// CHECK-NEXT:   no loops
// CHECK-NEXT:   irreducible edge ^bb2 -> ^bb1
// CHECK-NEXT:   irreducible region ^bb1 ^bb2 entries ^bb1 ^bb2
// CHECK-NEXT:   unreachable ^bb4
// CHECK-NEXT:   loop-depth ^bb0=0 ^bb1=0 ^bb2=0 ^bb3=0 ^bb4=0

  // A loop exiting from its middle; the header has two outside predecessors.
  ori.func kernel @mid() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    ori.bra ^bb2
  ^bb2:
    ori.bra if %p : !ori.p, ^bb3, ^bb4
  ^bb3:
    ori.bra ^bb2
  ^bb4:
    ori.exit
  }
// CHECK:      loops in @mid:
// CHECK-NEXT:   loop ^bb2 depth 1: blocks ^bb2 ^bb3 latches ^bb3 exiting ^bb2 exits ^bb4 preheader none
}

// The IR is printed unchanged after the report.
// CHECK:      builtin.module {
// CHECK-NEXT:   ori.func kernel @nest() {
