// ori-cse's constant window (passes/cse.py, "Partial"): a constant merges
// only with a copy at most constant-window instructions before it in its
// block; a copy further away stays and later copies merge into it.  Other
// ops merge at any distance.
// RUN: ori-opt %s -p 'ori-cse{constant-window=3}' | filecheck %s
// RUN: ori-opt %s -p 'ori-cse{constant-window=0}' | filecheck %s --check-prefix=ALL
// RUN: not ori-opt %s -p 'ori-cse{constant-window=-1}' 2>&1 | filecheck %s --check-prefix=BAD

// CHECK-LABEL: ori.func kernel @window(
// CHECK-NEXT:    %a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %k1 = ori.mov 0x3ff00000
// CHECK-NEXT:    %s1 = ori.iadd3 %x, %x, RZ
// 2 instructions after %k1: merged
// CHECK-NEXT:    %t1 = ori.iadd3 %s1, %k1, RZ
// CHECK-NEXT:    %t2 = ori.iadd3 %t1, %x, RZ
// CHECK-NEXT:    %t3 = ori.iadd3 %t2, %x, RZ
// CHECK-NEXT:    %t4 = ori.iadd3 %t3, %x, RZ
// 6 instructions after %k1: kept, and the copy after it merges into it
// CHECK-NEXT:    %k3 = ori.mov 0x3ff00000
// the sum repeats at any distance
// CHECK-NEXT:    %u = ori.iadd3 %t4, %k3, %s1
// CHECK-NEXT:    %v = ori.iadd3 %u, %k3, RZ
// CHECK-NEXT:    ori.stg [%a], %v
// CHECK-NEXT:    ori.exit

// ALL-LABEL: ori.func kernel @window(
// ALL:           %k1 = ori.mov 0x3ff00000
// ALL-NOT:       ori.mov
// ALL:           %u = ori.iadd3 %t4, %k1, %s1
// ALL-NEXT:      %v = ori.iadd3 %u, %k1, RZ

// BAD: ori-cse: constant-window must be >= 0, got -1
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @window() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.mov 0x3ff00000 : () -> !ori.r32
    %s1 = ori.iadd3 %x, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.mov 0x3ff00000 : () -> !ori.r32
    %t1 = ori.iadd3 %s1, %k2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t1, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t3 = ori.iadd3 %t2, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t4 = ori.iadd3 %t3, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k3 = ori.mov 0x3ff00000 : () -> !ori.r32
    %s2 = ori.iadd3 %x, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.iadd3 %t4, %k3, %s2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %k4 = ori.mov 0x3ff00000 : () -> !ori.r32
    %v = ori.iadd3 %u, %k4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
