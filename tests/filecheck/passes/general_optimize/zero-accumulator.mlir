// ori-general-optimize, pack-unpack's zero accumulator (passes/general_optimize/
// pack_unpack.py ZeroAccumulator): an MMA whose C is a PACK of zeros reads
// RZ (ptxas: HMMA.16816.F32 R36, R28, R32, RZ), and the PACK, four MOVs
// after allocation, is gone.  @nonzero: a PACK with a register word stays.
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize{pack-unpack=false},ori-dead-code' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s --split-input-file -p 'ori-general-optimize,ori-dead-code,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

// CHECK-LABEL: ori.func kernel @zero(
// CHECK-NOT:     ori.pack RZ
// CHECK:         %d = ori.hmma m16n8k16.f32 %a, %b, RZ : (!ori.r128, !ori.r64) -> !ori.r128
// CHECK:         %e = ori.imma m16n8k32.s8.s8 %a, %b, RZ : (!ori.r128, !ori.r64) -> !ori.r128
// REM: remark: @zero: general-optimize {{.*}}[zero-accumulator=2]
// OFF-LABEL: ori.func kernel @zero(
// OFF:         %d = ori.hmma m16n8k16.f32 %a, %b, %z
// ASM-LABEL: .entry zero
// ASM-NOT:     PACK
// ASM:         HMMA.16816.F32 R{{[0-9]+}}, R{{[0-9]+}}, R{{[0-9]+}}, RZ ;
// ASM:         IMMA.16832.S8.S8 R{{[0-9]+}}, R{{[0-9]+}}.ROW, R{{[0-9]+}}.COL, RZ ;
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @zero() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.ldg b128 [%p] : (!ori.r64) -> !ori.r128
    %b = ori.ldg b64 [%p + 0x10] : (!ori.r64) -> !ori.r64
    %k = ori.mov 0x0 : () -> !ori.r32
    %z = ori.pack %k, %k, %k, %k : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %d = ori.hmma m16n8k16.f32 %a, %b, %z : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %e = ori.imma m16n8k32.s8.s8 %a, %b, %z : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    ori.stg b128 [%p + 0x20], %d : (!ori.r64, !ori.r128) -> ()
    ori.stg b128 [%p + 0x30], %e : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}

// -----
// CHECK-LABEL: ori.func kernel @nonzero(
// CHECK:         %z = ori.pack RZ, RZ, RZ, %k
// CHECK-NEXT:    %d = ori.hmma m16n8k16.f32 %a, %b, %z
// REM: remark: @nonzero: general-optimize {{.*}}[zero-accumulator=0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @nonzero() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.ldg b128 [%p] : (!ori.r64) -> !ori.r128
    %b = ori.ldg b64 [%p + 0x10] : (!ori.r64) -> !ori.r64
    %k = ori.ldg [%p + 0x40] : (!ori.r64) -> !ori.r32
    %z = ori.pack RZ, RZ, RZ, %k : (!ori.r32) -> !ori.r128
    %d = ori.hmma m16n8k16.f32 %a, %b, %z : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    ori.stg b128 [%p + 0x20], %d : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}
