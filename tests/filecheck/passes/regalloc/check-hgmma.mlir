// RUN: not ori-opt %s -p ori-check-regalloc 2>&1 | filecheck %s

// ori-check-regalloc rule 7 on hand-made allocations: from an HGMMA to the
// WARPGROUP.DEPBAR that completes its group nothing writes its accumulator
// run or its A fragments (A in registers), nothing reads the accumulator but
// a later HGMMA accumulating in place, a pack / unpack of it moves nothing,
// and D never covers its own A; rule 4 ties D to C.  Every violation names
// the instruction, the registers and the HGMMA; the same accesses after the
// wait (@after_wait) are fine.

builtin.module attributes {ori.target = "sm_90a"} {
  ori.func kernel @d_not_c() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    %c = ori.pack RZ, RZ, RZ, RZ : () -> !ori.r128<R4>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %b, %b, %c, PT : (!ori.r64<R2>, !ori.r64<R2>, !ori.r128<R4>) -> !ori.r128<R16>
    ori.gmma_commit : () -> ()
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.exit
  }
  ori.func kernel @d_over_a() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    %a = ori.pack RZ, RZ, RZ, RZ : () -> !ori.r128<R8>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %a, %b, RZ, not PT : (!ori.r128<R8>, !ori.r64<R2>) -> !ori.r128<R8>
    ori.gmma_commit : () -> ()
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.exit
  }
  ori.func kernel @write_acc() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R12>
    %b = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    %a = ori.pack RZ, RZ, RZ, RZ : () -> !ori.r128<R8>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %a, %b, RZ, not PT : (!ori.r128<R8>, !ori.r64<R2>) -> !ori.r128<R4>
    ori.gmma_commit : () -> ()
    %x = ori.mov 0x1 : () -> !ori.r32<R6>
    %y = ori.mov 0x2 : () -> !ori.r32<R9>
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.stg b128 [%o], %d : (!ori.r64<R12>, !ori.r128<R4>) -> ()
    ori.stg [%o + 0x10], %x : (!ori.r64<R12>, !ori.r32<R6>) -> ()
    ori.stg [%o + 0x14], %y : (!ori.r64<R12>, !ori.r32<R9>) -> ()
    ori.exit
  }
  ori.func kernel @reads() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R12>
    %b = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %b, %b, RZ, not PT : (!ori.r64<R2>, !ori.r64<R2>) -> !ori.r128<R4>
    %p0, %p1, %p2, %p3 = ori.unpack %d : (!ori.r128<R4>) -> (!ori.r32<R16>, !ori.r32<R5>, !ori.r32<R6>, !ori.r32<R7>)
    ori.gmma_commit : () -> ()
    %s = ori.iadd3 %p1, 0x1, RZ : (!ori.r32<R5>) -> !ori.r32<R0>
    ori.warpgroup_depbar 0x0 : () -> ()
    ori.stg [%o], %s : (!ori.r64<R12>, !ori.r32<R0>) -> ()
    ori.stg [%o + 0x4], %p0 : (!ori.r64<R12>, !ori.r32<R16>) -> ()
    ori.exit
  }
  ori.func kernel @after_wait() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %o = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64<R12>
    %b = ori.pack RZ, 0x0 : () -> !ori.r64<R2>
    %a = ori.pack RZ, RZ, RZ, RZ : () -> !ori.r128<R8>
    ori.warpgroup_arrive : () -> ()
    %d = ori.hgmma m64n8k16 %a, %b, RZ, not PT : (!ori.r128<R8>, !ori.r64<R2>) -> !ori.r128<R4>
    ori.gmma_commit : () -> ()
    ori.warpgroup_depbar 0x0 : () -> ()
    %p0, %p1, %p2, %p3 = ori.unpack %d : (!ori.r128<R4>) -> (!ori.r32<R16>, !ori.r32<R5>, !ori.r32<R6>, !ori.r32<R7>)
    %y = ori.mov 0x2 : () -> !ori.r32<R9>
    %s = ori.iadd3 %p1, %y, RZ : (!ori.r32<R5>, !ori.r32<R9>) -> !ori.r32<R0>
    ori.stg [%o], %s : (!ori.r64<R12>, !ori.r32<R0>) -> ()
    ori.stg [%o + 0x4], %p0 : (!ori.r64<R12>, !ori.r32<R16>) -> ()
    ori.exit
  }
}

// CHECK:      register allocation check failed:
// CHECK-DAG:  @d_not_c: result d in !ori.r128<R16> is written into its tied source (!ori.r128<R4>) and must share its registers at `%{{.*}} = ori.hgmma
// CHECK-DAG:  @d_over_a: `%{{.*}} = ori.hgmma {{.*}}` writes its accumulator over R8..R11, the registers of its own A fragments, which it reads until the wait
// CHECK-DAG:  @write_acc: `%{{.*}} = ori.mov 0x1 : () -> !ori.r32<R6>` writes R6 of the accumulator (R4..R7) of `%{{.*}} = ori.hgmma {{.*}}` before the wgmma.wait_group (WARPGROUP.DEPBAR) that completes its group
// CHECK-DAG:  @write_acc: `%{{.*}} = ori.mov 0x2 : () -> !ori.r32<R9>` writes R9 of the A fragments (R8..R11) of `%{{.*}} = ori.hgmma {{.*}}` before the wgmma.wait_group (WARPGROUP.DEPBAR) that completes its group
// CHECK-DAG:  @reads: `%{{.*}} = ori.unpack %{{.*}}` reads R4 of the accumulator (R4..R7) of `%{{.*}} = ori.hgmma {{.*}}` before the wgmma.wait_group
// CHECK-DAG:  @reads: `%{{.*}} = ori.iadd3 %{{.*}}, 0x1, RZ : (!ori.r32<R5>) -> !ori.r32<R0>` reads R5 of the accumulator (R4..R7) of `%{{.*}} = ori.hgmma {{.*}}` before the wgmma.wait_group
// CHECK-NOT:  @after_wait
