// RUN: not ori-opt %s --split-input-file -p 'ori-regalloc,ori-stats' 2>&1 | filecheck %s
// RUN: not ori-opt %s --split-input-file -p 'ori-regalloc{max-regs=30}' 2>&1 | filecheck %s --check-prefix=WITHHELD

// Allocated and partly allocated input.
// * A fully allocated function is only checked (ori-check-regalloc's rules
//   with the pass's budget) and keeps its registers: R28 is the highest, so
//   ptxas's count is 28 + 1 + 2 = 31.  Under max-regs=30 R28 is one of the
//   two registers ptxas withholds (a limit of N leaves R0..R(N-3)): the input
//   is reported inconsistent.
// * A function where some values have registers and others do not is
//   refused (ori-opt stops at that chunk).

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @straight() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32<R0>
    %base = ori.ldc b64 0x0, [RZ] : () -> !ori.r64<R2>
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32<R0>, !ori.r64<R2>) -> !ori.r64<R2>
    %x = ori.ldg [%a] : (!ori.r64<R2>) -> !ori.r32<R28>
    %y = ori.iadd3 %x, 0x1, %t : (!ori.r32<R28>, !ori.r32<R0>) -> !ori.r32<R0>
    %z = ori.iadd3 %y, %x, RZ : (!ori.r32<R0>, !ori.r32<R28>) -> !ori.r32<R0>
    ori.stg [%a], %z : (!ori.r64<R2>, !ori.r32<R0>) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Compiling entry function 'straight' for 'sm_80'
// CHECK:      ptxas info    : Used 31 registers, used 0 barriers, 360 bytes cmem[0]
// WITHHELD:   error: already-allocated input is inconsistent:
// WITHHELD-NEXT: @straight: !ori.r32<R28> uses reserved register R28 at `%x = ori.ldg

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @partial() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32<R0>
    %base = ori.ldc b64 0x0, [RZ] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32<R0>, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %y = ori.iadd3 %x, 0x1, %t : (!ori.r32, !ori.r32<R0>) -> !ori.r32
    %z = ori.iadd3 %y, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK: @partial: some values already have physical registers and others do not; ori-regalloc takes a fully virtual or fully allocated function
