// ori-dead-code: phase 16, OriPerformLiveDeadFirst (seed 001 "DCE removes
// dead loop bodies").  Ops whose results are all unused and that have no
// effect (per the op class metadata: MEM, SIDE_EFFECTS, IS_BARRIER,
// WARP_COLLECTIVE) are removed to a fixed point; stores, atomics, barriers,
// SHFL/VOTE, calls, branches and pragmas stay; unused weak loads go unless
// dead-loads=false; loads with an ordering semantic stay.  Unused block
// arguments stay, and so do the values passed for them.
// RUN: ori-opt %s -p 'ori-dead-code{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-dead-code{dead-loads=false stats=true}' 2>%t.keep | filecheck %s --check-prefix=KEEP
// RUN: filecheck %s --check-prefix=KEEPSTATS < %t.keep

// CHECK-LABEL: ori.func kernel @dce(
// CHECK-NEXT:    %a = ori.ldc b64 0x0, [RZ + 0x160]
// CHECK-NEXT:    %x = ori.s2r SR_TID.X
// CHECK-NEXT:    %acq = ori.ldg acquire.gpu [%a + 0x10]
// CHECK-NEXT:    %old = ori.atom add [%a + 0x20], %x
// CHECK-NEXT:    %sh, %sp = ori.shfl
// CHECK-NEXT:    %dead = ori.lop3
// CHECK-NEXT:    ori.bar
// CHECK-NEXT:    ori.bra ^bb1(%dead : !ori.r32)
// CHECK-NEXT:  ^bb1(%arg: !ori.r32):
// CHECK-NEXT:    ori.stg [%a], %x
// CHECK-NEXT:    ori.exit
// REM: remark: @dce: dead-code [removed=4]
// KEEP:          %dl = ori.ldg [%a + 0x8]
// KEEPSTATS: ori-dead-code: [removed=3]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @dce() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %d1 = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    %d2, %dc = ori.iadd3 %d1, 0x2, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %dp = ori.isetp lt %d2, 0x4, PT : (!ori.r32) -> !ori.p
    %dl = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %acq = ori.ldg acquire.gpu [%a + 0x10] : (!ori.r64) -> !ori.r32
    %old = ori.atom add [%a + 0x20], %x : (!ori.r64, !ori.r32) -> !ori.r32
    %sh, %sp = ori.shfl bfly %x, 0x10, 0x1f : (!ori.r32) -> (!ori.r32, !ori.p)
    %dead = ori.lop3 %x, %x, RZ, 0xc0 : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bar 0x0 : () -> ()
    ori.bra ^bb1(%dead : !ori.r32)
  ^bb1(%arg : !ori.r32):
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
