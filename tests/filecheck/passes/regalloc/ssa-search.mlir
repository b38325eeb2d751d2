// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa ssa-search-budget=0},ori-check-regalloc' -t ori-asm | filecheck %s --check-prefix=GREEDY
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa},ori-check-regalloc' -t ori-asm 2>/dev/null | filecheck %s --check-prefix=SEARCH
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s -p 'ori-regalloc{strategy=ssa}' | filecheck %s --check-prefix=ATTRS
// RUN: not ori-opt %s -p 'ori-regalloc{strategy=ssa ssa-search-budget=-1}' 2>&1 | filecheck %s --check-prefix=BADBUDGET

// The exact search of strategy=ssa (passes/regalloc/ssa_search.py) on saxpy
// as the README pipeline leaves it before allocation.  At most 4 values are
// live (x, the 64-bit address, the loaded y), so with R1 reserved the
// pressure bound is R0-R4: 7 registers in ptxas's count.  The greedy
// assignment puts x in R2, the lowest free register, which leaves no aligned
// pair below R4:R5 for the second address (R0:R1 is broken by the reserved
// R1): 8 registers.  The search keeps x out of the pair and reaches the
// bound, which proves the count minimal.

// GREEDY:      LDG.E.CONSTANT R2, [R2.64] ;
// GREEDY:      IMAD.WIDE R4, R0, R{{[0-9]+}}, c[0x0][0x170] ;
// GREEDY-NOT:  R6

// SEARCH:      LDG.E.CONSTANT R4, [R2.64] ;
// SEARCH:      IMAD.WIDE R2, R0, R2, c[0x0][0x170] ;
// SEARCH:      FFMA R0, R4, c[0x0][0x164], R0 ;
// SEARCH-NOT:  R5

// STATS: ori-regalloc: @saxpy: remark: exact search: R4 is the highest register instead of R5 ({{[0-9]+}} candidates tried, proven minimal)
// STATS: Used 7 registers

// ATTRS: ori.r_assign_optimal = 1 : i32, ori.r_pressure_bound = 7 : i32

// BADBUDGET: ori-opt: error: ori-regalloc: ssa-search-budget must be 0 (off) or more, got -1
// BADBUDGET-NOT: Traceback

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @saxpy() attributes {params = [#ori.param<4, align 4, at 0x0>, #ori.param<4, align 4, at 0x4>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>], ori.shared_bytes = 0 : i32} {
    %0 = ori.s2r SR_CTAID.X : () -> !ori.r32
    %1 = ori.s2r SR_TID.X : () -> !ori.r32
    %2 = ori.imad %0, c[0x0][0x0], %1 : (!ori.r32, !ori.r32) -> !ori.r32
    %3 = ori.isetp ge %2, c[0x0][0x160], PT : (!ori.r32) -> !ori.p
    ori.bra if %3 : !ori.p, ^bb2, ^bb1
  ^bb1:
    %4 = ori.mov 0x4 : () -> !ori.r32
    %5 = ori.imad wide %2, %4, c[0x0][0x168] : (!ori.r32, !ori.r32) -> !ori.r64
    %6 = ori.ldg constant [%5] : (!ori.r64) -> !ori.r32
    %7 = ori.mov 0x4 : () -> !ori.r32
    %8 = ori.imad wide %2, %7, c[0x0][0x170] : (!ori.r32, !ori.r32) -> !ori.r64
    %9 = ori.ldg [%8] : (!ori.r64) -> !ori.r32
    %10 = ori.ffma %6, c[0x0][0x164], %9 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%8], %10 : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb2
  ^bb2:
    ori.exit
  }
}
