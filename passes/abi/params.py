"""The parameter register allocator (seed 003 "Parameter Register Allocator:
sub_19CA730" and "find_contiguous_free: Inlined Bitmap Scan").

A free list of 256 byte-sized slots (0xFF free, 0x00 taken) indexed from
the first parameter register.  Each descriptor needs ``(bytes + 3) >> 2``
consecutive free slots at a multiple of its register alignment
``min(align, 16) / 4`` (absolute: the scan rounds ``base + offset`` up, the
seed's negative-mask trick).  Parameters are allocated first, then return
values as a *separate class*: the seed's pseudo-code reuses the bitmap, but
its text says "parameters and return values as separate classes", and ptxas
13.0 returns in R4 the value whose first parameter also came in R4
(``IMAD R4, R4, R5, R6; RET``), so the return class starts from a fresh
free list with only the fixed slots taken (reserved registers, the return
address).

A descriptor that finds no run goes to the stack (the seed's "falls through
to the non-register path"; ``Slot.stack``): measured with ptxas 13.0 on
sm_80 (``ptxas -c``), twelve registers R4..R15 carry parameters, an
18-``int`` function gets 12 in registers and 6 in the caller's frame
(``STL.64 [R1]`` before the CALL), a 64-byte by-value struct goes to the
stack while an ``int`` after it still takes R4, and 24- and 32-byte structs
travel in registers.  Stack slots are laid out in order at their natural
alignment.  A return value that finds no run is the seed's error "Function
%s size requires more registers(%d) than available(%d)" (ori does not return
values through memory).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ori_dialect.ir.abi import Slot

SLOTS = 256
FREE = 0xFF
TAKEN = 0x00


def new_free_list(base: int, taken: Iterable[int] = ()) -> bytearray:
    """The 256-slot free list, indexed from ``base``; absolute registers in
    ``taken`` (R0-R3, the return address, a reserved range) are occupied."""
    bm = bytearray([FREE]) * SLOTS
    for r in taken:
        if 0 <= r - base < SLOTS:
            bm[r - base] = TAKEN
    return bm


def reg_alignment(align_bytes: int) -> int:
    """``min(align, 16) / 4`` registers, clamped to [1, 4] (seed 003)."""
    return max(1, min(align_bytes, 16) // 4)


def find_contiguous_free(bitmap: bytearray, count: int, align: int, base: int,
                         avail: int) -> int:
    """The seed's inlined scan, step for step: the offset from ``base`` of
    ``count`` free slots whose absolute start is a multiple of ``align``, or
    -1."""
    neg_mask = -align
    offset = (neg_mask & (align - 1 + base)) - base  # first aligned slot
    while offset < avail:
        if bitmap[offset] == TAKEN:
            nxt = offset + 1
            offset = (neg_mask & (align - 1 + base + nxt)) - base
            continue
        if offset + count > avail:
            return -1
        if count == 1:
            return offset
        ok = True
        for i in range(1, count):
            if bitmap[offset + i] == TAKEN:  # a gap: jump past it
                nxt = offset + i + 1
                offset = (neg_mask & (align - 1 + base + nxt)) - base
                ok = False
                break
        if ok:
            return offset
    return -1


def mark_allocated(bitmap: bytearray, offset: int, count: int) -> None:
    bitmap[offset:offset + count] = bytes(count)


def allocate_class(slots: Sequence[Slot], bitmap: bytearray, base: int, avail: int,
                   *, to_stack: bool) -> tuple[list[Slot], list[int]]:
    """Allocate one class (parameters or returns) in order.  Returns the
    slots with their register (or stack offset when ``to_stack``) and the
    indices of those that found no registers."""
    out: list[Slot] = []
    failed: list[int] = []
    stack = 0
    for i, s in enumerate(slots):
        off = find_contiguous_free(bitmap, s.num_regs, reg_alignment(s.align), base, avail)
        if off >= 0:
            mark_allocated(bitmap, off, s.num_regs)
            out.append(replace(s, reg=base + off, stack=-1))
            continue
        failed.append(i)
        if to_stack:
            a = max(4, min(s.align, 16))
            stack = -(-stack // a) * a
            out.append(replace(s, reg=-1, stack=stack))
            stack += s.bytes
        else:
            out.append(replace(s, reg=-1, stack=-1))
    return out, failed


def stack_bytes(slots: Sequence[Slot]) -> int:
    """Bytes of the caller's outgoing area the stack-passed slots take."""
    return max((s.stack + s.bytes for s in slots if s.stack >= 0), default=0)


def slot_registers(slots: Sequence[Slot]) -> list[int]:
    return [s.reg + i for s in slots if s.reg >= 0 for i in range(s.num_regs)]


__all__ = [
    "allocate_class",
    "find_contiguous_free",
    "mark_allocated",
    "new_free_list",
    "reg_alignment",
    "slot_registers",
    "stack_bytes",
]
