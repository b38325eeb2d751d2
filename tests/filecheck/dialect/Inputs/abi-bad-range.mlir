builtin.module {
  ori.func @f() attributes {abi = #ori.abi<reserved = R8-R4>} {
    ori.ret
  }
}
