// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %u = ori.iadd3 %t, %nowhere, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.exit
  }
}

// CHECK:      unknown-value.mlir:6:24
// CHECK-NEXT:     %u = ori.iadd3 %t, %nowhere, RZ : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:                        ^^^^^^^^
// CHECK-NEXT:                        use of undefined value '%nowhere'

// CHECK-NOT:  Traceback
