// ori-hoist-invariants: the stages of the engine (seed 001 "LICM Invariant
// Detection Algorithm").  Every kernel takes a pointer and a 32-bit n and
// stores its loop's results after the loop, so that
// tests/passes/hoist_invariants/test_equivalence.py can run it before and
// after the pass.
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{use-new-loop-invariant-routine-for-hoisting=true remarks=true}' 2>&1 >/dev/null | filecheck %s
// A second run hoists nothing (idempotence).
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants,ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=AGAIN

// Stage 2 marks %k and the load (operands defined before the loop); stage 4
// adds %k2, which uses %k (transitive invariance); %s2 and the IV stay.
// CHECK: remark: @chain ^bb1: hoisted 3 instructions from ^bb1 to ^bb0
// CHECK: ori-hoist-invariants: @chain: [hoisted instructions=3] [loops hoisted=1] [loops not hoisted=0]
// AGAIN: remark: @chain ^bb1: not hoisted: no invariant instruction
// IR-LABEL: ori.func kernel @chain(
// IR:         %k = ori.imad %n, 0x3, %n
// IR-NEXT:    %k2 = ori.lop3 %k, %n, RZ, 0x96
// IR-NEXT:    %v = ori.ldg [%a + 0x40]
// IR-NEXT:    ori.bra ^bb1(
// IR-NEXT:  ^bb1(
// IR-NEXT:    %s2 = ori.iadd3 %s, %k2, %v
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %k = ori.imad %n, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.lop3 %k, %n, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %k2, %v : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Stage 3: the forward scan marks the load (no store seen yet); the backward
// scan sees the store after it (same state space, may alias) and revokes it,
// and stage 4 does not add %w, which uses it.  %k is left alone too: stage
// 5 weighs its score 1 against the load's latency penalty 2 (pass 0:
// 1 x 22 / (5 x 8 instructions) < 2).  Late3 (budget x100) moves it.
// CHECK: remark: @revoke ^bb1: not hoisted: not profitable in ^bb1: score 1 x budget 22 / (5 x 8) < penalty 2
// IR-LABEL: ori.func kernel @revoke(
// IR:         ori.bra ^bb1(
// IR-NEXT:  ^bb1(
// IR-NEXT:    %k = ori.imad %n, 0x3, %n
// IR-NEXT:    %v = ori.ldg [%a + 0x40]
// IR-NEXT:    %w = ori.iadd3 %v, %k, RZ
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @revoke() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
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
// Nothing invariant: the remark says so.
// CHECK: remark: @none ^bb1: not hoisted: no invariant instruction
// CHECK: ori-hoist-invariants: @none: [hoisted instructions=0] [loops hoisted=0] [loops not hoisted=1]
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @none() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %s2 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// No dedicated preheader (two entry edges): the pass creates one on the
// first move, appended after the blocks it received (^bb4), and points both
// entry edges at it.
// CHECK: remark: @nopre ^bb2: hoisted 1 instruction from ^bb2 to ^bb4
// IR-LABEL: ori.func kernel @nopre(
// IR:         ori.bra if %q : !ori.p, ^[[PRE:bb[0-9]+]](%z : !ori.r32, %z : !ori.r32), ^bb1
// IR:         ori.bra ^[[PRE]](%n : !ori.r32, %z : !ori.r32)
// IR:       ^[[PRE]](%{{.*}}: !ori.r32, %{{.*}}: !ori.r32):
// IR-NEXT:    %k = ori.imad %n, 0x5, RZ
// IR-NEXT:    ori.bra ^bb2(
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nopre() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %q = ori.isetp lt.u32 %n, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2(%z : !ori.r32, %z : !ori.r32), ^bb1
  ^bb1:
    ori.bra ^bb2(%n : !ori.r32, %z : !ori.r32)
  ^bb2(%i : !ori.r32, %s : !ori.r32):
    %k = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %k, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%i2 : !ori.r32, %s2 : !ori.r32), ^bb3
  ^bb3:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
