// RUN: ori-opt %s -p 'ori-abi' | filecheck %s --check-prefix=IR
// RUN: ori-opt %s -p 'ori-abi{constant-args=false}' | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-abi,ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=ASM
// RUN: ori-opt %s -p 'ori-abi{constant-args=false},ori-regalloc{stats=true},ori-check-regalloc' -t ori-asm 2>&1 | filecheck %s --check-prefix=ASM-OFF
// RUN: ori-opt %s -p 'ori-abi{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Constant arguments recomputed at their calls (passes/abi/constant_args.py):
// in @loop the symbol address %g, the immediate %k, the generic address of
// the frame %buf (a PACK of a frame address and the local window's high
// word) and the constant-bank word %c are read only by the calls' argument
// copies, so each call writes them into R4-R9 itself and the originals are
// gone: only %t, %kept and the counter live across the calls (in registers
// @use leaves alone), 14 registers and 6 instructions per call.  %kept is
// also added to the counter: its copy stays.  With constant-args=false the
// four values are held across the loop and copied at each call: 20
// registers, 7 instructions per call.

builtin.module attributes {ori.target = "sm_80"} {
  ori.global @g global size 4 align 4
  ori.func @use(%p: !ori.r64, %k: !ori.r32, %q: !ori.r64, %c: !ori.r32, %x: !ori.r32) {
    %lo, %hi = ori.unpack %p : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s = ori.iadd3 %lo, %k, %c : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.iadd3 %s, %x, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%q], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.ret
  }
  ori.func kernel @loop() attributes {params = [#ori.param<4, align 4, at 0x0>], ori.local_bytes = 8 : i32} {
    ori.frame_enter 0x10 : () -> ()
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %g = ori.addr @g : !ori.r64
    %k = ori.mov 0x2a : () -> !ori.r32
    %fa = ori.frame_addr 0x0 : () -> !ori.r32
    %buf = ori.pack %fa, 0x7d00 : (!ori.r32) -> !ori.r64
    %c = ori.ldc 0x0, [RZ + 0x0] : () -> !ori.r32
    %kept = ori.mov 0x7 : () -> !ori.r32
    %zero = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^body(%zero : !ori.r32)
  ^body(%i: !ori.r32):
    ori.call @use(%g, %k, %buf, %c, %t) : (!ori.r64, !ori.r32, !ori.r64, !ori.r32, !ori.r32) -> ()
    ori.call @use(%g, %kept, %buf, %c, %i) : (!ori.r64, !ori.r32, !ori.r64, !ori.r32, !ori.r32) -> ()
    %n = ori.iadd3 %i, %kept, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %p = ori.isetp lt %n, 0x40, PT : (!ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^body(%n : !ori.r32), ^done
  ^done:
    ori.exit
  }
}

// IR-LABEL: ori.func kernel @loop
// IR:       %t = ori.s2r SR_TID.X
// IR-NEXT:  %kept = ori.mov 0x7
// IR-NEXT:  %zero = ori.mov 0x0
// IR:       ^body(%i: !ori.r32):
// IR-NEXT:  %g = ori.addr @g {ori.abi_copy, ori.abi_reg = 4 : i32} : !ori.r64
// IR-NEXT:  %k = ori.mov 0x2a {ori.abi_copy, ori.abi_reg = 6 : i32}
// IR-NEXT:  %fa = ori.frame_addr 0x0 : () -> !ori.r32
// IR-NEXT:  %buf = ori.pack %fa, 0x7d00 {ori.abi_copy, ori.abi_reg = 8 : i32}
// IR-NEXT:  %c = ori.ldc 0x0, [RZ] {ori.abi_copy, ori.abi_reg = 7 : i32}
// IR-NEXT:  {{%.*}} = ori.mov %t {ori.abi_copy, ori.abi_reg = 10 : i32}
// IR-NEXT:  ori.call @use(%g, %k, %buf, %c, {{%.*}})
// IR-NEXT:  %g_1 = ori.addr @g {ori.abi_copy, ori.abi_reg = 4 : i32} : !ori.r64
// IR-NEXT:  {{%.*}} = ori.mov %kept {ori.abi_copy, ori.abi_reg = 6 : i32}
// IR-NEXT:  %fa_1 = ori.frame_addr 0x0 : () -> !ori.r32
// IR-NEXT:  %buf_1 = ori.pack %fa_1, 0x7d00 {ori.abi_copy, ori.abi_reg = 8 : i32}
// IR-NEXT:  %c_1 = ori.ldc 0x0, [RZ] {ori.abi_copy, ori.abi_reg = 7 : i32}
// IR-NEXT:  {{%.*}} = ori.mov %i {ori.abi_copy, ori.abi_reg = 10 : i32}
// IR-NEXT:  ori.call @use(%g_1,

// OFF-LABEL: ori.func kernel @loop
// OFF:       %g = ori.addr @g : !ori.r64
// OFF:       %buf = ori.pack %fa, 0x7d00
// OFF:       ori.unpack %g {ori.abi_copy}

// ASM:       ptxas info    : Function properties for loop
// ASM:       ptxas info    : Used 14 registers
// ASM-LABEL: .entry loop
// ASM:       MOV.64 R4, &g ;
// ASM-NEXT:  MOV R6, 0x2a ;
// ASM:       CALL.REL.NOINC `(use) ;
// ASM:       MOV.64 R4, &g ;
// ASM:       CALL.REL.NOINC `(use) ;
// ASM:       end loop: 22 instructions

// ASM-OFF:       ptxas info    : Function properties for loop
// ASM-OFF:       ptxas info    : Used 20 registers
// ASM-OFF-LABEL: .entry loop
// ASM-OFF:       UNPACK R4, R5, {{R[0-9]+}} ;
// ASM-OFF:       end loop: 25 instructions

// REMARK: ori-abi: @loop: remark: 7 argument copies replaced by the constant written at the call (constant_args.py)
