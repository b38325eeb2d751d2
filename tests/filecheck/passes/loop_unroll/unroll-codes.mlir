// One small loop per rejection code (ori-loop-unroll remarks).  Each kernel
// stores its loop's results (IV, accumulator) through the pointer parameter
// after the loop, so tests/test_loop_unroll_equivalence.py can compare them
// before and after the passes; the stores are outside the loop bodies.
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true loop-unroll-non-innermost=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=C7
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true unroll-budget=10}' 2>&1 >/dev/null | filecheck %s --check-prefix=B24
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true seed-literal=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=LIT
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify{loop-inversion=false},ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=NOINV

// CHECK: remark: @nounroll ^bb1: not unrolled (code 11): nounroll pragma
// CHECK: remark: @nounroll: [partially unrolled loops=0] [non-unrolled loops=1]
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nounroll() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    ori.pragma "nounroll"
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Top-tested loop: the latch branches unconditionally.  ori-loop-simplify
// inverts it (loop-inversion, on by default) and the rotated loop is fully
// unrolled; without inversion the unroller rejects it with code 13.
// CHECK: remark: @toptested ^bb1: unrolled by 5 (full)
// NOINV: remark: @toptested ^bb1: not unrolled (code 13): the latch does not end in a conditional branch: top-tested loop not inverted
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @toptested() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %p = ori.isetp lt.u32 %i, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2, ^bb3
  ^bb2:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%i2 : !ori.r32)
  ^bb3:
    ori.stg [%a], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Known trip count 1000 with a 43-instruction body (unit cost 33, see
// passes/loop_unroll/decision.py): 345 // 34 = 10 copies, factor 10 (1000 % 10
// = 0 remainder copies), as ptxas does for such bodies; with unroll-budget=10
// (a partial budget of 345 * 10 / 140 = 24 units) nothing fits.
// CHECK: remark: @budget ^bb1: unrolled by 10 (partial)
// B24: remark: @budget ^bb1: not unrolled (code 24): trip count 1000 x unit cost 33 exceeds the full-unroll budget
// LIT: remark: @budget ^bb1: not unrolled (code 12): known trip count 1000 > 2 (seed-literal factor selection)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @budget() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %a0 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a1 = ori.imad %a0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a2 = ori.imad %a1, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a3 = ori.imad %a2, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a4 = ori.imad %a3, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a5 = ori.imad %a4, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a6 = ori.imad %a5, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a7 = ori.imad %a6, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a8 = ori.imad %a7, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a9 = ori.imad %a8, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b0 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b1 = ori.imad %b0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b2 = ori.imad %b1, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b3 = ori.imad %b2, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b4 = ori.imad %b3, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b5 = ori.imad %b4, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b6 = ori.imad %b5, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b7 = ori.imad %b6, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b8 = ori.imad %b7, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %b9 = ori.imad %b8, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c0 = ori.imad %b9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c1 = ori.imad %c0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c2 = ori.imad %c1, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c3 = ori.imad %c2, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c4 = ori.imad %c3, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c5 = ori.imad %c4, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c6 = ori.imad %c5, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c7 = ori.imad %c6, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c8 = ori.imad %c7, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c9 = ori.imad %c8, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d0 = ori.imad %c9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d1 = ori.imad %d0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d2 = ori.imad %d1, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d3 = ori.imad %d2, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d4 = ori.imad %d3, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d5 = ori.imad %d4, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d6 = ori.imad %d5, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d7 = ori.imad %d6, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d8 = ori.imad %d7, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %d9 = ori.imad %d8, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3e8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %d9 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %d9 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The exit test is computed by plop3: no analysable IV.
// CHECK: remark: @noiv ^bb1: not unrolled (code 14): the latch predicate comes from ori.plop3
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @noiv() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x5, PT : (!ori.r32) -> !ori.p
    %q = ori.plop3 %p, PT, PT, 0xf0 : (!ori.p) -> !ori.p
    ori.bra if %q : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A float exit compare.
// CHECK: remark: @fiv ^bb1: not unrolled (code 15): the exit test is a floating-point compare
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @fiv() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%f : !ori.r32):
    %f2 = ori.fadd %f, 1.0 : (!ori.r32) -> !ori.r32
    %p = ori.fsetp lt %f2, 5.0, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%f2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %f2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The stride is a register: the seed's ExtractBound fails (strict stride).
// It is n | 1 (never 0, so the loop ends).
// CHECK: remark: @stride ^bb1: not unrolled (code 16): bound extraction failed: the IV stride is not a constant
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @stride() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %s = ori.lop3 %n, 0x1, RZ, 0xfc : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, %s, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// An exit from the middle of the loop (taken when i reaches n; from n = 5 on
// the latch exits).
// CHECK: remark: @multiexit ^bb1: not unrolled (code 17): irregular loop: an edge leaves the loop from a block other than the latch
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @multiexit() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %e = ori.isetp eq.u32 %i, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %e : !ori.p, ^bb3, ^bb2
  ^bb2:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x5, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb3
  ^bb3:
    ori.stg [%a], %i : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The bound is computed inside the loop.
// CHECK: remark: @limit ^bb1: not unrolled (code 18): the bound is redefined inside the loop body
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @limit() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %n : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Init register == limit register.  The stride 2^30 brings the IV back to n
// after 4 trips (with stride 1 the loop would run 2^32 trips).
// CHECK: remark: @same ^bb1: not unrolled (code 18): the IV's initial value register is its limit register
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @same() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    ori.bra ^bb1(%n : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x40000000, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp ne.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Unknown trip count, IV going up while the loop continues on "greater".
// It starts at 0x7ffffff0 + (n & 7), so the signed test fails when it wraps
// to INT_MIN after 16 - (n & 7) trips.
// CHECK: remark: @dir ^bb1: not unrolled (code 19): the stride sign (+) contradicts the exit test
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @dir() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %lo = ori.lop3 %n, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %st = ori.iadd3 %lo, 0x7ffffff0, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%st : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp gt.s32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Non-innermost loop with loop-unroll-non-innermost=false (code 7); the
// inner loop is nounroll (an unrolled inner loop would leave the outer one
// innermost).
// C7: remark: @nest ^bb2: not unrolled (code 11): nounroll pragma
// C7: remark: @nest ^bb1: not unrolled (code 7): non-innermost loop
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @nest() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    ori.bra ^bb2(%z : !ori.r32)
  ^bb2(%j : !ori.r32):
    ori.pragma "nounroll"
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x3, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb2(%j2 : !ori.r32), ^bb3
  ^bb3:
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x64, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%a], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %j2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A runtime trip count with an atomic in the loop (DEVIATIONS.md 8): when
// the IV starts at the thread index, threads leave at different iterations
// and ptxas leaves the loop rolled (code 11, convergence); from a uniform
// start it unrolls by 4 as any such loop.  seed-literal=true has no such
// test.
// CHECK: remark: @atomic_tid ^bb1: not unrolled (code 11): convergence constraint (threads leave the loop at different iterations and it holds an atomic or a memory fence)
// CHECK: remark: @atomic_uniform ^bb1: unrolled by 4 (partial)
// LIT: remark: @atomic_tid ^bb1: unrolled by
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @atomic_tid() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.ldc 0x0, [RZ + 0x218] : () -> !ori.r32
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %one = ori.mov 0x1 : () -> !ori.r32
    ori.bra ^bb1(%t : !ori.r32)
  ^bb1(%i : !ori.r32):
    ori.red add.u32 [%a], %one : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x40, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
  ori.func kernel @atomic_uniform() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.ldc 0x0, [RZ + 0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %one = ori.mov 0x1 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    ori.red add.u32 [%a], %one : (!ori.r64, !ori.r32) -> ()
    %i2 = ori.iadd3 %i, 0x40, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
