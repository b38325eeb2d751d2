builtin.module attributes {ori.target = "sm_90"} {
  ori.func @dev0(%0: !ori.r32) -> (!ori.r32, !ori.r32) {
    %1 = ori.mov 0x2a3 : () -> !ori.r32
    %2 = ori.lop3 %0, 0xf, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %3 = ori.mov 0x0 : () -> !ori.r32
    %4 = ori.isetp lt.u32 %3, %2, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %4 : !ori.p, ^bb1(%3 : !ori.r32, %1 : !ori.r32, %0 : !ori.r32, %0 : !ori.r32), ^bb2(%3 : !ori.r32, %1 : !ori.r32, %0 : !ori.r32, %0 : !ori.r32)
  ^bb1(%5: !ori.r32, %6: !ori.r32, %7: !ori.r32, %8: !ori.r32):
    %9 = ori.isetp lt %6, %6, PT : (!ori.r32, !ori.r32) -> !ori.p
    %10 = ori.flo s32 %8 if not %9 else %8 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %11 = ori.iabs %7 : (!ori.r32) -> !ori.r32
    %12 = ori.bmsk w %5, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.iadd3 %6, %7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.imad %7, 0x9, %5 : (!ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.iadd3 %8, %8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.iadd3 %5, 0x1, RZ : (!ori.r32) -> !ori.r32
    %17 = ori.isetp lt.u32 %16, %2, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %17 : !ori.p, ^bb1(%16 : !ori.r32, %13 : !ori.r32, %14 : !ori.r32, %15 : !ori.r32), ^bb2(%16 : !ori.r32, %13 : !ori.r32, %14 : !ori.r32, %15 : !ori.r32)
  ^bb2(%18: !ori.r32, %19: !ori.r32, %20: !ori.r32, %21: !ori.r32):
    ori.ret %0, %0 : !ori.r32, !ori.r32
  }
  ori.func kernel @fuzz1006() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %10 = ori.lop3 %0, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.imad wide.u32 %10, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %12 = ori.lop3 %3, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %13 = ori.isetp gt.u32 %12, 0x1, PT : (!ori.r32) -> !ori.p
    %14 = ori.ldg [%11] if %13 else %8 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %15 = ori.mov c[0x0][0x230] : () -> !ori.r32
    %16 = ori.lop3 %14, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %17 = ori.i2f f32.u32 %16 : (!ori.r32) -> !ori.r32
    %18 = ori.fmul %17, 3.0 : (!ori.r32) -> !ori.r32
    %19 = ori.lop3 %0, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %20 = ori.isetp lt %19, 0x0, PT : (!ori.r32) -> !ori.p
    %21 = ori.brev %3 if not %20 else %14 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %22 = ori.lop3 %8, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %23 = ori.isetp ne %22, 0x3, PT : (!ori.r32) -> !ori.p
    ori.stg [%9 + 0x8], %8 if not %23 : (!ori.r64, !ori.r32, !ori.p) -> ()
    %24 = ori.mov -0x61c88647 : () -> !ori.r32
    %25 = ori.iadd3 %24, %0, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.shf l.w %25, 0x7, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.lop3 %26, %8, %14, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.shf l.w %27, 0x7, %27 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.iadd3 %28, %15, %17 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.shf l.w %29, 0x7, %29 : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.lop3 %30, %18, %21, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.shf l.w %31, 0x7, %31 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %32 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
