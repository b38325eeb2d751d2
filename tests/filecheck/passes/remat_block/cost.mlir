// ori-remat-block: clone cost and selection (seed 002 "Algorithm Overview"
// steps 5 and 6, the cost knobs of "Machine-Level Knobs").  An ALU
// instruction costs 1, a constant-bank load nv-remat-block-load-cost (10), a
// 64-bit value twice that ("double-wide ... have their cost doubled") and
// frees 2 registers; the limits are per register freed; the cheapest go
// first, until the over-target blocks are at the target.
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=10 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=T10
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=T8
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=5 remarks=true stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=T5
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=5 nv-remat-block-load-cost=11 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=LOAD
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 nv-remat-block-single-cost=1 dump-remat=4 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SINGLE
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 nv-remat-block-loop-cost-factor=101 dump-remat=3 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=FACTOR
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=8 nv-remat-block-max-cost=19 dump-remat=3 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MAX

// At the peak of ^bb1 (11 registers): %n (MOV, cost 1), %k (IADD3, 1), %w
// (64-bit IMAD.WIDE, 2 for 2 registers), %q (LDC, 10) can be recomputed
// after it; %a is read by the loads before the peak, so its copy would be
// live there.
// One register over: the cheapest, %n (the first of two at cost 1).
// T10: remark: @costs: rematerialized %n (MOV, 1 register)
// T10-NOT: remark: @costs
// Three over: %n, %k, then %w's two registers -- four, so %k, which %w
// makes up for, is dropped again (the cleanup): two copies, not three.
// T8: remark: @costs: rematerialized %n (MOV, 1 register): pulled into ^bb1 (1 instruction, cost 1)
// T8-NEXT: remark: @costs: rematerialized %w (IMAD, 2 registers): pulled into ^bb1 (1 instruction, cost 2)
// T8-NOT: remark: @costs
// Six over: all four, and max live is as low as it goes (%a, %x and the
// three loads: 6).
// T5: remark: @costs: rematerialized %n
// T5-NEXT: remark: @costs: rematerialized %k
// T5-NEXT: remark: @costs: rematerialized %w
// T5-NEXT: remark: @costs: rematerialized %q (LDC, 1 register): pulled into ^bb1 (1 instruction, cost 10)
// T5: ori-remat-block: @costs: max live 11 -> 6 (target 5)
// A load cost of 11 is over nv-remat-block-single-cost 10.
// LOAD: ori-remat-block: @costs: %q: not pulled: cost 11 of one copy exceeds nv-remat-block-single-cost 10
// Per register freed: the 64-bit %w (cost 2) meets a single cost of 1.
// SINGLE: ori-remat-block: @costs: %w: pull into 1 block(s), cost 2 per copy, 2 in all
// SINGLE: remark: @costs: rematerialized %w
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @costs() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %q = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %w = ori.imad wide.u32 %x, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %s1, %k, %q : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w], %r2 : (!ori.r64, !ori.r32) -> ()
    %r3 = ori.iadd3 %r2, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x80], %r3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A value live through a loop and read in it: its copy goes into the loop,
// one level deeper than its definition, so its cost is multiplied by
// nv-remat-block-loop-cost-factor (20): 20 <= nv-remat-block-max-cost 100.
// %n is read in the loop and after it (20 + 1): %k is cheaper.
// T8: remark: @inloop: rematerialized %k (IADD3, 1 register): pulled into ^bb1 (1 instruction, cost 20)
// T8-NOT: remark: @inloop
// FACTOR: ori-remat-block: @inloop: %n: not pulled: total cost 102 exceeds nv-remat-block-max-cost 100
// FACTOR: ori-remat-block: @inloop: %k: not pulled: total cost 101 exceeds nv-remat-block-max-cost 100
// FACTOR: ori-remat-block: @inloop: Really Final Pull-in: 0 (0)
// FACTOR-NOT: remark: @inloop
// MAX: ori-remat-block: @inloop: %k: not pulled: total cost 20 exceeds nv-remat-block-max-cost 19
// MAX-NOT: remark: @inloop
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @inloop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s3 : !ori.r32), ^bb2
  ^bb2:
    %t = ori.iadd3 %s3, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
