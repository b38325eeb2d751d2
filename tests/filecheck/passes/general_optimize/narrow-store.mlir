// ori-general-optimize, masks read only by narrow stores
// (passes/general_optimize/narrow_store.py): 16-bit PTX arithmetic is
// zero-extended with LOP3.LUT x, 0xffff, RZ, 0xc0 for its readers; a store
// of 16 or 8 bits writes only the low bits, so a mask whose readers are all
// such stores goes -- ptxas's `IADD3 R3, R17, 0x1, RZ` / `STS.U16 [R16], R3`
// in CUB's radix counters.  %c1: the counter increment stored to shared
// memory; %m2: stored twice (u8 and s16); %m3: 0x1ff keeps the 8 bits a u8 store writes.
// Not rewritten: %n1 (0xff keeps fewer bits than a u16 store writes), %n2
// (also added to), %n3 (stored as 32 bits), %n4 (the store's address),
// %n5 (guarded: its prior value shows where the guard is false).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{narrow-store=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-general-optimize,ori-regalloc' -t ori-asm | filecheck %s --check-prefix=ASM

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @counters() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %a = ori.shl %t, 0x1 : (!ori.r32) -> !ori.r32
    %v = ori.lds u16 [%a] : (!ori.r32) -> !ori.r32
    %i1 = ori.iadd3 %v, 0x1, RZ : (!ori.r32) -> !ori.r32
    %c1 = ori.lop3 %i1, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.sts u16 [%a], %c1 : (!ori.r32, !ori.r32) -> ()
    %m2 = ori.lop3 %t, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u8 [%out], %m2 : (!ori.r64, !ori.r32) -> ()
    ori.stg s16 [%out + 0x2], %m2 : (!ori.r64, !ori.r32) -> ()
    %m3 = ori.lop3 %t, 0x1ff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u8 [%out + 0x4], %m3 : (!ori.r64, !ori.r32) -> ()
    %n1 = ori.lop3 %t, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u16 [%out + 0x6], %n1 : (!ori.r64, !ori.r32) -> ()
    %n2 = ori.lop3 %i1, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u16 [%out + 0x8], %n2 : (!ori.r64, !ori.r32) -> ()
    %s2 = ori.iadd3 %n2, %t, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%out + 0xc], %s2 : (!ori.r64, !ori.r32) -> ()
    %n3 = ori.lop3 %v, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg [%out + 0x10], %n3 : (!ori.r64, !ori.r32) -> ()
    %n4 = ori.lop3 %t, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.sts u16 [%n4 + 0x100], %n4 : (!ori.r32, !ori.r32) -> ()
    %p = ori.isetp lt %t, 0x4, PT : (!ori.r32) -> !ori.p
    %n5 = ori.lop3 %i1, 0xffff, RZ, 0xc0 if %p else %v : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg u16 [%out + 0x14], %n5 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: ori.func kernel @counters
// CHECK:         %i1 = ori.iadd3 %v, 0x1, RZ
// CHECK-NEXT:    ori.sts u16 [%a], %i1
// CHECK-NEXT:    ori.stg u8 [%out], %t
// CHECK-NEXT:    ori.stg s16 [%out + 0x2], %t
// CHECK-NEXT:    ori.stg u8 [%out + 0x4], %t
// CHECK-NEXT:    %n1 = ori.lop3 %t, 0xff, RZ, 0xc0
// CHECK-NEXT:    ori.stg u16 [%out + 0x6], %n1
// CHECK-NEXT:    %n2 = ori.lop3 %i1, 0xffff, RZ, 0xc0
// CHECK:         %n3 = ori.lop3 %v, 0xffff, RZ, 0xc0
// CHECK:         %n4 = ori.lop3 %t, 0xffff, RZ, 0xc0
// CHECK:         %n5 = ori.lop3 %i1, 0xffff, RZ, 0xc0 if %p else %v

// REM: [narrow-store=3]

// OFF:           %c1 = ori.lop3 %i1, 0xffff, RZ, 0xc0
// OFF-NEXT:      ori.sts u16 [%a], %c1

// ASM-LABEL: .entry counters
// ASM:       LDS.U16 [[V:R[0-9]+]], [[[A:R[0-9]+]]] ;
// ASM-NEXT:  IADD3 [[I:R[0-9]+]], [[V]], 0x1, RZ ;
// ASM-NEXT:  STS.U16 [[[A]]], [[I]] ;
