// ori-remat-block: how an over-target block is judged
// (nv-remat-block-liveout-min-percentage, nv-remat-check-internal-live) and
// the local split (bit 0 of nv-remat-block).
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 dump-remat=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OUT
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 nv-remat-check-internal-live=true dump-remat=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=IN
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 nv-remat-block-liveout-min-percentage=95 dump-remat=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=IN
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 nv-remat-block=15 remarks=true stats=true}' 2>%t.err | filecheck %s --check-prefix=SPLIT
// RUN: filecheck %s --check-prefix=SPLITREM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOSPLIT

// The loop's live-out registers (9: %a 2, %n, %x, %k1, %k2, %m, %i2, %s2)
// are 90% of its max live (10): by default it is relieved through its
// live-out set, where %m (cost 1) looks cheapest -- but %m is defined after
// the peak, so round 1 frees one register (%k1) and round 2 takes %k2.
// Judged at its peak (after the second load) the loop never sees %m.
// OUT: ori-remat-block: @views: ^bb1: Max-Live = 10, live-out = 9
// OUT: remark: @views: rematerialized %m (LOP3.LUT, 1 register): pulled into ^bb2 (1 instruction, cost 1)
// OUT-NEXT: remark: @views: rematerialized %k1 (IMAD, 1 register): pulled into ^bb2 (2 instructions, cost 2)
// OUT-NEXT: remark: @views: rematerialized %k2 (IADD3, 1 register): pulled into ^bb2 (2 instructions, cost 2)
// IN: ori-remat-block: @views: ^bb1: Max-Live = 10, live-out = 9, peak at ^bb1 after op 1
// IN: remark: @views: rematerialized %k1 (IMAD, 1 register): pulled into ^bb2 (2 instructions, cost 2)
// IN-NEXT: remark: @views: rematerialized %k2 (IADD3, 1 register): pulled into ^bb2 (1 instruction, 1 shared with an earlier copy, cost 2)
// IN-NOT: remark: @views
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @views() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %m = ori.lop3 %x, 0x5, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.iadd3 %s2, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %x, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// One block: nothing is live across a block boundary, so the default modes
// (14) have no candidate.  With bit 0 (nv-remat-block=15) values defined
// before the peak (after the third load) and read after it are split: the
// reads after the peak take a copy made right before the first of them.
// NOSPLIT: ori-remat-block: @local: max live 9 -> 9 (target 6) [rematerialized values=0]
// Cheapest first: %n and %j (cost 1; %k reads %n and waits), then %a
// (a 64-bit load, 20 for 2 registers): its loads before the peak keep the
// original, the store after it takes the copy.  Three over: %n, %j and %a
// free four by the model, so %j, which %a's two make up for, is dropped
// again (cost.py's cleanup); %a frees one register, not two (its copy is
// live at the store), and the second round takes %j.
// SPLIT-LABEL: ori.func kernel @local(
// SPLIT:         %k = ori.iadd3 %x, 0x7, %n
// SPLIT-NEXT:    %v1 = ori.ldg [%a]
// SPLIT:         %s1 = ori.iadd3 %v1, %v2, %v3
// SPLIT-NEXT:    %remat_j = ori.lop3 %x, 0xff, RZ, 0xc0
// SPLIT-NEXT:    %r1 = ori.iadd3 %s1, %k, %remat_j
// SPLIT-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// SPLIT-NEXT:    %r2 = ori.iadd3 %r1, %x, %remat_n
// SPLIT-NEXT:    %remat_a = ori.ldc b64 0x0, [RZ + 0x160]
// SPLIT-NEXT:    ori.stg [%remat_a + 0x40], %r2
// SPLITREM: remark: @local: rematerialized %n (MOV, 1 register): split after the peak of ^bb0 (1 instruction, cost 1)
// SPLITREM-NEXT: remark: @local: rematerialized %a (LDC, 2 registers): split after the peak of ^bb0 (1 instruction, cost 20)
// SPLITREM-NEXT: remark: @local: rematerialized %j (LOP3.LUT, 1 register): split after the peak of ^bb0 (1 instruction, cost 1)
// SPLITREM-NEXT: ori-remat-block: @local: max live 9 -> 6 (target 6)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @local() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %j = ori.lop3 %x, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %s1, %k, %j : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x40], %r2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
