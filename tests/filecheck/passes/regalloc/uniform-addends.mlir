// Products added to one uniform value (passes/regalloc/uniform_addends.py):
// the shape of Triton's matmul_bf16 K loop once ori-remat-block recomputed
// the row offsets there and ori-uniform kept the running K offset in a UR.
// IMAD cannot read both c[][] and a UR, so each row was IMAD + IADD3; one
// MOV of the UR into a register free over the stretch (below the highest
// register in use: the count does not change) lets every row be one IMAD
// (ptxas: IMAD R58, R3, c[0x0][0x18c], R51).  @one: a single pair is left
// alone (a MOV would cost what it saves).
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s

// CHECK-LABEL: .entry rows
// CHECK:       block args: [[K:UR[0-9]+]],
// CHECK-NEXT:  MOV [[C:R[0-9]+]], [[K]] ;
// CHECK-NEXT:  IMAD R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x168], [[C]] ;
// CHECK-NOT:   IADD3 R{{[0-9]+}}, R{{[0-9]+}}, UR
// CHECK:       IMAD R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x168], [[C]] ;
// CHECK-NOT:   IADD3 R{{[0-9]+}}, R{{[0-9]+}}, UR
// CHECK:       IMAD R{{[0-9]+}}, R{{[0-9]+}}, c[0x0][0x168], [[C]] ;
// CHECK-NOT:   IADD3 R{{[0-9]+}}, R{{[0-9]+}}, UR
// CHECK:       end rows: 27 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @rows() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %st = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
    %z = ori.mov 0x0 : () -> !ori.ur32
    %i0 = ori.mov 0x0 : () -> !ori.r32
    %s0 = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.ur32, %i0 : !ori.r32, %s0 : !ori.r32)
  ^bb1(%k: !ori.ur32, %i: !ori.r32, %s: !ori.r32):
    %m0 = ori.imad %t, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %o0 = ori.iadd3 %m0, %k, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %a1 = ori.lop3 %t, 0x4, RZ, 0xfc : (!ori.r32) -> !ori.r32
    %m1 = ori.imad %a1, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %o1 = ori.iadd3 %m1, %k, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %a2 = ori.lop3 %t, 0x8, RZ, 0xfc : (!ori.r32) -> !ori.r32
    %m2 = ori.imad %a2, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %o2 = ori.iadd3 %m2, %k, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %w0 = ori.imad wide %o0, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %w1 = ori.imad wide %o1, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %w2 = ori.imad wide %o2, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %v0 = ori.ldg b32 [%w0] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg b32 [%w1] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg b32 [%w2] : (!ori.r64) -> !ori.r32
    %s1 = ori.iadd3 %s, %v0, %v1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %k, %st, URZ : (!ori.ur32, !ori.ur32) -> !ori.ur32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%k2 : !ori.ur32, %i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b32 [%w], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// CHECK-LABEL: .entry one
// CHECK:       IMAD [[M:R[0-9]+]], R{{[0-9]+}}, c[0x0][0x168], RZ ;
// CHECK-NEXT:  IADD3 R{{[0-9]+}}, [[M]], UR{{[0-9]+}}, RZ ;
// CHECK-NOT:   MOV R{{[0-9]+}}, UR
// CHECK:       end one
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @one() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %st = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
    %z = ori.mov 0x0 : () -> !ori.ur32
    %i0 = ori.mov 0x0 : () -> !ori.r32
    %s0 = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.ur32, %i0 : !ori.r32, %s0 : !ori.r32)
  ^bb1(%k: !ori.ur32, %i: !ori.r32, %s: !ori.r32):
    %m0 = ori.imad %t, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %o0 = ori.iadd3 %m0, %k, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %w0 = ori.imad wide %o0, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %v0 = ori.ldg b32 [%w0] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %k, %st, URZ : (!ori.ur32, !ori.ur32) -> !ori.ur32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%k2 : !ori.ur32, %i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b32 [%w], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
