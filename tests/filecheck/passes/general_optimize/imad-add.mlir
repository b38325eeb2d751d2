// ori-general-optimize, imad-add (passes/general_optimize/imad_add.py): a
// product IMAD a, b, RZ read only by a two-input IADD3 in its block becomes
// that add's IMAD a, b, c (ptxas's IMAD R27, R6, c[0x0][0x18c], R40 for
// PTX's mul.lo + add).  @reg: a c[][] multiplier and a register addend.
// @imm: an immediate addend beside a register multiplier, the product in
// slot c of the add.  @kept: a product with a second reader, one whose add
// reads a carry-out, one whose add would need two constant ports, and one
// in another block stay as they are.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{imad-add=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @reg(
// CHECK:         %y = ori.imad %t, c[0x0][0x168], %v : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NOT:     ori.iadd3
// REM: remark: @reg: general-optimize {{.*}}[imad-add=1]
// OFF-LABEL: ori.func kernel @reg(
// OFF:         %x = ori.imad %t, c[0x0][0x168], RZ
// OFF-NEXT:    %y = ori.iadd3 %x, %v, RZ
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @reg() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %x = ori.imad %t, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x80], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @imm(
// CHECK:         %y = ori.imad %t, %v, 0x10 : (!ori.r32, !ori.r32) -> !ori.r32
// REM: remark: @imm: general-optimize {{.*}}[imad-add=1]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @imm() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %x = ori.imad %t, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y = ori.iadd3 RZ, 0x10, %x : (!ori.r32) -> !ori.r32
    ori.stg [%w + 0x80], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @kept(
// CHECK:         %x = ori.imad %t, %v, RZ
// CHECK-NEXT:    %y = ori.iadd3 %x, %v, RZ
// CHECK-NEXT:    %z = ori.lop3 %x, %y, RZ, 0x3c
// CHECK-NEXT:    %x2 = ori.imad %t, %v, RZ
// CHECK-NEXT:    %y2, %co = ori.iadd3 %x2, %z, RZ
// CHECK-NEXT:    %x3 = ori.imad %t, c[0x0][0x168], RZ
// CHECK-NEXT:    %y3 = ori.iadd3 %x3, 0x10, RZ
// CHECK-NEXT:    %x4 = ori.imad %t, %v, RZ
// CHECK-NEXT:    ori.bra ^bb1
// CHECK:         %y4 = ori.iadd3 %x4, %y3, RZ
// REM: remark: @kept: general-optimize {{.*}}[imad-add=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @kept() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %x = ori.imad %t, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.lop3 %x, %y, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %x2 = ori.imad %t, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y2, %co = ori.iadd3 %x2, %z, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %x3 = ori.imad %t, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %y3 = ori.iadd3 %x3, 0x10, RZ : (!ori.r32) -> !ori.r32
    %x4 = ori.imad %t, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb1
  ^bb1:
    %y4 = ori.iadd3 %x4, %y3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s = ori.sel %y2, %y4, %co : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.stg [%w + 0x80], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
