// ori-remat: the knobs of the main loop (seed 002 "IR-Level Knobs", "Pull-In
// Cost Model"): do-remat levels, remat-move, max-recurse-depth,
// remat-max-live-limit and a round that is undone; the cost filters
// remat-single-cost-limit / remat-ignore-single-cost, remat-gep-cost,
// remat-use-limit with remat-loop-trip.  Every run caps the target at 2
// registers (remat-maxreg-ceiling) and keeps loads for the load phase off.
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 do-remat=0 dump-remat=3 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=L0
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 do-remat=1 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=L1
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 do-remat=2 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=L2
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=L3
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-move=true}' | filecheck %s --check-prefix=MOVE
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 max-recurse-depth=1 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=DEPTH
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-max-live-limit=1 dump-remat=1 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=LIMIT
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-single-cost-limit=19 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=SINGLE
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-single-cost-limit=19 remat-ignore-single-cost=true dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=IGNORE
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-gep-cost=10 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=GEP
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-use-limit=1 dump-remat=3}' 2>&1 >/dev/null | filecheck %s --check-prefix=USES
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-maxreg-ceiling=2 remat-load=0 remat-loop-trip=2 dump-remat=4}' 2>&1 >/dev/null | filecheck %s --check-prefix=TRIP

// @levels: %c is a register copy of %x (live to the end); %d = %e + 5 with
// %e = 3 * %x dead after it (a chain of two); %n and %w are live-in to the
// loop only (the worst block), not to ^bb2.
// do-remat=0: the main loop does not run.
// L0-NOT: Candidate
// L0: ori-remat: @levels: [max live 10 -> 10] [max live-in 7 -> 7] [target 2] [rematerialized 0]
// do-remat=1 (conservative): one instruction whose operands are live at the use.
// L1: Candidate %c: not rematerializable: a register copy (remat-move=false)
// L1-NEXT: Candidate %d: not rematerializable: operand %e is not live at every use (max-recurse-depth=1)
// L1-NEXT: Iteration 1: max live-in = 7, target 2: no candidate
// do-remat=2 (normal): the def chain; only the intersection of the hot blocks.
// L2: Candidate %d: selected (cost 2)
// L2-NOT: Candidate %n
// L2: Iteration 2: max live-in = 6, target 2: no candidate
// do-remat=3 (full, the default): also the worst block's live-in.
// L3: Candidate %d: selected (cost 2)
// L3-NEXT: Candidate %n: selected (cost 20)
// L3-NEXT: Candidate %w: selected (cost 20)
// L3-NEXT: %d: remat_d in ^bb2
// L3-NEXT: %n: remat_n in ^bb1
// L3-NEXT: %w: remat_w in ^bb1
// L3-NEXT: Iteration 1: max live-in = 7 -> 5, target 2
// remat-move=true: the copy is recomputed too.
// MOVE: ^bb2:
// MOVE-NEXT: %remat_c = ori.mov %x
// MOVE-NEXT: %remat_e = ori.imad %x, 0x3, RZ
// MOVE-NEXT: %remat_d = ori.iadd3 %remat_e, 0x5, RZ
// MOVE-NEXT: %r1 = ori.iadd3 %s1, %remat_c, %remat_d
// DEPTH: Candidate %d: not rematerializable: operand %e is not live at every use (max-recurse-depth=1)
// DEPTH-NEXT: Candidate %n: selected (cost 20)
// remat-max-live-limit=1: one register a round; the third round (%w) does not
// lower the max live-in (^bb2's live-in stays 5) and is undone.
// LIMIT: Iteration 1: max live-in = 7 -> 6, target 2
// LIMIT: Iteration 2: max live-in = 6 -> 5, target 2
// LIMIT: ori-remat: @levels: rematerialization round 3 undone: max live-in 5 -> 5, max live 8 -> 8
// LIMIT-NEXT: remark: @levels: rematerialization round 3 undone: max live-in 5 -> 5, max live 8 -> 8
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @levels() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %c = ori.mov %x : (!ori.r32) -> !ori.r32
    %e = ori.imad %x, 0x3, RZ : (!ori.r32) -> !ori.r32
    %d = ori.iadd3 %e, 0x5, RZ : (!ori.r32) -> !ori.r32
    %w = ori.lop3 %x, 0xf0, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %w : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    %r1 = ori.iadd3 %s1, %c, %d : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// @filters: %w is used twice in the loop, %ad is an address (the loop's load
// reads [%ad]); all three candidates cost 1 x use factor 20 (one loop deeper).
// SINGLE: Candidate %n: rejected: cost 20 > remat-single-cost-limit=19
// SINGLE: Candidate %w: rejected: cost 20 > remat-single-cost-limit=19
// SINGLE: Candidate %ad: rejected: cost 20 > remat-single-cost-limit=19
// SINGLE-NEXT: Iteration 1: max live-in = 7, target 2: no candidate
// IGNORE: ori-remat: @filters: Candidate %n: selected (cost 20)
// IGNORE-NEXT: Candidate %w: selected (cost 20)
// IGNORE-NEXT: Candidate %ad: selected (cost 20)
// GEP: Candidate %ad: rejected: address cost 20 > remat-gep-cost=10
// GEP-NEXT: Candidate %n: selected (cost 20)
// GEP-NEXT: Candidate %w: selected (cost 20)
// USES: Candidate %w: rejected: 2 uses > remat-use-limit=1 with use factor 20 >= remat-loop-trip=20
// USES-NEXT: Candidate %n: selected (cost 20)
// USES-NEXT: Candidate %ad: selected (cost 20)
// TRIP: @filters: %n: Total pull-in cost = 2 (base 1 x use factor 2)
// TRIP-NEXT: @filters: %w: Total pull-in cost = 2 (base 1 x use factor 2)
// TRIP-NEXT: @filters: %ad: Total pull-in cost = 2 (base 1 x use factor 2)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @filters() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.lop3 %x, 0xf0, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %ad = ori.imad wide.u32 %x, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%ad] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %w : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.lop3 %s1, %w, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %r2 = ori.iadd3 %s2, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
