// RUN: ori-opt %s --split-input-file -p 'ori-regalloc,ori-stats' 2>&1 >/dev/null | filecheck %s

// ori-stats's "Used" line as ptxas 13.0 -v prints it (passes/stats.py):
// barriers are the highest id + 1 (16 for an id in a register), then
// ", M bytes smem" and, on sm_75..sm_89 only, ", P bytes cmem[0]" with P =
// 0x160 + the parameter bytes.  The same kernels in PTX give ptxas's
// "Used 4 registers, used 4 barriers, 352 bytes cmem[0]" (bar.sync 3) and
// "used 16 barriers, 356 bytes cmem[0]" (bar.sync %r1 with one .u32).

builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @bar3() attributes {params = []} {
    ori.bar 0x3 : () -> ()
    ori.exit
  }
  ori.func kernel @bar52() attributes {params = [#ori.param<4, align 4, at 0x0>, #ori.param<8, align 8, at 0x8>], ori.shared_bytes = 1024 : i32} {
    ori.bar 0x5 : () -> ()
    ori.bar arv 0x2, 0x40 : () -> ()
    ori.exit
  }
  ori.func kernel @barreg() attributes {params = [#ori.param<4, align 4, at 0x0>]} {
    %n = ori.mov c[0x0][0x160] : () -> !ori.r32
    ori.bar %n : (!ori.r32) -> ()
    ori.exit
  }
}

// CHECK-LABEL: Compiling entry function 'bar3' for 'sm_80'
// CHECK:      ptxas info    : Used 4 registers, used 4 barriers, 352 bytes cmem[0]{{$}}
// CHECK-LABEL: Compiling entry function 'bar52' for 'sm_80'
// CHECK:      ptxas info    : Used 4 registers, used 6 barriers, 1024 bytes smem, 368 bytes cmem[0]{{$}}
// CHECK-LABEL: Compiling entry function 'barreg' for 'sm_80'
// CHECK:      ptxas info    : Used 4 registers, used 16 barriers, 356 bytes cmem[0]{{$}}

// -----

builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @bar0() attributes {params = [#ori.param<8, align 8, at 0x0>], ori.shared_bytes = 64 : i32} {
    ori.bar 0x0 : () -> ()
    ori.bar 0x0 : () -> ()
    ori.exit
  }
}

// CHECK-LABEL: Compiling entry function 'bar0' for 'sm_90'
// CHECK:      ptxas info    : Used 4 registers, used 1 barriers, 64 bytes smem{{$}}
// CHECK-NEXT: ori info      : Occupancy for bar0: 64 warps per SM (100%) at 4 registers
