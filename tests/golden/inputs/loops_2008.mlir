builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loops2008() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x178] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x17c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x46 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %3 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %13 = ori.imad wide.u32 %12, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %14 = ori.ldg [%13] : (!ori.r64) -> !ori.r32
    %15 = ori.iadd3 %11, %14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.lop3 %15, %10, %3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %17 = ori.lop3 %7, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %18 = ori.iadd3 %17, -0x1, RZ : (!ori.r32) -> !ori.r32
    %19 = ori.isetp gt %18, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %19 : !ori.p, ^bb3(%17 : !ori.r32, %0 : !ori.r32), ^bb4(%17 : !ori.r32, %0 : !ori.r32)
  ^bb2(%20: !ori.r32, %21: !ori.r32):
    %22 = ori.mov 0x1e : () -> !ori.r32
    ori.bra ^bb5(%22 : !ori.r32, %21 : !ori.r32)
  ^bb3(%23: !ori.r32, %24: !ori.r32):
    %25 = ori.iadd3 %24, %23, %7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.imad %25, 0x49, %23 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.iadd3 %26, %23, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.iadd3 %23, -0x1, RZ : (!ori.r32) -> !ori.r32
    %29 = ori.isetp gt %28, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %29 : !ori.p, ^bb3(%28 : !ori.r32, %27 : !ori.r32), ^bb4(%28 : !ori.r32, %27 : !ori.r32)
  ^bb4(%30: !ori.r32, %31: !ori.r32):
    %32 = ori.iadd3 %16, %31, %30 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.iadd3 %10, 0x1, RZ : (!ori.r32) -> !ori.r32
    %34 = ori.isetp lt.u32 %33, 0x4b, PT : (!ori.r32) -> !ori.p
    ori.bra if %34 : !ori.p, ^bb1(%33 : !ori.r32, %32 : !ori.r32), ^bb2(%33 : !ori.r32, %32 : !ori.r32)
  ^bb5(%35: !ori.r32, %36: !ori.r32):
    %37 = ori.iadd3 %36, %35, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.iadd3 %35, 0x2, RZ : (!ori.r32) -> !ori.r32
    %39 = ori.isetp lt %38, 0x22, PT : (!ori.r32) -> !ori.p
    ori.bra if %39 : !ori.p, ^bb5(%38 : !ori.r32, %37 : !ori.r32), ^bb6(%38 : !ori.r32, %37 : !ori.r32)
  ^bb6(%40: !ori.r32, %41: !ori.r32):
    %42 = ori.lop3 %6, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %43 = ori.iadd3 %42, 0x7ffffff0, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb7(%43 : !ori.r32, %21 : !ori.r32)
  ^bb7(%44: !ori.r32, %45: !ori.r32):
    %46 = ori.imad %45, 0x4d, %44 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.lop3 %46, %44, %0, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.iadd3 %44, 0x1, RZ : (!ori.r32) -> !ori.r32
    %49 = ori.isetp lt %44, 0x7ffffffe, PT : (!ori.r32) -> !ori.p
    ori.bra if %49 : !ori.p, ^bb7(%48 : !ori.r32, %47 : !ori.r32), ^bb8(%48 : !ori.r32, %47 : !ori.r32)
  ^bb8(%50: !ori.r32, %51: !ori.r32):
    %52 = ori.mov -0x14 : () -> !ori.r32
    ori.bra ^bb9(%52 : !ori.r32, %3 : !ori.r32)
  ^bb9(%53: !ori.r32, %54: !ori.r32):
    ori.pragma "nounroll"
    %55 = ori.lop3 %53, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %56 = ori.imad wide.u32 %55, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %57 = ori.ldg [%56] : (!ori.r64) -> !ori.r32
    %58 = ori.iadd3 %54, %57, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %59 = ori.lop3 %53, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %60 = ori.imad wide.u32 %59, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %61 = ori.ldg [%60] : (!ori.r64) -> !ori.r32
    %62 = ori.iadd3 %58, %61, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.lop3 %62, %53, %21, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.iadd3 %53, 0x2, RZ : (!ori.r32) -> !ori.r32
    %65 = ori.isetp ne %53, -0x8, PT : (!ori.r32) -> !ori.p
    %66 = ori.plop3 %65, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %66 : !ori.p, ^bb10(%64 : !ori.r32, %63 : !ori.r32), ^bb9(%64 : !ori.r32, %63 : !ori.r32)
  ^bb10(%67: !ori.r32, %68: !ori.r32):
    %69 = ori.mov -0x61c88647 : () -> !ori.r32
    %70 = ori.iadd3 %69, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.shf l.w %70, 0x7, %70 : (!ori.r32, !ori.r32) -> !ori.r32
    %72 = ori.lop3 %71, %20, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.shf l.w %72, 0x7, %72 : (!ori.r32, !ori.r32) -> !ori.r32
    %74 = ori.iadd3 %73, %21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.shf l.w %74, 0x7, %74 : (!ori.r32, !ori.r32) -> !ori.r32
    %76 = ori.lop3 %75, %40, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %77 = ori.shf l.w %76, 0x7, %76 : (!ori.r32, !ori.r32) -> !ori.r32
    %78 = ori.iadd3 %77, %41, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.shf l.w %78, 0x7, %78 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.lop3 %79, %50, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %81 = ori.shf l.w %80, 0x7, %80 : (!ori.r32, !ori.r32) -> !ori.r32
    %82 = ori.iadd3 %81, %51, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %83 = ori.shf l.w %82, 0x7, %82 : (!ori.r32, !ori.r32) -> !ori.r32
    %84 = ori.lop3 %83, %67, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.shf l.w %84, 0x7, %84 : (!ori.r32, !ori.r32) -> !ori.r32
    %86 = ori.iadd3 %85, %68, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %87 = ori.shf l.w %86, 0x7, %86 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %87 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
