// ori-hoist-invariants: the mid blocks of a loop (the blocks between the
// header and the back edge at the loop's own depth), which ptxas's driver
// does not visit (seed 001 "LICM Outer Loop"), EnableHoistLowLatencyInstMidBlock
// and ori's hoist-duplicates (passes/hoist_invariants/mid_blocks.py).  Every
// kernel takes a pointer and a 32-bit n and stores its loop's result after
// the loop (tests/passes/hoist_invariants/test_equivalence.py runs them).
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{enable-hoist-low-latency-inst-mid-block=true remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=LOW
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{enable-hoist-low-latency-inst-mid-block=true}' | filecheck %s --check-prefix=LOWIR
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{hoist-duplicates=false remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NODUP
// A second run hoists nothing (idempotence).
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants,ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=AGAIN

// The invariant LOP3 and MUFU of the guarded block ^bb2 stay: it is neither
// the header nor the back-edge block.  With EnableHoistLowLatencyInstMidBlock
// the LOP3 (fixed latency) moves and the MUFU (scoreboarded) stays.
// CHECK: remark: @mid ^bb1: not hoisted: its 2 invariant instructions are in mid blocks (between the header and the back edge; ptxas does not visit them)
// LOW: remark: @mid ^bb1: hoisted 1 instruction from ^bb1 to ^bb0
// NODUP: remark: @mid ^bb1: not hoisted: its 2 invariant instructions are in mid blocks
// AGAIN: remark: @mid ^bb1: not hoisted: its 2 invariant instructions are in mid blocks
// IR-LABEL: ori.func kernel @mid(
// IR:         ori.bra ^bb1(
// IR-NEXT:  ^bb1(
// IR:       ^bb2:
// IR-NEXT:    %k = ori.lop3 %n, 0x3, RZ, 0xc0
// IR-NEXT:    %r = ori.mufu rcp %n
// LOWIR-LABEL: ori.func kernel @mid(
// LOWIR:         %k = ori.lop3 %n, 0x3, RZ, 0xc0
// LOWIR-NEXT:    ori.bra ^bb1(
// LOWIR:       ^bb2:
// LOWIR-NEXT:    %r = ori.mufu rcp %n
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @mid() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %odd = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2, ^bb3(%s : !ori.r32)
  ^bb2:
    %k = ori.lop3 %n, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %r = ori.mufu rcp %n : (!ori.r32) -> !ori.r32
    %t = ori.iadd3 %s, %k, %r : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%t : !ori.r32)
  ^bb3(%s1 : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Both arms of the if compute n*3+n and its LOP3 with n, and m*3+m: the
// loop computes each value twice, so the six instructions move
// (hoist-duplicates) and the second copy of each merges into the first --
// three instructions at the preheader, read by both arms (the two IMADs
// differ only in their operands and stay apart).  The arms' own MUFU of n
// appears once each and stays.  Without hoist-duplicates nothing moves.
// CHECK: remark: @dup ^bb1: hoisted 6 instructions from ^bb1 to ^bb0 (3 duplicate copies merged away)
// LOW: remark: @dup ^bb1: hoisted 6 instructions from ^bb1 to ^bb0 (3 duplicate copies merged away)
// NODUP: remark: @dup ^bb1: not hoisted: its 8 invariant instructions are in mid blocks
// AGAIN: remark: @dup ^bb1: not hoisted: its 2 invariant instructions are in mid blocks
// IR-LABEL: ori.func kernel @dup(
// IR:         %[[K:[a-z]+]] = ori.imad %n, 0x3, %n
// IR-NEXT:    %[[K2:[a-z0-9]+]] = ori.lop3 %[[K]], %n, RZ, 0x96
// IR-NEXT:    %[[L:[a-z0-9]+]] = ori.imad %m, 0x3, %m
// IR-NEXT:    ori.bra ^bb1(
// IR:       ^bb2:
// IR-NEXT:    %r = ori.mufu rcp %n
// IR-NEXT:    %t = ori.iadd3 %s, %[[K2]], %r
// IR-NEXT:    %w = ori.iadd3 %t, %[[L]], RZ
// IR:       ^bb3:
// IR-NEXT:    %r2 = ori.mufu sqrt %n
// IR-NEXT:    %t2 = ori.iadd3 %s, %[[K2]], %r2
// IR-NEXT:    %w2 = ori.iadd3 %t2, %[[L]], %[[L]]
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @dup() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %m = ori.iadd3 %n, 0x7, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %odd = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2, ^bb3
  ^bb2:
    %k = ori.imad %n, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.lop3 %k, %n, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %l = ori.imad %m, 0x3, %m : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.mufu rcp %n : (!ori.r32) -> !ori.r32
    %t = ori.iadd3 %s, %k2, %r : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %t, %l, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb4(%w : !ori.r32)
  ^bb3:
    %j = ori.imad %n, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.lop3 %j, %n, RZ, 0x96 : (!ori.r32, !ori.r32) -> !ori.r32
    %l2 = ori.imad %m, 0x3, %m : (!ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.mufu sqrt %n : (!ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %s, %j2, %r2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w2 = ori.iadd3 %t2, %l2, %l2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb4(%w2 : !ori.r32)
  ^bb4(%s1 : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb5
  ^bb5:
    ori.stg [%a], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The header and the back-edge block are visited as before: their invariants
// move, and a copy of one in a mid block merges with it.
// CHECK: remark: @visited ^bb1: hoisted 3 instructions from ^bb1 to ^bb0 (1 duplicate copy merged away)
// IR-LABEL: ori.func kernel @visited(
// IR:         %h = ori.imad %n, 0x5, RZ
// IR-NEXT:    %b = ori.lop3 %n, 0xff, RZ, 0xc0
// IR-NEXT:    ori.bra ^bb1(
// IR:       ^bb2:
// IR-NEXT:    %t = ori.iadd3 %s, %h, RZ
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @visited() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %h = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %odd = ori.lop3 %i, %h, RZ, 0xc0 : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2, ^bb3(%s : !ori.r32)
  ^bb2:
    %h2 = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %t = ori.iadd3 %s, %h2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%t : !ori.r32)
  ^bb3(%s1 : !ori.r32):
    %b = ori.lop3 %n, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
