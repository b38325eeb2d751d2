"""Placement with partners (``fatpoint_allocate(..., partners=True)``, the
first refinement order of passes/regalloc/refine.py): the operands of a
PACK coloured before the PACK put the wide value and every part in place at
once, which first-fit in live-point order alone does not."""

from __future__ import annotations

from ori_dialect.ir.registers import RegFile
from passes.regalloc.classes import Unit
from passes.regalloc.fatpoint import fatpoint_allocate
from passes.regalloc.points import Segments
from passes.regalloc.refine import ORDERS, broken_hints


def _units() -> list[Unit]:
    def unit(i: int, width: int, start: int, end: int) -> Unit:
        return Unit(i, [i], RegFile.R, width, Segments.of([start], [end]), 1.0, True)

    # x holds R0 at points 0-1; p0..p3 are defined at points 1..4 and packed
    # into the quad w at point 6 (Triton attention's four F2FP halves before
    # its HMMA)
    x = unit(0, 1, 0, 2)
    parts = [unit(1 + i, 1, 1 + i, 6) for i in range(4)]
    w = unit(5, 4, 6, 10)
    for i, p in enumerate(parts):
        p.offset_hints.append((w.id, i))
        w.offset_hints.append((p.id, -i))
    return [x, *parts, w]


def _colour(partners: bool) -> dict[int, int]:
    units = _units()
    res = fatpoint_allocate(units, list(range(16)), 10, 50, partners=partners)
    assert not res.failed
    return res.assignment


def test_parts_and_pack_placed_together() -> None:
    got = _colour(partners=True)
    assert broken_hints(_units(), got) == 0
    assert [got[i] - got[5] for i in range(1, 5)] == [0, 1, 2, 3]
    assert got[5] % 4 == 0


def test_first_fit_alone_moves_the_parts() -> None:
    # the same order without partners: p1 takes R0 once x dies, and the
    # quad cannot be where p0 is: the PACK costs MOVs
    assert broken_hints(_units(), _colour(partners=False)) > 0


def test_partner_order_is_tried_first() -> None:
    assert ORDERS[0][1] is True


def test_a_part_the_calling_convention_limits_is_still_placed() -> None:
    # p0 lives across a call, limited to the preserved R16-R31 (its mask):
    # it is placed by itself, in its mask, not skipped (Thrust's
    # thrust_seq_sort once the runtime calls preserved more: a part
    # left without a register)
    units = _units()
    masks = {1: 0xFFFF << 16}
    res = fatpoint_allocate(units, list(range(32)), 10, 50, masks=masks, partners=True)
    assert not res.failed
    assert set(res.assignment) == {u.id for u in units}
    assert 16 <= res.assignment[1] <= 31


def test_a_part_read_after_the_pack_gets_its_own_register() -> None:
    # p3 is still read after the PACK (live to point 8, the quad from 6):
    # it cannot share the quad's register, the other parts still do
    # (Thrust's merge: an address pair's halves read after the PACK)
    units = _units()
    p3 = units[4]
    p3.points = Segments.of([4], [8])
    res = fatpoint_allocate(units, list(range(16)), 10, 50, partners=True)
    assert not res.failed
    got = res.assignment
    quad = set(range(got[5], got[5] + 4))
    assert got[4] not in quad
    assert [got[i] - got[5] for i in range(1, 4)] == [0, 1, 2]
