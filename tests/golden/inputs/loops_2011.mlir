builtin.module attributes {ori.target = "sm_100"} {
  ori.func kernel @loops2011() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.lop3 %0, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %10 = ori.mov 0x0 : () -> !ori.r32
    %11 = ori.iadd3 %10, 0x1, RZ : (!ori.r32) -> !ori.r32
    %12 = ori.isetp le.u32 %11, %9, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %12 : !ori.p, ^bb1(%10 : !ori.r32, %3 : !ori.r32), ^bb2(%10 : !ori.r32, %3 : !ori.r32)
  ^bb1(%13: !ori.r32, %14: !ori.r32):
    %15 = ori.iadd3 %14, %13, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.lop3 %13, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %17 = ori.imad wide.u32 %16, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %18 = ori.ldg [%17] : (!ori.r64) -> !ori.r32
    %19 = ori.iadd3 %15, %18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.imad %19, 0x4f, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.lop3 %20, %13, %3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.iadd3 %13, 0x1, RZ : (!ori.r32) -> !ori.r32
    %23 = ori.isetp ne.u32 %22, %9, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %23 : !ori.p, ^bb1(%22 : !ori.r32, %21 : !ori.r32), ^bb2(%22 : !ori.r32, %21 : !ori.r32)
  ^bb2(%24: !ori.r32, %25: !ori.r32):
    %26 = ori.mov -0x10 : () -> !ori.r32
    ori.bra ^bb3(%26 : !ori.r32, %0 : !ori.r32)
  ^bb3(%27: !ori.r32, %28: !ori.r32):
    %29 = ori.iadd3 %28, %27, %25 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.imad %29, 0x45, %27 : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.iadd3 %27, 0x4, RZ : (!ori.r32) -> !ori.r32
    %32 = ori.isetp ne.u32 %31, 0x14, PT : (!ori.r32) -> !ori.p
    ori.bra if %32 : !ori.p, ^bb3(%31 : !ori.r32, %30 : !ori.r32), ^bb4(%31 : !ori.r32, %30 : !ori.r32)
  ^bb4(%33: !ori.r32, %34: !ori.r32):
    %35 = ori.mov -0x61c88647 : () -> !ori.r32
    %36 = ori.iadd3 %35, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.shf l.w %36, 0x7, %36 : (!ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.lop3 %37, %24, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.shf l.w %38, 0x7, %38 : (!ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.iadd3 %39, %25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.shf l.w %40, 0x7, %40 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.lop3 %41, %33, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.shf l.w %42, 0x7, %42 : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.iadd3 %43, %34, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.shf l.w %44, 0x7, %44 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %45 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
