// A register-pair zero passed to two loop arguments is written once per
// argument before allocation (passes/regalloc/zero_args.py): the shape of
// Triton's MMA loops, whose two accumulator quads start from one CSE'd
// PACK 0, 0, 0, 0.  Each quad is then two CS2R (ptxas: CS2R R12, SRZ ...)
// and the entry edge copies nothing, where one shared zero costs four MOVs
// into the second quad.  @single: a 32-bit zero (MOV 0) passed twice is left
// alone: its copy costs what a second MOV would.  @zerotrip: a quad zero passed
// twice on a conditional branch's fall-through edge is written per argument too.
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc,ori-check-regalloc' -t ori-asm | filecheck %s

// CHECK-LABEL: .entry quads
// CHECK:       CS2R [[A:R[0-9]*[02468]]], SRZ ;  // 128-bit zero
// CHECK-NEXT:  CS2R R{{[0-9]+}}, SRZ ;
// CHECK-NEXT:  CS2R [[B:R[0-9]*[02468]]], SRZ ;  // 128-bit zero
// CHECK-NEXT:  CS2R R{{[0-9]+}}, SRZ ;
// CHECK-NOT:   MOV R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK:       block args:
// CHECK:       HMMA.16816.F32 [[A]], R{{[0-9]+}}, R{{[0-9]+}}, [[A]] ;
// CHECK-NEXT:  HMMA.16816.F32 [[B]], R{{[0-9]+}}, R{{[0-9]+}}, [[B]] ;
// CHECK:       end quads: 19 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @quads() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %s = ori.shl %t, 0x4 : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %zero = ori.pack 0x0, 0x0, 0x0, 0x0 : () -> !ori.r128
    ori.bra ^bb1(%zero : !ori.r128, %zero : !ori.r128, %z : !ori.r32)
  ^bb1(%acc: !ori.r128, %acd: !ori.r128, %i: !ori.r32):
    %a = ori.ldsm b16.m88.x4 [%s] : (!ori.r32) -> !ori.r128
    %q = ori.ldsm b16.m88.x4 [%s + 0x200] : (!ori.r32) -> !ori.r128
    %q0, %q1, %q2, %q3 = ori.unpack %q : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %b = ori.pack %q0, %q1 : (!ori.r32, !ori.r32) -> !ori.r64
    %c = ori.pack %q2, %q3 : (!ori.r32, !ori.r32) -> !ori.r64
    %d = ori.hmma m16n8k16.f32 %a, %b, %acc : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %e = ori.hmma m16n8k16.f32 %a, %c, %acd : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%d : !ori.r128, %e : !ori.r128, %i2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %t, 0x20, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b128 [%w], %d : (!ori.r64, !ori.r128) -> ()
    ori.stg b128 [%w + 0x10], %e : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}

// -----

// CHECK-LABEL: .entry single
// CHECK:       MOV [[Z:R[0-9]+]], 0x0 ;
// CHECK:       MOV R{{[0-9]+}}, [[Z]] ;
// CHECK:       end single
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @single() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i: !ori.r32, %x: !ori.r32):
    %x2 = ori.iadd3 %x, %t, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %pr = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %pr : !ori.p, ^bb1(%i2 : !ori.r32, %x2 : !ori.r32), ^bb2
  ^bb2:
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w], %x2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// @zerotrip: the zero passed twice on a conditional branch's fall-through
// edge (Triton's zero-trip path around its K loop) is written per argument
// as well: four CS2R, no copy.
// CHECK-LABEL: .entry zerotrip
// CHECK-COUNT-4: CS2R R{{[0-9]+}}, SRZ ;
// CHECK-NOT:   MOV R{{[0-9]+}}, R{{[0-9]+}} ;
// CHECK:       end zerotrip
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @zerotrip() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %w = ori.imad wide.u32 %t, 0x20, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %zero = ori.pack 0x0, 0x0, 0x0, 0x0 : () -> !ori.r128
    %c = ori.isetp lt %t, c[0x0][0x8], PT : (!ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb1, ^bb2(%zero : !ori.r128, %zero : !ori.r128)
  ^bb1:
    %x = ori.ldg b128 [%w] : (!ori.r64) -> !ori.r128
    %y = ori.ldg b128 [%w + 0x10] : (!ori.r64) -> !ori.r128
    ori.bra ^bb2(%x : !ori.r128, %y : !ori.r128)
  ^bb2(%d: !ori.r128, %e: !ori.r128):
    ori.stg b128 [%w], %d : (!ori.r64, !ori.r128) -> ()
    ori.stg b128 [%w + 0x10], %e : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}
