// RUN: ori-opt %s --split-input-file --verify-diagnostics -p 'ori-abi' 2>/dev/null | filecheck %s --check-prefix=ERR
// RUN: ori-opt %s --split-input-file --verify-diagnostics -p 'ori-abi' 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: not ori-opt %s --split-input-file -p 'ori-abi{return-address-mode=sideways}' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: not ori-opt %s --split-input-file -p 'ori-abi{first-param-register=300}' 2>&1 | filecheck %s --check-prefix=OPT2

// Every diagnostic of seed 003's "Complete Warning Catalog" ori can meet,
// one chunk each, with the seed's code and text.  Errors (the specification
// cannot be realised) stop the chunk; warnings let the pass go on.

// ERR: @ra_odd: error 7001: ABI return address 21 is unaligned
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_odd(%x: !ori.r32) attributes {abi = #ori.abi<ret = regular R21>} {
    ori.ret
  }
}

// -----
// ERR: @ra_high: error 7002: Return Address (40) should be less than 32
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_high(%x: !ori.r32) attributes {maxnreg = 32 : i32, abi = #ori.abi<ret = regular R40>} {
    ori.ret
  }
}

// -----
// ERR: @ra_sp: error 7003: Return address (0) should not overlap with the stack pointer (1)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_sp(%x: !ori.r32) attributes {abi = #ori.abi<ret = regular R0>} {
    ori.ret
  }
}

// -----
// ERR: @ra_params: error 7004: Return Address 6 overlaps with parameters in range 4 - 7
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_params(%x: !ori.r32, %y: !ori.r64) attributes {abi = #ori.abi<ret = regular R6>} {
    ori.ret
  }
}

// -----
// ERR: @ra_over: error 7005: With specified parameters, return address is 24 registers and exceeds specified max reg (24)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_over(%x: !ori.r32) attributes {maxnreg = 24 : i32, abi = #ori.abi<ret = computed, first_param = R22, available = 2>} {
    ori.ret
  }
}

// -----
// ERR: @ra_both: error 7006: ABI allows either specifying return address or return address before params
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_both(%x: !ori.r32) attributes {abi = #ori.abi<ret = fixed R8>} {
    ori.ret
  }
}

// -----
// ERR: @ra_range: error 7008: Return address (70) should be between 0 and 61
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_range(%x: !ori.r32) attributes {abi = #ori.abi<ret = uniform UR70>} {
    ori.ret
  }
}

// -----
// ERR: @ra_uniform: error 7009: SM does not support uniform registers for return address
builtin.module attributes {ori.target = "sm_70"} {
  ori.func @ra_uniform(%x: !ori.r32) attributes {abi = #ori.abi<ret = uniform>} {
    ori.ret
  }
}

// -----
// WARN: ori-abi: @no_pair: warning 7010: Relative 32-bit return address requires a caller-save 64-bit scratch register pair
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @leaf() {
    ori.ret
  }
  ori.func @no_pair() attributes {abi = #ori.abi<scratch = [R5, R7]>} {
    ori.call @leaf() : () -> ()
    ori.ret
  }
}

// -----
// WARN: ori-abi: @coro: remark: coroutine SUSPEND/RESUME lowering and the coroutine frame are not modelled (only the 7011 classification check runs)
// WARN: ori-abi: @coro: warning 7011: Register (R16)is defined as scratch on SUSPEND but preserved for coroutine function
// WARN: ori-abi: @coro: warning 7011: Register (R17)is defined as scratch on SUSPEND but preserved for coroutine function
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @coro() attributes {abi = #ori.abi<coroutine, suspend_scratch = [R16-R17, R40]>} {
    ori.ret
  }
}

// -----
// WARN: ori-abi: @ra_scratch: warning 7012: 20 register should not be classified as scratch
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ra_scratch() attributes {abi = #ori.abi<scratch = [R0, R2-R15, R20-R21]>} {
    ori.ret
  }
}

// -----
// WARN: ori-abi: @ret_preserved: warning 7013: 4 register used to return value cannot be classified as preserved
// WARN: ori-abi: @ret_preserved: warning 7013: 5 register used to return value cannot be classified as preserved
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @ret_preserved(%x: !ori.r64) -> !ori.r64 attributes {abi = #ori.abi<preserved = [R4-R7, R16-R31]>} {
    ori.ret %x : !ori.r64
  }
}

// -----
// ERR: @res_params: error 7014: Reserved register range 4 - 5 overlaps with parameters in range 4 - 4
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @res_params(%x: !ori.r32) attributes {abi = #ori.abi<reserved = R4-R5>} {
    ori.ret
  }
}

// -----
// ERR: @res_ra: error 7015: Reserved register range 18 - 21 overlaps with retAddr 20
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @res_ra() attributes {abi = #ori.abi<reserved = R18-R21>} {
    ori.ret
  }
}

// -----
// WARN: ori-abi: @low: warning 7016: regcount 16 specified below abi_minimum of 24
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @low() attributes {maxnreg = 16 : i32} {
    ori.ret
  }
}

// -----
// WARN: ori-abi: @reserve: warning 7017: register available 2 for reservation is less than the requested number of registers 8
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @reserve() attributes {maxnreg = 32 : i32, abi = #ori.abi<reserved = R30-R31, reserve = 8>} {
    ori.ret
  }
}

// -----
// ERR: @big_ret: Function big_ret size requires more registers(4) than available(2)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @big_ret(%x: !ori.r128) -> !ori.r128 attributes {abi = #ori.abi<available = 2>} {
    ori.ret %x : !ori.r128
  }
}

// -----
// sm_100 and later skip the minimum check (generation above 9): 22 stays
// (and at 16 the return address R20 would be 7002).
builtin.module attributes {ori.target = "sm_100"} {
  // ERR: ori.func @blackwell
  // WARN-NOT: 7016
  ori.func @blackwell() attributes {maxnreg = 22 : i32} {
    ori.ret
  }
}

// Bad option values are one diagnostic too.
// OPT: ori-abi: return-address-mode must be one of fixed, regular, uniform, computed, got 'sideways'
// OPT2: ori-abi: first-param-register must be -1..255, got 300
