// Constants written at the edges that pass them (passes/regalloc/
// edge_constants.py, ori-regalloc{edge-constants}): a constant defined in
// another block and read only as branch-edge operands is written again
// before each branch instead of held in a register and copied there.
// @joins: the -1 joined with a computed value (CUB's histogram bins): one
// MOV of the immediate in the loop, no register held across it.  @counter:
// a 0 joined with a loop counter that is live on the branch's other way
// out: a clone before the branch would not share the argument's register,
// so the constant is left alone.  @sole: a guarded branch that is the only
// way into its target: the argument becomes the constant written there.
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc{edge-constants=false},ori-check-regalloc' -t ori-asm | filecheck %s --check-prefix=OFF

// CHECK-LABEL: .entry joins
// CHECK-NOT:   -0x1
// CHECK:       .L_x_1:
// CHECK-NEXT:    MOV R{{[0-9]+}}, -0x1 ;
// CHECK-NOT:     MOV R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK:       end joins: 13 instructions
// OFF-LABEL:   .entry joins
// OFF:           MOV [[K:R[0-9]+]], -0x1 ;
// OFF:         .L_x_1:
// OFF:           MOV R{{[0-9]+}}, [[K]] ;
// OFF:         end joins: 14 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @joins() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %m1 = ori.mov -0x1 : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i: !ori.r32):
    %c = ori.isetp lt %i, %t, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb3(%m1 : !ori.r32), ^bb2
  ^bb2:
    %v = ori.iadd3 %i, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%v : !ori.r32)
  ^bb3(%r: !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w], %r : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%i2 : !ori.r32), ^bb4
  ^bb4:
    ori.exit
  }
}

// -----

// CHECK-LABEL: .entry counter
// CHECK:         MOV [[Z:R[0-9]+]], 0x0 ;
// CHECK:       .L_x_1:
// CHECK-NOT:     0x0 ;
// CHECK:         MOV R{{[0-9]+}}, [[Z]] ;
// CHECK:       end counter: 13 instructions
// OFF-LABEL:   .entry counter
// OFF:         end counter: 13 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @counter() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%t : !ori.r32)
  ^bb1(%i: !ori.r32):
    %c = ori.isetp lt %i, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb3(%z : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %i, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w], %i : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb3(%i : !ori.r32)
  ^bb3(%r: !ori.r32):
    %i2 = ori.iadd3 %r, 0x11, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%i2 : !ori.r32), ^bb4
  ^bb4:
    ori.exit
  }
}

// -----

// CHECK-LABEL: .entry sole
// CHECK-NOT:   -0x1
// CHECK:       .L_x_2:
// CHECK-NEXT:    MOV [[S:R[0-9]+]], -0x1 ;
// CHECK-NEXT:    STG.E [R{{[0-9]+}}.64], [[S]] ;
// CHECK:       end sole: 12 instructions
// OFF-LABEL:   .entry sole
// OFF:           MOV [[K:R[0-9]+]], -0x1 ;
// OFF:           MOV R{{[0-9]+}}, [[K]] ;
// OFF:         .L_x_2:  // block args:
// OFF:         end sole: 13 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @sole() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %m1 = ori.mov -0x1 : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i: !ori.r32):
    %w = ori.imad wide.u32 %i, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %c = ori.isetp lt %i, %t, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb2(%m1 : !ori.r32), ^bb3
  ^bb2(%s: !ori.r32):
    ori.stg [%w], %s : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb3
  ^bb3:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%i2 : !ori.r32), ^bb4
  ^bb4:
    ori.exit
  }
}
