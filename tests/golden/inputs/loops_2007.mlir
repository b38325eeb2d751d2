builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loops2007() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x178] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x17c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov -0x10 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %0 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.iadd3 %11, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.isetp ne.u32 %10, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %13 : !ori.p, ^bb3, ^bb2(%10 : !ori.r32, %12 : !ori.r32)
  ^bb2(%14: !ori.r32, %15: !ori.r32):
    %16 = ori.mov -0x61c88647 : () -> !ori.r32
    %17 = ori.iadd3 %16, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %18 = ori.shf l.w %17, 0x7, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.lop3 %18, %14, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.shf l.w %19, 0x7, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.iadd3 %20, %15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.shf l.w %21, 0x7, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %22 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb3:
    %23 = ori.iadd3 %12, %10, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %25 = ori.imad wide.u32 %24, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %26 = ori.ldg [%25] : (!ori.r64) -> !ori.r32
    %27 = ori.iadd3 %23, %26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %29 = ori.imad wide.u32 %28, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %30 = ori.ldg [%29] : (!ori.r64) -> !ori.r32
    %31 = ori.iadd3 %27, %30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.iadd3 %10, 0x4, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%32 : !ori.r32, %31 : !ori.r32)
  }
}
