builtin.module {
  ori.func @f() attributes {abi = #ori.abi<ret = sideways R20>} {
    ori.ret
  }
}
