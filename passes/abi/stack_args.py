"""Stack-passed arguments (seed 003 "Parameter Register Allocator": a
descriptor that finds no run of free parameter registers "falls through to
the non-register path"): the caller's stores and the callee's loads.

ptxas 13.0 (``ptxas -c`` on examples/abi/ptx/sm_80/abi_calls.ptx) lowers
them through the stack pointer: ``abi_many`` does ``IADD3 R1, R1, -0x8`` and
``STL.64 [R1], R16`` before its CALL, ``many`` starts with ``LDL R3, [R1]``
and ``LDL R4, [R1+0x4]``; ``abi_structs`` stores the 64-byte struct with
eight ``STL.64 [R1+...]`` and ``sum_big`` loads it with sixteen ``LDL``.

ori's frames are static (regalloc/spill.py: each function's area at fixed
local addresses after its callees'), so the area has a fixed address per
*callee*: the incoming area of ``F`` starts at ``F``'s frame top rounded up
to 16 (:func:`place_incoming`, ``ori.abi_incoming``), above everything ``F``
and its callees use, and every caller's area starts above it (the driver
counts it in ``F``'s top).  What is emitted, by ``ori-abi``:

* in a caller, right before the CALL, ``STL [RZ+IN+off]`` of each
  stack-passed argument: one ``STL.64``/``STL.128`` for a 64/128-bit value
  at an offset aligned to its size, else one 32-bit ``STL`` per register (a
  register tuple -- a 64-byte struct -- is unpacked first; ptxas pairs the
  words into ``STL.64``); the argument stays a CALL operand too
  (the interpreter passes arguments by value: nothing reads that copy);
* in the callee, at the top of its entry block, the matching ``LDL`` (one
  per register, packed back, for a tuple) that replaces every use of the
  parameter -- so the program reads what the caller stored.

Both carry ``ori.abi_stack_arg`` (the byte offset within the area), the
stores ``ori.abi_stack_callee`` too; their offsets are provisional
(:data:`PROVISIONAL_IN` + offset, so a lowered but unallocated program runs
in the interpreter) until ``ori-regalloc`` places the area
(:func:`patch_offsets`).  They are argument traffic, not spill code: not
tagged ``ori.spill_value``, not in the spill figures (ptxas: ``abi_many``
8 bytes stack frame, 0 bytes spill stores), and the caller's bytes stay
counted in its frame (``ori.abi_outgoing``).

Not emitted (a remark says so): calls through a function pointer and every
parameter of a function whose address is taken -- the candidates of one
indirect call would need one common area address.  Differs from ptxas: no
stack-pointer adjustment; the caller's argument values stay live up to the
CALL (its operand), so ori does not gain ptxas's register relief
(``abi_structs``: 51 registers against 38).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i32
from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.ir.abi import Slot
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, R32Type, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import PackOp, UnpackOp
from ori_dialect.ops.memory import LdlOp, StlOp

STACK_ARG_ATTR = "ori.abi_stack_arg"
"""On a stack-argument STL (caller) or LDL (callee): the byte offset in the area."""
STACK_CALLEE_ATTR = "ori.abi_stack_callee"
"""On a caller's stack-argument STL: the callee's name."""
INCOMING_ATTR = "ori.abi_incoming"
"""On a device function after allocation: where its incoming area starts."""
PROVISIONAL_IN = 0x8000
"""The area's address before ``ori-regalloc`` places it (inside the
interpreter's default 64 KiB of local memory, above any static frame of
the examples)."""


def _is_r(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R


_WIDTH = {2: "b64", 4: "b128"}


def _whole(t: OriRegisterType, s: Slot) -> bool:
    """A 64- or 128-bit value at an offset aligned to its size goes in one
    access (the area starts on 16 bytes); wider tuples go by words."""
    n = t.num_regs()
    return n in _WIDTH and s.stack % (4 * n) == 0


def lower_incoming(func: FuncOp, params: list[Slot]) -> int:
    """The callee's loads (module docstring); returns the parameters loaded."""
    entry = func.entry_block
    first = entry.first_op
    n = 0
    for arg, s in zip(entry.args, params):
        if s.reg >= 0 or s.stack < 0 or not arg.uses or not _is_r(arg):
            continue
        t = arg.type
        assert isinstance(t, OriRegisterType)
        ops: list[Operation] = []
        if _whole(t, s):
            ops.append(LdlOp.make([R32Type.fixed(), PROVISIONAL_IN + s.stack],
                                  [type(t).unallocated()], mods=_WIDTH[t.num_regs()],
                                  attributes={STACK_ARG_ATTR: IntegerAttr(s.stack, i32)}))
        for i in range(t.num_regs() if not ops else 0):
            ops.append(LdlOp.make([R32Type.fixed(), PROVISIONAL_IN + s.stack + 4 * i],
                                  [R32Type.unallocated()],
                                  attributes={STACK_ARG_ATTR: IntegerAttr(s.stack + 4 * i, i32)}))
        if len(ops) > 1:
            ops.append(PackOp.make([o.results[0] for o in ops], [type(t).unallocated()]))
        for o in ops:
            entry.insert_op_before(o, first) if first is not None else entry.add_op(o)
        arg.replace_all_uses_with(ops[-1].results[0])
        n += 1
    return n


def _store(v: SSAValue, off: int, callee: str, mods: str) -> Operation:
    return StlOp.make([R32Type.fixed(), PROVISIONAL_IN + off, v], mods=mods,
                      attributes={STACK_ARG_ATTR: IntegerAttr(off, i32),
                                  STACK_CALLEE_ATTR: StringAttr(callee)})


def lower_outgoing(call: CallOp, params: list[Slot]) -> int:
    """The caller's stores before ``call`` (a direct call); returns the
    arguments stored."""
    name = call.callee_name()
    block = call.parent_block()
    assert isinstance(block, Block) and name is not None
    n = 0
    for k, s in enumerate(params):
        v = call.operands[k]
        if s.reg >= 0 or s.stack < 0 or not _is_r(v):
            continue
        t = v.type
        assert isinstance(t, OriRegisterType)
        n += 1
        if t.num_regs() > 1 and _whole(t, s):
            block.insert_op_before(_store(v, s.stack, name, _WIDTH[t.num_regs()]), call)
            continue
        parts: list[SSAValue] = [v]
        if t.num_regs() > 1:
            un = UnpackOp.make([v], [R32Type.unallocated()] * t.num_regs())
            block.insert_op_before(un, call)
            parts = list(un.results)
        for i, p in enumerate(parts):
            block.insert_op_before(_store(p, s.stack + 4 * i, name, ""), call)
    return n


def _set_offset(op: OriInstruction, value: int) -> None:
    from passes.regalloc.spill import set_const  # lazy: regalloc imports this module

    set_const(op, "offset", value)


def incoming_bytes(func: FuncOp) -> int:
    """Bytes of ``func``'s incoming area its loads read (0: none)."""
    return max((a.value.data + 4 for op in func.walk()
                if isinstance(op, LdlOp) and isinstance(a := op.attributes.get(STACK_ARG_ATTR),
                                                       IntegerAttr)), default=0)


def place_incoming(func: FuncOp, top: int) -> int:
    """After ``func``'s allocation: its incoming area starts at ``top`` (its
    frame's end) rounded up to 16; records it and returns the area's end
    (``top`` when there is no area)."""
    size = incoming_bytes(func)
    if not size:
        return top
    start = -(-top // 16) * 16
    func.attributes[INCOMING_ATTR] = IntegerAttr(start, i32)
    return start + size


def patch_offsets(funcs: dict[str, FuncOp]) -> None:
    """Final offsets of every stack-argument load and store of ``funcs``
    (after all of them are allocated: a recursive caller may be allocated
    before its callee's area is placed)."""
    for f in funcs.values():
        for op in f.walk():
            a = op.attributes.get(STACK_ARG_ATTR)
            if not isinstance(a, IntegerAttr) or not isinstance(op, LdlOp | StlOp):
                continue
            c = op.attributes.get(STACK_CALLEE_ATTR)
            owner = funcs.get(c.data) if isinstance(c, StringAttr) else f
            base = owner.attributes.get(INCOMING_ATTR) if owner is not None else None
            if isinstance(base, IntegerAttr):
                _set_offset(op, base.value.data + a.value.data)


__all__ = [
    "INCOMING_ATTR",
    "PROVISIONAL_IN",
    "STACK_ARG_ATTR",
    "STACK_CALLEE_ATTR",
    "incoming_bytes",
    "lower_incoming",
    "lower_outgoing",
    "patch_offsets",
    "place_incoming",
]
