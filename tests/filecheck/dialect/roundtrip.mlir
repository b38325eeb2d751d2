// Every op family in the custom syntax survives print -> parse -> print.
// RUN: ori-opt %s | ori-opt | filecheck %s
// RUN: ori-opt %s > %t.1.mlir && ori-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func @callee(%v: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    ori.ret %v : !ori.r32
  }
  // CHECK:      ori.func @callee(%{{.*}}: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
  // CHECK-NEXT:   ori.ret %{{.*}} : !ori.r32

  ori.func @all(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %w: !ori.r64, %x: !ori.r64, %q: !ori.r128, %p: !ori.p, %p2: !ori.p, %u: !ori.ur32) {
    // integer
    %0 = ori.iadd3 %a, 0x10, RZ : (!ori.r32) -> !ori.r32
    %1, %2 = ori.iadd3 -%a, -%b, %c : (!ori.r32, !ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %3 = ori.iadd3 x %a, c[0x0][0x160], RZ, %p, not PT : (!ori.r32, !ori.p) -> !ori.r32
    %4 = ori.iadd3 %a, %u, %c : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
    %5 = ori.imad hi.u32 %a, 0x4, RZ : (!ori.r32) -> !ori.r32
    %6 = ori.imad wide.u32 %a, 0x4, %w : (!ori.r32, !ori.r64) -> !ori.r64
    %7 = ori.lea hi.x %a, %b, 0x2, %c, %p : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %8 = ori.lop3 %a, %b, %c, 0xc0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %9 = ori.shf l.w.u64.hi %a, 0x3, %b : (!ori.r32, !ori.r32) -> !ori.r32
    %10 = ori.shl %a, 0x5 : (!ori.r32) -> !ori.r32
    %11 = ori.shr u32 %a, %b : (!ori.r32, !ori.r32) -> !ori.r32
    %12 = ori.imnmx u32 %a, %b, not PT : (!ori.r32, !ori.r32) -> !ori.r32
    %13 = ori.iabs %a : (!ori.r32) -> !ori.r32
    %14 = ori.popc %a : (!ori.r32) -> !ori.r32
    %15 = ori.flo s32.sh %a : (!ori.r32) -> !ori.r32
    %16 = ori.brev %a : (!ori.r32) -> !ori.r32
    %17 = ori.bmsk w %a, 0x8 : (!ori.r32) -> !ori.r32
    %18 = ori.prmt %a, 0x5410, %b : (!ori.r32, !ori.r32) -> !ori.r32
    %19 = ori.sel %a, 0x1, not %p : (!ori.r32, !ori.p) -> !ori.r32
    %20 = ori.mov -0x1 : () -> !ori.r32
    %21 = ori.ldc 0x3, [RZ + 0x10] : () -> !ori.ur32
    // CHECK:      ori.iadd3 %{{.*}}, 0x10, RZ : (!ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.iadd3 -%{{.*}}, -%{{.*}}, %{{.*}} : (!ori.r32, !ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    // CHECK-NEXT: ori.iadd3 x %{{.*}}, c[0x0][0x160], RZ, %{{.*}}, not PT : (!ori.r32, !ori.p) -> !ori.r32
    // CHECK-NEXT: ori.iadd3 %{{.*}}, %{{.*}}, %{{.*}} : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.imad hi.u32 %{{.*}}, 0x4, RZ : (!ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.imad wide.u32 %{{.*}}, 0x4, %{{.*}} : (!ori.r32, !ori.r64) -> !ori.r64
    // CHECK-NEXT: ori.lea hi.x %{{.*}}, %{{.*}}, 0x2, %{{.*}}, %{{.*}} : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    // CHECK-NEXT: ori.lop3 %{{.*}}, %{{.*}}, %{{.*}}, 0xc0 :
    // CHECK-NEXT: ori.shf l.w.u64.hi %{{.*}}, 0x3, %{{.*}} :
    // CHECK-NEXT: ori.shl %{{.*}}, 0x5 :
    // CHECK-NEXT: ori.shr u32 %{{.*}}, %{{.*}} :
    // CHECK-NEXT: ori.imnmx u32 %{{.*}}, %{{.*}}, not PT :
    // CHECK-NEXT: ori.iabs %{{.*}} :
    // CHECK-NEXT: ori.popc %{{.*}} :
    // CHECK-NEXT: ori.flo s32.sh %{{.*}} :
    // CHECK-NEXT: ori.brev %{{.*}} :
    // CHECK-NEXT: ori.bmsk w %{{.*}}, 0x8 :
    // CHECK-NEXT: ori.prmt %{{.*}}, 0x5410, %{{.*}} :
    // CHECK-NEXT: ori.sel %{{.*}}, 0x1, not %{{.*}} : (!ori.r32, !ori.p) -> !ori.r32
    // CHECK-NEXT: ori.mov -0x1 : () -> !ori.r32
    // CHECK-NEXT: ori.ldc 0x3, [RZ + 0x10] : () -> !ori.ur32

    // predicates
    %22 = ori.isetp ge.u32 %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %23, %24 = ori.isetp ne.or.ex %a, 0x0, %p, %p2 : (!ori.r32, !ori.p, !ori.p) -> (!ori.p, !ori.p)
    %25 = ori.fsetp gtu.xor.ftz |%a|, -2.5, PT : (!ori.r32) -> !ori.p
    %26 = ori.dsetp lt %w, %x, not %p : (!ori.r64, !ori.r64, !ori.p) -> !ori.p
    %27, %28 = ori.plop3 %p, %p2, PT, 0x80, 0x8 : (!ori.p, !ori.p) -> (!ori.p, !ori.p)
    %29 = ori.p2r %a, 0x3, %p, %p2 : (!ori.r32, !ori.p, !ori.p) -> !ori.r32
    %30, %31 = ori.r2p %a, 0x3 : (!ori.r32) -> (!ori.p, !ori.p)
    // CHECK-NEXT: ori.isetp ge.u32 %{{.*}}, %{{.*}}, PT : (!ori.r32, !ori.r32) -> !ori.p
    // CHECK-NEXT: ori.isetp ne.or.ex %{{.*}}, 0x0, %{{.*}}, %{{.*}} : (!ori.r32, !ori.p, !ori.p) -> (!ori.p, !ori.p)
    // CHECK-NEXT: ori.fsetp gtu.xor.ftz |%{{.*}}|, -2.5, PT : (!ori.r32) -> !ori.p
    // CHECK-NEXT: ori.dsetp lt %{{.*}}, %{{.*}}, not %{{.*}} :
    // CHECK-NEXT: ori.plop3 %{{.*}}, %{{.*}}, PT, 0x80, 0x8 :
    // CHECK-NEXT: ori.p2r %{{.*}}, 0x3, %{{.*}}, %{{.*}} :
    // CHECK-NEXT: ori.r2p %{{.*}}, 0x3 : (!ori.r32) -> (!ori.p, !ori.p)

    // floating point
    %32 = ori.fadd rz.ftz -%a, inf : (!ori.r32) -> !ori.r32
    %33 = ori.fmul sat %a, c[0x0][0x164] : (!ori.r32) -> !ori.r32
    %34 = ori.ffma %a, 0.5, -|%c| : (!ori.r32, !ori.r32) -> !ori.r32
    %35 = ori.fmnmx %a, 1.0, PT : (!ori.r32) -> !ori.r32
    %36 = ori.mufu ex2 %a : (!ori.r32) -> !ori.r32
    %37 = ori.dadd %w, -%x : (!ori.r64, !ori.r64) -> !ori.r64
    %38 = ori.dmul rp %w, 2.0 : (!ori.r64) -> !ori.r64
    %39 = ori.dfma %w, %x, %w : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64
    %40 = ori.hadd2 %a, %b : (!ori.r32, !ori.r32) -> !ori.r32
    %41 = ori.hmul2 bf16 %a, 0x3c003c00 : (!ori.r32) -> !ori.r32
    %42 = ori.hfma2 f32 %a, %b, -%c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.fadd rz.ftz -%{{.*}}, inf : (!ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.fmul sat %{{.*}}, c[0x0][0x164] :
    // CHECK-NEXT: ori.ffma %{{.*}}, 0.5, -|%{{.*}}| :
    // CHECK-NEXT: ori.fmnmx %{{.*}}, 1.0, PT :
    // CHECK-NEXT: ori.mufu ex2 %{{.*}} :
    // CHECK-NEXT: ori.dadd %{{.*}}, -%{{.*}} :
    // CHECK-NEXT: ori.dmul rp %{{.*}}, 2.0 :
    // CHECK-NEXT: ori.dfma %{{.*}}, %{{.*}}, %{{.*}} :
    // CHECK-NEXT: ori.hadd2 %{{.*}}, %{{.*}} :
    // CHECK-NEXT: ori.hmul2 bf16 %{{.*}}, 0x3c003c00 :
    // CHECK-NEXT: ori.hfma2 f32 %{{.*}}, %{{.*}}, -%{{.*}} :

    // conversions
    %43 = ori.i2f f64.s32 %a : (!ori.r32) -> !ori.r64
    %44 = ori.f2i s32.f32.rz %a : (!ori.r32) -> !ori.r32
    %45 = ori.f2f f32.f64.rm %w : (!ori.r64) -> !ori.r32
    %46 = ori.i2i s8.s32.sat %a : (!ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.i2f f64.s32 %{{.*}} : (!ori.r32) -> !ori.r64
    // CHECK-NEXT: ori.f2i s32.f32.rz %{{.*}} :
    // CHECK-NEXT: ori.f2f f32.f64.rm %{{.*}} : (!ori.r64) -> !ori.r32
    // CHECK-NEXT: ori.i2i s8.s32.sat %{{.*}} :

    // special registers
    %47 = ori.s2r SR_TID.X : () -> !ori.r32
    %48 = ori.s2r SR_LANEID : () -> !ori.r32
    %49 = ori.cs2r SR_CLOCKLO : () -> !ori.r64
    ori.nop : () -> ()
    // CHECK-NEXT: ori.s2r SR_TID.X : () -> !ori.r32
    // CHECK-NEXT: ori.s2r SR_LANEID : () -> !ori.r32
    // CHECK-NEXT: ori.cs2r SR_CLOCKLO : () -> !ori.r64
    // CHECK-NEXT: ori.nop : () -> ()

    // memory
    %50 = ori.ldg [%w + 0x10] : (!ori.r64) -> !ori.r32
    %51 = ori.ldg b128.ef.strong.gpu [%w - 0x20] : (!ori.r64) -> !ori.r128
    ori.stg b64 [%w + 0x8], %x : (!ori.r64, !ori.r64) -> ()
    %52 = ori.lds u16 [%a + 0x4] : (!ori.r32) -> !ori.r32
    ori.sts [RZ + 0x100], %a : (!ori.r32) -> ()
    %q2 = ori.lds b128 [%a * 16 + 0x20] : (!ori.r32) -> !ori.r128
    ori.sts [%a * 4], %a : (!ori.r32, !ori.r32) -> ()
    %h2 = ori.atoms add.u32 [%a * 4 + 0x8], 0x1 : (!ori.r32) -> !ori.r32
    %53 = ori.ldl b64 [%a] : (!ori.r32) -> !ori.r64
    ori.stl b128 [%a + 0x10], %q : (!ori.r32, !ori.r128) -> ()
    %54 = ori.ld s8 [%w] : (!ori.r64) -> !ori.r32
    ori.st [%w], %a : (!ori.r64, !ori.r32) -> ()
    %55 = ori.ldc 0x0, [RZ + 0x160] : () -> !ori.r32
    %56 = ori.ldc b64 0x3, [%a + 0x8] : (!ori.r32) -> !ori.r64
    %57 = ori.atom cas.u64.gpu [%w], %x, %x : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64
    %58 = ori.atoms max.u32 [%a + 0x4], 0x1 : (!ori.r32) -> !ori.r32
    ori.red add.f32 [%w + 0x4], %a : (!ori.r64, !ori.r32) -> ()
    // CHECK-NEXT: ori.ldg [%{{.*}} + 0x10] : (!ori.r64) -> !ori.r32
    // CHECK-NEXT: ori.ldg b128.ef.strong.gpu [%{{.*}} - 0x20] : (!ori.r64) -> !ori.r128
    // CHECK-NEXT: ori.stg b64 [%{{.*}} + 0x8], %{{.*}} : (!ori.r64, !ori.r64) -> ()
    // CHECK-NEXT: ori.lds u16 [%{{.*}} + 0x4] :
    // CHECK-NEXT: ori.sts [RZ + 0x100], %{{.*}} :
    // CHECK-NEXT: ori.lds b128 [%{{.*}} * 16 + 0x20] :
    // CHECK-NEXT: ori.sts [%{{.*}} * 4], %{{.*}} :
    // CHECK-NEXT: ori.atoms add.u32 [%{{.*}} * 4 + 0x8], 0x1 :
    // CHECK-NEXT: ori.ldl b64 [%{{.*}}] :
    // CHECK-NEXT: ori.stl b128 [%{{.*}} + 0x10], %{{.*}} :
    // CHECK-NEXT: ori.ld s8 [%{{.*}}] :
    // CHECK-NEXT: ori.st [%{{.*}}], %{{.*}} :
    // CHECK-NEXT: ori.ldc 0x0, [RZ + 0x160] : () -> !ori.r32
    // CHECK-NEXT: ori.ldc b64 0x3, [%{{.*}} + 0x8] : (!ori.r32) -> !ori.r64
    // CHECK-NEXT: ori.atom cas.u64.gpu [%{{.*}}], %{{.*}}, %{{.*}} :
    // CHECK-NEXT: ori.atoms max.u32 [%{{.*}} + 0x4], 0x1 :
    // CHECK-NEXT: ori.red add.f32 [%{{.*}} + 0x4], %{{.*}} :

    // synchronisation and warp collectives
    ori.bar 0x0 : () -> ()
    ori.bar arv 0x1, 0x40 : () -> ()
    ori.membar sys : () -> ()
    %59, %60 = ori.shfl bfly %a, 0x10, 0x1f : (!ori.r32) -> (!ori.r32, !ori.p)
    %61, %62 = ori.vote any %p : (!ori.p) -> (!ori.r32, !ori.p)
    // CHECK-NEXT: ori.bar 0x0 : () -> ()
    // CHECK-NEXT: ori.bar arv 0x1, 0x40 : () -> ()
    // CHECK-NEXT: ori.membar sys : () -> ()
    // CHECK-NEXT: ori.shfl bfly %{{.*}}, 0x10, 0x1f : (!ori.r32) -> (!ori.r32, !ori.p)
    // CHECK-NEXT: ori.vote any %{{.*}} : (!ori.p) -> (!ori.r32, !ori.p)

    // guards with tied prior values
    %63 = ori.iadd3 %a, 0x1, RZ if %p else %b : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %64 = ori.ldg [%w] if not %p else %c : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%w], %a if %p : (!ori.r64, !ori.r32, !ori.p) -> ()
    // CHECK-NEXT: ori.iadd3 %{{.*}}, 0x1, RZ if %{{.*}} else %{{.*}} : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.ldg [%{{.*}}] if not %{{.*}} else %{{.*}} : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.stg [%{{.*}}], %{{.*}} if %{{.*}} : (!ori.r64, !ori.r32, !ori.p) -> ()

    // control flow
    %65 = ori.call @callee(%a) : (!ori.r32) -> !ori.r32
    ori.bra if not %p : !ori.p, ^bb1(%65 : !ori.r32), ^bb2
  ^bb1(%r : !ori.r32):
    ori.bra ^bb2
  ^bb2:
    ori.ret
    // CHECK-NEXT: ori.call @callee(%{{.*}}) : (!ori.r32) -> !ori.r32
    // CHECK-NEXT: ori.bra if not %{{.*}} : !ori.p, ^[[BB1:bb[0-9]+]](%{{.*}} : !ori.r32), ^[[BB2:bb[0-9]+]]
    // CHECK-NEXT: ^[[BB1]](%{{.*}}: !ori.r32):
    // CHECK-NEXT: ori.bra ^[[BB2]]
    // CHECK-NEXT: ^[[BB2]]:
    // CHECK-NEXT: ori.ret
  }

  // Allocated registers, kernels with launch attributes.
  ori.func kernel @alloc() attributes {params = [#ori.param<8, align 8, at 0x0>], maxnreg = 32 : i32} {
    %r = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R2>
    %t = ori.s2r SR_CTAID.Y : () -> !ori.r32<R4>
    %u = ori.ldc 0x0, [RZ + 0x0] : () -> !ori.ur32<UR5>
    %p = ori.isetp eq %t, %u, PT : (!ori.r32<R4>, !ori.ur32<UR5>) -> !ori.p<P3>
    %v = ori.ldg b128 [%r] : (!ori.r64<R2>) -> !ori.r128<R8>
    ori.exit
  }
  // CHECK:      ori.func kernel @alloc() attributes {params = [#ori.param<8, align 8, at 0x0>], maxnreg = 32 : i32} {
  // CHECK-NEXT:   ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R2>
  // CHECK-NEXT:   ori.s2r SR_CTAID.Y : () -> !ori.r32<R4>
  // CHECK-NEXT:   ori.ldc 0x0, [RZ] : () -> !ori.ur32<UR5>
  // CHECK-NEXT:   ori.isetp eq %{{.*}}, %{{.*}}, PT : (!ori.r32<R4>, !ori.ur32<UR5>) -> !ori.p<P3>
  // CHECK-NEXT:   ori.ldg b128 [%{{.*}}] : (!ori.r64<R2>) -> !ori.r128<R8>
  // CHECK-NEXT:   ori.exit
}
