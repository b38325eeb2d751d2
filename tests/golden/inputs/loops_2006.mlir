builtin.module attributes {ori.target = "sm_100"} {
  ori.func kernel @loops2006() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x53 : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %0 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.iadd3 %11, %10, %7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.isetp lt %10, 0x43b, PT : (!ori.r32) -> !ori.p
    ori.bra if %13 : !ori.p, ^bb3, ^bb2(%10 : !ori.r32, %12 : !ori.r32)
  ^bb2(%14: !ori.r32, %15: !ori.r32):
    %16 = ori.iadd3 %10, 0x5, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %17 = ori.lop3 %15, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %18 = ori.mov 0x0 : () -> !ori.r32
    %19 = ori.iadd3 %18, 0x1, RZ : (!ori.r32) -> !ori.r32
    %20 = ori.isetp lt.u32 %19, %17, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %20 : !ori.p, ^bb4(%18 : !ori.r32, %15 : !ori.r32), ^bb5(%18 : !ori.r32, %15 : !ori.r32)
  ^bb3:
    %21 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %22 = ori.imad wide.u32 %21, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %23 = ori.ldg [%22] : (!ori.r64) -> !ori.r32
    %24 = ori.iadd3 %12, %23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.iadd3 %24, %10, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.lop3 %10, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %27 = ori.imad wide.u32 %26, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %28 = ori.ldg [%27] : (!ori.r64) -> !ori.r32
    %29 = ori.iadd3 %25, %28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.iadd3 %10, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%30 : !ori.r32, %29 : !ori.r32)
  ^bb4(%31: !ori.r32, %32: !ori.r32):
    %33 = ori.imad %32, 0x4f, %31 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.iadd3 %31, 0x1, RZ : (!ori.r32) -> !ori.r32
    %35 = ori.isetp gt.u32 %17, %34, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if not %35 : !ori.p, ^bb5(%34 : !ori.r32, %33 : !ori.r32), ^bb4(%34 : !ori.r32, %33 : !ori.r32)
  ^bb5(%36: !ori.r32, %37: !ori.r32):
    %38 = ori.mov 0x0 : () -> !ori.r32
    %39 = ori.iadd3 %38, 0x1, RZ : (!ori.r32) -> !ori.r32
    %40 = ori.isetp lt.u32 %39, %6, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %40 : !ori.p, ^bb6(%38 : !ori.r32, %37 : !ori.r32), ^bb7(%38 : !ori.r32, %37 : !ori.r32)
  ^bb6(%41: !ori.r32, %42: !ori.r32):
    ori.pragma "nounroll"
    %43 = ori.lop3 %42, %41, %7, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.lop3 %41, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %45 = ori.imad wide.u32 %44, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %46 = ori.ldg [%45] : (!ori.r64) -> !ori.r32
    %47 = ori.iadd3 %43, %46, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.iadd3 %41, 0x1, RZ : (!ori.r32) -> !ori.r32
    %49 = ori.isetp lt.u32 %48, %6, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %49 : !ori.p, ^bb6(%48 : !ori.r32, %47 : !ori.r32), ^bb7(%48 : !ori.r32, %47 : !ori.r32)
  ^bb7(%50: !ori.r32, %51: !ori.r32):
    %52 = ori.mov -0x10 : () -> !ori.r32
    ori.bra ^bb8(%52 : !ori.r32, %3 : !ori.r32)
  ^bb8(%53: !ori.r32, %54: !ori.r32):
    %55 = ori.iadd3 %54, %53, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %56 = ori.iadd3 %53, 0x4, RZ : (!ori.r32) -> !ori.r32
    %57 = ori.isetp ne.u32 %53, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %57 : !ori.p, ^bb8(%56 : !ori.r32, %55 : !ori.r32), ^bb9(%56 : !ori.r32, %55 : !ori.r32)
  ^bb9(%58: !ori.r32, %59: !ori.r32):
    %60 = ori.mov -0x61c88647 : () -> !ori.r32
    %61 = ori.iadd3 %60, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %62 = ori.shf l.w %61, 0x7, %61 : (!ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.lop3 %62, %14, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.shf l.w %63, 0x7, %63 : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.iadd3 %64, %15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.shf l.w %65, 0x7, %65 : (!ori.r32, !ori.r32) -> !ori.r32
    %67 = ori.lop3 %66, %16, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %68 = ori.shf l.w %67, 0x7, %67 : (!ori.r32, !ori.r32) -> !ori.r32
    %69 = ori.iadd3 %68, %36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %70 = ori.shf l.w %69, 0x7, %69 : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.lop3 %70, %37, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %72 = ori.shf l.w %71, 0x7, %71 : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.iadd3 %72, %50, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %74 = ori.shf l.w %73, 0x7, %73 : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.lop3 %74, %51, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %76 = ori.shf l.w %75, 0x7, %75 : (!ori.r32, !ori.r32) -> !ori.r32
    %77 = ori.iadd3 %76, %58, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %78 = ori.shf l.w %77, 0x7, %77 : (!ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.lop3 %78, %59, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.shf l.w %79, 0x7, %79 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %80 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
