// RUN: not ori-opt %s --split-input-file -p 'ori-regalloc{max-regs=4}' 2>&1 | filecheck %s --check-prefix=IMPOSSIBLE
// RUN: not ori-opt %s --split-input-file -p 'ori-regalloc{max-regs=256}' 2>&1 | filecheck %s --check-prefix=ABOVE
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc{max-regs=255 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=TOP
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc{profile-lower-bound=true stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BOUND

// Register limits.
// * max-regs=4 on sm_80 leaves only R0 (R1 is the stack pointer, R2/R3 are
//   the two registers ptxas withholds) and the kernel needs two live at
//   once: the seed's failure "Register allocation failed with register count
//   of 'N'" (ptxas itself would first raise the limit to 24).
// (ori-opt stops at the first failing chunk, so those two RUN lines see only
// the first.)
// * A limit above the target's 255 is an error in ori (ptxas 13.0 warns "Too
//   big maxrregcount value specified 300, will be ignored"); 255 is accepted.
// * .maxnreg (``maxnreg`` on ori.func) below 24 is raised by ptxas with
//   "For entry K adjusting per thread register count of N to lower bound of
//   24"; ori does the same under profile-lower-bound=true.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @straight() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %y = ori.iadd3 %x, 0x1, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.iadd3 %y, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// IMPOSSIBLE: @straight: Register allocation failed with register count of '4'
// ABOVE: @straight: max-regs 256 exceeds the 255 registers of sm_80
// TOP: Used 7 registers
// BOUND-NOT: adjusting per thread register count
// BOUND: Used 7 registers

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @capped() attributes {params = [#ori.param<8, align 8, at 0x0>], maxnreg = 8 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %y = ori.iadd3 %x, 0x1, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.iadd3 %y, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// TOP: ori-regalloc: @capped: note: register limit 8 is used as given; ptxas would raise it to 24
// TOP: Used {{[0-8]}} registers
// BOUND: ptxas warning : For entry capped adjusting per thread register count of 8 to lower bound of 24
// BOUND: Used 7 registers
