// ori-remat: the register target (seed 002 "Main Algorithm", step 4):
// remat-for-occ (default 120: 20% more resident warps through the SM's
// occupancy model), 80% of the register count with remat-for-occ=0, and the
// ceilings remat-maxreg-ceiling and .maxnreg.  @occ keeps 40 values live
// across its loop (max live-in 44, max live 47: 40 warps per SM on sm_80).
// RUN: ori-opt %s --split-input-file -p 'ori-remat{dump-remat=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=OCC
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-for-occ=0 dump-remat=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=FRAC
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-for-occ=100 dump-remat=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=SAME
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=32 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=CEIL

// 40 -> 48 warps needs at most 40 registers (16384 per sub-partition / 12 warps, in 256-register units).
// OCC: ori-remat: @occ: Max live-in = 44 (^bb1), max live = 47, register target = 40 (occupancy 40->48 warps)
// OCC-NEXT: ori-remat: @occ: Iteration 1: max live-in = 44 -> 40, target 40
// FRAC: ori-remat: @occ: Max live-in = 44 (^bb1), max live = 47, register target = 37 (80% of usage)
// FRAC-NEXT: ori-remat: @occ: Iteration 1: max live-in = 44 -> 37, target 37
// SAME: ori-remat: @occ: Max live-in = 44 (^bb1), max live = 47, register target = 47 (occupancy 40 warps (no gain))
// SAME-NEXT: ori-remat: @occ: Iteration 1: max live-in = 44 <= target 47: done
// CEIL: ori-remat: @occ: [max live 47 -> 35] [max live-in 44 -> 32] [target 32] [rematerialized 12] [clones 12]
// The kernel's .maxnreg 24 is a ceiling too (whatever the options).
// OCC: ori-remat: @capped: Max live-in = 44 (^bb1), max live = 47, register target = 24 (ceiling 24)
// OCC: ori-remat: @capped: Iteration 3: max live-in = 24 <= target 24: done
// FRAC: register target = 24 (ceiling 24)
// CEIL: ori-remat: @capped: [max live 47 -> 27] [max live-in 44 -> 24] [target 24] [rematerialized 20] [clones 20]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @occ() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k0 = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    %k1 = ori.iadd3 %x, 0x2, RZ : (!ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x3, RZ : (!ori.r32) -> !ori.r32
    %k3 = ori.iadd3 %x, 0x4, RZ : (!ori.r32) -> !ori.r32
    %k4 = ori.iadd3 %x, 0x5, RZ : (!ori.r32) -> !ori.r32
    %k5 = ori.iadd3 %x, 0x6, RZ : (!ori.r32) -> !ori.r32
    %k6 = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    %k7 = ori.iadd3 %x, 0x8, RZ : (!ori.r32) -> !ori.r32
    %k8 = ori.iadd3 %x, 0x9, RZ : (!ori.r32) -> !ori.r32
    %k9 = ori.iadd3 %x, 0xa, RZ : (!ori.r32) -> !ori.r32
    %k10 = ori.iadd3 %x, 0xb, RZ : (!ori.r32) -> !ori.r32
    %k11 = ori.iadd3 %x, 0xc, RZ : (!ori.r32) -> !ori.r32
    %k12 = ori.iadd3 %x, 0xd, RZ : (!ori.r32) -> !ori.r32
    %k13 = ori.iadd3 %x, 0xe, RZ : (!ori.r32) -> !ori.r32
    %k14 = ori.iadd3 %x, 0xf, RZ : (!ori.r32) -> !ori.r32
    %k15 = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %k16 = ori.iadd3 %x, 0x11, RZ : (!ori.r32) -> !ori.r32
    %k17 = ori.iadd3 %x, 0x12, RZ : (!ori.r32) -> !ori.r32
    %k18 = ori.iadd3 %x, 0x13, RZ : (!ori.r32) -> !ori.r32
    %k19 = ori.iadd3 %x, 0x14, RZ : (!ori.r32) -> !ori.r32
    %k20 = ori.iadd3 %x, 0x15, RZ : (!ori.r32) -> !ori.r32
    %k21 = ori.iadd3 %x, 0x16, RZ : (!ori.r32) -> !ori.r32
    %k22 = ori.iadd3 %x, 0x17, RZ : (!ori.r32) -> !ori.r32
    %k23 = ori.iadd3 %x, 0x18, RZ : (!ori.r32) -> !ori.r32
    %k24 = ori.iadd3 %x, 0x19, RZ : (!ori.r32) -> !ori.r32
    %k25 = ori.iadd3 %x, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %k26 = ori.iadd3 %x, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %k27 = ori.iadd3 %x, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %k28 = ori.iadd3 %x, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %k29 = ori.iadd3 %x, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %k30 = ori.iadd3 %x, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %k31 = ori.iadd3 %x, 0x20, RZ : (!ori.r32) -> !ori.r32
    %k32 = ori.iadd3 %x, 0x21, RZ : (!ori.r32) -> !ori.r32
    %k33 = ori.iadd3 %x, 0x22, RZ : (!ori.r32) -> !ori.r32
    %k34 = ori.iadd3 %x, 0x23, RZ : (!ori.r32) -> !ori.r32
    %k35 = ori.iadd3 %x, 0x24, RZ : (!ori.r32) -> !ori.r32
    %k36 = ori.iadd3 %x, 0x25, RZ : (!ori.r32) -> !ori.r32
    %k37 = ori.iadd3 %x, 0x26, RZ : (!ori.r32) -> !ori.r32
    %k38 = ori.iadd3 %x, 0x27, RZ : (!ori.r32) -> !ori.r32
    %k39 = ori.iadd3 %x, 0x28, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    %t0 = ori.iadd3 %s1, %k0, %k1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t0, %k2, %k3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t4 = ori.iadd3 %t2, %k4, %k5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t6 = ori.iadd3 %t4, %k6, %k7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t8 = ori.iadd3 %t6, %k8, %k9 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t10 = ori.iadd3 %t8, %k10, %k11 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t12 = ori.iadd3 %t10, %k12, %k13 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t14 = ori.iadd3 %t12, %k14, %k15 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t16 = ori.iadd3 %t14, %k16, %k17 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t18 = ori.iadd3 %t16, %k18, %k19 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t20 = ori.iadd3 %t18, %k20, %k21 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t22 = ori.iadd3 %t20, %k22, %k23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t24 = ori.iadd3 %t22, %k24, %k25 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t26 = ori.iadd3 %t24, %k26, %k27 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t28 = ori.iadd3 %t26, %k28, %k29 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t30 = ori.iadd3 %t28, %k30, %k31 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t32 = ori.iadd3 %t30, %k32, %k33 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t34 = ori.iadd3 %t32, %k34, %k35 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t36 = ori.iadd3 %t34, %k36, %k37 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t38 = ori.iadd3 %t36, %k38, %k39 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r = ori.iadd3 %t38, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @capped() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>], maxnreg = 24 : i32} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k0 = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    %k1 = ori.iadd3 %x, 0x2, RZ : (!ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x3, RZ : (!ori.r32) -> !ori.r32
    %k3 = ori.iadd3 %x, 0x4, RZ : (!ori.r32) -> !ori.r32
    %k4 = ori.iadd3 %x, 0x5, RZ : (!ori.r32) -> !ori.r32
    %k5 = ori.iadd3 %x, 0x6, RZ : (!ori.r32) -> !ori.r32
    %k6 = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    %k7 = ori.iadd3 %x, 0x8, RZ : (!ori.r32) -> !ori.r32
    %k8 = ori.iadd3 %x, 0x9, RZ : (!ori.r32) -> !ori.r32
    %k9 = ori.iadd3 %x, 0xa, RZ : (!ori.r32) -> !ori.r32
    %k10 = ori.iadd3 %x, 0xb, RZ : (!ori.r32) -> !ori.r32
    %k11 = ori.iadd3 %x, 0xc, RZ : (!ori.r32) -> !ori.r32
    %k12 = ori.iadd3 %x, 0xd, RZ : (!ori.r32) -> !ori.r32
    %k13 = ori.iadd3 %x, 0xe, RZ : (!ori.r32) -> !ori.r32
    %k14 = ori.iadd3 %x, 0xf, RZ : (!ori.r32) -> !ori.r32
    %k15 = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %k16 = ori.iadd3 %x, 0x11, RZ : (!ori.r32) -> !ori.r32
    %k17 = ori.iadd3 %x, 0x12, RZ : (!ori.r32) -> !ori.r32
    %k18 = ori.iadd3 %x, 0x13, RZ : (!ori.r32) -> !ori.r32
    %k19 = ori.iadd3 %x, 0x14, RZ : (!ori.r32) -> !ori.r32
    %k20 = ori.iadd3 %x, 0x15, RZ : (!ori.r32) -> !ori.r32
    %k21 = ori.iadd3 %x, 0x16, RZ : (!ori.r32) -> !ori.r32
    %k22 = ori.iadd3 %x, 0x17, RZ : (!ori.r32) -> !ori.r32
    %k23 = ori.iadd3 %x, 0x18, RZ : (!ori.r32) -> !ori.r32
    %k24 = ori.iadd3 %x, 0x19, RZ : (!ori.r32) -> !ori.r32
    %k25 = ori.iadd3 %x, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %k26 = ori.iadd3 %x, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %k27 = ori.iadd3 %x, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %k28 = ori.iadd3 %x, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %k29 = ori.iadd3 %x, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %k30 = ori.iadd3 %x, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %k31 = ori.iadd3 %x, 0x20, RZ : (!ori.r32) -> !ori.r32
    %k32 = ori.iadd3 %x, 0x21, RZ : (!ori.r32) -> !ori.r32
    %k33 = ori.iadd3 %x, 0x22, RZ : (!ori.r32) -> !ori.r32
    %k34 = ori.iadd3 %x, 0x23, RZ : (!ori.r32) -> !ori.r32
    %k35 = ori.iadd3 %x, 0x24, RZ : (!ori.r32) -> !ori.r32
    %k36 = ori.iadd3 %x, 0x25, RZ : (!ori.r32) -> !ori.r32
    %k37 = ori.iadd3 %x, 0x26, RZ : (!ori.r32) -> !ori.r32
    %k38 = ori.iadd3 %x, 0x27, RZ : (!ori.r32) -> !ori.r32
    %k39 = ori.iadd3 %x, 0x28, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    %t0 = ori.iadd3 %s1, %k0, %k1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t0, %k2, %k3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t4 = ori.iadd3 %t2, %k4, %k5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t6 = ori.iadd3 %t4, %k6, %k7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t8 = ori.iadd3 %t6, %k8, %k9 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t10 = ori.iadd3 %t8, %k10, %k11 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t12 = ori.iadd3 %t10, %k12, %k13 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t14 = ori.iadd3 %t12, %k14, %k15 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t16 = ori.iadd3 %t14, %k16, %k17 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t18 = ori.iadd3 %t16, %k18, %k19 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t20 = ori.iadd3 %t18, %k20, %k21 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t22 = ori.iadd3 %t20, %k22, %k23 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t24 = ori.iadd3 %t22, %k24, %k25 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t26 = ori.iadd3 %t24, %k26, %k27 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t28 = ori.iadd3 %t26, %k28, %k29 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t30 = ori.iadd3 %t28, %k30, %k31 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t32 = ori.iadd3 %t30, %k32, %k33 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t34 = ori.iadd3 %t32, %k34, %k35 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t36 = ori.iadd3 %t34, %k36, %k37 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t38 = ori.iadd3 %t36, %k38, %k39 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r = ori.iadd3 %t38, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
