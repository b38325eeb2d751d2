builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @loops2000() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x228] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x22c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.lop3 %6, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %10 = ori.iadd3 %9, 0x7ffffff0, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%10 : !ori.r32, %0 : !ori.r32)
  ^bb1(%11: !ori.r32, %12: !ori.r32):
    %13 = ori.lop3 %11, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %14 = ori.imad wide.u32 %13, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %15 = ori.ldg [%14] : (!ori.r64) -> !ori.r32
    %16 = ori.iadd3 %12, %15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %17 = ori.lop3 %11, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %18 = ori.imad wide.u32 %17, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %19 = ori.ldg [%18] : (!ori.r64) -> !ori.r32
    %20 = ori.iadd3 %16, %19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.iadd3 %11, 0x1, RZ : (!ori.r32) -> !ori.r32
    %22 = ori.isetp lt %21, 0x7fffffff, PT : (!ori.r32) -> !ori.p
    ori.bra if %22 : !ori.p, ^bb1(%21 : !ori.r32, %20 : !ori.r32), ^bb2(%21 : !ori.r32, %20 : !ori.r32)
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
  }
}
