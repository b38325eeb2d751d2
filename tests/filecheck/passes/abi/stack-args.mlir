// RUN: ori-opt %s -p 'ori-abi' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{sink-definitions=false stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s
// (sink-definitions=false: the listings below pin values live across calls;
// passes/regalloc/sink_defs.py would compute some of them after the calls)

// Stack-passed arguments (passes/abi/stack_args.py): @last13 takes 13
// ints, the 13th goes to the stack (seed 003's parameter allocator: twelve
// parameter registers R4-R15) and the 64-bit %w after it too (no aligned
// pair left).  The kernel stores them right below its R1 and the CALL moves
// R1 down by the 16-byte area around the call (ptxas 13.0: IADD3 R1, R1,
// -0x8 and STL.64 [R1] before its CALL), so the callee, with no frame of
// its own, loads them at [R1] and [R1+0x8], each right before its first
// reader.  Neither side keeps them in registers: the callee's parameters
// and the CALL's operands for them are RZ (no instruction).  Not spill
// code: the kernel's frame is its 16 outgoing bytes, 0 bytes spill stores.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @last13(%a0: !ori.r32, %a1: !ori.r32, %a2: !ori.r32, %a3: !ori.r32, %a4: !ori.r32, %a5: !ori.r32, %a6: !ori.r32, %a7: !ori.r32, %a8: !ori.r32, %a9: !ori.r32, %a10: !ori.r32, %a11: !ori.r32, %a12: !ori.r32, %w: !ori.r64) -> !ori.r32 {
    %lo, %hi = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %a0, %a12, %lo : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.imad %s, %a11, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %t : !ori.r32
  }
  ori.func kernel @caller() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x3, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %q = ori.call @last13(%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %w) : (!ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r64) -> !ori.r32
    ori.stg [%a], %q : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// IR-LABEL: ori.func @last13
// IR-SAME:    %a12: !ori.r32<RZ>, %w: !ori.r64<RZ>)
// IR:         ori.ldl b64 [R1 + 0x8] {ori.abi_stack_arg = 8 : i32} : () -> !ori.r64
// IR:         %[[A12:.*]] = ori.ldl [R1] {ori.abi_stack_arg = 0 : i32} : () -> !ori.r32
// IR-NEXT:    ori.iadd3 %{{.*}}, %[[A12]], %{{.*}} :
// IR-LABEL: ori.func kernel @caller
// IR:         ori.stl [R1 - 0x10], %v12 {ori.abi_stack_arg = 0 : i32}
// IR-NEXT:    ori.stl b64 [R1 - 0x8], %w {ori.abi_stack_arg = 8 : i32}
// IR-NEXT:    %[[Z:.*]] = ori.mov RZ : () -> !ori.r32<RZ>
// IR-NEXT:    %[[ZZ:.*]] = ori.pack RZ, RZ : () -> !ori.r64<RZ>
// IR:         ori.call @last13({{.*}}, %[[Z]], %[[ZZ]]) {ori.abi_stack_out = 16 : i32,

// CHECK:      ptxas info    : Function properties for last13
// CHECK-NEXT:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK:      ptxas info    : Function properties for caller
// CHECK-NEXT:     16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-LABEL: .func last13(R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, RZ, RZ)
// CHECK-NEXT:  .L_x_0:
// CHECK:         LDL.64 [[W:R[0-9]+]], [R1+0x8] ;
// CHECK-NEXT:    LDL [[A12:R[0-9]+]], [R1] ;
// CHECK:         IADD3 R{{[0-9]+}}, R{{[0-9]+}}, [[A12]], [[W]] ;
// CHECK-LABEL: .entry caller
// CHECK:         STL [R1-0x10], [[V12:R[0-9]+]] ;
// CHECK-NEXT:    STL.64 [R1-0x8], [[WW:R[0-9]+]] ;
// CHECK-NEXT:    // MOV RZ, RZ ;  no instruction: in place
// CHECK-NEXT:    // PACK RZ, RZ, RZ ;  no instruction: in place
// CHECK:         IADD3 R1, R1, -0x10, RZ ;  // stack pointer: outgoing area
// CHECK-NEXT:    CALL.REL.NOINC `(last13) ;  // (R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, RZ, RZ) -> R4
// CHECK-NEXT:    IADD3 R1, R1, 0x10, RZ ;  // stack pointer
