builtin.module attributes {ori.target = "sm_90"} {
  ori.func @dev0(%0: !ori.r32, %1: !ori.r32) -> !ori.r32 {
    %2 = ori.mov 0x223 : () -> !ori.r32
    %3 = ori.lop3 %1, %1, RZ, 0x14 : (!ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.prmt %3, 0x4914, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    %5 = ori.lea %0, %1, 0xb : (!ori.r32, !ori.r32) -> !ori.r32
    %6 = ori.mov -0xf : () -> !ori.r32
    %7 = ori.isetp ge %6, -0x12, PT : (!ori.r32) -> !ori.p
    ori.bra if %7 : !ori.p, ^bb1(%6 : !ori.r32, %4 : !ori.r32, %2 : !ori.r32), ^bb2(%6 : !ori.r32, %4 : !ori.r32, %2 : !ori.r32)
  ^bb1(%8: !ori.r32, %9: !ori.r32, %10: !ori.r32):
    %11 = ori.imnmx %1, %5, not PT : (!ori.r32, !ori.r32) -> !ori.r32
    %12 = ori.shl %0, 0x3 : (!ori.r32) -> !ori.r32
    %13 = ori.imad hi.u32 %12, -0x8, RZ : (!ori.r32) -> !ori.r32
    %14 = ori.lop3 %9, %2, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.imad %10, 0x1b, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %16 = ori.iadd3 %8, -0x2, RZ : (!ori.r32) -> !ori.r32
    %17 = ori.isetp ge %16, -0x12, PT : (!ori.r32) -> !ori.p
    ori.bra if %17 : !ori.p, ^bb1(%16 : !ori.r32, %14 : !ori.r32, %15 : !ori.r32), ^bb2(%16 : !ori.r32, %14 : !ori.r32, %15 : !ori.r32)
  ^bb2(%18: !ori.r32, %19: !ori.r32, %20: !ori.r32):
    ori.ret %18 : !ori.r32
  }
  ori.func kernel @fuzz1000() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %12 = ori.ldg [%11] : (!ori.r64) -> !ori.r32
    %13 = ori.mov c[0x0][0x230] : () -> !ori.r32
    %14 = ori.isetp eq %7, 0xf, PT : (!ori.r32) -> !ori.p
    ori.bra if %14 : !ori.p, ^bb1, ^bb12
  ^bb1:
    %15 = ori.lop3 %3, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %16 = ori.isetp gt %15, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %16 : !ori.p, ^bb2(%15 : !ori.r32, %13 : !ori.r32, %13 : !ori.r32), ^bb11(%15 : !ori.r32, %13 : !ori.r32, %13 : !ori.r32)
  ^bb2(%17: !ori.r32, %18: !ori.r32, %19: !ori.r32):
    %20 = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb3(%20 : !ori.r32)
  ^bb3(%21: !ori.r32):
    %22 = ori.isetp ge %21, -0x2, PT : (!ori.r32) -> !ori.p
    %23 = ori.plop3 %22, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %23 : !ori.p, ^bb5(%21 : !ori.r32), ^bb4
  ^bb4:
    %24 = ori.isetp le.u32 %0, %12, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.stg [%9 + 0x18], %12 if %24 : (!ori.r64, !ori.r32, !ori.p) -> ()
    %25 = ori.iadd3 %21, -0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb3(%25 : !ori.r32)
  ^bb5(%26: !ori.r32):
    %27 = ori.isetp ne.u32 %7, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %27 : !ori.p, ^bb6(%7 : !ori.r32, %12 : !ori.r32, %18 : !ori.r32), ^bb7(%7 : !ori.r32, %12 : !ori.r32, %18 : !ori.r32)
  ^bb6(%28: !ori.r32, %29: !ori.r32, %30: !ori.r32):
    %31 = ori.isetp le %28, 0xffff, PT : (!ori.r32) -> !ori.p
    %32 = ori.sel %8, -0x80000000, %31 : (!ori.r32, !ori.p) -> !ori.r32
    %33 = ori.shl %26, 0x19 : (!ori.r32) -> !ori.r32
    %34 = ori.mov %26 : (!ori.r32) -> !ori.r32
    %35 = ori.lop3 %29, %34, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.ffma %13, 0.5, %30 : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.iadd3 %28, -0x1, RZ : (!ori.r32) -> !ori.r32
    %38 = ori.isetp ne.u32 %37, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %38 : !ori.p, ^bb6(%37 : !ori.r32, %35 : !ori.r32, %36 : !ori.r32), ^bb7(%37 : !ori.r32, %35 : !ori.r32, %36 : !ori.r32)
  ^bb7(%39: !ori.r32, %40: !ori.r32, %41: !ori.r32):
    %42 = ori.isetp ge.u32 %17, %8, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %42 : !ori.p, ^bb8, ^bb9
  ^bb8:
    ori.stg [%9 + 0xc], %8 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb10
  ^bb9:
    %43 = ori.lop3 %17, 0xf, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %44 = ori.imad wide.u32 %43, 0x4, %6 : (!ori.r32, !ori.r64) -> !ori.r64
    %45 = ori.atom add.u32 [%44], %3 : (!ori.r64, !ori.r32) -> !ori.r32
    ori.bra ^bb10
  ^bb10:
    %46 = ori.ffma %13, -1.25, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.ffma %13, 3.0, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.iadd3 %17, -0x1, RZ : (!ori.r32) -> !ori.r32
    %49 = ori.mov -0x61c88647 : () -> !ori.r32
    %50 = ori.iadd3 %49, %26, %39 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.shf l.w %50, 0x7, %50 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x18], %51 : (!ori.r64, !ori.r32) -> ()
    %52 = ori.isetp gt %48, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %52 : !ori.p, ^bb2(%48 : !ori.r32, %46 : !ori.r32, %47 : !ori.r32), ^bb11(%48 : !ori.r32, %46 : !ori.r32, %47 : !ori.r32)
  ^bb11(%53: !ori.r32, %54: !ori.r32, %55: !ori.r32):
    %56 = ori.mov -0x61c88647 : () -> !ori.r32
    %57 = ori.iadd3 %56, %53, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %58 = ori.shf l.w %57, 0x7, %57 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x18], %58 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb13(%8 : !ori.r32, %53 : !ori.r32, %12 : !ori.r32)
  ^bb12:
    %59 = ori.lop3 %0, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %60 = ori.lea %59, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %61 = ori.imad wide.u32 %60, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %62 = ori.ldg [%61 + 0x20] : (!ori.r64) -> !ori.r32
    %63 = ori.call @dev0(%3, %62) : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.shf l %63, 0xf, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.prmt %12, 0x7f50, %3 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb13(%63 : !ori.r32, %62 : !ori.r32, %64 : !ori.r32)
  ^bb13(%66: !ori.r32, %67: !ori.r32, %68: !ori.r32):
    %69 = ori.iadd3 %12, -0x5, RZ : (!ori.r32) -> !ori.r32
    %70 = ori.prmt %8, 0xe3f1, %69 : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.iadd3 %12, -0x1, RZ : (!ori.r32) -> !ori.r32
    %72 = ori.prmt %68, 0x30a9, %68 : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.shl %71, 0x1b : (!ori.r32) -> !ori.r32
    %74 = ori.mov %72 : (!ori.r32) -> !ori.r32
    %75 = ori.lop3 %71, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %76 = ori.isetp ne %75, 0x2, PT : (!ori.r32) -> !ori.p
    %77 = ori.shl %70, 0xf if %76 else %71 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %78 = ori.ffma %13, %13, %13 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.fmul %13, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.fmul %79, 2.0 : (!ori.r32) -> !ori.r32
    %81 = ori.isetp gt.u32 %73, %74, PT : (!ori.r32, !ori.r32) -> !ori.p
    %82 = ori.lea %67, %71, 0x13 if %81 else %8 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %83 = ori.mov -0x61c88647 : () -> !ori.r32
    %84 = ori.iadd3 %83, %68, %69 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.shf l.w %84, 0x7, %84 : (!ori.r32, !ori.r32) -> !ori.r32
    %86 = ori.lop3 %85, %70, %71, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %87 = ori.shf l.w %86, 0x7, %86 : (!ori.r32, !ori.r32) -> !ori.r32
    %88 = ori.iadd3 %87, %72, %73 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %89 = ori.shf l.w %88, 0x7, %88 : (!ori.r32, !ori.r32) -> !ori.r32
    %90 = ori.lop3 %89, %74, %77, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %91 = ori.shf l.w %90, 0x7, %90 : (!ori.r32, !ori.r32) -> !ori.r32
    %92 = ori.iadd3 %91, %78, %79 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %93 = ori.shf l.w %92, 0x7, %92 : (!ori.r32, !ori.r32) -> !ori.r32
    %94 = ori.lop3 %93, %80, %82, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %95 = ori.shf l.w %94, 0x7, %94 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %95 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
