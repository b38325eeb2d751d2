// RUN: xdsl-opt %s -p ori-print-liveness | filecheck %s
// RUN: xdsl-opt %s -p 'ori-print-liveness{per-op=true}' | filecheck %s --check-prefix=OP

builtin.module {
  ori.func kernel @k() {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.ldg b128 [%w] : (!ori.r64) -> !ori.r128
    ori.stg b128 [%w + 0x10], %v : (!ori.r64, !ori.r128) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    %m = ori.iadd3 %i2, 0x1, RZ if %p else %i2 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.bra if %p : !ori.p, ^bb1(%m : !ori.r32), ^bb2
  ^bb2:
    ori.exit
  }
}

// CHECK:      liveness in @k:
// CHECK-NEXT:   ^bb0: live-in [] live-out [a, n, z] pressure R=4
// CHECK-NEXT:   ^bb1(i): live-in [a, n] live-out [a, n, m] pressure R=10 P=1
// CHECK-NEXT:   ^bb2: live-in [] live-out [] pressure none
// CHECK-NEXT:   max pressure R=10 at ^bb1 op 1, P=1 at ^bb1 op 4

// OP:      ^bb1(i): live-in [a, n] live-out [a, n, m]
// OP-NEXT:     op 0 ori.imad: live-before [a, n, i] live-after [a, n, i, w]
// OP-NEXT:     op 1 ori.ldg: live-before [a, n, i, w] live-after [a, n, i, w, v]
// OP-NEXT:     op 2 ori.stg: live-before [a, n, i, w, v] live-after [a, n, i]
// OP-NEXT:     op 3 ori.iadd3: live-before [a, n, i] live-after [a, n, i2]
// OP-NEXT:     op 4 ori.isetp: live-before [a, n, i2] live-after [a, n, i2, p]
// OP-NEXT:     op 5 ori.iadd3: live-before [a, n, i2, p] live-after [a, n, p, m]
// OP-NEXT:     op 6 ori.bra: live-before [a, n, p, m] live-after [a, n, m]
