"""The callee saves of a device function (seed 003 "Scratch Data Registers":
R16-R31 are preserved, "the callee must save them in its prologue and
restore them in its epilogue"), emitted after assignment.

:func:`.abi.record_saves` decides which preserved registers a device
function uses (and the return address R20:R21 when it calls); this module
turns that set into code:

* at the top of the entry block, per saved register ``Rk``, an ``ori.undef``
  typed ``Rk`` marked ``ori.abi_save`` -- no instruction: it names the value
  the caller left in ``Rk`` as an SSA operand -- and ``STL [RZ+slot], Rk``;
* right before every ``ori.ret``, ``LDL Rk, [RZ+slot]`` (a result nobody
  reads: it is the caller's register again).

The stores and loads are tagged as spill code (``ori.spill_value``, one tag
per register) and ``ori.abi_save = k``, so the slot compaction of
:func:`.spill.layout_spill_area` places them after the callees' frames and
the function's own outgoing area, ``ori-check-regalloc`` proves every load
reads its own store (rule 6), and the figures count them as spill stores and
loads the way ``ptxas -v`` does (fib: 16 bytes each) -- from the
instructions, so :data:`.abi.SAVE_BYTES_ATTR` drops to 0 (the saves are
counted once).

What follows ptxas 13.0 and what differs (``ptxas -c`` on
examples/abi/ptx/sm_80/abi_calls.ptx, ``_Z3fibi``): ptxas saves at the
entry and reloads before ``RET``, one 32-bit ``STL``/``LDL`` per register,
the return address included, as here.  ptxas addresses them from the stack
pointer (``IADD3 R1, R1, -0x10``; ``STL [R1+0xc], R21``; ... ``IADD3 R1,
R1, 0x10``): every activation has its own frame.  ori does that for a
recursive function (:mod:`.frame` moves its spill code, saves included,
into its frame); a function that cannot reach itself keeps ori's static
slots (:mod:`.spill`: its area at fixed local addresses after its
callees'), which is exact there and costs no ``IADD3 R1``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, Operation

from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ir.registers import R32Type, RegFile
from ori_dialect.ops.control import CallOp, RetOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.memory import LdlOp, StlOp
from ori_dialect.ops.special import UndefOp
from passes.regalloc.abi import SAVE_BYTES_ATTR, is_lowered
from passes.regalloc.spill import PROVISIONAL_BASE, next_tag
from passes.regalloc.spill_marks import CALLEE_SAVE_ATTR, SPILL_ATTR


def _module_callees(func: FuncOp) -> dict[str, set[str]]:
    mod = func.parent_op()
    funcs = {f.sym_name.data: f for f in mod.walk() if isinstance(f, FuncOp)} if mod else {}
    return {n: {c for op in f.walk() if isinstance(op, CallOp)
                for c in op.possible_callees(funcs)} for n, f in funcs.items()}


def is_recursive(func: FuncOp) -> bool:
    """``func`` can reach itself through its calls (the driver's rule)."""
    callees = _module_callees(func)
    name = func.sym_name.data
    seen: set[str] = set()
    todo = list(callees.get(name, ()))
    while todo:
        n = todo.pop()
        if n == name:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(callees.get(n, ()))
    return False


def saved_registers(func: FuncOp) -> list[int]:
    if not isinstance(func.abi, AbiAttr):
        return []
    saved = func.abi.fields().saved or {}
    return sorted(saved.get(RegFile.R, frozenset()))


def emit_callee_saves(func: FuncOp) -> int:
    """Emit the saves :func:`.abi.record_saves` recorded (module docstring);
    returns the registers saved (0 for a kernel or a function with nothing
    to save)."""
    if func.is_kernel or not is_lowered(func):
        return 0
    regs = saved_registers(func)
    if not regs:
        return 0
    tag = next_tag(func)
    entry = func.entry_block
    first = entry.first_op
    rets = [b.last_op for b in func.body.blocks if isinstance(b.last_op, RetOp)]
    for k, r in enumerate(regs):
        t = tag + k
        marks = {SPILL_ATTR: IntegerAttr(t, i32), CALLEE_SAVE_ATTR: IntegerAttr(r, i32)}
        src = UndefOp.make([], [R32Type.physical(r)],
                           attributes={CALLEE_SAVE_ATTR: IntegerAttr(r, i32)})
        st = StlOp.make([R32Type.fixed(), PROVISIONAL_BASE + 16 * t, src.results[0]],
                        attributes=dict(marks))
        _insert(entry, [src, st], first)
        for ret in rets:
            assert ret is not None
            blk = ret.parent_block()
            assert blk is not None
            ld = LdlOp.make([R32Type.fixed(), PROVISIONAL_BASE + 16 * t],
                            [R32Type.physical(r)], attributes=dict(marks))
            blk.insert_op_before(ld, ret)
    # counted from the instructions now (spill_figures, the compacted area)
    func.attributes[SAVE_BYTES_ATTR] = IntegerAttr(0, i32)
    return len(regs)


def _insert(block: Block, ops: list[Operation], before: Operation | None) -> None:
    for o in ops:
        if before is None:
            block.add_op(o)
        else:
            block.insert_op_before(o, before)


def is_callee_save(op: Operation) -> bool:
    return CALLEE_SAVE_ATTR in op.attributes


__all__ = ["emit_callee_saves", "is_callee_save", "is_recursive", "saved_registers"]
