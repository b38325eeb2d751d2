builtin.module {
  ori.func @f() attributes {abi = #ori.abi<ret = regular R20, ret = fixed>} {
    ori.ret
  }
}
