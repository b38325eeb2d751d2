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

from collections.abc import Mapping

from xdsl.ir import Operation, SSAValue

from ori_dialect.analysis.manager import functions_of
from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp


def _is_uniform(v: SSAValue) -> bool:
    return isinstance(v.type, OriRegisterType) and v.type.REG_FILE.is_uniform


def _scan(func: FuncOp) -> tuple[bool, list[CallOp]]:
    """One walk of ``func``: whether it defines a uniform value (an op result
    or a block argument), and its calls."""
    defines = False
    calls: list[CallOp] = []
    for op in func.walk():
        if isinstance(op, CallOp):
            calls.append(op)
        if not defines:
            defines = any(_is_uniform(v) for v in op.results) or any(
                _is_uniform(a) for region in op.regions for block in region.blocks
                for a in block.args)
    return defines, calls


def module_functions(module: Operation) -> dict[str, FuncOp]:
    """The module's ``ori.func``s by name (what ``possible_callees`` takes),
    found without walking their bodies."""
    return {f.sym_name.data: f for f in functions_of(module) if isinstance(f, FuncOp)}


class UniformWriters:
    """The functions of one module that write the uniform file (module
    docstring) and the calls that may."""

    def __init__(self, funcs: Mapping[str, FuncOp]) -> None:
        self.funcs = funcs
        scans = {n: _scan(f) for n, f in funcs.items()}
        calls = {n: c for n, (_, c) in scans.items()}
        self.writers: set[str] = {n for n, (d, _) in scans.items() if d}
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


__all__ = ["UniformWriters", "module_functions"]
