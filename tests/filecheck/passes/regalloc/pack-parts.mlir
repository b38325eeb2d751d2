// The parts of a PACK read again after it are read from the wide value
// (passes/regalloc/pack_parts.py, ori-regalloc{pack-parts}): a 64-bit
// pointer stepped twice in 32-bit halves, packed for each store.  With the
// rule the halves die at each PACK, the pair is stepped in place and no
// PACK costs an instruction (6 registers); without it the first step's
// halves stay live beside their pair, which takes other registers and a
// PACK copy (8 registers, one instruction more) -- cp_async_double_buffer's
// output pointer.
// RUN: ori-opt %s -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{pack-parts=false},ori-check-regalloc' -t ori-asm | filecheck %s --check-prefix=OFF

// CHECK-LABEL: .entry halves
// CHECK:       .L_x_1:
// CHECK-NEXT:    // UNPACK [[P:R[0-9]*[02468]]], [[H:R[0-9]+]], [[P]] ;  no instruction: in place
// CHECK-NEXT:    IADD3 [[P]], P0, [[P]], 0x10, RZ ;
// CHECK-NEXT:    IADD3.X [[H]], [[H]], RZ, RZ, P0 ;
// CHECK-NEXT:    // PACK [[P]], [[P]], [[H]] ;  no instruction: in place
// CHECK-NEXT:    STG.E [[[P]].64], [[I:R[0-9]+]] ;
// CHECK-NEXT:    // UNPACK [[P]], [[H]], [[P]] ;  no instruction: in place
// CHECK-NEXT:    IADD3 [[P]], P0, [[P]], 0x10, RZ ;
// CHECK-NEXT:    IADD3.X [[H]], [[H]], RZ, RZ, P0 ;
// CHECK-NEXT:    // PACK [[P]], [[P]], [[H]] ;  no instruction: in place
// CHECK:       end halves: 13 instructions
// OFF-LABEL:   .entry halves
// OFF:           PACK R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}} ;
// OFF:         end halves: 14 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @halves() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%p : !ori.r64, %z : !ori.r32)
  ^bb1(%q: !ori.r64, %i: !ori.r32):
    %lo, %hi = ori.unpack %q : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %c1 = ori.iadd3 %lo, 0x10, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %hi, RZ, RZ, %c1 : (!ori.r32, !ori.p) -> !ori.r32
    %w1 = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%w1], %i : (!ori.r64, !ori.r32) -> ()
    %l2, %c2 = ori.iadd3 %l1, 0x10, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.iadd3 x %h1, RZ, RZ, %c2 : (!ori.r32, !ori.p) -> !ori.r32
    %w2 = ori.pack %l2, %h2 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%w2], %i : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%w2 : !ori.r64, %i2 : !ori.r32), ^bb2
  ^bb2:
    ori.exit
  }
}
