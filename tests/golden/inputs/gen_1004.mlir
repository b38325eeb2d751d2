builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @fuzz1004() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %6 = ori.ldc b64 0x0, [RZ + 0x220] : () -> !ori.r64
    %7 = ori.mov c[0x0][0x228] : () -> !ori.r32
    %8 = ori.mov c[0x0][0x22c] : () -> !ori.r32
    %9 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %10 = ori.lop3 %8, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.imad wide.u32 %10, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %12 = ori.ldg [%11] : (!ori.r64) -> !ori.r32
    %13 = ori.mov c[0x0][0x230] : () -> !ori.r32
    %14 = ori.isetp lt %3, %0, PT : (!ori.r32, !ori.r32) -> !ori.p
    %15 = ori.shr u32 %0, 0x1b if not %14 else %8 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %16 = ori.lop3 %3, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %17 = ori.isetp lt.u32 %16, 0x3, PT : (!ori.r32) -> !ori.p
    ori.stg [%9 + 0x14], %15 if %17 : (!ori.r64, !ori.r32, !ori.p) -> ()
    %18 = ori.isetp ge %3, %8, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.stg [%9 + 0x14], %12 if %18 : (!ori.r64, !ori.r32, !ori.p) -> ()
    %19 = ori.lop3 %12, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %20 = ori.i2f f32.u32.rz %19 : (!ori.r32) -> !ori.r32
    %21 = ori.f2i s32.f32 %13 : (!ori.r32) -> !ori.r32
    %22 = ori.fmnmx %20, %20, not PT : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.mov -0x61c88647 : () -> !ori.r32
    %24 = ori.iadd3 %23, %0, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.shf l.w %24, 0x7, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.lop3 %25, %8, %12, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.shf l.w %26, 0x7, %26 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.iadd3 %27, %13, %15 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.shf l.w %28, 0x7, %28 : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.lop3 %29, %20, %21, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.shf l.w %30, 0x7, %30 : (!ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.iadd3 %31, %22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.shf l.w %32, 0x7, %32 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %33 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
