// ori-uniform around calls (ori_dialect/ops/uniform_calls.py): a value
// live across a call moves to a uniform register only where the call leaves
// the uniform file alone, as ptxas keeps UR5 across the CALLs to its 64-bit
// division subroutine in CUB's histogram sweeps.
// RUN: ori-opt %s -p 'ori-uniform{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-uniform,ori-abi,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  // A callee that defines no uniform value.
  ori.func @leaf(%x: !ori.r32) -> !ori.r32 {
    %y = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }

  // A callee written with a uniform value, and one that only calls it:
  // both may write the uniform file.
  ori.func @writes(%x: !ori.r32) -> !ori.r32 {
    %u = ori.ldc 0x0, [RZ + 0x0] : () -> !ori.ur32
    %y = ori.iadd3 %x, %u, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    ori.ret %y : !ori.r32
  }
  ori.func @wrapper(%x: !ori.r32) -> !ori.r32 {
    %y = ori.call @writes(%x) : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }

  // The stride lives across the call to @leaf in the loop: it moves to a UR
  // and the IMAD reads it there.
  // CHECK-LABEL: ori.func kernel @across_leaf
  // CHECK:       %[[N:.*]] = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
  // CHECK:       %[[S:.*]] = ori.iadd3 %[[N]], %{{.*}}, URZ : (!ori.ur32, !ori.ur32) -> !ori.ur32
  // CHECK:       ori.call @leaf
  // CHECK-NEXT:  ori.imad %{{.*}}, %[[S]], %{{.*}} : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
  // ASM-LABEL:   .entry across_leaf
  // ASM:         UIADD3 [[U:UR[0-9]+]], UR{{[0-9]+}}, UR{{[0-9]+}}, URZ ;
  // ASM:         CALL.REL.NOINC `(leaf) ;
  // ASM:         IMAD R{{[0-9]+}}, R{{[0-9]+}}, [[U]], R{{[0-9]+}} ;
  ori.func kernel @across_leaf() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %s = ori.iadd3 %n, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %t : !ori.r32)
  ^head(%i: !ori.r32, %acc: !ori.r32):
    %c = ori.call @leaf(%acc) : (!ori.r32) -> !ori.r32
    %acc1 = ori.imad %i, %s, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32, %acc1 : !ori.r32), ^done
  ^done:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %acc1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @across_leaf: remark: 2 value(s) to the uniform datapath: UIADD3 x1, ULDC x1; 1 ULDC added, 0 copies

  // The same kernel calling @wrapper (which reaches @writes): the stride
  // stays in the R file.
  // CHECK-LABEL: ori.func kernel @across_writer
  // CHECK:       %[[S2:.*]] = ori.iadd3 %{{.*}}, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
  // CHECK:       ori.call @wrapper
  // CHECK-NEXT:  ori.imad %{{.*}}, %[[S2]], %{{.*}} : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
  ori.func kernel @across_writer() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %n = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %s = ori.iadd3 %n, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %t : !ori.r32)
  ^head(%i: !ori.r32, %acc: !ori.r32):
    %c = ori.call @wrapper(%acc) : (!ori.r32) -> !ori.r32
    %acc1 = ori.imad %i, %s, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32, %acc1 : !ori.r32), ^done
  ^done:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %acc1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @across_writer: remark: nothing moved to the uniform datapath; kept in the R/P files: {{.*}}2 (live across a call)
}
