// ori-uniform (issue 19 item 1; passes/uniform): warp-uniform values of
// kernels onto the uniform datapath.
// RUN: ori-opt %s -p 'ori-uniform{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-uniform{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s -p 'ori-uniform{max-copies=4}' | filecheck %s --check-prefix=COPY
// RUN: ori-opt %s -p 'ori-uniform' -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  // A stride computed from parameters outside the loop and read in the
  // loop through the multiplier's constant port: it moves to a UR (its
  // c[][] operand through a ULDC), as ptxas's `IMAD R, R, UR4, R` loops do.
  // The early exit keeps the rest of the kernel converged.
  // CHECK-LABEL: ori.func kernel @stride
  // CHECK:       %[[N:.*]] = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
  // CHECK-NEXT:  %[[M:.*]] = ori.ldc 0x0, [RZ + 0x16c] : () -> !ori.ur32
  // CHECK-NEXT:  %[[S:.*]] = ori.iadd3 %[[N]], %[[M]], URZ : (!ori.ur32, !ori.ur32) -> !ori.ur32
  // CHECK:       ori.imad %{{.*}}, %[[S]], %{{.*}} : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
  // ASM-LABEL:   .entry stride
  // ASM:         ULDC %ur{{[0-9]+}}, c[0x0][0x168] ;
  // ASM:         ULDC %ur{{[0-9]+}}, c[0x0][0x16c] ;
  // ASM:         UIADD3 %ur{{[0-9]+}}, %ur{{[0-9]+}}, %ur{{[0-9]+}}, URZ ;
  // ASM:         IMAD %r{{[0-9]+}}, %r{{[0-9]+}}, %ur{{[0-9]+}}, %r{{[0-9]+}} ;
  ori.func kernel @stride() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %off = ori.isetp ge.u32 %t, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %off : !ori.p, ^out, ^pre
  ^pre:
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %s = ori.iadd3 %n, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %t : !ori.r32)
  ^head(%i: !ori.r32, %acc: !ori.r32):
    %acc1 = ori.imad %i, %s, %acc : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32, %acc1 : !ori.r32), ^done
  ^done:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %acc1 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^out
  ^out:
    ori.exit
  }
  // REM: ori-uniform: @stride: remark: 2 value(s) to the uniform datapath: UIADD3 x1, ULDC x1; 1 ULDC added, 0 copies; kept in the R/P files:

  // The same value computed under a divergent branch (threads of one warp
  // on both sides) stays in the R file: a uniform register is the warp's.
  // CHECK-LABEL: ori.func kernel @diverged
  // CHECK:       ori.iadd3 %{{.*}}, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
  ori.func kernel @diverged() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %odd = ori.lop3 %t, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^left, ^right
  ^left:
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %s = ori.iadd3 %n, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %t : !ori.r32)
  ^head(%i: !ori.r32, %acc: !ori.r32):
    %acc1 = ori.imad %i, %s, %acc : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32, %acc1 : !ori.r32), ^right
  ^right:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @diverged: remark: nothing moved to the uniform datapath

  // A uniform value whose only reader needs it in a GPR slot (IMAD's first
  // source) stays in the R file unless max-copies lets it cost a MOV.
  // CHECK-LABEL: ori.func kernel @copy
  // CHECK:       %{{.*}} = ori.s2r SR_CTAID.X : () -> !ori.r32
  // COPY-LABEL:  ori.func kernel @copy
  // COPY:        %[[B:.*]] = ori.s2r SR_CTAID.X : () -> !ori.ur32
  // COPY:        %[[M:.*]] = ori.mov %[[B]] : (!ori.ur32) -> !ori.r32
  // COPY-NEXT:   ori.imad %[[M]], c[0x0][0x0], %{{.*}} : (!ori.r32, !ori.r32) -> !ori.r32
  ori.func kernel @copy() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %g = ori.imad %b, c[0x0][0x0], %t : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %g, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %g : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @copy: remark: nothing moved to the uniform datapath; kept in the R/P files: {{.*}}1 (a use would need a MOV from the uniform register)

  // A device function may run with part of a warp: left alone.
  ori.func @helper(%x: !ori.r32) -> !ori.r32 {
    %y = ori.iadd3 %x, c[0x0][0x0], RZ : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }
  // REM: ori-uniform: @helper: remark: device function left alone
}
// STATS: ori-uniform: [values=2] [ops=2] [args=0] [uldc=1] [copies=0] [swapped=0] [rematerialized=0] [kept=

