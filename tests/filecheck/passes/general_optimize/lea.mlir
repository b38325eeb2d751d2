// ori-general-optimize, shifted 64-bit add (seed 001 phase 13): the
// importer's `shl.b64` + `add.s64` (SHL / SHF.L.HI + IADD3 / IADD3.X + PACK)
// is LEA / LEA.HI.X, as ptxas writes it:
//   LEA R8, P1, R0, c[0x0][0x178], 0x3 ; LEA.HI.X R9, R0, c[0x0][0x17c], R5, 0x3, P1
// With lea-sx32 (on by default) the LEA.HI.X of the sign-extended index
// goes on to LEA.HI.X.SX32 (lea_sx32.py, run SX); the other runs pin the
// lea rule alone.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true lea-sx32=false},ori-dead-code' 2>%t.err | filecheck %s
// RUN: ori-opt %s -p 'ori-general-optimize,ori-dead-code' | filecheck %s --check-prefix=SX
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{lea=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @lea(
// CHECK:         %[[L:.*]], %[[C:.*]] = ori.lea %x, c[0x0][0x168], 0x3 : (!ori.r32) -> (!ori.r32, !ori.p)
// CHECK-NEXT:    %[[H:.*]] = ori.lea hi.x %x, c[0x0][0x16c], 0x3, %xh, %[[C]] : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
// CHECK-NEXT:    %p = ori.pack %[[L]], %[[H]]
// SX-LABEL:      ori.func kernel @lea(
// SX:            %[[SL:.*]], %[[SC:.*]] = ori.lea %x, c[0x0][0x168], 0x3 : (!ori.r32) -> (!ori.r32, !ori.p)
// SX-NEXT:       %[[SH:.*]] = ori.lea_hi_sx32 x %x, c[0x0][0x16c], 0x3, %[[SC]] : (!ori.r32, !ori.p) -> !ori.r32
// SX-NEXT:       %p = ori.pack %[[SL]], %[[SH]]
// CHECK-NEXT:    %v = ori.ldg [%p]
// A shift of 32 or more is not a LEA: it stays.
// CHECK:         ori.shl %x, 0x20
// CHECK:         ori.iadd3 x
// REM: remark: @lea: general-optimize {{.*}} [lea=1]
// OFF-NOT: ori.lea
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @lea() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %xh = ori.shr %x, 0x1f : (!ori.r32) -> !ori.r32
    %sl = ori.shl %x, 0x3 : (!ori.r32) -> !ori.r32
    %sh = ori.shf l.u64.hi %x, 0x3, %xh : (!ori.r32, !ori.r32) -> !ori.r32
    %bl, %bh = ori.unpack %b : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %sl, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %sh, %bh, RZ, %c : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p = ori.pack %lo, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.ldg [%p] : (!ori.r64) -> !ori.r32
    %sl2 = ori.shl %x, 0x20 : (!ori.r32) -> !ori.r32
    %sh2 = ori.shf l.u64.hi %x, 0x20, %xh : (!ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c2 = ori.iadd3 %sl2, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %sh2, %bh, RZ, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%p2], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
