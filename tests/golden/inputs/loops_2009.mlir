builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @loops2009() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x228] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x22c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x5d : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %3 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.iadd3 %11, %10, %7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.lop3 %12, %10, %7, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.imad %13, 0x5f, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.iadd3 %14, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.iadd3 %10, -0x1, RZ : (!ori.r32) -> !ori.r32
    %17 = ori.isetp gt %16, 0x5c, PT : (!ori.r32) -> !ori.p
    %18 = ori.plop3 %17, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %18 : !ori.p, ^bb2(%16 : !ori.r32, %15 : !ori.r32), ^bb1(%16 : !ori.r32, %15 : !ori.r32)
  ^bb2(%19: !ori.r32, %20: !ori.r32):
    %21 = ori.iadd3 %6, -0x1, RZ : (!ori.r32) -> !ori.r32
    %22 = ori.isetp gt %21, 0x1, PT : (!ori.r32) -> !ori.p
    ori.bra if %22 : !ori.p, ^bb3(%6 : !ori.r32, %0 : !ori.r32), ^bb4(%6 : !ori.r32, %0 : !ori.r32)
  ^bb3(%23: !ori.r32, %24: !ori.r32):
    ori.pragma "nounroll"
    %25 = ori.lop3 %23, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %26 = ori.imad wide.u32 %25, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %27 = ori.ldg [%26] : (!ori.r64) -> !ori.r32
    %28 = ori.iadd3 %24, %27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.lop3 %23, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %30 = ori.imad wide.u32 %29, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %31 = ori.ldg [%30] : (!ori.r64) -> !ori.r32
    %32 = ori.iadd3 %28, %31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.lop3 %23, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %34 = ori.imad wide.u32 %33, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %35 = ori.ldg [%34] : (!ori.r64) -> !ori.r32
    %36 = ori.iadd3 %32, %35, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.lop3 %36, %23, %7, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.lop3 %37, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %39 = ori.isetp eq.u32 %38, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %39 : !ori.p, ^bb5, ^bb6(%37 : !ori.r32)
  ^bb4(%40: !ori.r32, %41: !ori.r32):
    %42 = ori.mov -0x61c88647 : () -> !ori.r32
    %43 = ori.iadd3 %42, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.shf l.w %43, 0x7, %43 : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.lop3 %44, %19, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.shf l.w %45, 0x7, %45 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.iadd3 %46, %20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.shf l.w %47, 0x7, %47 : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.lop3 %48, %40, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %50 = ori.shf l.w %49, 0x7, %49 : (!ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.iadd3 %50, %41, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %52 = ori.shf l.w %51, 0x7, %51 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %52 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb5:
    %53 = ori.iadd3 %37, 0x55, %23 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb6(%53 : !ori.r32)
  ^bb6(%54: !ori.r32):
    %55 = ori.iadd3 %23, -0x1, RZ : (!ori.r32) -> !ori.r32
    %56 = ori.isetp gt %23, 0x1, PT : (!ori.r32) -> !ori.p
    ori.bra if %56 : !ori.p, ^bb3(%55 : !ori.r32, %54 : !ori.r32), ^bb4(%55 : !ori.r32, %54 : !ori.r32)
  }
}
