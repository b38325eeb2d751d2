"""Register tuples (HGMMA accumulators, ``!ori.r256`` .. ``!ori.r4096``) sit
at any quad, as ptxas places them and as the hardware requires
(ori_dialect/ir/registers.py ``TUPLE_TYPES``; issue 14): the type, both
allocators' slot choice and the minimum-limit test read the alignment off
the type, and the checker accepts what the type accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.registers import (
    TUPLE_TYPES,
    R64Type,
    R128Type,
    R256Type,
    R1024Type,
    RegFile,
)
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.gmma import HgmmaOp
from ori_dialect.ptx.lower import import_ptx
from passes.regalloc.budget import function_target, minimum_limits
from passes.regalloc.fatpoint import candidate_bases
from passes.regalloc.ssa_assign import FileSlots

WGMMA = Path(__file__).resolve().parents[3] / "examples" / "wgmma" / "ptx" / "sm_90a" / "wgmma.ptx"


def test_alignment_is_a_property_of_the_type() -> None:
    assert R64Type.alignment() == 2 and R128Type.alignment() == 4
    assert all(t.alignment() == 4 for t in TUPLE_TYPES)
    assert R1024Type.num_regs() == 32


@pytest.mark.parametrize("t", TUPLE_TYPES)
def test_tuples_verify_at_quads_only(t: type[R256Type]) -> None:
    for base in (4, 12, 20, 92, 116):  # where ptxas put them (registers.py)
        assert t.physical(base).phys_index == base
    for base in (2, 6, 10):
        with pytest.raises(VerifyException, match="multiple of 4"):
            t.physical(base)


def test_fatpoint_candidates_follow_the_alignment() -> None:
    allowed = [0, *range(2, 64)]
    assert candidate_bases(allowed, 32, 4).tolist() == list(range(4, 33, 4))
    # the size alignment of pairs and quads is unchanged
    assert candidate_bases(allowed, 4).tolist() == list(range(4, 61, 4))
    assert candidate_bases(allowed, 2).tolist() == list(range(2, 63, 2))


def test_ssa_slots_follow_the_alignment() -> None:
    st = FileSlots([0, *range(2, 64)])
    st.take(4, 4)  # a quad in R4..R7
    slots = st.slots(16, 4)
    assert [b for b in range(64) if (slots >> b) & 1] == list(range(8, 49, 4))
    assert st.choose(16, [], 4) == 8
    assert not st.free_slot(6, 16, 4)


def test_minimum_limit_packs_tuples_at_quads() -> None:
    """``HGMMA.64x64x16.F32`` of ``wgmma_f16_nosw`` with its two descriptor
    pairs: R1, the accumulator at R4..R35, the pairs at R2 and R36, the two
    withheld registers -> 40 (at a multiple of its size the accumulator
    would need R32..R63: 66; ptxas, whose accumulators start at R24, asks
    for 58)."""
    m = import_ptx(WGMMA.read_text(), WGMMA.name)
    f = next(f for f in m.walk() if isinstance(f, FuncOp) and f.sym_name.data == "wgmma_f16_nosw")
    n, op = minimum_limits(f, function_target(f))[RegFile.R]
    assert n == 40 and isinstance(op, HgmmaOp)
