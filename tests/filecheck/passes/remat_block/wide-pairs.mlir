// ori-remat-block on 64-bit values split in halves (seed 002 "Algorithm
// Overview": "Double-wide register classes (size > 32) count as 2 for
// pressure purposes and have their cost doubled").  The seed's pass sees a
// 64-bit add as one instruction defining one double-wide register; ori's
// import splits it into a low IADD3 with a carry-out, the high IADD3.X that
// reads the carry, and PACK/UNPACK between the pair and its halves.  So
// operand safety lets an instruction define one register value besides
// predicates (the carry), UNPACK's parts count as one value, PACK and UNPACK
// may be copied (they cost a MOV per part out of place, nothing in place),
// and one copy of a chain instruction serves every result it defines.
// @pair: the end pointer %q = %p + 0x100 is live across ^bb1's peak; its
// copy there is UNPACK, IADD3 (with the carry), IADD3.X and PACK (cost 1 +
// 1 + 1 + 2) -- once, though the high half reads both halves of %p and the
// carry.  Max live 12 -> 10.
// @halves: %lo and %hi read by one instruction: %hi's copy needs the IADD3
// for its carry, %lo's copy is that IADD3: three instructions, not five.
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=10 remarks=true stats=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err

// CHECK-LABEL: ori.func kernel @pair(
// CHECK:       ^bb1:
// CHECK:         %s7 = ori.iadd3 %s6, %v7, RZ
// CHECK-NEXT:    %remat_pl, %remat_ph = ori.unpack %p
// CHECK-NEXT:    %remat_lo, %remat_c = ori.iadd3 %remat_pl, 0x100, RZ
// CHECK-NEXT:    %remat_hi = ori.iadd3 x %remat_ph, 0x0, RZ, %remat_c
// CHECK-NEXT:    %remat_q = ori.pack %remat_lo, %remat_hi
// CHECK-NEXT:    ori.stg [%remat_q], %s7
// CHECK-LABEL: ori.func kernel @halves(
// CHECK:       ^bb1:
// CHECK:         %s7 = ori.iadd3 %s6, %v7, RZ
// CHECK-NEXT:    %remat_pl, %remat_ph = ori.unpack %p
// CHECK-NEXT:    %remat_lo, %remat_c = ori.iadd3 %remat_pl, 0x100, RZ
// CHECK-NEXT:    %remat_hi = ori.iadd3 x %remat_ph, 0x0, RZ, %remat_c
// CHECK-NEXT:    %w = ori.iadd3 %s7, %remat_lo, %remat_hi
// REM: remark: @pair: rematerialized %q (PACK, 2 registers): pulled into ^bb1 (4 instructions, cost 5)
// REM-NEXT: ori-remat-block: @pair: max live 12 -> 10 (target 10) [rematerialized values=1] [instructions cloned=4] [rounds=1]
// REM-NEXT: remark: @halves: rematerialized %lo (IADD3, 1 register): pulled into ^bb1 (2 instructions, cost 2)
// REM-NEXT: remark: @halves: rematerialized %hi (IADD3, 1 register): pulled into ^bb1 (1 instruction, 2 shared with an earlier copy, cost 3)
// REM-NEXT: ori-remat-block: @halves: max live 12 -> 10 (target 10) [rematerialized values=2] [instructions cloned=3] [rounds=1]

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @pair() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %pl, %ph = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %pl, 0x100, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %ph, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %q = ori.pack %lo, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    %v0 = ori.ldg [%p + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%p + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%p + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%p + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%p + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%p + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%p + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%p + 0x1c] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%q], %s7 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p], %s7 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @halves() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %pl, %ph = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %pl, 0x100, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %ph, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %v0 = ori.ldg [%p + 0x0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%p + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%p + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%p + 0xc] : (!ori.r64) -> !ori.r32
    %v4 = ori.ldg [%p + 0x10] : (!ori.r64) -> !ori.r32
    %v5 = ori.ldg [%p + 0x14] : (!ori.r64) -> !ori.r32
    %v6 = ori.ldg [%p + 0x18] : (!ori.r64) -> !ori.r32
    %v7 = ori.ldg [%p + 0x1c] : (!ori.r64) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %s1 = ori.iadd3 %v0, %v1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s7, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%p], %w : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
