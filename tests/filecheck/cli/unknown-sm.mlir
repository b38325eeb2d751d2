// An unknown SM target, from the module attribute or from --sm.
// RUN: not ori-opt %s 2>&1 | filecheck %s --check-prefix=ATTR
// RUN: not ori-opt %S/Inputs/small.mlir --sm sm_999 2>&1 | filecheck %s --check-prefix=FLAG
// --sm overrides the module's target, so a valid one repairs this file:
// RUN: ori-opt %s --sm 90a | filecheck %s --check-prefix=FIXED

builtin.module attributes {ori.target = "sm_999"} {
  ori.func kernel @k() {
    ori.exit
  }
}

// ATTR:      unknown-sm.mlir:7:1
// ATTR:      unknown SM target 'sm_999'; known targets: {{.*}}sm_80{{.*}}sm_90a{{.*}}sm_120
// ATTR-NOT:  Traceback

// FLAG:      ori-opt: error: unknown SM target 'sm_999'; known targets: {{.*}}sm_80
// FLAG-NOT:  Traceback

// FIXED: builtin.module attributes {ori.target = "sm_90a"}
