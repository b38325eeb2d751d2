"""Constant arguments written at their calls (``ori-abi``, option
``constant-args``; ori's rule, the seed gives no algorithm).

ptxas 13.0 writes an argument that is a constant straight into its
parameter register at every call: each of ``printf_loop``'s vprintf calls
(examples/library/device_data.cu, sm_80) reads the format string with
``IMAD.MOV.U32 R4, RZ, RZ, c[0x4][0x28]`` / ``R5 ... c[0x4][0x2c]`` right
before its ``CALL``, although the loop is unrolled four times and the
address is loop-invariant.  Held in a register instead, such a value is
live across the calls, so it must sit in a register no callee overwrites
(R16-R31 and above: passes/regalloc/abi.py) and still be copied into the
parameter registers at each call -- ori's ``printf_loop`` kept the format
string and the generic address of its argument buffer in four preserved
registers across the loop (40 registers, ptxas 38).

**Rule.**  After the calls are lowered (:mod:`.lower`), a value ``v`` whose
every use is an argument copy of a call (the ``ori.abi_copy`` MOV, or
UNPACK/PACK pair, that puts it in its parameter register) and whose
definition is a *constant chain* is recomputed at each call instead: the
chain is cloned right before the copy, the clone's last instruction writes
the parameter register itself (it takes the copy's ``ori.abi_reg`` and
``ori.abi_copy``), the copy goes, and once no copy reads ``v`` its chain is
erased.  A constant chain is at most :data:`MAX_CHAIN` instructions that
read no register but each other's results: an immediate ``MOV``, a symbol
address (``ori.addr``), a frame address (``R1`` + offset: R1 is fixed
between the frame's enter and leave, and a call's own stack-argument area
is opened by the CALL itself, after the clone), a constant-bank ``LDC`` at
a fixed address, a ``PACK`` of such parts -- each
one the machine-level remat pass could recompute anywhere
(:func:`passes.remat_block.candidates.def_check`), unguarded, and writing
the R file (a uniform write in code that may be divergent is unsound:
passes/uniform).

**Cost.**  A chain is recomputed only where its clone costs no more
instructions than the copy it replaces (:func:`chain_cost`: one per
instruction, a ``PACK`` one ``MOV`` per part that is no register, against
the copy's one ``MOV`` per 32-bit part), and only as a tree (a part read
twice would be one more register at the call): an immediate, a symbol
address (``MOV.64``), a constant-bank word, a frame address ``PACK``ed
with the local window's high word (``MOV R6, R1`` / ``MOV R7, 0x7d00``)
qualify.  CUB's histogram sweeps pass their sign-extended divisor (an
``LDC`` and its ``SHR .. 0x1f`` packed) to each of 64 ``__ori_udivmod64``
calls per loop: three instructions against the copy's two, so it stays
in a register pair (recomputed, the sweeps took 53 registers instead of
55, at the same resident warps, for 64 more instructions in the loop;
ptxas keeps the high word in ``UR5`` and reads the low one from the
constant bank at each call).  The one original definition is gone; where
``v`` sat in its parameter register already (one call, no call between
the definition and it) the copy was free and the clone costs what the
definition did: only its place changes.  A value read by anything but
argument copies (a store, an ALU instruction) is left alone: its register
is needed anyway.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, OpResult, SSAValue

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from passes.abi.lower import ABI_COPY_ATTR, ABI_REG_ATTR

MAX_CHAIN = 3
"""Instructions one constant argument may be recomputed with: a 64-bit
``PACK`` and its two parts."""


def _r_file(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R and not t.is_fixed


def constant_chain(v: SSAValue, budget: int = MAX_CHAIN) -> list[Operation] | None:
    """The instructions that compute ``v`` from no register, definitions
    first, each read by the next only once (a tree: a shared part would be
    one more register at the call), or None when ``v`` is no such value
    (module docstring)."""
    # lazy: the remat modules load the cost model, which only a call needs
    from passes.remat_block.candidates import def_check

    # lazy: as above
    from passes.remat_block.knobs import Knobs

    if not isinstance(v, OpResult) or not _r_file(v) or budget <= 0:
        return None
    op = v.op
    if len(op.results) != 1 or isinstance(op, OriInstruction) and op.is_guarded:
        return None
    if isinstance(op, PackOp):
        if not op.is_plain():
            return None
    elif def_check(v, Knobs()) is not None:
        return None
    chain: list[Operation] = []
    left = budget - 1
    for w in op.operands:
        if not _r_file(w):
            if isinstance(w.type, OriRegisterType) and w.type.is_fixed:
                continue  # RZ
            return None
        sub = constant_chain(w, left)
        if sub is None or any(o in chain for o in sub):
            return None
        left -= len(sub)
        chain += sub
    return [*chain, op]


def chain_cost(chain: list[Operation]) -> int:
    """Instructions the chain's clone emits in the parameter register: one
    per instruction, none for a ``PACK`` but one ``MOV`` per part that is no
    register (its register parts are written in place by their
    definitions)."""
    n = 0
    for op in chain:
        if isinstance(op, PackOp):
            t = op.results[0].type
            assert isinstance(t, OriRegisterType)
            n += t.num_regs() - sum(1 for w in op.operands if _r_file(w))
        else:
            n += 1
    return n


def _argument_copy(user: Operation) -> tuple[list[Operation], Operation] | None:
    """``user`` reads a value to put it in a call's parameter register: the
    copy's instructions and the one that writes the register, else None."""
    if ABI_COPY_ATTR not in user.attributes:
        return None
    if isinstance(user, MovOp) and ABI_REG_ATTR in user.attributes:
        last: Operation = user
        ops = [user]
    elif isinstance(user, UnpackOp):
        packs = {u.operation for r in user.results for u in r.uses}
        if len(packs) != 1:
            return None
        last = packs.pop()
        if (not isinstance(last, PackOp) or ABI_REG_ATTR not in last.attributes
                or list(last.operands) != list(user.results)
                or not all(r.has_one_use() for r in user.results)):
            return None
        ops = [user, last]
    else:
        return None
    readers = {u.operation for u in last.results[0].uses}
    if len(readers) != 1 or not isinstance(readers.pop(), CallOp):
        return None
    return ops, last


def _copied(arg: SSAValue) -> SSAValue | None:
    """The value an argument copy puts in its parameter register (the MOV's
    source, the source of the UNPACK whose parts the PACK joins), or None:
    ``arg`` is no copy -- a constant already written at the call (a clone
    made for an earlier call of the same value), a call result."""
    last = arg.owner
    if not isinstance(last, Operation) or ABI_REG_ATTR not in last.attributes:
        return None
    if isinstance(last, MovOp):
        return last.operands[0] if last.operands else None
    if isinstance(last, PackOp) and last.operands:
        un = last.operands[0].owner
        if isinstance(un, UnpackOp) and ABI_COPY_ATTR in un.attributes:
            return un.operands[0]
    return None


def _erase_unused(chain: list[Operation]) -> None:
    for op in reversed(chain):
        if all(not r.uses for r in op.results) and op.parent is not None:
            op.detach()
            op.erase()


def recompute_constant_args(func: Operation) -> int:
    """Recompute each constant argument at its calls (module docstring);
    returns the number of copies replaced."""
    replaced = 0
    seen: set[SSAValue] = set()
    for call in [o for o in func.walk() if isinstance(o, CallOp)]:
        for arg in call.operands:
            v = _copied(arg)
            if v is None or v in seen:
                continue
            seen.add(v)
            chain = constant_chain(v)
            width = v.type.num_regs() if isinstance(v.type, OriRegisterType) else 0
            if chain is None or chain_cost(chain) > width:
                continue
            # one copy per use: each reads v once (a MOV, or an UNPACK)
            found = [_argument_copy(u.operation) for u in v.uses]
            copies = [c for c in found if c is not None]
            if not copies or len(copies) != len(found):
                continue
            for ops, reg_writer in copies:
                block = reg_writer.parent
                assert isinstance(block, Block)
                mapping: dict[SSAValue, SSAValue] = {}
                clone: Operation | None = None
                for o in chain:
                    clone = o.clone(value_mapper=mapping)
                    for old, new in zip(o.results, clone.results):
                        mapping[old] = new
                    block.insert_op_before(clone, ops[0])
                assert clone is not None
                clone.attributes[ABI_COPY_ATTR] = reg_writer.attributes[ABI_COPY_ATTR]
                clone.attributes[ABI_REG_ATTR] = reg_writer.attributes[ABI_REG_ATTR]
                reg_writer.results[0].replace_all_uses_with(clone.results[0])
                for o in reversed(ops):
                    o.detach()
                    o.erase()
                replaced += 1
            _erase_unused(chain)
    return replaced


__all__ = ["MAX_CHAIN", "chain_cost", "constant_chain", "recompute_constant_args"]
