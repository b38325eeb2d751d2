// The input ends in the middle of a function.
// RUN: head -n 7 %s > %t.mlir
// RUN: not ori-opt %t.mlir 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    ori.exit
  }
}

// CHECK:      truncated.mlir.tmp.mlir:8:1
// CHECK:      in block definition
// CHECK-NOT:  Traceback
