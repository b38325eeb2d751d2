builtin.module attributes {ori.target = "sm_90"} {
  ori.func @dev0(%0: !ori.r32, %1: !ori.r32, %2: !ori.r32) -> (!ori.r32, !ori.r32) {
    %3 = ori.mov 0x198 : () -> !ori.r32
    %4 = ori.lop3 %2, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %5 = ori.isetp eq.u32 %4, 0x3, PT : (!ori.r32) -> !ori.p
    %6 = ori.lop3 %2, %1, RZ, 0x31 if %5 else %2 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %7 = ori.lop3 %3, %0, %1, 0x9f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %8 = ori.imad hi %7, %1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %9 = ori.shf r.w.hi %3, 0xc, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %7, %3 : !ori.r32, !ori.r32
  }
  ori.func kernel @fuzz1011() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %10 = ori.lop3 %0, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.imad wide.u32 %10, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %12 = ori.ldg [%11 + 0xb4] : (!ori.r64) -> !ori.r32
    %13 = ori.mov c[0x0][0x230] : () -> !ori.r32
    %14 = ori.lop3 %8, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %15 = ori.imad wide.u32 %14, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %16 = ori.isetp ge %0, %0, PT : (!ori.r32, !ori.r32) -> !ori.p
    %17 = ori.ldg [%15] if %16 else %12 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %18 = ori.imad %17, 0x6539fc93, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.imad %8, 0x77c9881d, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.imad %17, 0x6b2d08a7, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.lop3 %20, %8, RZ, 0x14 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.imad %17, 0x15dcaa99, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.imad %21, 0x79c242e5, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.imad %21, 0x45802f9b, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.lop3 %24, %12, RZ, 0x22 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.imad %18, 0x25e3920b, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.imad %21, 0xf196b81, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.isetp ne.u32 %7, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %28 : !ori.p, ^bb1(%7 : !ori.r32, %21 : !ori.r32, %22 : !ori.r32), ^bb2(%7 : !ori.r32, %21 : !ori.r32, %22 : !ori.r32)
  ^bb1(%29: !ori.r32, %30: !ori.r32, %31: !ori.r32):
    %32 = ori.fmnmx %13, %13, PT : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x10], %31 : (!ori.r64, !ori.r32) -> ()
    %33 = ori.lop3 %30, %19, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.lop3 %31, %18, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.iadd3 %29, -0x1, RZ : (!ori.r32) -> !ori.r32
    %36 = ori.isetp ne.u32 %35, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %36 : !ori.p, ^bb1(%35 : !ori.r32, %33 : !ori.r32, %34 : !ori.r32), ^bb2(%35 : !ori.r32, %33 : !ori.r32, %34 : !ori.r32)
  ^bb2(%37: !ori.r32, %38: !ori.r32, %39: !ori.r32):
    %40 = ori.imad hi.u32 %39, %19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.shf l.w %21, 0x18, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.lop3 %41, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %43 = ori.isetp lt %42, 0x3, PT : (!ori.r32) -> !ori.p
    %44 = ori.imnmx %40, %19, not PT if %43 else %21 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %45 = ori.mov -0x61c88647 : () -> !ori.r32
    %46 = ori.iadd3 %45, %13, %17 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.shf l.w %46, 0x7, %46 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.lop3 %47, %18, %19, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.shf l.w %48, 0x7, %48 : (!ori.r32, !ori.r32) -> !ori.r32
    %50 = ori.iadd3 %49, %21, %22 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.shf l.w %50, 0x7, %50 : (!ori.r32, !ori.r32) -> !ori.r32
    %52 = ori.lop3 %51, %37, %38, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %53 = ori.shf l.w %52, 0x7, %52 : (!ori.r32, !ori.r32) -> !ori.r32
    %54 = ori.iadd3 %53, %39, %40 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %55 = ori.shf l.w %54, 0x7, %54 : (!ori.r32, !ori.r32) -> !ori.r32
    %56 = ori.lop3 %55, %41, %44, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %57 = ori.shf l.w %56, 0x7, %56 : (!ori.r32, !ori.r32) -> !ori.r32
    %58 = ori.iadd3 %57, %37, %18 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %59 = ori.shf l.w %58, 0x7, %58 : (!ori.r32, !ori.r32) -> !ori.r32
    %60 = ori.lop3 %59, %19, %21, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %61 = ori.shf l.w %60, 0x7, %60 : (!ori.r32, !ori.r32) -> !ori.r32
    %62 = ori.iadd3 %61, %22, %23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.shf l.w %62, 0x7, %62 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.lop3 %63, %25, %26, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.shf l.w %64, 0x7, %64 : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.iadd3 %65, %27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %67 = ori.shf l.w %66, 0x7, %66 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %67 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
