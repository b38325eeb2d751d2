// Index scales of addresses ([%a * 4], SASS [R8.X4]): 4, 8 or 16, and only
// in a shared-memory access; each is a parse error, reported at the scale.
// RUN: ori-opt %s --split-input-file --parsing-diagnostics 2>&1 | filecheck %s

ori.func @scale_two(%a: !ori.r32) {
  // CHECK: scaled-index-invalid.mlir:[[# @LINE + 2]]:20
  // CHECK: ori.lds: the address index cannot be scaled by 2 (scales: 4, 8, 16)
  %0 = ori.lds [%a * 2] : (!ori.r32) -> !ori.r32
  ori.ret
}

// -----

ori.func @scale_local(%a: !ori.r32) {
  // CHECK: scaled-index-invalid.mlir:[[# @LINE + 2]]:20
  // CHECK: ori.ldl: the address index cannot be scaled by 4 (scales: none)
  %0 = ori.ldl [%a * 4] : (!ori.r32) -> !ori.r32
  ori.ret
}
