// RUN: not ori-opt %S/Inputs/abi-bad-mode.mlir 2>&1 | filecheck %s --check-prefix=MODE
// RUN: not ori-opt %S/Inputs/abi-bad-slot.mlir 2>&1 | filecheck %s --check-prefix=SLOT
// RUN: not ori-opt %S/Inputs/abi-bad-field.mlir 2>&1 | filecheck %s --check-prefix=FIELD
// RUN: not ori-opt %S/Inputs/abi-bad-range.mlir 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not ori-opt %S/Inputs/abi-bad-align.mlir 2>&1 | filecheck %s --check-prefix=ALIGN
// RUN: not ori-opt %S/Inputs/abi-bad-reg.mlir 2>&1 | filecheck %s --check-prefix=REG
// RUN: not ori-opt %S/Inputs/abi-bad-twice.mlir 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: not ori-opt %S/Inputs/abi-bad-where.mlir 2>&1 | filecheck %s --check-prefix=WHERE

// Malformed #ori.abi<...> specifications (ori_dialect/ir/abi.py): one
// diagnostic with its position each and exit status 1, never a traceback
// (one input file per case in Inputs/: a parse error ends the whole file).

// MODE: abi-bad-mode.mlir:2:
// MODE: #ori.abi: return-address mode must be one of fixed, regular, uniform, computed

// SLOT: abi-bad-slot.mlir:2:
// SLOT: #ori.abi: a descriptor is COUNTxSIZE, e.g. 4x4

// FIELD: abi-bad-field.mlir:2:
// FIELD: #ori.abi: unknown field 'bogus'

// RANGE: abi-bad-range.mlir:2:
// RANGE: a register range runs upwards within one file

// ALIGN: abi-bad-align.mlir:2:
// ALIGN: #ori.abi: descriptor alignment must be 4, 8 or 16, got 3

// REG: abi-bad-reg.mlir:2:
// REG: expected a register such as R4, UR2 or P0, got 'X4'

// TWICE: abi-bad-twice.mlir:2:
// TWICE: #ori.abi: 'ret' given twice

// WHERE: abi-bad-where.mlir:2:
// WHERE: #ori.abi: a descriptor lives @Rn or @stack+OFF
