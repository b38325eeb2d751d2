// RUN: ori-opt %s --split-input-file -p 'ori-abi{lower-calls=false}' | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-abi{lower-calls=false remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Seed 003's parameter allocator: contiguous runs at the register alignment
// min(align, 16) / 4 from the first parameter register, gaps skipped,
// parameters then returns as separate classes (the return starts at R4
// again, as ptxas 13.0 returns), the rest on the stack.

// Alignment: ptxas 13.0's own layout of wide(long long, double, int,
// float4) is R4, R6, R8, R12 (the 16-byte value at the next multiple of 4).
// CHECK-LABEL: ori.func @align
// CHECK-SAME: params = [2x4 align 8 @R4, 2x4 align 8 @R6, 1x4 align 4 @R8, 4x4 align 16 @R12], returns = [2x4 align 8 @R4]
// REMARK: ori-abi: @align: remark: ABI: return address regular R20; params #0 8B in R4, #1 8B in R6, #2 4B in R8, #3 16B in R12; returns #0 8B in R4; preserved [R2, R16-R19, R22-R31]
// Back-fill: the scan is first fit, so a word after a pair fills the hole
// the pair's alignment left (R5).
// CHECK-LABEL: ori.func @backfill
// CHECK-SAME: params = [1x4 align 4 @R4, 2x4 align 8 @R6, 1x4 align 4 @R5, 4x4 align 16 @R8]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @align(%a: !ori.r64, %b: !ori.r64, %c: !ori.r32, %d: !ori.r128) -> !ori.r64 {
    ori.ret %b : !ori.r64
  }
  ori.func @backfill(%a: !ori.r32, %b: !ori.r64, %c: !ori.r32, %d: !ori.r128) {
    ori.ret
  }
}

// -----
// A gap: the fixed mode puts the return address at first_param + 2 (R6,
// R7), the 32-bit parameters fill R4 and R5, the pair jumps past the gap
// to R8 and the next word lands in R10.
// CHECK-LABEL: ori.func @gap
// CHECK-SAME: ret = fixed R6
// CHECK-SAME: params = [1x4 align 4 @R4, 1x4 align 4 @R5, 2x4 align 8 @R8, 1x4 align 4 @R10]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @gap(%a: !ori.r32, %b: !ori.r32, %c: !ori.r64, %d: !ori.r32) attributes {abi = #ori.abi<ret_before_params>} {
    ori.ret
  }
}

// -----
// An odd first parameter register: the pair rounds the absolute register up
// (the seed's negative-mask trick is applied to base + offset), R5 stays free
// for the next word.
// CHECK-LABEL: ori.func @odd_base
// CHECK-SAME: params = [2x4 align 8 @R6, 1x4 align 4 @R5]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @odd_base(%a: !ori.r64, %b: !ori.r32) attributes {abi = #ori.abi<first_param = R5>} {
    ori.ret
  }
}

// -----
// Twelve parameter registers (R4-R15): the 13th word and a 64-byte
// aggregate go to the stack at their natural alignment; a word after the
// aggregate still finds R4 free, as ptxas puts sum_big(Big, int)'s int in R4.
// CHECK-LABEL: ori.func @spill_params
// CHECK-SAME: params = [16x4 align 4 @stack+0x0, 1x4 align 4 @R4]
// CHECK-LABEL: ori.func @thirteen
// CHECK-SAME: 1x4 align 4 @R15, 1x4 align 4 @stack+0x0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @spill_params(%big: !ori.r128, %k: !ori.r32) attributes {params = [#ori.param<64, align 4>, #ori.param<4, align 4>]} {
    ori.ret
  }
  ori.func @thirteen(%a0: !ori.r32, %a1: !ori.r32, %a2: !ori.r32, %a3: !ori.r32, %a4: !ori.r32, %a5: !ori.r32, %a6: !ori.r32, %a7: !ori.r32, %a8: !ori.r32, %a9: !ori.r32, %a10: !ori.r32, %a11: !ori.r32, %a12: !ori.r32) {
    ori.ret
  }
}

// -----
// A computed return address goes after the last parameter register, at an
// even register: parameters R4, R8-R11, R5, so R12.
// CHECK-LABEL: ori.func @computed
// CHECK-SAME: ret = computed R12
// CHECK-SAME: params = [1x4 align 4 @R4, 4x4 align 16 @R8, 1x4 align 4 @R5]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @computed(%a: !ori.r32, %b: !ori.r128, %c: !ori.r32) attributes {abi = #ori.abi<ret = computed>} {
    ori.ret
  }
}
