// Verifier errors, one per chunk, each with the failing op's position.
// RUN: ori-opt %s --split-input-file --verify-diagnostics | filecheck %s

ori.func @wrong_file(%p: !ori.p) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.iadd3: operand 'a' must be ori.r32; got !ori.p
  %0 = ori.iadd3 %p, 0x1, RZ : (!ori.p) -> !ori.r32
  ori.ret
}

// -----

ori.func @misaligned() {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:29
  // CHECK: misaligned register R5 for ori.r64: a 64-bit value needs a base register that is a multiple of 2
  %0 = ori.cs2r SRZ : () -> !ori.r64<R5>
  ori.ret
}

// -----

ori.func @misaligned_quad(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:42
  // CHECK: misaligned register R6 for ori.r128
  %0 = ori.ldl b128 [%a] : (!ori.r32) -> !ori.r128<R6>
  ori.ret
}

// -----

ori.func @guard_without_prior(%a: !ori.r32, %p: !ori.p) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.iadd3: a guarded instruction needs one tied prior value per result (1), got 0
  %0 = ori.iadd3 %a, 0x1, RZ if %p : (!ori.r32, !ori.p) -> !ori.r32
  ori.ret
}

// -----

ori.func @prior_type(%a: !ori.r32, %p: !ori.p, %w: !ori.r64) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.iadd3: tied prior value has type !ori.r64, but the result it stands for has type !ori.r32
  %0 = ori.iadd3 %a, 0x1, RZ if %p else %w : (!ori.r32, !ori.p, !ori.r64) -> !ori.r32
  ori.ret
}

// -----

ori.func @no_terminator(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: Operation ori.iadd3 terminates block in single-block region but is not a terminator
  %0 = ori.iadd3 %a, 0x1, RZ : (!ori.r32) -> !ori.r32
}

// -----

ori.func @no_terminator_multi(%a: !ori.r32) {
  ori.bra ^bb1
^bb1:
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: Operation ori.iadd3 terminates block in multi-block region but is not a terminator
  %0 = ori.iadd3 %a, 0x1, RZ : (!ori.r32) -> !ori.r32
}

// -----

ori.func @edge_count(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.bra: taken edge passes 0 block arguments but its successor expects 1
  ori.bra ^bb1
^bb1(%x: !ori.r32):
  ori.ret
}

// -----

ori.func @edge_type(%a: !ori.r32, %p: !ori.p) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.bra: fall-through edge block argument #0 has type !ori.r32, but the successor's argument has type !ori.r64
  ori.bra if %p : !ori.p, ^bb2, ^bb1(%a : !ori.r32)
^bb1(%x: !ori.r64):
  ori.ret
^bb2:
  ori.ret
}

// -----

// The custom syntax rejects an unknown modifier while parsing (see
// cli/diagnostics.mlir); in the generic form it is the verifier's job.
ori.func @unknown_mod(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.iadd3: unknown modifier 'bogus'; expected one of x
  %0 = "ori.iadd3"(%a) <{mods = "bogus", consts = {b = 1 : i32, c = !ori.r32<RZ>}, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 2]]:1
// CHECK: ori.func @kernel_ret: a kernel ends with ori.exit, not ori.ret
ori.func kernel @kernel_ret() {
  ori.ret
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 2]]:1
// CHECK: ori.func @entry_target: the entry block cannot be a branch target (give the loop its own header)
ori.func kernel @entry_target() {
^entry:
  %0 = ori.mov 0x0 : () -> !ori.r32
  ori.bra ^entry
}

// -----

ori.func @bad_call(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.call: no ori.func named @nowhere
  %0 = ori.call @nowhere(%a) : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

ori.func kernel @launched() {
  ori.exit
}
ori.func @calls_kernel() {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.call: @launched is a kernel entry and cannot be called
  ori.call @launched() : () -> ()
  ori.ret
}

// -----

ori.func @callee(%a: !ori.r32) -> !ori.r32 {
  ori.ret %a : !ori.r32
}
ori.func @wrong_signature(%p: !ori.p) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.call: call to @callee has type (!ori.p) -> !ori.r32 but the function has type (!ori.r32) -> !ori.r32
  %0 = ori.call @callee(%p) : (!ori.p) -> !ori.r32
  ori.ret
}

// -----

ori.func @frame_size_unaligned() {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.frame_enter: the frame size must be a positive multiple of 16, got 8
  ori.frame_enter 0x8 : () -> ()
  ori.ret
}

// -----

// The stack pointer R1 is a base only for a local access (ops/frame.py).
ori.func @sp_outside_local() {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.lds: operand 'addr' cannot be R1 (only a local access's address takes the stack pointer)
  %0 = ori.lds [R1 + 0x4] : () -> !ori.r32
  ori.ret
}

// -----

ori.func @lea_sx32_shift(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.lea_hi_sx32: shift amount must be in 0..31
  %0 = ori.lea_hi_sx32 %a, RZ, 0x20 : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

ori.func @lea_sx32_carry(%a: !ori.r32) {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.lea_hi_sx32: the 'x' form takes the carry 'ci', others do not
  %0 = ori.lea_hi_sx32 x %a, RZ, 0x1 : (!ori.r32) -> !ori.r32
  ori.ret
}
