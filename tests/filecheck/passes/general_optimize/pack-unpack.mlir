// ori-general-optimize, PACK/UNPACK cancellation (seed 001 phase 13):
// UNPACK(PACK(a, b)) gives a, b back (a constant part becomes a MOV, which
// constant propagation then folds); PACK(UNPACK(x)) is x; an UNPACK of an
// LDC.64 c[b][o] becomes the 32-bit loads c[b][o] and c[b][o+4].
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{pack-unpack=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @pairs(
// CHECK-NEXT:    %a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %y = ori.s2r SR_TID.Y
// CHECK-NEXT:    %s = ori.iadd3 %x, 0x5, %y
// CHECK-NEXT:    %t = ori.iadd3 %x, c[0x0][0x168], RZ
// CHECK-NEXT:    %u = ori.iadd3 %y, c[0x0][0x16c], RZ
// CHECK-NEXT:    %w = ori.pack %x, %y
// CHECK-NEXT:    ori.stg [%a], %s
// CHECK-NEXT:    ori.stg [%a + 0x4], %t
// CHECK-NEXT:    ori.stg [%a + 0x8], %u
// CHECK-NEXT:    ori.stg b64 [%a + 0x10], %w
// CHECK-NEXT:    %q = ori.ldg b64 [%a + 0x18]
// CHECK-NEXT:    ori.stg b64 [%a + 0x20], %q
// CHECK-NEXT:    ori.exit
// REM: remark: @pairs: general-optimize [copies=0] [constants=3] [pack-unpack=3] [ldc64-split=1]
// OFF:         %p = ori.pack %x, 0x5
// OFF:         %l, %h = ori.unpack %p
// OFF:         %bl, %bh = ori.unpack %b
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @pairs() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_TID.Y : () -> !ori.r32
    %p = ori.pack %x, 0x5 : (!ori.r32) -> !ori.r64
    %l, %h = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %l, %h, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %bl, %bh = ori.unpack %b : (!ori.r64) -> (!ori.r32, !ori.r32)
    %t = ori.iadd3 %x, %bl, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.iadd3 %y, %bh, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.pack %x, %y : (!ori.r32, !ori.r32) -> !ori.r64
    %v0, %v1 = ori.unpack %v : (!ori.r64) -> (!ori.r32, !ori.r32)
    %w = ori.pack %v0, %v1 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x8], %u : (!ori.r64, !ori.r32) -> ()
    ori.stg b64 [%a + 0x10], %w : (!ori.r64, !ori.r64) -> ()
    %q = ori.ldg b64 [%a + 0x18] : (!ori.r64) -> !ori.r64
    %q0, %q1 = ori.unpack %q : (!ori.r64) -> (!ori.r32, !ori.r32)
    %r = ori.pack %q0, %q1 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg b64 [%a + 0x20], %r : (!ori.r64, !ori.r64) -> ()
    ori.exit
  }
}
