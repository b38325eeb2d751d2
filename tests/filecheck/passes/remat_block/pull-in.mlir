// ori-remat-block: the pull-in (seed 002 "Machine-Level Block
// Rematerialization", steps 1-8).  A value live across an over-target block
// is recomputed in the blocks that read it; an operand that is not live
// there is recomputed too (recursive pullability); the rounds go on until
// max live is at the target.
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=7 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=7 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=7 dump-remat=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP1
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=DEFAULT

// The peak of ^bb1 is after its third load (9 registers: %a 2, %n, %x, %k1,
// %k2 and the loads); ^bb1 sends nothing on, so it is judged at that peak.
// %n, %k1 and %k2 are cheap and not read before it.  Round 1 takes %n alone
// (cost 1; %k1 and %k2 read %n, so they wait for the next round), round 2
// takes %k1, whose copy now needs a copy of %n (cost 2).
// CHECK-LABEL: ori.func kernel @pull(
// CHECK:         %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %k2 = ori.iadd3 %x, 0x7, %n
// CHECK-NEXT:    ori.bra ^bb1
// CHECK:         %s1 = ori.iadd3 %v1, %v2, %v3
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_k1 = ori.imad %remat_n, 0x3, %x
// CHECK-NEXT:    %w = ori.iadd3 %s1, %remat_k1, %k2
// CHECK-NEXT:    %remat_n_1 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %t = ori.iadd3 %w, %x, %remat_n_1
// REM: remark: @pull: rematerialized %n (MOV, 1 register): pulled into ^bb1 (1 instruction, cost 1)
// REM-NEXT: remark: @pull: rematerialized %k1 (IMAD, 1 register): pulled into ^bb1 (2 instructions, cost 2)
// STATS: ori-remat-block: @pull: max live 9 -> 7 (target 7) [rematerialized values=2] [instructions cloned=3] [rounds=2]
// DUMP1: ori-remat-block: @pull: Max-Live-Function(2) = 9
// DUMP1-NEXT: ori-remat-block: @pull: Really Final Pull-in: 1 (1)
// DUMP1-NEXT: ori-remat-block: @pull: Max-Live-Function(2) = 8
// DUMP1-NEXT: ori-remat-block: @pull: Really Final Pull-in: 1 (2)
// DUMP1-NEXT: ori-remat-block: @pull: Max-Live-Function(2) = 7
// DUMP1-NEXT: ori-remat-block: @pull: max live at or below the target 7
// Without a register limit the target is nv-remat-default-max-reg, 70.
// DEFAULT: ori-remat-block: @pull: max live 9 -> 9 (target 70) [rematerialized values=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @pull() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s1, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A loop whose live-out registers (8: %a 2, %n, %x, %k1, %k2, %i2, %s2) are
// at least 70% of its max live (10): it is relieved through its live-out
// set.  %k1 and %k2 are read only after the loop: round 1 puts their copies
// in ^bb2, each with a copy of %n (not live there; cost 2 each) -- one
// copy, which both read: their copies go before the same instruction.  Round 2
// pulls %n into the loop: cost 1 x the loop factor 20.  %a would cost
// 20 x 20 + 20 (a 64-bit load: 10 x 2 registers, in the loop and after it),
// over nv-remat-block-max-cost 100 x 2; %i2 and %s2 are passed on by the
// branch; %s2 reads the block argument %s.
// CHECK-LABEL: ori.func kernel @loop(
// CHECK:         %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %z = ori.mov 0x0
// CHECK-NEXT:    ori.bra ^bb1
// CHECK:         %i2 = ori.iadd3 %i, 0x1, RZ
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %p = ori.isetp lt.u32 %i2, %remat_n, PT
// CHECK:       ^bb2:
// CHECK-NEXT:    %remat_n_1 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_k1 = ori.imad %remat_n_1, 0x3, %x
// CHECK-NEXT:    %remat_k2 = ori.iadd3 %x, 0x7, %remat_n_1
// CHECK-NEXT:    %w = ori.iadd3 %s2, %remat_k1, %remat_k2
// REM: remark: @loop: rematerialized %k1 (IMAD, 1 register): pulled into ^bb2 (2 instructions, cost 2)
// REM-NEXT: remark: @loop: rematerialized %k2 (IADD3, 1 register): pulled into ^bb2 (1 instruction, 1 shared with an earlier copy, cost 2)
// REM-NEXT: remark: @loop: rematerialized %n (MOV, 1 register): pulled into ^bb1 (1 instruction, cost 20)
// STATS: ori-remat-block: @loop: max live 10 -> 7 (target 7) [rematerialized values=3] [instructions cloned=4] [rounds=2]
// DUMP1: ori-remat-block: @loop: Max-Live-Function(3) = 10
// DUMP1-NEXT: ori-remat-block: @loop: Really Final Pull-in: 2 (4)
// DUMP1-NEXT: ori-remat-block: @loop: Max-Live-Function(3) = 8
// DUMP1-NEXT: ori-remat-block: @loop: Really Final Pull-in: 1 (20)
// DUMP1-NEXT: ori-remat-block: @loop: Max-Live-Function(3) = 7
// DEFAULT: ori-remat-block: @loop: max live 10 -> 10 (target 70) [rematerialized values=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
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
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.iadd3 %s2, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
