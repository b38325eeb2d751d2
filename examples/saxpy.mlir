// saxpy, written by hand at the SASS level in the ori dialect:
//
//   __global__ void saxpy(unsigned n, float a, const float *x, float *y) {
//     for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//          i += blockDim.x * gridDim.x)
//       y[i] = a * x[i] + y[i];
//   }
//
// Launch parameters live in constant bank 0 from 0x210 on (n at +0x0, a at
// +0x4, x at +0x8, y at +0x10); blockDim.x is c[0x0][0x0] and gridDim.x is
// c[0x0][0xc].  The loop counter is a block argument of the loop header.
//
//   ori-opt examples/saxpy.mlir -p ori-print-loops,ori-print-liveness -t ori-asm

builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @saxpy() attributes {params = [#ori.param<4, align 4, at 0x0>, #ori.param<4, align 4, at 0x4>, #ori.param<8, align 8, at 0x8>, #ori.param<8, align 8, at 0x10>]} {
  ^entry:
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %ctaid = ori.s2r SR_CTAID.X : () -> !ori.r32
    // i = ctaid.x * ntid.x + tid.x
    %i0 = ori.imad %ctaid, c[0x0][0x0], %tid : (!ori.r32, !ori.r32) -> !ori.r32
    %skip = ori.isetp ge.u32 %i0, c[0x0][0x210], PT : (!ori.r32) -> !ori.p
    ori.bra if %skip : !ori.p, ^exit, ^preheader
  ^preheader:
    %a = ori.mov c[0x0][0x214] : () -> !ori.r32
    %x = ori.ldc b64 0x0, [RZ + 0x218] : () -> !ori.r64
    %y = ori.ldc b64 0x0, [RZ + 0x220] : () -> !ori.r64
    %ntid = ori.mov c[0x0][0x0] : () -> !ori.r32
    // stride = ntid.x * nctaid.x
    %stride = ori.imad %ntid, c[0x0][0xc], RZ : (!ori.r32) -> !ori.r32
    ori.bra ^loop(%i0 : !ori.r32)
  ^loop(%i : !ori.r32):
    %xa = ori.imad wide.u32 %i, 0x4, %x : (!ori.r32, !ori.r64) -> !ori.r64
    %ya = ori.imad wide.u32 %i, 0x4, %y : (!ori.r32, !ori.r64) -> !ori.r64
    %xv = ori.ldg [%xa] : (!ori.r64) -> !ori.r32
    %yv = ori.ldg [%ya] : (!ori.r64) -> !ori.r32
    %r = ori.ffma %xv, %a, %yv : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%ya], %r : (!ori.r64, !ori.r32) -> ()
    %next = ori.iadd3 %i, %stride, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %more = ori.isetp lt.u32 %next, c[0x0][0x210], PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^loop(%next : !ori.r32), ^exit
  ^exit:
    ori.exit
  }
}
