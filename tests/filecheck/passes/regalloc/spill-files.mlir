// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="P=2;UP=1;UR=1;B=1" remat-enable=false}',ori-check-regalloc -t ori-asm | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="P=2;UP=1;UR=1;B=1" max-regs=16 remat-enable=false pack-predicates=false}',ori-check-regalloc -t ori-asm 2>/dev/null | filecheck %s --check-prefix=LOW
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="P=2;UP=1;UR=1;B=1" max-regs=16 remat-enable=false}',ori-check-regalloc -t ori-asm 2>/dev/null | filecheck %s --check-prefix=PACK
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false max-regs=8 override-directive-values=true smem-spilling=true}',ori-check-regalloc 2>/dev/null | filecheck %s --check-prefix=SMEM
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false max-regs=8 override-directive-values=true}',ori-check-regalloc 2>/dev/null | filecheck %s --check-prefix=LMEM
// RUN: ori-opt %S/Inputs/smem_spilling.ptx -p 'ori-regalloc{sink-definitions=false max-regs=8 override-directive-values=true}',ori-check-regalloc,ori-stats 2>&1 >/dev/null | filecheck %s --check-prefix=PRAGMA
// RUN: not ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="P=1"}' 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: not ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="X=1"}' 2>&1 | filecheck %s --check-prefix=BADOPT
// RUN: ori-opt %s -p 'ori-regalloc{sink-definitions=false force-file-limits="P=2;UP=1;UR=1;B=1" remat-enable=false}' -t ori-asm | sed -n '/^.entry k/,/end k/p' | not grep -E '[ ,](P[2-6]|UP[1-6]|UR[1-9]|B[1-9])[ ,;]'
// (sink-definitions=false: these inputs overflow a register file on purpose; moving
// definitions to their readers, passes/regalloc/sink_defs.py, would relieve them)

// @k keeps four predicates, two uniform predicates, three uniform registers
// and two barrier registers live at once.  Under force-file-limits every file
// is over its limit: P/UP values get a GPR home (P2R ... 0x1 after the
// definition, R2P before each use), UR values go through MOV / R2UR and B
// values through BMOV.32; only P0-P1, UP0, UR0 and B0 are used (the last
// RUN line).  With
// max-regs=16 and one home per predicate (pack-predicates=false) the R
// file spills to local memory as well; packed (the default,
// passes/regalloc/pred_pack.py), the four predicates share one home and
// the two uniform predicates another, and nothing goes to memory.  These RUN lines
// turn remat-enable off: the UR values are constant-bank loads, which the
// allocator would otherwise recompute at their uses (remat.py) instead of
// taking the GPR-home path this test is about.
//
// @s (launch bounds 64 threads) needs 24 live R values; with max-regs=8
// (override-directive-values: ptxas ignores --maxrregcount under launch
// bounds otherwise) and smem-spilling its spills go to shared memory, laid out as ptxas does
// (structure of arrays): a 32-bit slot at per-thread offset o is at
// o * 64 + tid * 4 (IMAD of S2R SR_TID.X by the access width, the slot's
// o * 64 in the STS/LDS immediate), ori.shared_bytes = 64 x the per-thread
// area.  Without smem-spilling the same spills go to local memory.

// CHECK-LABEL: .entry k
// CHECK:      ISETP.LT.U32.AND P[[P:[01]]], PT, [[T:R[0-9]+]], 0x10, PT ;
// CHECK-NEXT: P2R [[H0:R[0-9]+]], RZ, 0x1, P[[P]] ;
// CHECK:      ULDC UR0, c[0x0][0x218] ;
// CHECK-NEXT: MOV [[HU:R[0-9]+]], UR0 ;
// CHECK:      UISETP.LT.U32.AND UP0, UPT, UR0, 0x5, UPT ;
// CHECK-NEXT: P2R [[HQ:R[0-9]+]], RZ, 0x1, UP0 ;
// CHECK:      BMOV.32 B0, [[T]] ;
// CHECK-NEXT: BMOV.32 [[HB:R[0-9]+]], B0 ;
// CHECK:      R2P P[[R:[01]]], [[H0]], 0x1 ;
// CHECK-NEXT: SEL R{{[0-9]+}}, [[T]], 0x1, P[[R]] ;
// CHECK:      R2P UP0, [[HQ]], 0x1 ;
// CHECK-NEXT: SEL R{{[0-9]+}}, R{{[0-9]+}}, 0x5, UP0 ;
// CHECK:      R2UR UR0, [[HU]] ;
// CHECK-NEXT: IADD3 R{{[0-9]+}}, R{{[0-9]+}}, UR0, RZ ;
// CHECK:      BMOV.32 B0, [[HB]] ;
// CHECK-NEXT: BMOV.32 R{{[0-9]+}}, B0 ;
// CHECK:      PLOP3.LUT P{{[01]}}, P{{[01]}}, P{{[01]}}, PT, 0x96 ;
// CHECK-NOT:  {{[ ,](P[2-6]|UP[1-6]|UR[1-9]|B[1-9])[ ,;]}}
// CHECK:      // end k:

// PACK-LABEL: .entry k
// PACK:       P2R [[PH:R[0-9]+]], RZ, 0x1, P0 ;
// PACK-NEXT:  ISETP
// PACK-NEXT:  P2R [[PH]], [[PH]], 0x2, PT, P0 ;
// PACK-NEXT:  ISETP
// PACK-NEXT:  P2R [[PH]], [[PH]], 0x4, PT, PT, P0 ;
// PACK-NEXT:  ISETP
// PACK-NEXT:  P2R [[PH]], [[PH]], 0x8, PT, PT, PT, P0 ;
// PACK:       P2R [[UH:R[0-9]+]], RZ, 0x1, UP0 ;
// PACK:       P2R [[UH]], [[UH]], 0x2, PT, UP0 ;
// PACK:       R2P P0, [[PH]], 0x8 ;
// PACK:       R2P UP0, [[UH]], 0x2 ;
// PACK-NOT:   {{STL|LDL}}
// PACK:       // end k:

// LOW-LABEL: .entry k
// LOW:       STL{{.*}} [RZ
// LOW:       P2R
// LOW:       R2P
// LOW:       LDL{{.*}} [RZ
// LOW:       // end k:

// SMEM:      ori.func kernel @s()
// SMEM-SAME: ori.shared_bytes = [[SH:[0-9]+]] : i32
// SMEM-SAME: ori.smem_spill_threads = 64 : i32
// SMEM-SAME: ori.spill_stores = 0 : i32
// SMEM-SAME: ori.smem_spill_bytes = [[SH]] : i32
// SMEM:      %[[TID:[0-9]+]] = ori.s2r SR_TID.X {ori.smem_spill_base = 0 : i32}
// SMEM-NEXT: %[[B:[0-9]+]] = ori.lea %[[TID]], RZ, 0x2 {ori.smem_spill_base = 1 : i32}
// SMEM-NEXT: ori.sts [%[[B]] + 0x{{[0-9a-f]*}}{{[048c]}}0], %t {ori.spill_value = {{[0-9]+}} : i32}
// SMEM:      ori.lds [%{{[0-9]+}}{{.*}} {ori.spill_value = {{[0-9]+}} : i32}
// SMEM-NOT:  ori.stl

// LMEM:      ori.func kernel @s()
// LMEM-NOT:  ori.shared_bytes
// LMEM-SAME: ori.spill_stores = {{[1-9][0-9]*}} : i32
// LMEM:      ori.stl [RZ

// The PTX of a CUDA kernel with launch bounds and the enable_smem_spilling
// pragma: its spills go to shared memory without the pass option.
// PRAGMA:      Function properties for bounded
// PRAGMA-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PRAGMA-NEXT: Used 8 registers, used 0 barriers, {{[1-9][0-9]*}} bytes smem

// FAIL: Register allocation failed with register count of '1' ({{.*}}ori.plop3{{.*}} needs 2 P registers at once with the reserved ones; the minimum P register count for this function is 2)

// BADOPT: force-file-limits takes FILE=N items (R, UR, P, UP, B), got 'X=1'

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %p0 = ori.isetp lt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    %p1 = ori.isetp ge.u32 %t, 0x4, PT : (!ori.r32) -> !ori.p
    %p2 = ori.isetp ne.u32 %t, 0x7, PT : (!ori.r32) -> !ori.p
    %p3 = ori.isetp eq.u32 %t, 0x3, PT : (!ori.r32) -> !ori.p
    %u0 = ori.ldc 0x0, [RZ + 0x218] : () -> !ori.ur32
    %q0 = ori.isetp lt.u32 %u0, 0x5, UPT : (!ori.ur32) -> !ori.up
    %q1 = ori.isetp gt.u32 %u0, 0x1, UPT : (!ori.ur32) -> !ori.up
    %u1 = ori.mov 0x1234 : () -> !ori.ur32
    %u2 = ori.mov 0x777 : () -> !ori.ur32
    %b0 = ori.bmov %t : (!ori.r32) -> !ori.b
    %b1 = ori.bmov %n : (!ori.r32) -> !ori.b
    %s0 = ori.sel %t, 0x1, %p0 : (!ori.r32, !ori.p) -> !ori.r32
    %s1 = ori.sel %s0, 0x2, %p1 : (!ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %s1, 0x3, %p2 : (!ori.r32, !ori.p) -> !ori.r32
    %s3 = ori.sel %s2, 0x4, %p3 : (!ori.r32, !ori.p) -> !ori.r32
    %s4 = ori.sel %s3, 0x5, %q0 : (!ori.r32, !ori.up) -> !ori.r32
    %s5 = ori.sel %s4, 0x6, %q1 : (!ori.r32, !ori.up) -> !ori.r32
    %s6 = ori.iadd3 %s5, %u0, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %s7 = ori.iadd3 %s6, %u1, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %s8 = ori.iadd3 %s7, %u2, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %r0 = ori.bmov %b0 : (!ori.b) -> !ori.r32
    %r1 = ori.bmov %b1 : (!ori.b) -> !ori.r32
    %s9 = ori.iadd3 %s8, %r0, %r1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %pp = ori.plop3 %p0, %p1, PT, 0x96 : (!ori.p, !ori.p) -> !ori.p
    %s10 = ori.sel %s9, 0x9, %pp : (!ori.r32, !ori.p) -> !ori.r32
    %s11 = ori.sel %s10, 0xa, %p3 : (!ori.r32, !ori.p) -> !ori.r32
    %s12 = ori.sel %s11, 0xb, %q0 : (!ori.r32, !ori.up) -> !ori.r32
    %s13 = ori.iadd3 %s12, %u0, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %s14 = ori.iadd3 %s13, %u2, RZ : (!ori.r32, !ori.ur32) -> !ori.r32
    %r2 = ori.bmov %b0 : (!ori.b) -> !ori.r32
    %r3 = ori.bmov %b1 : (!ori.b) -> !ori.r32
    %s15 = ori.iadd3 %s14, %r2, %r3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x0], %s15 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @s() attributes {params = [#ori.param<8, align 8, at 0x0>], maxntid = array<i32: 64, 1, 1>} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %v0 = ori.imad %t, 0x3, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v1 = ori.imad %t, 0x4, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v2 = ori.imad %t, 0x5, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v3 = ori.imad %t, 0x6, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v4 = ori.imad %t, 0x7, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v5 = ori.imad %t, 0x8, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v6 = ori.imad %t, 0x9, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v7 = ori.imad %t, 0xa, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v8 = ori.imad %t, 0xb, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v9 = ori.imad %t, 0xc, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v10 = ori.imad %t, 0xd, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %v11 = ori.imad %t, 0xe, %t : (!ori.r32, !ori.r32) -> !ori.r32
    %w0 = ori.iadd3 %t, %v0, %v11 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w1 = ori.iadd3 %w0, %v1, %v10 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w2 = ori.iadd3 %w1, %v2, %v9 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w3 = ori.iadd3 %w2, %v3, %v8 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w4 = ori.iadd3 %w3, %v4, %v7 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w5 = ori.iadd3 %w4, %v5, %v6 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w6 = ori.iadd3 %w5, %v6, %v5 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w7 = ori.iadd3 %w6, %v7, %v4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w8 = ori.iadd3 %w7, %v8, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w9 = ori.iadd3 %w8, %v9, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w10 = ori.iadd3 %w9, %v10, %v1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w11 = ori.iadd3 %w10, %v11, %v0 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a + 0x0], %w11 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
