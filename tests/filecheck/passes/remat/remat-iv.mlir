// ori-remat: IV demotion (seed 002 "IV Demotion", remat-iv).  A 64-bit
// header argument carried as i + step whose every value provably fits 32 bits
// (the overflow proof in passes/remat/iv.py) becomes newBaseIV (32 bits):
// iv_base_clone_ is its initial value, demoteIV (the low-word add) the value
// passed back, substIV the high word (0, or the sign) and the 64-bit rebuilds.
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-iv=3 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=L3
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-iv=2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=L2
// RUN: ori-opt %s --split-input-file -p 'ori-remat{remat-iv=0 remarks=true stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s --split-input-file -p 'ori-remat{dump-remat-iv=1 stats=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP

// CHECK-LABEL: ori.func kernel @basic(
// CHECK:         %iv_base_clone_i = ori.mov 0x0
// CHECK-NEXT:    ori.bra ^bb1(%z : !ori.r32, %iv_base_clone_i : !ori.r32)
// CHECK-NEXT:  ^bb1(%s: !ori.r32, %newBaseIV: !ori.r32):
// CHECK-NEXT:    %substIV = ori.mov 0x0
// CHECK-NEXT:    %s2 = ori.iadd3 %s, %newBaseIV, %substIV
// CHECK-NEXT:    %demoteIV, %c = ori.iadd3 %newBaseIV, 0x1, RZ
// CHECK-NEXT:    %hi2 = ori.iadd3 x %substIV, 0x0, RZ, %c
// CHECK-NEXT:    %q = ori.isetp lt.u32 %demoteIV, 0x64, PT
// CHECK-NEXT:    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q
// CHECK-NEXT:    ori.bra if %p : !ori.p, ^bb1(%s2 : !ori.r32, %demoteIV : !ori.r32), ^bb2
// CHECK-NOT:     ori.pack
// REM: remark: @basic ^bb1: demoted 64-bit IV %i to 32 bits (values 0..100)
// DUMP: ori-remat: @basic: Loop ^bb1: IV %i: init 0, step 1, values 0..100: (val + 0x80000000) <= 0xFFFFFFFF
// DUMP-NEXT: ori-remat: @basic: Loop ^bb1: demoteIV %demoteIV, newBaseIV %newBaseIV, iv_base_clone_ %iv_base_clone_i, substIV x 1
// DUMP-NEXT: ori-remat: @basic: [max live
// OFF-NOT: demoted 64-bit
// OFF: @basic: [max live {{.*}} [demoted IVs 0]
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @basic() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo2, 0x64, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// The test reads the IV itself: the last value is one step further.
// REM: remark: @reads_iv ^bb1: demoted 64-bit IV %i to 32 bits (values 0..101)
// CHECK-LABEL: ori.func kernel @reads_iv(
// CHECK:         %q = ori.isetp lt.u32 %newBaseIV, 0x64, PT
// CHECK-NEXT:    %p = ori.isetp lt.ex %substIV, 0x0, PT, %q
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @reads_iv() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo, 0x64, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// Negative values (-50..50): the high word is the sign, remat-iv=4 (full) only.
// REM: remark: @negative ^bb1: demoted 64-bit IV %i to 32 bits (values -50..50)
// L3: remark: @negative ^bb1: 64-bit IV %i not demoted: the IV takes negative values (remat-iv=3 < 4)
// CHECK-LABEL: ori.func kernel @negative(
// CHECK:         %iv_base_clone_i = ori.mov -0x32
// CHECK:       ^bb1(%s: !ori.r32, %newBaseIV: !ori.r32):
// CHECK-NEXT:    %substIV = ori.shr %newBaseIV, 0x1f
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @negative() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack 0xffffffce, 0xffffffff : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo2, 0x32, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// An unsigned 64-bit 'ne' test: exits at 400 = 100 steps of 4.
// REM: remark: @ne_unsigned ^bb1: demoted 64-bit IV %i to 32 bits (values 0..400)
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @ne_unsigned() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x4, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp ne.u32 %lo2, 0x190, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp ne.u32.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// 0x7fffff00 + k * 0x40 passes 2^31 before reaching the bound 0x80000100.
// REM: remark: @too_wide ^bb1: 64-bit IV %i not demoted: the IV leaves the 32-bit range before the loop exits
// CHECK-LABEL: ori.func kernel @too_wide(
// CHECK:       ^bb1(%i: !ori.r64, %s: !ori.r32):
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @too_wide() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack 0x7fffff00, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x40, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo2, 0x80000100, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}

// -----
// 64-bit uses of the IV (a store) and of its increment (after the loop):
// rebuilt from the 32-bit IV with remat-iv >= 3 (extended).
// REM: remark: @wide_uses ^bb1: demoted 64-bit IV %i to 32 bits (values 0..100)
// L3: remark: @wide_uses ^bb1: demoted 64-bit IV %i to 32 bits (values 0..100)
// L2: remark: @wide_uses ^bb1: 64-bit IV %i not demoted: the IV has a 64-bit use (remat-iv=2 < 3)
// CHECK-LABEL: ori.func kernel @wide_uses(
// CHECK:         %substIV_1 = ori.mov 0x0
// CHECK-NEXT:    %substIV_2 = ori.pack %newBaseIV, %substIV_1
// CHECK-NEXT:    ori.stg b64 [%out + 0x8], %substIV_2
// CHECK:         %next = ori.pack %demoteIV, %hi2
// CHECK:         ori.stg b64 [%out + 0x10], %next
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @wide_uses() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack RZ, 0x0 : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg b64 [%out + 0x8], %i : (!ori.r64, !ori.r64) -> ()
    %lo2, %c = ori.iadd3 %lo, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo2, 0x64, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg b64 [%out + 0x10], %next : (!ori.r64, !ori.r64) -> ()
    ori.exit
  }
}

// -----
// A pointer walked in 64 bits: no constant start, nothing to prove.
// REM: remark: @pointer ^bb1: 64-bit IV %i not demoted: the initial value is not a constant
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @pointer() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%out : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp lt.u32 %lo2, 0x64, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp lt.ex %hi2, 0x0, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
