"""Call lowering (seed 003 "Call Instruction ABI Lowering: sub_19D41E0",
"Per-Pass Instruction Lowering" pass 2): the pre-coloured copies that put
arguments and results where the convention says.

* at each ``ori.call``/``ori.call_indirect`` every register-passed argument
  is copied into a fresh value right before the call (``ori.mov`` with
  ``ori.abi_reg = N``: the allocator must give it ``RN``) and the call reads
  the copy; the call gets ``ori.abi_results`` (the register of each result)
  and ``ori.abi_ret`` (the return-address register the CALL writes), and
  every result is copied out right after the call, so the pre-coloured
  ranges last one instruction;
* in a device function each register-passed parameter (an entry-block
  argument, pre-coloured through the function's resolved ``abi``) is copied
  into a fresh value at the top of the entry block, and each returned value
  into a pre-coloured copy before ``ori.ret``.

Every copy carries ``ori.abi_copy`` so that the allocator does not coalesce
it away (a coalesced copy would stretch the fixed register over the whole
value).  Stack-passed parameters (``@stack+OFF``): their bytes are counted
in the caller's frame (``ori.abi_outgoing``), and :mod:`.stack_args` emits
the caller's stores and the callee's loads (not for indirect calls and
functions whose address is taken: a remark says so).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, UnitAttr, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.ir.abi import Slot
from ori_dialect.ir.registers import OriRegisterType, R32Type, RegFile
from ori_dialect.ops.control import CallOp, RetOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp

ABI_REG_ATTR = "ori.abi_reg"
ABI_COPY_ATTR = "ori.abi_copy"
ABI_RESULTS_ATTR = "ori.abi_results"
ABI_RET_ATTR = "ori.abi_ret"
ABI_OUTGOING_ATTR = "ori.abi_outgoing"
"""Bytes of stack-passed arguments of the function's widest call."""


def _copy(v: SSAValue, reg: int | None) -> list[Operation]:
    """The copy of ``v`` (last op's result): a MOV, or for a 64/128-bit value
    an ``ori.unpack`` and an ``ori.pack`` (MOV moves 32 bits; the pair costs
    one MOV per part the allocator does not place)."""
    attrs: dict[str, Attribute] = {ABI_COPY_ATTR: UnitAttr()}
    if reg is not None:
        attrs[ABI_REG_ATTR] = IntegerAttr(reg, i32)
    t = v.type
    if isinstance(t, R32Type):
        return [MovOp.make([v], [t], attributes=attrs)]
    assert isinstance(t, OriRegisterType)
    n = t.num_regs()
    un = UnpackOp.make([v], [R32Type.unallocated()] * n,
                       attributes={ABI_COPY_ATTR: UnitAttr()})
    return [un, PackOp.make(list(un.results), [t], attributes=attrs)]


def _is_r(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R


def _replace_uses_except(v: SSAValue, new: SSAValue, keep: Operation) -> None:
    for use in list(v.uses):
        if use.operation is not keep:
            use.operation.operands[use.index] = new


def lower_callee(func: FuncOp, params: list[Slot], returns: list[Slot]) -> int:
    """The device function's side; returns the copies inserted."""
    n = 0
    entry = func.entry_block
    first = entry.first_op
    for arg, s in zip(entry.args, params):
        if s.reg < 0 or not arg.uses or not _is_r(arg):
            continue
        ops = _copy(arg, None)
        for o in ops:
            entry.insert_op_before(o, first) if first is not None else entry.add_op(o)
        _replace_uses_except(arg, ops[-1].results[0], ops[0])
        n += 1
    for block in func.body.blocks:
        ret = block.last_op
        if not isinstance(ret, RetOp):
            continue
        for k, (v, s) in enumerate(zip(list(ret.operands), returns)):
            if s.reg < 0 or not _is_r(v):
                continue
            ops = _copy(v, s.reg)
            for o in ops:
                block.insert_op_before(o, ret)
            ret.operands[k] = ops[-1].results[0]
            n += 1
    return n


def lower_call(call: CallOp, params: list[Slot], returns: list[Slot], ret_reg: int | None) -> int:
    """The caller's side of one call; returns the copies inserted."""
    block = call.parent_block()
    assert isinstance(block, Block)
    n = 0
    first_arg = 1 if len(call.operands) > len(call.args) else 0  # the indirect target
    for k, s in enumerate(params):
        v = call.operands[first_arg + k]
        if s.reg < 0 or not _is_r(v):
            continue
        ops = _copy(v, s.reg)
        for o in ops:
            block.insert_op_before(o, call)
        call.operands[first_arg + k] = ops[-1].results[0]
        n += 1
    regs = [s.reg if _is_r(r) else -1 for s, r in zip(returns, call.results)]
    call.attributes[ABI_RESULTS_ATTR] = DenseArrayBase.from_list(i32, regs)
    if ret_reg is not None:
        call.attributes[ABI_RET_ATTR] = IntegerAttr(ret_reg, i32)
    at: Operation = call
    for r, s in zip(call.results, returns):
        if s.reg < 0 or not r.uses or not _is_r(r):
            continue
        ops = _copy(r, None)
        for o in ops:
            block.insert_op_after(o, at)
            at = o
        _replace_uses_except(r, ops[-1].results[0], ops[0])
        n += 1
    return n


def precoloured_results(op: Operation) -> dict[SSAValue, int]:
    """The values ``op`` defines in a fixed register: an ABI copy's result,
    a lowered call's results."""
    out: dict[SSAValue, int] = {}
    a = op.attributes.get(ABI_REG_ATTR)
    if isinstance(a, IntegerAttr) and op.results:
        out[op.results[0]] = a.value.data
    if isinstance(op, CallOp):
        regs = op.attributes.get(ABI_RESULTS_ATTR)
        if isinstance(regs, DenseArrayBase):
            for r, n in zip(op.results, regs.get_values()):
                if int(n) >= 0:
                    out[r] = int(n)
    return out


__all__ = [
    "ABI_COPY_ATTR",
    "ABI_OUTGOING_ATTR",
    "ABI_REG_ATTR",
    "ABI_RESULTS_ATTR",
    "ABI_RET_ATTR",
    "lower_call",
    "lower_callee",
    "precoloured_results",
]
