"""A function's ABI request: the target's defaults, overridden by the pass
options and then by the function's own ``#ori.abi<...>`` (seed 003
"Per-Callee ABI Specification", "SM Generation Dispatch").

Target defaults (``targets/descriptor.py``): the regular return-address
mode in ``R20`` (``abi_return_addr_reg``), parameters from ``R4``
(``abi_first_param_reg``) in twelve registers (``abi_param_regs``), R16-R31
and R2 preserved and every other allocatable R register scratch
(``abi_preserved``, ``abi_preserved_extra``), the predicates scratch; the generation decides the
ABI minimum register count (7016) and whether the uniform return-address
mode exists (7009: ``has_uniform_registers``, sm_75 and later).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Attribute

from ori_dialect.ir.abi import AbiAttr, AbiFields, RegSet, Slot
from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.func import FuncOp

STACK_POINTER = 1
"""R1, initialised from ``c[0x0][0x28]`` in every kernel (seed 003 "Reserved
Registers": one of R0-R3's fixed roles)."""
ABI_RESERVED = frozenset(range(4))
"""R0-R3 (seed 003 "Reserved Registers")."""


@dataclass
class Request:
    """Everything the master setup needs for one function."""

    name: str
    kernel: bool
    generation: int
    min_regs: int | None
    uniform_ok: bool
    ur_limit: int
    max_reg: int
    """The function's R register limit (``ori-regalloc``'s budget before the
    7016 raise)."""
    ret_mode: int
    ret_reg: int | None
    ret_file: RegFile
    ret_before_params: bool
    first_param: int
    available: int
    reserved: tuple[int, int] | None
    reserve: int | None
    preserved: RegSet
    scratch: RegSet
    explicit_scratch: bool
    suspend_scratch: RegSet | None
    coroutine: bool
    params: list[Slot]
    returns: list[Slot]
    makes_calls: bool = False
    notes: list[str] = field(default_factory=list)


def slot_for(t: Attribute, p: ParamAttr | None) -> Slot:
    """The descriptor of one parameter or return value: ``N x 4`` bytes (a
    ``.param .b8 p[N]`` is words to the convention), alignment from its
    ``#ori.param`` (else the register's width) clamped to [4, 16]."""
    if p is not None:
        size, align = p.size.data, p.align.data
    else:
        bits = t.BITS if isinstance(t, OriRegisterType) else 32
        size, align = max(bits // 8, 4), max(bits // 8, 4)
    align = max(4, min(align, 16))
    if size % 4:
        return Slot(size, 1, align)
    return Slot(size // 4, 4, align)


def signature_slots(func: FuncOp) -> tuple[list[Slot], list[Slot]]:
    ft = func.function_type
    ps = list(func.params.data) if func.params is not None and not func.is_kernel else None
    rs = list(func.returns.data) if func.returns is not None else None
    params = [slot_for(t, ps[i] if ps else None) for i, t in enumerate(ft.inputs.data)]
    rets = [slot_for(t, rs[i] if rs else None) for i, t in enumerate(ft.outputs.data)]
    return params, rets


def default_preserved(target: object) -> RegSet:
    lo, hi = target.abi_preserved  # type: ignore[attr-defined]
    extra = getattr(target, "abi_preserved_extra", ())
    return {RegFile.R: frozenset(range(lo, hi + 1)) | frozenset(extra)}


def default_scratch(target: object, preserved: RegSet) -> RegSet:
    rlim = target.reg_limit("R")  # type: ignore[attr-defined]
    keep = preserved.get(RegFile.R, frozenset()) | {STACK_POINTER}
    out: RegSet = {RegFile.R: frozenset(r for r in range(rlim) if r not in keep)}
    plim = target.reg_limit("P")  # type: ignore[attr-defined]
    if plim:
        out[RegFile.P] = frozenset(range(plim))
    return out


def build_request(func: FuncOp, target: object, max_reg: int,
                  opts: AbiFields | None = None) -> Request:
    """Defaults of ``target``, then ``opts`` (pass options), then the
    function's own ``abi`` attribute; a field left unset keeps the layer
    below."""
    layers = [x for x in (opts, func.abi.fields() if isinstance(func.abi, AbiAttr) else None)
              if x is not None]
    preserved = default_preserved(target)
    r = Request(
        name=func.sym_name.data, kernel=func.is_kernel,
        generation=target.abi_generation,  # type: ignore[attr-defined]
        min_regs=target.abi_min_regs,  # type: ignore[attr-defined]
        uniform_ok=bool(target.has_uniform_registers),  # type: ignore[attr-defined]
        ur_limit=target.reg_limit("UR"),  # type: ignore[attr-defined]
        max_reg=max_reg, ret_mode=2, ret_reg=None, ret_file=RegFile.R,
        ret_before_params=False,
        first_param=target.abi_first_param_reg,  # type: ignore[attr-defined]
        available=target.abi_param_regs,  # type: ignore[attr-defined]
        reserved=None, reserve=None, preserved=preserved,
        scratch=default_scratch(target, preserved), explicit_scratch=False,
        suspend_scratch=None, coroutine=False, params=[], returns=[])
    default_ret = target.abi_return_addr_reg  # type: ignore[attr-defined]
    explicit_mode = False
    for f in layers:
        if f.ret_mode is not None:
            r.ret_mode = f.ret_mode
            explicit_mode = True
        if f.ret_reg is not None:
            r.ret_reg, r.ret_file = f.ret_reg, f.ret_file
        r.ret_before_params = r.ret_before_params or f.ret_before_params
        if f.first_param is not None:
            r.first_param = f.first_param
        if f.available is not None:
            r.available = f.available
        if f.reserved is not None:
            r.reserved = f.reserved
        if f.reserve is not None:
            r.reserve = f.reserve
        if f.preserved is not None:
            r.preserved = dict(f.preserved)
            if f.scratch is None and not r.explicit_scratch:
                r.scratch = default_scratch(target, r.preserved)
        if f.scratch is not None:
            r.scratch = dict(f.scratch)
            r.explicit_scratch = True
        if f.suspend_scratch is not None:
            r.suspend_scratch = f.suspend_scratch
        r.coroutine = r.coroutine or f.coroutine
    if r.ret_before_params and not explicit_mode:
        r.ret_mode = 1
    if r.ret_mode == 2 and r.ret_reg is None:
        r.ret_reg = default_ret
    r.params, r.returns = signature_slots(func)
    return r


__all__ = ["ABI_RESERVED", "STACK_POINTER", "Request", "build_request", "signature_slots",
           "slot_for"]
