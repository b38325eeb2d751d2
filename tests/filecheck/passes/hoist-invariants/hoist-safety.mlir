// ori-hoist-invariants: the blocking rules (seed 001 "Side-Effect Blocking
// Rules"), the alias rule for loads, the zero-trip rule and guards
// (passes/hoist_invariants/safety.py).  Each kernel stores its results after
// the loop (tests/passes/hoist_invariants/test_equivalence.py runs them).
// pass-id=3 (budget x100) so that stage 5 lets through whatever the rules allow.
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{pass-id=3 remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{pass-id=3}' | filecheck %s --check-prefix=IR

// A shared store does not alias a global load (different state spaces) and
// nothing aliases a constant-bank load: both loads move.
// CHECK: remark: @spaces ^bb1: hoisted 2 instructions from ^bb1 to ^bb0
// IR-LABEL: ori.func kernel @spaces(
// IR:         %v = ori.ldg [%a + 0x40]
// IR-NEXT:    %c = ori.ldc 0x0, [RZ + 0x218]
// IR-NEXT:    ori.bra ^bb1(
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @spaces() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %sh = ori.shl %t, 0x2 : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %c = ori.ldc b32 0x0, [RZ + 0x218] : () -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.sts [%sh], %s1 : (!ori.r32, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A global store may alias a global load: it stays (stage 3 revokes it).
// CHECK: remark: @alias ^bb1: not hoisted: no movable invariant instruction (1 load under a possibly aliasing store)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @alias() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x44], %s1 : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Never moved: a barrier, a warp shuffle, a clock read, an ordered (acquire)
// load, an atomic (it writes memory); a barrier in the loop also keeps every
// load in it.  Instructions without results (the barrier) are not counted.
// CHECK: remark: @never ^bb1: not hoisted: no movable invariant instruction (1 load under a possibly aliasing store, 1 memory store, 1 ordered (volatile/atomic) access, 1 volatile read, 1 warp-collective)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @never() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    ori.bar 0x0 : () -> ()
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %o = ori.ldg acquire.gpu [%a + 0x10] : (!ori.r64) -> !ori.r32
    %c = ori.s2r SR_CLOCKLO : () -> !ori.r32
    %x = ori.shfl idx %n, 0x0, 0x1f : (!ori.r32) -> !ori.r32
    %t = ori.atom add [%a + 0x20], %n : (!ori.r64, !ori.r32) -> !ori.r32
    %c0 = ori.lop3 %c, RZ, RZ, 0x0 : (!ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %o : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %x, %c0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The zero-trip rule: a top-tested loop may run zero times, so the load of
// its body (which does not dominate the exit in ^bb1) may not move -- it may
// fault where the original never executed it; the multiply cannot fault and
// moves.  Guarded code keeps its guard: %g (guard %q and prior %n invariant)
// moves with its guard and prior.
// CHECK: remark: @zerotrip ^bb1: hoisted 2 instructions from ^bb1 to ^bb0
// IR-LABEL: ori.func kernel @zerotrip(
// IR:         %m = ori.imad %n, 0x7, RZ
// IR-NEXT:    %g = ori.iadd3 %n, 0x1, RZ if %q else %n
// IR-NEXT:    ori.bra ^bb1(
// IR:       ^bb2:
// IR-NEXT:    %v = ori.ldg [%a + 0x40]
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @zerotrip() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %q = ori.isetp gt.u32 %n, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %p = ori.isetp lt.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %m = ori.imad %n, 0x7, RZ : (!ori.r32) -> !ori.r32
    %g = ori.iadd3 %n, 0x1, RZ if %q else %n : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %g, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32, %s2 : !ori.r32)
  ^bb3:
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
