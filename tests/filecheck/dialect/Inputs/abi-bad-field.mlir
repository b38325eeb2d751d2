builtin.module {
  ori.func @f() attributes {abi = #ori.abi<bogus = 3>} {
    ori.ret
  }
}
