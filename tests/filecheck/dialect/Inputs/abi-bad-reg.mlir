builtin.module {
  ori.func @f() attributes {abi = #ori.abi<first_param = X4>} {
    ori.ret
  }
}
