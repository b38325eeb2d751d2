// Predicate and 32-bit R definitions move down to their first reader
// before allocation when that frees a register and lengthens at most one
// other range (passes/regalloc/sink_defs.py, option sink-definitions).  @masks is the
// shape of Triton's masked tile loads: eight loop-invariant row masks, a K
// mask per iteration, eight ANDs, then eight guarded loads.  With the ANDs
// next to their loads, five row masks keep P registers, three are
// recomputed (fused with the K mask) from rows that stay live for the
// epilogue, and nothing takes a P2R home; without the move nine predicates
// are live before the first load and two go to homes.  @columns is the
// shape of Triton's attention loop: four column masks (a comparison of the
// column base plus a constant) read by SELs while the eight row masks are
// live: each comparison moves with its add to its SEL, the column base
// stays live instead (ptxas's IADD3 R33, R88, 0x1 / ISETP.GE.AND P0, ...
// / FSEL), and no mask takes a home.  @rows: three row values computed
// before four loads and read after them (Triton's B-tile rows in
// matmul_i8) are computed at their readers from the row base: 9
// registers where the order as written needs 13.  @combine: a comparison
// moved next to the PLOP3 that alone reads it becomes that PLOP3
// (setp-combine: ISETP.GT.U32.AND P0, PT, R4, 0x1, P1), one instruction
// per mask and no home.  @keeps: a
// comparison whose register operand dies there stays where it is (moving it
// would lengthen that R range).  @addresses: 64-bit definitions move too,
// after the rest and only where the block's most R registers live drops:
// four tile addresses computed before four loads (Triton's A tile in
// matmul_f16out) are each computed at their load, one pair at a time: 13
// registers where the order as written needs 18.  @rows64: an address
// computed from a temporary read by it alone moves with the temporary
// (``IADD3 t, row, k`` / ``IMAD.WIDE a, t, 0x2, base``: the B tile),
// lengthening the shared ``k``: 13 registers, 15 as written.
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc' -t ori-asm | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-regalloc{sink-definitions=false}' -t ori-asm | filecheck %s --check-prefix=OFF

// CHECK-LABEL: .entry masks
// CHECK-NOT:   P2R
// CHECK:       .L_x_1:
// CHECK-NEXT:  ISETP.LT.AND [[K:P[0-6]]], PT, R{{[0-9]+}}, c[0x0][0x218], PT ;
// CHECK-NEXT:  ISETP.LT.AND [[D:P[0-6]]], PT, R{{[0-9]+}}, c[0x0][0x218], [[K]] ;
// CHECK-NEXT:  MOV [[V:R[0-9]+]], 0x0 ;
// CHECK-NEXT:  @[[D]] LDG.E [[V]], [R{{[0-9]+}}.64] ;
// CHECK-COUNT-2: ISETP.LT.AND P{{[0-6]}}, PT, R{{[0-9]+}}, c[0x0][0x218], [[K]] ;
// CHECK-COUNT-5: PLOP3.LUT P0, P{{[2-6]}}, [[K]], PT, 0xc0 ;
// CHECK-NOT:   R2P
// CHECK:       end masks
// CHECK-LABEL: .entry columns
// CHECK-NOT:   P2R
// CHECK:       .L_x_1:
// CHECK:       IADD3 [[B:R[0-9]+]], R{{[0-9]+}}, R{{[0-9]+}}, RZ ;
// CHECK-NEXT:  ISETP.LT.AND [[C:P[0-6]]], PT, [[B]], c[0x0][0x21c], PT ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, R{{[0-9]+}}, 0x1, [[C]] ;
// CHECK-NEXT:  IADD3 [[M:R[0-9]+]], [[B]], 0x1, RZ ;
// CHECK-NEXT:  ISETP.LT.AND [[C:P[0-6]]], PT, [[M]], c[0x0][0x21c], PT ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, R{{[0-9]+}}, 0x2, [[C]] ;
// CHECK-NEXT:  IADD3 [[M:R[0-9]+]], [[B]], 0x8, RZ ;
// CHECK-NEXT:  ISETP.LT.AND [[C:P[0-6]]], PT, [[M]], c[0x0][0x21c], PT ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, R{{[0-9]+}}, 0x3, [[C]] ;
// CHECK-NOT:   R2P
// CHECK:       end columns
// CHECK-LABEL: .entry rows
// CHECK-COUNT-4: LDG.E
// CHECK:       IADD3 [[B:R[0-9]+]], R{{[0-9]+}}, 0x10, RZ ;
// CHECK:       IADD3 [[M:R[0-9]+]], [[B]], 0x4, RZ ;
// CHECK-NEXT:  IADD3 R{{[0-9]+}}, R{{[0-9]+}}, [[M]], RZ ;
// CHECK-NEXT:  IADD3 [[M:R[0-9]+]], [[B]], 0x8, RZ ;
// CHECK-NEXT:  IADD3 R{{[0-9]+}}, R{{[0-9]+}}, [[M]], RZ ;
// CHECK-NEXT:  IADD3 [[M:R[0-9]+]], [[B]], 0xc, RZ ;
// CHECK-NEXT:  IADD3 R{{[0-9]+}}, R{{[0-9]+}}, [[M]], RZ ;
// CHECK-LABEL: .entry addresses
// CHECK-COUNT-4: IMAD.WIDE.U32
// CHECK-NEXT:  IMAD.WIDE [[A:R[0-9]+]], [[K:R[0-9]+]], 0x2, R{{[0-9]+}} ;
// CHECK-NEXT:  LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK-NEXT:  IMAD.WIDE [[A]], [[K]], 0x2, R{{[0-9]+}} ;
// CHECK-NEXT:  LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK-LABEL: .entry rows64
// CHECK:       IADD3 [[T:R[0-9]+]], R{{[0-9]+}}, [[K:R[0-9]+]], RZ ;
// CHECK-NEXT:  IMAD.WIDE [[A:R[0-9]+]], [[T]], 0x2, R{{[0-9]+}} ;
// CHECK-NEXT:  LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK-NEXT:  IADD3 [[T:R[0-9]+]], R{{[0-9]+}}, [[K]], RZ ;
// CHECK-NEXT:  IMAD.WIDE [[A:R[0-9]+]], [[T]], 0x2, R{{[0-9]+}} ;
// CHECK-NEXT:  LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK-LABEL: .entry combine
// CHECK-NOT:   PLOP3
// CHECK:       ISETP.LT.U32.AND [[Q:P[0-6]]], PT, [[T:R[0-9]+]], 0x18, PT ;
// CHECK-NEXT:  ISETP.GT.U32.AND [[D:P[0-6]]], PT, [[T]], 0x1, [[Q]] ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x1, [[D]] ;
// CHECK:       ISETP.GT.U32.AND [[D:P[0-6]]], PT, [[T]], 0x4, [[Q]] ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x2, [[D]] ;
// CHECK:       ISETP.GT.U32.AND [[D:P[0-6]]], PT, [[T]], 0x7, [[Q]] ;
// CHECK-NEXT:  SEL R{{[0-9]+}}, RZ, 0x4, [[D]] ;
// CHECK-NOT:   PLOP3
// CHECK:       end combine
// CHECK-LABEL: .entry keeps
// CHECK:       IADD3 [[X:R[0-9]+]], R{{[0-9]+}}, 0x1, RZ ;
// CHECK-NEXT:  ISETP.LT.U32.AND [[Q:P[0-6]]], PT, [[X]], 0x40, PT ;
// CHECK-NEXT:  IADD3
// CHECK:       SEL R{{[0-9]+}}, RZ, 0x1, [[Q]] ;
// OFF-LABEL:   .entry masks
// OFF:         P2R
// OFF:         R2P
// OFF:         end masks
// OFF-LABEL:   .entry columns
// OFF:         P2R
// OFF:         end columns
// OFF-LABEL:   .entry rows
// OFF:         IADD3 R{{[0-9]+}}, R{{[0-9]+}}, 0xc, RZ ;
// OFF:         LDG.E
// OFF-LABEL:   .entry addresses
// OFF-COUNT-4: IMAD.WIDE.U32
// OFF-COUNT-4: IMAD.WIDE R
// OFF-NEXT:    LDG.E
// OFF-LABEL:   .entry rows64
// OFF-COUNT-4: IMAD.WIDE R
// OFF-NEXT:    LDG.E
// OFF-LABEL:   .entry combine
// OFF:         PLOP3.LUT

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @masks() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %m0 = ori.iadd3 %t, 0x0, RZ : (!ori.r32) -> !ori.r32
    %m1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %m2 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %m3 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %m4 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %m5 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %m6 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %m7 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %row0 = ori.isetp lt %m0, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row1 = ori.isetp lt %m1, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row2 = ori.isetp lt %m2, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row3 = ori.isetp lt %m3, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row4 = ori.isetp lt %m4, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row5 = ori.isetp lt %m5, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row6 = ori.isetp lt %m6, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row7 = ori.isetp lt %m7, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%k : !ori.r32, %s : !ori.r32):
    %kin = ori.isetp lt %k, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %d0 = ori.plop3 %row0, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d1 = ori.plop3 %row1, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d2 = ori.plop3 %row2, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d3 = ori.plop3 %row3, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d4 = ori.plop3 %row4, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d5 = ori.plop3 %row5, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d6 = ori.plop3 %row6, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d7 = ori.plop3 %row7, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %v0 = ori.ldg [%a + 0x0] if %d0 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] if %d1 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] if %d2 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] if %d3 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] if %d4 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] if %d5 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] if %d6 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] if %d7 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %s0 = ori.iadd3 %s, %v0, %v1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v4, %v5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v6, %v7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %k, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %k2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%k2 : !ori.r32, %s3 : !ori.r32), ^bb2
  ^bb2:
    %e0 = ori.iadd3 %m0, %m1, %m2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e1 = ori.iadd3 %m3, %m4, %m5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e2 = ori.iadd3 %m6, %m7, %e0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e3 = ori.iadd3 %e1, %e2, %s3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %e3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @columns() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %m0 = ori.iadd3 %t, 0x0, RZ : (!ori.r32) -> !ori.r32
    %m1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %m2 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %m3 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %m4 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %m5 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %m6 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %m7 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %row0 = ori.isetp lt %m0, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row1 = ori.isetp lt %m1, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row2 = ori.isetp lt %m2, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row3 = ori.isetp lt %m3, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row4 = ori.isetp lt %m4, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row5 = ori.isetp lt %m5, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row6 = ori.isetp lt %m6, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %row7 = ori.isetp lt %m7, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%k : !ori.r32, %s : !ori.r32):
    %b = ori.iadd3 %t, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %b1 = ori.iadd3 %b, 0x1, RZ : (!ori.r32) -> !ori.r32
    %b8 = ori.iadd3 %b, 0x8, RZ : (!ori.r32) -> !ori.r32
    %b9 = ori.iadd3 %b, 0x9, RZ : (!ori.r32) -> !ori.r32
    %c0 = ori.isetp lt %b, c[0x0][0x21c], PT : (!ori.r32) -> !ori.p
    %c1 = ori.isetp lt %b1, c[0x0][0x21c], PT : (!ori.r32) -> !ori.p
    %c8 = ori.isetp lt %b8, c[0x0][0x21c], PT : (!ori.r32) -> !ori.p
    %c9 = ori.isetp lt %b9, c[0x0][0x21c], PT : (!ori.r32) -> !ori.p
    %x = ori.shl %s, 0x1 : (!ori.r32) -> !ori.r32
    %q0 = ori.sel %x, 0x1, %c0 : (!ori.r32, !ori.p) -> !ori.r32
    %q1 = ori.sel %q0, 0x2, %c1 : (!ori.r32, !ori.p) -> !ori.r32
    %q2 = ori.sel %q1, 0x3, %c8 : (!ori.r32, !ori.p) -> !ori.r32
    %q3 = ori.sel %q2, 0x4, %c9 : (!ori.r32, !ori.p) -> !ori.r32
    %kin = ori.isetp lt %k, c[0x0][0x218], PT : (!ori.r32) -> !ori.p
    %d0 = ori.plop3 %row0, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d1 = ori.plop3 %row1, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d2 = ori.plop3 %row2, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d3 = ori.plop3 %row3, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d4 = ori.plop3 %row4, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d5 = ori.plop3 %row5, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d6 = ori.plop3 %row6, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %d7 = ori.plop3 %row7, %kin, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %v0 = ori.ldg [%a + 0x0] if %d0 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] if %d1 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] if %d2 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] if %d3 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v4 = ori.ldg [%a + 0x10] if %d4 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v5 = ori.ldg [%a + 0x14] if %d5 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v6 = ori.ldg [%a + 0x18] if %d6 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %v7 = ori.ldg [%a + 0x1c] if %d7 else %z : (!ori.r64, !ori.p, !ori.r32) -> !ori.r32
    %s0 = ori.iadd3 %q3, %v0, %v1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s1, %v4, %v5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v6, %v7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %k, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %k2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%k2 : !ori.r32, %s3 : !ori.r32), ^bb2
  ^bb2:
    %e0 = ori.iadd3 %m0, %m1, %m2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e1 = ori.iadd3 %m3, %m4, %m5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e2 = ori.iadd3 %m6, %m7, %e0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %e3 = ori.iadd3 %e1, %e2, %s3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %e3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @rows() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %r1 = ori.iadd3 %base, 0x4, RZ : (!ori.r32) -> !ori.r32
    %r2 = ori.iadd3 %base, 0x8, RZ : (!ori.r32) -> !ori.r32
    %r3 = ori.iadd3 %base, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v0 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v1 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0xc] : (!ori.r64) -> !ori.r32
    %s0 = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s0, %v3, %base : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %q1 = ori.iadd3 %s1, %r1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %q2 = ori.iadd3 %q1, %r2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %q3 = ori.iadd3 %q2, %r3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %q3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @addresses() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %p0 = ori.imad wide.u32 %t, 0x40, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %p1 = ori.imad wide.u32 %t, 0x80, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %p2 = ori.imad wide.u32 %t, 0xc0, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %p3 = ori.imad wide.u32 %t, 0x100, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %a0 = ori.imad wide %k, 0x2, %p0 : (!ori.r32, !ori.r64) -> !ori.r64
    %a1 = ori.imad wide %k, 0x2, %p1 : (!ori.r32, !ori.r64) -> !ori.r64
    %a2 = ori.imad wide %k, 0x2, %p2 : (!ori.r32, !ori.r64) -> !ori.r64
    %a3 = ori.imad wide %k, 0x2, %p3 : (!ori.r32, !ori.r64) -> !ori.r64
    %x0 = ori.ldg [%a0] : (!ori.r64) -> !ori.r32
    %x1 = ori.ldg [%a1] : (!ori.r64) -> !ori.r32
    %x2 = ori.ldg [%a2] : (!ori.r64) -> !ori.r32
    %x3 = ori.ldg [%a3] : (!ori.r64) -> !ori.r32
    %s = ori.iadd3 %x0, %x1, %x2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s, %x3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%p0], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p1], %k : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p2], %k : (!ori.r64, !ori.r32) -> ()
    ori.stg [%p3], %k : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @rows64() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %r0 = ori.imad %t, 0x40, RZ : (!ori.r32) -> !ori.r32
    %r1 = ori.imad %t, 0x80, RZ : (!ori.r32) -> !ori.r32
    %r2 = ori.imad %t, 0xc0, RZ : (!ori.r32) -> !ori.r32
    %r3 = ori.imad %t, 0x100, RZ : (!ori.r32) -> !ori.r32
    %u0 = ori.iadd3 %r0, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %a0 = ori.imad wide %u0, 0x2, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %u1 = ori.iadd3 %r1, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %a1 = ori.imad wide %u1, 0x2, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %u2 = ori.iadd3 %r2, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %a2 = ori.imad wide %u2, 0x2, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %u3 = ori.iadd3 %r3, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %a3 = ori.imad wide %u3, 0x2, %b : (!ori.r32, !ori.r64) -> !ori.r64
    %x0 = ori.ldg [%a0] : (!ori.r64) -> !ori.r32
    %x1 = ori.ldg [%a1] : (!ori.r64) -> !ori.r32
    %x2 = ori.ldg [%a2] : (!ori.r64) -> !ori.r32
    %x3 = ori.ldg [%a3] : (!ori.r64) -> !ori.r32
    %s = ori.iadd3 %x0, %x1, %x2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.iadd3 %s, %x3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %r0, %r1, %r2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s1, %s2, %r3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%b], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @combine() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %q = ori.isetp lt.u32 %t, 0x18, PT : (!ori.r32) -> !ori.p
    %p0 = ori.isetp gt.u32 %t, 0x1, PT : (!ori.r32) -> !ori.p
    %p1 = ori.isetp gt.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %p2 = ori.isetp gt.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %a = ori.mov 0x0 : () -> !ori.r32
    %d0 = ori.plop3 %p0, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s0 = ori.sel RZ, 0x1, %d0 : (!ori.p) -> !ori.r32
    %a0 = ori.iadd3 %a, %s0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d1 = ori.plop3 %p1, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s1 = ori.sel RZ, 0x2, %d1 : (!ori.p) -> !ori.r32
    %a1 = ori.iadd3 %a0, %s1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %d2 = ori.plop3 %p2, %q, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %s2 = ori.sel RZ, 0x4, %d2 : (!ori.p) -> !ori.r32
    %a2 = ori.iadd3 %a1, %s2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %b = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %w = ori.imad wide.u32 %t, 0x4, %b : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%w], %a2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @keeps() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %x = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %x, 0x40, PT : (!ori.r32) -> !ori.p
    %y = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %w = ori.shl %y, 0x2 : (!ori.r32) -> !ori.r32
    %s = ori.sel RZ, 0x1, %q : (!ori.p) -> !ori.r32
    %r = ori.iadd3 %w, %s, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
