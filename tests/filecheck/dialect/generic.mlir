// The generic MLIR form parses and prints back in the custom syntax; the
// custom form printed generically and re-read gives the same custom text.
// RUN: ori-opt %s | filecheck %s
// RUN: ori-opt %s --print-op-generic | ori-opt | filecheck %s

"builtin.module"() ({
  "ori.func"() <{sym_name = "k", function_type = () -> (), kernel, params = [#ori.param<4, align 4, at 0x0>]}> ({
    %n = "ori.mov"() <{consts = {a = #ori.c<0x0, 0x210>}, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !ori.r32
    %z = "ori.mov"() <{consts = {a = 0 : i32}, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !ori.r32
    "ori.bra"(%z) [^bb1] <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (!ori.r32) -> ()
  ^bb1(%i: !ori.r32):
    %i2 = "ori.iadd3"(%i) <{consts = {b = 1 : i32, c = !ori.r32<RZ>}, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!ori.r32) -> !ori.r32
    %p = "ori.isetp"(%i2, %n) <{mods = "lt.u32", consts = {c = !ori.p<PT>}, operandSegmentSizes = array<i32: 2, 0, 0>}> : (!ori.r32, !ori.r32) -> !ori.p
    %f = "ori.ffma"(%i2, %i2, %p, %i2) <{consts = {b = 1.500000e+00 : f32}, smods = {a = "neg", c = "abs"}, operandSegmentSizes = array<i32: 2, 1, 1>}> : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
    "ori.bra"(%p, %f) [^bb2, ^bb1] <{guard_neg, operandSegmentSizes = array<i32: 1, 0, 1>}> : (!ori.p, !ori.r32) -> ()
  ^bb2:
    "ori.exit"() : () -> ()
  }) : () -> ()
}) {ori.target = "sm_80"} : () -> ()


// CHECK:      builtin.module attributes {ori.target = "sm_80"} {
// CHECK-NEXT:   ori.func kernel @k() attributes {params = [#ori.param<4, align 4, at 0x0>]} {
// CHECK-NEXT:     %[[N:.*]] = ori.mov c[0x0][0x210] : () -> !ori.r32
// CHECK-NEXT:     %[[Z:.*]] = ori.mov 0x0 : () -> !ori.r32
// CHECK-NEXT:     ori.bra ^[[LOOP:bb[0-9]+]](%[[Z]] : !ori.r32)
// CHECK-NEXT:   ^[[LOOP]](%[[I:.*]]: !ori.r32):
// CHECK-NEXT:     %[[I2:.*]] = ori.iadd3 %[[I]], 0x1, RZ : (!ori.r32) -> !ori.r32
// CHECK-NEXT:     %[[P:.*]] = ori.isetp lt.u32 %[[I2]], %[[N]], PT : (!ori.r32, !ori.r32) -> !ori.p
// CHECK-NEXT:     %[[F:.*]] = ori.ffma -%[[I2]], 1.5, |%[[I2]]| if %[[P]] else %[[I2]] : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
// CHECK-NEXT:     ori.bra if not %[[P]] : !ori.p, ^[[EXIT:bb[0-9]+]], ^[[LOOP]](%[[F]] : !ori.r32)
// CHECK-NEXT:   ^[[EXIT]]:
// CHECK-NEXT:     ori.exit
// CHECK-NEXT:   }
// CHECK-NEXT: }
