// ori-hoist-invariants: sinking what only the code after a loop reads to the
// loop's exit block (passes/hoist_invariants/sink.py, option sink-to-exits).
// Each kernel stores after the loop (tests/passes/hoist_invariants/test_equivalence.py
// runs them on several trip counts).
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s --split-input-file -p 'ori-hoist-invariants{sink-to-exits=false}' | filecheck %s --check-prefix=OFF

// A chain read only after the loop (the UNPACK of an accumulator and what
// the epilogue computes from one word) leaves it in order; the loop keeps
// the wide value it carries.
// CHECK: remark: @chain ^bb1: sank 3 instructions read only after the loop to its exit ^bb2
// IR-LABEL: ori.func kernel @chain(
// IR:       ^bb1(%i: !ori.r32, %acc: !ori.r64):
// IR-NEXT:    %alo, %acc_hi = ori.unpack %acc
// IR-NOT:     ori.unpack
// IR:         ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %acc2w : !ori.r64), ^bb2
// IR-NEXT:  ^bb2:
// IR-NEXT:    %lo, %hi = ori.unpack %acc2w
// IR-NEXT:    %x = ori.shl %lo, 0x1
// IR-NEXT:    %y = ori.iadd3 %x, %hi, RZ
// IR-NEXT:    ori.stg [%a], %y
// OFF-LABEL: ori.func kernel @chain(
// OFF:         %lo, %hi = ori.unpack %acc2w
// OFF-NEXT:    %x = ori.shl %lo, 0x1
// OFF-NEXT:    %y = ori.iadd3 %x, %hi, RZ
// OFF-NEXT:    %i2 = ori.iadd3 %i, 0x1, RZ
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @chain() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %z2 = ori.pack %z, %z : (!ori.r32, !ori.r32) -> !ori.r64
    ori.bra ^bb1(%z : !ori.r32, %z2 : !ori.r64)
  ^bb1(%i : !ori.r32, %acc : !ori.r64):
    %alo, %acc_hi = ori.unpack %acc : (!ori.r64) -> (!ori.r32, !ori.r32)
    %acc2 = ori.iadd3 %alo, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %acc2w = ori.pack %acc2, %acc_hi : (!ori.r32, !ori.r32) -> !ori.r64
    %lo, %hi = ori.unpack %acc2w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %x = ori.shl %lo, 0x1 : (!ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %hi, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %acc2w : !ori.r64), ^bb2
  ^bb2:
    ori.stg [%a], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// What stays: values the exit edge passes as block operands (readers in the
// loop; the exit block, a join with the path that skips the loop, is not
// the loop's own) and a load (the loop's store may change what it reads).
// CHECK-NOT: remark: @stays{{.*}}sank
// IR-LABEL: ori.func kernel @stays(
// IR:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// IR-NEXT:    %passed = ori.shl %s, 0x2
// IR-NEXT:    %v = ori.ldg [%a + 0x40]
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @stays() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %c0 = ori.isetp eq.u32 %n, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %c0 : !ori.p, ^bb4(%z : !ori.r32, %z : !ori.r32, %z : !ori.r32), ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %passed = ori.shl %s, 0x2 : (!ori.r32) -> !ori.r32
    %v = ori.ldg [%a + 0x40] : (!ori.r64) -> !ori.r32
    ori.stg [%a + 0x44], %i : (!ori.r64, !ori.r32) -> ()
    %odd = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2, ^bb3(%s : !ori.r32)
  ^bb2:
    %t = ori.iadd3 %s, 0x5, %i : (!ori.r32, !ori.r32) -> !ori.r32
    ori.bra ^bb3(%t : !ori.r32)
  ^bb3(%s1 : !ori.r32):
    %w = ori.shl %s1, 0x3 : (!ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s1 : !ori.r32), ^bb4(%passed : !ori.r32, %v : !ori.r32, %w : !ori.r32)
  ^bb4(%r0 : !ori.r32, %r1 : !ori.r32, %r2 : !ori.r32):
    %r01 = ori.iadd3 %r0, %r1, %r2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r01 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// An exit reached only from a block that runs on some iterations: what that
// block computes for the exit's readers moves there (the exiting iteration
// ran it); the other exit keeps its own reader.
// CHECK: remark: @partial ^bb1: sank 1 instruction read only after the loop to its exit ^bb4
// IR-LABEL: ori.func kernel @partial(
// IR:       ^bb2:
// IR-NEXT:    %i3 = ori.iadd3 %i, 0x1, RZ
// IR:       ^bb4:
// IR-NEXT:    %t = ori.iadd3 %i, 0x5, RZ
// IR-NEXT:    ori.stg [%a], %t
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @partial() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %odd = ori.lop3 %i, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %odd, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2, ^bb3
  ^bb2:
    %t = ori.iadd3 %i, 0x5, RZ : (!ori.r32) -> !ori.r32
    %i3 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p2 = ori.isetp lt.u32 %i3, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p2 : !ori.p, ^bb1(%i3 : !ori.r32), ^bb4
  ^bb3:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb5
  ^bb4:
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb5:
    ori.stg [%a + 0x4], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
