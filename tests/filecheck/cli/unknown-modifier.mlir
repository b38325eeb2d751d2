// RUN: not ori-opt %s 2>&1 | filecheck %s

builtin.module {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp ge.u33 %t, 0x10, PT : (!ori.r32) -> !ori.p
    ori.exit
  }
}

// CHECK:      unknown-modifier.mlir:6:20
// CHECK-NEXT:     %p = ori.isetp ge.u33 %t, 0x10, PT : (!ori.r32) -> !ori.p
// CHECK-NEXT:                    ^^^^^^
// CHECK-NEXT:                    ori.isetp: unknown modifier 'u33'; expected one of
// CHECK-NOT:  Traceback
