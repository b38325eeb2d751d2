// A CUDA device runtime function (vprintf, malloc, free, __assertfail)
// overwrites R0-R15 and its return address alone (targets/descriptor.py
// abi_runtime_scratch): ptxas 13.0 keeps a kernel's values live across
// printf in R16-R19 and R22 upwards, without spilling (40 loaded words:
// R16-R58).  Twenty words live across the call: none spilled, and the
// ones past the 15 registers an unknown callee preserves (R2, R16-R19,
// R22-R31: tests/passes/regalloc/test_runtime_clobbers.py) take R32 and up.
// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s

// CHECK:       0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT:   STL
// CHECK:       LDG.E R3{{[2-9]}}
// CHECK:       CALL.ABS.NOINC `(vprintf)
// CHECK-NOT:   LDL
builtin.module attributes {ori.target = "sm_80"} {
  ori.runtime_func @vprintf : (!ori.r64, !ori.r64) -> !ori.r32
  ori.func kernel @across() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %f = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %n = ori.call @vprintf(%f, %a) : (!ori.r64, !ori.r64) -> !ori.r32
    %s0 = ori.lop3 %n, %v0, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.lop3 %s0, %v1, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.lop3 %s1, %v2, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.lop3 %s2, %v3, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.lop3 %s3, %v4, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.lop3 %s4, %v5, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.lop3 %s5, %v6, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.lop3 %s6, %v7, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.lop3 %s7, %v8, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.lop3 %s8, %v9, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.lop3 %s9, %v10, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.lop3 %s10, %v11, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.lop3 %s11, %v12, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.lop3 %s12, %v13, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.lop3 %s13, %v14, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.lop3 %s14, %v15, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.lop3 %s15, %v16, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.lop3 %s16, %v17, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.lop3 %s17, %v18, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.lop3 %s18, %v19, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s19 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
