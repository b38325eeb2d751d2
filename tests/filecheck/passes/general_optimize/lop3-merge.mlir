// ori-general-optimize, lop3-merge (passes/general_optimize/lop3_merge.py):
// a LOP3 read only by another LOP3 merges into it when the two read at most
// three inputs, the truth tables composed.  @xor3: Philox's x ^ k ^ y is
// one LOP3.LUT .., 0x96, as in ptxas's listing.  @port: an immediate input
// keeps slot b ((a & 0xff) | b: table 0xEA).  @kept: four inputs, and an
// inner LOP3 with a second reader, stay as they are.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{lop3-merge=false},ori-dead-code' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @xor3(
// CHECK:         %y = ori.lop3 %a, %b, %c, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
// CHECK-NOT:     ori.lop3
// REM: remark: @xor3: general-optimize {{.*}}[lop3-merge=1]
// OFF-LABEL: ori.func kernel @xor3(
// OFF: %x = ori.lop3 %a, %b, RZ, 0x3c
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @xor3() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %c = ori.ldg [%w + 0x100] : (!ori.r64) -> !ori.r32
    %x = ori.lop3 %a, %b, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %y = ori.lop3 %x, %c, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x180], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @port(
// CHECK:         %y = ori.lop3 %a, 0xff, %b, 0xea : (!ori.r32, !ori.r32) -> !ori.r32
// REM: remark: @port: general-optimize {{.*}}[lop3-merge=1]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @port() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %x = ori.lop3 %a, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %y = ori.lop3 %b, %x, RZ, 0xfc : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x180], %y : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @kept(
// CHECK:         %x = ori.lop3 %a, %b, %c, 0x96
// CHECK-NEXT:    %y = ori.lop3 %x, %d, RZ, 0x3c
// CHECK-NEXT:    %u = ori.lop3 %a, %b, RZ, 0x3c
// CHECK-NEXT:    %v = ori.lop3 %u, %c, RZ, 0xc0
// CHECK-NEXT:    %z = ori.iadd3 %v, %u, %y
// REM: remark: @kept: general-optimize {{.*}}[lop3-merge=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @kept() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %c = ori.ldg [%w + 0x100] : (!ori.r64) -> !ori.r32
    %d = ori.ldg [%w + 0x180] : (!ori.r64) -> !ori.r32
    %x = ori.lop3 %a, %b, %c, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y = ori.lop3 %x, %d, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.lop3 %a, %b, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %v = ori.lop3 %u, %c, RZ, 0xc0 : (!ori.r32, !ori.r32) -> !ori.r32
    %s = ori.iadd3 %v, %u, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.iadd3 %s, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x200], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
