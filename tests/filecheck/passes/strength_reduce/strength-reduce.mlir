// ori-strength-reduce (passes/strength_reduce/): derived induction
// variables carried around the loop when that shortens its body.
// RUN: ori-opt %s -p 'ori-strength-reduce{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-strength-reduce{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: ori-opt %s -p 'ori-strength-reduce{min-gain=0}' | filecheck %s --check-prefix=GAIN0
// RUN: not ori-opt %s -p 'ori-strength-reduce{min-gain=-2}' 2>&1 | filecheck %s --check-prefix=ERR

builtin.module attributes {ori.target = "sm_80"} {
  // (i * 12 + t) << 2 into shared memory: three ops per iteration become
  // one add of 48 at the latch; the initial value is (0 * 12 + t) << 2,
  // folded to t << 2.
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>], ori.shared_bytes = 4096 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^pre
  ^pre:
    ori.bra ^loop(%z : !ori.r32, %z : !ori.r32)
  ^loop(%i: !ori.r32, %acc: !ori.r32):
    %m = ori.imad %i, 0xc, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %m, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %a = ori.shl %s, 0x2 : (!ori.r32) -> !ori.r32
    %v = ori.lds [%a] : (!ori.r32) -> !ori.r32
    %acc1 = ori.iadd3 %acc, %v, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0xe, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i1 : !ori.r32, %acc1 : !ori.r32), ^exit
  ^exit:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %o = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%o], %acc1 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Two roots that differ by 0x100 share one carried value.
  ori.func kernel @family() attributes {params = [#ori.param<8, align 8, at 0x0>], ori.shared_bytes = 4096 : i32} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %b = ori.shl %t, 0x2 : (!ori.r32) -> !ori.r32
    ori.bra ^pre
  ^pre:
    ori.bra ^loop(%z : !ori.r32)
  ^loop(%i: !ori.r32):
    %x0 = ori.shl %i, 0x8 : (!ori.r32) -> !ori.r32
    %a0 = ori.iadd3 %x0, 0x0, %b : (!ori.r32, !ori.r32) -> !ori.r32
    ori.sts [%a0], %t : (!ori.r32, !ori.r32) -> ()
    %x1 = ori.shl %i, 0x8 : (!ori.r32) -> !ori.r32
    %a1 = ori.iadd3 %x1, 0x100, %b : (!ori.r32, !ori.r32) -> !ori.r32
    ori.sts [%a1], %t : (!ori.r32, !ori.r32) -> ()
    %i1 = ori.iadd3 %i, 0x2, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0xe, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i1 : !ori.r32), ^exit
  ^exit:
    ori.exit
  }

  // One IMAD per iteration with a register stride: reducing it would only
  // move the op to the latch (kept by default; min-gain=0 takes it, the
  // step i_stride * k computed once in the preheader).  The IMAD.WIDE of
  // the IV stays (remark).
  ori.func kernel @single() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.ldc 0x0, [RZ + 0x16c] : () -> !ori.r32
    %st = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.bra ^pre
  ^pre:
    ori.bra ^loop(%t : !ori.r32)
  ^loop(%i: !ori.r32):
    %v = ori.imad %i, %k, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %o = ori.imad wide.u32 %i, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%o], %v : (!ori.r64, !ori.r32) -> ()
    %i1 = ori.iadd3 %i, %st, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, 0x100, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^loop(%i1 : !ori.r32), ^exit
  ^exit:
    ori.exit
  }
}

// CHECK-LABEL: ori.func kernel @chain(
// CHECK:       ^pre:
// CHECK-NEXT:    %[[INIT:.+]] = ori.shl %t, 0x2
// CHECK-NEXT:    ori.bra ^loop(%z : !ori.r32, %z : !ori.r32, %[[INIT]] : !ori.r32)
// CHECK-NEXT:  ^loop(%i: !ori.r32, %acc: !ori.r32, %sr: !ori.r32):
// CHECK-NEXT:    %v = ori.lds [%sr]
// CHECK-NOT:     ori.shl
// CHECK:         %[[NEXT:.+]] = ori.iadd3 %sr, 0x30, RZ
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^loop(%i1 : !ori.r32, %acc1 : !ori.r32, %[[NEXT]] : !ori.r32), ^exit

// CHECK-LABEL: ori.func kernel @family(
// CHECK:         ori.bra ^loop(%z : !ori.r32, %b : !ori.r32)
// CHECK-NEXT:  ^loop(%i: !ori.r32, %sr: !ori.r32):
// CHECK-NEXT:    ori.sts [%sr], %t
// CHECK-NEXT:    %[[OFF:.+]] = ori.iadd3 %sr, 0x100, RZ
// CHECK-NEXT:    ori.sts [%[[OFF]]], %t
// CHECK:         %[[NEXT:.+]] = ori.iadd3 %sr, 0x200, RZ
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^loop(%i1 : !ori.r32, %[[NEXT]] : !ori.r32), ^exit

// CHECK-LABEL: ori.func kernel @single(
// CHECK:         %v = ori.imad %i, %k, %t

// GAIN0-LABEL: ori.func kernel @single(
// GAIN0:       ^pre:
// GAIN0-NEXT:    %[[INIT:.+]] = ori.imad %t, %k, %t
// GAIN0-NEXT:    %[[STEP:.+]] = ori.imad %st, %k, RZ
// GAIN0-NEXT:    ori.bra ^loop(%t : !ori.r32, %[[INIT]] : !ori.r32)
// GAIN0:         ori.stg [%o], %sr
// GAIN0:         %[[NEXT:.+]] = ori.iadd3 %sr, %[[STEP]], RZ

// REM: remark: @chain ^bb2: strength-reduced ori.shl (%a) into a loop-carried value
// REM: remark: @family ^bb2: strength-reduced ori.iadd3 (%a0) into a loop-carried value
// REM: remark: @family ^bb2: strength-reduced ori.iadd3 (%a1) into %sr + 256
// REM: remark: @single ^bb2: 1 IMAD.WIDE of an induction variable kept (a 64-bit pointer increment needs a no-wrap proof and costs two adds)

// STATS: ori-strength-reduce: [loops=3] [roots=4] [reduced=3] [offsets=1] [ops removed=4] [ops added=1] [wide kept=1]

// ERR: ori-strength-reduce: min-gain must be -1 or more, got -2
