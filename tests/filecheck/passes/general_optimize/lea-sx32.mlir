// ori-general-optimize, sign-extended 64-bit adds (passes/general_optimize/lea_sx32.py):
// the high half of base + (int64)i, IADD3.X (SHR.S32 i, 31), y, RZ, c, is
// LEA.HI.X.SX32 i, y, 0x1, c -- ptxas's `LEA.HI.X.SX32 R9, R2, RZ, 0x1, P0`.
// %h1: rewritten (the sign word in any slot, y a register, an immediate or
// a constant-bank word), and the SHR dies.  Not rewritten: a logical shift
// (%h2: u32 gives the zero extension), a shift by 30 (%h3), no RZ among the
// other sources (%h4), a carry-out that is read (%h5).
// @g, the scaled form LEA.HI[.X] i, y, s, (SHR.S32 i, 31) -- the high half
// of base + ((int64)i << s) -- is LEA.HI[.X].SX32 i, y, s: rewritten with
// and without the carry-in (%q1, %q2); not when the high word is another
// register's sign word (%q3) or a logical shift (%q4).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{lea-sx32=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %s = ori.shr %i, 0x1f
// CHECK-NEXT:    %l1, %c1 = ori.iadd3 %i, %bl, RZ
// CHECK-NEXT:    %h1 = ori.lea_hi_sx32 x %i, %bh, 0x1, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
// CHECK-NEXT:    %l2, %c2 = ori.iadd3 %i, %bl, RZ
// CHECK-NEXT:    %k = ori.lea_hi_sx32 x %i, 0x7, 0x1, %c2 : (!ori.r32, !ori.p) -> !ori.r32
// CHECK-NEXT:    %m = ori.lea_hi_sx32 x %i, c[0x0][0x164], 0x1, %c2 : (!ori.r32, !ori.p) -> !ori.r32
// CHECK-NEXT:    %su = ori.shr u32 %i, 0x1f
// CHECK-NEXT:    %h2 = ori.iadd3 x %su, %bh, RZ, %c1
// CHECK-NEXT:    %s30 = ori.shr %i, 0x1e
// CHECK-NEXT:    %h3 = ori.iadd3 x %s30, %bh, RZ, %c1
// CHECK-NEXT:    %h4 = ori.iadd3 x %s, %bh, %bl, %c1
// CHECK-NEXT:    %h5, %o5 = ori.iadd3 x %s, %bh, RZ, %c2
// REM: remark: @f: general-optimize {{.*}}[lea-sx32=3]
// OFF:           %h1 = ori.iadd3 x %s, %bh, RZ, %c1
// ASM: LEA.HI.X.SX32 R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, 0x1, P{{[0-9]}} ;
// CHECK-LABEL: ori.func @g(
// CHECK:         %q1 = ori.lea_hi_sx32 x %i, c[0x0][0x164], 0x3, %c1 : (!ori.r32, !ori.p) -> !ori.r32
// CHECK-NEXT:    %q2 = ori.lea_hi_sx32 %i, %bh, 0x2 : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %q3 = ori.lea hi.x %i, %bh, 0x3, %sj, %c1
// CHECK-NEXT:    %q4 = ori.lea hi.x %i, %bh, 0x3, %su, %c1
// REM: remark: @g: general-optimize {{.*}}[lea-sx32=2]
// OFF-LABEL:     ori.func @g(
// OFF:           %q1 = ori.lea hi.x %i, c[0x0][0x164], 0x3, %s, %c1
// ASM-LABEL:     .func g(
// ASM:           LEA.HI.X.SX32 R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x164], 0x3, P{{[0-9]}} ;
// ASM:           LEA.HI.SX32 R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, 0x2 ;
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%i: !ori.r32, %bl: !ori.r32, %bh: !ori.r32) -> !ori.r32 {
    %s = ori.shr %i, 0x1f : (!ori.r32) -> !ori.r32
    %l1, %c1 = ori.iadd3 %i, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %s, %bh, RZ, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %l2, %c2 = ori.iadd3 %i, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %k = ori.iadd3 x RZ, 0x7, %s, %c2 : (!ori.r32, !ori.p) -> !ori.r32
    %m = ori.iadd3 x %s, c[0x0][0x164], RZ, %c2 : (!ori.r32, !ori.p) -> !ori.r32
    %su = ori.shr u32 %i, 0x1f : (!ori.r32) -> !ori.r32
    %h2 = ori.iadd3 x %su, %bh, RZ, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s30 = ori.shr %i, 0x1e : (!ori.r32) -> !ori.r32
    %h3 = ori.iadd3 x %s30, %bh, RZ, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %h4 = ori.iadd3 x %s, %bh, %bl, %c1 : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %h5, %o5 = ori.iadd3 x %s, %bh, RZ, %c2 : (!ori.r32, !ori.r32, !ori.p) -> (!ori.r32, !ori.p)
    %t1 = ori.iadd3 %l1, %h1, %l2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t1, %k, %m : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t3 = ori.iadd3 %t2, %h2, %h3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t4 = ori.iadd3 %t3, %h4, %h5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t5 = ori.sel %t4, RZ, %o5 : (!ori.r32, !ori.p) -> !ori.r32
    ori.ret %t5 : !ori.r32
  }
  ori.func @g(%i: !ori.r32, %j: !ori.r32, %bl: !ori.r32, %bh: !ori.r32) -> !ori.r32 {
    %s = ori.shr %i, 0x1f : (!ori.r32) -> !ori.r32
    %sj = ori.shr %j, 0x1f : (!ori.r32) -> !ori.r32
    %su = ori.shr u32 %i, 0x1f : (!ori.r32) -> !ori.r32
    %l1, %c1 = ori.lea %i, c[0x0][0x160], 0x3 : (!ori.r32) -> (!ori.r32, !ori.p)
    %q1 = ori.lea hi.x %i, c[0x0][0x164], 0x3, %s, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %q2 = ori.lea hi %i, %bh, 0x2, %s : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %q3 = ori.lea hi.x %i, %bh, 0x3, %sj, %c1 : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %q4 = ori.lea hi.x %i, %bh, 0x3, %su, %c1 : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %t1 = ori.iadd3 %l1, %q1, %q2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t1, %q3, %q4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %t2 : !ori.r32
  }
}
