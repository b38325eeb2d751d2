// ori-general-optimize, IMAD.WIDE + 64-bit add (seed 001 phase 13): the
// importer's `mul.wide` + 64-bit `add` (IMAD.WIDE x, b, 0; UNPACK; IADD3 with
// carry; IADD3.X; PACK) is one IMAD.WIDE x, b, K -- ptxas's `IMAD.WIDE R2,
// R4, R5, c[0x0][0x168]`.  With a constant-bank K the immediate b moves into
// a MOV (one constant per instruction); with a register K it stays.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{wide-add=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @cbank(
// CHECK:         %[[F:.*]] = ori.mov 0x4
// CHECK-NEXT:    %[[W:.*]] = ori.imad wide %x, %[[F]], c[0x0][0x168] : (!ori.r32, !ori.r32) -> !ori.r64
// CHECK-NEXT:    %v = ori.ldg [%[[W]]]
// CHECK-NOT:     ori.unpack
// REM: remark: @cbank: general-optimize {{.*}} [wide-add=1]
// OFF: ori.iadd3 x
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @cbank() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide %x, 0x4, RZ : (!ori.r32) -> !ori.r64
    %bl, %bh = ori.unpack %b : (!ori.r64) -> (!ori.r32, !ori.r32)
    %wl, %wh = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %bl, %wl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %bh, %wh, RZ, %c : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p = ori.pack %lo, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.ldg [%p] : (!ori.r64) -> !ori.r32
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// K in a register (a loaded pointer): IMAD.WIDE x, 0x4, K.  When the low
// add's carry has another use, that add stays for it (the high one dies).
// CHECK-LABEL: ori.func kernel @register(
// CHECK:         %[[W:.*]] = ori.imad wide %x, 0x4, %k : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %v = ori.ldg [%[[W]]]
// CHECK-NEXT:    %lo2, %c2 = ori.iadd3 %wl, %kl, RZ
// CHECK-NEXT:    %[[W2:.*]] = ori.imad wide %x, 0x4, %k : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %q = ori.sel %v, 0x1, %c2
// CHECK-NEXT:    ori.stg [%[[W2]]], %q
// REM: remark: @register: general-optimize {{.*}} [wide-add=2]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @register() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %k = ori.ldg b64 [%a] : (!ori.r64) -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide %x, 0x4, RZ : (!ori.r32) -> !ori.r64
    %kl, %kh = ori.unpack %k : (!ori.r64) -> (!ori.r32, !ori.r32)
    %wl, %wh = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %wl, %kl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %kh, %wh, RZ, %c : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p = ori.pack %lo, %hi : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.ldg [%p] : (!ori.r64) -> !ori.r32
    %lo2, %c2 = ori.iadd3 %wl, %kl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %kh, %wh, RZ, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.sel %v, 0x1, %c2 : (!ori.r32, !ori.p) -> !ori.r32
    ori.stg [%p2], %q : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// No PACK reads the first sum: its words feed a second 64-bit add (Triton's
// `base + off*2` whose sum is the base of the next address, attention_fwd).
// The pair becomes the words of `IMAD.WIDE x, b, K`, which the second add
// then takes whole: two IMAD.WIDEs and no IADD3.
// CHECK-LABEL: ori.func kernel @chain(
// CHECK:         %[[F:.*]] = ori.mov 0x2
// CHECK-NEXT:    %[[A:.*]] = ori.imad wide %x, %[[F]], c[0x0][0x168] : (!ori.r32, !ori.r32) -> !ori.r64
// CHECK:         %[[B:.*]] = ori.imad wide %y, 0x2, %[[A]] : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %v = ori.ldg u16 [%[[B]]]
// CHECK-NOT:     ori.iadd3
// REM: remark: @chain: general-optimize {{.*}} [wide-add=2]
// OFF-LABEL: ori.func kernel @chain(
// OFF: ori.iadd3 x
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %b = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_TID.Y : () -> !ori.r32
    %w = ori.imad wide %x, 0x2, RZ : (!ori.r32) -> !ori.r64
    %bl, %bh = ori.unpack %b : (!ori.r64) -> (!ori.r32, !ori.r32)
    %wl, %wh = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo, %c = ori.iadd3 %wl, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi = ori.iadd3 x %wh, %bh, RZ, %c : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %u = ori.imad wide %y, 0x2, RZ : (!ori.r32) -> !ori.r64
    %ul, %uh = ori.unpack %u : (!ori.r64) -> (!ori.r32, !ori.r32)
    %lo2, %c2 = ori.iadd3 %lo, %ul, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, %uh, RZ, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.ldg u16 [%p] : (!ori.r64) -> !ori.r32
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
