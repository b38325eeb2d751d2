"""Stack-passed arguments (seed 003 "Parameter Register Allocator": a
descriptor that finds no run of free parameter registers "falls through to
the non-register path"): the caller's stores and the callee's loads, in the
caller's stack below R1 (ops/frame.py).

ptxas 13.0 (``ptxas -c`` on examples/abi/ptx/sm_80/abi_calls.ptx) lowers
them through the stack pointer: ``abi_many`` does ``IADD3 R1, R1, -0x8`` and
``STL.64 [R1], R16`` before its CALL, ``many`` starts with ``LDL R3, [R1]``
and ``LDL R4, [R1+0x4]``; ``abi_structs`` stores the 64-byte struct with
eight ``STL.64 [R1+...]`` and ``sum_big`` loads it with sixteen ``LDL``.
ori does the same:

* the CALL carries ``ori.abi_stack_out = S`` (the area's bytes rounded up to
  a frame size): it moves R1 down by ``S`` for the call and back after it
  (printed ``IADD3 R1, R1, -S`` / ``CALL`` / ``IADD3 R1, R1, S``; the
  interpreter does the same), so the callee finds the area at its own R1;
* in the caller, right before the CALL, ``STL [R1 + off - S]`` of each
  stack-passed argument: one ``STL.64``/``STL.128`` for a 64/128-bit value
  at an offset aligned to its size, else one 32-bit ``STL`` per register (a
  register tuple -- a 64-byte struct -- stores the words it was packed
  from, or is unpacked first; ptxas pairs the words into ``STL.64``).  The
  CALL's operand for it becomes an RZ-typed zero (``MOV RZ`` / ``PACK RZ,
  ..``, no instruction): the value lives only up to its stores;
* in the callee, the matching ``LDL [R1 + F + off]`` (``F``: its
  ``ori.frame_enter`` size, if it has a frame) replaces every use of the
  parameter, one per register for a tuple (an ``ori.unpack`` of it reads
  the words directly; only a use of the whole tuple packs them back); a
  load read only in the entry block goes right before its first reader,
  as ptxas interleaves ``sum_big``'s sixteen ``LDL`` with its IMADs.  The
  parameter itself becomes RZ-typed: it holds no register.  When the
  allocator grows a recursive function's frame (regalloc/frame.py) it
  moves these offsets with it (:func:`shift_incoming`).

RZ-typed values hold no register anywhere: the liveness numbering leaves
them out, the allocation checker accepts them where only CALLs read them
(``_passed_in_memory``), the physical interpreter gives them a slot of
their own, and the listing prints ``RZ`` (``.func sum_big(RZ, R4)``).
Before, a 64-byte struct argument needed 16 aligned registers on both
sides, which ``max-regs=24`` or ``32`` could not give.

The area belongs to the call, not to the callee: a call through a function
pointer stores where any of its candidates loads, and a recursive call's
area is below the caller's own frame, so activations never share one.
Both kinds of access carry ``ori.abi_stack_arg`` (the byte offset within
the area).  They are argument traffic, not spill code: not tagged
``ori.spill_value``, not in the spill figures (ptxas: ``abi_many`` 8 bytes
stack frame, 0 bytes spill stores), and the caller's bytes stay counted in
its frame (``ori.abi_outgoing``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType, IntegerAttr, i32
from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.ir.abi import Slot
from ori_dialect.ir.metadata import MemEffect
from ori_dialect.ir.registers import OriRegisterType, R32Type, RegFile, stack_pointer
from ori_dialect.ops.control import STACK_OUT_ATTR, CallOp
from ori_dialect.ops.frame import FrameEnterOp, frame_size
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdlOp, StlOp
from passes.abi.params import stack_bytes

STACK_ARG_ATTR = "ori.abi_stack_arg"
"""On a stack-argument STL (caller) or LDL (callee): the byte offset in the area."""
def _frame_of(func: FuncOp) -> tuple[int, Operation | None]:
    """The function's frame size and its ``ori.frame_enter`` (0, None: no frame)."""
    first = func.entry_block.first_op
    if isinstance(first, FrameEnterOp):
        return first.size(), first
    return 0, None


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
    frame, enter = _frame_of(func)
    first = enter.next_op if enter is not None else entry.first_op
    n = 0
    for arg, s in zip(entry.args, params):
        if s.reg >= 0 or s.stack < 0 or not arg.uses or not _is_r(arg):
            continue
        t = arg.type
        assert isinstance(t, OriRegisterType)
        ops: list[Operation] = []
        if _whole(t, s):
            ops.append(LdlOp.make([stack_pointer(), frame + s.stack],
                                  [type(t).unallocated()], mods=_WIDTH[t.num_regs()],
                                  attributes={STACK_ARG_ATTR: IntegerAttr(s.stack, i32)}))
        for i in range(t.num_regs() if not ops else 0):
            ops.append(LdlOp.make([stack_pointer(), frame + s.stack + 4 * i],
                                  [R32Type.unallocated()],
                                  attributes={STACK_ARG_ATTR: IntegerAttr(s.stack + 4 * i, i32)}))
        if len(ops) > 1:
            _unpack_into(arg, [o.results[0] for o in ops])
            if arg.uses:
                ops.append(PackOp.make([o.results[0] for o in ops], [type(t).unallocated()]))
        for o in ops:
            entry.insert_op_before(o, first) if first is not None else entry.add_op(o)
        if arg.uses:
            arg.replace_all_uses_with(ops[-1].results[0])
        if not isinstance(ops[-1], PackOp):  # no whole tuple rebuilt: words alone
            _sink_words(ops)
        # the parameter is in memory, not in a register: RZ, like an unused
        # result (the callee reads it through the loads above)
        arg._type = type(t).fixed()  # type: ignore[attr-defined]
        n += 1
    if n:
        func.function_type = FunctionType.from_lists(
            [a.type for a in entry.args], list(func.function_type.outputs.data))
    return n


def _unpack_into(arg: SSAValue, words: list[SSAValue]) -> None:
    """An ``ori.unpack`` of a parameter loaded word by word reads the words
    themselves: a struct passed on the stack (``sum_big(Big)``: 16 words)
    is not rebuilt as one register tuple, which would need 16 aligned
    consecutive registers."""
    for use in list(arg.uses):
        un = use.operation
        if isinstance(un, UnpackOp) and len(un.results) == len(words) \
                and all(r.type == w.type for r, w in zip(un.results, words)):
            for r, w in zip(un.results, words):
                r.replace_all_uses_with(w)
            un.detach()
            un.erase()


def _sink_words(loads: list[Operation]) -> None:
    """Each word's load right before its first reader in the entry block,
    as ptxas interleaves ``sum_big``'s sixteen ``LDL`` with the IMADs using
    them: loaded all at the top they were sixteen registers live at once,
    more than ``max-regs=24`` leaves a callee whose other parameters hold
    R4-R15 (``many``).  A word read in another block stays at the top."""
    entry = loads[0].parent_block()
    assert entry is not None
    ops = list(entry.ops)
    pos = {op: i for i, op in enumerate(ops)}
    # nothing moves past an op that moves R1 (the frame's enter, a CALL's
    # outgoing area) or writes memory: the loads' [R1 + off] would read
    # another word, or a word a store just wrote
    fence = next((pos[op] for op in ops[pos[loads[-1]] + 1:]
                  if isinstance(op, FrameEnterOp | CallOp) or _writes_memory(op)), len(ops))
    for ld in loads:
        readers = [u.operation for u in ld.results[0].uses if u.operation.parent_block() is entry]
        if len(readers) != len(list(ld.results[0].uses)) or not readers:
            continue  # read in another block too: stays at the top
        first = min(readers, key=pos.__getitem__)
        if pos[first] > fence:
            continue
        ld.detach()
        entry.insert_op_before(ld, first)


def _writes_memory(op: Operation) -> bool:
    effect = getattr(type(op), "MEM", None)
    return isinstance(effect, MemEffect) and effect.writes


def shift_incoming(func: FuncOp, delta: int) -> None:
    """The frame grew by ``delta`` bytes: the incoming area is that much
    further above R1."""
    from passes.regalloc.spill import set_const  # lazy: regalloc imports this module

    for op in func.walk():
        if isinstance(op, LdlOp) and STACK_ARG_ATTR in op.attributes:
            set_const(op, "offset", op.offset() + delta)


def _store(v: SSAValue, off: int, area: int, mods: str) -> Operation:
    return StlOp.make([stack_pointer(), off - area, v], mods=mods,
                      attributes={STACK_ARG_ATTR: IntegerAttr(off, i32)})


def lower_outgoing(call: CallOp, params: list[Slot]) -> int:
    """The caller's stores before ``call`` (direct or indirect) and the area
    it opens; returns the arguments stored."""
    block = call.parent_block()
    assert isinstance(block, Block)
    area = frame_size(stack_bytes(params))
    n = 0
    for k, s in enumerate(params):
        v = call.args[k]
        if s.reg >= 0 or s.stack < 0 or not _is_r(v):
            continue
        t = v.type
        assert isinstance(t, OriRegisterType)
        n += 1
        if t.num_regs() > 1 and _whole(t, s):
            block.insert_op_before(_store(v, s.stack, area, _WIDTH[t.num_regs()]), call)
            continue
        parts: list[SSAValue] = [v]
        packed = v.owner
        if isinstance(packed, PackOp) and all(isinstance(p, SSAValue) for _, p in
                                              packed.slot_values()):
            # the struct's words themselves, not the tuple taken apart again
            parts = [p for _, p in packed.slot_values()]  # type: ignore[misc]
        elif t.num_regs() > 1:
            un = UnpackOp.make([v], [R32Type.unallocated()] * t.num_regs())
            block.insert_op_before(un, call)
            parts = list(un.results)
        for i, p in enumerate(parts):
            block.insert_op_before(_store(p, s.stack + 4 * i, area, ""), call)
    for k, s in enumerate(params):
        v = call.args[k]
        if s.reg < 0 and s.stack >= 0 and _is_r(v):
            _drop_operand(call, k)
    if n:
        call.attributes[STACK_OUT_ATTR] = IntegerAttr(area, i32)
    return n


def _drop_operand(call: CallOp, k: int) -> None:
    """The CALL's operand ``k``, passed in memory now, becomes an RZ-typed
    zero (``MOV RZ`` / ``PACK RZ, ..``, no instruction): the value stays
    live only up to its stores, as in ptxas, instead of holding registers
    up to the call (a 64-byte struct: 16 aligned registers)."""
    v = call.args[k]
    t = v.type
    assert isinstance(t, OriRegisterType)
    rz = R32Type.fixed()
    zero: Operation = (MovOp.make([rz], [R32Type.fixed()]) if t.num_regs() == 1
                       else PackOp.make([rz] * t.num_regs(), [type(t).fixed()]))
    block = call.parent_block()
    assert block is not None
    block.insert_op_before(zero, call)
    idx = len(call.operands) - len(call.args) + k
    call.operands[idx] = zero.results[0]
    owner = v.owner
    if isinstance(owner, PackOp) and not owner.results[0].uses:
        owner.detach()  # the struct's words were stored one by one
        owner.erase()


__all__ = [
    "STACK_ARG_ATTR",
    "lower_incoming",
    "lower_outgoing",
    "shift_incoming",
]
