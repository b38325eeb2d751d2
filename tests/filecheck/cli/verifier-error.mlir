// A verifier failure points at the failing op.
// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.p
    ori.exit
  }
}

// CHECK:      verifier-error.mlir:7:5
// CHECK-NEXT:     %p = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.p
// CHECK-NEXT:     ^^^^
// CHECK-NEXT:     ori.iadd3: result 'd' must be ori.r32 or ori.ur32, got !ori.p
// CHECK-NOT:  Traceback
