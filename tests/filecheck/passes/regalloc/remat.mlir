// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false max-regs=16 stats=true},ori-check-regalloc' 2>&1 | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false max-regs=16 stats=true remat-enable=false},ori-check-regalloc' 2>&1 | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=16 stats=true strategy=ssa},ori-check-regalloc' 2>&1 | filecheck %s --check-prefix=SSA
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=16 stats=true strategy=ssa remat-enable=false},ori-check-regalloc' 2>&1 | filecheck %s --check-prefix=SSA-OFF
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false max-regs=16 stats=true},ori-check-regalloc' -t ori-asm 2>/dev/null | filecheck %s --check-prefix=ASM
// (sink-definitions=false: these inputs overflow a register file on purpose; moving
// definitions to their readers, passes/regalloc/sink_defs.py, would relieve them)

// The allocator's own rematerialization (remat-enable, seed 002's
// RematEnable): 12 constants (MOV of an immediate, an LDC, a negated
// constant-bank operand) and 8 loaded values are live at once, more than
// max-regs 16 leaves.  The constants read no register, so the allocator
// recomputes them before each use instead of storing and reloading them:
// the loaded values stay in registers and nothing goes to local memory.
// With remat-enable=false the same pressure is met with STL/LDL.  The ssa
// strategy's pre-spiller does the same with the values it evicts.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @consts() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %c0 = ori.mov 0x1000 : () -> !ori.r32
    %c1 = ori.mov 0x1011 : () -> !ori.r32
    %c2 = ori.mov 0x1022 : () -> !ori.r32
    %c3 = ori.mov 0x1033 : () -> !ori.r32
    %c4 = ori.mov 0x1044 : () -> !ori.r32
    %c5 = ori.mov 0x1055 : () -> !ori.r32
    %c6 = ori.mov 0x1066 : () -> !ori.r32
    %c7 = ori.mov 0x1077 : () -> !ori.r32
    %c8 = ori.mov 0x1088 : () -> !ori.r32
    %c9 = ori.mov 0x1099 : () -> !ori.r32
    %c10 = ori.ldc 0x0, [RZ + 0x4] : () -> !ori.r32
    %c11 = ori.iadd3 RZ, -c[0x0][0x8], RZ : () -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %s0 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.lop3 %s6, %c0, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.lop3 %s7, %c1, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.lop3 %s8, %c2, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.lop3 %s9, %c3, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.lop3 %s10, %c4, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.lop3 %s11, %c5, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.lop3 %s12, %c6, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.lop3 %s13, %c7, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.lop3 %s14, %c8, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.lop3 %s15, %c9, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.lop3 %s16, %c10, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.lop3 %s17, %c11, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %c0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %c1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %c2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %c3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %c4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %c5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %c6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %c7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %c8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %c9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %c10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %c11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x0], %s30 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK: ori-regalloc: @consts: remark: rematerialized 8 values instead of spilling (remat-enable)
// CHECK: 8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
// CHECK: Used 16 registers

// OFF-NOT: rematerialized
// OFF: 48 bytes stack frame, 44 bytes spill stores, 92 bytes spill loads
// OFF: Used 15 registers

// SSA: remark: rematerialized 8 values instead of spilling (remat-enable)
// SSA: 8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
// SSA-OFF-NOT: rematerialized
// SSA-OFF: 40 bytes stack frame, 40 bytes spill stores, 72 bytes spill loads

// Each use reads its own copy, placed right before it, like a reload; only
// the 64-bit address goes to local memory.
// ASM: STL.64 [RZ], R{{[0-9]+}}
// ASM-NOT: STL
// ASM: MOV R{{[0-9]+}}, 0x1000
// ASM-NOT: STL
// ASM: MOV R{{[0-9]+}}, 0x1000
// ASM-NOT: STL
