// ori-block-layout (passes/block_layout.py): blocks chained so that the
// heaviest edges fall through -- loop edges first (10 ** depth), an
// unguarded branch's edge and a guarded branch's fall-through before its
// taken edge; the entry stays first.
// RUN: ori-opt %s -p 'ori-block-layout{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-block-layout{stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

builtin.module attributes {ori.target = "sm_80"} {
  // ^exit sits between the loop's blocks in the input.
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    ori.bra ^head(%t : !ori.r32)
  ^exit:
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%a], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^head(%i: !ori.r32):
    %p = ori.isetp lt.u32 %i, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^body, ^exit
  ^body:
    %i1 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^head(%i1 : !ori.r32)
  }
}

// The loop edges come first: body -> head (unguarded), then head -> exit
// (the fall-through); the entry's jump to head comes last and finds head
// inside a chain, so the entry jumps into the loop and each iteration
// runs one branch (the rotated form ptxas's loops have).
// CHECK-LABEL: ori.func kernel @k(
// CHECK:         ori.bra ^[[H:[a-z0-9]+]](%t : !ori.r32)
// CHECK-NEXT:  ^[[B:[a-z0-9]+]]:
// CHECK-NEXT:    %i1 = ori.iadd3
// CHECK-NEXT:    ori.bra ^[[H]](%i1 : !ori.r32)
// CHECK-NEXT:  ^[[H]](%i: !ori.r32):
// CHECK:         ori.bra if %p : !ori.p, ^[[B]], ^[[E:[a-z0-9]+]]
// CHECK-NEXT:  ^[[E]]:
// CHECK:         ori.exit

// REM: remark: @k: block-layout [branches before=3] [branches after=2]
// STATS: ori-block-layout: [branches before=3] [branches after=2]
