"""``ori-abi``: the GPU calling convention of seed 003 as a lowering pass.

For every function that takes part in the convention (a device function,
or a kernel with a call) the pass

1. builds the ABI request (:mod:`.spec`: target defaults, pass options, the
   function's ``#ori.abi<...>``) and runs the master setup in the seed's
   order (:mod:`.setup`: diagnostics 7001-7006, 7008-7017 with the seed's
   codes and texts, the parameter allocator of :mod:`.params`);
2. propagates register limits through the call graph (:mod:`.limits`);
3. lowers calls, entries and returns to pre-coloured copies
   (:mod:`.lower`), and records the resolved specification as the
   function's ``abi`` property, which ``ori-regalloc`` consumes: the
   pre-coloured registers, R1 (R0-R3 with ``reserve-r0-r3``) and a
   ``reserved`` range never allocated,
   values live across a call kept out of the registers the call may
   overwrite (the return address and what the callees clobber, every
   scratch register where a callee is unknown; else spilled: the caller
   save), the seed's caller-save spill-cost adjustment, and the callee
   saves of the preserved registers a device function uses (its
   ``saved`` set, in the frame and the spill figures;
   ``passes/regalloc/abi.py``).  ``ori-check-regalloc`` checks the result
   (its rule 8) and the physical-register interpreter clobbers what each
   call may overwrite.

**ptxas 13.0, measured** (``nvcc -rdc=true -ptx``, ``ptxas -c -v``,
``cuobjdump -sass``, sm_80; examples/abi/abi_calls.cu): parameters from R4
at the seed's alignments (``long long, double, int, float4`` in R4, R6, R8,
R12), returns from R4 again, the return address in R20:R21 (``MOV R20``,
``MOV R21`` before ``CALL.ABS.NOINC``, ``RET.ABS.NODEC R20``), an indirect
target in R18:R19; twelve parameter registers (R4-R15) -- the 13th ``int``
and a 64-byte struct go to the caller's frame (``k_big``: 64 bytes stack
frame, ``k_huge`` 256, the callee reads ``[R1]``); values live across a call
to an unknown function stay in R16-R31 (and R2), which callees do not touch.
Without ``-c`` (whole program) ptxas passes the 256-byte struct in
registers (70 registers, no stack): it specialises the convention of
internal functions, which ori does not.

**Not modelled** (each said by a remark where it arises): coroutine
SUSPEND/RESUME lowering (7011 is checked, the frame is not built), the
``allowConvAlloc`` convergent boundary (7020: ori has no such annotation),
reserved shared memory (7801), the uniform return address at run time (the
mode is validated, the call still uses an R pair), shared-memory register
transfers (sub_19CC1A0's STS/LDS path).

Options follow the seed's specification fields (kebab case); unset keeps
the target's default.  ``remarks=true`` prints each function's resolved ABI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr, i32
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.ir.abi import RET_MODES, AbiAttr, AbiFields, Slot, regset_text
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.control import CallIndirectOp, CallOp
from ori_dialect.ops.func import FuncOp
from passes.abi.constant_args import recompute_constant_args
from passes.abi.limits import ABI_LIMIT_ATTR, propagate_limits
from passes.abi.lower import ABI_OUTGOING_ATTR, lower_call, lower_callee
from passes.abi.params import stack_bytes
from passes.abi.setup import Resolved, master_setup
from passes.abi.spec import build_request, slot_for
from passes.abi.stack_args import lower_incoming, lower_outgoing
from passes.contract import Requirement, emit_remark, option, require

RESOLVED_ATTR = "ori.abi_resolved"
"""1: ``ori-abi`` lowered the function (pre-coloured copies, consumed by
``ori-regalloc``); 0: it only set up and checked the convention."""


def uses_convention(func: FuncOp) -> bool:
    return not func.is_kernel or any(isinstance(o, CallOp) for o in func.walk())


def resolved_attr(res: Resolved) -> AbiAttr:
    return AbiAttr.make(AbiFields(
        ret_mode=res.req.ret_mode, ret_reg=res.ret_reg, ret_file=res.ret_file,
        ret_before_params=res.req.ret_before_params, first_param=res.req.first_param,
        available=res.req.available, reserved=res.req.reserved, reserve=res.req.reserve,
        preserved=res.preserved, scratch=res.scratch, params=tuple(res.params),
        returns=tuple(res.returns)))


def describe(res: Resolved) -> str:
    """The remark: which registers hold what."""
    def where(s: object) -> str:
        return s.text().split(" @")[-1] if " @" in s.text() else "nowhere"  # type: ignore[attr-defined]

    mode = {v: k for k, v in RET_MODES.items()}[res.req.ret_mode]
    ra = f"{res.ret_file.value}{res.ret_reg}" if res.ret_reg is not None else "none"
    ps = ", ".join(f"#{i} {s.bytes}B in {where(s)}" for i, s in enumerate(res.params)) or "none"
    rs = ", ".join(f"#{i} {s.bytes}B in {where(s)}" for i, s in enumerate(res.returns)) or "none"
    return (f"ABI: return address {mode} {ra}; params {ps}; returns {rs}; "
            f"preserved {regset_text({RegFile.R: res.preserved.get(RegFile.R, frozenset())})}")


@dataclass(frozen=True)
class AbiPass(ModulePass):
    """Seed 003's per-function ABI engine: master setup, parameter
    allocation, call lowering (package docstring)."""

    name = "ori-abi"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.UNALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    target: str | None = option(
        None, "SM target (sm_80, sm_90a, ...); unset = the module's ori.target, else sm_80")
    max_regs: int | None = option(
        None, "as ori-regalloc's max-regs (--maxrregcount): the limit 7016 and the return "
        "address are checked against")
    override_directive_values: bool = option(
        False, "as ori-regalloc's override-directive-values")
    return_address_mode: str = option(
        "", "return_addr_mode (+28): fixed, regular, uniform or computed; empty = regular")
    return_address: int = option(
        -1, "return_addr_register (+24); -1 = the target's (R20 in regular mode)")
    first_param_register: int = option(
        -1, "first_param_register (+32); -1 = the target's (R4)")
    available_reg_count: int = option(
        -1, "available_reg_count (+36): registers for parameters; -1 = the target's (12)")
    ret_addr_before_params: bool = option(
        False, "ret_addr_before_params (+40): the fixed mode's return address before the "
        "parameters")
    lower_calls: bool = option(
        True, "ori: insert the pre-coloured copies (off: only set up and check the ABI)")
    constant_args: bool = option(
        True, "ori: an argument computed from no register (an immediate, a symbol or frame "
        "address, a constant-bank read) is recomputed into its parameter register at each "
        "call instead of held across calls (constant_args.py)")
    remarks: bool = option(False, "ori: print each function's resolved ABI to stderr")
    reserve_r0_r3: bool = option(
        False, "seed 003 'Reserved Registers' read literally: R0-R3 are never allocated in a "
        "function that takes part in the convention (ptxas 13.0 allocates R0, R2 and R3: "
        "passes/regalloc/budget.py)")

    def _options(self) -> AbiFields:
        mode = None
        if self.return_address_mode:
            if self.return_address_mode not in RET_MODES:
                raise PassFailedException(
                    f"ori-abi: return-address-mode must be one of {', '.join(RET_MODES)}, got "
                    f"{self.return_address_mode!r}")
            mode = RET_MODES[self.return_address_mode]
        for nm, v in (("return-address", self.return_address),
                      ("first-param-register", self.first_param_register),
                      ("available-reg-count", self.available_reg_count)):
            if not -1 <= v <= 255:
                raise PassFailedException(f"ori-abi: {nm} must be -1..255, got {v}")
        def o(v: int) -> int | None:
            return None if v < 0 else v

        return AbiFields(ret_mode=mode, ret_reg=o(self.return_address),
                         first_param=o(self.first_param_register),
                         available=o(self.available_reg_count),
                         ret_before_params=self.ret_addr_before_params)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from passes.regalloc.budget import (  # lazy: heavy
            ABI_RESERVE_LOW_ATTR,
            compute_budget,
            function_target,
        )

        require(self, op)
        opts = self._options()
        funcs = {f.sym_name.data: f for f in op.walk() if isinstance(f, FuncOp)}
        # one walk per function: its calls (the call graph, who takes part)
        calls = {n: [o for o in f.walk() if isinstance(o, CallOp)] for n, f in funcs.items()}
        callees: dict[str, list[str]] = {
            n: sorted({c for o in cs for c in o.possible_callees(funcs)})
            for n, cs in calls.items()}
        part = {n for n, f in funcs.items() if not f.is_kernel or calls[n]}
        if self.reserve_r0_r3:
            for n in part:
                funcs[n].attributes[ABI_RESERVE_LOW_ATTR] = UnitAttr()
        limits: dict[str, int] = {}
        tgts: dict[str, object] = {}
        for n in part:
            f = funcs[n]
            tgts[n] = function_target(f, self.target)
            # validates the limits (a diagnostic for an impossible one)
            compute_budget(f, tgts[n], self.max_regs, quiet=True,
                           override=self.override_directive_values)
            # the limit before ori-regalloc's 7016 raise, which the master
            # setup reports itself
            limits[n] = _unraised_limit(f, tgts[n], self.max_regs,
                                        self.override_directive_values)
        gen = min((t.abi_generation for t in tgts.values()), default=0)  # type: ignore[attr-defined]
        eff = propagate_limits(gen, {n: funcs[n] for n in part}, limits,
                               {n: [c for c in callees[n] if c in part] for n in part})
        resolved: dict[str, Resolved] = {}
        for n, f in funcs.items():
            if n not in part:
                continue
            if eff[n] < limits[n]:
                f.attributes[ABI_LIMIT_ATTR] = IntegerAttr(eff[n], i32)
                if self.remarks:
                    emit_remark(n, f"register limit {eff[n]} inherited from its callers "
                                   "(seed 003 limit propagation)", pass_name="ori-abi")
            req = build_request(f, tgts[n], eff[n], opts)
            req.makes_calls = bool(calls[n])
            res = master_setup(req)
            resolved[n] = res
            if self.remarks:
                emit_remark(n, describe(res), pass_name="ori-abi")
        if not self.lower_calls:
            for n, res in resolved.items():
                funcs[n].abi = resolved_attr(res)
                funcs[n].attributes[RESOLVED_ATTR] = IntegerAttr(0, i32)
            return
        for n, res in resolved.items():
            f = funcs[n]
            done = f.attributes.get(RESOLVED_ATTR)
            if isinstance(done, IntegerAttr) and done.value.data == 1:
                raise PassFailedException(f"ori-abi: @{n} is already lowered (ori-abi ran twice)")
            if not f.is_kernel:
                lower_callee(f, res.params, res.returns)
                # stack-passed parameters: loaded at the entry (stack_args.py)
                if res.stack_param_bytes:
                    lower_incoming(f, res.params)
            outgoing = 0
            for call in calls[n]:
                params, rets, ra = self._callee_layout(call, funcs, resolved, tgts[n], eff[n])
                if stack_bytes(params):  # in the area the call opens (stack_args.py)
                    lower_outgoing(call, params)
                lower_call(call, params, rets, ra)
                outgoing = max(outgoing, stack_bytes(params))
            if self.constant_args and calls[n]:
                k = recompute_constant_args(f)
                if self.remarks and k:
                    emit_remark(n, f"{k} argument cop{'y' if k == 1 else 'ies'} replaced by the "
                                   "constant written at the call (constant_args.py)",
                                pass_name="ori-abi")
            if outgoing:
                f.attributes[ABI_OUTGOING_ATTR] = IntegerAttr(outgoing, i32)
            f.abi = resolved_attr(res)
            f.attributes[RESOLVED_ATTR] = IntegerAttr(1, i32)

    def _callee_layout(self, call: CallOp, funcs: dict[str, FuncOp],
                       resolved: dict[str, Resolved], tgt: object, limit: int,
                       ) -> tuple[list[Slot], list[Slot], int | None]:
        name = call.callee_name()
        if name is not None and name in resolved:
            r = resolved[name]
            return r.params, r.returns, r.ret_reg
        # an indirect call (or a runtime function): the prototype's convention
        # with the target's defaults
        ps = call.params.data if isinstance(call, CallIndirectOp) and call.params else None
        rs = call.returns.data if isinstance(call, CallIndirectOp) and call.returns else None
        fn = FuncOp("__prototype", [a.type for a in call.args], [r.type for r in call.res])
        req = build_request(fn, tgt, limit, self._options())
        req.params = [slot_for(a.type, ps[i] if ps else None) for i, a in enumerate(call.args)]
        req.returns = [slot_for(r.type, rs[i] if rs else None) for i, r in enumerate(call.res)]
        res = master_setup(req, quiet=True)
        return res.params, res.returns, res.ret_reg


def _unraised_limit(func: FuncOp, tgt: object, max_regs: int | None, override: bool) -> int:
    """The function's R limit before the 7016 raise (which the master setup
    reports itself)."""
    from passes.regalloc.budget import directive_limit  # lazy: as in apply

    tlim = tgt.reg_limit("R")  # type: ignore[attr-defined]
    d = directive_limit(func, tgt)
    if max_regs is not None and (d is None or override):
        return max_regs
    if d is not None:
        return min(d.limit, tlim)
    return tlim


__all__ = ["RESOLVED_ATTR", "AbiPass", "describe", "uses_convention"]
