// ori-general-optimize, multiplier 1 or 0 (passes/general_optimize/imad_identity.py):
// %m1: IMAD a, 0x1, c is IADD3 a, c, RZ.  %m2: IMAD a, 0x1, RZ is a (its
// reader reads %a).  %m3: IMAD a, 0x0, c is c.  %m4: IMAD a, 0x0, k with
// k = MOV 0x7 is k (its reader then takes the immediate).  Not rewritten: a multiplier of
// 2 (%n1), the .hi form (%n2), a guarded IMAD (%n3).  Constant products
// and the add identity: @g.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{imad-identity=false}' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %m1 = ori.iadd3 %a, %c, RZ : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %n1 = ori.imad %a, 0x2, %c
// CHECK-NEXT:    %n2 = ori.imad hi %a, 0x1, %c
// CHECK-NEXT:    %n3 = ori.imad %a, 0x1, %c if %p else %c
// CHECK-NEXT:    %s1 = ori.iadd3 %m1, %a, %c
// CHECK-NEXT:    %s2 = ori.iadd3 %n1, %n2, %n3
// CHECK-NEXT:    %s3 = ori.iadd3 %s1, 0x7, %s2
// CHECK-NEXT:    ori.ret %s3
// REM: remark: @f: general-optimize [copies=0] [constants={{[0-9]+}}] [pack-unpack=0] [ldc64-split=0] [folded=0] [imad-identity=4]
// OFF: %m1 = ori.imad %a, 0x1, %c

// CHECK-LABEL: ori.func @g(
// CHECK-NEXT:    %p1 = ori.iadd3 %c, 0x100, RZ
// CHECK-NEXT:    %s1 = ori.iadd3 %p1, 0x30, %a
// CHECK-NEXT:    %s2 = ori.iadd3 %s1, %c, RZ
// CHECK-NEXT:    ori.ret %s2
// REM: remark: @g: general-optimize {{.*}}[imad-identity=4]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%a: !ori.r32, %c: !ori.r32, %p: !ori.p) -> !ori.r32 {
    %m1 = ori.imad %a, 0x1, %c : (!ori.r32, !ori.r32) -> !ori.r32
    %m2 = ori.imad %a, 0x1, RZ : (!ori.r32) -> !ori.r32
    %m3 = ori.imad %a, 0x0, %c : (!ori.r32, !ori.r32) -> !ori.r32
    %k = ori.mov 0x7 : () -> !ori.r32
    %m4 = ori.imad %a, 0x0, %k : (!ori.r32, !ori.r32) -> !ori.r32
    %n1 = ori.imad %a, 0x2, %c : (!ori.r32, !ori.r32) -> !ori.r32
    %n2 = ori.imad hi %a, 0x1, %c : (!ori.r32, !ori.r32) -> !ori.r32
    %n3 = ori.imad %a, 0x1, %c if %p else %c : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %m1, %m2, %m3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %n1, %n2, %n3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s1, %s2, %m4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s3 : !ori.r32
  }

  // A known multiplicand: %k16 = MOV 0x10 times the immediate 0x10 is the
  // constant 0x100 (%p1: IADD3 %c, 0x100, RZ; %p2 with an RZ addend: MOV,
  // which const-prop writes into the reader); RZ times anything is the
  // addend (%p3).  IADD3 %x, RZ, RZ is %x (%z: the reader reads %c).
  ori.func @g(%a: !ori.r32, %c: !ori.r32) -> !ori.r32 {
    %k16 = ori.mov 0x10 : () -> !ori.r32
    %p1 = ori.imad %k16, 0x10, %c : (!ori.r32, !ori.r32) -> !ori.r32
    %p2 = ori.imad %k16, 0x3, RZ : (!ori.r32) -> !ori.r32
    %p3 = ori.imad RZ, 0x5, %a : (!ori.r32) -> !ori.r32
    %z = ori.iadd3 RZ, %c, RZ : (!ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %p1, %p2, %p3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %z, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s2 : !ori.r32
  }
}
