// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{sink-definitions=false stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s
// (sink-definitions=false: the listings below pin values live across calls;
// passes/regalloc/sink_defs.py would compute some of them after the calls)

// A recursive function that spills (passes/regalloc/frame.py): @deep keeps
// %x and 18 values computed from it live across its own call.  The preserved
// registers R2, R16-R19 and R22-R31 hold 15 of them (saved in the prologue);
// the rest are spilled around the call.  Every activation has its own
// frame below R1, so the spill slots and the saves are [R1+..] and the
// frame covers them: IADD3 R1, R1, -size first, IADD3 R1, R1, size before
// each RET.  ori-check-regalloc proves every reload reads its own store;
// tests/passes/abi/test_callee_saves.py runs it in the physical interpreter.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @deep(%n: !ori.r32, %x: !ori.r32) -> !ori.r32 {
    %p = ori.isetp lt %n, 0x1, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^done, ^rec
  ^rec:
    %a0 = ori.imad %x, 0x3, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a1 = ori.imad %x, 0x5, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a2 = ori.imad %x, 0x7, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a3 = ori.imad %x, 0x9, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a4 = ori.imad %x, 0xb, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a5 = ori.imad %x, 0xd, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a6 = ori.imad %x, 0xf, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a7 = ori.imad %x, 0x11, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a8 = ori.imad %x, 0x13, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a9 = ori.imad %x, 0x15, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a10 = ori.imad %x, 0x17, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %x, 0x19, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %x, 0x1b, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %x, 0x1d, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %x, 0x1f, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %x, 0x21, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %x, 0x23, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %x, 0x25, %n : (!ori.r32, !ori.r32) -> !ori.r32
    %m = ori.iadd3 %n, 0xffffffff, RZ : (!ori.r32) -> !ori.r32
    %y = ori.lop3 %x, %a0, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.call @deep(%m, %y) : (!ori.r32, !ori.r32) -> !ori.r32
    %s0 = ori.lop3 %r, %a0, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.lop3 %s0, %a1, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.lop3 %s1, %a2, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.lop3 %s2, %a3, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s4 = ori.lop3 %s3, %a4, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s5 = ori.lop3 %s4, %a5, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s6 = ori.lop3 %s5, %a6, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s7 = ori.lop3 %s6, %a7, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s8 = ori.lop3 %s7, %a8, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s9 = ori.lop3 %s8, %a9, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s10 = ori.lop3 %s9, %a10, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s11 = ori.lop3 %s10, %a11, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s12 = ori.lop3 %s11, %a12, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s13 = ori.lop3 %s12, %a13, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s14 = ori.lop3 %s13, %a14, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s15 = ori.lop3 %s14, %a15, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s16 = ori.lop3 %s15, %a16, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s17 = ori.lop3 %s16, %a17, %x, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s17 : !ori.r32
  ^done:
    ori.ret %x : !ori.r32
  }
  ori.func kernel @caller() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %n = ori.lop3 %t, 0x3, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %v = ori.call @deep(%n, %t) : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Function properties for deep
// CHECK-NEXT:     88 bytes stack frame, 84 bytes spill stores, {{[0-9]+}} bytes spill loads
// CHECK:      ori info      : Function deep must save R2, R16-R31

// CHECK-LABEL: .func deep(R4, R5) -> (r32)
// CHECK-NEXT:  .L_x_0:
// CHECK-NEXT:    IADD3 R1, R1, -0x60, RZ ;  // stack pointer
// CHECK-NEXT:    // R2 = the caller's (callee save)
// CHECK-NEXT:    STL [R1+0x10], R2 ;
// CHECK:         STL [R1+0x14], R16 ;
// spills of values live across the call: in the frame, never static
// CHECK-NOT:     RZ+
// CHECK:         STL [R1], R{{[0-9]+}} ;
// CHECK:         CALL.REL.NOINC `(deep)
// CHECK:         LDL R{{[0-9]+}}, [R1] ;
// CHECK:         LDL R31, [R1+0x50] ;
// CHECK-NEXT:    IADD3 R1, R1, 0x60, RZ ;  // stack pointer
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK:         LDL R31, [R1+0x50] ;
// CHECK-NEXT:    IADD3 R1, R1, 0x60, RZ ;  // stack pointer
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK-NEXT:  // end deep
