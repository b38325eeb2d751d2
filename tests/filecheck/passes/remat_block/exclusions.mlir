// ori-remat-block: what is never recomputed (seed 002 "Algorithm Overview"
// step 3: the MULTIDEF check, the opcode exclusions, operand safety), read
// from the op facts (MEM, SIDE_EFFECTS, IS_BARRIER, WARP_COLLECTIVE,
// REMATERIALIZABLE, is_speculatable(), is_volatile), never from opcode names.
// Every value below is live out of the over-target ^bb0 and ^bb1; only the
// constant-bank reads (%a, %n, %n2, %q), %k, and %c and %m may be
// recomputed.  Operand safety: an instruction may define one register value
// besides predicates -- %c's IADD3 writes its carry-out %cp too, as the low
// half of a 64-bit add does for its high half.  A copy of %c alone drops the
// carry-out nothing reads; the copy of the IADD3 that %m's copy needs for
// %cp writes a sum nothing reads (one instruction either way).
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=2 dump-remat=3 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=WHY < %t.err
// RUN: ori-opt %s -p 'ori-remat-block{nv-remat-default-max-reg=2 dump-remat=3 load-remat=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOLOAD

// (The clock is read, but only its bits anded with 0 reach the result, so
// that the interpreter compares results computed with different timings.)
// CHECK-LABEL: ori.func kernel @excl(
// CHECK:         %ck = ori.s2r SR_CLOCKLO
// CHECK-NEXT:    ori.bra ^bb1(%x : !ori.r32)
// CHECK-NEXT:  ^bb1(%b: !ori.r32):
// CHECK-NEXT:    %remat_a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK:       ^bb2:
// CHECK-NEXT:    %remat_k = ori.lop3 %x, 0xff, RZ, 0xc0
// CHECK-NEXT:    %w1 = ori.iadd3 %s1, %remat_k, %g
// CHECK-NEXT:    %remat_n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_c = ori.iadd3 %x, %remat_n, RZ :
// CHECK-NEXT:    %w2 = ori.iadd3 %w1, %g0, %remat_c
// CHECK-NEXT:    %remat_q = ori.ldc 0x0, [RZ + 0x168]
// CHECK-NEXT:    %w3 = ori.iadd3 %w2, %l, %remat_q
// CHECK-NEXT:    %remat_n2 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %w4 = ori.iadd3 %w3, %remat_n2, %sh
// CHECK-NEXT:    %w5 = ori.iadd3 %w4, %at, %u
// CHECK-NEXT:    %ckz = ori.lop3 %ck, 0x0, RZ, 0xc0
// CHECK-NEXT:    %w6 = ori.iadd3 %w5, %cl, %ckz
// CHECK-NEXT:    %remat_n_1 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %remat_c_1, %remat_cp = ori.iadd3 %x, %remat_n_1, RZ
// CHECK-NEXT:    %remat_m = ori.sel %x, %remat_n_1, %remat_cp
// CHECK-NEXT:    %w7 = ori.iadd3 %w6, %b, %remat_m
// CHECK-NEXT:    %remat_n_2 = ori.mov c[0x0][0x168]
// CHECK-NEXT:    %w8 = ori.iadd3 %w7, %x, %remat_n_2
// CHECK-NEXT:    %remat_a_1 = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    ori.stg [%remat_a_1 + 0x80], %w8
// WHY: ori-remat-block: @excl: %x: not pullable: S2R is not rematerializable
// a guarded result and its tied prior share a register: MULTIDEF
// WHY-NEXT: ori-remat-block: @excl: %g0: MULTIDEF
// WHY-NEXT: ori-remat-block: @excl: %g: MULTIDEF
// WHY-NEXT: ori-remat-block: @excl: %l: not pullable: LDG.E loads from memory a store may change
// WHY-NEXT: ori-remat-block: @excl: %sh: not pullable: SHFL has side effects
// WHY-NEXT: ori-remat-block: @excl: %at: not pullable: ATOM.E writes memory
// WHY-NEXT: ori-remat-block: @excl: %u: not pullable: cost 0 (UNDEF emits no instruction)
// WHY-NEXT: ori-remat-block: @excl: %cl: not pullable: CALL.REL.NOINC has side effects
// WHY-NEXT: ori-remat-block: @excl: %ck: not pullable: S2R is not rematerializable
// WHY-NEXT: ori-remat-block: @excl: %b: not pullable: block argument (no defining instruction)
// WHY-NEXT: ori-remat-block: @excl: %s1: not pullable: operand %v1 is not pullable: LDG.E loads from memory a store may change
// WHY-NEXT: ori-remat-block: @excl: After pre-check, 7 good candidates, 0 given second-chance
// WHY: remark: @excl: rematerialized %n (MOV, 1 register): pulled into ^bb2 (1 instruction, cost 1)
// WHY-NEXT: remark: @excl: rematerialized %n2 (MOV, 1 register): pulled into ^bb2 (1 instruction, cost 1)
// WHY-NEXT: remark: @excl: rematerialized %k (LOP3.LUT, 1 register): pulled into ^bb2 (1 instruction, cost 1)
// WHY-NEXT: remark: @excl: rematerialized %q (LDC, 1 register): pulled into ^bb2 (1 instruction, cost 10)
// WHY-NEXT: remark: @excl: rematerialized %a (LDC, 2 registers): pulled into ^bb1, ^bb2 (2 instructions, cost 40)
// WHY-NEXT: remark: @excl: rematerialized %c (IADD3, 1 register): pulled into ^bb2 (2 instructions, cost 2)
// WHY-NEXT: remark: @excl: rematerialized %m (SEL, 1 register): pulled into ^bb2 (3 instructions, cost 3)
// NOLOAD: ori-remat-block: @excl: %q: not pullable: LDC is a load (load-remat=false)
// NOLOAD: ori-remat-block: @excl: After pre-check, 5 good candidates, 0 given second-chance
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @dev(%v: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %r = ori.iadd3 %v, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret %r : !ori.r32
  }
  ori.func kernel @excl() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %x, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %g0 = ori.iadd3 %x, 0x5, RZ : (!ori.r32) -> !ori.r32
    %g = ori.iadd3 %n, 0x7, RZ if %p else %g0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %c, %cp = ori.iadd3 %x, %n, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %m = ori.sel %x, %n, %cp : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %l = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %q = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %n2 = ori.mov c[0x0][0x168] : () -> !ori.r32
    %sh = ori.shfl bfly %x, 0x1, 0x1f : (!ori.r32) -> !ori.r32
    %at = ori.atom add.u32 [%a + 0x40], %x : (!ori.r64, !ori.r32) -> !ori.r32
    %u = ori.undef : () -> !ori.r32
    %cl = ori.call @dev(%x) : (!ori.r32) -> !ori.r32
    %ck = ori.s2r SR_CLOCKLO : () -> !ori.r32
    %k = ori.lop3 %x, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%x : !ori.r32)
  ^bb1(%b : !ori.r32):
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %v1, %v2, %b : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb2
  ^bb2:
    %w1 = ori.iadd3 %s1, %k, %g : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w2 = ori.iadd3 %w1, %g0, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w3 = ori.iadd3 %w2, %l, %q : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w4 = ori.iadd3 %w3, %n2, %sh : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w5 = ori.iadd3 %w4, %at, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %ckz = ori.lop3 %ck, 0x0, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %w6 = ori.iadd3 %w5, %cl, %ckz : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w7 = ori.iadd3 %w6, %b, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w8 = ori.iadd3 %w7, %x, %n : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x80], %w8 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
