builtin.module attributes {ori.target = "sm_90"} {
  ori.func @dev0(%0: !ori.r32, %1: !ori.r32) -> (!ori.r32, !ori.r32) {
    %2 = ori.mov 0x19d : () -> !ori.r32
    %3 = ori.isetp lt.u32 %1, %2, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %3 : !ori.p, ^bb1, ^bb2
  ^bb1:
    %4 = ori.popc %0 : (!ori.r32) -> !ori.r32
    %5 = ori.shl %1, 0x18 : (!ori.r32) -> !ori.r32
    %6 = ori.iadd3 %1, 0xffff, %2 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb6
  ^bb2:
    %7 = ori.isetp le %1, -0x28b25181, PT : (!ori.r32) -> !ori.p
    ori.bra if %7 : !ori.p, ^bb3, ^bb4
  ^bb3:
    %8 = ori.iadd3 %0, %1, %2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb5(%8 : !ori.r32)
  ^bb4:
    %9 = ori.lea %0, 0x209c1dc5, 0xf : (!ori.r32) -> !ori.r32
    %10 = ori.shr u32 %9, 0x0 : (!ori.r32) -> !ori.r32
    %11 = ori.lop3 %10, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %12 = ori.isetp le.u32 %11, 0x0, PT : (!ori.r32) -> !ori.p
    %13 = ori.sel %2, %9, %12 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.bra ^bb5(%0 : !ori.r32)
  ^bb5(%14: !ori.r32):
    ori.bra ^bb6
  ^bb6:
    ori.ret %0, %2 : !ori.r32, !ori.r32
  }
  ori.func @dev1(%0: !ori.r32) -> !ori.r32 {
    %1 = ori.mov 0x183 : () -> !ori.r32
    %2 = ori.imad %1, -0x6, %1 : (!ori.r32, !ori.r32) -> !ori.r32
    %3 = ori.flo %1 : (!ori.r32) -> !ori.r32
    %4 = ori.lea %0, %1, 0x1e : (!ori.r32, !ori.r32) -> !ori.r32
    %5 = ori.flo sh %1 : (!ori.r32) -> !ori.r32
    %6 = ori.lop3 %5, 0xffff, %1, 0x2d : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %2 : !ori.r32
  }
  ori.func kernel @fuzz1003() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %10 = ori.lop3 %8, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.lea %10, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %12 = ori.imad wide.u32 %11, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %13 = ori.ldg [%12 + 0x1e8] : (!ori.r64) -> !ori.r32
    %14 = ori.mov c[0x0][0x230] : () -> !ori.r32
    %15 = ori.lop3 %8, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %16 = ori.lea %15, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %17 = ori.imad wide.u32 %16, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %18 = ori.lop3 %8, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %19 = ori.isetp ge %18, 0x3, PT : (!ori.r32) -> !ori.p
    %20 = ori.ldg [%17] if %19 else %8 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %21 = ori.imad %3, 0x37ea4639, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.imad %3, 0x6eb283e7, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.imad %21, 0x3a3b1b4d, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.lop3 %23, %22, RZ, 0xb5 : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.imad %21, 0x92c3791, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.imad %20, 0x2d7355, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.imad %22, 0x78057883, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.lop3 %27, %21, RZ, 0x93 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.imad %21, 0x3c4a7ecf, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.imad %25, 0xd85afdf, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.imad %25, 0x1b3bad9, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.lop3 %31, %25, RZ, 0xd6 : (!ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.imad %13, 0x734268ad, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.imad %22, 0x3f41610b, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.imad %22, 0x78360f2b, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.lop3 %35, %24, RZ, 0x4e : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.imad %22, 0x174b9db1, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.imad %13, 0x3d0da1c9, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.imad %20, 0x10c7c509, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.lop3 %39, %25, RZ, 0x36 : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.imad %22, 0x4f93b837, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.imad %21, 0x2c79b9b3, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.imad %22, 0x58053163, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.lop3 %43, %22, RZ, 0x3 : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.imad %21, 0x7994c1ab, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.imad %20, 0x2b48719f, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.imad %24, 0x5124e1c9, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.lop3 %47, %20, RZ, 0xe : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.imad %8, 0x2492e4cf, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %50 = ori.imad %20, 0x78d9e04b, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.imad %8, 0x113bb96d, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %52 = ori.lop3 %51, %13, RZ, 0xb : (!ori.r32, !ori.r32) -> !ori.r32
    %53 = ori.imad %21, 0x72b8226d, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %54 = ori.imad %22, 0x14f64103, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %55 = ori.imad %24, 0x36c31bb7, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %56 = ori.lop3 %55, %24, RZ, 0xea : (!ori.r32, !ori.r32) -> !ori.r32
    %57 = ori.imad %24, 0x7f6d7de5, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %58 = ori.imad %13, 0x6d8600a5, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %59 = ori.imad %25, 0x6e77dd33, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %60 = ori.lop3 %59, %24, RZ, 0xf3 : (!ori.r32, !ori.r32) -> !ori.r32
    %61 = ori.imad %25, 0x5d4ca7d3, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %62 = ori.imad %13, 0x6b1d20e5, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.imad %24, 0x615f32cd, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.lop3 %63, %24, RZ, 0x9f : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.imad %24, 0x3bd5aacf, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.imad %22, 0x795f9afd, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %67 = ori.imad %22, 0x4f544247, %25 : (!ori.r32, !ori.r32) -> !ori.r32
    %68 = ori.lop3 %67, %0, RZ, 0xe2 : (!ori.r32, !ori.r32) -> !ori.r32
    %69 = ori.imad %21, 0x24f2b2df, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %70 = ori.imad %25, 0x7ebe5749, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.imad %22, 0x790d4c3b, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %72 = ori.lop3 %71, %13, RZ, 0xfb : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.imad %24, 0x50691f03, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %74 = ori.imad %13, 0x3d3ba4a1, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.imad %25, 0x6ea6681b, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %76 = ori.lop3 %75, %21, RZ, 0xae : (!ori.r32, !ori.r32) -> !ori.r32
    %77 = ori.imad %22, 0x156841b5, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %78 = ori.imad %24, 0x772e1c71, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.imad %13, 0x17eeab3b, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.lop3 %79, %25, RZ, 0x8a : (!ori.r32, !ori.r32) -> !ori.r32
    %81 = ori.imad %21, 0x3c9dea3f, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %82 = ori.imad %24, 0x4d4cf8f7, %24 : (!ori.r32, !ori.r32) -> !ori.r32
    %83 = ori.imad %21, 0x34209def, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %84 = ori.lop3 %83, %21, RZ, 0x36 : (!ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.flo %3 : (!ori.r32) -> !ori.r32
    %86 = ori.flo sh %22 : (!ori.r32) -> !ori.r32
    %87 = ori.lop3 %86, %22, %86, 0x43 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %88 = ori.lea %0, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    ori.sts [%88], %24 : (!ori.r32, !ori.r32) -> ()
    ori.bar 0x0 : () -> ()
    %89 = ori.iadd3 %2, -0x1, RZ : (!ori.r32) -> !ori.r32
    %90 = ori.iadd3 %0, 0x18, RZ : (!ori.r32) -> !ori.r32
    %91 = ori.lop3 %90, %89, RZ, 0xc0 : (!ori.r32, !ori.r32) -> !ori.r32
    %92 = ori.lea %91, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %93 = ori.lds [%92] : (!ori.r32) -> !ori.r32
    ori.bar 0x0 : () -> ()
    %94 = ori.isetp ne %85, 0xffff, PT : (!ori.r32) -> !ori.p
    %95 = ori.mov %20 if %94 else %93 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %96 = ori.isetp lt.u32 %25, -0x6, PT : (!ori.r32) -> !ori.p
    %97 = ori.prmt %95, 0xbead, %22 if not %96 else %93 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %98 = ori.f2i s32.f32 %14 : (!ori.r32) -> !ori.r32
    %99 = ori.f2i s32.f32 %14 : (!ori.r32) -> !ori.r32
    %100 = ori.fmul %14, %14 : (!ori.r32, !ori.r32) -> !ori.r32
    %101 = ori.fmul %100, %14 : (!ori.r32, !ori.r32) -> !ori.r32
    %102 = ori.f2i s32.f32 %101 : (!ori.r32) -> !ori.r32
    %103 = ori.mov -0x61c88647 : () -> !ori.r32
    %104 = ori.iadd3 %103, %25, %85 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %105 = ori.shf l.w %104, 0x7, %104 : (!ori.r32, !ori.r32) -> !ori.r32
    %106 = ori.lop3 %105, %86, %87, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %107 = ori.shf l.w %106, 0x7, %106 : (!ori.r32, !ori.r32) -> !ori.r32
    %108 = ori.iadd3 %107, %93, %95 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %109 = ori.shf l.w %108, 0x7, %108 : (!ori.r32, !ori.r32) -> !ori.r32
    %110 = ori.lop3 %109, %97, %98, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %111 = ori.shf l.w %110, 0x7, %110 : (!ori.r32, !ori.r32) -> !ori.r32
    %112 = ori.iadd3 %111, %99, %100 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %113 = ori.shf l.w %112, 0x7, %112 : (!ori.r32, !ori.r32) -> !ori.r32
    %114 = ori.lop3 %113, %101, %102, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %115 = ori.shf l.w %114, 0x7, %114 : (!ori.r32, !ori.r32) -> !ori.r32
    %116 = ori.iadd3 %115, %21, %22 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %117 = ori.shf l.w %116, 0x7, %116 : (!ori.r32, !ori.r32) -> !ori.r32
    %118 = ori.lop3 %117, %24, %25, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %119 = ori.shf l.w %118, 0x7, %118 : (!ori.r32, !ori.r32) -> !ori.r32
    %120 = ori.iadd3 %119, %26, %28 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %121 = ori.shf l.w %120, 0x7, %120 : (!ori.r32, !ori.r32) -> !ori.r32
    %122 = ori.lop3 %121, %29, %30, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %123 = ori.shf l.w %122, 0x7, %122 : (!ori.r32, !ori.r32) -> !ori.r32
    %124 = ori.iadd3 %123, %32, %33 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %125 = ori.shf l.w %124, 0x7, %124 : (!ori.r32, !ori.r32) -> !ori.r32
    %126 = ori.lop3 %125, %34, %36, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %127 = ori.shf l.w %126, 0x7, %126 : (!ori.r32, !ori.r32) -> !ori.r32
    %128 = ori.iadd3 %127, %37, %38 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %129 = ori.shf l.w %128, 0x7, %128 : (!ori.r32, !ori.r32) -> !ori.r32
    %130 = ori.lop3 %129, %40, %41, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %131 = ori.shf l.w %130, 0x7, %130 : (!ori.r32, !ori.r32) -> !ori.r32
    %132 = ori.iadd3 %131, %42, %44 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %133 = ori.shf l.w %132, 0x7, %132 : (!ori.r32, !ori.r32) -> !ori.r32
    %134 = ori.lop3 %133, %45, %46, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %135 = ori.shf l.w %134, 0x7, %134 : (!ori.r32, !ori.r32) -> !ori.r32
    %136 = ori.iadd3 %135, %48, %49 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %137 = ori.shf l.w %136, 0x7, %136 : (!ori.r32, !ori.r32) -> !ori.r32
    %138 = ori.lop3 %137, %50, %52, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %139 = ori.shf l.w %138, 0x7, %138 : (!ori.r32, !ori.r32) -> !ori.r32
    %140 = ori.iadd3 %139, %53, %54 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %141 = ori.shf l.w %140, 0x7, %140 : (!ori.r32, !ori.r32) -> !ori.r32
    %142 = ori.lop3 %141, %56, %57, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %143 = ori.shf l.w %142, 0x7, %142 : (!ori.r32, !ori.r32) -> !ori.r32
    %144 = ori.iadd3 %143, %58, %60 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %145 = ori.shf l.w %144, 0x7, %144 : (!ori.r32, !ori.r32) -> !ori.r32
    %146 = ori.lop3 %145, %61, %62, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %147 = ori.shf l.w %146, 0x7, %146 : (!ori.r32, !ori.r32) -> !ori.r32
    %148 = ori.iadd3 %147, %64, %65 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %149 = ori.shf l.w %148, 0x7, %148 : (!ori.r32, !ori.r32) -> !ori.r32
    %150 = ori.lop3 %149, %66, %68, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %151 = ori.shf l.w %150, 0x7, %150 : (!ori.r32, !ori.r32) -> !ori.r32
    %152 = ori.iadd3 %151, %69, %70 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %153 = ori.shf l.w %152, 0x7, %152 : (!ori.r32, !ori.r32) -> !ori.r32
    %154 = ori.lop3 %153, %72, %73, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %155 = ori.shf l.w %154, 0x7, %154 : (!ori.r32, !ori.r32) -> !ori.r32
    %156 = ori.iadd3 %155, %74, %76 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %157 = ori.shf l.w %156, 0x7, %156 : (!ori.r32, !ori.r32) -> !ori.r32
    %158 = ori.lop3 %157, %77, %78, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %159 = ori.shf l.w %158, 0x7, %158 : (!ori.r32, !ori.r32) -> !ori.r32
    %160 = ori.iadd3 %159, %80, %81 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %161 = ori.shf l.w %160, 0x7, %160 : (!ori.r32, !ori.r32) -> !ori.r32
    %162 = ori.lop3 %161, %82, %84, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %163 = ori.shf l.w %162, 0x7, %162 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %163 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
