// Stock xdsl-opt sees the ori dialect, the ori passes and the ori-asm target
// through the xdsl.universe entry point.
// RUN: env COLUMNS=10000 xdsl-opt --help | filecheck %s --check-prefix=HELP
// RUN: xdsl-opt %s -p ori-print-loops | filecheck %s --check-prefix=LOOPS
// RUN: xdsl-opt %s -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.exit
  }
}

// HELP: Available targets are: {{.*}}ori-asm
// HELP: Available passes are: {{.*}}ori-print-loops
// HELP-SAME: ori-print-liveness
// LOOPS: loops in @k:
// LOOPS: builtin.module attributes {ori.target = "sm_80"}
// ASM: .entry k  // target sm_80
// ASM: ISETP.LT.U32.AND %p0, PT, %r2, 0x40, PT ;
// ASM: @%p0 BRA .L_x_1 ;  // .L_x_1(%r1 <- %r2)
