// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %u = ori.iadd3 %t, 1.5, RZ : (!ori.r32) -> !ori.r32
    ori.exit
  }
}

// CHECK:      float-immediate.mlir:6:24
// CHECK-NEXT:     %u = ori.iadd3 %t, 1.5, RZ : (!ori.r32) -> !ori.r32
// CHECK-NEXT:                        ^^^
// CHECK-NEXT:                        ori.iadd3: operand 'b' takes an integer immediate
// CHECK-NOT:  Traceback
