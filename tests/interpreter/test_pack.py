"""ori.pack / ori.unpack: verification and interpreter semantics (a 64-bit
address built from 32-bit halves with IADD3 carries is dereferenced)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ori_dialect.interpreter import run_kernel
from tests.conftest import parse

KERNEL = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<8, align 8, at 0x8>]} {
    %tid = ori.s2r SR_TID.X : () -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %lo, %hi = ori.unpack %base : (!ori.r64) -> (!ori.r32, !ori.r32)
    %off = ori.shl %tid, 0x2 : (!ori.r32) -> !ori.r32
    %alo, %c = ori.iadd3 %lo, %off, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %ahi = ori.iadd3 x %hi, RZ, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %addr = ori.pack %alo, %ahi : (!ori.r32, !ori.r32) -> !ori.r64
    %v = ori.ldg [%addr] : (!ori.r64) -> !ori.r32
    %q = ori.pack %v, %tid, 0x7, RZ : (!ori.r32, !ori.r32) -> !ori.r128
    %out = ori.ldc b64 0x0, [RZ + 0x168] : () -> !ori.r64
    %o = ori.imad wide.u32 %tid, 0x10, %out : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg b128 [%o], %q : (!ori.r64, !ori.r128) -> ()
    ori.exit
  }
}"""


def test_pack_unpack_roundtrip_in_interpreter() -> None:
    m = parse(KERNEL)
    m.verify()
    src = (np.arange(64, dtype=np.uint32) * 3 + 1).astype(np.uint32)
    out = np.zeros((64, 4), dtype=np.uint32)
    _, res = run_kernel(m, "k", 1, 64, [src, out])
    assert np.array_equal(res[:, 0], src)
    assert np.array_equal(res[:, 1], np.arange(64, dtype=np.uint32))
    assert np.all(res[:, 2] == 7) and np.all(res[:, 3] == 0)


def test_pack_part_count_checked() -> None:
    bad = KERNEL.replace("%q = ori.pack %v, %tid, 0x7, RZ : (!ori.r32, !ori.r32) -> !ori.r128",
                         "%q = ori.pack %v, %tid, 0x7 : (!ori.r32, !ori.r32) -> !ori.r128")
    with pytest.raises(VerifyException, match="built from 4 parts"):
        parse(bad).verify()
