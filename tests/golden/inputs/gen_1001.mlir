builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @fuzz1001() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %6 = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    %7 = ori.mov c[0x0][0x178] : () -> !ori.r32
    %8 = ori.mov c[0x0][0x17c] : () -> !ori.r32
    %9 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %10 = ori.lop3 %0, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.imad wide.u32 %10, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %12 = ori.ldg [%11 + 0x1a0] : (!ori.r64) -> !ori.r32
    %13 = ori.mov c[0x0][0x180] : () -> !ori.r32
    %14 = ori.isetp lt %8, 0x16, PT : (!ori.r32) -> !ori.p
    ori.bra if %14 : !ori.p, ^bb1, ^bb2
  ^bb1:
    %15 = ori.prmt %3, 0x3306, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.lop3 %12, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %17 = ori.lea %16, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %18 = ori.imad wide.u32 %17, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %19 = ori.ldg [%18] : (!ori.r64) -> !ori.r32
    ori.bra ^bb3(%0 : !ori.r32)
  ^bb2:
    %20 = ori.bmsk w %3, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.brev %3 : (!ori.r32) -> !ori.r32
    %22 = ori.iadd3 -%12, %8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.f2i u32.f32.rz %13 : (!ori.r32) -> !ori.r32
    %24 = ori.fadd %13, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.f2i s32.f32 %24 : (!ori.r32) -> !ori.r32
    ori.bra ^bb3(%0 : !ori.r32)
  ^bb3(%26: !ori.r32):
    %27 = ori.imnmx %26, %8, PT : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x18], %8 : (!ori.r64, !ori.r32) -> ()
    %28 = ori.isetp eq.u32 %8, -0x2, PT : (!ori.r32) -> !ori.p
    %29 = ori.imad %0, %27, RZ if %28 else %8 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0xc], %3 : (!ori.r64, !ori.r32) -> ()
    %30 = ori.lop3 %27, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %31 = ori.isetp ge %30, 0x1, PT : (!ori.r32) -> !ori.p
    %32 = ori.sel %3, %0, %31 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %33 = ori.imad hi.u32 %26, -0x80000000, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.mov -0x61c88647 : () -> !ori.r32
    %35 = ori.iadd3 %34, %0, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.shf l.w %35, 0x7, %35 : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.lop3 %36, %8, %12, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.shf l.w %37, 0x7, %37 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.iadd3 %38, %13, %26 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.shf l.w %39, 0x7, %39 : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.lop3 %40, %27, %29, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.shf l.w %41, 0x7, %41 : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.iadd3 %42, %32, %33 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.shf l.w %43, 0x7, %43 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %44 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
