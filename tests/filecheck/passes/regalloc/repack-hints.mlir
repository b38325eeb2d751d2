// RUN: ori-opt %s -p 'ori-abi,ori-regalloc,ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s

// A 64-bit argument and result (passes/regalloc/coalesce.py, "repack
// hints"): ori-abi copies %v into the parameter pair as PACK(UNPACK(%v)) and
// the result out the same way.  Each side prefers the other's register, so
// %v is computed straight into R4:R5 and the result read there: no PACK or
// UNPACK costs an instruction.  Without the hint %v took the lowest free
// pair, R2:R3, and each copy was a real move.

// CHECK-LABEL: .entry k
// CHECK:       IMAD.WIDE.U32 R4, R{{[0-9]+}}, 0x7, R2 ;
// CHECK-NEXT:  // UNPACK R4, R5, R4 ;  no instruction: in place
// CHECK-NEXT:  // PACK R4, R4, R5 ;  no instruction: in place
// CHECK-NEXT:  CALL.REL.NOINC `(f) ;  // (R4) -> R4
// CHECK-NEXT:  // UNPACK R4, R5, R4 ;  no instruction: in place
// CHECK-NEXT:  // PACK R4, R4, R5 ;  no instruction: in place
// CHECK-NEXT:  STG.E.64 [R{{[0-9]+}}.64], R4 ;
// CHECK:       // end k: 7 instructions, 1 block

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%x: !ori.r64) -> !ori.r64 attributes {params = [#ori.param<8, align 8>], returns = [#ori.param<8, align 8>]} {
    %lo, %hi = ori.unpack %x : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %lo, %hi, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %w = ori.imad wide.u32 %s, 0x3, %x : (!ori.r32, !ori.r64) -> !ori.r64
    ori.ret %w : !ori.r64
  }
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x8, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %v = ori.imad wide.u32 %t, 0x7, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %r = ori.call @f(%v) : (!ori.r64) -> !ori.r64
    ori.stg b64 [%a], %r : (!ori.r64, !ori.r64) -> ()
    ori.exit
  }
}
