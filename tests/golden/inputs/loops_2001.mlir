builtin.module attributes {ori.target = "sm_100"} {
  ori.func kernel @loops2001() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x27 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %0 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.iadd3 %11, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.lop3 %12, %10, %3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.imad %13, 0x55, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %16 = ori.imad wide.u32 %15, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %17 = ori.ldg [%16] : (!ori.r64) -> !ori.r32
    %18 = ori.iadd3 %14, %17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.iadd3 %10, 0x2, RZ : (!ori.r32) -> !ori.r32
    %20 = ori.isetp ne %19, 0x29, PT : (!ori.r32) -> !ori.p
    ori.bra if %20 : !ori.p, ^bb1(%19 : !ori.r32, %18 : !ori.r32), ^bb2(%19 : !ori.r32, %18 : !ori.r32)
  ^bb2(%21: !ori.r32, %22: !ori.r32):
    %23 = ori.mov -0x61c88647 : () -> !ori.r32
    %24 = ori.iadd3 %23, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.shf l.w %24, 0x7, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.lop3 %25, %21, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.shf l.w %26, 0x7, %26 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.iadd3 %27, %22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.shf l.w %28, 0x7, %28 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %29 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
