builtin.module attributes {ori.target = "sm_80"} {
  ori.func @dev0(%0: !ori.r32, %1: !ori.r32, %2: !ori.r32) -> !ori.r32 {
    %3 = ori.mov 0xe6 : () -> !ori.r32
    %4 = ori.mov -0x6 : () -> !ori.r32
    %5 = ori.isetp ne %4, -0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %5 : !ori.p, ^bb1(%4 : !ori.r32, %0 : !ori.r32), ^bb4(%4 : !ori.r32, %0 : !ori.r32)
  ^bb1(%6: !ori.r32, %7: !ori.r32):
    %8 = ori.mov 0x20 : () -> !ori.r32
    ori.bra ^bb2(%8 : !ori.r32, %0 : !ori.r32, %3 : !ori.r32)
  ^bb2(%9: !ori.r32, %10: !ori.r32, %11: !ori.r32):
    %12 = ori.shr u32 %9, 0xb : (!ori.r32) -> !ori.r32
    %13 = ori.imad %10, 0x19, %10 : (!ori.r32, !ori.r32) -> !ori.r32
    %14 = ori.iadd3 %11, %9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %15 = ori.iadd3 %9, 0x1, RZ : (!ori.r32) -> !ori.r32
    %16 = ori.isetp le %15, 0x21, PT : (!ori.r32) -> !ori.p
    ori.bra if %16 : !ori.p, ^bb2(%15 : !ori.r32, %13 : !ori.r32, %14 : !ori.r32), ^bb3(%15 : !ori.r32, %13 : !ori.r32, %14 : !ori.r32)
  ^bb3(%17: !ori.r32, %18: !ori.r32, %19: !ori.r32):
    %20 = ori.lop3 %7, %7, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.iadd3 %6, 0x1, RZ : (!ori.r32) -> !ori.r32
    %22 = ori.isetp ne %21, -0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %22 : !ori.p, ^bb1(%21 : !ori.r32, %20 : !ori.r32), ^bb4(%21 : !ori.r32, %20 : !ori.r32)
  ^bb4(%23: !ori.r32, %24: !ori.r32):
    %25 = ori.imad hi.u32 %2, %1, %23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.bmsk w %24, 0x2 : (!ori.r32) -> !ori.r32
    %27 = ori.flo %24 : (!ori.r32) -> !ori.r32
    %28 = ori.isetp ge.u32 %23, %27, PT : (!ori.r32, !ori.r32) -> !ori.p
    %29 = ori.bmsk w %24, %24 if %28 else %3 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.ret %26 : !ori.r32
  }
  ori.func @dev1(%0: !ori.r32, %1: !ori.r32, %2: !ori.r32) -> !ori.r32 {
    %3 = ori.mov 0x80 : () -> !ori.r32
    %4 = ori.lop3 %0, %3, RZ, 0xcc : (!ori.r32, !ori.r32) -> !ori.r32
    %5 = ori.shr u32 %3, 0x8 : (!ori.r32) -> !ori.r32
    %6 = ori.lop3 %4, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %7 = ori.isetp lt %6, 0x3, PT : (!ori.r32) -> !ori.p
    %8 = ori.sel %1, %1, %7 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %9 = ori.mov 0x18 : () -> !ori.r32
    %10 = ori.isetp lt %9, 0x1a, PT : (!ori.r32) -> !ori.p
    ori.bra if %10 : !ori.p, ^bb1(%9 : !ori.r32), ^bb5(%9 : !ori.r32)
  ^bb1(%11: !ori.r32):
    %12 = ori.mov -0x5 : () -> !ori.r32
    ori.bra ^bb2(%12 : !ori.r32, %11 : !ori.r32)
  ^bb2(%13: !ori.r32, %14: !ori.r32):
    %15 = ori.isetp lt %13, 0x5, PT : (!ori.r32) -> !ori.p
    %16 = ori.plop3 %15, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %16 : !ori.p, ^bb4(%13 : !ori.r32, %14 : !ori.r32), ^bb3
  ^bb3:
    %17 = ori.iadd3 %11, %5, %4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %18 = ori.imad %11, -0x3, %4 : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.imad %14, 0x1, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.iadd3 %13, 0x5, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb2(%20 : !ori.r32, %19 : !ori.r32)
  ^bb4(%21: !ori.r32, %22: !ori.r32):
    %23 = ori.iadd3 %11, 0x1, RZ : (!ori.r32) -> !ori.r32
    %24 = ori.isetp lt %23, 0x1a, PT : (!ori.r32) -> !ori.p
    ori.bra if %24 : !ori.p, ^bb1(%23 : !ori.r32), ^bb5(%23 : !ori.r32)
  ^bb5(%25: !ori.r32):
    ori.ret %5 : !ori.r32
  }
  ori.func kernel @fuzz1007() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
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
    %10 = ori.lop3 %0, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.lea %10, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %12 = ori.imad wide.u32 %11, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %13 = ori.ldg [%12] : (!ori.r64) -> !ori.r32
    %14 = ori.mov c[0x0][0x180] : () -> !ori.r32
    %15 = ori.lop3 %0, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %16 = ori.imad wide.u32 %15, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %17 = ori.ldg [%16] : (!ori.r64) -> !ori.r32
    %18 = ori.imad %17, 0x1a2fed17, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.imad %13, 0x2d1dd3e7, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.imad %19, 0x77f8e1f3, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.lop3 %20, %18, RZ, 0x89 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.imad %13, 0x304aa5bb, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.imad %13, 0x39cf9daf, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.imad %0, 0x4b871f6f, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.lop3 %24, %21, RZ, 0xf5 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.imad %0, 0x22971463, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.imad %3, 0x68d198a3, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.imad %3, 0x2a8c37ed, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.lop3 %28, %22, RZ, 0xd6 : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.imad %0, 0xb1db7bb, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.imad %13, 0x3a2cbe6b, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.imad %3, 0x3e5275f9, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.lop3 %32, %21, RZ, 0xe5 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.imad %17, 0x497073df, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.imad %18, 0x2aa638c5, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.imad %18, 0x2a97c901, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.lop3 %36, %13, RZ, 0xe1 : (!ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.imad %13, 0x68c040f3, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.imad %13, 0x4d93028b, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.imad %18, 0x40f4f3c5, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.lop3 %40, %18, RZ, 0xdc : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.imad %22, 0x5b3dec1d, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.imad %19, 0x46d7b985, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.imad %21, 0x2ac0d355, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.lop3 %44, %18, RZ, 0xdf : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.imad %19, 0x55350841, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.imad %19, 0xeb81487, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.imad %8, 0x1b96e8b5, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.lop3 %48, %22, RZ, 0xf8 : (!ori.r32, !ori.r32) -> !ori.r32
    %50 = ori.imad %22, 0x3722349d, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.imad %8, 0x666fb449, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %52 = ori.imad %8, 0x25ec089f, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %53 = ori.lop3 %52, %22, RZ, 0xe1 : (!ori.r32, !ori.r32) -> !ori.r32
    %54 = ori.imad %13, 0x5264340f, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %55 = ori.imad %22, 0x3c035eb9, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %56 = ori.imad %17, 0xec2eb6d, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %57 = ori.lop3 %56, %19, RZ, 0x3b : (!ori.r32, !ori.r32) -> !ori.r32
    %58 = ori.imad %19, 0x2dc55bfb, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %59 = ori.imad %18, 0x513bd971, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %60 = ori.imad %18, 0x4b6af945, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %61 = ori.lop3 %60, %17, RZ, 0x8b : (!ori.r32, !ori.r32) -> !ori.r32
    %62 = ori.imad %3, 0x5866c4b7, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %63 = ori.imad %22, 0x3a57dc9d, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %64 = ori.imad %18, 0x5f3502bd, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.lop3 %64, %17, RZ, 0x5f : (!ori.r32, !ori.r32) -> !ori.r32
    %66 = ori.imad %22, 0x6f26dd0d, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %67 = ori.imad %22, 0x2be0eddb, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %68 = ori.imad %21, 0x2de4c165, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %69 = ori.lop3 %68, %21, RZ, 0x2e : (!ori.r32, !ori.r32) -> !ori.r32
    %70 = ori.imad %22, 0x416183ab, %17 : (!ori.r32, !ori.r32) -> !ori.r32
    %71 = ori.imad %21, 0x65c5508f, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %72 = ori.imad %19, 0x93f0977, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %73 = ori.lop3 %72, %13, RZ, 0x4c : (!ori.r32, !ori.r32) -> !ori.r32
    %74 = ori.imad %22, 0x7bcf3717, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.imad %22, 0x41545579, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %76 = ori.imad %22, 0x6d02d48f, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %77 = ori.lop3 %76, %17, RZ, 0xe1 : (!ori.r32, !ori.r32) -> !ori.r32
    %78 = ori.imad %0, 0x20338f7d, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.imad %18, 0x350f767d, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %80 = ori.imad %13, 0x2f1efb13, %21 : (!ori.r32, !ori.r32) -> !ori.r32
    %81 = ori.lop3 %80, %19, RZ, 0x3e : (!ori.r32, !ori.r32) -> !ori.r32
    %82 = ori.lop3 %18, 0xf, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %83 = ori.imad wide.u32 %82, 0x4, %6 : (!ori.r32, !ori.r64) -> !ori.r64
    %84 = ori.atom add.u32 [%83], %13 : (!ori.r64, !ori.r32) -> !ori.r32
    %85 = ori.fsetp gt %14, %14, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %85 : !ori.p, ^bb1, ^bb2(%14 : !ori.r32)
  ^bb1:
    %86 = ori.brev %13 : (!ori.r32) -> !ori.r32
    ori.bra ^bb2(%14 : !ori.r32)
  ^bb2(%87: !ori.r32):
    %88 = ori.lop3 %8, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %89 = ori.imad wide.u32 %88, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %90 = ori.ldg [%89 + 0x84] : (!ori.r64) -> !ori.r32
    %91 = ori.mov -0x61c88647 : () -> !ori.r32
    %92 = ori.iadd3 %91, %0, %3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %93 = ori.shf l.w %92, 0x7, %92 : (!ori.r32, !ori.r32) -> !ori.r32
    %94 = ori.lop3 %93, %8, %13, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %95 = ori.shf l.w %94, 0x7, %94 : (!ori.r32, !ori.r32) -> !ori.r32
    %96 = ori.iadd3 %95, %14, %17 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %97 = ori.shf l.w %96, 0x7, %96 : (!ori.r32, !ori.r32) -> !ori.r32
    %98 = ori.lop3 %97, %18, %19, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %99 = ori.shf l.w %98, 0x7, %98 : (!ori.r32, !ori.r32) -> !ori.r32
    %100 = ori.iadd3 %99, %21, %22 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %101 = ori.shf l.w %100, 0x7, %100 : (!ori.r32, !ori.r32) -> !ori.r32
    %102 = ori.lop3 %101, %87, %90, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %103 = ori.shf l.w %102, 0x7, %102 : (!ori.r32, !ori.r32) -> !ori.r32
    %104 = ori.iadd3 %103, %18, %19 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %105 = ori.shf l.w %104, 0x7, %104 : (!ori.r32, !ori.r32) -> !ori.r32
    %106 = ori.lop3 %105, %21, %22, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %107 = ori.shf l.w %106, 0x7, %106 : (!ori.r32, !ori.r32) -> !ori.r32
    %108 = ori.iadd3 %107, %23, %25 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %109 = ori.shf l.w %108, 0x7, %108 : (!ori.r32, !ori.r32) -> !ori.r32
    %110 = ori.lop3 %109, %26, %27, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %111 = ori.shf l.w %110, 0x7, %110 : (!ori.r32, !ori.r32) -> !ori.r32
    %112 = ori.iadd3 %111, %29, %30 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %113 = ori.shf l.w %112, 0x7, %112 : (!ori.r32, !ori.r32) -> !ori.r32
    %114 = ori.lop3 %113, %31, %33, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %115 = ori.shf l.w %114, 0x7, %114 : (!ori.r32, !ori.r32) -> !ori.r32
    %116 = ori.iadd3 %115, %34, %35 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %117 = ori.shf l.w %116, 0x7, %116 : (!ori.r32, !ori.r32) -> !ori.r32
    %118 = ori.lop3 %117, %37, %38, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %119 = ori.shf l.w %118, 0x7, %118 : (!ori.r32, !ori.r32) -> !ori.r32
    %120 = ori.iadd3 %119, %39, %41 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %121 = ori.shf l.w %120, 0x7, %120 : (!ori.r32, !ori.r32) -> !ori.r32
    %122 = ori.lop3 %121, %42, %43, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %123 = ori.shf l.w %122, 0x7, %122 : (!ori.r32, !ori.r32) -> !ori.r32
    %124 = ori.iadd3 %123, %45, %46 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %125 = ori.shf l.w %124, 0x7, %124 : (!ori.r32, !ori.r32) -> !ori.r32
    %126 = ori.lop3 %125, %47, %49, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %127 = ori.shf l.w %126, 0x7, %126 : (!ori.r32, !ori.r32) -> !ori.r32
    %128 = ori.iadd3 %127, %50, %51 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %129 = ori.shf l.w %128, 0x7, %128 : (!ori.r32, !ori.r32) -> !ori.r32
    %130 = ori.lop3 %129, %53, %54, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %131 = ori.shf l.w %130, 0x7, %130 : (!ori.r32, !ori.r32) -> !ori.r32
    %132 = ori.iadd3 %131, %55, %57 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %133 = ori.shf l.w %132, 0x7, %132 : (!ori.r32, !ori.r32) -> !ori.r32
    %134 = ori.lop3 %133, %58, %59, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %135 = ori.shf l.w %134, 0x7, %134 : (!ori.r32, !ori.r32) -> !ori.r32
    %136 = ori.iadd3 %135, %61, %62 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %137 = ori.shf l.w %136, 0x7, %136 : (!ori.r32, !ori.r32) -> !ori.r32
    %138 = ori.lop3 %137, %63, %65, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %139 = ori.shf l.w %138, 0x7, %138 : (!ori.r32, !ori.r32) -> !ori.r32
    %140 = ori.iadd3 %139, %66, %67 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %141 = ori.shf l.w %140, 0x7, %140 : (!ori.r32, !ori.r32) -> !ori.r32
    %142 = ori.lop3 %141, %69, %70, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %143 = ori.shf l.w %142, 0x7, %142 : (!ori.r32, !ori.r32) -> !ori.r32
    %144 = ori.iadd3 %143, %71, %73 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %145 = ori.shf l.w %144, 0x7, %144 : (!ori.r32, !ori.r32) -> !ori.r32
    %146 = ori.lop3 %145, %74, %75, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %147 = ori.shf l.w %146, 0x7, %146 : (!ori.r32, !ori.r32) -> !ori.r32
    %148 = ori.iadd3 %147, %77, %78 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %149 = ori.shf l.w %148, 0x7, %148 : (!ori.r32, !ori.r32) -> !ori.r32
    %150 = ori.lop3 %149, %79, %81, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %151 = ori.shf l.w %150, 0x7, %150 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %151 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
