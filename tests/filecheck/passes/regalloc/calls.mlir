// RUN: ori-opt %s -p 'ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=16},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=ABIMIN
// RUN: ori-opt %s -p 'ori-regalloc{max-regs=30},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=NOWARN

// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{call-remat=false},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=ABI
// RUN: ori-opt %s -p 'ori-abi{reserve-r0-r3=true},ori-regalloc,ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=SEED

// Calls (seed 003): a kernel that calls and every device function take part
// in the calling convention.  R1 is reserved; R0 and R3 are scratch and R2
// preserved, as ptxas 13.0 allocates them (the seed's "Registers R0--R3 are
// reserved by the ABI" is ori-abi{reserve-r0-r3=true}: SEED).  With ori-abi
// and call-remat=false (call-remat computes the address after the call:
// call-remat.mlir) the caller keeps its address in R2:R3 across the call:
// R2 is preserved and @addmul, allocated first, leaves R3 alone.  A limit
// below the ABI minimum (24 on sm_60..sm_90a) is raised with warning 7016;
// ptxas prints device functions with only the properties lines.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @addmul(%x: !ori.r32, %y: !ori.r32) -> !ori.r32 attributes {params = [#ori.param<4, align 4>, #ori.param<4, align 4>], returns = [#ori.param<4, align 4>]} {
    %s = ori.iadd3 %x, %y, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %m = ori.imad %s, %x, %y : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %m : !ori.r32
  }
  ori.func kernel @caller() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %r = ori.call @addmul(%t, %k) : (!ori.r32, !ori.r32) -> !ori.r32
    %z = ori.iadd3 %r, %k, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// CHECK:      ptxas info    : Function properties for addmul
// CHECK-NEXT:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: ori info      : Function addmul uses {{[0-9]+}} registers
// CHECK-NEXT: ptxas info    : Compiling entry function 'caller' for 'sm_80'
// CHECK:      ptxas info    : Used {{[0-9]+}} registers, used 0 barriers, 360 bytes cmem[0]
// CHECK-LABEL: .func addmul
// CHECK:      RET.REL.NODEC ;
// CHECK-LABEL: .entry caller
// CHECK:      CALL.REL.NOINC `(addmul) ;
// CHECK:      EXIT ;

// ABI-LABEL: .func addmul(R4, R5)
// ABI:        IADD3 R0, R4, R5, RZ ;
// ABI-LABEL: .entry caller
// ABI:        LDC.64 R2, c[0x0][0x0] ;
// ABI:        CALL.REL.NOINC `(addmul) ;
// ABI:        STG.E [R2.64], R{{[0-9]+}} ;

// SEED-LABEL: .func addmul(R4, R5)
// SEED-NOT:   {{R[0-3]}}{{[,; )]}}
// SEED:       RET.REL.NODEC ;
// SEED-LABEL: .entry caller
// SEED-NOT:   {{R[0-3]}}{{[,; )]}}
// SEED:       CALL.REL.NOINC `(addmul) ;
// SEED-NOT:   {{R[0-3]}}{{[,; )]}}
// SEED:       EXIT ;

// ABIMIN: ori-regalloc: @addmul: warning 7016: regcount 16 specified below abi_minimum of 24
// ABIMIN: ori-regalloc: @caller: warning 7016: regcount 16 specified below abi_minimum of 24
// ABIMIN-NOT: would raise it
// ABIMIN: .entry caller

// NOWARN-NOT: warning
// NOWARN: .entry caller
