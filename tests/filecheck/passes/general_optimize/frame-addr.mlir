// ori-general-optimize, frame addresses (passes/general_optimize/frame_addr.py):
// what PTX adds to a frame address R1 + o folds into R1 + o' (`add.u64 %rd,
// %SP, 4` is a 64-bit add whose low half cannot carry: a frame address is
// below 2^24), and a local access through it addresses [R1 + o'], as
// ptxas's `STL [R1+0x4], R5`.  A negative addend does not fold into the
// frame address (it would wrap below the frame; addr-offset puts it in the
// access's offset instead), nor does an access through a computed address.
// RUN: ori-opt %s -p 'ori-general-optimize{remarks=true},ori-dead-code' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REM < %t.err
// RUN: ori-opt %s -p 'ori-general-optimize{frame-addr=false},ori-dead-code' | filecheck %s --check-prefix=OFF

builtin.module attributes {ori.target = "sm_80"} {
  ori.func @f(%v: !ori.r32, %i: !ori.r32) -> !ori.r32 {
    ori.frame_enter 0x20 : () -> ()
    %fa = ori.frame_addr 0x0 : () -> !ori.r32
    %w = ori.mov 0x7d00 : () -> !ori.r32
    %sp = ori.pack %fa, %w : (!ori.r32, !ori.r32) -> !ori.r64
    %lo, %hi = ori.unpack %sp : (!ori.r64) -> (!ori.r32, !ori.r32)
    %a, %c = ori.iadd3 %lo, 0x4, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h = ori.iadd3 x %hi, RZ, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %g = ori.pack %a, %h : (!ori.r32, !ori.r32) -> !ori.r64
    ori.st [%g], %v : (!ori.r64, !ori.r32) -> ()
    ori.stl [%a + 0x8], %v : (!ori.r32, !ori.r32) -> ()
    %neg = ori.iadd3 %fa, 0xfffffffc, RZ : (!ori.r32) -> !ori.r32
    ori.stl [%neg], %v : (!ori.r32, !ori.r32) -> ()
    %x = ori.lea %i, %fa, 0x2 : (!ori.r32, !ori.r32) -> !ori.r32
    %r = ori.ldl [%x] : (!ori.r32) -> !ori.r32
    ori.frame_leave 0x20 : () -> ()
    ori.ret %r : !ori.r32
  }
}

// CHECK-LABEL: ori.func @f(
// CHECK:         %[[FA:.*]] = ori.frame_addr 0x0
// CHECK:         %[[A:.*]] = ori.frame_addr 0x4 : () -> !ori.r32
// CHECK:         %[[G:.*]] = ori.pack %[[A]], 0x7d00
// CHECK-NEXT:    ori.st [%[[G]]], %v
// CHECK-NEXT:    ori.stl [R1 + 0xc], %v
// CHECK-NEXT:    ori.stl [%[[FA]] - 0x4], %v
// CHECK-NEXT:    %[[X:.*]] = ori.lea %i, %[[FA]], 0x2
// CHECK-NEXT:    ori.ldl [%[[X]]]

// REM: remark: @f: general-optimize {{.*}}[frame-addr=2]

// OFF:     ori.iadd3 %{{.*}}, 0x4, RZ
// OFF:     ori.stl [%fa + 0xc], %v
