// ori-remat-block's occupancy target (ori; passes/remat_block/__init__.py
// "Occupancy target"): a kernel that makes no call aims at the count that
// gives remat-for-occ (120) percent of the warps its max live allows, as
// ori-remat does for the live-in, when that is below its other target.  Max live 39
// (%t, %a, %k, %u and 34 loads live into ^bb1) is 42 registers with R1 and
// the two ptxas withholds: 40 warps on sm_80; 48 warps need 40 registers,
// a max live of 37.  %k = %t + 7 is recomputed in ^bb1 (%t is live there);
// %u = c[0x0][0x168] + 5 needs its LDC too (cost 11): above the single cost
// 10 it is not taken, max live stops at 38, which allows no more warps than
// 39, and the copy of %k is undone (with nv-remat-block-single-cost=11 both are
// taken and the target is reached).  In ori-ptxas ori-uniform, which runs
// first, would have moved %u to a UR.  remat-for-occ=0 is the seed's
// target, 70: nothing to do.
// @preds is @occ with nine predicates live across the loads: two more than
// P0-P6, which the allocator will keep in one GPR home (pred_pack.py), so
// the target is one lower, 36, not reached even with %u.
// @bounded (.maxntid 128: a limit of 255, 252 allocatable) gets the same
// target, the limit being a cap; @calls, the same kernel calling @id, keeps
// the seed's: a caller's count is set by what its calls overwrite.  Not so
// @runtime, which calls malloc and free (CUDA device runtime functions: they
// overwrite R0-R15 alone, passes/regalloc/abi.py): it aims as @occ does.
// RUN: ori-opt %s -p 'ori-remat-block{remarks=true stats=true}' 2>&1 | filecheck %s
// RUN: ori-opt %s -p 'ori-remat-block{remarks=true stats=true nv-remat-block-single-cost=11}' 2>&1 | filecheck %s --check-prefix=REACH
// RUN: ori-opt %s -p 'ori-remat-block{remat-for-occ=0 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SEED
// RUN: ori-opt %s -p 'ori-remat-block{dump-remat=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: not ori-opt %s -p 'ori-remat-block{remat-for-occ=-1}' 2>&1 | filecheck %s --check-prefix=BAD

// CHECK: ori-remat-block: @occ: occupancy target 37 not reached: max live 38 allows 40 resident warps, as 39 did: undone
// CHECK: remark: @occ: copies for occupancy undone (occupancy target 37 not reached: max live 38 allows 40 resident warps, as 39 did)
// CHECK: ori-remat-block: @occ: max live 39 -> 39 (target 70) [rematerialized values=0]
// CHECK: ori-remat-block: @preds: occupancy target 36 not reached: max live 38 allows 40 resident warps, as 39 did: undone
// CHECK: ori-remat-block: @bounded: occupancy target 37 not reached
// CHECK: ori-remat-block: @bounded: max live 39 -> 39 (target 252)
// CHECK: ori-remat-block: @calls: max live 39 -> 39 (target 70) [rematerialized values=0]
// CHECK: ori-remat-block: @runtime: occupancy target 37 not reached: max live 38 allows 40 resident warps, as 39 did: undone
// CHECK-LABEL: ori.func kernel @occ
// CHECK-NOT: remat_
// CHECK-LABEL: ori.func kernel @preds
// REACH: remark: @occ: rematerialized %k (IADD3, 1 register): pulled into ^bb1 (1 instruction, cost 1)
// REACH-NEXT: remark: @occ: rematerialized %u (IADD3, 1 register): pulled into ^bb1 (2 instructions, cost 11)
// REACH-NEXT: ori-remat-block: @occ: max live 39 -> 37 (target 37) [rematerialized values=2]
// REACH: ori-remat-block: @preds: occupancy target 36 not reached: max live 37 allows 40 resident warps, as 39 did: undone
// REACH: ori-remat-block: @bounded: max live 39 -> 37 (target 37)
// REACH: ori-remat-block: @calls: max live 39 -> 39 (target 70)
// REACH: ori-remat-block: @runtime: max live 39 -> 37 (target 37)
// REACH-LABEL: ori.func kernel @occ
// REACH: ^bb1:
// REACH: %remat_k = ori.iadd3 %t, 0x7, RZ
// SEED: ori-remat-block: @occ: max live 39 -> 39 (target 70) [rematerialized values=0]
// DUMP: @occ: %u: not pulled: cost 11 of one copy exceeds nv-remat-block-single-cost 10
// BAD: ori-opt: error: ori-remat-block: remat-for-occ must be at least 0, got -1

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @occ() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %c = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %u = ori.iadd3 %c, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %v20 = ori.ldg [%a + 0x50] : (!ori.r64) -> !ori.r32
    %v21 = ori.ldg [%a + 0x54] : (!ori.r64) -> !ori.r32
    %v22 = ori.ldg [%a + 0x58] : (!ori.r64) -> !ori.r32
    %v23 = ori.ldg [%a + 0x5c] : (!ori.r64) -> !ori.r32
    %v24 = ori.ldg [%a + 0x60] : (!ori.r64) -> !ori.r32
    %v25 = ori.ldg [%a + 0x64] : (!ori.r64) -> !ori.r32
    %v26 = ori.ldg [%a + 0x68] : (!ori.r64) -> !ori.r32
    %v27 = ori.ldg [%a + 0x6c] : (!ori.r64) -> !ori.r32
    %v28 = ori.ldg [%a + 0x70] : (!ori.r64) -> !ori.r32
    %v29 = ori.ldg [%a + 0x74] : (!ori.r64) -> !ori.r32
    %v30 = ori.ldg [%a + 0x78] : (!ori.r64) -> !ori.r32
    %v31 = ori.ldg [%a + 0x7c] : (!ori.r64) -> !ori.r32
    %v32 = ori.ldg [%a + 0x80] : (!ori.r64) -> !ori.r32
    %v33 = ori.ldg [%a + 0x84] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %s33, %k, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r = ori.iadd3 %r0, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  ori.func kernel @preds() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %q0 = ori.isetp gt.u32 %t, 0x1, PT : (!ori.r32) -> !ori.p
    %q1 = ori.isetp gt.u32 %t, 0x2, PT : (!ori.r32) -> !ori.p
    %q2 = ori.isetp gt.u32 %t, 0x3, PT : (!ori.r32) -> !ori.p
    %q3 = ori.isetp gt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %q4 = ori.isetp gt.u32 %t, 0x5, PT : (!ori.r32) -> !ori.p
    %q5 = ori.isetp gt.u32 %t, 0x6, PT : (!ori.r32) -> !ori.p
    %q6 = ori.isetp gt.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %q7 = ori.isetp gt.u32 %t, 0x8, PT : (!ori.r32) -> !ori.p
    %q8 = ori.isetp gt.u32 %t, 0x9, PT : (!ori.r32) -> !ori.p
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %c = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %u = ori.iadd3 %c, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %v20 = ori.ldg [%a + 0x50] : (!ori.r64) -> !ori.r32
    %v21 = ori.ldg [%a + 0x54] : (!ori.r64) -> !ori.r32
    %v22 = ori.ldg [%a + 0x58] : (!ori.r64) -> !ori.r32
    %v23 = ori.ldg [%a + 0x5c] : (!ori.r64) -> !ori.r32
    %v24 = ori.ldg [%a + 0x60] : (!ori.r64) -> !ori.r32
    %v25 = ori.ldg [%a + 0x64] : (!ori.r64) -> !ori.r32
    %v26 = ori.ldg [%a + 0x68] : (!ori.r64) -> !ori.r32
    %v27 = ori.ldg [%a + 0x6c] : (!ori.r64) -> !ori.r32
    %v28 = ori.ldg [%a + 0x70] : (!ori.r64) -> !ori.r32
    %v29 = ori.ldg [%a + 0x74] : (!ori.r64) -> !ori.r32
    %v30 = ori.ldg [%a + 0x78] : (!ori.r64) -> !ori.r32
    %v31 = ori.ldg [%a + 0x7c] : (!ori.r64) -> !ori.r32
    %v32 = ori.ldg [%a + 0x80] : (!ori.r64) -> !ori.r32
    %v33 = ori.ldg [%a + 0x84] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %s33, %k, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %g0 = ori.iadd3 %r0, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f0 = ori.sel RZ, 0x1, %q0 : (!ori.p) -> !ori.r32
    %g1 = ori.iadd3 %g0, %f0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f1 = ori.sel RZ, 0x2, %q1 : (!ori.p) -> !ori.r32
    %g2 = ori.iadd3 %g1, %f1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f2 = ori.sel RZ, 0x4, %q2 : (!ori.p) -> !ori.r32
    %g3 = ori.iadd3 %g2, %f2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f3 = ori.sel RZ, 0x8, %q3 : (!ori.p) -> !ori.r32
    %g4 = ori.iadd3 %g3, %f3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f4 = ori.sel RZ, 0x10, %q4 : (!ori.p) -> !ori.r32
    %g5 = ori.iadd3 %g4, %f4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f5 = ori.sel RZ, 0x20, %q5 : (!ori.p) -> !ori.r32
    %g6 = ori.iadd3 %g5, %f5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f6 = ori.sel RZ, 0x40, %q6 : (!ori.p) -> !ori.r32
    %g7 = ori.iadd3 %g6, %f6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f7 = ori.sel RZ, 0x80, %q7 : (!ori.p) -> !ori.r32
    %g8 = ori.iadd3 %g7, %f7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %f8 = ori.sel RZ, 0x100, %q8 : (!ori.p) -> !ori.r32
    %g9 = ori.iadd3 %g8, %f8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.mov %g9 : (!ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @bounded() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>], maxntid = array<i32: 128, 1, 1>} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %c = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %u = ori.iadd3 %c, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %v20 = ori.ldg [%a + 0x50] : (!ori.r64) -> !ori.r32
    %v21 = ori.ldg [%a + 0x54] : (!ori.r64) -> !ori.r32
    %v22 = ori.ldg [%a + 0x58] : (!ori.r64) -> !ori.r32
    %v23 = ori.ldg [%a + 0x5c] : (!ori.r64) -> !ori.r32
    %v24 = ori.ldg [%a + 0x60] : (!ori.r64) -> !ori.r32
    %v25 = ori.ldg [%a + 0x64] : (!ori.r64) -> !ori.r32
    %v26 = ori.ldg [%a + 0x68] : (!ori.r64) -> !ori.r32
    %v27 = ori.ldg [%a + 0x6c] : (!ori.r64) -> !ori.r32
    %v28 = ori.ldg [%a + 0x70] : (!ori.r64) -> !ori.r32
    %v29 = ori.ldg [%a + 0x74] : (!ori.r64) -> !ori.r32
    %v30 = ori.ldg [%a + 0x78] : (!ori.r64) -> !ori.r32
    %v31 = ori.ldg [%a + 0x7c] : (!ori.r64) -> !ori.r32
    %v32 = ori.ldg [%a + 0x80] : (!ori.r64) -> !ori.r32
    %v33 = ori.ldg [%a + 0x84] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %s33, %k, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r = ori.iadd3 %r0, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.runtime_func @malloc : (!ori.r64) -> !ori.r64
  ori.runtime_func @free : (!ori.r64) -> ()
  ori.func @id(%x: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    ori.ret %x : !ori.r32
  }
  ori.func kernel @calls() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %c = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %u = ori.iadd3 %c, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %v20 = ori.ldg [%a + 0x50] : (!ori.r64) -> !ori.r32
    %v21 = ori.ldg [%a + 0x54] : (!ori.r64) -> !ori.r32
    %v22 = ori.ldg [%a + 0x58] : (!ori.r64) -> !ori.r32
    %v23 = ori.ldg [%a + 0x5c] : (!ori.r64) -> !ori.r32
    %v24 = ori.ldg [%a + 0x60] : (!ori.r64) -> !ori.r32
    %v25 = ori.ldg [%a + 0x64] : (!ori.r64) -> !ori.r32
    %v26 = ori.ldg [%a + 0x68] : (!ori.r64) -> !ori.r32
    %v27 = ori.ldg [%a + 0x6c] : (!ori.r64) -> !ori.r32
    %v28 = ori.ldg [%a + 0x70] : (!ori.r64) -> !ori.r32
    %v29 = ori.ldg [%a + 0x74] : (!ori.r64) -> !ori.r32
    %v30 = ori.ldg [%a + 0x78] : (!ori.r64) -> !ori.r32
    %v31 = ori.ldg [%a + 0x7c] : (!ori.r64) -> !ori.r32
    %v32 = ori.ldg [%a + 0x80] : (!ori.r64) -> !ori.r32
    %v33 = ori.ldg [%a + 0x84] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %s33, %k, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %r0, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.call @id(%r1) : (!ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @runtime() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %c = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %u = ori.iadd3 %c, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] : (!ori.r64) -> !ori.r32
    %v8 = ori.ldg [%a + 0x20] : (!ori.r64) -> !ori.r32
    %v9 = ori.ldg [%a + 0x24] : (!ori.r64) -> !ori.r32
    %v10 = ori.ldg [%a + 0x28] : (!ori.r64) -> !ori.r32
    %v11 = ori.ldg [%a + 0x2c] : (!ori.r64) -> !ori.r32
    %v12 = ori.ldg [%a + 0x30] : (!ori.r64) -> !ori.r32
    %v13 = ori.ldg [%a + 0x34] : (!ori.r64) -> !ori.r32
    %v14 = ori.ldg [%a + 0x38] : (!ori.r64) -> !ori.r32
    %v15 = ori.ldg [%a + 0x3c] : (!ori.r64) -> !ori.r32
    %v16 = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %v17 = ori.ldg [%a + 0x44] : (!ori.r64) -> !ori.r32
    %v18 = ori.ldg [%a + 0x48] : (!ori.r64) -> !ori.r32
    %v19 = ori.ldg [%a + 0x4c] : (!ori.r64) -> !ori.r32
    %v20 = ori.ldg [%a + 0x50] : (!ori.r64) -> !ori.r32
    %v21 = ori.ldg [%a + 0x54] : (!ori.r64) -> !ori.r32
    %v22 = ori.ldg [%a + 0x58] : (!ori.r64) -> !ori.r32
    %v23 = ori.ldg [%a + 0x5c] : (!ori.r64) -> !ori.r32
    %v24 = ori.ldg [%a + 0x60] : (!ori.r64) -> !ori.r32
    %v25 = ori.ldg [%a + 0x64] : (!ori.r64) -> !ori.r32
    %v26 = ori.ldg [%a + 0x68] : (!ori.r64) -> !ori.r32
    %v27 = ori.ldg [%a + 0x6c] : (!ori.r64) -> !ori.r32
    %v28 = ori.ldg [%a + 0x70] : (!ori.r64) -> !ori.r32
    %v29 = ori.ldg [%a + 0x74] : (!ori.r64) -> !ori.r32
    %v30 = ori.ldg [%a + 0x78] : (!ori.r64) -> !ori.r32
    %v31 = ori.ldg [%a + 0x7c] : (!ori.r64) -> !ori.r32
    %v32 = ori.ldg [%a + 0x80] : (!ori.r64) -> !ori.r32
    %v33 = ori.ldg [%a + 0x84] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %s33, %k, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %r0, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r1 : (!ori.r64, !ori.r32) -> ()
    %sz = ori.pack 0x10, RZ : () -> !ori.r64
    %m = ori.call @malloc(%sz) : (!ori.r64) -> !ori.r64
    ori.call @free(%m) : (!ori.r64) -> ()
    ori.exit
  }
}
