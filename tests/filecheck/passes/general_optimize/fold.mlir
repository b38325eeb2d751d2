// ori-general-optimize, constant folding (seed 001 phase 13): an unguarded
// integer or predicate instruction whose sources are all immediates (or
// RZ/PT) is evaluated with the interpreter's semantics function and its used
// results become MOV imm (32-bit), PACK imm, imm (64-bit) or PLOP3 PT, PT, PT
// with an all-true / all-false table (predicates).  Folds cascade through
// constant propagation; guarded instructions and float ops are left alone.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{fold=false imad-identity=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @fold(
// 3 * 5 + 0x10 = 0x1f, then 0x1f << 2 = 0x7c, folded into the IADD3.
// CHECK:         %s = ori.iadd3 %x, 0x7c, RZ
// 0xffffffff + 1 carries: the sum is 0 and the carry-out true.
// CHECK:         %[[T:.*]] = ori.plop3 PT, PT, PT, 0xff
// CHECK:         %g = ori.iadd3 %x, 0x1, RZ if %[[T]] else %x
// (-1) x 2 widened, signed: 0xfffffffffffffffe
// CHECK:         %[[W:.*]] = ori.pack -0x2, -0x1
// CHECK:         %f = ori.fadd %x, 2.0
// %k = %h + 0 is %h (the add identity).
// CHECK:         ori.stg [%a], %h
// CHECK:         ori.stg b64 [%a + 0x8], %[[W]]
// REM: remark: @fold: general-optimize [copies=0] [constants={{[0-9]+}}] [pack-unpack=0] [ldc64-split=0] [folded=4] [imad-identity=1] [wide-add=0]
// (imad-identity alone would make the IMAD of two constants an IADD3.)
// OFF:         %m = ori.imad %three, 0x5, %sixteen
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @fold() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %three = ori.mov 0x3 : () -> !ori.r32
    %sixteen = ori.mov 0x10 : () -> !ori.r32
    %m = ori.imad %three, 0x5, %sixteen : (!ori.r32, !ori.r32) -> !ori.r32
    %sh = ori.shl %m, 0x2 : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %x, %sh, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %mm = ori.mov 0xffffffff : () -> !ori.r32
    %z, %c = ori.iadd3 %mm, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %g = ori.iadd3 %x, 0x1, RZ if %c else %x : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %w = ori.imad wide %mm, 0x2, RZ : (!ori.r32) -> !ori.r64
    %two = ori.mov 0x40000000 : () -> !ori.r32
    %f = ori.fadd %x, %two : (!ori.r32, !ori.r32) -> !ori.r32
    %h = ori.iadd3 %s, %g, %f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %k = ori.iadd3 %h, %z, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %k : (!ori.r64, !ori.r32) -> ()
    ori.stg b64 [%a + 0x8], %w : (!ori.r64, !ori.r64) -> ()
    ori.exit
  }
}
