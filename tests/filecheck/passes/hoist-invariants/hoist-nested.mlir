// ori-hoist-invariants: innermost-first traversal, multi-depth hoisting, the
// nested-hoist condition, the HoistLate policy (knob 381) with its per-loop
// override, knob 220 and the boundary analysis (seed 001 "Multi-Depth Loop
// Handling", "Per-Block Knob 381 Policy", "LICM Outer Loop (sub_8FF780)").
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true hoist-late-override="2=3"}' 2>&1 >/dev/null | filecheck %s --check-prefix=NESTED
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true hoist-late-override="2=3" disable-nested-hoist=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NONEST
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true hoist-late=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=INNER
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true hoist-late-override="*=3"}' 2>&1 >/dev/null | filecheck %s --check-prefix=NEVER
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true multi-depth-hoist=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=K220
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true hoist-late-override="2=3"}' | filecheck %s --check-prefix=IR

// The inner loop (^bb2, ^bb3) is visited first: %k leaves it for its
// preheader ^bb1, the outer header, and then leaves the outer loop too.
// CHECK: remark: @nest ^bb2: hoisted 1 instruction from ^bb2 to ^bb1
// CHECK: remark: @nest ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// With the inner loop's policy 3 (never), the outer loop takes %k straight
// out of the inner latch ^bb3: the nested-hoist condition holds (the inner
// body weighs 120 > 1 and < 2 x the header's 120, one entry edge).
// NESTED: remark: @nest ^bb2: not hoisted: hoist-late policy 3 (never)
// NESTED: remark: @nest ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// IR-LABEL: ori.func kernel @nest(
// IR:         %k = ori.imad %n, 0x5, RZ
// IR-NEXT:    ori.bra ^bb1(
// NONEST: remark: @nest ^bb2: not hoisted: hoist-late policy 3 (never)
// NONEST: remark: @nest ^bb1: not hoisted: no invariant instruction
// INNER: remark: @nest ^bb2: hoisted 1 instruction from ^bb2 to ^bb1
// INNER: remark: @nest ^bb1: not hoisted: hoist-late policy 1 (inner loops only) and the loop contains loops
// NEVER: remark: @nest ^bb2: not hoisted: hoist-late policy 3 (never)
// NEVER: remark: @nest ^bb1: not hoisted: hoist-late policy 3 (never)
// K220: remark: @nest ^bb2: hoisted 1 instruction from ^bb2 to ^bb1
// K220: remark: @nest ^bb1: not hoisted: multi-depth loop (multi-depth-hoist=false)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nest() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    ori.bra ^bb2(%z : !ori.r32, %s : !ori.r32)
  ^bb2(%j : !ori.r32, %t : !ori.r32):
    %t1 = ori.iadd3 %t, %j, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %x = ori.lop3 %t1, %j2, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3
  ^bb3:
    %k = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %x, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %j2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb1(%i2 : !ori.r32, %t2 : !ori.r32), ^bb5
  ^bb5:
    ori.stg [%a], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Boundary analysis: a barrier in a loop that contains a loop skips it
// whole; the inner loop, without the barrier, still hoists.
// CHECK: remark: @barrier ^bb2: hoisted 1 instruction from ^bb2 to ^bb1
// CHECK: remark: @barrier ^bb1: not hoisted: barrier in a multi-depth loop
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @barrier() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    ori.bra ^bb2(%z : !ori.r32, %s : !ori.r32)
  ^bb2(%j : !ori.r32, %t : !ori.r32):
    %k = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t, %k, %j : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %j2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%j2 : !ori.r32, %t2 : !ori.r32), ^bb3
  ^bb3:
    ori.bar 0x0 : () -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb1(%i2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
