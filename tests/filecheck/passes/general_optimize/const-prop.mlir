// ori-general-optimize, constant propagation (seed 001 phase 13): a MOV of an
// immediate or of c[b][o], or an LDC with RZ index, reaches every source slot
// that takes that kind of constant; SASS encodes one immediate, constant-bank
// word or uniform register per instruction, so a constant only goes where
// there is none yet (ptxas: `IMAD.WIDE R2, R4, R5, c[0x0][0x168]` with R5 = 4).
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{const-prop=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{commute=false}' | filecheck %s --check-prefix=NOCOM

// CHECK-LABEL: ori.func kernel @kinds(
// CHECK:         %s = ori.iadd3 %x, c[0x0][0x160], RZ
// CHECK-NEXT:    %t = ori.isetp ge %x, c[0x0][0x0], PT
// CHECK-NEXT:    %f = ori.ffma %x, 1.0, %x
// CHECK-NEXT:    %w = ori.imad wide %x, %x, c[0x0][0x168]
// CHECK-NEXT:    %k = ori.lop3 %x, 0xff, %x, 0xc0
// REM: remark: @kinds: general-optimize [copies=0] [constants=5]
// OFF:           %s = ori.iadd3 %x, %n, RZ
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @kinds() attributes {params = [#ori.param<4, align 4, at 0x0>, #ori.param<4, align 4, at 0x4>, #ori.param<8, align 8, at 0x8>]} {
    %n = ori.ldc 0x0, [RZ + 0x160] : () -> !ori.r32
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %bd = ori.mov c[0x0][0x0] : () -> !ori.r32
    %one = ori.mov 0x3f800000 : () -> !ori.r32
    %ff = ori.mov 0xff : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %s = ori.iadd3 %x, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t = ori.isetp ge %x, %bd, PT : (!ori.r32, !ori.r32) -> !ori.p
    %f = ori.ffma %x, %one, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad wide %x, %x, %b : (!ori.r32, !ori.r32, !ori.r64) -> !ori.r64
    %k = ori.lop3 %x, %ff, %x, 0xc0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %g = ori.sel %s, %f, %t : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %h = ori.iadd3 %g, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w], %h : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// One constant per instruction: the second constant stays in its register.
// Commutative operands are swapped to bring a constant into the slot that
// takes it (IADD3 a <-> b, ISETP with the comparison mirrored); a slot with a
// source modifier takes a constant-bank word but no immediate.
// CHECK-LABEL: ori.func kernel @rules(
// CHECK:         %s = ori.iadd3 %x, c[0x0][0x160], %m
// CHECK-NEXT:    %t = ori.isetp le %x, c[0x0][0x160], PT
// CHECK-NEXT:    %u = ori.iadd3 %x, -c[0x0][0x160], RZ
// CHECK-NEXT:    %v = ori.iadd3 %x, -%m, RZ
// CHECK-NEXT:    %w = ori.imad %x, c[0x0][0x160], %m
// An immediate 0 becomes RZ to leave the port to the constant-bank word.
// CHECK-NEXT:    %z = ori.isetp gt RZ, c[0x0][0x160], PT
// NOCOM:         %s = ori.iadd3 %n, %x, %m
// NOCOM-NEXT:    %t = ori.isetp ge %n, %x, PT
// REM: remark: @rules: general-optimize [copies=0] [constants=5]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @rules() attributes {params = [#ori.param<4, align 4, at 0x0>]} {
    %n = ori.ldc 0x0, [RZ + 0x160] : () -> !ori.r32
    %m = ori.mov 0x7 : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %s = ori.iadd3 %n, %x, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.isetp ge %n, %x, PT : (!ori.r32, !ori.r32) -> !ori.p
    %u = ori.iadd3 %x, -%n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.iadd3 %x, -%m, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad %x, %n, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %z = ori.isetp lt %n, 0x0, PT : (!ori.r32) -> !ori.p
    %a = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %g = ori.sel %s, %u, %t : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %g2 = ori.sel %g, %u, %z : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %h = ori.iadd3 %g2, %v, %w : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %h : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A 64-bit PACK of constants whose low word is 0 reaches f64 slots as an
// immediate (SASS keeps the high 32 bits: ptxas's `DFMA R6, -R2, R4, 1`);
// a nonzero low word, a slot with a source modifier or a second constant
// keeps the register.
// CHECK-LABEL: ori.func kernel @f64imm(
// CHECK:         %e = ori.dfma -%y, %x, 1.0
// CHECK-NEXT:    %h = ori.dmul %e, 0.5
// CHECK-NEXT:    %p = ori.dsetp eq |%h|, inf, PT
// CHECK-NEXT:    %q = ori.dsetp eq |%h|, |%half|, PT
// CHECK-NEXT:    %r = ori.dadd %h, %odd
// CHECK-NEXT:    %s = ori.dfma %r, c[0x0][0x160], %one
// REM: remark: @f64imm: general-optimize [copies=0] [constants=4]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @f64imm() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %one = ori.pack RZ, 0x3ff00000 : () -> !ori.r64
    %half = ori.pack RZ, 0x3fe00000 : () -> !ori.r64
    %inf = ori.pack RZ, 0x7ff00000 : () -> !ori.r64
    %odd = ori.pack 0x1, 0x3ff00000 : () -> !ori.r64
    %x = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %y = ori.dadd %x, %x : (!ori.r64, !ori.r64) -> !ori.r64
    %e = ori.dfma -%y, %x, %one : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64
    %h = ori.dmul %e, %half : (!ori.r64, !ori.r64) -> !ori.r64
    %p = ori.dsetp eq |%h|, %inf, PT : (!ori.r64, !ori.r64) -> !ori.p
    %q = ori.dsetp eq |%h|, |%half|, PT : (!ori.r64, !ori.r64) -> !ori.p
    %r = ori.dadd %h, %odd : (!ori.r64, !ori.r64) -> !ori.r64
    %s = ori.dfma %r, c[0x0][0x160], %one : (!ori.r64, !ori.r64) -> !ori.r64
    %pq = ori.plop3 %p, %q, PT, 0x80 : (!ori.p, !ori.p) -> !ori.p
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg b64 [%a], %s : (!ori.r64, !ori.r64) -> ()
    ori.stg b64 [%a], %r if %pq : (!ori.r64, !ori.r64, !ori.p) -> ()
    ori.exit
  }
}

// -----

// A constant 0 is RZ, which needs no constant port: it reaches the IMAD's
// addend beside the multiplier's immediate (the wmma lowering's `lane * 2 +
// smem_base` with a base of 0) and a slot that takes no immediate at all
// (the STS data, ptxas's `STS [R2.X4], RZ`; the shifted index is read
// scaled by the store, scaled_index.py).
// CHECK-LABEL: ori.func kernel @zero(
// CHECK:         %m = ori.imad %x, 0x2, RZ
// CHECK-NEXT:    ori.sts [%x * 4], RZ
// REM: remark: @zero: general-optimize [copies=0] [constants=2]
// OFF:           %m = ori.imad %x, 0x2, %z
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @zero() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %z = ori.mov 0x0 : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %m = ori.imad %x, 0x2, %z : (!ori.r32, !ori.r32) -> !ori.r32
    %x4 = ori.shl %x, 0x2 : (!ori.r32) -> !ori.r32
    ori.sts [%x4], %z : (!ori.r32, !ori.r32) -> ()
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%a], %m : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// LOP3 takes its one constant in b only; a constant read in a or c reaches
// b by swapping the two sources, the truth table permuted with them
// (Lop3Op.commuted_immediates): 0x6a is c ^ (a & b), the same with a and
// b swapped; with b and c swapped it is b ^ (a & c) = 0x6c.  ptxas:
// `LOP3.LUT R0, R0, 0x7f, RZ, 0xc0, !PT` whatever the PTX operand order.
// CHECK-LABEL: ori.func kernel @lop3_swap(
// CHECK:         %l = ori.lop3 %x, 0xff, %y, 0x6a
// CHECK-NEXT:    %r = ori.lop3 %x, 0xf0, %y, 0x6c
// REM: remark: @lop3_swap: general-optimize [copies=0] [constants=2]
// NOCOM:         %l = ori.lop3 %k, %x, %y, 0x6a
// NOCOM-NEXT:    %r = ori.lop3 %x, %y, %j, 0x6a
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @lop3_swap() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %k = ori.mov 0xff : () -> !ori.r32
    %j = ori.mov 0xf0 : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_LANEID : () -> !ori.r32
    %l = ori.lop3 %k, %x, %y, 0x6a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r = ori.lop3 %x, %y, %j, 0x6a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%a], %l : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// A clamp bound read first (Triton's where_clamp: `setp.lt.f32 %p, %hi,
// %x; selp.f32 %y, %hi, %x, %p`): FSETP takes the c[][] word in b with the
// comparison mirrored, SEL with its predicate negated -- ptxas's
// `FSETP.GT.AND P2, PT, R2, c[0x0][0x174], PT` and `FSEL R3, R2,
// c[0x0][0x174], !P2`; no register holds the bound.
// CHECK-LABEL: ori.func kernel @clamp(
// CHECK:         %p = ori.fsetp gt %x, c[0x0][0x164], PT
// CHECK-NEXT:    %y = ori.sel %x, c[0x0][0x164], not %p
// CHECK-NEXT:    %q = ori.fsetp leu %y, c[0x0][0x168], PT
// CHECK-NEXT:    %z = ori.sel %y, c[0x0][0x168], %q
// REM: remark: @clamp: general-optimize [copies=0] [constants=4]
// NOCOM:         %p = ori.fsetp lt %hi, %x, PT
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @clamp() attributes {params = [#ori.param<4, align 4, at 0x0>, #ori.param<4, align 4, at 0x4>, #ori.param<4, align 4, at 0x8>, #ori.param<8, align 8, at 0x10>]} {
    %hi = ori.ldc 0x0, [RZ + 0x164] : () -> !ori.r32
    %lo = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %a = ori.ldc b64 0x0, [RZ + 0x170] : () -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %p = ori.fsetp lt %hi, %x, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y = ori.sel %hi, %x, %p : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %q = ori.fsetp geu %lo, %y, PT : (!ori.r32, !ori.r32) -> !ori.p
    %z = ori.sel %lo, %y, not %q : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// PTX's mul.wide.u32 by a parameter (CUB's histogram scale): an IMAD.WIDE
// whose 64-bit addend is the immediate 0.  The parameter's word goes into b
// and the 0 becomes the 64-bit RZ, which takes no port (ptxas's
// `IMAD.WIDE.U32 R4, R2, c[0x0][0x18c], RZ`); no register holds the word.
// A 64-bit addend that is not 0 keeps its port: the word stays in a register.
// CHECK-LABEL: ori.func kernel @wide_zero(
// CHECK:         %w = ori.imad wide.u32 %x, c[0x0][0x168], RZ
// CHECK-NEXT:    %v = ori.imad wide.u32 %x, %k, 0x10
// REM: remark: @wide_zero: general-optimize [copies=0] [constants=1]
// OFF:           %w = ori.imad wide.u32 %x, %k, 0x0
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @wide_zero() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %k = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %x, %k, 0x0 : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.imad wide.u32 %x, %k, 0x10 : (!ori.r32, !ori.r32) -> !ori.r64
    %lo, %hi = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo2, %hi2 = ori.unpack %v : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %lo, %hi, %lo2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %s, %hi2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
