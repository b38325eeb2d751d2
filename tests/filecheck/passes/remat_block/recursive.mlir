// ori-remat-block: recursive pullability (seed 002 sub_2181550, bit 2 of
// nv-remat-block) and the second chance (sub_2181870, bit 3).
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 dump-remat=3 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=DEF < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 nv-remat-block=10 dump-remat=3 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOREC
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 nv-remat-block-map-size-limit=1 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=MAP
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=6 nv-remat-block=6 nv-remat-max-times=1 dump-remat=3 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOSECOND

// %k is read after the peak of ^bb1 (after its third load); its operand %n
// is not live there (its last read is in ^bb0), so the copy of %k needs a
// copy of %n: a chain of two (MOV, IMAD), cost 2.
// CHECK-LABEL: ori.func kernel @chain(
// CHECK:         %s1 = ori.iadd3 %v1, %v2, %v3
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_k = ori.imad %remat_n, 0x3, %x
// CHECK-NEXT:    %w = ori.iadd3 %s1, %remat_k, %x
// DEF: remark: @chain: rematerialized %k (IMAD, 1 register): pulled into ^bb1 (2 instructions, cost 2)
// Without bit 2 an operand must be live where the copy goes.
// NOREC: ori-remat-block: @chain: %k: not pullable: operand %n is not live in ^bb1 (recursive pullability off)
// NOREC-NOT: remark: @chain
// nv-remat-block-map-size-limit bounds the instructions of one copy.
// MAP: ori-remat-block: @chain: %k: not pullable: a copy in ^bb1 needs 2 instructions, more than nv-remat-block-map-size-limit 1
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.iadd3 %n, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.stg [%a + 0x40], %q : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s1, %k, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %w : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The second chance.  Candidates are judged in definition order, and ^bb1
// comes before ^bb2 in the function: %v (in ^bb1) is judged before %y (in
// ^bb2, which runs first).  %v's copy before %t needs %y, which is not live
// there and is itself a candidate without a verdict yet: %v waits.  After
// the pre-check %y is good, so %v is judged again and added (its copy
// recomputes %n, %y and %v: cost 3).  %y would need copies in ^bb1 and
// ^bb3 (cost 4), so %v goes first; the two cannot go in one round (%v
// reads %y), so %y follows in round 2, with one copy left to make.
// CHECK-LABEL: ori.func kernel @second(
// CHECK:       ^bb1:
// CHECK-NEXT:    ori.bra ^bb3
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    ori.bra ^bb1
// CHECK:         %s1 = ori.iadd3 %v1, %v2, %v3
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_y = ori.imad %remat_n, 0x3, %x
// CHECK-NEXT:    %w = ori.iadd3 %s1, %remat_y, RZ
// CHECK-NEXT:    %remat_n_1 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_y_1 = ori.imad %remat_n_1, 0x3, %x
// CHECK-NEXT:    %remat_v = ori.iadd3 %remat_y_1, 0x7, %x
// CHECK-NEXT:    %t = ori.iadd3 %w, %remat_v, %x
// DEF: ori-remat-block: @second: After pre-check, 2 good candidates, 1 given second-chance
// DEF-NEXT: ori-remat-block: @second: ADD 1 candidates from second-chance
// DEF: remark: @second: rematerialized %v (IADD3, 1 register): pulled into ^bb3 (3 instructions, cost 3)
// DEF-NEXT: remark: @second: rematerialized %y (IMAD, 1 register): pulled into ^bb3 (2 instructions, cost 2)
// Without bit 3 %v stays rejected in round 1 (with one round, for good).
// NOSECOND: ori-remat-block: @second: After pre-check, 2 good candidates, 1 given second-chance
// NOSECOND-NEXT: ori-remat-block: @second: %v: not pullable: waits for %y (second chance off)
// NOSECOND: remark: @second: rematerialized %y (IMAD, 1 register): pulled into ^bb1, ^bb3 (4 instructions, cost 4)
// NOSECOND-NOT: remark: @second: rematerialized %v
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @second() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    ori.bra ^bb2
  ^bb1:
    %v = ori.iadd3 %y, 0x7, %x : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3
  ^bb2:
    %y = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb3:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s1, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %v, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
