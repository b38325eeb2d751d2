// ori-general-optimize, compare combining (passes/general_optimize/setp_combine.py):
// PLOP3 of an ISETP result read only there and another predicate is the
// ISETP's own AND/OR/XOR with it -- ptxas's `ISETP.GE.OR P2, PT, R3, R0, !P0`.
// %y: OR; %v: AND with a negated source; %u: XOR of a negated compare (the
// negation moves to the other source, x ^ !z == !x ^ z).  Not combined: a
// compare read twice (%twice), an R register written between the two ops
// (%far: %a and %b would live on past %k), three variable sources (%t3).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{setp-combine=false}' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %y = ori.isetp ge.or %a, %b, %z
// CHECK-NEXT:    %v = ori.isetp lt.u32 %a, 0x10, %z
// CHECK-NEXT:    %u = ori.isetp eq.xor %a, 0x7, not %z
// CHECK-NEXT:    %twice = ori.isetp gt %a, %b, PT
// CHECK-NEXT:    %t1 = ori.plop3 %twice, %z, PT, 0xc0
// CHECK-NEXT:    %far = ori.isetp ne %a, %b, PT
// CHECK-NEXT:    %k = ori.iadd3 %a, %b, RZ
// CHECK-NEXT:    %t2 = ori.plop3 %far, %z, PT, 0xc0
// CHECK-NEXT:    %three = ori.isetp le %a, %b, PT
// CHECK-NEXT:    %t3 = ori.plop3 %three, %z, %q, 0x80
// REM: remark: @f: general-optimize {{.*}}[setp-combine=3] [lop3-predicate=0] [lea-sx32=0] [guard-sink=0] [tuple-args=0] [dead-code=3]
// OFF:           %y = ori.plop3 %z, %x, PT, 0xfc
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%a: !ori.r32, %b: !ori.r32, %z: !ori.p, %q: !ori.p) -> !ori.r32 {
    %x = ori.isetp ge %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y = ori.plop3 %z, %x, PT, 0xfc : (!ori.p, !ori.p) -> !ori.p
    %w = ori.isetp lt.u32 %a, 0x10, PT : (!ori.r32) -> !ori.p
    %v = ori.plop3 %w, not %z, PT, 0x30 : (!ori.p, !ori.p) -> !ori.p
    %n = ori.isetp eq %a, 0x7, PT : (!ori.r32) -> !ori.p
    %u = ori.plop3 not %n, %z, PT, 0x3c : (!ori.p, !ori.p) -> !ori.p
    %twice = ori.isetp gt %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %t1 = ori.plop3 %twice, %z, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %far = ori.isetp ne %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %k = ori.iadd3 %a, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t2 = ori.plop3 %far, %z, PT, 0xc0 : (!ori.p, !ori.p) -> !ori.p
    %three = ori.isetp le %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %t3 = ori.plop3 %three, %z, %q, 0x80 : (!ori.p, !ori.p, !ori.p) -> !ori.p
    %s1 = ori.sel %a, %b, %y : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %s1, %b, %v : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s3 = ori.sel %s2, %b, %u : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s4 = ori.sel %s3, %b, %t1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s5 = ori.sel %s4, %k, %twice : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s6 = ori.sel %s5, %b, %t2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s7 = ori.sel %s6, %b, %t3 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.ret %s7 : !ori.r32
  }
}
