// ori-remat-block: a value the loop's exit edge passes to a join (passes/
// remat_block/exits.py).  %k (tid * 7) is live across the loop only to be
// handed to ^bb3 when the loop ends; ^bb3 is also reached from the entry,
// which skips the loop.  Its copy goes into a block of its own on the exit
// edge (^bb2), recomputed once after the loop (cost 1), not before the
// loop's branch on every iteration (cost 20, what ori did before).  A split
// block that gets no copy is folded back: @untouched keeps its CFG.
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=7 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err

// CHECK-LABEL: ori.func kernel @exit(
// CHECK:         ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %remat_k = ori.imad %x, 0x7, RZ
// CHECK-NEXT:    ori.bra ^bb4(%s2 : !ori.r32, %remat_k : !ori.r32)
// REM: remark: @exit: rematerialized %k (IMAD, 1 register): pulled into ^bb2 (1 instruction, cost 1)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @exit() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.imad %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %go = ori.isetp lt.u32 %x, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %go : !ori.p, ^bb1(%z : !ori.r32, %z : !ori.r32), ^bb2
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %w = ori.iadd3 %v1, %v2, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %w, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb3(%s2 : !ori.r32, %k : !ori.r32)
  ^bb2:
    ori.bra ^bb3(%z : !ori.r32, %x : !ori.r32)
  ^bb3(%r : !ori.r32, %o : !ori.r32):
    %t = ori.iadd3 %r, %o, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @untouched(
// CHECK:         ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb3(%s2 : !ori.r32, %x : !ori.r32)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @untouched() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %go = ori.isetp lt.u32 %x, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %go : !ori.p, ^bb1(%z : !ori.r32, %z : !ori.r32), ^bb2
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb3(%s2 : !ori.r32, %x : !ori.r32)
  ^bb2:
    ori.bra ^bb3(%z : !ori.r32, %x : !ori.r32)
  ^bb3(%r : !ori.r32, %o : !ori.r32):
    %t = ori.iadd3 %r, %o, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
