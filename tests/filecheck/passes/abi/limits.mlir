// RUN: ori-opt %s --split-input-file -p 'ori-abi{remarks=true}' 2>&1 | filecheck %s

// Seed 003's "ABI Register Limit Propagation": on generations 4 and 5
// (sm_50..sm_89) a callee without an ABI specification of its own runs
// under its caller's register limit (the smallest of its callers'); a
// callee with an explicit #ori.abi keeps its own; sm_90 (generation 9)
// propagates nothing.

// CHECK: ori-abi: @leaf: remark: register limit 40 inherited from its callers (seed 003 limit propagation)
// CHECK-NOT: @own: remark: register limit
// CHECK: ori.func @leaf
// CHECK-SAME: ori.abi_max_regs = 40
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @leaf(%x: !ori.r32) -> !ori.r32 {
    ori.ret %x : !ori.r32
  }
  ori.func @own(%x: !ori.r32) -> !ori.r32 attributes {abi = #ori.abi<available = 12>} {
    ori.ret %x : !ori.r32
  }
  ori.func kernel @k40() attributes {maxnreg = 40 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %r = ori.call @leaf(%t) : (!ori.r32) -> !ori.r32
    %s = ori.call @own(%r) : (!ori.r32) -> !ori.r32
    ori.exit
  }
  ori.func kernel @k64() attributes {maxnreg = 64 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %r = ori.call @leaf(%t) : (!ori.r32) -> !ori.r32
    ori.exit
  }
}

// -----
// CHECK-NOT: inherited
// CHECK: ori.func @leaf90
// CHECK-NOT: ori.abi_max_regs
builtin.module attributes {ori.target = "sm_90"} {
  ori.func @leaf90(%x: !ori.r32) -> !ori.r32 {
    ori.ret %x : !ori.r32
  }
  ori.func kernel @k90() attributes {maxnreg = 40 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %r = ori.call @leaf90(%t) : (!ori.r32) -> !ori.r32
    ori.exit
  }
}
