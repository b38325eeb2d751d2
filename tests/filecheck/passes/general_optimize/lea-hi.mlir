// ori-general-optimize, x + (a >> n) as LEA.HI (passes/general_optimize/
// lea_hi.py): the rounding of a signed division by 16, shr.s32 / shr.u32 /
// add.s32 / shr.s32 as nvcc writes it, is ptxas's `SHF.R.S32.HI R17, RZ,
// 0x1f, R4` / `LEA.HI R22, R17, R4, RZ, 0x4` / `SHF.R.S32.HI R23, RZ, 0x4,
// R22`: %u1 rewritten (the shifted word in either slot, 0 or RZ as the
// third source) and the SHR.U32 dies.  Not rewritten: an arithmetic shift
// (%u2: the sign bits would be added), an add of three words (%u3), a
// negated source (%u4), a shift by a register (%u5), a carry-out that is
// read (%u6).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{lea-hi=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

// CHECK-LABEL: ori.func @f(
// CHECK-NEXT:    %s = ori.shr %x, 0x1f
// CHECK-NEXT:    %u1 = ori.lea hi %s, %x, 0x4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %q = ori.shr %u1, 0x4
// CHECK-NEXT:    %v1 = ori.lea hi %s, %y, 0x7, RZ : (!ori.r32, !ori.r32) -> !ori.r32
// CHECK-NEXT:    %ta = ori.shr %s, 0x1c
// CHECK-NEXT:    %u2 = ori.iadd3 %x, %ta, RZ
// CHECK-NEXT:    %t = ori.shr u32 %s, 0x1c
// CHECK-NEXT:    %u3 = ori.iadd3 %x, %t, %y
// CHECK-NEXT:    %u4 = ori.iadd3 %x, -%t, RZ
// CHECK-NEXT:    %tr = ori.shr u32 %s, %y
// CHECK-NEXT:    %u5 = ori.iadd3 %x, %tr, RZ
// CHECK-NEXT:    %u6, %o6 = ori.iadd3 %x, %t, RZ
// REM: remark: @f: general-optimize {{.*}}[lea-hi=2]
// OFF:           %u1 = ori.iadd3 %x, %t1, RZ
// ASM: LEA.HI R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, RZ, 0x4 ;
builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%x: !ori.r32, %y: !ori.r32) -> !ori.r32 {
    %s = ori.shr %x, 0x1f : (!ori.r32) -> !ori.r32
    %t1 = ori.shr u32 %s, 0x1c : (!ori.r32) -> !ori.r32
    %u1 = ori.iadd3 %x, %t1, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.shr %u1, 0x4 : (!ori.r32) -> !ori.r32
    %t7 = ori.shr u32 %s, 0x19 : (!ori.r32) -> !ori.r32
    %v1 = ori.iadd3 %t7, 0x0, %y : (!ori.r32, !ori.r32) -> !ori.r32
    %ta = ori.shr %s, 0x1c : (!ori.r32) -> !ori.r32
    %u2 = ori.iadd3 %x, %ta, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %t = ori.shr u32 %s, 0x1c : (!ori.r32) -> !ori.r32
    %u3 = ori.iadd3 %x, %t, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %u4 = ori.iadd3 %x, -%t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %tr = ori.shr u32 %s, %y : (!ori.r32, !ori.r32) -> !ori.r32
    %u5 = ori.iadd3 %x, %tr, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u6, %o6 = ori.iadd3 %x, %t, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %w1 = ori.iadd3 %q, %v1, %u2 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w2 = ori.iadd3 %w1, %u3, %u4 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w3 = ori.iadd3 %w2, %u5, %u6 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %w4 = ori.sel %w3, RZ, %o6 : (!ori.r32, !ori.p) -> !ori.r32
    ori.ret %w4 : !ori.r32
  }
}
