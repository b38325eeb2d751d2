"""What ``ori-regalloc`` takes from ``ori-abi`` (seed 003 "Scratch Data
Registers", "Call Instruction ABI Lowering"): the pre-colouring and the
scratch/preserved classification of a function whose ``abi`` was resolved.

Per allocation unit a mask of the registers it may take
(:func:`abi_masks`, consumed by :func:`.fatpoint.fatpoint_allocate`):

* a unit holding a pre-coloured value (an ABI copy's ``ori.abi_reg``, a
  lowered call's ``ori.abi_results``, a device function's register-passed
  parameter) takes exactly that register; such values are never spilled
  (a reload would be an uncoloured value) and are coloured first;
* an R (or P) unit live across calls may not take a register any of those
  calls may overwrite (:func:`call_clobbers`): the return address the CALL
  writes (R20:R21) and what each possible callee recorded after its own
  allocation (``ori.abi_clobbers``: the registers it and its callees touch
  and do not save) -- callees are allocated before their callers --; a
  CUDA device runtime function (``vprintf``, ``malloc`` ...) the scratch
  registers among R0-R15 (the target's ``abi_runtime_scratch``: ptxas
  13.0 keeps values across ``printf`` in R16-R19 and R22 up to R58) and
  every predicate; where a callee is not known yet (recursion, an indirect
  call without candidates), every scratch register: then only the
  preserved R2, R16-R19, R22-R31 remain and no predicate.  In a device
  function such a unit prefers a scratch
  register its callees leave alone to a preserved one, which costs a save
  (``Unit.prefer``).  ptxas does the same inside one module (its kernels keep a
  value in R2 across calls to functions that leave R2 alone, and in R16+
  across a call to an external function).  Where no allowed register is
  free the unit fails and is spilled, which is ori's caller save: the spill
  store before the call and the reload after it are seed 003's "pre-call
  save / post-call restore" brackets;
* the other R units of a *device function* take scratch registers only, so
  that a leaf function needs no saves (ptxas 13.0's device functions use
  R0, R3-R15 and R32+ and never touch R16-R31: passes/abi/__init__.py);
  kernels are not restricted there.

Values live across calls in a device function sit in preserved registers
the function must save in its prologue and restore in its epilogue, and a
device function that calls must save its return address (R20:R21): the
registers are recorded (``saved`` in the resolved ``abi``) and
:mod:`.callee_saves` emits their STL at the entry and LDL before each RET,
spill code the figures count as ``ptxas -v`` does (spill stores and loads,
stack frame); a recursive function's go into each activation's frame below
R1 (:mod:`.frame`).  ``ori.abi_save_bytes`` (4 per register) carries their
bytes between :func:`record_saves` and the emission, 0 once emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, i32
from xdsl.ir import Operation

from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallIndirectOp, CallOp
from ori_dialect.ops.func import RUNTIME_FUNCTIONS, FuncOp
from ori_dialect.ops.uniform_calls import UniformWriters
from passes.abi.lower import precoloured_results
from passes.abi.spec import STACK_POINTER, default_preserved, default_scratch
from passes.regalloc.budget import function_target
from passes.regalloc.points import LiveMatrix

if TYPE_CHECKING:  # classes.py imports this module for its spill costs
    from passes.regalloc.classes import Unit

RESOLVED_ATTR = "ori.abi_resolved"
CLOBBERS_ATTR = "ori.abi_clobbers"
"""On a device function after allocation and on each call of a lowered
function: the (R, P) registers the callee may overwrite, as bit sets."""
_ALL = (1 << 256) - 1
SAVE_BYTES_ATTR = "ori.abi_save_bytes"


def is_lowered(func: FuncOp) -> bool:
    """``ori-abi`` inserted the pre-coloured copies (``ori.abi_resolved = 1``)."""
    a = func.attributes.get(RESOLVED_ATTR)
    return isinstance(a, IntegerAttr) and a.value.data == 1 and isinstance(func.abi, AbiAttr)


def _bits(regs: frozenset[int]) -> int:
    m = 0
    for r in regs:
        m |= 1 << r
    return m


def fixed_values(func: FuncOp, lm: LiveMatrix) -> dict[int, int]:
    """Numbered value -> its pre-coloured base register."""
    num = lm.numbering
    out: dict[int, int] = {}
    for ops in num.ops:
        for op in ops:
            for v, r in precoloured_results(op).items():
                i = num.index.get(v)
                if i is not None:
                    out[i] = r
    if not func.is_kernel and isinstance(func.abi, AbiAttr):
        for arg, s in zip(func.entry_block.args, func.abi.fields().params or ()):
            i = num.index.get(arg)
            t = arg.type
            if (s.reg >= 0 and i is not None and isinstance(t, OriRegisterType)
                    and t.REG_FILE is RegFile.R):
                out[i] = s.reg
    return out


def across_calls(lm: LiveMatrix) -> dict[CallOp, set[int]]:
    """Per call, the values live before and after it, other than its
    results.  An operand still live after the call (an indirect call's
    target used by the next call) counts: the callee may clobber it."""
    num = lm.numbering
    calls = [op for ops in num.ops for op in ops if isinstance(op, CallOp)]
    out: dict[CallOp, set[int]] = {}
    for c, vals in zip(calls, lm.live_through([lm.op_point[c] for c in calls])):
        own = {num.index[v] for v in c.results if v in num.index}
        out[c] = {int(v) for v in np.asarray(vals).tolist() if int(v) not in own}
    return out


def _module_funcs(func: FuncOp) -> dict[str, FuncOp]:
    mod = func.parent_op()
    if mod is None:
        return {}
    # The functions in mod.walk()'s order without entering their bodies
    # (functions do not nest): walking every op of the module on each call
    # was 40% of ori-regalloc on Thrust's kernels (issue 20).
    out: dict[str, FuncOp] = {}

    def collect(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isinstance(inner, FuncOp):
                        out[inner.sym_name.data] = inner
                    elif inner.regions:
                        collect(inner)

    collect(mod)
    return out


def runtime_scratch_mask(target: object) -> int:
    """The R registers a CUDA device runtime function may overwrite, as a
    mask before the convention's preserved ones come off: the target's
    ``abi_runtime_scratch`` range (R0-R15)."""
    lo, hi = getattr(target, "abi_runtime_scratch", (0, 15))
    return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)


def runtime_call_survivors(target: object) -> list[int]:
    """The R registers, in order, a value live across a device-runtime call
    may take before ``ori-abi`` has resolved the function's convention: the
    target's default one (:func:`passes.abi.spec.default_scratch`) less what
    :func:`call_clobbers` says such a call overwrites -- its scratch
    registers within :func:`runtime_scratch_mask` and the return address
    (R2, R16-R19, R22, ... on every ptxas 13.0 target)."""
    scratch = _bits(default_scratch(target, default_preserved(target)).get(
        RegFile.R, frozenset()))
    ret = getattr(target, "abi_return_addr_reg", 20)
    clobbered = (scratch & runtime_scratch_mask(target)) | 3 << ret
    limit = int(target.reg_limit("R"))  # type: ignore[attr-defined]
    return [r for r in range(limit) if r != STACK_POINTER and not clobbered >> r & 1]


def runtime_calls_only(func: FuncOp) -> bool:
    """``func`` is a kernel whose every call is a direct call of a CUDA device
    runtime function the module does not define (``vprintf``, ``malloc``,
    ``free`` ...): such calls overwrite R0-R15 alone (:func:`call_clobbers`),
    so what its count needs beyond max live is a register above R15 for each
    value live across one -- not what a callee's allocation decides."""
    if not func.is_kernel:
        return False
    funcs: dict[str, FuncOp] | None = None
    for op in func.walk():
        if isinstance(op, CallIndirectOp):
            return False
        if isinstance(op, CallOp):
            if funcs is None:
                funcs = _module_funcs(func)
            name = op.callee_name()
            if name not in RUNTIME_FUNCTIONS or name in funcs:
                return False
    return True


def _masks_of(a: object) -> tuple[int, int] | None:
    if isinstance(a, ArrayAttr) and len(a.data) == 2 and all(
            isinstance(x, IntAttr) for x in a.data):
        return a.data[0].data, a.data[1].data  # type: ignore[union-attr]
    return None


def call_clobbers(call: CallOp, funcs: dict[str, FuncOp],
                  standard: tuple[int, int], runtime_r: int | None = None) -> tuple[int, int]:
    """The (R, P) registers ``call`` may overwrite: the return address the
    CALL writes, plus what its possible callees recorded (``ori.abi_clobbers``:
    the scratch registers they and their callees touch); for a CUDA device
    runtime function, the scratch registers of ``runtime_r`` (the target's
    ``abi_runtime_scratch``: R0-R15) and every scratch predicate; else -- a
    callee not allocated yet (recursion), an indirect call with no
    candidate, a runtime function without ``runtime_r`` -- every scratch
    register (``standard``)."""
    r = p = 0
    ra = call.attributes.get("ori.abi_ret")
    if isinstance(ra, IntegerAttr):
        r |= 3 << ra.value.data
    callee = None if isinstance(call, CallIndirectOp) else call.callee_name()
    if runtime_r is not None and callee in RUNTIME_FUNCTIONS and callee not in funcs:
        return r | (standard[0] & runtime_r), p | standard[1]
    names = call.possible_callees(funcs)
    known = [_masks_of(funcs[n].attributes.get(CLOBBERS_ATTR)) for n in names]
    if not names or any(k is None for k in known):
        return r | standard[0], p | standard[1]
    for k in known:
        assert k is not None
        r, p = r | k[0], p | k[1]
    return r, p


def abi_masks(func: FuncOp, lm: LiveMatrix, units: list[Unit],
              spillable: np.ndarray) -> tuple[dict[int, int], set[int]]:
    """The allowed-register mask of each constrained unit and the units that
    are pre-coloured (module docstring).  Pre-coloured values are made
    unspillable in ``spillable`` (and their units)."""
    if not is_lowered(func):
        return {}, set()
    assert isinstance(func.abi, AbiAttr)
    f = func.abi.fields()
    scratch = _bits((f.scratch or {}).get(RegFile.R, frozenset()))
    standard = (scratch, _bits((f.scratch or {}).get(RegFile.P, frozenset())))
    fixed = fixed_values(func, lm)
    funcs = _module_funcs(func)
    # what each value live across calls must avoid: the union of the
    # clobbers of the calls it lives across (ptxas keeps a value across a
    # call in any register the callee leaves alone: R2 across sq/neg)
    avoid: dict[int, tuple[int, int]] = {}
    runtime_r = runtime_scratch_mask(function_target(func, None))
    for c, vals in across_calls(lm).items():
        cr, cp = call_clobbers(c, funcs, standard, runtime_r)
        c.attributes[CLOBBERS_ATTR] = ArrayAttr([IntAttr(cr), IntAttr(cp)])
        for v in vals:
            r0, p0 = avoid.get(v, (0, 0))
            avoid[v] = (r0 | cr, p0 | cp)
    masks: dict[int, int] = {}
    pinned: set[int] = set()
    for i in fixed:
        spillable[i] = False
    for u in units:
        regs = {fixed[v] for v in u.values if v in fixed}
        if regs:
            masks[u.id] = ((1 << u.width) - 1) << min(regs)  # the whole slot
            pinned.add(u.id)
            u.spillable = False
            continue
        hit = [avoid[v] for v in u.values if v in avoid]
        if u.file is RegFile.R:
            if hit:
                clob = 0
                for r, _ in hit:
                    clob |= r
                masks[u.id] = _ALL & ~clob
                if not func.is_kernel:
                    # a preserved register costs a save, a scratch one the
                    # callees leave alone nothing
                    u.prefer = masks[u.id] & scratch
            elif not func.is_kernel:
                masks[u.id] = scratch
        elif u.file is RegFile.P and hit:
            clob = 0
            for _, p in hit:
                clob |= p
            masks[u.id] = 0xFF & ~clob
    return masks, pinned


SAVE_LIMIT = 4.0
"""The longest caller-save chain costed by its length (seed 003: alloc+1544,
default 4.0, knob 680)."""


def _enclosing_func(op: CallOp) -> FuncOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, FuncOp):
        p = p.parent_op()
    return p


def caller_save_weight(call: CallOp, base_cost: float,
                       freq: float) -> Callable[[RegFile, int], float] | None:
    """Seed 003's spill-cost adjustment at a CALL (sub_94F150's
    ``adjust_spill_cost_for_abi``) for a value live across it, in a function
    ``ori-abi`` lowered (None elsewhere: the allocator's own rule applies).
    ``cost_mult`` is 2.0: every such value is live before and after the
    call.  A uniform value is exempt (its separate spill path), a
    single-register value takes the plain nesting-depth cost only (the
    seed's ``pair_width == 1`` path), and a wider one is either *scratch
    across the call* -- the callees are known, so it may stay in a scratch
    register they leave alone: a save chain of ``width`` registers, costed
    ``width * freq`` up to :data:`SAVE_LIMIT`, else ``cost_mult * 2 *
    base * freq`` -- or must take a preserved register (unknown callee):
    ``cost_mult * 2 * base * freq``."""
    func = _enclosing_func(call)
    if func is None or not is_lowered(func):
        return None
    funcs = _module_funcs(func)
    names = call.possible_callees(funcs)
    scratch_ok = bool(names) and all(
        _masks_of(funcs[n].attributes.get(CLOBBERS_ATTR)) is not None for n in names)
    full = 2.0 * (2.0 * base_cost) * freq

    def weight(file: RegFile, width: int) -> float:
        if file.is_uniform or width == 1:
            return 0.0
        if scratch_ok and width <= SAVE_LIMIT:
            return float(width) * freq
        return full

    return weight


def pinned_first(order: list[Unit], pinned: set[int]) -> list[Unit]:
    return [u for u in order if u.id in pinned] + [u for u in order if u.id not in pinned]


def record_clobbers(func: FuncOp, saved: set[int]) -> None:
    """After assignment: the registers a device function may overwrite for
    its callers (``ori.abi_clobbers``: R and P bit sets) -- every register
    its values use that it does not save, and what its own calls clobber."""
    r = p = 0
    for op in func.walk():
        vals = list(op.results) + [a for reg in op.regions for b in reg.blocks for a in b.args]
        for v in vals:
            t = v.type
            if not isinstance(t, OriRegisterType) or t.phys_index is None or t.is_fixed:
                continue
            bits = ((1 << t.num_regs()) - 1) << t.phys_index
            if t.REG_FILE is RegFile.R:
                r |= bits
            elif t.REG_FILE is RegFile.P:
                p |= bits
        if isinstance(op, CallOp):
            k = _masks_of(op.attributes.get(CLOBBERS_ATTR))
            if k is not None:
                r, p = r | k[0], p | k[1]
    r &= ~_bits(frozenset(saved))
    func.attributes[CLOBBERS_ATTR] = ArrayAttr([IntAttr(r), IntAttr(p)])


def record_saves(func: FuncOp) -> int:
    """After assignment: the preserved R registers a device function uses go
    into its ``abi``'s ``saved`` set and what it clobbers into
    ``ori.abi_clobbers``; returns the saved bytes (module docstring)."""
    if not is_lowered(func) or func.is_kernel:
        return 0
    assert isinstance(func.abi, AbiAttr)
    f = func.abi.fields()
    preserved = (f.preserved or {}).get(RegFile.R, frozenset())
    used: set[int] = set()
    for op in func.walk():
        vals = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]
        for v in vals:
            t = v.type
            if isinstance(t, OriRegisterType) and t.REG_FILE is RegFile.R and \
                    t.phys_index is not None:
                used.update(r for r in range(t.phys_index, t.phys_index + t.num_regs())
                            if r in preserved)
    # a function that calls overwrites its own return address with the
    # inner CALL's: it saves R20:R21 too (ptxas 13.0's recursive fib saves
    # R16, R17, R20 and R21: 16 bytes)
    if f.ret_reg is not None and f.ret_file is RegFile.R and any(
            isinstance(op, CallOp) for op in func.walk()):
        used.update((f.ret_reg, f.ret_reg + 1))
    func.abi = AbiAttr.make(replace(f, saved={RegFile.R: frozenset(used)} if used else {}))
    record_clobbers(func, used)
    n = 4 * len(used)
    func.attributes[SAVE_BYTES_ATTR] = IntegerAttr(n, i32)
    return n


def check_abi(func: FuncOp, lm: LiveMatrix, name: str) -> list[str]:
    """The allocation checker's calling-convention rule (after allocation):
    every pre-coloured value sits in its register, no value live across a
    call sits in a register the call's ``ori.abi_clobbers`` names, and no
    uniform register is live across a call that may write the uniform file
    (ori_dialect/ops/uniform_calls.py; ``ori-uniform`` keeps them
    apart)."""
    if not is_lowered(func):
        return []
    out: list[str] = []
    num = lm.numbering
    for i, reg in fixed_values(func, lm).items():
        t = num.values[i].type
        if isinstance(t, OriRegisterType) and t.phys_index != reg:
            out.append(f"{name}: a value the calling convention puts in R{reg} is in {t}")
    writers: UniformWriters | None = None
    for c, vals in across_calls(lm).items():
        k = _masks_of(c.attributes.get(CLOBBERS_ATTR))
        for v in sorted(vals):
            t = num.values[v].type
            if not isinstance(t, OriRegisterType) or t.phys_index is None or t.is_fixed:
                continue
            if t.REG_FILE.is_uniform:
                if writers is None:
                    writers = UniformWriters(_module_funcs(func))
                if writers.may_write(c):
                    out.append(f"{name}: a value in {t} is live across the call to "
                               f"@{c.callee_name() or '(indirect)'}, which may write the "
                               "uniform registers")
                continue
            if k is None:
                continue
            bits = k[0] if t.REG_FILE is RegFile.R else k[1] if t.REG_FILE is RegFile.P else 0
            hit = [r for r in range(t.phys_index, t.phys_index + t.num_regs()) if bits >> r & 1]
            if hit:
                out.append(f"{name}: a value in {t} is live across the call to "
                           f"@{c.callee_name() or '(indirect)'}, which may overwrite "
                           f"{t.REG_FILE.value}{hit[0]}")
    return out


def abi_save_bytes(func: FuncOp) -> int:
    """The callee saves' bytes (``ori.abi_save_bytes``)."""
    a = func.attributes.get(SAVE_BYTES_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else 0


def abi_frame_bytes(func: FuncOp) -> int:
    """Frame bytes the convention adds: the widest call's stack-passed
    arguments (``ori.abi_outgoing``, ptxas's ``IADD3 R1, R1, -0x40`` before
    passing a 64-byte struct) and the callee saves (``ori.abi_save_bytes``)."""
    n = 0
    for key in ("ori.abi_outgoing", SAVE_BYTES_ATTR):
        a = func.attributes.get(key)
        if isinstance(a, IntegerAttr):
            n += a.value.data
    return n


__all__ = [
    "SAVE_BYTES_ATTR",
    "SAVE_LIMIT",
    "abi_frame_bytes",
    "abi_masks",
    "abi_save_bytes",
    "across_calls",
    "caller_save_weight",
    "check_abi",
    "fixed_values",
    "is_lowered",
    "pinned_first",
    "record_saves",
]
