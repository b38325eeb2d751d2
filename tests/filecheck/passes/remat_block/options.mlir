// ori-remat-block: the target, the switches, the function exclusion list,
// bad option values (one diagnostic each, no traceback) and input the pass
// leaves alone.
// RUN: ori-opt %s -p 'ori-remat-block{max-regs=10 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MAXREGS
// RUN: ori-opt %s -p 'ori-remat-block{max-regs=32 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MAXREGS32
// RUN: ori-opt %s -p 'ori-remat-block{max-regs=32 override-directive-values=true stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OVERRIDE
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=7 nv-remat-block=0 stats=true}' 2>&1 | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=7 nv-remat-max-times=0 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=TIMES0
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=7 nv-remat-max-times=1 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=TIMES1
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=7 nv-dump-remat-block=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=7 no-mi-remat="limited,nosuch" stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: not ori-opt %s -p 'ori-remat-block{nv-remat-block=16}' 2>&1 | filecheck %s --check-prefix=BADMODE
// RUN: not ori-opt %s -p 'ori-remat-block{nv-remat-max-times=-1}' 2>&1 | filecheck %s --check-prefix=BADTIMES
// RUN: not ori-opt %s -p 'ori-remat-block{nv-remat-block-map-size-limit=0}' 2>&1 | filecheck %s --check-prefix=BADMAP
// RUN: not ori-opt %s -p 'ori-remat-block{nv-remat-block-liveout-min-percentage=101}' 2>&1 | filecheck %s --check-prefix=BADPCT
// RUN: not ori-opt %s -p 'ori-remat-block{dump-remat=-1}' 2>&1 | filecheck %s --check-prefix=BADDUMP
// RUN: not ori-opt %s -p 'ori-remat-block{no-mi-remat="limited,,x"}' 2>&1 | filecheck %s --check-prefix=BADLIST
// RUN: not ori-opt %s -p 'ori-remat-block{max-regs=300}' 2>&1 | filecheck %s --check-prefix=BADREGS
// RUN: ori-opt --help-passes ori-remat-block | filecheck %s --check-prefix=HELP

// @limited (max live 9) has .maxnreg 10: its target is the 7 registers left
// after R1 and the two ptxas withholds on sm_70+ -- whatever max-regs says,
// unless override-directive-values.  @free has no limit: max-regs sets its
// target (10 -> 7), else nv-remat-default-max-reg (70).
// MAXREGS: ori-remat-block: @limited: max live 9 -> 7 (target 7)
// MAXREGS: ori-remat-block: @free: max live 9 -> 7 (target 7)
// MAXREGS32: ori-remat-block: @limited: max live 9 -> 7 (target 7)
// MAXREGS32: ori-remat-block: @free: max live 9 -> 9 (target 29)
// OVERRIDE: ori-remat-block: @limited: max live 9 -> 9 (target 29)
// nv-remat-block=0: nothing is done (and nothing said).
// OFF-NOT: remat_
// OFF-NOT: ori-remat-block:
// TIMES0: ori-remat-block: @limited: max live 9 -> 9 (target 7) [rematerialized values=0] [instructions cloned=0] [rounds=0]
// TIMES1: ori-remat-block: @limited: max live 9 -> 8 (target 7) [rematerialized values=1] [instructions cloned=1] [rounds=1]
// nv-dump-remat-block prints everything (dump-remat=4).
// DUMP: ori-remat-block: @limited: Max-Live-Function(2) = 9
// DUMP-NEXT: ori-remat-block: @limited: ^bb1: Max-Live = 9, live-out = 0, peak at ^bb1 after op 2
// DUMP-NEXT: ori-remat-block: @limited: %x: not pullable: S2R is not rematerializable
// DUMP: ori-remat-block: @limited: %n: pull into 1 block(s), cost 1 per copy, 1 in all
// DUMP-NEXT: ori-remat-block: @limited:   ^bb1: MOV (cost 1 x 1)
// SKIP: ori-remat-block: warning: no-mi-remat names no function of the module: nosuch
// SKIP-NEXT: ori-remat-block: Skip machine-instruction rematerialization on limited
// SKIP-NEXT: ori-remat-block: @free: max live 9 -> 7 (target 7)
// An allocated function is left as it is, with a remark.
// SKIP: remark: @allocated: not rematerialized: registers are already allocated (ori-remat-block runs before ori-regalloc)
// BADMODE: ori-opt: error: ori-remat-block: nv-remat-block must be a bitmask in 0..15, got 16
// BADMODE-NOT: Traceback
// BADTIMES: ori-opt: error: ori-remat-block: nv-remat-max-times must be at least 0, got -1
// BADMAP: ori-opt: error: ori-remat-block: nv-remat-block-map-size-limit must be at least 1, got 0
// BADPCT: ori-opt: error: ori-remat-block: nv-remat-block-liveout-min-percentage must be in 0..100, got 101
// BADDUMP: ori-opt: error: ori-remat-block: dump-remat must be at least 0, got -1
// BADLIST: ori-opt: error: ori-remat-block: malformed no-mi-remat 'limited,,x': expected comma-separated function names, got ''
// BADREGS: ori-opt: error: ori-remat-block: @limited: max-regs 300 exceeds the 255 registers of sm_80
// BADREGS-NOT: Traceback
// HELP: ori-remat-block -- Machine-level block rematerialization
// HELP: nv-remat-block: int = 14
// HELP: nv-remat-max-times: int = 10
// HELP: no-mi-remat: str = ""
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @limited() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>], maxnreg = 10 : i32} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s1, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @free() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k1 = ori.imad %n, 0x3, %x : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.iadd3 %s1, %k1, %k2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %w, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @allocated() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64<R2>
    %x = ori.s2r SR_TID.X : () -> !ori.r32<R0>
    ori.stg [%a], %x : (!ori.r64<R2>, !ori.r32<R0>) -> ()
    ori.exit
  }
}
