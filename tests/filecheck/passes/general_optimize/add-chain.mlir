// ori-general-optimize, constant add chains (passes/general_optimize/add_chain.py):
// (x + K1) + K2 is x + (K1 + K2) when the inner sum has no other live reader
// -- an unrolled loop steps its IV and pointers once, as ptxas's
// `IADD3 R2, P4, R2, 0x4000, RZ` in CUB's 4x-unrolled reduce loop.
// 32-bit: %i3 (slots in any order), %w2 (sums to 0: the add of 0 is then
// %i0 itself, imad-identity's add identity).  Not chained: %t2 (%t
// is stored too), %c2 (%c's carry-out is read).  64-bit (the importer's
// UNPACK / IADD3 / IADD3.X / PACK form): %p2 (%p1's PACK has no reader, so
// it does not count), %q2 (a negative sum: high word -1); not %r2 (the sum
// 0x80000000 is no signed 32-bit constant).  The ops left without readers
// go (dead-code); with dead-code=false they stay.  addr-offset is off but
// in the ADDR run, where the chained sums become the stores' offsets.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true addr-offset=false}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{add-chain=false addr-offset=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize{dead-code=false addr-offset=false}' | filecheck %s --check-prefix=KEEP
// RUN: ori-opt %s -p 'ori-general-optimize' | filecheck %s --check-prefix=ADDR

// CHECK-LABEL: ori.func @chains(
// CHECK-NEXT:    %i3 = ori.iadd3 %i0, 0xc00, RZ
// CHECK-NEXT:    %t = ori.iadd3 %i0, 0x10, RZ
// CHECK-NEXT:    %t2 = ori.iadd3 %t, 0x10, RZ
// CHECK-NEXT:    %c, %co = ori.iadd3 %i0, 0x7fffffff, RZ
// CHECK-NEXT:    %c2 = ori.iadd3 %c, 0x1, RZ
// CHECK-NEXT:    %cx = ori.iadd3 x %n, 0x0, RZ, %co
// CHECK-NEXT:    %lo0, %hi0 = ori.unpack %p
// CHECK-NEXT:    %l2, %k2 = ori.iadd3 %lo0, 0x2000, RZ
// CHECK-NEXT:    %h2 = ori.iadd3 x %hi0, 0x0, RZ, %k2
// CHECK-NEXT:    %p2 = ori.pack %l2, %h2
// CHECK-NEXT:    %m2, %j2 = ori.iadd3 %lo0, -0x2000, RZ
// CHECK-NEXT:    %g2 = ori.iadd3 x %hi0, -0x1, RZ, %j2
// CHECK-NEXT:    %q2 = ori.pack %m2, %g2
// CHECK-NEXT:    %v1, %e1 = ori.iadd3 %lo0, 0x7fff0000, RZ
// CHECK-NEXT:    %u1 = ori.iadd3 x %hi0, 0x0, RZ, %e1
// CHECK-NEXT:    %v2, %e2 = ori.iadd3 %v1, 0x10000, RZ
// CHECK-NEXT:    %u2 = ori.iadd3 x %u1, 0x0, RZ, %e2
// REM: remark: @chains: general-optimize {{.*}}[add-chain=5] [setp-combine=0] [lop3-predicate=0] [lea-sx32=0] [guard-sink=0] [tuple-args=0] [dead-code=8]
// OFF:           %i1 = ori.iadd3 %i0, 0x400, RZ
// OFF:           %i3 = ori.iadd3 RZ, 0x400, %i2
// OFF:           %l2, %k2 = ori.iadd3 %l1, 0x1000, RZ
// KEEP:          %i1 = ori.iadd3 %i0, 0x400, RZ
// KEEP:          %p1 = ori.pack %l1, %h1
// KEEP:          %l2, %k2 = ori.iadd3 %lo0, 0x2000, RZ
// ADDR:          ori.stg [%p + 0x2000], %i3
// ADDR-NEXT:     ori.stg [%p - 0x2000], %i0
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @chains(%p: !ori.r64, %i0: !ori.r32, %n: !ori.r32) {
    %i1 = ori.iadd3 %i0, 0x400, RZ : (!ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i1, 0x400, RZ : (!ori.r32) -> !ori.r32
    %i3 = ori.iadd3 RZ, 0x400, %i2 : (!ori.r32) -> !ori.r32
    %w = ori.iadd3 %i0, -0x1, RZ : (!ori.r32) -> !ori.r32
    %w2 = ori.iadd3 %w, 0x1, RZ : (!ori.r32) -> !ori.r32
    %t = ori.iadd3 %i0, 0x10, RZ : (!ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %c, %co = ori.iadd3 %i0, 0x7fffffff, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %c2 = ori.iadd3 %c, 0x1, RZ : (!ori.r32) -> !ori.r32
    %cx = ori.iadd3 x %n, 0x0, RZ, %co : (!ori.r32, !ori.p) -> !ori.r32
    %lo0, %hi0 = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %k1 = ori.iadd3 %lo0, 0x1000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %hi0, 0x0, RZ, %k1 : (!ori.r32, !ori.p) -> !ori.r32
    %p1 = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    %l2, %k2 = ori.iadd3 %l1, 0x1000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.iadd3 x %h1, 0x0, RZ, %k2 : (!ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %l2, %h2 : (!ori.r32, !ori.r32) -> !ori.r64
    %m1, %j1 = ori.iadd3 %lo0, 0x1000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %g1 = ori.iadd3 x %hi0, 0x0, RZ, %j1 : (!ori.r32, !ori.p) -> !ori.r32
    %m2, %j2 = ori.iadd3 %m1, -0x3000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %g2 = ori.iadd3 x %g1, -0x1, RZ, %j2 : (!ori.r32, !ori.p) -> !ori.r32
    %q2 = ori.pack %m2, %g2 : (!ori.r32, !ori.r32) -> !ori.r64
    %v1, %e1 = ori.iadd3 %lo0, 0x7fff0000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %u1 = ori.iadd3 x %hi0, 0x0, RZ, %e1 : (!ori.r32, !ori.p) -> !ori.r32
    %v2, %e2 = ori.iadd3 %v1, 0x10000, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %u2 = ori.iadd3 x %u1, 0x0, RZ, %e2 : (!ori.r32, !ori.p) -> !ori.r32
    %r2 = ori.pack %v2, %u2 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%p2], %i3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%q2], %w2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%r2], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p], %t : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p + 0x4], %c2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p + 0x8], %cx : (!ori.r64, !ori.r32) -> ()
    ori.ret
  }
}
