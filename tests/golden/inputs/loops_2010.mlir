builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loops2010() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x178] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x17c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x59 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %7 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.imad %11, 0x11, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.imad %12, 0x23, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.lop3 %13, %10, %0, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.iadd3 %14, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.iadd3 %10, 0x2, RZ : (!ori.r32) -> !ori.r32
    %17 = ori.isetp lt.u32 %10, 0x61, PT : (!ori.r32) -> !ori.p
    ori.bra if %17 : !ori.p, ^bb1(%16 : !ori.r32, %15 : !ori.r32), ^bb2(%16 : !ori.r32, %15 : !ori.r32)
  ^bb2(%18: !ori.r32, %19: !ori.r32):
    %20 = ori.mov -0x7 : () -> !ori.r32
    ori.bra ^bb3(%20 : !ori.r32, %0 : !ori.r32)
  ^bb3(%21: !ori.r32, %22: !ori.r32):
    %23 = ori.lop3 %22, %21, %7, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.mov -0x9 : () -> !ori.r32
    ori.bra ^bb5(%24 : !ori.r32, %3 : !ori.r32)
  ^bb4(%25: !ori.r32, %26: !ori.r32):
    %27 = ori.iadd3 %28, 0x3, RZ : (!ori.r32) -> !ori.r32
    %29 = ori.mov -0x13 : () -> !ori.r32
    ori.bra ^bb8(%29 : !ori.r32, %7 : !ori.r32)
  ^bb5(%30: !ori.r32, %31: !ori.r32):
    %32 = ori.iadd3 %31, %30, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.isetp gt %30, -0x9, PT : (!ori.r32) -> !ori.p
    ori.bra if %33 : !ori.p, ^bb7, ^bb6(%30 : !ori.r32, %32 : !ori.r32)
  ^bb6(%34: !ori.r32, %35: !ori.r32):
    %28 = ori.iadd3 %23, %35, %34 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.iadd3 %21, 0x1, RZ : (!ori.r32) -> !ori.r32
    %37 = ori.isetp ne.u32 %36, -0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %37 : !ori.p, ^bb3(%36 : !ori.r32, %28 : !ori.r32), ^bb4(%36 : !ori.r32, %28 : !ori.r32)
  ^bb7:
    %38 = ori.imad %32, 0x2b, %30 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.iadd3 %38, %30, %7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.lop3 %39, %30, %3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.iadd3 %30, -0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb5(%41 : !ori.r32, %40 : !ori.r32)
  ^bb8(%42: !ori.r32, %43: !ori.r32):
    %44 = ori.iadd3 %43, %42, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.lop3 %42, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %46 = ori.imad wide.u32 %45, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %47 = ori.ldg [%46] : (!ori.r64) -> !ori.r32
    %48 = ori.iadd3 %44, %47, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.iadd3 %42, -0x3, RZ : (!ori.r32) -> !ori.r32
    %50 = ori.isetp ne.u32 %49, -0x28, PT : (!ori.r32) -> !ori.p
    ori.bra if %50 : !ori.p, ^bb8(%49 : !ori.r32, %48 : !ori.r32), ^bb9(%49 : !ori.r32, %48 : !ori.r32)
  ^bb9(%51: !ori.r32, %52: !ori.r32):
    %53 = ori.mov -0x10 : () -> !ori.r32
    ori.bra ^bb10(%53 : !ori.r32, %3 : !ori.r32)
  ^bb10(%54: !ori.r32, %55: !ori.r32):
    %56 = ori.iadd3 %55, %54, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %57 = ori.isetp ne.u32 %54, 0x14, PT : (!ori.r32) -> !ori.p
    ori.bra if %57 : !ori.p, ^bb12, ^bb11(%54 : !ori.r32, %56 : !ori.r32)
  ^bb11(%58: !ori.r32, %59: !ori.r32):
    %60 = ori.mov -0x61c88647 : () -> !ori.r32
    %61 = ori.iadd3 %60, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %62 = ori.shf l.w %61, 0x7, %61 : (!ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.lop3 %62, %18, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.shf l.w %63, 0x7, %63 : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.iadd3 %64, %19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.shf l.w %65, 0x7, %65 : (!ori.r32, !ori.r32) -> !ori.r32
    %67 = ori.lop3 %66, %25, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %68 = ori.shf l.w %67, 0x7, %67 : (!ori.r32, !ori.r32) -> !ori.r32
    %69 = ori.iadd3 %68, %26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %70 = ori.shf l.w %69, 0x7, %69 : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.lop3 %70, %27, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %72 = ori.shf l.w %71, 0x7, %71 : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.iadd3 %72, %51, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %74 = ori.shf l.w %73, 0x7, %73 : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.lop3 %74, %52, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %76 = ori.shf l.w %75, 0x7, %75 : (!ori.r32, !ori.r32) -> !ori.r32
    %77 = ori.iadd3 %76, %58, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %78 = ori.shf l.w %77, 0x7, %77 : (!ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.lop3 %78, %59, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.shf l.w %79, 0x7, %79 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %80 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb12:
    %81 = ori.lop3 %54, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %82 = ori.imad wide.u32 %81, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %83 = ori.ldg [%82] : (!ori.r64) -> !ori.r32
    %84 = ori.iadd3 %56, %83, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.imad %84, 0x1f, %54 : (!ori.r32, !ori.r32) -> !ori.r32
    %86 = ori.lop3 %54, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %87 = ori.imad wide.u32 %86, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %88 = ori.ldg [%87] : (!ori.r64) -> !ori.r32
    %89 = ori.iadd3 %85, %88, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %90 = ori.iadd3 %54, 0x4, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb10(%90 : !ori.r32, %89 : !ori.r32)
  }
}
