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
