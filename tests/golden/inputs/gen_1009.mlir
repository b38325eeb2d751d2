builtin.module attributes {ori.target = "sm_80"} {
  ori.func @dev0(%0: !ori.r32, %1: !ori.r32, %2: !ori.r32) -> (!ori.r32, !ori.r32) {
    %3 = ori.mov 0x3ad : () -> !ori.r32
    %4 = ori.lop3 %1, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %5 = ori.isetp le %4, 0x0, PT : (!ori.r32) -> !ori.p
    %6 = ori.flo s32 %0 if %5 else %0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.ret %6, %1 : !ori.r32, !ori.r32
  }
  ori.func kernel @fuzz1009() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %11 = ori.lea %10, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %12 = ori.imad wide.u32 %11, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %13 = ori.lop3 %3, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %14 = ori.isetp ge.u32 %13, 0x2, PT : (!ori.r32) -> !ori.p
    %15 = ori.ldg [%12 + 0x1b4] if %14 else %8 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %16 = ori.mov c[0x0][0x180] : () -> !ori.r32
    %17 = ori.lop3 %8, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %18 = ori.isetp ne %17, 0x0, PT : (!ori.r32) -> !ori.p
    %19 = ori.mov 0x10 if not %18 else %3 : (!ori.p, !ori.r32) -> !ori.r32
    %20 = ori.lop3 %19, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %21 = ori.isetp eq.u32 %20, 0x3, PT : (!ori.r32) -> !ori.p
    %22 = ori.mov 0x2 if not %21 else %8 : (!ori.p, !ori.r32) -> !ori.r32
    %23, %24 = ori.call @dev0(%3, %8, %19) : (!ori.r32, !ori.r32, !ori.r32) -> (!ori.r32, !ori.r32)
    %25 = ori.mov 0x3a : () -> !ori.r32
    ori.bra ^bb1(%25 : !ori.r32, %22 : !ori.r32, %8 : !ori.r32, %22 : !ori.r32)
  ^bb1(%26: !ori.r32, %27: !ori.r32, %28: !ori.r32, %29: !ori.r32):
    %30 = ori.lop3 %27, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %31 = ori.mov 0x0 : () -> !ori.r32
    %32 = ori.isetp lt.u32 %31, %30, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %32 : !ori.p, ^bb2(%31 : !ori.r32, %26 : !ori.r32), ^bb5(%31 : !ori.r32, %26 : !ori.r32)
  ^bb2(%33: !ori.r32, %34: !ori.r32):
    %35 = ori.mov 0xd : () -> !ori.r32
    %36 = ori.isetp gt %35, 0xc, PT : (!ori.r32) -> !ori.p
    ori.bra if %36 : !ori.p, ^bb3(%35 : !ori.r32, %27 : !ori.r32, %16 : !ori.r32, %16 : !ori.r32), ^bb4(%35 : !ori.r32, %27 : !ori.r32, %16 : !ori.r32, %16 : !ori.r32)
  ^bb3(%37: !ori.r32, %38: !ori.r32, %39: !ori.r32, %40: !ori.r32):
    %41 = ori.imad hi.u32 %38, 0x6, %33 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.lop3 %37, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %43 = ori.imad wide.u32 %42, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %44 = ori.ldg [%43] : (!ori.r64) -> !ori.r32
    %45 = ori.iadd3 %38, %41, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.ffma %16, -1.25, %39 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.ffma %16, 3.0, %40 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.iadd3 %37, -0x1, RZ : (!ori.r32) -> !ori.r32
    %49 = ori.isetp gt %48, 0xc, PT : (!ori.r32) -> !ori.p
    ori.bra if %49 : !ori.p, ^bb3(%48 : !ori.r32, %45 : !ori.r32, %46 : !ori.r32, %47 : !ori.r32), ^bb4(%48 : !ori.r32, %45 : !ori.r32, %46 : !ori.r32, %47 : !ori.r32)
  ^bb4(%50: !ori.r32, %51: !ori.r32, %52: !ori.r32, %53: !ori.r32):
    %54 = ori.brev %51 : (!ori.r32) -> !ori.r32
    ori.stg [%9 + 0x10], %50 : (!ori.r64, !ori.r32) -> ()
    %55 = ori.imad %34, 0x37, %29 : (!ori.r32, !ori.r32) -> !ori.r32
    %56 = ori.iadd3 %33, 0x1, RZ : (!ori.r32) -> !ori.r32
    %57 = ori.mov -0x61c88647 : () -> !ori.r32
    %58 = ori.iadd3 %57, %50, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %59 = ori.shf l.w %58, 0x7, %58 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x4], %59 : (!ori.r64, !ori.r32) -> ()
    %60 = ori.isetp lt.u32 %56, %30, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %60 : !ori.p, ^bb2(%56 : !ori.r32, %55 : !ori.r32), ^bb5(%56 : !ori.r32, %55 : !ori.r32)
  ^bb5(%61: !ori.r32, %62: !ori.r32):
    %63 = ori.imad %27, 0x31, %27 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.lop3 %28, %26, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.iadd3 %29, %26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.iadd3 %26, 0x1, RZ : (!ori.r32) -> !ori.r32
    %67 = ori.mov -0x61c88647 : () -> !ori.r32
    %68 = ori.iadd3 %67, %61, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %69 = ori.shf l.w %68, 0x7, %68 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x8], %69 : (!ori.r64, !ori.r32) -> ()
    %70 = ori.isetp ne %66, 0x3d, PT : (!ori.r32) -> !ori.p
    ori.bra if %70 : !ori.p, ^bb1(%66 : !ori.r32, %63 : !ori.r32, %64 : !ori.r32, %65 : !ori.r32), ^bb6(%66 : !ori.r32, %63 : !ori.r32, %64 : !ori.r32, %65 : !ori.r32)
  ^bb6(%71: !ori.r32, %72: !ori.r32, %73: !ori.r32, %74: !ori.r32):
    %75 = ori.lop3 %23, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %76 = ori.isetp ge.u32 %75, 0x1, PT : (!ori.r32) -> !ori.p
    %77 = ori.iadd3 %71, %72, %3 if %76 else %72 : (!ori.r32, !ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %78 = ori.mov -0x61c88647 : () -> !ori.r32
    %79 = ori.iadd3 %78, %8, %15 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.shf l.w %79, 0x7, %79 : (!ori.r32, !ori.r32) -> !ori.r32
    %81 = ori.lop3 %80, %16, %19, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %82 = ori.shf l.w %81, 0x7, %81 : (!ori.r32, !ori.r32) -> !ori.r32
    %83 = ori.iadd3 %82, %22, %23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %84 = ori.shf l.w %83, 0x7, %83 : (!ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.lop3 %84, %24, %71, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %86 = ori.shf l.w %85, 0x7, %85 : (!ori.r32, !ori.r32) -> !ori.r32
    %87 = ori.iadd3 %86, %72, %73 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %88 = ori.shf l.w %87, 0x7, %87 : (!ori.r32, !ori.r32) -> !ori.r32
    %89 = ori.lop3 %88, %74, %77, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %90 = ori.shf l.w %89, 0x7, %89 : (!ori.r32, !ori.r32) -> !ori.r32
    %91 = ori.iadd3 %90, %71, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %92 = ori.shf l.w %91, 0x7, %91 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %92 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
