builtin.module attributes {ori.target = "sm_100"} {
  ori.func kernel @loops2002() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x13 : () -> !ori.r32
    %10 = ori.isetp ne.u32 %9, %9, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %10 : !ori.p, ^bb1(%9 : !ori.r32, %0 : !ori.r32), ^bb2(%9 : !ori.r32, %0 : !ori.r32)
  ^bb1(%11: !ori.r32, %12: !ori.r32):
    %13 = ori.lop3 %11, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %14 = ori.imad wide.u32 %13, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %15 = ori.ldg [%14] : (!ori.r64) -> !ori.r32
    %16 = ori.iadd3 %12, %15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %17 = ori.lop3 %11, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %18 = ori.imad wide.u32 %17, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %19 = ori.ldg [%18] : (!ori.r64) -> !ori.r32
    %20 = ori.iadd3 %16, %19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.iadd3 %20, %11, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.mov 0x18 : () -> !ori.r32
    ori.bra ^bb3(%22 : !ori.r32, %21 : !ori.r32)
  ^bb2(%23: !ori.r32, %24: !ori.r32):
    %25 = ori.mov -0x61c88647 : () -> !ori.r32
    %26 = ori.iadd3 %25, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.shf l.w %26, 0x7, %26 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.lop3 %27, %23, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.shf l.w %28, 0x7, %28 : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.iadd3 %29, %24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.shf l.w %30, 0x7, %30 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %31 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb3(%32: !ori.r32, %33: !ori.r32):
    %34 = ori.lop3 %32, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %35 = ori.imad wide.u32 %34, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %36 = ori.ldg [%35] : (!ori.r64) -> !ori.r32
    %37 = ori.iadd3 %33, %36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.iadd3 %32, 0x2, RZ : (!ori.r32) -> !ori.r32
    %39 = ori.isetp lt.u32 %38, 0x1a, PT : (!ori.r32) -> !ori.p
    ori.bra if %39 : !ori.p, ^bb3(%38 : !ori.r32, %37 : !ori.r32), ^bb4(%38 : !ori.r32, %37 : !ori.r32)
  ^bb4(%40: !ori.r32, %41: !ori.r32):
    %42 = ori.iadd3 %21, %41, %40 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.iadd3 %11, -0x1, RZ : (!ori.r32) -> !ori.r32
    %44 = ori.isetp gt %43, 0x12, PT : (!ori.r32) -> !ori.p
    ori.bra if %44 : !ori.p, ^bb1(%43 : !ori.r32, %42 : !ori.r32), ^bb2(%43 : !ori.r32, %42 : !ori.r32)
  }
}
