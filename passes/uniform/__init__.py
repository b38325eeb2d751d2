"""``ori-uniform``: warp-uniform values onto the uniform datapath (UR/UP
registers, ``UIADD3``/``ULDC``/``S2UR`` ...; issue 19 item 1).

Seed 000 ("Pre-Allocation and Mem-to-Reg") names the step that does this in
ptxas, *ConvertMemoryToRegisterOrUniform*, and the uniform register classes
(UR, UR ext) the allocator then fills; ptxas 13.0's SASS shows what it
yields (``ULDC.64``, ``S2UR UR4, SR_CTAID.X``, ``UIADD3 UR4, UR4, 0x1,
URZ``, GPR instructions reading ``UR4`` where they take ``c[][]``).  The
seeds give no algorithm; ori's is:

1. :class:`~ori_dialect.analysis.uniformity.Uniformity` finds the blocks a
   warp runs together and the values equal in all its threads there
   (kernels only: a device function may be entered by part of a warp).
2. :mod:`.select` picks the uniform ops with a uniform version (their
   own uniform form; ``MOV c[][]``, which becomes the ``ULDC``; SHL/SHR
   through their USHF substitute; IMAD.HI as UIMAD.WIDE's high word;
   PACK/UNPACK of UR parts), closed under their sources, whose other uses
   read a UR for free (the constant port of a GPR instruction, LOP3's
   sources swapped to put it there), not live across a call that may write the
   uniform file (:mod:`ori_dialect.ops.uniform_calls`), adding a ``ULDC`` only
   outside loops for a value live into a deeper loop; ``max-copies`` lets
   any value cost that many ``MOV r, ur`` copies (0 by default).
3. **Copies where they pay** (:mod:`.pressure`, ``hot-copies`` /
   ``hot-slack``): a value live where the R file is fullest may cost up
   to ``hot-copies`` copies, the candidates it is computed from and the
   block arguments it is joined with (a loop-carried value, its update and
   its value after the loop) too; the
   wider plan is taken only when it lowers the function's largest R count
   before allocation, computed exactly for the plan (chosen values leave
   the R file, each copy joins it right before its reader), and, with
   ``hot-goal=occupancy`` (the default), only when the register count it
   leads to can reach more resident warps (whole blocks of the kernel's
   ``.reqntid``/``.maxntid`` where it states them): below a kernel's
   occupancy step a register costs nothing and a copy costs an
   instruction -- unless each copy buys ``hot-trade`` registers or more
   (ptxas keeps philox_rand's key schedule uniform at four copies: 16 R
   registers where the R file alone needs 29), or one register for each
   copy placed outside every loop, which runs once per thread (ptxas keeps
   dhorner's loop counter in a UR: 12 registers where ori had 13); where
   the hot set's plans miss that trade, the plan of one hot value that
   makes it (argmax_rows' output parameter pointer: two copies, 12 -> 10
   registers, ptxas 11).  A hot
   64-bit value may take one copy outside loops, two ``MOV``s (ptxas's
   ``IMAD.U32 R2, RZ, RZ, UR4 ; IMAD.U32 R3, RZ, RZ, UR5`` before
   argmax_rows' store), when that lowers the count further than leaving it
   in the R file.  A kernel that calls is
   judged by the count alone (as
   ``hot-goal=registers``): its values live across calls avoid the
   callees' registers, which puts the allocation an unknown distance above
   the live count.  "Fullest" is
   widened one register at a time, up to ``hot-slack`` below the largest
   count, while each step still lowers it.  ptxas makes the same trade
   (``IMAD.U32 R7, RZ, RZ, UR5`` copies next to the IMADs reading a
   uniform ``blockDim * 4``); the rule is ori's.
4. :mod:`.rewrite` retypes them, loads their ``c[][]`` operands with
   ``ULDC`` and reorders GPR users' commutative operands.

The allocator then gives UR/UP registers (``ori-regalloc``'s UR and UP
classes), which neither count towards the R figures of ``-v`` nor the
occupancy, as in ptxas.  The interpreter checks the result: a uniform op
must run with its warp converged and write the same value in every thread
(ori_dialect/interpreter/uniform_check.py).

**Placement** in ``ori-ptxas``: with ``ori-mem-to-reg`` (the same ptxas
step), right after it and before ``ori-abi``.

**Visible**: ``remarks=true`` prints per kernel what moved (by uniform
mnemonic), the ``ULDC`` and copies added, whether copies of the values
where the R file is fullest were taken (and the count they reach) and why
uniform values stayed in the R file; ``stats=true`` the module's totals
(``hot``: kernels that took such copies).  A target without uniform
registers (before sm_75) and device functions get a remark and are left
alone.

Input invariants: SSA bodies with virtual registers (before allocation).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.analysis.uniformity import Uniformity
from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.uniform_calls import UniformWriters, module_functions
from passes.contract import Requirement, emit_remark, emit_stats, flush_diagnostics, option, require
from passes.regalloc.budget import function_target, hidden_regs
from passes.uniform.pressure import Point, hot_values, r_points, r_pressure_with
from passes.uniform.rewrite import apply_plan
from passes.uniform.select import Plan, Selector, copy_sites
from targets.occupancy import kernel_warps


@dataclass(frozen=True)
class UniformPass(ModulePass):
    """Uniform values of kernels into UR/UP registers (module docstring)."""

    name = "ori-uniform"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset(
        {Requirement.SSA, Requirement.UNALLOCATED})
    PRESERVES: ClassVar[frozenset[type]] = frozenset()

    max_copies: int = option(
        0, "uses per value that may read it through a MOV from the uniform register "
        "(0: only values every GPR user reads through its constant port)")
    hot_copies: int = option(
        8, "ori: uses per value that may read it through a MOV when the value is live "
        "where the R file is fullest (passes/uniform/pressure.py)")
    hot_slack: int = option(
        6, "ori: a value is 'live where the R file is fullest' at points holding at least "
        "the function's largest R count minus this")
    hot_goal: str = option(
        "occupancy", "ori: when hot copies are taken: 'occupancy' (only when the estimated "
        "register count reaches more resident warps; copies cost instructions; a kernel "
        "that calls is judged as by 'registers') or 'registers' (whenever the largest R "
        "count drops)")
    hot_trade: int = option(
        3, "ori: with hot-goal=occupancy, copies that reach no more resident warps are "
        "still taken when they lower the largest R count by at least this many registers "
        "per copy (0: never)")
    target: str = option("", "SM target (default: the module's)")
    remarks: bool = option(
        False, "ori: print per kernel what moved to the uniform datapath and why values stayed")
    stats: bool = option(False, "ori: print the module's counts to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(op)

    def run(self, op: ModuleOp) -> dict[str, int]:
        """Apply the pass; returns the kernels whose copies of hot values
        were not taken because the count they reach keeps the same resident
        warps (name -> that count): ``ori-ptxas``'s occupancy retune
        compiles them again with the copies, where ``ori-remat-block`` may
        then reach a step the estimate here does not see
        (passes/occupancy_retune.py, "Uniform copies")."""
        require(self, op)
        for name, v in (("max-copies", self.max_copies), ("hot-copies", self.hot_copies),
                        ("hot-slack", self.hot_slack), ("hot-trade", self.hot_trade)):
            if v < 0:
                raise PassFailedException(f"ori-uniform: {name} must be 0 or more, got {v}")
        if self.hot_goal not in HOT_GOALS:
            raise PassFailedException(
                f"ori-uniform: hot-goal must be one of {', '.join(HOT_GOALS)}, "
                f"got '{self.hot_goal}'")
        totals: Counter[str] = Counter()
        # device functions get no uniform values here, so one view of the
        # callees serves every kernel
        writers = UniformWriters(module_functions(op))
        declined: dict[str, int] = {}
        for func in functions_of(op):
            assert isinstance(func, FuncOp)
            self.run_function(func, totals, writers, declined)
        if self.stats:
            keys = ("values", "ops", "args", "uldc", "copies", "swapped", "rematerialized", "kept",
                    "hot")
            emit_stats(self.name, " ".join(f"[{k}={totals[k]}]" for k in keys))
        if self.remarks or self.stats:
            flush_diagnostics()
        return declined

    def _remark(self, func: FuncOp, text: str) -> None:
        if self.remarks:
            emit_remark(func.sym_name.data, text, pass_name=self.name)

    def run_function(self, func: FuncOp, totals: Counter[str],
                     writers: UniformWriters | None = None,
                     declined: dict[str, int] | None = None) -> None:
        if not func.is_kernel:
            self._remark(func, "device function left alone: it may be called with part "
                               "of a warp, so nothing in it is known to be warp-uniform")
            return
        target = function_target(func, self.target or None)
        if not getattr(target, "has_uniform_registers", False):
            self._remark(func, f"left alone: {getattr(target, 'name', target)} has no "
                               "uniform registers")
            return
        cfg = CFG.compute(func)
        uni = Uniformity(func, cfg)
        loops = LoopInfo(cfg, DominatorTree(cfg))
        sel = Selector(uni, loops.depths(), max_copies=self.max_copies,
                       hot_copies=self.hot_copies, writers=writers)
        plan = sel.run()
        if self.hot_copies > self.max_copies:
            plan = self._with_hot_copies(func, target, sel, plan, totals, declined)
        kept = sum(plan.dropped.values())
        totals["kept"] += kept
        if not plan.ops and not plan.args:
            self._remark(func, "nothing moved to the uniform datapath" + _why(plan.dropped))
            return
        counts, touched = apply_plan(plan)
        for t in touched:  # the retyped ops and their rewritten users, not the whole body
            if t.parent is not None:
                t.verify()
        remat = counts["rematerialized"]
        nvals = sum(len(o.results) for o in plan.ops) + len(plan.args) - remat
        totals["values"] += nvals
        totals["ops"] += len(plan.ops) - remat
        totals["args"] += len(plan.args)
        for k in ("uldc", "copies", "swapped", "rematerialized"):
            totals[k] += counts[k]
        mnemonics = sorted((k.removeprefix("op:"), n) for k, n in counts.items()
                           if k.startswith("op:") and n)
        text = "nothing moved to the uniform datapath"
        if nvals:
            text = (f"{nvals} value(s) to the uniform datapath: "
                    + ", ".join(f"{m} x{n}" for m, n in mnemonics)
                    + (f", {len(plan.args)} block argument(s)" if plan.args else "")
                    + f"; {counts['uldc']} ULDC added, {counts['copies']} copies")
        if remat:
            text += (f"; {remat} immediate(s) rematerialized next to their readers "
                     f"({counts['immediate_movs']} MOV)")
        self._remark(func, text + _why(plan.dropped))

    def _with_hot_copies(self, func: FuncOp, target: object, sel: Selector, plan: Plan,
                         totals: Counter[str], declined: dict[str, int] | None = None) -> Plan:
        """``plan`` widened by copies of the values live where the R file is
        fullest (passes/uniform/pressure.py), when that lowers the
        function's largest R count (``hot-goal=registers``) or the register
        count reaches more resident warps (``occupancy``, the default:
        below a kernel's occupancy step a register is free and a copy is
        not); else ``plan`` unchanged.  "Fullest" is first the largest
        count exactly, then each count below it down to ``hot-slack`` below
        (a wider hot set also frees the next-fullest points), while each
        step still lowers the count; the narrowest plan reaching the best
        score is taken."""
        live = sel.liveness_of_function()
        goal = self.hot_goal
        if goal == "occupancy" and any(isinstance(o, CallOp) for b in sel.cfg.blocks
                                       for o in b.ops):
            # a value live across a call avoids the registers its callees
            # write, so the allocation lands further above the live count
            # than warps_score's 1 to 4 (CUB's histogram sweeps: 50 live,
            # 60 allocated): the estimate cannot place an occupancy step,
            # and copies are taken wherever they lower the count
            goal = "registers"
        if goal == "occupancy":
            now = RegisterPressure(live).max.get(RegFile.R, 0)
            threads = func.launch_threads()
            if (warps_score(target, now, threads) >= warps_score(target, 0, threads)
                    and not self.hot_trade):
                self._remark(func, f"copies not tried: {now} live R registers already allow "
                                   "the most resident warps")
                return plan
        points = r_points(live)
        tried: list[tuple[Plan, int]] = []
        last = plan.chosen_values()
        last_hot: set[SSAValue] = set()
        for slack in range(self.hot_slack + 1):
            hot = hot_values(points, live, slack)
            if hot == last_hot:
                continue  # no point between this count and the last one's
            last_hot = hot
            wide, r = self._best_of(sel, hot, points, live)
            chosen = wide.chosen_values()
            if chosen == last:
                continue
            last = chosen
            if not tried:
                tried.append((plan, r_pressure_with(points, live, plan)))
            if r >= tried[-1][1]:
                break
            tried.append((wide, r))
        if len(tried) < 2:
            if tried:
                self._remark(func, "copies of values live where the R file is fullest would "
                                   f"not lower its largest R count ({tried[0][1]}): not taken")
            return plan
        base_r = tried[0][1]
        why = ""
        if goal == "registers":
            best, best_r = tried[-1]
            if goal != self.hot_goal:
                why = " (the kernel calls: judged by the count, not by resident warps)"
        else:
            scores = [warps_score(target, r, func.launch_threads()) for _, r in tried]
            k = scores.index(max(scores))
            if k == 0:
                k = self._traded(sel, tried)
            if k == 0:
                one = self._one_value(sel, points, live, tried)
                if one is not None:
                    tried.append(one)
                    scores.append(scores[0])
                    k = len(tried) - 1
            best, best_r = tried[k]
            if k == 0:
                self._remark(func, "copies of values live where the R file is fullest would "
                                   f"lower its largest R count from {base_r} to {tried[-1][1]} "
                                   "without more resident warps: not taken")
                if declined is not None:
                    declined[func.sym_name.data] = tried[-1][1]
                return plan
            if scores[k] == scores[0]:
                regs, copies = base_r - best_r, _copies(best) - _copies(tried[0][0])
                why = (f" (no more resident warps, but {_count(regs, 'register')} for "
                       f"{_count(copies, 'copy', 'copies')})")
        totals["hot"] += 1
        self._remark(func, "copies of values live where the R file is fullest lower its "
                           f"largest R count from {base_r} to {best_r}{why}")
        return best

    @staticmethod
    def _best_of(sel: Selector, hot: set[SSAValue], points: list[Point],
                 live: Liveness) -> tuple[Plan, int]:
        """The plan for ``hot`` and its largest R count: the one whose hot
        64-bit values take copies (two MOVs each, outside loops), unless
        leaving them in the R file reaches the same count with fewer
        copies (a pointer read right after it is formed frees nothing)."""
        plan = sel.run(hot)
        r = r_pressure_with(points, live, plan)
        if not any(isinstance(v.type, OriRegisterType) and v.type.BITS > 32
                   for v in plan.chosen_values()):
            return plan, r
        narrow = sel.run(hot, wide=False)
        nr = r_pressure_with(points, live, narrow)
        if nr < r or (nr == r and _copies(narrow) < _copies(plan)):
            return narrow, nr
        return plan, r

    def _traded(self, sel: Selector, tried: list[tuple[Plan, int]]) -> int:
        """The plan of ``tried`` (index; 0: none) whose copies buy registers
        at ``hot-trade`` or more each, the lowest count among them: at the
        same resident warps a copy costs an instruction and a register
        nothing, but ptxas keeps a kernel's uniform values uniform at a few
        copies (philox_rand's key schedule: 16 uniform words, four ``MOV
        r, ur``; 29 R registers in the R file, 16 in ptxas's).  A copy
        outside every loop runs once per thread: it need buy only one
        register (dhorner's loop counter in a UR, its first value copied
        once for the ``IMAD.WIDE`` that forms the loop's pointer: 13 -> 12
        registers, ptxas's count)."""
        if not self.hot_trade:
            return 0
        base_plan, base_r = tried[0]
        base_loop, base_once = self._copy_cost(sel, base_plan)
        for k in range(len(tried) - 1, 0, -1):
            plan, r = tried[k]
            in_loop, once = self._copy_cost(sel, plan)
            need = (self.hot_trade * max(in_loop - base_loop, 0)
                    + max(once - base_once, 0))
            if base_r - r >= max(need, 1):
                return k
        return 0

    def _one_value(self, sel: Selector, points: list[Point], live: Liveness,
                   tried: list[tuple[Plan, int]]) -> tuple[Plan, int] | None:
        """Where no plan of ``tried`` makes the trade of :meth:`_traded`:
        the plan copying one value live where the R file is fullest (with
        what it is computed from) that does, the lowest count first, then
        the fewest copies; None if none does.  The hot set's plans move
        every hot value and pay for each one's copies, while one value may
        carry the gain alone: argmax_rows (Triton) keeps its output
        parameter pointer as a UR for two copies outside loops, 9 -> 7
        live R registers, where the whole set's plan reached 7 for six
        (ptxas: the output address in UR4:UR5, 11 registers; ori 12
        before, now 10)."""
        if not self.hot_trade:
            return None
        base_plan, base_r = tried[0]
        base_loop, base_once = self._copy_cost(sel, base_plan)
        movable = {r for op in sel.run().ops for r in op.results}
        order = {op: i for i, op in enumerate(o for b in sel.cfg.blocks for o in b.ops)}
        hot = [v for v in hot_values(points, live, 0) if v.owner in order]
        best: tuple[tuple[int, int, int], Plan, int] | None = None
        for v in sorted(hot, key=lambda v: order[v.owner]):  # type: ignore[index]
            if v in movable:
                continue  # already uniform without copies
            for wide in (True, False):
                plan = sel.run({v}, wide=wide)
                r = r_pressure_with(points, live, plan)
                in_loop, once = self._copy_cost(sel, plan)
                need = (self.hot_trade * max(in_loop - base_loop, 0)
                        + max(once - base_once, 0))
                if base_r - r < max(need, 1):
                    continue
                key = (r, _copies(plan), order[v.owner])  # type: ignore[index]
                if best is None or key < best[0]:
                    best = (key, plan, r)
        return None if best is None else (best[1], best[2])

    @staticmethod
    def _copy_cost(sel: Selector, plan: Plan) -> tuple[int, int]:
        """``plan``'s ``MOV r, ur`` copies inside loops and outside them."""
        in_loop = once = 0
        for user, n in copy_sites(plan).items():
            if sel.depth(user.parent_block()) > 0:
                in_loop += n
            else:
                once += n
        return in_loop, once


HOT_GOALS = ("occupancy", "registers")


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _copies(plan: Plan) -> int:
    """The ``MOV r, ur`` copies carrying out ``plan`` adds."""
    return sum(copy_sites(plan).values())


def warps_score(target: object, max_live: int, threads: int | None = None) -> int:
    """Resident warps per SM summed over the register counts an allocation
    of ``max_live`` R values may end at (ptxas's hidden registers plus 1 to
    4 more: ori's allocations land 3 to 6 above the largest live count), so
    a plan scores higher only where it can cross an occupancy step;
    ``threads``: the kernel's launch bounds (whole blocks fit an SM), else
    the per-warp view."""
    base = max_live + hidden_regs(target)
    return sum(kernel_warps(target, base + m, threads)  # type: ignore[arg-type]
               for m in range(1, 5))


def _why(dropped: Counter[str]) -> str:
    if not dropped:
        return ""
    return "; kept in the R/P files: " + ", ".join(
        f"{n} ({why})" for why, n in sorted(dropped.items(), key=lambda kv: (-kv[1], kv[0])))


__all__ = ["UniformPass"]
