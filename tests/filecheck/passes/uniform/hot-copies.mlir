// ori-uniform's copies for values live where the R file is fullest
// (passes/uniform/pressure.py), and the uniform forms of MOV c[][] (ULDC)
// and SHL/SHR (USHF).  The small kernels run with hot-goal=registers
// (take copies whenever the largest R count drops); the default goal,
// occupancy, is pinned by @step and @flat (OCC).
// RUN: ori-opt %s -p 'ori-uniform{remarks=true hot-goal=registers}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-uniform{hot-goal=registers}' -t ori-asm | filecheck %s --check-prefix=ASM
// RUN: ori-opt %s -p 'ori-uniform{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OCC
// RUN: not ori-opt %s -p 'ori-uniform{hot-goal=speed}' 2>&1 | filecheck %s --check-prefix=BADGOAL
// RUN: ori-opt %s -p 'ori-uniform{hot-copies=0}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-uniform{hot-copies=1 hot-goal=registers}' | filecheck %s --check-prefix=ONE
// RUN: not ori-opt %s -p 'ori-uniform{hot-slack=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: ori-opt %s -p 'ori-uniform' | filecheck %s --check-prefix=TRADE
// RUN: ori-opt %s -p 'ori-uniform{remarks=true hot-trade=0}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOTRADE
// RUN: not ori-opt %s -p 'ori-uniform{hot-trade=-2}' 2>&1 | filecheck %s --check-prefix=BADTRADE

builtin.module attributes {ori.target = "sm_80"} {
  // %k (CTAID * 16) is live where the R file is fullest (the three
  // IADD3 terms, %t and the pointer pair) and is read only by IMAD.WIDE's
  // first source, which takes no uniform register: one MOV copy right
  // before it takes %k off the R file everywhere else, and the largest
  // count drops by one.  SHL has no uniform form of its own: it moves as USHF.
  // The parameter word %n moves as the ULDC that MOV c[][] becomes; the
  // IADD3 reading c[0x0][0x16c] needs a ULDC added, paid like a copy.
  // CHECK-LABEL: ori.func kernel @hot
  // CHECK:       %[[B:.*]] = ori.s2r SR_CTAID.X : () -> !ori.ur32
  // CHECK-NEXT:  %[[S:.*]] = ori.shf l %[[B]], 0x4, URZ : (!ori.ur32) -> !ori.ur32
  // CHECK-NEXT:  %[[W:.*]] = ori.ldc 0x0, [RZ + 0x16c] : () -> !ori.ur32
  // CHECK-NEXT:  %[[K:.*]] = ori.iadd3 %[[S]], %[[W]], URZ : (!ori.ur32, !ori.ur32) -> !ori.ur32
  // CHECK:       %[[N:.*]] = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
  // CHECK:       ori.iadd3 %{{.*}}, %[[N]], RZ : (!ori.r32, !ori.ur32) -> !ori.r32
  // CHECK:       %[[C:.*]] = ori.mov %[[K]] : (!ori.ur32) -> !ori.r32
  // CHECK-NEXT:  ori.imad wide.u32 %[[C]], 0x4, %{{.*}} : (!ori.r32, !ori.r64) -> !ori.r64
  // ASM-LABEL:   .entry hot
  // ASM:         S2UR [[B:%ur[0-9]+]], SR_CTAID.X ;
  // ASM-NEXT:    USHF.L.U32 [[S:%ur[0-9]+]], [[B]], 0x4, URZ ;
  // ASM-NEXT:    ULDC [[W:%ur[0-9]+]], c[0x0][0x16c] ;
  // ASM-NEXT:    UIADD3 [[K:%ur[0-9]+]], [[S]], [[W]], URZ ;
  // ASM:         ULDC [[N:%ur[0-9]+]], c[0x0][0x168] ;
  // ASM:         MOV [[C:%r[0-9]+]], [[K]] ;
  // ASM-NEXT:    IMAD.WIDE.U32 %r{{[0-9]+}}, [[C]], 0x4, %r{{[0-9]+}} ;
  // OFF-LABEL:   ori.func kernel @hot
  // OFF:         ori.shl %{{.*}}, 0x4 : (!ori.r32) -> !ori.r32
  // OFF-NEXT:    ori.iadd3 %{{.*}}, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
  // OFF:         ori.imad wide.u32 %{{.*}}, 0x4, %{{.*}} : (!ori.r32, !ori.r64) -> !ori.r64
  ori.func kernel @hot() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k0 = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %k = ori.iadd3 %k0, c[0x0][0x16c], RZ : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%base], %s : (!ori.r64, !ori.r32) -> ()
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @hot: remark: copies of values live where the R file is fullest lower its largest R count from 5 to 4
  // REM-NEXT: ori-uniform: @hot: remark: 4 value(s) to the uniform datapath: S2UR x1, UIADD3 x1, ULDC x1, USHF x1; 1 ULDC added, 1 copies

  // The same value read by two GPR-only slots needs two copies: with
  // hot-copies=1 it stays in the R file (so does the SHL computing it).
  // ONE-LABEL:   ori.func kernel @two_readers
  // ONE:         ori.shl %{{.*}}, 0x4 : (!ori.r32) -> !ori.r32
  // CHECK-LABEL: ori.func kernel @two_readers
  // CHECK:       ori.shf l %{{.*}}, 0x4, URZ : (!ori.ur32) -> !ori.ur32
  ori.func kernel @two_readers() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    ori.stg [%base], %s : (!ori.r64, !ori.r32) -> ()
    %pt = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %pt : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], RZ : (!ori.r64) -> ()
    %a2 = ori.imad wide.u32 %k, 0x8, %pt : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a2], RZ : (!ori.r64) -> ()
    ori.exit
  }
  // REM: ori-uniform: @two_readers: remark: copies of values live where the R file is fullest lower its largest R count from 5 to 4

  // Two hot values; with hot-copies=1 only %k moves (%k2 has two readers
  // that need copies).  %y, the source %k2 is computed from, took the copy
  // budget with it, but a copy of %y buys nothing while %k2 stays in the R
  // file: it stays too (the plan is solved again from the hot values that
  // moved).
  // ONE-LABEL:   ori.func kernel @free_rider
  // ONE:         ori.s2r SR_CTAID.X : () -> !ori.ur32
  // ONE:         ori.s2r SR_CTAID.Y : () -> !ori.r32
  // ONE-NEXT:    ori.shl %{{.*}}, 0x3 : (!ori.r32) -> !ori.r32
  ori.func kernel @free_rider() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %y = ori.s2r SR_CTAID.Y : () -> !ori.r32
    %k2 = ori.shl %y, 0x3 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %r1 = ori.shl %k2, %s : (!ori.r32, !ori.r32) -> !ori.r32
    %r2 = ori.shr u32 %k2, %s : (!ori.r32, !ori.r32) -> !ori.r32
    %r3 = ori.shl %k, %s : (!ori.r32, !ori.r32) -> !ori.r32
    %x = ori.iadd3 %r1, %r2, %r3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @free_rider: remark: copies of values live where the R file is fullest lower its largest R count from 6 to 5

  // A hoisted immediate (IMAD.WIDE's constant port holds the pointer, so
  // 0x4 needs a register) live where the file is fullest: the copy next
  // to its reader is the MOV of the immediate itself, and no UR is used.
  // CHECK-LABEL: ori.func kernel @imm
  // CHECK-NOT:   ur32
  // CHECK:       ori.iadd3 %{{.*}}, %{{.*}}, %{{.*}} : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
  // CHECK-NEXT:  %[[F:.*]] = ori.mov 0x4 : () -> !ori.r32
  // CHECK-NEXT:  ori.imad wide %{{.*}}, %[[F]], c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
  // CHECK-NOT:   ur32
  ori.func kernel @imm() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %four = ori.mov 0x4 : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %a = ori.imad wide %t, %four, c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @imm: remark: copies of values live where the R file is fullest lower its largest R count from 5 to 4
  // REM-NEXT: ori-uniform: @imm: remark: nothing moved to the uniform datapath; 1 immediate(s) rematerialized next to their readers (1 MOV)

  // A uniform value read right where the file is fullest: its copy would
  // take the register it frees, so nothing moves.
  // CHECK-LABEL: ori.func kernel @at_peak
  // CHECK:       ori.s2r SR_CTAID.X : () -> !ori.r32
  ori.func kernel @at_peak() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %b, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %s = ori.iadd3 %v0, %v1, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @at_peak: remark: copies of values live where the R file is fullest would not lower its largest R count (6): not taken

  // A loop-carried value shares its copy budget with the values it is
  // joined with: %k, its update %k1 and the value it leaves the loop as
  // (%kx) move together, and the one copy is made after the loop where %kx
  // is read, not on the loop's exit edge (a MOV every iteration).
  // CHECK-LABEL: ori.func kernel @carried
  // CHECK:       ^{{.*}}(%{{.*}}: !ori.ur32, %{{.*}}: !ori.ur32, %{{.*}}: !ori.r32):
  // CHECK:       %[[K1:.*]] = ori.iadd3 %{{.*}}, 0x40, URZ : (!ori.ur32) -> !ori.ur32
  // CHECK:       ori.bra if %{{.*}} : !ori.p, ^{{.*}}(%{{.*}} : !ori.ur32, %[[K1]] : !ori.ur32, %{{.*}} : !ori.r32), ^{{.*}}(%[[K1]] : !ori.ur32, %{{.*}} : !ori.r32)
  // CHECK:       ^{{.*}}(%[[KX:.*]]: !ori.ur32, %{{.*}}: !ori.r32):
  // CHECK-NEXT:  ori.mov %[[KX]] : (!ori.ur32) -> !ori.r32
  ori.func kernel @carried() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>, #ori.param<4, align 4, at 0xc>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^head(%z : !ori.r32, %z : !ori.r32, %t : !ori.r32)
  ^head(%i: !ori.r32, %k: !ori.r32, %acc: !ori.r32):
    %a = ori.iadd3 %acc, 0x1, RZ : (!ori.r32) -> !ori.r32
    %b = ori.imad %acc, 0x3, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %c = ori.lop3 %a, %b, %t, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %acc1 = ori.iadd3 %c, %a, %b : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %k1 = ori.iadd3 %k, 0x40, RZ : (!ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i1, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^head(%i1 : !ori.r32, %k1 : !ori.r32, %acc1 : !ori.r32), ^done(%k1 : !ori.r32, %acc1 : !ori.r32)
  ^done(%kx: !ori.r32, %r: !ori.r32):
    %o = ori.iadd3 %r, c[0x0][0x16c], %kx : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ad = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %o : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // REM: ori-uniform: @carried: remark: 6 value(s) to the uniform datapath: UIADD3 x2, UMOV x1, 3 block argument(s); 0 ULDC added, 2 copies

  // The default goal (occupancy): 26 terms and %k make 27 live R values,
  // an allocation of 30 to 33 registers, at the sm_80 step from 64 to 48
  // warps (32 registers); with %k in a UR it ends at 29 to 32.  With 38
  // terms (41 to 44 registers, 40 warps) one register less stays at 40
  // warps: the copy buys no warp, but it sits outside every loop (it runs
  // once per thread) and buys a register: it is made, as @hot's is (far
  // below the first step).  Copies inside loops that buy no warp are made
  // only at hot-trade (3) registers or more each; @carried's are not.
  // OCC: ori-uniform: @hot: remark: copies of values live where the R file is fullest lower its largest R count from 5 to 4 (no more resident warps, but 1 register for 1 copy)
  // NOTRADE: ori-uniform: @hot: remark: copies not tried: 5 live R registers already allow the most resident warps
  // OCC: ori-uniform: @step: remark: copies of values live where the R file is fullest lower its largest R count from 27 to 26
  // OCC: ori-uniform: @flat: remark: copies of values live where the R file is fullest lower its largest R count from 39 to 38 (no more resident warps, but 1 register for 1 copy)
  ori.func kernel @step() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v16 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v17 = ori.iadd3 %t, 0x11, RZ : (!ori.r32) -> !ori.r32
    %v18 = ori.iadd3 %t, 0x12, RZ : (!ori.r32) -> !ori.r32
    %v19 = ori.iadd3 %t, 0x13, RZ : (!ori.r32) -> !ori.r32
    %v20 = ori.iadd3 %t, 0x14, RZ : (!ori.r32) -> !ori.r32
    %v21 = ori.iadd3 %t, 0x15, RZ : (!ori.r32) -> !ori.r32
    %v22 = ori.iadd3 %t, 0x16, RZ : (!ori.r32) -> !ori.r32
    %v23 = ori.iadd3 %t, 0x17, RZ : (!ori.r32) -> !ori.r32
    %v24 = ori.iadd3 %t, 0x18, RZ : (!ori.r32) -> !ori.r32
    %v25 = ori.iadd3 %t, 0x19, RZ : (!ori.r32) -> !ori.r32
    %v26 = ori.iadd3 %t, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %v1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s26 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @flat() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v16 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v17 = ori.iadd3 %t, 0x11, RZ : (!ori.r32) -> !ori.r32
    %v18 = ori.iadd3 %t, 0x12, RZ : (!ori.r32) -> !ori.r32
    %v19 = ori.iadd3 %t, 0x13, RZ : (!ori.r32) -> !ori.r32
    %v20 = ori.iadd3 %t, 0x14, RZ : (!ori.r32) -> !ori.r32
    %v21 = ori.iadd3 %t, 0x15, RZ : (!ori.r32) -> !ori.r32
    %v22 = ori.iadd3 %t, 0x16, RZ : (!ori.r32) -> !ori.r32
    %v23 = ori.iadd3 %t, 0x17, RZ : (!ori.r32) -> !ori.r32
    %v24 = ori.iadd3 %t, 0x18, RZ : (!ori.r32) -> !ori.r32
    %v25 = ori.iadd3 %t, 0x19, RZ : (!ori.r32) -> !ori.r32
    %v26 = ori.iadd3 %t, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %v27 = ori.iadd3 %t, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %v28 = ori.iadd3 %t, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %v29 = ori.iadd3 %t, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %v30 = ori.iadd3 %t, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %v31 = ori.iadd3 %t, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %v32 = ori.iadd3 %t, 0x20, RZ : (!ori.r32) -> !ori.r32
    %v33 = ori.iadd3 %t, 0x21, RZ : (!ori.r32) -> !ori.r32
    %v34 = ori.iadd3 %t, 0x22, RZ : (!ori.r32) -> !ori.r32
    %v35 = ori.iadd3 %t, 0x23, RZ : (!ori.r32) -> !ori.r32
    %v36 = ori.iadd3 %t, 0x24, RZ : (!ori.r32) -> !ori.r32
    %v37 = ori.iadd3 %t, 0x25, RZ : (!ori.r32) -> !ori.r32
    %v38 = ori.iadd3 %t, 0x26, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %v1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s34 = ori.iadd3 %s33, %v34, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s35 = ori.iadd3 %s34, %v35, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s36 = ori.iadd3 %s35, %v36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s37 = ori.iadd3 %s36, %v37, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s38 = ori.iadd3 %s37, %v38, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s38 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // @flat with a call: values live across it avoid the callee's registers,
  // so the allocation may land further above the live count than the
  // occupancy estimate allows for; the copy is taken by the count alone.
  // OCC: ori-uniform: @flat_calls: remark: copies of values live where the R file is fullest lower its largest R count from 39 to 38 (the kernel calls: judged by the count, not by resident warps)
  ori.func @leaf(%x: !ori.r32) -> !ori.r32 {
    %y = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret %y : !ori.r32
  }
  ori.func kernel @flat_calls() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t0 = ori.s2r SR_TID.X : () -> !ori.r32
    %t = ori.call @leaf(%t0) : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v16 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v17 = ori.iadd3 %t, 0x11, RZ : (!ori.r32) -> !ori.r32
    %v18 = ori.iadd3 %t, 0x12, RZ : (!ori.r32) -> !ori.r32
    %v19 = ori.iadd3 %t, 0x13, RZ : (!ori.r32) -> !ori.r32
    %v20 = ori.iadd3 %t, 0x14, RZ : (!ori.r32) -> !ori.r32
    %v21 = ori.iadd3 %t, 0x15, RZ : (!ori.r32) -> !ori.r32
    %v22 = ori.iadd3 %t, 0x16, RZ : (!ori.r32) -> !ori.r32
    %v23 = ori.iadd3 %t, 0x17, RZ : (!ori.r32) -> !ori.r32
    %v24 = ori.iadd3 %t, 0x18, RZ : (!ori.r32) -> !ori.r32
    %v25 = ori.iadd3 %t, 0x19, RZ : (!ori.r32) -> !ori.r32
    %v26 = ori.iadd3 %t, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %v27 = ori.iadd3 %t, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %v28 = ori.iadd3 %t, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %v29 = ori.iadd3 %t, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %v30 = ori.iadd3 %t, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %v31 = ori.iadd3 %t, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %v32 = ori.iadd3 %t, 0x20, RZ : (!ori.r32) -> !ori.r32
    %v33 = ori.iadd3 %t, 0x21, RZ : (!ori.r32) -> !ori.r32
    %v34 = ori.iadd3 %t, 0x22, RZ : (!ori.r32) -> !ori.r32
    %v35 = ori.iadd3 %t, 0x23, RZ : (!ori.r32) -> !ori.r32
    %v36 = ori.iadd3 %t, 0x24, RZ : (!ori.r32) -> !ori.r32
    %v37 = ori.iadd3 %t, 0x25, RZ : (!ori.r32) -> !ori.r32
    %v38 = ori.iadd3 %t, 0x26, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %v1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s34 = ori.iadd3 %s33, %v34, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s35 = ori.iadd3 %s34, %v35, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s36 = ori.iadd3 %s35, %v36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s37 = ori.iadd3 %s36, %v37, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s38 = ori.iadd3 %s37, %v38, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s38 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Launch bounds: with 37 terms the count crosses the 40-register step
  // (48 warps against 40 per SM, per warp), so @unbounded takes the copy;
  // @bounded runs 1024-thread blocks (.reqntid), and one such block fits an
  // SM on either side of the step: 32 warps both ways, and the remark says
  // the copy reaches no more warps (it is made all the same: one copy
  // outside loops for one register).
  // OCC: ori-uniform: @unbounded: remark: copies of values live where the R file is fullest lower its largest R count from 38 to 37
  // OCC: ori-uniform: @bounded: remark: copies of values live where the R file is fullest lower its largest R count from 38 to 37 (no more resident warps, but 1 register for 1 copy)
  ori.func kernel @unbounded() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v16 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v17 = ori.iadd3 %t, 0x11, RZ : (!ori.r32) -> !ori.r32
    %v18 = ori.iadd3 %t, 0x12, RZ : (!ori.r32) -> !ori.r32
    %v19 = ori.iadd3 %t, 0x13, RZ : (!ori.r32) -> !ori.r32
    %v20 = ori.iadd3 %t, 0x14, RZ : (!ori.r32) -> !ori.r32
    %v21 = ori.iadd3 %t, 0x15, RZ : (!ori.r32) -> !ori.r32
    %v22 = ori.iadd3 %t, 0x16, RZ : (!ori.r32) -> !ori.r32
    %v23 = ori.iadd3 %t, 0x17, RZ : (!ori.r32) -> !ori.r32
    %v24 = ori.iadd3 %t, 0x18, RZ : (!ori.r32) -> !ori.r32
    %v25 = ori.iadd3 %t, 0x19, RZ : (!ori.r32) -> !ori.r32
    %v26 = ori.iadd3 %t, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %v27 = ori.iadd3 %t, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %v28 = ori.iadd3 %t, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %v29 = ori.iadd3 %t, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %v30 = ori.iadd3 %t, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %v31 = ori.iadd3 %t, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %v32 = ori.iadd3 %t, 0x20, RZ : (!ori.r32) -> !ori.r32
    %v33 = ori.iadd3 %t, 0x21, RZ : (!ori.r32) -> !ori.r32
    %v34 = ori.iadd3 %t, 0x22, RZ : (!ori.r32) -> !ori.r32
    %v35 = ori.iadd3 %t, 0x23, RZ : (!ori.r32) -> !ori.r32
    %v36 = ori.iadd3 %t, 0x24, RZ : (!ori.r32) -> !ori.r32
    %v37 = ori.iadd3 %t, 0x25, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %v1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s34 = ori.iadd3 %s33, %v34, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s35 = ori.iadd3 %s34, %v35, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s36 = ori.iadd3 %s35, %v36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s37 = ori.iadd3 %s36, %v37, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s37 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @bounded() attributes {params = [#ori.param<8, align 8, at 0x0>], reqntid = array<i32: 1024>} {
    %b = ori.s2r SR_CTAID.X : () -> !ori.r32
    %k = ori.shl %b, 0x4 : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v1 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v4 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %v5 = ori.iadd3 %t, 0x5, RZ : (!ori.r32) -> !ori.r32
    %v6 = ori.iadd3 %t, 0x6, RZ : (!ori.r32) -> !ori.r32
    %v7 = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %v8 = ori.iadd3 %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    %v9 = ori.iadd3 %t, 0x9, RZ : (!ori.r32) -> !ori.r32
    %v10 = ori.iadd3 %t, 0xa, RZ : (!ori.r32) -> !ori.r32
    %v11 = ori.iadd3 %t, 0xb, RZ : (!ori.r32) -> !ori.r32
    %v12 = ori.iadd3 %t, 0xc, RZ : (!ori.r32) -> !ori.r32
    %v13 = ori.iadd3 %t, 0xd, RZ : (!ori.r32) -> !ori.r32
    %v14 = ori.iadd3 %t, 0xe, RZ : (!ori.r32) -> !ori.r32
    %v15 = ori.iadd3 %t, 0xf, RZ : (!ori.r32) -> !ori.r32
    %v16 = ori.iadd3 %t, 0x10, RZ : (!ori.r32) -> !ori.r32
    %v17 = ori.iadd3 %t, 0x11, RZ : (!ori.r32) -> !ori.r32
    %v18 = ori.iadd3 %t, 0x12, RZ : (!ori.r32) -> !ori.r32
    %v19 = ori.iadd3 %t, 0x13, RZ : (!ori.r32) -> !ori.r32
    %v20 = ori.iadd3 %t, 0x14, RZ : (!ori.r32) -> !ori.r32
    %v21 = ori.iadd3 %t, 0x15, RZ : (!ori.r32) -> !ori.r32
    %v22 = ori.iadd3 %t, 0x16, RZ : (!ori.r32) -> !ori.r32
    %v23 = ori.iadd3 %t, 0x17, RZ : (!ori.r32) -> !ori.r32
    %v24 = ori.iadd3 %t, 0x18, RZ : (!ori.r32) -> !ori.r32
    %v25 = ori.iadd3 %t, 0x19, RZ : (!ori.r32) -> !ori.r32
    %v26 = ori.iadd3 %t, 0x1a, RZ : (!ori.r32) -> !ori.r32
    %v27 = ori.iadd3 %t, 0x1b, RZ : (!ori.r32) -> !ori.r32
    %v28 = ori.iadd3 %t, 0x1c, RZ : (!ori.r32) -> !ori.r32
    %v29 = ori.iadd3 %t, 0x1d, RZ : (!ori.r32) -> !ori.r32
    %v30 = ori.iadd3 %t, 0x1e, RZ : (!ori.r32) -> !ori.r32
    %v31 = ori.iadd3 %t, 0x1f, RZ : (!ori.r32) -> !ori.r32
    %v32 = ori.iadd3 %t, 0x20, RZ : (!ori.r32) -> !ori.r32
    %v33 = ori.iadd3 %t, 0x21, RZ : (!ori.r32) -> !ori.r32
    %v34 = ori.iadd3 %t, 0x22, RZ : (!ori.r32) -> !ori.r32
    %v35 = ori.iadd3 %t, 0x23, RZ : (!ori.r32) -> !ori.r32
    %v36 = ori.iadd3 %t, 0x24, RZ : (!ori.r32) -> !ori.r32
    %v37 = ori.iadd3 %t, 0x25, RZ : (!ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %v1, %v2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.iadd3 %s3, %v4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.iadd3 %s4, %v5, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.iadd3 %s5, %v6, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %v7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %v8, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.iadd3 %s8, %v9, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.iadd3 %s9, %v10, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.iadd3 %s10, %v11, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.iadd3 %s11, %v12, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.iadd3 %s12, %v13, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %v14, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.iadd3 %s14, %v15, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.iadd3 %s15, %v16, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.iadd3 %s16, %v17, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s18 = ori.iadd3 %s17, %v18, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s19 = ori.iadd3 %s18, %v19, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s20 = ori.iadd3 %s19, %v20, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s21 = ori.iadd3 %s20, %v21, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s22 = ori.iadd3 %s21, %v22, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s23 = ori.iadd3 %s22, %v23, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s24 = ori.iadd3 %s23, %v24, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s25 = ori.iadd3 %s24, %v25, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s26 = ori.iadd3 %s25, %v26, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s27 = ori.iadd3 %s26, %v27, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s28 = ori.iadd3 %s27, %v28, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s29 = ori.iadd3 %s28, %v29, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s30 = ori.iadd3 %s29, %v30, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s31 = ori.iadd3 %s30, %v31, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s32 = ori.iadd3 %s31, %v32, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s33 = ori.iadd3 %s32, %v33, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s34 = ori.iadd3 %s33, %v34, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s35 = ori.iadd3 %s34, %v35, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s36 = ori.iadd3 %s35, %v36, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s37 = ori.iadd3 %s36, %v37, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s37 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Far below the first occupancy step, copies are still taken where each
  // buys hot-trade (3) or more registers: a key schedule (philox_rand's
  // shape) computed from one parameter word %s and read by two streams.
  // Its IMAD.HI has no uniform form: it moves as UIMAD.WIDE's high word
  // (ptxas: `UIMAD.WIDE.U32 UR4, UR7, -0x2daee0ad, URZ`).  LOP3 takes the
  // UR in b, its sources swapped (the table permuted with them; 0x96 is
  // symmetric).  %y1 reads two keys: one copy.  4 registers for 1 copy.
  // TRADE-LABEL: ori.func kernel @trade
  // TRADE:       %[[S:.*]] = ori.ldc 0x0, [RZ + 0x168] : () -> !ori.ur32
  // TRADE-NEXT:  %[[H:.*]] = ori.imad wide.u32 %[[S]], -0x2daee0ad, URZ : (!ori.ur32) -> !ori.ur64
  // TRADE-NEXT:  %{{.*}}, %[[HI:.*]] = ori.unpack %[[H]] : (!ori.ur64) -> (!ori.ur32, !ori.ur32)
  // TRADE:       ori.lop3 %[[T:.*]], %[[HI]], %[[T]], 0x96 : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
  // TRADE:       %[[C:.*]] = ori.mov %k2 : (!ori.ur32) -> !ori.r32
  // TRADE-NEXT:  ori.lop3 %{{.*}}, %k1, %[[C]], 0x96 : (!ori.r32, !ori.ur32, !ori.r32) -> !ori.r32
  // OCC:         ori-uniform: @trade: remark: copies of values live where the R file is fullest lower its largest R count from 9 to 5 (no more resident warps, but 4 registers for 1 copy)
  // NOTRADE:     ori-uniform: @trade: remark: copies not tried: 9 live R registers already allow the most resident warps
  // NOTRADE-NEXT: ori-uniform: @trade: remark: nothing moved to the uniform datapath
  ori.func kernel @trade() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %s = ori.mov c[0x0][0x168] : () -> !ori.r32
    %h = ori.imad hi.u32 %s, -0x2daee0ad, RZ : (!ori.r32) -> !ori.r32
    %k1 = ori.iadd3 %s, 0x1111, RZ : (!ori.r32) -> !ori.r32
    %k2 = ori.iadd3 %s, 0x2222, RZ : (!ori.r32) -> !ori.r32
    %k3 = ori.iadd3 %s, 0x3333, RZ : (!ori.r32) -> !ori.r32
    %k4 = ori.iadd3 %s, 0x4444, RZ : (!ori.r32) -> !ori.r32
    %k5 = ori.iadd3 %s, 0x5555, RZ : (!ori.r32) -> !ori.r32
    %k6 = ori.iadd3 %s, 0x6666, RZ : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %x0 = ori.lop3 %t, %t, %h, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x1 = ori.lop3 %x0, %t, %k1, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x2 = ori.lop3 %x1, %t, %k2, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x3 = ori.lop3 %x2, %t, %k3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x4 = ori.lop3 %x3, %t, %k4, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x5 = ori.lop3 %x4, %t, %k5, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x6 = ori.lop3 %x5, %t, %k6, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %y1 = ori.lop3 %u, %k1, %k2, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y2 = ori.lop3 %y1, %u, %k3, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y3 = ori.lop3 %y2, %u, %k4, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y4 = ori.lop3 %y3, %u, %k5, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y5 = ori.lop3 %y4, %u, %k6, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %x6 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a], %y5 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  // A 64-bit uniform value live where the R file is fullest may take
  // copies outside loops, two MOVs each (argmax_rows' output pointer: ptxas
  // keeps it in UR4:UR5 and copies it with two `IMAD.U32` before the STG);
  // @hot's %base, read right after it is loaded, stays in the R file.
  // CHECK-LABEL: ori.func kernel @wide
  // CHECK:       %[[OUT:.*]] = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.ur64
  // CHECK:       %[[LO:.*]], %[[HI:.*]] = ori.unpack %[[OUT]] : (!ori.ur64) -> (!ori.ur32, !ori.ur32)
  // CHECK-NEXT:  %[[L:.*]] = ori.mov %[[LO]] : (!ori.ur32) -> !ori.r32
  // CHECK-NEXT:  %[[H:.*]] = ori.mov %[[HI]] : (!ori.ur32) -> !ori.r32
  // CHECK-NEXT:  %[[P:.*]] = ori.pack %[[L]], %[[H]] : (!ori.r32, !ori.r32) -> !ori.r64
  // CHECK-NEXT:  ori.stg [%[[P]]], %{{.*}} : (!ori.r64, !ori.r32) -> ()
  // REM:         ori-uniform: @wide: remark: copies of values live where the R file is fullest lower its largest R count from 7 to 5
  // OFF-LABEL:   ori.func kernel @wide
  // OFF:         ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
  ori.func kernel @wide() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v3 = ori.iadd3 %t, 0x4, RZ : (!ori.r32) -> !ori.r32
    %s0 = ori.iadd3 %v0, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s = ori.iadd3 %s0, %v3, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // A copy outside every loop need buy only one register (dhorner's
  // shape): the loop counter %n moves to the uniform datapath with its
  // first value, the ULDC of the degree word, whose other reader
  // (IMAD.WIDE's a, which takes no UR) reads it through one MOV before
  // the loop; the loop's ISETP takes the counter in b with the comparison
  // mirrored and 0 as RZ (ptxas: `ISETP.LT.AND P0, PT, RZ, UR6, PT`).  No
  // instruction is added inside the loop.
  // TRADE-LABEL: ori.func kernel @once
  // TRADE:       %[[D:.*]] = ori.ldc 0x0, [RZ + 0x170] : () -> !ori.ur32
  // TRADE:       %[[N0:.*]] = ori.iadd3 %[[D]], 0x1, URZ : (!ori.ur32) -> !ori.ur32
  // TRADE:       %[[C:.*]] = ori.mov %[[D]] : (!ori.ur32) -> !ori.r32
  // TRADE-NEXT:  ori.imad wide %[[C]], %{{.*}}, c[0x0][0x168] : (!ori.r32, !ori.r32) -> !ori.r64
  // TRADE:       ^bb3(%{{.*}}: !ori.r64, %{{.*}}: !ori.r64, %[[N:.*]]: !ori.ur32):
  // TRADE-NOT:   ori.mov
  // TRADE:       %[[M:.*]] = ori.iadd3 %[[N]], -0x1, URZ : (!ori.ur32) -> !ori.ur32
  // TRADE-NEXT:  ori.isetp lt RZ, %[[M]], PT : (!ori.ur32) -> !ori.p
  // OCC:         ori-uniform: @once: remark: copies of values live where the R file is fullest lower its largest R count from 10 to 9 (no more resident warps, but 1 register for 1 copy)
  ori.func kernel @once() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<4, align 4, at 0x10>, #ori.param<8, align 8, at 0x18>, #ori.param<4, align 4, at 0x20>]} {
    %deg = ori.ldc 0x0, [RZ + 0x170] : () -> !ori.r32
    %cta = ori.s2r SR_CTAID.X : () -> !ori.r32
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %i = ori.imad %cta, c[0x0][0x0], %tid : (!ori.r32, !ori.r32) -> !ori.r32
    %out = ori.isetp ge %i, c[0x0][0x180], PT : (!ori.r32) -> !ori.p
    ori.bra if %out : !ori.p, ^bb5, ^bb1
  ^bb1:
    %none = ori.isetp gt RZ, c[0x0][0x170], PT : () -> !ori.p
    %zero = ori.pack RZ, 0x0 : () -> !ori.r64
    ori.bra if %none : !ori.p, ^bb4(%zero : !ori.r64), ^bb2
  ^bb2:
    %xl, %xc = ori.lea %i, c[0x0][0x160], 0x3 : (!ori.r32) -> (!ori.r32, !ori.p)
    %xh = ori.lea_hi_sx32 x %i, c[0x0][0x164], 0x3, %xc : (!ori.r32, !ori.p) -> !ori.r32
    %xp = ori.pack %xl, %xh : (!ori.r32, !ori.r32) -> !ori.r64
    %x = ori.ldg b64 [%xp] : (!ori.r64) -> !ori.r64
    %n0 = ori.iadd3 %deg, 0x1, RZ : (!ori.r32) -> !ori.r32
    %eight = ori.mov 0x8 : () -> !ori.r32
    %p0 = ori.imad wide %deg, %eight, c[0x0][0x168] : (!ori.r32, !ori.r32) -> !ori.r64
    %acc0 = ori.pack RZ, 0x0 : () -> !ori.r64
    ori.bra ^bb3(%p0 : !ori.r64, %acc0 : !ori.r64, %n0 : !ori.r32)
  ^bb3(%p: !ori.r64, %acc: !ori.r64, %n: !ori.r32):
    %c = ori.ldg b64 [%p] : (!ori.r64) -> !ori.r64
    %acc1 = ori.dfma %acc, %x, %c : (!ori.r64, !ori.r64, !ori.r64) -> !ori.r64
    %pl, %ph = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %ql, %qc = ori.iadd3 %pl, -0x8, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %qh = ori.iadd3 x %ph, -0x1, RZ, %qc : (!ori.r32, !ori.p) -> !ori.r32
    %q = ori.pack %ql, %qh : (!ori.r32, !ori.r32) -> !ori.r64
    %m = ori.iadd3 %n, -0x1, RZ : (!ori.r32) -> !ori.r32
    %more = ori.isetp gt %m, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^bb3(%q : !ori.r64, %acc1 : !ori.r64, %m : !ori.r32), ^bb4(%acc1 : !ori.r64)
  ^bb4(%res: !ori.r64):
    %ol, %oc = ori.lea %i, c[0x0][0x178], 0x3 : (!ori.r32) -> (!ori.r32, !ori.p)
    %oh = ori.lea_hi_sx32 x %i, c[0x0][0x17c], 0x3, %oc : (!ori.r32, !ori.p) -> !ori.r32
    %op = ori.pack %ol, %oh : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg b64 [%op], %res : (!ori.r64, !ori.r64) -> ()
    ori.bra ^bb5
  ^bb5:
    ori.exit
  }

  // Where the hot set's plan does not make the trade, a plan copying one
  // hot value may (argmax_rows' shape): moving %out and %k takes 8 -> 6
  // live R registers for six copies (%k, a scaled parameter word, is read
  // by four IMAD.WIDE a slots, which take no UR); %out alone reaches 6 for
  // its two copies, outside every loop, one register each.
  // hot-goal=registers takes both.
  // TRADE-LABEL: ori.func kernel @one_value
  // TRADE:       ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.ur64
  // TRADE-NEXT:  ori.mov c[0x0][0x170] : () -> !ori.r32
  // TRADE-NEXT:  ori.shf l %{{.*}}, 0x2, RZ : (!ori.r32) -> !ori.r32
  // OCC:         ori-uniform: @one_value: remark: copies of values live where the R file is fullest lower its largest R count from 8 to 6 (no more resident warps, but 2 registers for 2 copies)
  // REM:         ori-uniform: @one_value: remark: copies of values live where the R file is fullest lower its largest R count from 8 to 6
  // REM-NEXT:    ori-uniform: @one_value: remark: 3 value(s) to the uniform datapath: ULDC x2, USHF x1; 0 ULDC added, 6 copies
  // NOTRADE:     ori-uniform: @one_value: remark: copies not tried: 8 live R registers already allow the most resident warps
  ori.func kernel @one_value() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>, #ori.param<4, align 4, at 0x10>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %w = ori.mov c[0x0][0x170] : () -> !ori.r32
    %k = ori.shf l %w, 0x2, RZ : (!ori.r32) -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %v0 = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t, 0x2, RZ : (!ori.r32) -> !ori.r32
    %v2 = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %a0 = ori.imad wide %k, %v0, c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
    %l0 = ori.ldg [%a0] : (!ori.r64) -> !ori.r32
    %a1 = ori.imad wide %k, %v1, c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
    %l1 = ori.ldg [%a1] : (!ori.r64) -> !ori.r32
    %a2 = ori.imad wide %k, %v2, c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
    %l2 = ori.ldg [%a2] : (!ori.r64) -> !ori.r32
    %a3 = ori.imad wide %k, %t, c[0x0][0x160] : (!ori.r32, !ori.r32) -> !ori.r64
    %l3 = ori.ldg [%a3] : (!ori.r64) -> !ori.r32
    %s0 = ori.iadd3 %l0, %l1, %l2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s = ori.iadd3 %s0, %l3, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
// BAD: ori-uniform: hot-slack must be 0 or more, got -1
// BADTRADE: ori-uniform: hot-trade must be 0 or more, got -2
// BADGOAL: ori-uniform: hot-goal must be one of occupancy, registers, got 'speed'
