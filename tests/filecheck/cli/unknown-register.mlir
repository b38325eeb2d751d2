// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32<R999>
    ori.exit
  }
}

// CHECK:      unknown-register.mlir:5:35
// CHECK-NEXT:     %t = ori.s2r SR_TID.X : () -> !ori.r32<R999>
// CHECK-NEXT:                                   ^^^^^^^^^^^^^^
// CHECK-NEXT:                                   unknown register 'R999' for ori.r32: expected one of R0..R254 or RZ
// CHECK-NOT:  Traceback
