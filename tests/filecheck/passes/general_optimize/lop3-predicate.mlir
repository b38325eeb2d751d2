// ori-general-optimize, bit tests (passes/general_optimize/lop3_predicate.py):
// ISETP.NE x, 0 of a LOP3 result x is the LOP3's own predicate result
// (p = d != 0) -- ptxas's `LOP3.LUT P0, RZ, R26, 0x1, RZ, 0xc0, !PT`; an
// ISETP.EQ x, 0 is that predicate negated at every reader.
// @f: %q combined; %e combined, its SEL reading `not` the LOP3's predicate.
// Not combined: a predicate written between the two ops (%r: %w), so no
// point holds one more predicate.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{lop3-predicate=false}' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %x, %q = ori.lop3 %a, 0x1, RZ, 0xc0 : (!ori.r32) -> (!ori.r32, !ori.p)
// CHECK-NEXT:    %y, %[[E:[0-9]+]] = ori.lop3 %a, 0x2, RZ, 0xc0
// CHECK-NEXT:    %z = ori.lop3 %a, %b, RZ, 0xfc
// CHECK-NEXT:    %w = ori.isetp lt %b, 0x3, PT
// CHECK-NEXT:    %r = ori.isetp ne RZ, %z, PT
// CHECK-NEXT:    %s1 = ori.sel %a, %b, %q
// CHECK-NEXT:    %s2 = ori.sel %s1, %b, not %[[E]]
// REM: remark: @f: general-optimize {{.*}}[lop3-predicate=2]
// OFF:           %q = ori.isetp ne.u32 %x, 0x0, PT
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%a: !ori.r32, %b: !ori.r32) -> !ori.r32 {
    %x = ori.lop3 %a, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %x, 0x0, PT : (!ori.r32) -> !ori.p
    %y = ori.lop3 %a, 0x2, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %e = ori.isetp eq.u32 %y, 0x0, PT : (!ori.r32) -> !ori.p
    %z = ori.lop3 %a, %b, RZ, 0xfc : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.isetp lt %b, 0x3, PT : (!ori.r32) -> !ori.p
    %r = ori.isetp ne RZ, %z, PT : (!ori.r32) -> !ori.p
    %s1 = ori.sel %a, %b, %q : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %s1, %b, %e : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s3 = ori.sel %s2, %z, %w : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s4 = ori.sel %s3, %b, %r : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.ret %s4 : !ori.r32
  }
}

// -----
// EQ tests read by a guard, a branch, a negated PLOP3 source and a SEL:
// each reader flips its sense.  %n is also passed along an edge, where no
// negation can be written: it stays an ISETP.
// CHECK-LABEL: ori.func @g(
// CHECK-NEXT:    %x, %[[P:[0-9]+]] = ori.lop3 %a, 0x4, RZ, 0xc0
// CHECK-NEXT:    %g = ori.iadd3 %a, 0x1, RZ if not %[[P]] else %a
// CHECK-NEXT:    %c = ori.plop3 %[[P]], PT, PT, 0xf0
// CHECK-NEXT:    %y = ori.lop3 %a, 0x8, RZ, 0xc0
// CHECK-NEXT:    %n = ori.isetp eq.u32 %y, 0x0, PT
// CHECK-NEXT:    ori.bra if not %[[P]] : !ori.p, ^bb1(%n : !ori.p), ^bb2
// REM: remark: @g: general-optimize {{.*}}[lop3-predicate=1]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @g(%a: !ori.r32) -> !ori.r32 {
    %x = ori.lop3 %a, 0x4, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %e = ori.isetp eq.u32 %x, 0x0, PT : (!ori.r32) -> !ori.p
    %g = ori.iadd3 %a, 0x1, RZ if %e else %a : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %c = ori.plop3 not %e, PT, PT, 0xf0 : (!ori.p) -> !ori.p
    %y = ori.lop3 %a, 0x8, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %n = ori.isetp eq.u32 %y, 0x0, PT : (!ori.r32) -> !ori.p
    ori.bra if %e : !ori.p, ^bb1(%n : !ori.p), ^bb2
  ^bb1(%m : !ori.p):
    %s = ori.sel %g, 0x1, %m : (!ori.r32, !ori.p) -> !ori.r32
    ori.ret %s : !ori.r32
  ^bb2:
    %t = ori.sel %g, 0x2, %c : (!ori.r32, !ori.p) -> !ori.r32
    ori.ret %t : !ori.r32
  }
}
