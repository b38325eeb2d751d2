"""Which frame variables ``ori-mem-to-reg`` may promote (the seed's candidate
builder and def-use analysis, seed 000 "ConvertMemoryToRegisterOrUniform").

A function's frame (ops/frame.py) holds its local variables at
``[R1 + o]``, ``0 <= o < ori.local_bytes``.  An access's address is known
when its base is R1 or a value computed from ``ori.frame_addr`` with
constants only (``IADD3`` of constants, ``LEA`` of a constant index, a
``MOV`` copy): what unrolling leaves of ``a[k]`` with ``k`` constant.

A *slot* is one ``(offset, width)`` the function accesses; it is promoted
when every access to its bytes is that slot, every one is an unguarded,
weak ``LDL``/``STL`` of 32, 64 or 128 bits, and the frame's address
escapes nowhere: every ``ori.frame_addr`` value reaches only addresses of
accesses this analysis resolves.  Otherwise the reason is reported and the
slot (or the whole frame) stays in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, is_stack_pointer
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.frame import FrameAddrOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IAdd3Op, LeaOp, MovOp, PackOp
from ori_dialect.ops.memory import LdlOp, MemoryOp, StlOp
from passes.general_optimize.common import known

_WIDE = {"b32": 4, "b64": 8, "b128": 16}
"""The access widths a slot may have (sub-word accesses stay in memory)."""


@dataclass
class Slot:
    """One promotable variable: its bytes ``[offset, offset + size)``."""

    offset: int
    size: int
    accesses: list[LdlOp | StlOp] = field(default_factory=list)


@dataclass
class Frame:
    """What the analysis found in one function."""

    local_bytes: int
    slots: list[Slot]
    kept: list[str]
    """Why variables stay in memory (one line per reason)."""
    escape: str | None = None
    """Set when the frame's address escapes: nothing is promoted."""


def _int(v: SSAValue | object) -> int | None:
    if isinstance(v, IntegerAttr):
        return v.value.data
    if isinstance(v, OriRegisterType) and v.is_fixed:
        return 0  # RZ
    if isinstance(v, SSAValue):
        x = known(v)
        if x is not None and not isinstance(x, bool):
            return int(x)
    return None


def frame_offset(v: SSAValue | object, depth: int = 0) -> int | None:
    """The frame offset ``v`` holds (R1 + offset), or None when it is not
    one computed from ``ori.frame_addr`` and constants."""
    if not isinstance(v, SSAValue) or depth > 32:
        return None
    op = v.owner
    if isinstance(op, FrameAddrOp):
        return op.offset()
    if not isinstance(op, OriInstruction) or op.operand_groups()[1] is not None:
        return None  # a guarded definition keeps a prior value
    if op.smod_map() or v is not op.results[0]:
        return None
    if isinstance(op, MovOp):
        return frame_offset(op.src("a"), depth + 1)
    if isinstance(op, IAdd3Op) and not op.has_mod("x"):
        base: int | None = None
        total = 0
        for slot, x in op.slot_values():
            if slot.name not in ("a", "b", "c"):
                return None
            c = _int(x)
            if c is not None:
                total += c
                continue
            if base is not None:
                return None
            base = frame_offset(x, depth + 1)
            if base is None:
                return None
        return None if base is None else (base + total) & 0xFFFFFFFF
    if isinstance(op, LeaOp) and not op.has_mod("hi") and not op.has_mod("x"):
        idx, b, sh = op.src("a"), op.src("b"), op.src_int("shift")
        c = _int(idx)
        fb = frame_offset(b, depth + 1)
        if c is None or fb is None or sh is None:
            return None
        return (fb + (c << sh)) & 0xFFFFFFFF
    return None


def _address(op: LdlOp | StlOp) -> int | None:
    base = op.src("addr")
    if is_stack_pointer(base):
        return op.offset()
    fo = frame_offset(base)
    return None if fo is None else fo + op.offset()


def _uses(v: SSAValue) -> Iterator[tuple[Operation, int]]:
    for u in v.uses:
        yield u.operation, u.index


def _escape(func: FuncOp) -> str | None:
    """Where a frame address goes other than into a resolved access's address
    (None: nowhere)."""
    todo = [op.results[0] for op in func.walk() if isinstance(op, FrameAddrOp)]
    seen: set[SSAValue] = set()
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        for user, _ in _uses(v):
            if isinstance(user, LdlOp | StlOp) and user.src("addr") is v and (
                    not isinstance(user, StlOp) or user.src("value") is not v):
                if _address(user) is None:
                    return f"{user.name} addresses the frame through a computed index"
                continue
            if user.results and frame_offset(user.results[0]) is not None:
                todo.append(user.results[0])
                continue
            return _why(user, v)
    return None


def _why(user: Operation, v: SSAValue) -> str:
    """Why a use of a frame address defeats the analysis."""
    if isinstance(user, PackOp):
        return "a frame address becomes a generic address (ori.pack: cvta.local)"
    if isinstance(user, CallOp):
        return f"a frame address is passed to a call ({user.name})"
    if isinstance(user, MemoryOp) and user.data_value() is v:
        return f"a frame address is stored to memory ({user.name})"
    if isinstance(user, OriInstruction) and user.results and not user.MEM.reads:
        return f"a frame address is offset by a value known only at run time ({user.name})"
    return f"{user.name} uses a frame address"


def analyse(func: FuncOp, local_bytes: int) -> Frame:
    """The slots of ``func``'s frame and why the others stay (module docstring)."""
    escape = _escape(func)
    if escape is not None:
        return Frame(local_bytes, [], [], escape)
    groups: dict[tuple[int, int], list[LdlOp | StlOp]] = {}
    kept: list[str] = []
    bad: set[tuple[int, int]] = set()
    for op in func.walk():
        if not isinstance(op, LdlOp | StlOp) or "ori.abi_stack_arg" in op.attributes:
            continue
        if "ori.spill_value" in op.attributes:
            continue
        base = op.src("addr")
        if not is_stack_pointer(base) and frame_offset(base) is None:
            continue  # not a frame access (a pointer from elsewhere: not ours)
        addr = _address(op)
        assert addr is not None
        if not 0 <= addr < local_bytes:
            continue  # outside the variables (the outgoing-argument area)
        width = op.mod("width") or "b32"
        size = _WIDE.get(width, {"u8": 1, "s8": 1, "u16": 2, "s16": 2}.get(width, 4))
        key = (addr, size)
        groups.setdefault(key, []).append(op)
        if width not in _WIDE:
            bad.add(key)
            kept.append(f"[R1+{addr:#x}]: a {width} access (sub-word)")
        elif op.operand_groups()[1] is not None:
            bad.add(key)
            kept.append(f"[R1+{addr:#x}]: a guarded access")
        elif op.is_ordered():
            bad.add(key)
            kept.append(f"[R1+{addr:#x}]: an ordered access")
    keys = sorted(groups)
    for i, (a0, s0) in enumerate(keys):
        for a1, s1 in keys[i + 1:]:
            if a1 >= a0 + s0:
                break
            bad.update({(a0, s0), (a1, s1)})
            kept.append(f"[R1+{a0:#x}]: accessed as {s0} and as {s1} bytes at {a1:#x}")
    slots = [Slot(a, s, groups[(a, s)]) for a, s in keys if (a, s) not in bad]
    return Frame(local_bytes, slots, sorted(set(kept)))


__all__ = ["Frame", "Slot", "analyse", "frame_offset"]
