builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @loops2005() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x228] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x22c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov -0x5 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %7 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.lop3 %11, %10, %3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.lop3 %12, %10, %0, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.iadd3 %13, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.iadd3 %10, 0x2, RZ : (!ori.r32) -> !ori.r32
    %16 = ori.isetp lt %10, -0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %16 : !ori.p, ^bb1(%15 : !ori.r32, %14 : !ori.r32), ^bb2(%15 : !ori.r32, %14 : !ori.r32)
  ^bb2(%17: !ori.r32, %18: !ori.r32):
    %19 = ori.mov -0x61c88647 : () -> !ori.r32
    %20 = ori.iadd3 %19, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.shf l.w %20, 0x7, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.lop3 %21, %17, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.shf l.w %22, 0x7, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.iadd3 %23, %18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.shf l.w %24, 0x7, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %25 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
