// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s
// RUN: ori-opt %s -p 'ori-abi,ori-regalloc,ori-check-regalloc' | filecheck %s --check-prefix=IR

// Callee saves (seed 003 "Scratch Data Registers"; passes/regalloc/callee_saves.py):
// @outer keeps %n and %k across a call to the recursive @down (whose
// clobbers are not known when @outer is allocated: every scratch register),
// so they go to preserved registers; it saves R2, R16 and its return
// address R20:R21 with one STL each at its entry and reloads them before
// each of its two RETs, in its static frame (@down's own slots are in its
// frames, so @outer's start at 0).  The recursive @down has one activation
// per call: its saves go into its frame below the stack pointer
// (regalloc/frame.py), as ptxas does -- IADD3 R1, R1, -0x10 first, the
// STL [R1+..], the LDL [R1+..] and IADD3 R1, R1, 0x10 before each RET.
// The figures count every STL and LDL once: @outer 16 bytes stored, 32
// loaded (two RETs), as ptxas -v counts static instructions.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @down(%n: !ori.r32) -> !ori.r32 {
    %p = ori.isetp lt.u32 %n, 0x2, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^done, ^rec
  ^rec:
    %m = ori.iadd3 %n, 0xffffffff, RZ : (!ori.r32) -> !ori.r32
    %r = ori.call @down(%m) : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %r, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  ^done:
    ori.ret %n : !ori.r32
  }
  ori.func @outer(%n: !ori.r32, %k: !ori.r32) -> !ori.r32 {
    %a = ori.call @down(%n) : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %a, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^small, ^big
  ^small:
    %s = ori.imad %a, %n, %k : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  ^big:
    %t = ori.iadd3 %a, %k, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %t : !ori.r32
  }
  ori.func @inc(%x: !ori.r32) -> !ori.r32 {
    %s = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  }
  ori.func @twice(%x: !ori.r32) -> !ori.r32 {
    %a = ori.call @inc(%x) : (!ori.r32) -> !ori.r32
    %b = ori.call @inc(%a) : (!ori.r32) -> !ori.r32
    %s = ori.imad %b, %x, %a : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  }
  ori.func kernel @caller() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %m = ori.lop3 %t, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.call @outer(%m, %t) : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.call @twice(%q) : (!ori.r32) -> !ori.r32
    %z = ori.iadd3 %w, %k, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Function properties for down
// CHECK-NEXT:     16 bytes stack frame, 12 bytes spill stores, 24 bytes spill loads
// CHECK:      ori info      : Function down must save R2, R20-R21 (callee saves: in the figures above; STL in the prologue, LDL before each RET)
// CHECK:      ptxas info    : Function properties for outer
// CHECK-NEXT:     16 bytes stack frame, 16 bytes spill stores, 32 bytes spill loads
// CHECK:      ori info      : Function outer must save R2, R16, R20-R21 (callee saves: in the figures above; STL in the prologue, LDL before each RET)
// CHECK:      ptxas info    : Function properties for twice
// CHECK-NEXT:     8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
// CHECK:      ori info      : Function twice must save R20-R21 (callee saves: in the figures above; STL in the prologue, LDL before each RET)

// the recursive @down: its saves in its frame, addressed from R1
// CHECK-LABEL: .func down(R4) -> (r32)
// CHECK-NEXT:  .L_x_0:
// CHECK-NEXT:    IADD3 R1, R1, -0x10, RZ ;  // stack pointer
// CHECK-NEXT:    // R2 = the caller's (callee save)
// CHECK-NEXT:    STL [R1], R2 ;
// CHECK-NEXT:    // R20 = the caller's (callee save)
// CHECK-NEXT:    STL [R1+0x4], R20 ;
// CHECK-NEXT:    // R21 = the caller's (callee save)
// CHECK-NEXT:    STL [R1+0x8], R21 ;
// CHECK:         CALL.REL.NOINC `(down)
// CHECK:         LDL R2, [R1] ;
// CHECK-NEXT:    LDL R20, [R1+0x4] ;
// CHECK-NEXT:    LDL R21, [R1+0x8] ;
// CHECK-NEXT:    IADD3 R1, R1, 0x10, RZ ;  // stack pointer
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK:         LDL R2, [R1] ;
// CHECK-NEXT:    LDL R20, [R1+0x4] ;
// CHECK-NEXT:    LDL R21, [R1+0x8] ;
// CHECK-NEXT:    IADD3 R1, R1, 0x10, RZ ;  // stack pointer
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK-NEXT:  // end down

// @outer: one STL per register at the entry, the reloads before each RET
// CHECK-LABEL: .func outer(R4, R5) -> (r32)
// CHECK-NEXT:  .L_x_0:
// CHECK-NEXT:    // R2 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ], R2 ;
// CHECK-NEXT:    // R16 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ+0x4], R16 ;
// CHECK-NEXT:    // R20 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ+0x8], R20 ;
// CHECK-NEXT:    // R21 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ+0xc], R21 ;
// CHECK:         CALL.REL.NOINC `(down)
// CHECK:         LDL R2, [RZ] ;
// CHECK-NEXT:    LDL R16, [RZ+0x4] ;
// CHECK-NEXT:    LDL R20, [RZ+0x8] ;
// CHECK-NEXT:    LDL R21, [RZ+0xc] ;
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK:         LDL R2, [RZ] ;
// CHECK-NEXT:    LDL R16, [RZ+0x4] ;
// CHECK-NEXT:    LDL R20, [RZ+0x8] ;
// CHECK-NEXT:    LDL R21, [RZ+0xc] ;
// CHECK-NEXT:    RET.REL.NODEC ;
// CHECK-NEXT:  // end outer

// @twice calls a leaf: only its return address
// CHECK-LABEL: .func twice(R4) -> (r32)
// CHECK-NEXT:  .L_x_0:
// CHECK-NEXT:    // R20 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ], R20 ;
// CHECK-NEXT:    // R21 = the caller's (callee save)
// CHECK-NEXT:    STL [RZ+0x4], R21 ;
// CHECK:         LDL R20, [RZ] ;
// CHECK-NEXT:    LDL R21, [RZ+0x4] ;
// CHECK-NEXT:    RET.REL.NODEC ;

// IR-LABEL: ori.func @outer
// IR-SAME:    saved = [R2, R16, R20-R21]
// IR-SAME:    ori.abi_save_bytes = 0 : i32
// IR-NEXT:    ori.undef {ori.abi_save = 2 : i32} : () -> !ori.r32<R2>
// IR-NEXT:    ori.stl [RZ], %{{.*}} {ori.spill_value = 0 : i32, ori.abi_save = 2 : i32}
