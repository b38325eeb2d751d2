// ori-general-optimize, copy propagation (seed 001 phase 13 GeneralOptimizeEarly,
// "const fold + copy prop"): uses of an unguarded MOV of a register read the
// source; a guarded MOV keeps its prior value and is no copy; a MOV between
// register files (UR -> R) is a real move.  The copy left without readers
// goes (dead-code, after the rounds).
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{copy-prop=false}' | filecheck %s --check-prefix=OFF

// CHECK-LABEL: ori.func kernel @copies(
// CHECK-NOT:     %m = ori.mov %x
// CHECK:         %s = ori.iadd3 %x, %x, RZ
// CHECK-NEXT:    %g = ori.mov %x if %p else %y
// CHECK-NEXT:    %t = ori.iadd3 %g, %x, RZ
// CHECK-NEXT:    %u = ori.mov %ux
// CHECK-NEXT:    %v = ori.iadd3 %u, %x, RZ
// CHECK-NEXT:    ori.stg [%a], %s
// CHECK-NEXT:    ori.stg [%a + 0x4], %t
// CHECK-NEXT:    ori.stg [%a + 0x8], %v
// REM: remark: @copies: general-optimize [copies=1] [constants=0]
// OFF:           %s = ori.iadd3 %m, %m, RZ
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @copies() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %y = ori.s2r SR_TID.Y : () -> !ori.r32
    %cx = ori.s2r SR_CTAID.X : () -> !ori.r32
    %ux = ori.r2ur %cx : (!ori.r32) -> !ori.ur32
    %p = ori.isetp lt %x, 0x4, PT : (!ori.r32) -> !ori.p
    %m = ori.mov %x : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %m, %m, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %g = ori.mov %x if %p else %y : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %g, %m, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %u = ori.mov %ux : (!ori.ur32) -> !ori.r32
    %v = ori.iadd3 %u, %m, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x4], %t : (!ori.r64, !ori.r32) -> ()
    ori.stg [%a + 0x8], %v : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
