// Values live across a call recomputed after it (passes/regalloc/
// call_remat.py, ori-regalloc{call-remat}).  @recompute: the two addresses
// the kernel keeps across @mix sit above mix's registers (R4-R9, R0, R3);
// computed again after the call (an LDC and an IMAD.WIDE each, the LDC
// cloned with it) only the thread index crosses the call: 16 -> 12
// registers for 4 instructions.  @loop: the address is read again before
// the call on the next iteration, so it stays live across the call
// whatever a clone does: left alone.  @twice: a device function keeps
// x + y and x + 7 across the call, above @mix's registers; recomputed from
// x and y (live across it anyway) the function needs 15 -> 13 registers
// for as many instructions (the copies into @mix's parameters are gone).
// RUN: ori-opt %s --split-input-file -p 'ori-abi,ori-regalloc,ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-abi,ori-regalloc{call-remat=false},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=OFF

// CHECK:       @recompute: remark: recomputed 2 values live across calls after them (call-remat): 16 -> 12 registers
// CHECK-LABEL: .entry recompute
// CHECK:         CALL.REL.NOINC `(mix) ;
// CHECK-NEXT:    // MOV R4, R4 ;  no instruction: in place
// CHECK-NEXT:    LDC.64 [[P:R[0-9]+]], c[0x0][0x160] ;
// CHECK-NEXT:    IMAD.WIDE.U32 [[A:R[0-9]+]], R2, 0x4, [[P]] ;
// CHECK-NEXT:    LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK:         LDC.64 [[Q:R[0-9]+]], c[0x0][0x168] ;
// CHECK-NEXT:    IMAD.WIDE.U32 [[B:R[0-9]+]], R2, 0x4, [[Q]] ;
// CHECK-NEXT:    STG.E {{\[}}[[B]].64], R{{[0-9]+}} ;
// CHECK:       end recompute: 20 instructions
// OFF-NOT:     remark
// OFF-LABEL:   .entry recompute
// OFF:           IMAD.WIDE.U32 R10, R2, 0x4, R{{[0-9]+}} ;
// OFF:           IMAD.WIDE.U32 R12, R2, 0x4, R{{[0-9]+}} ;
// OFF:         end recompute: 16 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @mix(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %d: !ori.r32, %e: !ori.r32, %f: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %s = ori.iadd3 %a, %b, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %d, %e, %f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %m = ori.imad %s, %t, %a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %n = ori.lop3 %m, %b, %f, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %n : !ori.r32
  }
  ori.func kernel @recompute() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %q = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %b = ori.imad wide.u32 %t, 0x4, %q : (!ori.r32, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %y = ori.ldg [%b] : (!ori.r64) -> !ori.r32
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %r = ori.call @mix(%x, %y, %k, %t, %x, %y) : (!ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %x2 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %z = ori.iadd3 %r, %x2, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%b], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// CHECK-NOT:   @loop: remark
// CHECK-LABEL: .entry loop
// CHECK:         IMAD.WIDE.U32 [[A:R[0-9]+]], R{{[0-9]+}}, 0x4, R{{[0-9]+}} ;
// CHECK:       .L_x_1:
// CHECK-NEXT:    LDG.E R{{[0-9]+}}, {{\[}}[[A]].64] ;
// CHECK-NOT:     IMAD.WIDE
// CHECK:         STG.E {{\[}}[[A]].64], R{{[0-9]+}} ;
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @mix(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %d: !ori.r32, %e: !ori.r32, %f: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %s = ori.iadd3 %a, %b, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %d, %e, %f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %m = ori.imad %s, %t, %a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %n = ori.lop3 %m, %b, %f, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %n : !ori.r32
  }
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i: !ori.r32, %acc: !ori.r32):
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %r = ori.call @mix(%x, %i, %acc, %t, %x, %i) : (!ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %c = ori.isetp lt %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %c : !ori.p, ^bb1(%i2 : !ori.r32, %r : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----

// CHECK:       @twice: remark: recomputed 2 values live across calls after them (call-remat): 15 -> 13 registers
// CHECK-LABEL: .func twice
// CHECK:         CALL.REL.NOINC `(mix) ;
// CHECK-NEXT:    // MOV R4, R4 ;  no instruction: in place
// CHECK-NEXT:    IADD3 R{{[0-9]+}}, [[X:R[0-9]+]], 0x7, RZ ;
// CHECK-NEXT:    IADD3 R{{[0-9]+}}, [[X]], [[Y:R[0-9]+]], RZ ;
// CHECK:       end twice: 20 instructions
// OFF-LABEL:   .func twice
// OFF:           IADD3 [[K:R[0-9]+]], R10, 0x7, RZ ;
// OFF:           CALL.REL.NOINC `(mix) ;
// OFF-NEXT:      // MOV R4, R4 ;  no instruction: in place
// OFF-NEXT:      IADD3 R0, R2, [[K]], R4 ;
// OFF:         end twice: 20 instructions
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @mix(%a: !ori.r32, %b: !ori.r32, %c: !ori.r32, %d: !ori.r32, %e: !ori.r32, %f: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>, #ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %s = ori.iadd3 %a, %b, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %d, %e, %f : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %m = ori.imad %s, %t, %a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %n = ori.lop3 %m, %b, %f, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %n : !ori.r32
  }
  ori.func @twice(%x: !ori.r32, %y: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %k = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %x, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.call @mix(%x, %y, %k, %s, %x, %y) : (!ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %k, %r : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.lop3 %s2, %x, %y, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s3 : !ori.r32
  }
  ori.func kernel @top() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %x = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %r = ori.call @twice(%x, %t) : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
