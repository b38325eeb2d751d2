builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loops2003() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x0] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %6 = ori.mov c[0x0][0x178] : () -> !ori.r32
    %7 = ori.mov c[0x0][0x17c] : () -> !ori.r32
    %8 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %9 = ori.mov 0x4f : () -> !ori.r32
    ori.bra ^bb1(%9 : !ori.r32, %3 : !ori.r32)
  ^bb1(%10: !ori.r32, %11: !ori.r32):
    %12 = ori.imad %11, 0x4b, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.imad %12, 0x2d, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.mov -0x14 : () -> !ori.r32
    ori.bra ^bb3(%14 : !ori.r32, %7 : !ori.r32)
  ^bb2(%15: !ori.r32, %16: !ori.r32):
    %17 = ori.mov 0x2b : () -> !ori.r32
    %18 = ori.isetp ne.u32 %17, %17, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %18 : !ori.p, ^bb5(%17 : !ori.r32, %0 : !ori.r32), ^bb6(%17 : !ori.r32, %0 : !ori.r32)
  ^bb3(%19: !ori.r32, %20: !ori.r32):
    %21 = ori.imad %20, 0x7, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.iadd3 %21, %19, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.iadd3 %22, %19, %7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.iadd3 %19, -0x2, RZ : (!ori.r32) -> !ori.r32
    %25 = ori.isetp gt %24, -0x22, PT : (!ori.r32) -> !ori.p
    ori.bra if %25 : !ori.p, ^bb3(%24 : !ori.r32, %23 : !ori.r32), ^bb4(%24 : !ori.r32, %23 : !ori.r32)
  ^bb4(%26: !ori.r32, %27: !ori.r32):
    %28 = ori.iadd3 %13, %27, %26 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.iadd3 %10, 0x1, RZ : (!ori.r32) -> !ori.r32
    %30 = ori.isetp le %29, 0x55, PT : (!ori.r32) -> !ori.p
    %31 = ori.plop3 %30, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %31 : !ori.p, ^bb2(%29 : !ori.r32, %28 : !ori.r32), ^bb1(%29 : !ori.r32, %28 : !ori.r32)
  ^bb5(%32: !ori.r32, %33: !ori.r32):
    ori.pragma "nounroll"
    %34 = ori.imad %33, 0x55, %32 : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.lop3 %34, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %36 = ori.isetp eq.u32 %35, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %36 : !ori.p, ^bb7, ^bb8(%34 : !ori.r32)
  ^bb6(%37: !ori.r32, %38: !ori.r32):
    %39 = ori.mov -0x61c88647 : () -> !ori.r32
    %40 = ori.iadd3 %39, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.shf l.w %40, 0x7, %40 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.lop3 %41, %15, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.shf l.w %42, 0x7, %42 : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.iadd3 %43, %16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.shf l.w %44, 0x7, %44 : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.lop3 %45, %37, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.shf l.w %46, 0x7, %46 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.iadd3 %47, %38, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.shf l.w %48, 0x7, %48 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8 + 0x1c], %49 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb7:
    %50 = ori.iadd3 %34, 0x55, %32 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb8(%50 : !ori.r32)
  ^bb8(%51: !ori.r32):
    %52 = ori.iadd3 %32, -0x1, RZ : (!ori.r32) -> !ori.r32
    %53 = ori.isetp ne.u32 %52, 0x2a, PT : (!ori.r32) -> !ori.p
    ori.bra if %53 : !ori.p, ^bb5(%52 : !ori.r32, %51 : !ori.r32), ^bb6(%52 : !ori.r32, %51 : !ori.r32)
  }
}
