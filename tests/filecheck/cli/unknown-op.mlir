// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %u = ori.iadd4 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.exit
  }
}

// xDSL reports an unregistered op at the token after its name.
// CHECK:      unknown-op.mlir:6:20
// CHECK-NEXT:     %u = ori.iadd4 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
// CHECK-NEXT:                    ^^
// CHECK-NEXT:                    Operation ori.iadd4 is not registered
// CHECK-NOT:  Traceback
