// ori-hoist-invariants: the pass ids and the budget arithmetic of stages 1
// and 5 (seed 001 "Stage 1: Budget Computation", "Stage 5: Profitability
// Check", "Pass ID Controls Aggressiveness").
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=P0
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants-early{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=P0
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants-late{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=P1
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{pass-id=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=P2
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants-late3{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=P3
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{hoist-loop-inv-budget=80.0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=B80
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{hoist-loop-inv-budget=79.0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=B79
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{hoist-loop-inv-budget=0.0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=B0

// One invariant multiply (score 1) and one load that stays (a store may
// alias it: latency penalty 2) in a header of 8 instructions (weight 240).
// Pass 0: 1 x 22 / (5 x 8 instructions) = 0.55 < 2.
// P0: remark: @weigh ^bb1: not hoisted: not profitable in ^bb1: score 1 x budget 22 / (5 x 8) < penalty 2
// Later passes: budget 100, denominator body 0 / 3 + header 240.
// P1: remark: @weigh ^bb1: not hoisted: not profitable in ^bb1: score 1 x budget 100 / (5 x 240) < penalty 2
// P1: ori-hoist-invariants-late: @weigh: [hoisted instructions=0] [loops hoisted=0] [loops not hoisted=1]
// P2: remark: @weigh ^bb1: not hoisted: not profitable in ^bb1: score 1 x budget 100 / (5 x 240) < penalty 2
// Pass 3: the budget x 100: 1 x 10000 / 1200 = 8.3 >= 2.
// P3: remark: @weigh ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// P3: ori-hoist-invariants-late3: @weigh: [hoisted instructions=1] [loops hoisted=1] [loops not hoisted=0]
// HoistLoopInvBudget 80 reaches the penalty exactly (80 / 40 = 2), 79 does not;
// 0 is unlimited.
// B80: remark: @weigh ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// B79: remark: @weigh ^bb1: not hoisted: not profitable in ^bb1: score 1 x budget 79 / (5 x 8) < penalty 2
// B0: remark: @weigh ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @weigh() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %k = ori.imad %n, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %w = ori.iadd3 %v, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %w, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x40], %s2 : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Two back-edge blocks (^bb3, ^bb4; no ori-loop-simplify): a latch is hoist
// mode 3, whose budget (200 for pass 0's simple loop, 300 later) is split
// between the two back edges.  The load in ^bb3 stays (a store may alias
// it), so the multiply's score 1 meets a penalty 2.  Pass 0: 1 x 100 /
// (5 x 4 instructions) = 5 >= 2.
// P0: remark: @latches ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// Pass 1: header 5 instructions (150), body 8 (240):
// 1 x 150 / (5 x (240 / 3 + 150)) = 0.13 < 2.
// P1: remark: @latches ^bb1: not hoisted: not profitable in ^bb3: score 1 x budget 150 / (5 x 230) < penalty 2
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @latches() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %o = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %o, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb5
  ^bb2:
    ori.bra if %q : !ori.p, ^bb3, ^bb4
  ^bb3:
    %k = ori.imad %n, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %k, %v : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb4:
    %s3 = ori.iadd3 %s, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x40], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb1(%i2 : !ori.r32, %s3 : !ori.r32)
  ^bb5:
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
