// ori-loop-unroll's default factor selection follows ptxas 13.0 (decision.py
// ptxas_factor; passes/loop_unroll/DEVIATIONS.md); seed-literal=true keeps the
// seed's text.
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true seed-literal=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=LIT
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll{remarks=true unroll-full-inst-limit=20}' 2>&1 >/dev/null | filecheck %s --check-prefix=FIL
// RUN: ori-opt %s --split-input-file -p 'ori-loop-simplify,ori-loop-unroll' | filecheck %s --check-prefix=IR

// CHECK: remark: @full100 ^bb1: unrolled by 100 (full)
// LIT: remark: @full100 ^bb1: not unrolled (code 12): known trip count 100 > 2
// FIL: remark: @full100 ^bb1: unrolled by 99 (partial)
// IR-LABEL: ori.func kernel @full100
// IR-NOT: ori.isetp
// IR: ori.stg
// CHECK: remark: @part1000 ^bb1: unrolled by 20 (partial)
// LIT: remark: @part1000 ^bb1: not unrolled (code 12)
// CHECK: remark: @part150 ^bb1: unrolled by 21 (partial)
// LIT: remark: @part150 ^bb1: not unrolled (code 12)
// CHECK: remark: @unk_small ^bb1: unrolled by 4 (partial)
// LIT: remark: @unk_small ^bb1: unrolled by 2 (partial)
// CHECK: remark: @unk_big ^bb1: not unrolled (code 24): unknown trip count: 8 copies of unit cost 53 exceed the partial budget 345
// LIT: remark: @unk_big ^bb1: unrolled by 2 (partial)
// CHECK: remark: @call ^bb1: not unrolled (code 24): the loop contains a call
// LIT: remark: @call ^bb1: unrolled by 4 (partial)
// CHECK: remark: @outer ^bb2: unrolled by 4 (partial)
// CHECK: remark: @outer ^bb1: not unrolled (code 24): the loop still contains a loop
// LIT: remark: @outer ^bb1: not unrolled (code 12): known trip count 4 > 2

// Trip count 100, 7-instruction body (unit 1): fully unrolled (ptxas: up to
// 814 trips at this size); the seed's text rejects trip counts > 2 (code 12);
// unroll-full-inst-limit=20 scales the trip limit by 20/200 (81 trips).
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @full100() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %a0 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a1 = ori.imad %a0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a2 = ori.imad %a1, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a3 = ori.imad %a2, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x64, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a3 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Trip count 1000, 23 instructions (unit 13): 345 // 14 = 24 copies; the
// largest F with F + 1000 % F <= 24 is 20.  Seed-literal: code 12.
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @part1000() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
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
    %a10 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %a10, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %a11, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %a12, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %a13, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %a14, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %a15, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %a16, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a18 = ori.imad %a17, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a19 = ori.imad %a18, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3e8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a19 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a19 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Trip count 150, same body: F = 21 (21 + 150 % 21 = 24 copies): a
// non-power-of-two factor and 3 peeled remainder copies, as ptxas does.
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @part150() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
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
    %a10 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %a10, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %a11, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %a12, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %a13, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %a14, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %a15, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %a16, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a18 = ori.imad %a17, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a19 = ori.imad %a18, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x96, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a19 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a19 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Unknown trip count: factor 4 while 2 x 4 copies (4, the 2 + 1 power-of-two
// remainder and the guards) fit the budget (unit 13), none at 63
// instructions (unit 53).
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @unk_small() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
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
    %a10 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %a10, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %a11, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %a12, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %a13, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %a14, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %a15, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %a16, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a18 = ori.imad %a17, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a19 = ori.imad %a18, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a19 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a19 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @unk_big() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
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
    %a10 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %a10, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %a11, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %a12, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %a13, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %a14, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %a15, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %a16, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a18 = ori.imad %a17, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a19 = ori.imad %a18, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a20 = ori.imad %a19, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a21 = ori.imad %a20, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a22 = ori.imad %a21, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a23 = ori.imad %a22, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a24 = ori.imad %a23, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a25 = ori.imad %a24, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a26 = ori.imad %a25, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a27 = ori.imad %a26, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a28 = ori.imad %a27, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a29 = ori.imad %a28, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a30 = ori.imad %a29, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a31 = ori.imad %a30, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a32 = ori.imad %a31, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a33 = ori.imad %a32, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a34 = ori.imad %a33, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a35 = ori.imad %a34, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a36 = ori.imad %a35, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a37 = ori.imad %a36, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a38 = ori.imad %a37, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a39 = ori.imad %a38, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a40 = ori.imad %a39, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a41 = ori.imad %a40, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a42 = ori.imad %a41, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a43 = ori.imad %a42, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a44 = ori.imad %a43, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a45 = ori.imad %a44, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a46 = ori.imad %a45, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a47 = ori.imad %a46, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a48 = ori.imad %a47, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a49 = ori.imad %a48, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a50 = ori.imad %a49, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a51 = ori.imad %a50, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a52 = ori.imad %a51, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a53 = ori.imad %a52, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a54 = ori.imad %a53, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a55 = ori.imad %a54, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a56 = ori.imad %a55, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a57 = ori.imad %a56, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a58 = ori.imad %a57, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a59 = ori.imad %a58, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a59 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a59 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// A call in the body: ptxas never unrolls such loops (code 24); the seed only
// adds call_weight 9, so seed-literal unrolls it.
builtin.module attributes {ori.target = "sm_90"} {
  ori.func @f(%v: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %w = ori.iadd3 %v, 0x2, RZ : (!ori.r32) -> !ori.r32
    ori.ret %w : !ori.r32
  }
  ori.func kernel @call() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%i : !ori.r32, %s : !ori.r32):
    %a0 = ori.imad %s, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a1 = ori.imad %a0, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %c = ori.call @f(%a1) : (!ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %c : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %c : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The outer loop still holds a (partially unrolled) loop: not unrolled.
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @outer() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%j : !ori.r32, %s : !ori.r32):
    ori.bra ^bb2(%z : !ori.r32, %s : !ori.r32)
  ^bb2(%i : !ori.r32, %t : !ori.r32):
    %t2 = ori.imad %t, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb2(%i2 : !ori.r32, %t2 : !ori.r32), ^bb3
  ^bb3:
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q = ori.isetp lt.u32 %j2, 0x4, PT : (!ori.r32) -> !ori.p
    ori.bra if %q : !ori.p, ^bb1(%j2 : !ori.r32, %t2 : !ori.r32), ^bb4
  ^bb4:
    ori.stg [%ad], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %j2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x8], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Trip count 1000, 93 instructions (unit 83): only 345 // 84 = 4 copies fit,
// fewer than 5: left rolled (ptxas: the 77- to 122-unit bodies stay rolled at
// every trip count).
// CHECK: remark: @rolled ^bb1: not unrolled (code 24): trip count 1000 x unit cost 83 exceeds the full-unroll budget and only 4 copies fit the partial budget 345 (fewer than 5: left rolled)
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @rolled() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %ad = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
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
    %a10 = ori.imad %a9, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a11 = ori.imad %a10, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a12 = ori.imad %a11, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a13 = ori.imad %a12, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a14 = ori.imad %a13, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a15 = ori.imad %a14, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a16 = ori.imad %a15, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a17 = ori.imad %a16, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a18 = ori.imad %a17, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a19 = ori.imad %a18, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a20 = ori.imad %a19, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a21 = ori.imad %a20, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a22 = ori.imad %a21, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a23 = ori.imad %a22, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a24 = ori.imad %a23, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a25 = ori.imad %a24, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a26 = ori.imad %a25, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a27 = ori.imad %a26, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a28 = ori.imad %a27, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a29 = ori.imad %a28, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a30 = ori.imad %a29, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a31 = ori.imad %a30, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a32 = ori.imad %a31, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a33 = ori.imad %a32, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a34 = ori.imad %a33, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a35 = ori.imad %a34, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a36 = ori.imad %a35, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a37 = ori.imad %a36, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a38 = ori.imad %a37, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a39 = ori.imad %a38, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a40 = ori.imad %a39, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a41 = ori.imad %a40, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a42 = ori.imad %a41, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a43 = ori.imad %a42, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a44 = ori.imad %a43, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a45 = ori.imad %a44, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a46 = ori.imad %a45, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a47 = ori.imad %a46, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a48 = ori.imad %a47, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a49 = ori.imad %a48, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a50 = ori.imad %a49, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a51 = ori.imad %a50, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a52 = ori.imad %a51, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a53 = ori.imad %a52, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a54 = ori.imad %a53, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a55 = ori.imad %a54, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a56 = ori.imad %a55, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a57 = ori.imad %a56, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a58 = ori.imad %a57, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a59 = ori.imad %a58, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a60 = ori.imad %a59, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a61 = ori.imad %a60, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a62 = ori.imad %a61, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a63 = ori.imad %a62, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a64 = ori.imad %a63, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a65 = ori.imad %a64, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a66 = ori.imad %a65, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a67 = ori.imad %a66, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a68 = ori.imad %a67, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a69 = ori.imad %a68, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a70 = ori.imad %a69, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a71 = ori.imad %a70, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a72 = ori.imad %a71, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a73 = ori.imad %a72, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a74 = ori.imad %a73, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a75 = ori.imad %a74, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a76 = ori.imad %a75, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a77 = ori.imad %a76, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a78 = ori.imad %a77, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a79 = ori.imad %a78, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a80 = ori.imad %a79, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a81 = ori.imad %a80, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a82 = ori.imad %a81, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a83 = ori.imad %a82, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a84 = ori.imad %a83, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a85 = ori.imad %a84, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a86 = ori.imad %a85, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a87 = ori.imad %a86, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a88 = ori.imad %a87, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %a89 = ori.imad %a88, 0x3, %i : (!ori.r32, !ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, 0x3e8, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32, %a89 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%ad], %a89 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%ad + 0x4], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
