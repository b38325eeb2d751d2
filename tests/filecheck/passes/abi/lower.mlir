// RUN: ori-opt %s -p 'ori-abi' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{sink-definitions=false call-remat=false stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=ASM
// RUN: ori-opt %s -p 'ori-abi{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: not ori-opt %s -p 'ori-abi,ori-regalloc{strategy=ssa}' 2>&1 | filecheck %s --check-prefix=SSA
// (sink-definitions=false call-remat=false: the listings below pin values
// live across calls; passes/regalloc/sink_defs.py and call_remat.py would
// compute some of them after the calls)

// Call lowering (seed 003 "Call Instruction ABI Lowering") and what
// ori-regalloc makes of it: arguments copied into pre-coloured values (R4,
// the pair at R6), the result taken from R4 and copied out, the callee's
// parameters copied at its entry and its result copied into R4 before RET.
// Values live across a call (%t, %k) get preserved registers (R2, R16-R19,
// R22-R31), never a scratch register or the return address R20:R21; the
// recursive @down saves its preserved registers and its return address,
// counted as ptxas -v counts them (stack frame and spill bytes): %n in one
// preserved register and R20:R21 are 12 bytes, the frame rounded to 8.

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @addmul(%x: !ori.r32, %y: !ori.r64) -> !ori.r32 {
    %lo, %hi = ori.unpack %y : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %x, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  }
  ori.func @down(%n: !ori.r32) -> !ori.r32 {
    %p = ori.isetp lt.u32 %n, 0x2, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^done, ^rec
  ^rec:
    %m = ori.iadd3 %n, 0xffffffff, RZ : (!ori.r32) -> !ori.r32
    %r = ori.call @down(%m) : (!ori.r32) -> !ori.r32
    %s = ori.iadd3 %r, %n, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.ret %s : !ori.r32
  ^done:
    ori.ret %n : !ori.r32
  }
  ori.func kernel @caller() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x0] : () -> !ori.r64
    %a = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    %k = ori.iadd3 %t, 0x7, RZ : (!ori.r32) -> !ori.r32
    %r = ori.call @addmul(%t, %a) : (!ori.r32, !ori.r64) -> !ori.r32
    %q = ori.call @down(%r) : (!ori.r32) -> !ori.r32
    %z = ori.iadd3 %q, %k, %t : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %z : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// IR-LABEL: ori.func @addmul
// IR-SAME:  params = [1x4 align 4 @R4, 2x4 align 8 @R6], returns = [1x4 align 4 @R4]
// IR-NEXT:  %0 = ori.mov %x {ori.abi_copy}
// IR-NEXT:  %1, %2 = ori.unpack %y {ori.abi_copy}
// IR-NEXT:  %3 = ori.pack %1, %2 {ori.abi_copy}
// IR:       ori.mov %s {ori.abi_copy, ori.abi_reg = 4 : i32}
// IR-LABEL: ori.func kernel @caller
// IR:       ori.mov %t {ori.abi_copy, ori.abi_reg = 4 : i32}
// IR:       ori.pack {{.*}} {ori.abi_copy, ori.abi_reg = 6 : i32}
// IR:       %r = ori.call @addmul({{.*}}) {ori.abi_results = array<i32: 4>, ori.abi_ret = 20 : i32}
// IR-NEXT:  ori.mov %r {ori.abi_copy}

// ASM:      ptxas info    : Function properties for down
// ASM-NEXT:     16 bytes stack frame, 12 bytes spill stores, 24 bytes spill loads
// ASM-LABEL: .func addmul(R4, R6) -> (r32)
// ASM:       RET.REL.NODEC ;  // returns R4
// ASM-LABEL: .func down(R4) -> (r32)
// ASM:       CALL.REL.NOINC `(down) ;  // (R4) -> R4
// ASM:       RET.REL.NODEC ;  // returns R4
// ASM-LABEL: .entry caller
// ASM:       S2R [[T:R(2|1[6-9]|2[2-9]|3[01])]], SR_TID.X ;
// ASM:       MOV R4, [[T]] ;
// ASM:       CALL.REL.NOINC `(addmul) ;  // (R4, R6) -> R4
// ASM:       CALL.REL.NOINC `(down) ;  // (R4) -> R4
// ASM:       IADD3 {{R[0-9]+}}, R4, {{R(2|1[6-9]|2[2-9]|3[01])}}, [[T]] ;

// REMARK: ori-abi: @addmul: remark: ABI: return address regular R20; params #0 4B in R4, #1 8B in R6; returns #0 4B in R4; preserved [R2, R16-R19, R22-R31]
// REMARK: ori-abi: @down: remark: ABI: return address regular R20; params #0 4B in R4; returns #0 4B in R4; preserved [R2, R16-R19, R22-R31]

// SSA: ori-regalloc: @addmul: strategy=ssa does not take ori-abi's pre-colouring
