// ori-general-optimize, guarded copies (passes/general_optimize/guard_sink.py):
// the importer lowers `@p add.u32 r0, r0, x` as an unguarded IADD3 and a
// guarded MOV of its result; the rule makes the IADD3 itself guarded, tied
// to the MOV's prior value -- ptxas's `@P0 IADD3 R5, R5, R4, RZ` in CUB's
// warp scans.  %s1: the scan step (the SHFL's predicate guards the add).
// %s2: a negated guard.  %q: a predicate copy (PLOP3 p, PT, PT, 0xf0) of
// an ISETP becomes the guarded ISETP.  %w: the words of a guarded 64-bit
// add, whose PACK of the unguarded words is dead (erased with them).
// Not rewritten: a value with another reader (%n1), a computation in
// another block (%b1: it would move into the loop), a load (%ld: not free
// of side effects).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{guard-sink=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

// CHECK-LABEL: ori.func @scan(
// CHECK:         %r0, %p = ori.shfl up %x, 0x1, 0x0
// CHECK-NEXT:    %s1 = ori.iadd3 %r0, %x, RZ if %p else %r0 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %s2 = ori.lop3 %s1, %x, RZ, 0xfc if not %p else %s1 : (!ori.r32, !ori.r32, !ori.p, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %q = ori.isetp lt %s2, 0x10, PT if %p else %g : (!ori.r32, !ori.p, !ori.p) -> !ori.p
// CHECK-NEXT:    %n0 = ori.iadd3 %s2, 0x3, RZ
// CHECK-NEXT:    %n1 = ori.mov %n0 if %q else %s2
// CHECK-NEXT:    %ld = ori.ldg [%a]
// CHECK-NEXT:    %l1 = ori.mov %ld if %q else %n1
// CHECK-NEXT:    %{{.*}}, %c = ori.iadd3 %l1, %x, RZ
// CHECK-NEXT:    %w0 = ori.iadd3 %l1, %x, RZ if %q else %l1
// CHECK-NEXT:    %w1 = ori.iadd3 x %n0, RZ, RZ, %c if %q else %n1
// CHECK-NOT:     ori.pack
// CHECK:         ori.sel

// CHECK-LABEL: ori.func @loop(
// CHECK:         %b0 = ori.iadd3 %x, 0x7, RZ
// CHECK:       ^bb1(%i: !ori.r32):
// CHECK-NEXT:    %b1 = ori.mov %b0 if %p else %i

// REM: remark: @scan: general-optimize {{.*}}[guard-sink=5]
// REM: remark: @loop: general-optimize {{.*}}[guard-sink=0]
// REM: remark: @self_prior: general-optimize {{.*}}[guard-sink=0]

// A copy whose prior value is the copied value itself (%k) keeps it: the
// prior must stay defined.
// CHECK-LABEL: ori.func @self_prior(
// CHECK:         %t = ori.iadd3 %x, 0x1, RZ
// CHECK-NEXT:    %k = ori.mov %t if %p else %t

// OFF-LABEL: ori.func @scan(
// OFF:         %s1 = ori.mov %{{.*}} if %p else %r0

// ASM-LABEL: .func scan
// ASM:         SHFL.UP [[R:R[0-9]+]], [[P:P[0-9]]], {{.*}}
// ASM-NEXT:    @[[P]] IADD3 [[R]], [[R]], {{.*}}
// ASM-NEXT:   @![[P]] LOP3.LUT [[R]], [[R]], {{.*}}

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @scan(%x: !ori.r32, %g: !ori.p, %a: !ori.r64) -> (!ori.r32, !ori.r32) {
    %r0, %p = ori.shfl up %x, 0x1, 0x0 : (!ori.r32) -> (!ori.r32, !ori.p)
    %t1 = ori.iadd3 %r0, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %s1 = ori.mov %t1 if %p else %r0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %t2 = ori.lop3 %s1, %x, RZ, 0xfc : (!ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.mov %t2 if not %p else %s1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %t3 = ori.isetp lt %s2, 0x10, PT : (!ori.r32) -> !ori.p
    %q = ori.plop3 %t3, PT, PT, 0xf0 if %p else %g : (!ori.p, !ori.p, !ori.p) -> !ori.p
    %n0 = ori.iadd3 %s2, 0x3, RZ : (!ori.r32) -> !ori.r32
    %n1 = ori.mov %n0 if %q else %s2 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %ld = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %l1 = ori.mov %ld if %q else %n1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %u0, %c = ori.iadd3 %l1, %x, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %v0 = ori.iadd3 %l1, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %v1 = ori.iadd3 x %n0, RZ, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %dead = ori.pack %v0, %v1 : (!ori.r32, !ori.r32) -> !ori.r64
    %w0 = ori.mov %v0 if %q else %l1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %w1 = ori.mov %v1 if %q else %n1 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %o = ori.sel %w0, %w1, %q : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.ret %o, %n0 : !ori.r32, !ori.r32
  }
  ori.func @loop(%x: !ori.r32, %p: !ori.p) -> !ori.r32 {
    %b0 = ori.iadd3 %x, 0x7, RZ : (!ori.r32) -> !ori.r32
    ori.bra ^bb1(%x : !ori.r32)
  ^bb1(%i: !ori.r32):
    %b1 = ori.mov %b0 if %p else %i : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %c1 = ori.isetp lt %b1, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %c1 : !ori.p, ^bb1(%b1 : !ori.r32), ^bb2
  ^bb2:
    ori.ret %b1 : !ori.r32
  }
  ori.func @self_prior(%x: !ori.r32, %p: !ori.p) -> !ori.r32 {
    %t = ori.iadd3 %x, 0x1, RZ : (!ori.r32) -> !ori.r32
    %k = ori.mov %t if %p else %t : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.ret %k : !ori.r32
  }
}

