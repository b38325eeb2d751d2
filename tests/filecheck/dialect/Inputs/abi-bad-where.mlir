builtin.module {
  ori.func @f() attributes {abi = #ori.abi<params = [1x4 align 4 @Q3]>} {
    ori.ret
  }
}
