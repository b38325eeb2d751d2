// ori-branch-opt: phase 15, OriBranchOpt (seed 001 "Pipeline Placement").
// One function per rule of passes/branch_opt.py, then the cases each rule
// must leave alone.
// RUN: ori-opt %s -p 'ori-branch-opt{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-branch-opt{predicate-single=false stats=true}' 2>%t.np | filecheck %s --check-prefix=NOPRED
// RUN: filecheck %s --check-prefix=NOPREDSTATS < %t.np
// RUN: ori-opt %s -p 'ori-branch-opt,ori-branch-opt' | filecheck %s
// RUN: ori-opt %s -p 'ori-branch-opt' -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  // Rule 1: both edges reach ^bb1 with the same value.
  // CHECK-LABEL: ori.func kernel @same_target(
  // CHECK:         %p = ori.isetp
  // CHECK-NEXT:    %y = ori.iadd3 %x, 0x1, RZ
  // CHECK-NEXT:    ori.stg [%a], %y
  // CHECK-NEXT:    ori.exit
  ori.func kernel @same_target() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%x : !ori.r32), ^bb1(%x : !ori.r32)
  ^bb1(%v: !ori.r32):
    %y = ori.iadd3 %v, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.stg [%a], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Rule 2: ^bb1 only forwards to ^bb3; the guarded branch goes straight
  // there with the substituted value.  ^bb2 reads nothing of ^bb1.  Then
  // ^bb2 is one instruction on the way to ^bb3 (rule 4) and ^bb3 the rest
  // of the chain (rule 3).
  // NOPRED-LABEL: ori.func kernel @empty_block(
  // NOPRED:         ori.bra if %p : !ori.p, ^bb2(%x : !ori.r32, %x : !ori.r32), ^bb1
  // NOPRED-NEXT:  ^bb1:
  // NOPRED-NEXT:    %z = ori.iadd3 %x, 0x2, RZ
  // NOPRED-NEXT:    ori.bra ^bb2(%z : !ori.r32, %x : !ori.r32)
  // NOPRED-NEXT:  ^bb2(%r: !ori.r32, %s: !ori.r32):
  // CHECK-LABEL: ori.func kernel @empty_block(
  // CHECK:         %p = ori.isetp lt %x, 0x4, PT
  // CHECK-NEXT:    %z = ori.iadd3 %x, 0x2, RZ if not %p else %x
  // CHECK-NEXT:    %t = ori.iadd3 %z, %x, RZ
  // CHECK-NEXT:    ori.stg [%a], %t
  ori.func kernel @empty_block() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%x : !ori.r32), ^bb2
  ^bb1(%f: !ori.r32):
    ori.bra ^bb3(%f : !ori.r32, %x : !ori.r32)
  ^bb2:
    %z = ori.iadd3 %x, 0x2, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb3(%z : !ori.r32, %x : !ori.r32)
  ^bb3(%r: !ori.r32, %s: !ori.r32):
    %t = ori.iadd3 %r, %s, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Rule 2 does not apply: ^bb1's argument is read in ^bb2, which ^bb1
  // dominates (SSA lets it), so ^bb1 is not bypassed; rule 3 joins the two.
  // CHECK-LABEL: ori.func kernel @empty_block_kept(
  // CHECK:         ori.bra if %p : !ori.p, ^bb1(%x : !ori.r32), ^bb2
  // CHECK-NEXT:  ^bb1(%f: !ori.r32):
  // CHECK-NEXT:    %t = ori.iadd3 %f, %x, RZ
  ori.func kernel @empty_block_kept() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%x : !ori.r32), ^bb3
  ^bb1(%f: !ori.r32):
    ori.bra ^bb2
  ^bb2:
    %t = ori.iadd3 %f, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb3:
    ori.exit
  }

  // Rule 3: a chain of three blocks joined by unguarded branches is one
  // block; the block arguments become the values passed.
  // CHECK-LABEL: ori.func kernel @chain(
  // CHECK:         %x = ori.s2r SR_TID.X
  // CHECK-NEXT:    %y = ori.iadd3 %x, 0x1, RZ
  // CHECK-NEXT:    %z = ori.iadd3 %y, %x, RZ
  // CHECK-NEXT:    ori.stg [%a], %z
  // CHECK-NEXT:    ori.exit
  // CHECK-NEXT:  }
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    ori.bra ^bb1(%x : !ori.r32)
  ^bb1(%v: !ori.r32):
    %y = ori.iadd3 %v, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb2(%y : !ori.r32)
  ^bb2(%w: !ori.r32):
    %z = ori.iadd3 %w, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Rule 4: `if (x < 4) v = x * 3` -- the IMAD executes under the guard and
  // its prior is the value the branch passed; the fall-through side means
  // the guard is inverted.
  // CHECK-LABEL: ori.func kernel @guard_value(
  // CHECK:         %p = ori.isetp ge %x, 0x4, PT
  // CHECK-NEXT:    %m = ori.imad %x, 0x3, RZ if not %p else %x
  // CHECK-NEXT:    ori.stg [%a], %m
  // NOPRED-LABEL: ori.func kernel @guard_value(
  // NOPRED:         ori.bra if %p : !ori.p, ^bb2(%x : !ori.r32), ^bb1
  ori.func kernel @guard_value() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp ge %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%x : !ori.r32), ^bb2
  ^bb2:
    %m = ori.imad %x, 0x3, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%m : !ori.r32)
  ^bb1(%v: !ori.r32):
    ori.stg [%a], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }

  // Rule 4 with a store: `if (x < 4) a[0] = x` is a guarded STG.
  // CHECK-LABEL: ori.func kernel @guard_store(
  // CHECK:         ori.stg [%a], %x if %p
  // CHECK-NEXT:    ori.exit
  ori.func kernel @guard_store() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb2
  ^bb2:
    ori.exit
  }

  // Rule 4 does not apply: two instructions, and a barrier.
  // CHECK-LABEL: ori.func kernel @not_guarded(
  // CHECK:         ori.bra if %p : !ori.p, ^bb1, ^bb2
  // CHECK:         ori.bra if %p : !ori.p, ^bb3, ^bb4
  ori.func kernel @not_guarded() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    ori.stg [%a], %x : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %x : (!ori.r64, !ori.r32) -> ()
    ori.bra ^bb2
  ^bb2:
    ori.bra if %p : !ori.p, ^bb3, ^bb4
  ^bb3:
    ori.bar 0x0 : () -> ()
    ori.bra ^bb4
  ^bb4:
    ori.exit
  }
}

// REM: ori-branch-opt: @same_target: remark: branch-opt [same-target=1] [merged=1]
// REM-NEXT: ori-branch-opt: @empty_block: remark: branch-opt [empty-block=1] [merged=1] [predicated=1]
// REM-NEXT: ori-branch-opt: @empty_block_kept: remark: branch-opt [merged=1]
// REM-NEXT: ori-branch-opt: @chain: remark: branch-opt [merged=2]
// REM-NEXT: ori-branch-opt: @guard_value: remark: branch-opt [merged=1] [predicated=1]
// REM-NEXT: ori-branch-opt: @guard_store: remark: branch-opt [merged=1] [predicated=1]
// REM-NOT: @not_guarded
// NOPREDSTATS: ori-branch-opt: [same-target=1] [empty-block=1] [merged=4] [predicated=0]

// In the listing a branch to the next block is no instruction, and a
// guarded one whose taken edge is the next block branches the other way.
// ASM-LABEL: .entry not_guarded
// ASM:       @!%p0 BRA .L_x_2 ;
// ASM-NEXT:  .L_x_1:
// ASM:         STG.E [%r0.64+0x4], %r1 ;
// ASM-NEXT:    // fall through to .L_x_2
// ASM-NEXT:  .L_x_2:
// ASM-LABEL: // end not_guarded: 9 instructions, 5 blocks
