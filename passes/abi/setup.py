"""The master ABI setup and its diagnostics (seed 003 "Master ABI Setup:
sub_19D1AF0", "Return Address Validator", "Complete Warning Catalog",
"Validation Order").

The steps run in the seed's validation order: 7016 (register count below
the ABI minimum), 7017 (reservation), the return-address setup (7006,
7012), the parameter allocation (7013, 7014 and the allocator's failure),
7015, the return-address validation (7001-7005, 7008, 7009) and the
coroutine SUSPEND check (7011).  7010 is checked where ori can see its
condition: a function that makes calls whose explicit ``scratch`` set has no
aligned R pair for a return address.  7020 (``allowConvAlloc``) and 7801
(reserved shared memory, the gb10b workaround) cannot arise: ori has no
``allowConvAlloc`` annotation, no ``__nv_reservedSMEM`` variable and no
gb10b target.

**Severity.**  The seed calls every code a warning.  Where ptxas can go on
(7016 raises the limit, 7017 shrinks the reservation, 7012/7013 reclassify
the register, 7011 and 7010) ori warns (``ori-abi: @f: warning 70NN:
...``) and goes on; where the specification cannot be realised (a return
address that is odd, too high, on the stack pointer, on a parameter, out of
range, in a file the SM lacks, both fixed and explicit, a reserved range on
the parameters or the return address, a return value with no registers)
ori stops with one diagnostic ``@f: error 70NN: ...`` and exit status 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.utils.exceptions import PassFailedException

from ori_dialect.ir.abi import RegSet, Slot
from ori_dialect.ir.registers import RegFile
from passes.abi.params import allocate_class, new_free_list, slot_registers, stack_bytes
from passes.abi.spec import ABI_RESERVED, STACK_POINTER, Request
from passes.contract import emit_line

CATALOG: dict[int, str] = {
    7001: "ABI return address %d is unaligned",
    7002: "Return Address (%d) should be less than %d",
    7003: "Return address (%d) should not overlap with the stack pointer (%d)",
    7004: "Return Address %d overlaps with parameters in range %d - %d",
    7005: "With specified parameters, return address is %d registers and exceeds specified "
          "max reg (%d)",
    7006: "ABI allows either specifying return address or return address before params",
    7008: "Return address (%d) should be between %d and %d",
    7009: "SM does not support uniform registers for return address",
    7010: "Relative 32-bit return address requires a caller-save 64-bit scratch register pair",
    7011: "Register (%s%d)is defined as scratch on SUSPEND but preserved for coroutine function",
    7012: "%d register should not be classified as scratch",
    7013: "%d register used to return value cannot be classified as preserved",
    7014: "Reserved register range %d - %d overlaps with parameters in range %d - %d",
    7015: "Reserved register range %d - %d overlaps with retAddr %d",
    7016: "regcount %d specified below abi_minimum of %d",
    7017: "register available %d for reservation is less than the requested number of "
          "registers %d ",
}
"""Seed 003's "Complete Warning Catalog", texts verbatim (7007 and 7018 are
unused in ptxas 13.0; 7017's trailing space is the seed's)."""
SIZE_ERROR = "Function %s size requires more registers(%d) than available(%d)"
"""The parameter allocator's failure (sub_19CA730)."""


@dataclass
class Resolved:
    """The outcome of the master setup for one function."""

    req: Request
    max_reg: int
    ret_reg: int | None
    ret_file: RegFile
    params: list[Slot]
    returns: list[Slot]
    preserved: RegSet
    scratch: RegSet
    reserved_extra: frozenset[int]
    warnings: list[str] = field(default_factory=list)

    @property
    def stack_param_bytes(self) -> int:
        return stack_bytes(self.params)


class Setup:
    def __init__(self, req: Request, quiet: bool) -> None:
        self.req = req
        self.quiet = quiet
        self.warnings: list[str] = []

    def warn(self, code: int, *args: object) -> None:
        text = CATALOG[code] % args
        self.warnings.append(f"warning {code}: {text}")
        if not self.quiet:
            emit_line(f"ori-abi: @{self.req.name}: warning {code}: {text}")

    def note(self, text: str) -> None:
        """What ori does not model, said whether or not remarks are on."""
        if not self.quiet:
            emit_line(f"ori-abi: @{self.req.name}: remark: {text}")

    def error(self, code: int, *args: object) -> PassFailedException:
        return PassFailedException(f"@{self.req.name}: error {code}: {CATALOG[code] % args}")


def master_setup(req: Request, *, quiet: bool = False) -> Resolved:
    """Run the seed's steps for ``req`` (module docstring)."""
    s = Setup(req, quiet)
    max_reg = req.max_reg
    # 1. register count vs. the generation's minimum (7016): the limit rises
    if req.min_regs is not None and max_reg < req.min_regs:
        s.warn(7016, max_reg, req.min_regs)
        max_reg = req.min_regs
    # 2. reservation: registers from the reserved range's start to the limit
    extra: frozenset[int] = frozenset()
    if req.reserved is not None:
        lo, hi = req.reserved
        extra = frozenset(range(lo, hi + 1))
        if req.reserve is not None:
            avail = max(max_reg - lo, 0)
            if avail < req.reserve:
                s.warn(7017, avail, req.reserve)
    # 3. return-address setup (sub_19D1720)
    ret_reg, ret_file = req.ret_reg, req.ret_file
    if req.ret_mode == 1 and (req.ret_reg is not None):
        raise s.error(7006)
    if req.ret_mode == 1:  # fixed: first parameter register + 2
        ret_reg, ret_file = req.first_param + 2, RegFile.R
    preserved = {f: set(v) for f, v in req.preserved.items()}
    scratch = {f: set(v) for f, v in req.scratch.items()}
    if ret_reg is not None and ret_file is RegFile.R and req.explicit_scratch:
        hit = [r for r in (ret_reg, ret_reg + 1) if r in scratch.get(RegFile.R, ())]
        if hit:
            s.warn(7012, ret_reg)
            scratch[RegFile.R] -= {ret_reg, ret_reg + 1}
    # 4. parameter allocation (sub_19CA730): R0-R3, the stack pointer and a
    # fixed return address are taken; a reserved range and a regular return
    # address are not -- the seed checks them against the parameters
    # afterwards (7014 here, 7004 in the validator)
    taken = set(ABI_RESERVED) | {STACK_POINTER}
    if ret_reg is not None and req.ret_mode == 1:
        taken |= {ret_reg, ret_reg + 1}
    base, avail = req.first_param, req.available
    params, _ = allocate_class(req.params, new_free_list(base, taken), base, avail,
                               to_stack=True)
    returns, failed = allocate_class(req.returns, new_free_list(base, taken), base, avail,
                                     to_stack=False)
    if failed:
        need = sum(req.returns[i].num_regs for i in failed)
        raise PassFailedException(f"@{req.name}: " + SIZE_ERROR % (req.name, need, avail))
    for r in sorted(set(slot_registers(returns)) & preserved.get(RegFile.R, set())):
        s.warn(7013, r)
        preserved[RegFile.R].discard(r)
    pregs = slot_registers(params)
    if req.reserved is not None and pregs:
        lo, hi = req.reserved
        if any(lo <= r <= hi for r in pregs):
            raise s.error(7014, lo, hi, min(pregs), max(pregs))
    # 5. reserved range vs. return address (sub_19C69D0)
    if req.reserved is not None and ret_reg is not None and ret_file is RegFile.R:
        lo, hi = req.reserved
        if lo <= ret_reg <= hi or lo <= ret_reg + 1 <= hi:
            raise s.error(7015, lo, hi, ret_reg)
    # 6. return-address validation (sub_19CDFF0), by mode
    if req.ret_mode == 2:
        assert ret_reg is not None  # the target's default was filled in
        if ret_reg >= max_reg:
            raise s.error(7002, ret_reg, max_reg)
        if ret_reg & 1:
            raise s.error(7001, ret_reg)
        if ret_reg <= STACK_POINTER <= ret_reg + 1:
            raise s.error(7003, ret_reg, STACK_POINTER)
        if ret_reg in pregs or ret_reg + 1 in pregs:
            raise s.error(7004, ret_reg, min(pregs), max(pregs))
    elif req.ret_mode == 3:
        if not req.uniform_ok:
            raise s.error(7009)
        ret_file = RegFile.UR
        if ret_reg is None:
            ret_reg = 0
        hi = req.ur_limit - 2
        if not 0 <= ret_reg <= hi:
            raise s.error(7008, ret_reg, 0, hi)
        if ret_reg & 1:
            raise s.error(7001, ret_reg)
    elif req.ret_mode == 5:
        # computed from the parameter layout, rounded up to an even register
        end = max(pregs, default=base - 1) + 1
        auto = end + (end & 1)
        if ret_reg is not None and not base <= ret_reg <= max_reg - 2:
            raise s.error(7008, ret_reg, base, max_reg - 2)
        ret_reg = auto if ret_reg is None else ret_reg
        if ret_reg & 1:
            raise s.error(7001, ret_reg)
        if ret_reg + 2 > max_reg:
            raise s.error(7005, ret_reg, max_reg)
    elif req.ret_mode == 1:
        assert ret_reg is not None
        if ret_reg + 2 > max_reg:
            raise s.error(7005, ret_reg, max_reg)
    # 7010: a caller needs a scratch pair for the relative call's address
    if req.makes_calls and req.explicit_scratch:
        sc = scratch.get(RegFile.R, set())
        if not any(r % 2 == 0 and r + 1 in sc for r in sc):
            s.warn(7010)
    # 7. coroutine SUSPEND (not lowered: see the package docstring)
    if req.coroutine:
        s.note("coroutine SUSPEND/RESUME lowering and the coroutine frame are not modelled "
               "(only the 7011 classification check runs)")
    if req.ret_mode == 3:
        s.note("the uniform return address is validated but not modelled: calls are lowered "
               "with the regular R-pair convention")
    if req.coroutine and req.suspend_scratch is not None:
        for f, regs in req.suspend_scratch.items():
            for r in sorted(regs & preserved.get(f, set())):
                s.warn(7011, f.value, r)
    # the return address is neither preserved nor scratch for the allocator
    if ret_reg is not None and ret_file is RegFile.R:
        for st in (preserved, scratch):
            st.get(RegFile.R, set()).difference_update({ret_reg, ret_reg + 1})
    return Resolved(req, max_reg, ret_reg, ret_file, params, returns,
                    {f: frozenset(v) for f, v in preserved.items() if v},
                    {f: frozenset(v) for f, v in scratch.items() if v}, extra, s.warnings)


__all__ = ["CATALOG", "SIZE_ERROR", "Resolved", "master_setup"]
