builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    ori.exit
  }
}
