// ori-general-optimize, three-input adds (passes/general_optimize/iadd3_merge.py):
// IADD3 (IADD3 a, b, RZ), c, RZ is IADD3 a, b, c when the inner sum has no
// other use and sits in the same block -- ptxas's `IADD3 R7, R8, R7, R2` in
// CUB's unrolled reductions.  Source modifiers travel with their operand
// (-%a in %v); an immediate goes to slot b.  Not merged: an inner sum read
// twice (%twice), two immediates (%kk), and -- unless iadd3-merge-extend --
// an inner sum whose sources both die there (%m: n and t2 would both stay
// live up to %r0 where %m alone did).  add-chain is off here: it makes %kk
// one add (add-chain.mlir).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true add-chain=false},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{iadd3-merge=false add-chain=false},ori-dead-code' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize{iadd3-merge-extend=true add-chain=false},ori-dead-code' | filecheck %s --check-prefix=EXT

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %d: !ori.r32) -> !ori.r32 {
    %x = ori.iadd3 %a, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y = ori.iadd3 %c, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.iadd3 -%a, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v = ori.iadd3 %u, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %twice = ori.iadd3 %a, %c, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t1 = ori.iadd3 %twice, %d, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %twice, %t1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %n = ori.iadd3 %b, %d, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %m = ori.iadd3 -%n, %t2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k = ori.iadd3 %d, 0x5, RZ : (!ori.r32) -> !ori.r32
    %kk = ori.iadd3 %k, 0x7, RZ : (!ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %v, %m, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %r0, %kk, %a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %r1 : !ori.r32
  }
}

// CHECK-LABEL: ori.func @f(
// CHECK:         %y = ori.iadd3 %a, %b, %c
// CHECK-NEXT:    %v = ori.iadd3 -%a, 0x10, %y
// CHECK-NEXT:    %twice = ori.iadd3 %a, %c, RZ
// CHECK-NEXT:    %t2 = ori.iadd3 %twice, %d, %twice
// CHECK-NEXT:    %n = ori.iadd3 %b, %d, RZ
// CHECK-NEXT:    %m = ori.iadd3 -%n, %t2, RZ
// CHECK-NEXT:    %k = ori.iadd3 %d, 0x5, RZ
// CHECK-NEXT:    %kk = ori.iadd3 %k, 0x7, RZ
// CHECK-NEXT:    %r0 = ori.iadd3 %v, %m, RZ

// EXT:     %r0 = ori.iadd3 -%n, %t2, %v

// REM: remark: @f: general-optimize {{.*}}[iadd3-merge=3]

// OFF:     %x = ori.iadd3 %a, %b, RZ
