// ori-general-optimize, address offsets (passes/general_optimize/addr_offset.py):
// an access through p + K -- a 64-bit add of a sign-extended 32-bit
// constant (UNPACK, IADD3 with carry-out, IADD3.X of 0 or -1, PACK) or a
// 32-bit IADD3 -- reads [p + K], as ptxas's `ATOM.E.ADD.U32 R0,
// [R4.64-0x200], R0` and `LDS R0, [R9+0x100]`; (z + K) + t reads
// [(z + t) + K] when the sum is only an address (CUB's tile loads).  Not
// folded: a high word that is not the sign extension, a constant-bank
// load, a sum outside the signed 24-bit offset, a reassociation whose sum
// has another use.  IMAD bases with a constant part: @imad.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{addr-offset=false},ori-dead-code' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize{imad-identity=false},ori-dead-code' | filecheck %s --check-prefix=NOID

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%p: !ori.r64, %s: !ori.r32, %v: !ori.r32) -> !ori.r32 {
    %lo, %hi = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %a0, %c0 = ori.iadd3 %lo, 0xfffffe00, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %a1 = ori.iadd3 x %hi, 0xffffffff, RZ, %c0 : (!ori.r32, !ori.p) -> !ori.r32
    %m = ori.pack %a0, %a1 : (!ori.r32, !ori.r32) -> !ori.r64
    %x = ori.atom add.u32 [%m], %v : (!ori.r64, !ori.r32) -> !ori.r32
    %b0, %d0 = ori.iadd3 %lo, 0x100, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %b1 = ori.iadd3 x %hi, RZ, RZ, %d0 : (!ori.r32, !ori.p) -> !ori.r32
    %n = ori.pack %b0, %b1 : (!ori.r32, !ori.r32) -> !ori.r64
    %y = ori.ldg [%n + 0x8] : (!ori.r64) -> !ori.r32
    %e0, %f0 = ori.iadd3 %lo, 0x100, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %e1 = ori.iadd3 x %hi, 0x1, RZ, %f0 : (!ori.r32, !ori.p) -> !ori.r32
    %q = ori.pack %e0, %e1 : (!ori.r32, !ori.r32) -> !ori.r64
    %z = ori.ldg [%q] : (!ori.r64) -> !ori.r32
    %t = ori.iadd3 %s, 0x40, RZ : (!ori.r32) -> !ori.r32
    %u = ori.lds [%t + 0x4] : (!ori.r32) -> !ori.r32
    %far = ori.iadd3 %s, 0x7ffff0, RZ : (!ori.r32) -> !ori.r32
    %w = ori.lds [%far + 0x20] : (!ori.r32) -> !ori.r32
    %k = ori.ldc 0x0, [%t + 0x10] : (!ori.r32) -> !ori.r32
    %r0 = ori.iadd3 %x, %y, %z : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %r0, %u, %w : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %r1, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %r2 : !ori.r32
  }

  // z = i*4 + c[0x0][0x160] (a parameter pair), q = z + 0x400 hoisted, the
  // access [q + t]: it reads [(z + t) + 0x400].  The second sum is also
  // stored as a value: it stays.
  ori.func @reassoc(%i: !ori.r32, %t: !ori.r64) -> !ori.r32 {
    %w = ori.imad wide %i, 0x4, RZ : (!ori.r32) -> !ori.r64
    %wl, %wh = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %z0, %zc = ori.iadd3 %wl, c[0x0][0x160], RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %z1 = ori.iadd3 x %wh, c[0x0][0x164], RZ, %zc : (!ori.r32, !ori.p) -> !ori.r32
    %q0, %qc = ori.iadd3 %z0, 0x400, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %q1 = ori.iadd3 x %z1, RZ, RZ, %qc : (!ori.r32, !ori.p) -> !ori.r32
    %tl, %th = ori.unpack %t : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s0, %sc = ori.iadd3 %q0, %tl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %s1 = ori.iadd3 x %q1, %th, RZ, %sc : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s = ori.pack %s0, %s1 : (!ori.r32, !ori.r32) -> !ori.r64
    %x = ori.ldg constant [%s] : (!ori.r64) -> !ori.r32
    %u0, %uc = ori.iadd3 %q0, %tl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %u1 = ori.iadd3 x %q1, %th, RZ, %uc : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %u = ori.pack %u0, %u1 : (!ori.r32, !ori.r32) -> !ori.r64
    %y = ori.ldg constant [%u] : (!ori.r64) -> !ori.r32
    ori.stg [%t], %u0 : (!ori.r64, !ori.r32) -> ()
    %r = ori.iadd3 %x, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %r : !ori.r32
  }

  // IMAD bases (the wmma lowering's fragment addresses): %ldm = MOV 0x10 is
  // a known constant beside the stride's immediate, so [IMAD %ldm, 0x10, %s]
  // reads [%s + 0x100] and the .wide form [%p + 0x100]; the shared base
  // %sm = MOV 0x200, the addend of IMAD %lane, 0x2, %sm whose every use is
  // an address, moves into the offsets of [IMAD %lane, 0x2, RZ].  Not
  // folded: IMAD %lane, 0x4, %sm, also stored as a value.
  ori.func @imad(%s: !ori.r32, %p: !ori.r64, %lane: !ori.r32) -> !ori.r32 {
    %ldm = ori.mov 0x10 : () -> !ori.r32
    %a = ori.imad %ldm, 0x10, %s : (!ori.r32, !ori.r32) -> !ori.r32
    %x = ori.lds [%a + 0x4] : (!ori.r32) -> !ori.r32
    %w = ori.imad wide.u32 %ldm, 0x10, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %y = ori.ldg [%w + 0x10] : (!ori.r64) -> !ori.r32
    %sm = ori.mov 0x200 : () -> !ori.r32
    %b = ori.imad %lane, 0x2, %sm : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.lds u16 [%b] : (!ori.r32) -> !ori.r32
    %v = ori.lds u16 [%b + 0x20] : (!ori.r32) -> !ori.r32
    %c = ori.imad %lane, 0x4, %sm : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.lds [%c] : (!ori.r32) -> !ori.r32
    ori.sts [%s], %c : (!ori.r32, !ori.r32) -> ()
    %r0 = ori.iadd3 %x, %y, %z : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %r0, %v, %q : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %r1 : !ori.r32
  }
}


// CHECK-LABEL: ori.func @f(
// CHECK:         ori.atom add.u32 [%p - 0x200], %v
// CHECK:         ori.ldg [%p + 0x108]
// CHECK:         %[[Q:.*]] = ori.pack
// CHECK-NEXT:    ori.ldg [%[[Q]]]
// CHECK:         ori.lds [%s + 0x44]
// CHECK:         ori.lds [%{{.*}} + 0x20]
// CHECK:         ori.ldc 0x0, [%{{.*}} + 0x10]

// CHECK-LABEL: ori.func @reassoc(
// CHECK:         %[[L:.*]], %[[C:.*]] = ori.iadd3 %z0, %tl, RZ
// CHECK-NEXT:    %[[H:.*]] = ori.iadd3 x %z1, %th, RZ, %[[C]]
// CHECK-NEXT:    %[[S:.*]] = ori.pack %[[L]], %[[H]]
// CHECK-NEXT:    ori.ldg constant [%[[S]] + 0x400]
// CHECK:         %u = ori.pack %u0, %u1
// CHECK-NEXT:    ori.ldg constant [%u]

// REM: remark: @f: general-optimize {{.*}}[addr-offset=3]
// REM: remark: @reassoc: general-optimize {{.*}}[addr-offset=1]
// REM: remark: @imad: general-optimize {{.*}}[addr-offset=4]

// CHECK-LABEL: ori.func @imad(
// CHECK:         %x = ori.lds [%s + 0x104]
// CHECK-NEXT:    %y = ori.ldg [%p + 0x110]
// CHECK-NEXT:    %sm = ori.mov 0x200
// CHECK-NEXT:    %[[B:.*]] = ori.imad %lane, 0x2, RZ
// CHECK-NEXT:    %z = ori.lds u16 [%[[B]] + 0x200]
// CHECK-NEXT:    %v = ori.lds u16 [%[[B]] + 0x220]
// CHECK-NEXT:    %c = ori.imad %lane, 0x4, %sm
// CHECK-NEXT:    %q = ori.lds [%c]

// Without imad-identity (which makes the first IMAD an IADD3 first) the
// 32-bit constant product is addr-offset's own.
// NOID-LABEL: ori.func @imad(
// NOID:         %x = ori.lds [%s + 0x104]

// OFF:     ori.atom add.u32 [%m], %v
// OFF:     ori.lds [%t + 0x4]
