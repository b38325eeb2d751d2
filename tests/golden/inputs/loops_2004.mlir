builtin.module attributes {ori.target = "sm_100"} {
  ori.func kernel @loops2004() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.lop3 %3, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %10 = ori.mov 0x0 : () -> !ori.r32
    %11 = ori.iadd3 %10, 0x1, RZ : (!ori.r32) -> !ori.r32
    %12 = ori.isetp le.u32 %11, %9, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %12 : !ori.p, ^bb1(%10 : !ori.r32, %3 : !ori.r32), ^bb2(%10 : !ori.r32, %3 : !ori.r32)
  ^bb1(%13: !ori.r32, %14: !ori.r32):
    %15 = ori.lop3 %13, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %16 = ori.imad wide.u32 %15, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %17 = ori.ldg [%16] : (!ori.r64) -> !ori.r32
    %18 = ori.iadd3 %14, %17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.iadd3 %18, %13, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.iadd3 %13, 0x1, RZ : (!ori.r32) -> !ori.r32
    %21 = ori.isetp ne.u32 %20, %9, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if not %21 : !ori.p, ^bb2(%20 : !ori.r32, %19 : !ori.r32), ^bb1(%20 : !ori.r32, %19 : !ori.r32)
  ^bb2(%22: !ori.r32, %23: !ori.r32):
    %24 = ori.mov -0x61c88647 : () -> !ori.r32
    %25 = ori.iadd3 %24, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.shf l.w %25, 0x7, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.lop3 %26, %22, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.shf l.w %27, 0x7, %27 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.iadd3 %28, %23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.shf l.w %29, 0x7, %29 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %30 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
