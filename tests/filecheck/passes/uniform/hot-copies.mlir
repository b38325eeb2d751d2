// ori-uniform's copies for values live where the R file is fullest
// (passes/uniform/pressure.py), and the uniform forms of MOV c[][] (ULDC)
// and SHL/SHR (USHF).
// RUN: ori-opt %s -p 'ori-uniform{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-uniform' -t ori-asm | filecheck %s --check-prefix=ASM
// RUN: ori-opt %s -p 'ori-uniform{hot-copies=0}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-uniform{hot-copies=1}' | filecheck %s --check-prefix=ONE
// RUN: not ori-opt %s -p 'ori-uniform{hot-slack=-1}' 2>&1 | filecheck %s --check-prefix=BAD

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
  // REM: ori-uniform: @hot: remark: copies of values live where the R file is fullest lower its largest R count to 4
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
    %a = ori.imad wide.u32 %k, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], RZ : (!ori.r64) -> ()
    %a2 = ori.imad wide.u32 %k, 0x8, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a2], RZ : (!ori.r64) -> ()
    ori.exit
  }
  // REM: ori-uniform: @two_readers: remark: copies of values live where the R file is fullest lower its largest R count to 4

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
  // REM: ori-uniform: @imm: remark: copies of values live where the R file is fullest lower its largest R count to 4
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
}
// BAD: ori-uniform: hot-slack must be 0 or more, got -1
