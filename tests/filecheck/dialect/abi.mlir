// RUN: ori-opt %s | filecheck %s
// RUN: ori-opt %s | ori-opt | filecheck %s
// RUN: ori-opt %s --print-op-generic | ori-opt | filecheck %s

// The calling-convention specification on ori.func (seed 003's per-callee
// specification): every field, printed back in the custom syntax, in the
// same order, and through the generic form.

// CHECK: ori.func @spec(%x: !ori.r32, %y: !ori.r64) -> !ori.r32 attributes {abi = #ori.abi<ret = regular R20, ret_before_params, first_param = R4, available = 12, reserved = R40-R47, reserve = 8, preserved = [R16-R19, R22-R31, P0-P1], scratch = [R0, R2-R15, UR4], suspend_scratch = [R16], coroutine, params = [1x4 align 4 @R4, 16x4 align 4 @stack+0x0], returns = [2x4 align 8 @R4], saved = [R16-R17]>}
// CHECK: ori.func @uniform() attributes {abi = #ori.abi<ret = uniform UR2>}
// CHECK: ori.func @computed() attributes {abi = #ori.abi<ret = computed, first_param = R5>}
builtin.module {
  ori.func @spec(%x: !ori.r32, %y: !ori.r64) -> !ori.r32 attributes {abi = #ori.abi<returns = [2x4 align 8 @R4], ret = regular R20, ret_before_params, first_param = R4, available = 12, reserved = R40-R47, reserve = 8, preserved = [R16-R19, R22-R31, P0-P1], scratch = [R0, R2-R15, UR4], suspend_scratch = [R16], coroutine, params = [1x4 align 4 @R4, 16x4 align 4 @stack+0x0], saved = [R16, R17]>} {
    ori.ret %x : !ori.r32
  }
  ori.func @uniform() attributes {abi = #ori.abi<ret = uniform UR2>} {
    ori.ret
  }
  ori.func @computed() attributes {abi = #ori.abi<first_param = R5, ret = computed>} {
    ori.ret
  }
}
