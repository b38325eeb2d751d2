// Verifier errors of the warp reductions and matches, BPT and BRX, one per
// chunk.
// RUN: ori-opt %s --split-input-file --verify-diagnostics | filecheck %s

ori.func @redux_signed_bitwise(%a: !ori.r32) {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.redux: a bitwise reduction has no signedness (use the default u32)
  %0 = ori.redux xor.s32 %a, -0x1 : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

ori.func @redux_predicate_result(%a: !ori.r32) {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.redux: result 'd' must be
  %0 = ori.redux sum %a, -0x1 : (!ori.r32) -> !ori.p
  ori.ret
}

// -----

ori.func @match_width(%a: !ori.r32) {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.match: u64 compares a 64-bit register, u32 a 32-bit one
  %0 = ori.match any.u64 %a, -0x1 : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

ori.func @match_any_predicate(%a: !ori.r32) {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.match: only match all has a predicate result
  %0, %1 = ori.match any %a, -0x1 : (!ori.r32) -> (!ori.r32, !ori.p)
  ori.ret
}

// -----

ori.func @bpt_code() {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.bpt: the trap code must be in 0..0xfffff
  ori.bpt trap 0x100000 : () -> ()
  ori.ret
}

// -----

ori.func @brx_block_args(%a: !ori.r32) {
  // CHECK: warp-ops-invalid.mlir:[[# @LINE + 2]]:3
  // CHECK: ori.brx: target #1 takes block arguments
  ori.brx %a : !ori.r32, [^bb1, ^bb2]
^bb1:
  ori.ret
^bb2(%x: !ori.r32):
  ori.ret
}
