builtin.module {
  ori.func @f() attributes {abi = #ori.abi<params = [4y4 align 4]>} {
    ori.ret
  }
}
