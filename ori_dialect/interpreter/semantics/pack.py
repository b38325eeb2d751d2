"""Register-pair pseudo-instructions: ``ori.pack`` and ``ori.unpack``.

A 64-bit value is an ``np.uint64`` (low word = first register) and a 128-bit
value an ``(n, 4)`` ``np.uint32`` array (see ``registry``), so packing is
word arithmetic and stacking.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ori_dialect.interpreter.semantics.integer import U32, U64, Arr, bcast
from ori_dialect.interpreter.semantics.registry import OpFn, compiles
from ori_dialect.ops.integer import PackOp, UnpackOp


@compiles(PackOp)
def _pack(op: PackOp) -> OpFn:
    parts = len(op.present_slots())

    if parts == 2:

        def fn2(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            lo = bcast(src[0], n, U32).astype(U64)
            hi = bcast(src[1], n, U32).astype(U64)
            return (lo | (hi << np.uint64(32)),)

        return fn2

    def fn4(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        return (np.stack([bcast(s, n, U32) for s in src], axis=1),)

    return fn4


@compiles(UnpackOp)
def _unpack(op: UnpackOp) -> OpFn:
    parts = len(op.results)

    if parts == 2:

        def fn2(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
            v = bcast(src[0], n, U64)
            return (
                (v & np.uint64(0xFFFFFFFF)).astype(U32),
                (v >> np.uint64(32)).astype(U32),
            )

        return fn2

    def fn4(src: Sequence[Arr], n: int) -> tuple[Arr, ...]:
        # quads and register tuples: (n, parts) words
        q = np.asarray(src[0], dtype=U32).reshape(n, parts)
        return tuple(q[:, i].copy() for i in range(parts))

    return fn4
