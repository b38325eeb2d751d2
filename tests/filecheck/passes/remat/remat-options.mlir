// ori-remat: bad options are one diagnostic each, no traceback; a malformed
// no-remat list too; a name in no-remat that is no function of the module is
// a warning; an excluded function is left alone with the seed's "Skip
// rematerialization on" line; --help-passes lists the seed's knobs.
// RUN: not ori-opt %s -p 'ori-remat{do-remat=4}' 2>&1 | filecheck %s --check-prefix=DO
// RUN: not ori-opt %s -p 'ori-remat{remat-load=2}' 2>&1 | filecheck %s --check-prefix=LOAD
// RUN: not ori-opt %s -p 'ori-remat{remat-loop-trip=0}' 2>&1 | filecheck %s --check-prefix=TRIP
// RUN: not ori-opt %s -p 'ori-remat{remat-maxreg-ceiling=256}' 2>&1 | filecheck %s --check-prefix=CEIL
// RUN: not ori-opt %s -p 'ori-remat{max-recurse-depth=0}' 2>&1 | filecheck %s --check-prefix=DEPTH
// RUN: not ori-opt %s -p 'ori-remat{remat-iv=-1}' 2>&1 | filecheck %s --check-prefix=IV
// RUN: not ori-opt %s -p 'ori-remat{no-remat="k,,j"}' 2>&1 | filecheck %s --check-prefix=LIST
// RUN: not ori-opt %s -p 'ori-remat{no-remat="k j"}' 2>&1 | filecheck %s --check-prefix=LIST2
// RUN: ori-opt %s -p 'ori-remat{no-remat="@skipped, nosuch" remat-maxreg-ceiling=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: ori-opt %s -p 'ori-remat{do-remat=0 remat-iv=0 remat-load=0 remat-maxreg-ceiling=2 stats=true}' 2>&1 | filecheck %s --check-prefix=GATE
// RUN: ori-opt --help-passes ori-remat | filecheck %s --check-prefix=HELP

// DO: ori-opt: error: ori-remat: do-remat must be 0 (off), 1 (conservative), 2 (normal) or 3 (full), got 4
// DO-NOT: Traceback
// LOAD: ori-opt: error: ori-remat: remat-load must be 0 (off) or 1 (on), got 2
// TRIP: ori-opt: error: ori-remat: remat-loop-trip must be >= 1, got 0
// CEIL: ori-opt: error: ori-remat: remat-maxreg-ceiling must be 0 (uncapped) or 1..255, got 256
// DEPTH: ori-opt: error: ori-remat: max-recurse-depth must be 1..50, got 0
// IV: ori-opt: error: ori-remat: remat-iv must be >= 0 (0 off, 1-2 basic, 3 extended, 4 full), got -1
// LIST: ori-opt: error: ori-remat: malformed no-remat 'k,,j': expected comma-separated function names (e.g. "k1,@k2"), got ''
// LIST2: ori-opt: error: ori-remat: malformed no-remat 'k j': expected comma-separated function names (e.g. "k1,@k2"), got 'k j'
// SKIP: ori-remat: warning: no-remat names @nosuch, which is not a function of this module
// SKIP-NEXT: ori-remat: Skip rematerialization on @skipped
// SKIP-NEXT: remark: @done: rematerialized %k (cost 1): remat_k in ^bb2
// SKIP-NOT: @skipped
// The master gate: do-remat, remat-iv and remat-load all 0 -- nothing runs.
// GATE-NOT: ori-remat:
// GATE: %k = ori.iadd3 %x, 0x10, RZ
// HELP: ori-remat
// HELP: IR-level rematerialization
// HELP: remat-single-cost-limit
// HELP-SAME: int = 6000
// HELP: simplify-live-out
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @skipped() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    %r = ori.iadd3 %i2, %k, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @done() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    %r = ori.iadd3 %i2, %k, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
