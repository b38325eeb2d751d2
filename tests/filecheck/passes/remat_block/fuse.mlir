// ori-remat-block: a product pulled into the block of the one add that
// reads it becomes that add's IMAD (passes/remat_block/candidates.py
// fusing_add, passes/general_optimize/imad_add.py): the copy adds no
// instruction and costs nothing, as ptxas's Triton K loops recompute
// row * stride inside IMAD R27, R6, c[0x0][0x18c], R40.
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=9 remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat-block{nv-remat-default-max-reg=9 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// @row: %m (x * c[0x0][0x168]) is live across the loop, where one add reads
// it: the add becomes IMAD %x, c[0x0][0x168], %i.  At cost 0 it is taken
// before %n (cost 1 x the loop factor 20), which is then not needed.
// CHECK-LABEL: ori.func kernel @row(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    %o = ori.imad %x, c[0x0][0x168], %i : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %w = ori.imad wide %o, 0x4, %a
// CHECK-NOT:     %m
// CHECK:         %p = ori.isetp lt.u32 %i2, %n, PT
// REM: remark: @row: rematerialized %m (IMAD, 1 register): pulled into ^bb1, merged into the add that reads it in ^bb1 (0 instructions, cost 0)
// STATS: ori-remat-block: @row: max live 10 -> 9 (target 9) [rematerialized values=1] [instructions cloned=0] [rounds=1]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @row() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %m = ori.imad %x, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %o = ori.iadd3 %m, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad wide %o, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v1 = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%w + 0x4] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %t = ori.iadd3 %s2, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// @two: the copy of %m is read by two adds in the loop: it is cloned (one
// instruction at the loop factor), the adds keep reading it.
// CHECK-LABEL: ori.func kernel @two(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK-NEXT:    %remat_m = ori.imad %x, c[0x0][0x168], RZ
// CHECK-NEXT:    %o = ori.iadd3 %remat_m, %i, RZ
// CHECK-NEXT:    %o2 = ori.iadd3 %remat_m, %s, RZ
// REM: remark: @two: rematerialized %m (IMAD, 1 register): pulled into ^bb1 (1 instruction, cost 20)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @two() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_TID.Y : () -> !ori.r32
    %m = ori.imad %x, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %o = ori.iadd3 %m, %i, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %o2 = ori.iadd3 %m, %s, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad wide %o, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v1 = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%w + 0x4] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %o2, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s2 : !ori.r32), ^bb2
  ^bb2:
    %t = ori.iadd3 %s2, %x, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// @both: two products live across the loop, read by one add there: each
// could merge into it, one round takes the first (it becomes IMAD %x,
// c[0x0][0x168], %m2) and the second waits for the next round, where the
// add is that IMAD and %m2 is pulled as a plain copy.
// CHECK-LABEL: ori.func kernel @both(
// CHECK:       ^bb1(%i: !ori.r32, %s: !ori.r32):
// CHECK:         %o = ori.imad %x, c[0x0][0x168], %{{.*}} : (!ori.r32, !ori.r32) -> !ori.r32
// REM: remark: @both: rematerialized %m1 (IMAD, 1 register): pulled into ^bb1, merged into the add that reads it in ^bb1 (0 instructions, cost 0)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @both() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_TID.Y : () -> !ori.r32
    %m1 = ori.imad %x, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %m2 = ori.imad %y, c[0x0][0x168], RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i: !ori.r32, %s: !ori.r32):
    %o = ori.iadd3 %m1, %m2, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad wide %o, 0x4, %a : (!ori.r32, !ori.r64) -> !ori.r64
    %v1 = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%w + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%w + 0x8] : (!ori.r64) -> !ori.r32
    %s2 = ori.iadd3 %s, %v1, %v2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s2, %v3, %i : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, c[0x0][0x168], PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %s3 : !ori.r32), ^bb2
  ^bb2:
    %t = ori.iadd3 %s3, %x, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
