"""``ori-stats``: per-function figures in the wording of ``ptxas -v``
(issue 6 part 5), printed to stderr so that one parser reads both::

    ptxas info    : Compiling entry function 'k' for 'sm_80'
    ptxas info    : Function properties for k
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 12 registers, used 1 barriers, 64 bytes smem, 360 bytes cmem[0]
    ori info      : Occupancy for k: 48 warps per SM (75%) at 12 registers

The ``ptxas info`` lines follow ptxas 13.0.88 (checked against ``ptxas -v`` on
the example PTX and the kernels below):

* **kernels**: ``Compiling entry function 'K' for 'sm_XX'``, ``Function
  properties for K``, the frame line (4 spaces, ``F bytes stack frame, S
  bytes spill stores, L bytes spill loads``), then ``Used N registers, used B
  barriers`` followed, in this order and only when they apply, by ``, C bytes
  cumulative stack size`` (C > 0: printed for a kernel whose stack frame or
  callees' frames are not empty, spilling kernels included), ``, M bytes
  smem`` (M > 0) and ``, P bytes cmem[0]`` (sm_75..sm_89 only -- ptxas 13.0
  prints no cmem for sm_90, sm_100, sm_120 -- P = the parameter area's start,
  0x160 = 352, + the parameter bytes: 352 for no parameters, 360 for one
  ``.u64``, 404 for ``calls.ptx``'s six ``.u64`` + one ``.u32``);
* **device functions** that stay functions: ptxas prints only ``Function
  properties for F`` and the frame line -- no ``Compiling`` line and no
  ``Used`` line (whole-program and ``-c`` alike); ori adds its own
  ``ori info      : Function F uses N registers`` line instead.

Figures come from the attributes ``ori-regalloc`` records (``ori.num_regs``,
``ori.stack_frame``, ``ori.spill_stores``, ``ori.spill_loads``; for input that
came allocated, which the pass only checks, the count is taken from the
registers and the other figures are 0 unless recorded) and from
``ori.shared_bytes`` (PTX import: the module's static shared layout, which is
every static ``.shared`` variable of the module -- ptxas counts only those the
kernel uses, so ori's smem can be larger on a module with several kernels).
Cumulative stack size: ori lays frames out statically (a caller's slots above
its callees', ``passes/regalloc/spill.py``), so it is the largest frame top in
the kernel's call tree.

**Barriers**: ptxas prints the highest barrier id used + 1, not the number of
distinct ids (``bar.sync 3`` alone: ``used 4 barriers``; ``bar.sync 5; bar.sync
2``: 6; ``bar.arrive 1, 64``: 2; ``bar.sync 0`` twice: 1), and 16 when an id
is in a register (``bar.sync %r1``).

**Register count** (``Used N registers``), found by experiment with
``ptxas -arch=sm_XX -v`` and ``cuobjdump -sass`` (13.0.88; 12.9.86 for
sm_50..sm_70, whose SASS cuobjdump 13 no longer disassembles);
``benchmarks/ptxas_register_count.py`` re-runs the 13.0 part:

* N = highest R register in the SASS + 1 + 2 on sm_70 and later; pair and
  quad halves count (``LDG.E.64 R4`` uses R5).  Kernels that keep k loaded
  values live (``ld.volatile`` then a chain of ``mul``/``xor``), sm_80:
  k = 1, 5, 20, 39 -> highest R5, R7, R22, R41 -> ``Used 8, 10, 25, 44``;
  64-bit values (2..11 live): highest R9..R27 -> 12..30; one 64-bit value:
  the text's highest is ``LDG.E.64 R4`` and ptxas says 8, so R5 counts;
  identical on sm_75, 86, 89, 90, 100 and 120.  No rounding (9, 11, 13, ...
  all occur).
* The smallest kernel (``ret;``: ``MOV R1, c[0x0][0x28]; EXIT``) reports 4 on
  sm_70+ and 2 on sm_50/sm_60 (12.9): R1, the stack pointer ptxas always
  loads, counts even if nothing uses it, so the floor is 2 (+2 from sm_70).
* The 2 extra registers are part of the budget: with ``--maxrregcount 32``
  the highest register is R29 and ptxas reports 32 (and R21/24 at 24, R22/25
  at 25, R25/28 at 28), so a budget of N leaves R0..R(N-3) (ori reserves the
  two, ``passes/regalloc/budget.py``); without a limit, 300 live values
  spill and the highest register is R252 -> ``Used 255 registers``.
* Uniform registers (UR) are not counted: every kernel above uses UR4/UR5
  (``ULDC.64 UR4, c[0x0][0x118]``) and the count follows R alone.
* Kernels with calls follow the same rule: ``calls.ptx``'s kernel (highest R15,
  ``CALL``s kept) reports 18 on sm_80.  (With ``-c``, external calls, ptxas
  reports at least 24 -- the ABI minimum -- a case ori, which sees the whole
  module, does not have.)
* sm_50/sm_60 (12.9): same kernels report 4, 9, 24 for k = 1, 5, 20 -- no
  extra 2 (not checked against SASS).

The occupancy line is ori's own: warps per SM from the target's register
file for that register count (``targets.occupancy.warps_per_sm``); with
``ori-regalloc{occupancy-budget=true}`` an ``Occupancy budget`` line gives
the register count the budget model aimed at and what was reached.  A
function that has not been allocated is a diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis.manager import PRESERVES_ALL
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.sync import BarOp
from passes.contract import Requirement, emit_line, option, require
from passes.regalloc.budget import (
    OCCUPANCY_TARGET_ATTR,
    function_target,
    low_reserved,
    register_count,
)
from targets.occupancy import warps_per_sm


def _int(func: FuncOp, name: str) -> int | None:
    a = func.attributes.get(name)
    return a.value.data if isinstance(a, IntegerAttr) else None


def _count_allocated(func: FuncOp, tgt: object) -> int | None:
    """The register count of an input that came allocated (ori-regalloc only
    checks those and records nothing): None unless every value has a register."""
    top = -1
    for op in func.walk():
        vals = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]
        for v in vals:
            t = v.type
            if isinstance(t, OriRegisterType):
                if t.phys_index is None:
                    return None
                if t.REG_FILE is RegFile.R and not t.is_fixed:
                    top = max(top, t.phys_range().stop - 1)
    return register_count(tgt, top, low_reserved(func))


def _barriers(func: FuncOp) -> int:
    """ptxas's count: the highest barrier id + 1; 16 when an id is a register."""
    top = 0
    for op in func.walk():
        if isinstance(op, BarOp):
            bid = op.src_int("id")
            top = max(top, 16 if bid is None else bid + 1)
    return top


def _abi_saved(func: FuncOp) -> str:
    """The preserved registers (and return address) an ABI-lowered device
    function saves, as ``R16-R17, R20-R21``; empty when none."""
    from ori_dialect.ir.abi import AbiAttr, regset_text  # lazy: ABI functions only

    if not isinstance(func.abi, AbiAttr):
        return ""
    saved = func.abi.fields().saved
    return regset_text(saved)[1:-1] if saved else ""


def _cumulative_stack(func: FuncOp, seen: frozenset[str] = frozenset()) -> int:
    """The largest frame top in ``func``'s call tree (ori's static layout)."""
    name = func.sym_name.data
    top = _int(func, "ori.stack_frame") or 0
    mod = func.parent_op()
    if not isinstance(mod, ModuleOp) or name in seen:
        return top
    funcs = {f.sym_name.data: f for f in mod.body.ops if isinstance(f, FuncOp)}
    for op in func.walk():
        if isinstance(op, CallOp):
            for callee in op.possible_callees(funcs):
                top = max(top, _cumulative_stack(funcs[callee], seen | {name}))
    return top


def _cmem0(func: FuncOp, tgt: object) -> int | None:
    """``cmem[0]`` as ptxas 13.0 prints it (sm_75..sm_89 only): the parameter
    area's start + the parameter bytes."""
    if getattr(tgt, "sm", 0) >= 90:
        return None
    layout = getattr(tgt, "cbank0", None)
    if layout is None:
        return None
    end = 0
    if func.params is not None:
        for p in func.params.data:
            end = max(end, p.offset.data + p.size.data)
    return layout.params + end


class NotAllocatedForStats(PassFailedException):
    """Counted as 'not applicable' by the fuzz runner (ori_dialect.testing.fuzz)."""

    not_applicable = True


def function_stats(func: FuncOp, target: str | None = None) -> list[str]:
    name = func.sym_name.data
    tgt = function_target(func, target)
    regs = _int(func, "ori.num_regs")
    if regs is None:
        regs = _count_allocated(func, tgt)
    if regs is None:
        raise NotAllocatedForStats(
            f"ori-stats: @{name} has not been register-allocated (run ori-regalloc first)"
        )
    frame = (
        f"    {_int(func, 'ori.stack_frame') or 0} bytes stack frame, "
        f"{_int(func, 'ori.spill_stores') or 0} bytes spill stores, "
        f"{_int(func, 'ori.spill_loads') or 0} bytes spill loads"
    )
    if not func.is_kernel:
        # ptxas prints no Compiling/Used lines for a device function
        lines = [
            f"ptxas info    : Function properties for {name}",
            frame,
            f"ori info      : Function {name} uses {regs} registers",
        ]
        saved = _abi_saved(func)
        if saved:
            # the callee saves ori-abi's convention asks for (seed 003), in
            # the frame and spill figures above as ptxas -v counts them
            # (regalloc/callee_saves.py; a recursive function's in its frame
            # below R1, regalloc/frame.py)
            lines.append(f"ori info      : Function {name} must save {saved} (callee saves: "
                         "in the figures above; STL in the prologue, LDL before each RET)")
        return lines
    used = f"ptxas info    : Used {regs} registers, used {_barriers(func)} barriers"
    cum = _cumulative_stack(func)
    if cum:
        used += f", {cum} bytes cumulative stack size"
    smem = _int(func, "ori.shared_bytes") or 0
    if smem:
        used += f", {smem} bytes smem"
    cmem = _cmem0(func, tgt)
    if cmem is not None:
        used += f", {cmem} bytes cmem[0]"
    lines = [
        f"ptxas info    : Compiling entry function '{name}' for '{tgt.name}'",  # type: ignore[attr-defined]
        f"ptxas info    : Function properties for {name}",
        frame,
        used,
    ]
    try:
        mx = tgt.max_warps_per_sm  # type: ignore[attr-defined]
        w = warps_per_sm(tgt, regs)  # type: ignore[arg-type]
        lines.append(
            f"ori info      : Occupancy for {name}: {w} warps per SM "
            f"({100 * w // mx}%) at {regs} registers"
        )
        aim = _int(func, OCCUPANCY_TARGET_ATTR)
        if aim is not None:
            wa = warps_per_sm(tgt, aim)  # type: ignore[arg-type]
            lines.append(
                f"ori info      : Occupancy budget for {name}: aimed at {wa} warps per SM "
                f"({100 * wa // mx}%) with {aim} registers, reached {w} warps per SM "
                f"({100 * w // mx}%) with {regs} registers"
            )
    except Exception as e:  # noqa: BLE001 -- the occupancy line is informative only
        lines.append(f"ori info      : Occupancy for {name}: unavailable ({e})")
    return lines


def print_stats(module: ModuleOp, stream: IO[str] | None = None, target: str | None = None) -> None:
    """The figures of every function, to ``stream`` or (None) to stderr."""
    for op in module.walk():
        if isinstance(op, FuncOp):
            for line in function_stats(op, target):
                if stream is None:
                    emit_line(line)
                else:
                    print(line, file=stream)


@dataclass(frozen=True)
class StatsPass(ModulePass):
    """Print ``ptxas -v``-style figures per function to stderr."""

    name = "ori-stats"
    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.ALLOCATED})
    # NotAllocatedForStats (per function, its own message) is what users and
    # the fuzz runner see for unallocated input
    SELF_CHECKED: ClassVar[frozenset[Requirement]] = frozenset({Requirement.ALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = PRESERVES_ALL

    target: str | None = option(
        None, "ori: SM target of the figures (sm_80, sm_90a, ...); unset = the module's "
        "ori.target, else sm_80")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        print_stats(op, target=self.target)


__all__ = ["StatsPass", "function_stats", "print_stats"]
