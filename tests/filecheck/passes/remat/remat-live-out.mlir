// ori-remat: live-out simplification (seed 002 "NLO -- Simplify Live Output",
// simplify-live-out): nloNewBit narrows a 64-bit value used downstream only
// through its low word to that word at the end of its block; nloNewAdd
// recomputes an add (level 2: a register plus a constant, level 3: of live
// registers) where it is used, across the boundaries above the target.  The
// main loop is off (do-remat=0) so that NLO sees these values.
// RUN: ori-opt %s -p 'ori-remat{do-remat=0 remat-load=0 remat-maxreg-ceiling=4 remarks=true stats=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-remat{do-remat=0 remat-load=0 remat-maxreg-ceiling=4 simplify-live-out=1 dump-simplify-live-out=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=L1
// RUN: ori-opt %s -p 'ori-remat{do-remat=0 remat-load=0 remat-maxreg-ceiling=4 simplify-live-out=3 dump-simplify-live-out=true stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=L3
// RUN: ori-opt %s -p 'ori-remat{do-remat=0 remat-load=0 remat-maxreg-ceiling=4 simplify-live-out=0 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OFF

// %w (64 bits) is used after the loop only through its low word; %off = %x +
// 0x40 and %sum = %x + %y are used after it, %x and %y stay live to the end;
// %k = %x + 8 is used inside the loop (a clone there would run every
// iteration: not recomputed).
// CHECK-LABEL: ori.func kernel @nlo(
// CHECK:         %k = ori.iadd3 %x, 0x8, RZ
// CHECK-NEXT:    %z = ori.mov 0x0
// CHECK-NEXT:    %nloNewBit, %{{.*}} = ori.unpack %w
// CHECK-NEXT:    ori.bra ^bb1
// CHECK:       ^bb2:
// CHECK-NEXT:    %nloNewAdd = ori.iadd3 %x, 0x40, RZ
// CHECK-NEXT:    %r1 = ori.iadd3 %s1, %nloNewBit, %nloNewAdd
// CHECK-NEXT:    %r2 = ori.iadd3 %r1, %sum, %x
// REM: remark: @nlo: nloNewBit: %w crosses the boundaries of ^bb0 as its low word
// REM-NEXT: remark: @nlo: nloNewAdd: %off recomputed in ^bb2
// REM-NEXT: ori-remat: @nlo: [max live 13 -> 11] [max live-in 10 -> 8] [target 4] [rematerialized 0] [clones 0] [demoted IVs 0] [live-out simplified 2]
// L1: ori-remat: @nlo: nloNewBit: %w live-out of ^bb0 narrowed to its low word
// L1-NOT: nloNewAdd
// L3: ori-remat: @nlo: nloNewBit: %w live-out of ^bb0 narrowed to its low word
// L3-NEXT: ori-remat: @nlo: nloNewAdd: %off recomputed in ^bb2
// L3-NEXT: ori-remat: @nlo: nloNewAdd: %sum recomputed in ^bb2
// L3-NEXT: ori-remat: @nlo: [max live 13 -> 10] [max live-in 10 -> 7]
// OFF: ori-remat: @nlo: [max live 13 -> 13] [max live-in 10 -> 10] [target 4] [rematerialized 0] [clones 0] [demoted IVs 0] [live-out simplified 0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @nlo() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_CTAID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %x, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %off = ori.iadd3 %x, 0x40, RZ : (!ori.r32) -> !ori.r32
    %sum = ori.iadd3 %x, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k = ori.iadd3 %x, 0x8, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v, %k : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb2
  ^bb2:
    %lo, %hi = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %r1 = ori.iadd3 %s1, %lo, %off : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %sum, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r3 = ori.iadd3 %r2, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
