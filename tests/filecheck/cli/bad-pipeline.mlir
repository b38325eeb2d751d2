// Bad pass names, pass options and output targets are diagnosed, not crashed on.
// RUN: not ori-opt %s -p 'ori-print-loops{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: not ori-opt %s -p ori-no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not ori-opt %s -p 'ori-print-loops{' 2>&1 | filecheck %s --check-prefix=SPEC
// RUN: not ori-opt %s -t no-such-target 2>&1 | filecheck %s --check-prefix=TGT
// RUN: not ori-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=FILE
// RUN: not ori-opt %S/Inputs/kernel.ptx --sm sm_1 2>&1 | filecheck %s --check-prefix=PTX

builtin.module {
  ori.func kernel @k() {
    ori.exit
  }
}

// OPT:  ori-opt: error: bad pass pipeline 'ori-print-loops{bogus=1}': Provided arguments ["bogus"] not found
// PASS: ori-opt: error: bad pass pipeline 'ori-no-such-pass': Unrecognized passes: ['ori-no-such-pass']
// SPEC: ori-opt: error: bad pass pipeline 'ori-print-loops{': Error parsing pass pipeline specification:
// SPEC: Expected argument name here
// TGT:  ori-opt: error: unknown output target 'no-such-target' (-t); available: {{.*}}ori-asm
// FILE: ori-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// PTX:  ori-opt: error: unknown SM target 'sm_1'
// CHECK-NOT: Traceback
