// ori-mem-to-reg (seed 000 ConvertMemoryToRegisterOrUniform; passes/mem_to_reg):
// frame variables with known addresses become SSA values.
// RUN: ori-opt %s -p 'ori-mem-to-reg{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-mem-to-reg{promotion-mode=1 promotion-budget=1 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BUDGET
// RUN: ori-opt %s -p 'ori-mem-to-reg{promotion-mode=2 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-mem-to-reg{max-bytes=8 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=CAP

builtin.module attributes {ori.target = "sm_80"} {
  // Two accumulators in a loop, one updated on each side of a branch: the
  // header and the join get block arguments, the frame goes.  [R1+0x4] is
  // read before any store on the first path: that load reads undef.
  ori.func kernel @loop() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>], ori.local_bytes = 16 : i32} {
    ori.frame_enter 0x10 : () -> ()
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %fa = ori.frame_addr 0x0 : () -> !ori.r32
    %a8 = ori.iadd3 %fa, 0x8, RZ : (!ori.r32) -> !ori.r32
    ori.stl [R1], %t : (!ori.r32) -> ()
    ori.stl [%a8], %n : (!ori.r32, !ori.r32) -> ()
    %u = ori.ldl [R1 + 0x4] : () -> !ori.r32
    ori.bra ^head(%t : !ori.r32)
  ^head(%i: !ori.r32):
    %p = ori.isetp lt.u32 %i, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^body, ^done
  ^body:
    %q = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %odd = ori.isetp ne.u32 %q, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %odd : !ori.p, ^left, ^right
  ^left:
    %x = ori.ldl [R1] : () -> !ori.r32
    %x1 = ori.iadd3 %x, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stl [R1], %x1 : (!ori.r32) -> ()
    ori.bra ^join
  ^right:
    %y = ori.ldl [%a8] : (!ori.r32) -> !ori.r32
    %y1 = ori.imad %y, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stl [R1 + 0x8], %y1 : (!ori.r32) -> ()
    ori.bra ^join
  ^join:
    %i1 = ori.iadd3 %i, 0x7, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^head(%i1 : !ori.r32)
  ^done:
    %r0 = ori.ldl [R1] : () -> !ori.r32
    %r1 = ori.ldl [R1 + 0x8] : () -> !ori.r32
    %s = ori.iadd3 %r0, %r1, %u : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // What stays in memory: [R1] is accessed as 4 and as 8 bytes, [R1+0x8]
  // by a guarded store, [R1+0xc] as a byte; [R1+0x10] is promoted, the
  // frame stays.
  ori.func @mixed(%v: !ori.r32, %w: !ori.r64, %g: !ori.p) -> !ori.r32 attributes {ori.local_bytes = 32 : i32} {
    ori.frame_enter 0x20 : () -> ()
    ori.stl b64 [R1], %w : (!ori.r64) -> ()
    %lo = ori.ldl [R1] : () -> !ori.r32
    ori.stl [R1 + 0x8], %v if %g : (!ori.r32, !ori.p) -> ()
    %m = ori.ldl [R1 + 0x8] : () -> !ori.r32
    ori.stl u8 [R1 + 0xc], %v : (!ori.r32) -> ()
    %b = ori.ldl u8 [R1 + 0xc] : () -> !ori.r32
    ori.stl [R1 + 0x10], %lo : (!ori.r32) -> ()
    %k = ori.ldl [R1 + 0x10] : () -> !ori.r32
    %s = ori.iadd3 %m, %b, %k : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.frame_leave 0x20 : () -> ()
    ori.ret %s : !ori.r32
  }

  // A computed index: nothing can be promoted.
  ori.func @indexed(%i: !ori.r32, %v: !ori.r32) -> !ori.r32 attributes {ori.local_bytes = 16 : i32} {
    ori.frame_enter 0x10 : () -> ()
    ori.stl [R1], %v : (!ori.r32) -> ()
    %fa = ori.frame_addr 0x0 : () -> !ori.r32
    %x = ori.lea %i, %fa, 0x2 : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.ldl [%x] : (!ori.r32) -> !ori.r32
    ori.frame_leave 0x10 : () -> ()
    ori.ret %r : !ori.r32
  }
}

// CHECK-LABEL: ori.func kernel @loop()
// CHECK-NOT:     ori.local_bytes
// CHECK-NEXT:    %u = ori.undef : () -> !ori.r32
// CHECK-NEXT:    %t = ori.s2r SR_TID.X
// CHECK-NEXT:    %n = ori.mov c[0x0][0x168]
// CHECK-NEXT:    ori.bra ^[[HEAD:.*]](%t : !ori.r32, %t : !ori.r32, %n : !ori.r32)
// CHECK-NEXT:  ^[[HEAD]](%i: !ori.r32, %[[A0:.*]]: !ori.r32, %[[A8:.*]]: !ori.r32):
// CHECK:         %x1 = ori.iadd3 %[[A0]], %i, RZ
// CHECK-NEXT:    ori.bra ^[[JOIN:.*]](%x1 : !ori.r32, %[[A8]] : !ori.r32)
// CHECK:         %y1 = ori.imad %[[A8]], 0x3, %i
// CHECK-NEXT:    ori.bra ^[[JOIN]](%[[A0]] : !ori.r32, %y1 : !ori.r32)
// CHECK:         %s = ori.iadd3 %[[A0]], %[[A8]], %u
// CHECK-NOT:     ori.ldl
// CHECK-NOT:     ori.stl
// CHECK-NOT:     ori.frame

// CHECK-LABEL: ori.func @mixed(
// CHECK:         ori.frame_enter 0x20
// CHECK-NEXT:    ori.stl b64 [R1], %w
// CHECK-NEXT:    %lo = ori.ldl [R1]
// CHECK-NEXT:    ori.stl [R1 + 0x8], %v if %g
// CHECK-NEXT:    %m = ori.ldl [R1 + 0x8]
// CHECK-NEXT:    ori.stl u8 [R1 + 0xc], %v
// CHECK-NEXT:    %b = ori.ldl u8 [R1 + 0xc]
// CHECK-NEXT:    %s = ori.iadd3 %m, %b, %lo
// CHECK-NEXT:    ori.frame_leave 0x20

// CHECK-LABEL: ori.func @indexed(
// CHECK:         ori.stl [R1], %v
// CHECK:         ori.ldl [%x]

// REM-DAG: ori-mem-to-reg: @loop: remark: promoted 3 variable(s), 12 bytes, to registers; frame removed
// REM-DAG: ori-mem-to-reg: @mixed: remark: stays in memory: [R1+0x0]: accessed as 4 and as 8 bytes at 0x0
// REM-DAG: ori-mem-to-reg: @mixed: remark: stays in memory: [R1+0x8]: a guarded access
// REM-DAG: ori-mem-to-reg: @mixed: remark: stays in memory: [R1+0xc]: a u8 access (sub-word)
// REM-DAG: ori-mem-to-reg: @mixed: remark: promoted 1 variable(s), 4 bytes, to registers; frame kept
// REM-DAG: ori-mem-to-reg: @indexed: remark: frame kept (16 bytes): a frame address is offset by a value known only at run time (ori.lea)

// BUDGET: @loop: remark: promoted 3 variable(s)
// BUDGET: @mixed: remark: not promoted: promotion-budget used up
// BUDGET: @indexed: remark: not promoted: promotion-budget used up

// OFF: ori-mem-to-reg: off (promotion-mode=2)

// CAP: @loop: remark: frame kept: its accesses sum to 36 bytes (max-bytes=8)
