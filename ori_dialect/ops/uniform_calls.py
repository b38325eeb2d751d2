"""Which calls leave the uniform registers (UR/UP) alone.

ptxas keeps a uniform value across a call to a subroutine that does not
touch the uniform file: CUB's histogram sweeps hold the divisor's high word
in ``UR5`` across every ``CALL.REL.NOINC`` to its 64-bit division
subroutine.  A call to a function ori cannot see (a CUDA runtime function,
an indirect call with no candidate in the module) may write any of them.

A module function *writes the uniform file* when its body defines a value
in a uniform register (an op result or a block argument) or it makes a call
that may; recursion that never defines one does not (the set is the least
fixed point from the direct writers).  ``ori-uniform`` moves a value live
across a call to the uniform datapath only where the call leaves the file
alone (passes/uniform/select.py), and the allocation checker rejects a
uniform register live across one that may not (passes/regalloc/abi.py's
``check_abi``).  Device functions get no uniform values from ``ori-uniform``
(they may run with part of a warp), so in practice only a callee written
with UR values by hand, or a call ori cannot follow, blocks the move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from xdsl.ir import Operation

from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp


def _defines_uniform(func: FuncOp) -> bool:
    for op in func.walk():
        for v in op.results:
            if isinstance(v.type, OriRegisterType) and v.type.REG_FILE.is_uniform:
                return True
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    if isinstance(a.type, OriRegisterType) and a.type.REG_FILE.is_uniform:
                        return True
    return False


def module_functions(module: Operation) -> dict[str, FuncOp]:
    """The module's ``ori.func``s by name (what ``possible_callees`` takes)."""
    return {f.sym_name.data: f for f in module.walk() if isinstance(f, FuncOp)}


class UniformWriters:
    """The functions of one module that write the uniform file (module
    docstring) and the calls that may."""

    def __init__(self, funcs: Mapping[str, FuncOp]) -> None:
        self.funcs = funcs
        calls = {n: [o for o in f.walk() if isinstance(o, CallOp)] for n, f in funcs.items()}
        self.writers: set[str] = {n for n, f in funcs.items() if _defines_uniform(f)}
        self.writers |= {n for n, cs in calls.items()
                         if any(not c.possible_callees(funcs) for c in cs)}
        changed = True
        while changed:
            changed = False
            for n, cs in calls.items():
                if n not in self.writers and any(
                        k in self.writers for c in cs for k in c.possible_callees(funcs)):
                    self.writers.add(n)
                    changed = True

    def may_write(self, call: CallOp) -> bool:
        """``call`` may overwrite a UR or UP register: it reaches a writer, or
        a function outside the module's ``ori.func``s."""
        names = call.possible_callees(self.funcs)
        return not names or any(n in self.writers for n in names)

    def writing_calls(self, ops: Iterable[Operation]) -> list[CallOp]:
        return [o for o in ops if isinstance(o, CallOp) and self.may_write(o)]


__all__ = ["UniformWriters", "module_functions"]
