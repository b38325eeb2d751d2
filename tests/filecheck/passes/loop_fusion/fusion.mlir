// ori-loop-fusion (seed 001 phase 59): adjacent single-block loops with the
// same trip count become one.  Off by default (PerformLoopFusion 0).
// RUN: ori-opt %s --split-input-file -p 'ori-loop-fusion{perform-loop-fusion=1 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-loop-fusion' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s --split-input-file -p 'ori-loop-fusion{perform-loop-fusion=1 perform-loop-fusion-budget=6.0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BUDGET
// RUN: not ori-opt %s -p 'ori-loop-fusion{perform-loop-fusion=-1}' 2>&1 | filecheck %s --check-prefix=BAD

// BAD: ori-loop-fusion: perform-loop-fusion must be >= 0, got -1

// Same trip count (9), nothing shared: one loop, L1's exit test, L2's
// arguments appended, the constant between the loops moved in front.
// REM: remark: @two ^bb1: fused ^bb1 with ^bb3
// REM-NOT: remark: @two
// BUDGET: remark: @two ^bb1: not fused with ^bb3: fused body of 7 instructions above perform-loop-fusion-budget=6
// OFF-LABEL: ori.func kernel @two(
// OFF: ^bb3(%j: !ori.r32, %t: !ori.r32):
// CHECK-LABEL: ori.func kernel @two(
// CHECK:         %k = ori.mov 0x7
// CHECK-NEXT:    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32, %k : !ori.r32)
// CHECK-NEXT:  ^bb1(%i: !ori.r32, %s: !ori.r32, %j: !ori.r32, %t: !ori.r32):
// CHECK-NEXT:    %s2 = ori.iadd3 %s, 0x3, %i
// CHECK-NEXT:    %i2 = ori.iadd3 %i, 0x1, RZ
// CHECK-NEXT:    %p = ori.isetp lt.u32 %i2, 0x9, PT
// CHECK-NEXT:    %t2 = ori.imad %t, 0x3, %j
// CHECK-NEXT:    %j2 = ori.iadd3 %j, 0x1, RZ
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32, %j2 : !ori.r32, %t2 : !ori.r32), ^bb2(%s2 : !ori.r32, %t2 : !ori.r32)
// CHECK-NEXT:  ^bb2(%r: !ori.r32, %[[T:.*]]: !ori.r32):
// CHECK-NEXT:    ori.bra ^bb3
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    ori.stg [%a], %r
// CHECK-NEXT:    ori.stg [%a + 0x4], %[[T]]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @two() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.iadd3 %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2(%s2 : !ori.r32)
  ^bb2(%r : !ori.r32):
    %k = ori.mov 0x7 : () -> !ori.r32
    ori.bra ^bb3(%z : !ori.r32, %k : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// L2 starts from L1's result: its first iteration needs L1's last.
// REM: remark: @dep ^bb1: not fused with ^bb3: the second loop (or the code between) reads a value of the first
// REM-NEXT: remark: @dep ^bb3: not fused: no single-block loop follows its exit
// CHECK-LABEL: ori.func kernel @dep(
// CHECK: ^bb3(%j: !ori.r32, %t: !ori.r32):
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @dep() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.iadd3 %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2(%s2 : !ori.r32)
  ^bb2(%r : !ori.r32):
    ori.bra ^bb3(%z : !ori.r32, %r : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// 9 trips against 10.
// REM: remark: @trips ^bb1: not fused with ^bb3: the trip counts differ or cannot be shown equal
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @trips() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.iadd3 %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2(%s2 : !ori.r32)
  ^bb2(%r : !ori.r32):
    %k = ori.mov 0x7 : () -> !ori.r32
    ori.bra ^bb3(%z : !ori.r32, %k : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0xa, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// L1 stores where L2 loads (both global): ori has no index analysis.
// REM: remark: @mem ^bb1: not fused with ^bb3: memory dependence between ori.stg and ori.ldg
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @mem() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.iadd3 %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x9, PT : (!ori.r32) -> !ori.p
    %w1 = ori.imad wide.u32 %i, 0x4, %b : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w1], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2(%s2 : !ori.r32)
  ^bb2(%r : !ori.r32):
    %k = ori.mov 0x7 : () -> !ori.r32
    ori.bra ^bb3(%z : !ori.r32, %k : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x9, PT : (!ori.r32) -> !ori.p
    %w2 = ori.imad wide.u32 %j, 0x4, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %l = ori.ldg [%w2] : (!ori.r64) -> !ori.r32
    ori.bra if %q : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x8], %l : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A barrier between the loops.
// REM: remark: @between ^bb1: not fused with ^bb3: barrier ori.bar between the loops
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @between() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.iadd3 %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2(%s2 : !ori.r32)
  ^bb2(%r : !ori.r32):
    ori.bar 0x0 : () -> ()
    %k = ori.mov 0x7 : () -> !ori.r32
    ori.bra ^bb3(%z : !ori.r32, %k : !ori.r32)
  ^bb3(%j : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %j : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb3(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
