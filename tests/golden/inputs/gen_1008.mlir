builtin.module attributes {ori.target = "sm_100"} {
  ori.func @dev0(%0: !ori.r32) -> !ori.r32 {
    %1 = ori.mov 0x37e : () -> !ori.r32
    %2 = ori.isetp lt.u32 %1, 0x1f, PT : (!ori.r32) -> !ori.p
    %3 = ori.lop3 %0, %0, RZ, 0xe0 if not %2 else %0 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %4 = ori.isetp gt.u32 %1, %3, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %4 : !ori.p, ^bb1, ^bb5
  ^bb1:
    %5 = ori.lop3 %0, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %6 = ori.isetp lt %5, 0x2, PT : (!ori.r32) -> !ori.p
    ori.bra if %6 : !ori.p, ^bb2, ^bb3
  ^bb2:
    %7 = ori.mov -0x3c3e5c7e : () -> !ori.r32
    ori.bra ^bb4(%0 : !ori.r32, %7 : !ori.r32, %3 : !ori.r32)
  ^bb3:
    %8 = ori.shf r.w %0, 0x14, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %9 = ori.iadd3 -%1, %3, %8 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %10 = ori.iadd3 %3, %1, %1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb4(%8 : !ori.r32, %1 : !ori.r32, %0 : !ori.r32)
  ^bb4(%11: !ori.r32, %12: !ori.r32, %13: !ori.r32):
    %14 = ori.lea %11, %3, 0x0 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb9(%14 : !ori.r32, %13 : !ori.r32)
  ^bb5:
    %15 = ori.isetp eq %3, %1, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %15 : !ori.p, ^bb6, ^bb7
  ^bb6:
    %16 = ori.shl %3, 0x18 : (!ori.r32) -> !ori.r32
    %17 = ori.flo sh %1 : (!ori.r32) -> !ori.r32
    ori.bra ^bb8(%0 : !ori.r32, %16 : !ori.r32)
  ^bb7:
    %18 = ori.imad %0, %3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.brev %1 : (!ori.r32) -> !ori.r32
    %20 = ori.shf r.w %3, 0x2, %1 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb8(%1 : !ori.r32, %18 : !ori.r32)
  ^bb8(%21: !ori.r32, %22: !ori.r32):
    ori.bra ^bb9(%1 : !ori.r32, %0 : !ori.r32)
  ^bb9(%23: !ori.r32, %24: !ori.r32):
    %25 = ori.shf l.w %1, 0x6, %1 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.iadd3 %3, 0x5, RZ : (!ori.r32) -> !ori.r32
    %27 = ori.imad %26, -0x29279114, RZ : (!ori.r32) -> !ori.r32
    ori.ret %0 : !ori.r32
  }
  ori.func kernel @fuzz1008() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>, #ori.param<4, align 4, at 0x18>, #ori.param<4, align 4, at 0x1c>, #ori.param<4, align 4, at 0x20>]} {
    %0 = ori.s2r SR_TID.X : () -> !ori.r32
    %1 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %2 = ori.mov c[0x0][0x360] : () -> !ori.r32
    %3 = ori.imad %1, %2, %0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %4 = ori.ldc b64 0x0, [RZ + 0x380] : () -> !ori.r64
    %5 = ori.ldc b64 0x0, [RZ + 0x388] : () -> !ori.r64
    %6 = ori.ldc b64 0x0, [RZ + 0x390] : () -> !ori.r64
    %7 = ori.mov c[0x0][0x398] : () -> !ori.r32
    %8 = ori.mov c[0x0][0x39c] : () -> !ori.r32
    %9 = ori.imad wide.u32 %3, 0x20, %4 : (!ori.r32, !ori.r64) -> !ori.r64
    %10 = ori.lop3 %0, 0x7f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %11 = ori.imad wide.u32 %10, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %12 = ori.ldg [%11 + 0xb4] : (!ori.r64) -> !ori.r32
    %13 = ori.mov c[0x0][0x3a0] : () -> !ori.r32
    %14 = ori.lop3 %12, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %15 = ori.imad wide.u32 %14, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %16 = ori.lop3 %0, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %17 = ori.isetp ge %16, 0x2, PT : (!ori.r32) -> !ori.p
    %18 = ori.ldg [%15] if %17 else %0 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %19 = ori.imad %0, 0x14dcb3ff, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %20 = ori.imad %19, 0x3772ae1f, %0 : (!ori.r32, !ori.r32) -> !ori.r32
    %21 = ori.imad %3, 0x5a0929a1, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %22 = ori.lop3 %21, %12, RZ, 0x57 : (!ori.r32, !ori.r32) -> !ori.r32
    %23 = ori.imad %22, 0x4e8b1575, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %24 = ori.imad %23, 0x3fc306f9, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %25 = ori.imad %18, 0x17c798eb, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %26 = ori.lop3 %25, %23, RZ, 0xaf : (!ori.r32, !ori.r32) -> !ori.r32
    %27 = ori.imad %23, 0x17a83d17, %23 : (!ori.r32, !ori.r32) -> !ori.r32
    %28 = ori.imad %12, 0x26c580f, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %29 = ori.imad %19, 0x741186f7, %22 : (!ori.r32, !ori.r32) -> !ori.r32
    %30 = ori.lop3 %29, %18, RZ, 0x2e : (!ori.r32, !ori.r32) -> !ori.r32
    %31 = ori.imad %23, 0x64823c9d, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %32 = ori.imad %18, 0x2a980d1f, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %33 = ori.imad %22, 0x27cf291f, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %34 = ori.lop3 %33, %12, RZ, 0xf6 : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.imad %22, 0x6a7c97c3, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %36 = ori.imad %19, 0x715301d3, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %37 = ori.imad %18, 0x31b86343, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %38 = ori.lop3 %37, %22, RZ, 0xd9 : (!ori.r32, !ori.r32) -> !ori.r32
    %39 = ori.imad %23, 0x7183c8a9, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %40 = ori.imad %3, 0x6d7cd579, %23 : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.imad %18, 0x5e35114d, %20 : (!ori.r32, !ori.r32) -> !ori.r32
    %42 = ori.lop3 %41, %18, RZ, 0xb : (!ori.r32, !ori.r32) -> !ori.r32
    %43 = ori.imad %22, 0x13a64e09, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %44 = ori.imad %3, 0x40e3b4d9, %23 : (!ori.r32, !ori.r32) -> !ori.r32
    %45 = ori.imad %19, 0x37d69a5, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %46 = ori.lop3 %45, %18, RZ, 0x4 : (!ori.r32, !ori.r32) -> !ori.r32
    %47 = ori.imad %19, 0x34acfa91, %12 : (!ori.r32, !ori.r32) -> !ori.r32
    %48 = ori.imad %12, 0x44e0239f, %19 : (!ori.r32, !ori.r32) -> !ori.r32
    %49 = ori.imad %22, 0x52114ea9, %18 : (!ori.r32, !ori.r32) -> !ori.r32
    %50 = ori.lop3 %49, %22, RZ, 0x6c : (!ori.r32, !ori.r32) -> !ori.r32
    %51 = ori.lop3 %22, 0xf, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%51 : !ori.r32)
  ^bb1(%52: !ori.r32):
    %53 = ori.isetp gt %52, 0x0, PT : (!ori.r32) -> !ori.p
    %54 = ori.plop3 %53, PT, PT, 0xf : (!ori.p) -> !ori.p
    ori.bra if %54 : !ori.p, ^bb6(%52 : !ori.r32), ^bb2
  ^bb2:
    %55 = ori.mov 0x7 : () -> !ori.r32
    ori.bra ^bb3(%55 : !ori.r32)
  ^bb3(%56: !ori.r32):
    %57 = ori.isetp le %56, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %57 : !ori.p, ^bb4, ^bb5(%56 : !ori.r32)
  ^bb4:
    ori.stg [%9 + 0x8], %56 : (!ori.r64, !ori.r32) -> ()
    %58 = ori.iadd3 %56, 0x2, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb3(%58 : !ori.r32)
  ^bb5(%59: !ori.r32):
    %60 = ori.fmul %13, 0.10000000149011612 : (!ori.r32) -> !ori.r32
    %61 = ori.fmul %13, 1.5 : (!ori.r32) -> !ori.r32
    %62 = ori.iadd3 %52, -0x1, RZ : (!ori.r32) -> !ori.r32
    %63 = ori.mov -0x61c88647 : () -> !ori.r32
    %64 = ori.iadd3 %63, %59, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %65 = ori.shf l.w %64, 0x7, %64 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x14], %65 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb1(%62 : !ori.r32)
  ^bb6(%66: !ori.r32):
    %67 = ori.call @dev0(%22) : (!ori.r32) -> !ori.r32
    %68 = ori.lop3 %19, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %69 = ori.isetp ge.u32 %68, 0x1, PT : (!ori.r32) -> !ori.p
    ori.stg [%9 + 0x14], %23 if not %69 : (!ori.r64, !ori.r32, !ori.p) -> ()
    %70 = ori.fsetp eq %13, %13, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %70 : !ori.p, ^bb7, ^bb8
  ^bb7:
    %71 = ori.lop3 %0, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %72 = ori.isetp le.u32 %71, 0x3, PT : (!ori.r32) -> !ori.p
    %73 = ori.lop3 %67, %20, RZ, 0x90 if %72 else %19 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %74 = ori.fmul %13, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %75 = ori.lop3 %23, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %76 = ori.imad wide.u32 %75, 0x4, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %77 = ori.ldg [%76] : (!ori.r64) -> !ori.r32
    %78 = ori.iadd3 %22, %0, %77 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %79 = ori.shl %67, 0x18 : (!ori.r32) -> !ori.r32
    ori.bra ^bb9(%18 : !ori.r32, %79 : !ori.r32, %78 : !ori.r32)
  ^bb8:
    %80 = ori.flo sh %67 : (!ori.r32) -> !ori.r32
    %81 = ori.lea %67, -0x5, 0x1f : (!ori.r32) -> !ori.r32
    %82 = ori.imad hi %22, 0x1, %8 : (!ori.r32, !ori.r32) -> !ori.r32
    %83 = ori.fmul %13, %13 : (!ori.r32, !ori.r32) -> !ori.r32
    %84 = ori.fadd %13, %83 : (!ori.r32, !ori.r32) -> !ori.r32
    %85 = ori.fmul %13, %84 : (!ori.r32, !ori.r32) -> !ori.r32
    %86 = ori.fmul %85, 2.0 : (!ori.r32) -> !ori.r32
    ori.bra ^bb9(%8 : !ori.r32, %66 : !ori.r32, %23 : !ori.r32)
  ^bb9(%87: !ori.r32, %88: !ori.r32, %89: !ori.r32):
    %90 = ori.lop3 %12, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %91 = ori.lea %90, 0x0, 0x2 : (!ori.r32) -> !ori.r32
    %92 = ori.imad wide.u32 %91, 0x1, %5 : (!ori.r32, !ori.r64) -> !ori.r64
    %93 = ori.isetp eq.u32 %67, %89, PT : (!ori.r32, !ori.r32) -> !ori.p
    %94 = ori.ldg [%92] if %93 else %67 : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %95 = ori.mov -0x61c88647 : () -> !ori.r32
    %96 = ori.iadd3 %95, %13, %18 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %97 = ori.shf l.w %96, 0x7, %96 : (!ori.r32, !ori.r32) -> !ori.r32
    %98 = ori.lop3 %97, %19, %20, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %99 = ori.shf l.w %98, 0x7, %98 : (!ori.r32, !ori.r32) -> !ori.r32
    %100 = ori.iadd3 %99, %22, %23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %101 = ori.shf l.w %100, 0x7, %100 : (!ori.r32, !ori.r32) -> !ori.r32
    %102 = ori.lop3 %101, %66, %67, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %103 = ori.shf l.w %102, 0x7, %102 : (!ori.r32, !ori.r32) -> !ori.r32
    %104 = ori.iadd3 %103, %87, %88 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %105 = ori.shf l.w %104, 0x7, %104 : (!ori.r32, !ori.r32) -> !ori.r32
    %106 = ori.lop3 %105, %89, %94, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %107 = ori.shf l.w %106, 0x7, %106 : (!ori.r32, !ori.r32) -> !ori.r32
    %108 = ori.iadd3 %107, %66, %19 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %109 = ori.shf l.w %108, 0x7, %108 : (!ori.r32, !ori.r32) -> !ori.r32
    %110 = ori.lop3 %109, %20, %22, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %111 = ori.shf l.w %110, 0x7, %110 : (!ori.r32, !ori.r32) -> !ori.r32
    %112 = ori.iadd3 %111, %23, %24 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %113 = ori.shf l.w %112, 0x7, %112 : (!ori.r32, !ori.r32) -> !ori.r32
    %114 = ori.lop3 %113, %26, %27, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %115 = ori.shf l.w %114, 0x7, %114 : (!ori.r32, !ori.r32) -> !ori.r32
    %116 = ori.iadd3 %115, %28, %30 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %117 = ori.shf l.w %116, 0x7, %116 : (!ori.r32, !ori.r32) -> !ori.r32
    %118 = ori.lop3 %117, %31, %32, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %119 = ori.shf l.w %118, 0x7, %118 : (!ori.r32, !ori.r32) -> !ori.r32
    %120 = ori.iadd3 %119, %34, %35 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %121 = ori.shf l.w %120, 0x7, %120 : (!ori.r32, !ori.r32) -> !ori.r32
    %122 = ori.lop3 %121, %36, %38, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %123 = ori.shf l.w %122, 0x7, %122 : (!ori.r32, !ori.r32) -> !ori.r32
    %124 = ori.iadd3 %123, %39, %40 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %125 = ori.shf l.w %124, 0x7, %124 : (!ori.r32, !ori.r32) -> !ori.r32
    %126 = ori.lop3 %125, %42, %43, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %127 = ori.shf l.w %126, 0x7, %126 : (!ori.r32, !ori.r32) -> !ori.r32
    %128 = ori.iadd3 %127, %44, %46 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %129 = ori.shf l.w %128, 0x7, %128 : (!ori.r32, !ori.r32) -> !ori.r32
    %130 = ori.lop3 %129, %47, %48, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %131 = ori.shf l.w %130, 0x7, %130 : (!ori.r32, !ori.r32) -> !ori.r32
    %132 = ori.iadd3 %131, %50, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %133 = ori.shf l.w %132, 0x7, %132 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%9 + 0x1c], %133 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
