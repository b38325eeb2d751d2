// ori-general-optimize, sign-extended 64-bit adds on a register base
// (passes/general_optimize/sx_wide_add.py): PACK(IADD3 i, b0; LEA.HI.X.SX32
// i, b1, 0x1) -- base + (int64)i, two instructions -- is IMAD.WIDE i, 0x1,
// base.  %p1: the base an UNPACK's words, read as that value; %p2, %p3: two
// separate words, one PACK made for both (right after their definitions:
// here the arguments); not rewritten: a constant-bank base (%p4: two
// constant ports), a low word read elsewhere (%p5).  After allocation the
// words read after their PACKs (%bl/%bh, %l5) are read from the pairs
// (ori-regalloc{pack-parts}): the PACKs are in place, and %l5's store
// reads its word through one UNPACK copy (the pair's register is the
// store's address).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{sx-wide-add=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %[[B:.*]] = ori.pack %bl, %bh : (!ori.r32, !ori.r32) -> !ori.r64
// CHECK-NEXT:    %p1 = ori.imad wide %i, 0x1, %w : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %p2 = ori.imad wide %i, 0x1, %[[B]] : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %p3 = ori.imad wide %i, 0x1, %[[B]] : (!ori.r32, !ori.r64) -> !ori.r64
// CHECK-NEXT:    %l4, %c4 = ori.iadd3 %i, c[0x0][0x160], RZ
// CHECK-NEXT:    %h4 = ori.lea_hi_sx32 x %i, c[0x0][0x164], 0x1, %c4
// CHECK-NEXT:    %p4 = ori.pack %l4, %h4
// CHECK-NEXT:    %l5, %c5 = ori.iadd3 %i, %bl, RZ
// CHECK-NEXT:    %h5 = ori.lea_hi_sx32 x %i, %bh, 0x1, %c5
// CHECK-NEXT:    %p5 = ori.pack %l5, %h5
// REM: remark: @f: general-optimize {{.*}}[sx-wide-add=3]
// OFF:           %p1 = ori.pack %l1, %h1
// OFF-NOT:       ori.imad wide %i
// ASM-LABEL:     .func f(
// ASM:           IMAD.WIDE R{{[0-9]+}}, R{{[0-9]+}}, 0x1, R{{[0-9]+}} ;
// ASM-NEXT:      IMAD.WIDE R{{[0-9]+}}, R{{[0-9]+}}, 0x1, R{{[0-9]+}} ;
// ASM-NEXT:      IMAD.WIDE R{{[0-9]+}}, R{{[0-9]+}}, 0x1, R{{[0-9]+}} ;
// ASM:           end f: 14 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%w: !ori.r64, %i: !ori.r32, %bl: !ori.r32, %bh: !ori.r32) {
    %lo, %hi = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %c1 = ori.iadd3 %i, %lo, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.lea_hi_sx32 x %i, %hi, 0x1, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p1 = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    %l2, %c2 = ori.iadd3 %bl, %i, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.lea_hi_sx32 x %i, %bh, 0x1, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %l2, %h2 : (!ori.r32, !ori.r32) -> !ori.r64
    %l3, %c3 = ori.iadd3 %i, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h3 = ori.lea_hi_sx32 x %i, %bh, 0x1, %c3 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p3 = ori.pack %l3, %h3 : (!ori.r32, !ori.r32) -> !ori.r64
    %l4, %c4 = ori.iadd3 %i, c[0x0][0x160], RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h4 = ori.lea_hi_sx32 x %i, c[0x0][0x164], 0x1, %c4 : (!ori.r32, !ori.p) -> !ori.r32
    %p4 = ori.pack %l4, %h4 : (!ori.r32, !ori.r32) -> !ori.r64
    %l5, %c5 = ori.iadd3 %i, %bl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h5 = ori.lea_hi_sx32 x %i, %bh, 0x1, %c5 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p5 = ori.pack %l5, %h5 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%p1], %i : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p2], %i : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p3], %i : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p4], %i : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p5], %l5 : (!ori.r64, !ori.r32) -> ()
    ori.ret
  }
}
