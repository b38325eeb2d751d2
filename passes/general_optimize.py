"""``ori-general-optimize``: phase 13, *GeneralOptimizeEarly* (seed 001,
"Pipeline Placement": "Phase 13 GeneralOptimizeEarly -- const fold + copy
prop (feeds loop analysis)").

The seed names only the phase's purpose; the rules below are ori's, chosen
so that the code handed to the loop passes and the register allocator has
the shape ptxas gives it: kernel parameters read straight from the constant
bank by the instruction that needs them (``ISETP.GE.AND P0, PT, R4,
c[0x0][0x160], PT``, ``IMAD.WIDE R2, R4, R5, c[0x0][0x168]``, ``FFMA R7,
R2, c[0x0][0x164], R7`` in ``ptxas -arch=sm_80`` output for saxpy) instead
of being loaded into a register that stays live.

Sub-steps (each switchable; they run to a fixed point, at most
``max-iterations`` rounds per function):

* ``pack-unpack`` -- ``UNPACK(PACK(a, b))`` gives ``a, b`` back (a constant
  part becomes a ``MOV`` of it, which ``const-prop`` then folds);
  ``PACK(UNPACK(x))`` (the parts in order, same type) is ``x``.  An
  ``UNPACK`` of a 64-bit ``LDC.64 c[b][o]`` (RZ index) becomes the two
  32-bit loads ``LDC c[b][o]`` / ``LDC c[b][o+4]``.
* ``copy-prop`` -- every use of an unguarded ``MOV`` of a register whose
  result has the source's register type (same file and width) reads the
  source instead.  A guarded MOV keeps its prior value when the guard is
  false, so it is no copy and is left alone.
* ``const-prop`` -- a value defined by an unguarded ``MOV`` of an integer
  immediate or of a constant-bank word, or by an unguarded 32-bit ``LDC``
  with RZ index (``c[b][o]``), or by an unguarded ``LDC.64`` with RZ index
  (the 64-bit pair ``c[b][o]``, ``o`` a multiple of 8), is written into
  each source slot that accepts that kind of constant (the slot's ``imm`` /
  ``cbank`` flags; an integer word reaches an ``f32`` slot as the float
  with that bit pattern, NaN patterns excepted since the text form cannot
  keep their payload).  A 64-bit ``PACK`` of constants whose low word is 0
  reaches an ``f64`` slot the same way: SASS's f64 immediates keep the high
  32 bits (``DFMA R6, -R2, R4, 1``, ``DMUL R4, R4, 0.5`` in ptxas's
  division sequences), so the pair stops occupying two registers.  The width the slot reads a constant at
  (``slot_bits``, as the interpreter does) must be the value's width.
  SASS encodes at most one non-register operand among the register-capable
  slots of an instruction -- one immediate, one ``c[..][..]`` or one
  uniform register, which shares the constant-bank port (``Src``'s
  docstring) -- so a constant only goes where the instruction has none yet;
  ptxas itself materialises the 4 of ``IMAD.WIDE R2, R4, 0x4,
  c[0x0][0x168]`` in a register for that reason.  ``PACK`` is exempt: it is
  no instruction, the allocator writes each part with its own MOV.  A slot
  with ``neg``/``abs``/``not`` modifiers takes a constant-bank word (the
  modifier applies to whatever arrives) but no immediate.  Commutative ops
  (IADD3, IMAD lo/hi/wide, FADD, FMUL, FFMA, integer ISETP with the
  comparison mirrored) have their operands swapped when that moves a
  constant into the one slot that takes it.  New instructions are built
  with the op classes' ``make`` and verified; a form that does not verify
  is not used.
* ``fold`` -- an unguarded integer or predicate instruction (the
  ``ori_dialect.ops.integer`` / ``predicate`` families, float compares
  excepted) whose sources are all immediates or RZ/PT is evaluated with the
  interpreter's own semantics function (bit-exact by construction) and its
  used results become ``MOV imm`` (32-bit), ``PACK imm, imm`` (64-bit) or
  ``PLOP3.LUT PT, PT, PT, 0xff|0x0`` (predicates).
* ``wide-add`` -- the 64-bit address add the PTX importer emits after a
  ``mul.wide``: ``W = IMAD.WIDE x, b, 0``; ``lo, hi = UNPACK W``;
  ``s0, c = IADD3 lo, K0, RZ``; ``s1 = IADD3.X hi, K1, RZ, c``;
  ``PACK s0, s1`` with ``K`` a 64-bit value (``UNPACK`` of a register, or
  the constant pair ``c[b][o]``, ``c[b][o+4]``) is ``IMAD.WIDE x, b, K``
  (``a*b + c`` mod 2^64 is exactly the 64-bit add).  An immediate ``b``
  moves into a new ``MOV`` when ``K`` is a constant-bank pair (one constant
  per instruction, above).  The old ops die (``ori-dead-code``).
* ``lea`` -- the importer's ``shl.b64`` + 64-bit add: ``L = SHL x, s`` (or
  ``SHF.L x, s, xh``), ``H = SHF.L.HI x, s, xh`` with an immediate ``s`` in
  0..31, then ``IADD3 L, K0, RZ`` / ``IADD3.X H, K1, RZ, carry`` / ``PACK``,
  is ``LEA lo, c = x, K0, s`` / ``LEA.HI.X hi = x, K1, s, xh, c`` (the same
  64-bit sum ``((xh:x) << s) + (K1:K0)``; ptxas: ``LEA R8, P1, R0,
  c[0x0][0x178], 0x3`` / ``LEA.HI.X R9, R0, c[0x0][0x17c], R5, 0x3, P1``).

Input invariants: SSA ``ori.func`` bodies before register allocation
(values with unallocated register types); a value with an allocated type is
never replaced by another.  The pass removes no instruction except those it
replaces (``IMAD.WIDE`` stays for its other users); dead definitions are
left to ``ori-dead-code`` (phase 16).

``remarks=true`` prints one line per function with the counts of what
changed; ``stats=true`` prints the module total.
"""

from __future__ import annotations

import math
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, ModuleOp, f32, f64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ori_dialect.analysis import functions_of
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, Src
from ori_dialect.ir.metadata import MemEffect
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    R64Type,
    RegFile,
    UPredType,
)
from ori_dialect.ops import integer as _integer_ops
from ori_dialect.ops import predicate as _predicate_ops
from ori_dialect.ops.floating import FAddOp, FFmaOp, FMulOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaOp, MovOp, PackOp, ShfOp, ShlOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from ori_dialect.ops.predicate import ISetPOp, PLop3Op
from passes.contract import (
    CFG_ANALYSES,
    Requirement,
    emit_remark,
    emit_stats,
    flush_diagnostics,
    option,
    require,
)

_FOLD_MODULES = (_integer_ops.__name__, _predicate_ops.__name__)
_MIRROR = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne", "f": "f", "t": "t"}


def _slot_bits(op: Operation, slot: Src) -> int:
    # The interpreter's rule for the width a constant in ``slot`` stands for.
    from ori_dialect.interpreter.machine import slot_bits

    return slot_bits(op, slot)


def _is_const(v: SSAValue | Attribute) -> bool:
    return isinstance(v, IntegerAttr | FloatAttr | CBankAttr)


def _port_constants(op: OriInstruction, values: Sequence[tuple[Src, SSAValue | Attribute]]) -> int:
    """Non-register operands in register-capable slots: immediates,
    constant-bank words and uniform registers (which use the same port)."""
    n = 0
    for slot, v in values:
        if not slot.types:
            continue  # an immediate-only slot (LUT, shift, offset) has its own field
        uniform = (
            isinstance(v, SSAValue)
            and isinstance(v.type, OriRegisterType)
            and v.type.REG_FILE is RegFile.UR
        )
        if uniform or _is_const(v):
            n += 1
    return n


def _unguarded(op: OriInstruction) -> bool:
    return op.operand_groups()[1] is None


def _rebuild(
    op: OriInstruction,
    values: Sequence[SSAValue | Attribute],
    *,
    smods: dict[str, str] | None = None,
    mods: str | None = None,
) -> OriInstruction | None:
    """A copy of ``op`` with new slot values, built by ``make`` and verified;
    None when that form does not verify."""
    _, guard, prior = op.operand_groups()
    try:
        new = type(op).make(
            list(values),  # type: ignore[arg-type]
            [r.type for r in op.results],
            mods=(op.mods.data if op.mods is not None else "") if mods is None else mods,
            smods=op.smod_map() if smods is None else smods,
            guard=guard,
            guard_neg="guard_neg" in op.properties,
            prior=list(prior),
            attributes=dict(op.attributes),
        )
        new.verify()
    except VerifyException:
        return None
    return new


def _replace(op: OriInstruction, new: Operation) -> None:
    Rewriter.replace_op(op, new)


@dataclass
class FunctionStats:
    counts: Counter[str]

    def line(self) -> str:
        keys = ("copies", "constants", "pack-unpack", "ldc64-split", "folded", "wide-add", "lea")
        return " ".join(f"[{k}={self.counts[k]}]" for k in keys)


@dataclass(frozen=True)
class GeneralOptimizePass(ModulePass):
    """Constant folding and copy propagation (module docstring)."""

    name = "ori-general-optimize"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # Instructions are replaced one by one, never a terminator's successors:
    # the CFG, dominators and loops stay valid (liveness does not).
    PRESERVES: ClassVar[frozenset[type]] = CFG_ANALYSES

    copy_prop: bool = option(
        True, "ori: propagate unguarded same-type MOV copies into their uses (module docstring)"
    )
    const_prop: bool = option(
        True,
        "ori: write MOV/LDC/PACK constants into the source slots that take an immediate or a "
        "c[bank][offset] operand, at most one constant per instruction",
    )
    pack_unpack: bool = option(
        True,
        "ori: cancel UNPACK(PACK(..)) and PACK(UNPACK(..)); split an UNPACKed LDC.64 c[b][o] "
        "into two 32-bit LDCs",
    )
    fold: bool = option(
        True,
        "ori: evaluate integer/predicate instructions whose sources are all constants with the "
        "interpreter's semantics (bit-exact) into MOV/PACK/PLOP3 constants",
    )
    wide_add: bool = option(
        True,
        "ori: IMAD.WIDE followed by a 64-bit add of K becomes IMAD.WIDE x, b, K "
        "(ptxas's address form)",
    )
    lea: bool = option(
        True, "ori: a 64-bit shift-left by 0..31 plus a 64-bit add becomes LEA / LEA.HI.X"
    )
    commute: bool = option(
        True, "ori: swap commutative operands to bring a constant into the slot that takes it"
    )
    max_iterations: int = option(
        16, "ori: rounds of all sub-steps per function before stopping (>= 1)"
    )
    remarks: bool = option(
        False, "ori: print one line per function with the counts of each rewrite to stderr"
    )
    stats: bool = option(False, "ori: print the module's total counts to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        if self.max_iterations < 1:
            raise PassFailedException(
                f"ori-general-optimize: max-iterations must be >= 1, got {self.max_iterations}"
            )
        total: Counter[str] = Counter()
        for func in functions_of(op):
            st = self.run_function(func)
            total.update(st.counts)
            if self.remarks:
                emit_remark(func.sym_name.data, f"general-optimize {st.line()}")  # type: ignore[attr-defined]
        if self.stats:
            emit_stats(self.name, FunctionStats(total).line())
        if self.remarks or self.stats:
            flush_diagnostics()

    # ------------------------------------------------------------------
    def run_function(self, func: Operation) -> FunctionStats:
        st = FunctionStats(Counter())
        for _ in range(self.max_iterations):
            changed = False
            ops = [o for o in func.walk() if isinstance(o, OriInstruction)]
            for o in ops:
                if o.parent is None:
                    continue  # replaced earlier in this round
                if self.pack_unpack and isinstance(o, UnpackOp):
                    changed |= self._unpack(o, st)
                elif self.pack_unpack and isinstance(o, PackOp):
                    changed |= self._pack(o, st)
                if o.parent is None:
                    continue
                if self.copy_prop and isinstance(o, MovOp):
                    changed |= self._copy(o, st)
                if o.parent is None:
                    continue
                if self.fold:
                    changed |= self._fold(o, st)
                if o.parent is None:
                    continue
                if self.wide_add and isinstance(o, PackOp):
                    changed |= self._wide_add(o, st)
                if o.parent is None:
                    continue
                if self.lea and isinstance(o, PackOp):
                    changed |= self._lea(o, st)
            if self.const_prop:
                for o in [o for o in func.walk() if isinstance(o, MovOp | LdcOp | PackOp)]:
                    if o.parent is not None:
                        changed |= self._propagate(o, st)
            if not changed:
                break
        return st

    # ---- pack / unpack ---------------------------------------------------
    def _unpack(self, op: UnpackOp, st: FunctionStats) -> bool:
        if not _unguarded(op):
            return False
        a = op.src_reg("a")
        if a is None:
            return False
        d = a.owner
        if isinstance(d, PackOp) and _unguarded(d) and not d.smod_map():
            parts = [v for _, v in d.slot_values()]
            if len(parts) != len(op.results):
                return False
            news: list[Operation] = []
            repl: list[SSAValue] = []
            for r, p in zip(op.results, parts):
                if isinstance(p, SSAValue):
                    if p.type != r.type:
                        return False
                    repl.append(p)
                elif isinstance(p, IntegerAttr | CBankAttr) and isinstance(r.type, R32Type):
                    m = MovOp.make([p], [r.type])
                    news.append(m)
                    repl.append(m.results[0])
                else:
                    return False
            if news:
                Rewriter.insert_op(news, _before(op))
            for r, v in zip(op.results, repl):
                r.replace_all_uses_with(v)
            op.detach()
            op.erase()
            st.counts["pack-unpack"] += 1
            return True
        if (
            isinstance(d, LdcOp)
            and _unguarded(d)
            and d.mod("width") == "b64"
            and _rz_index(d)
            and len(op.results) == 2
            and all(isinstance(r.type, R32Type) for r in op.results)
        ):
            bank, off = d.src_int("bank"), d.offset()
            assert bank is not None
            lo = LdcOp.make([bank, R32Type.fixed(), off], [R32Type.unallocated()],
                            attributes=dict(d.attributes))
            hi = LdcOp.make([bank, R32Type.fixed(), off + 4], [R32Type.unallocated()],
                            attributes=dict(d.attributes))
            try:
                lo.verify()
                hi.verify()
            except VerifyException:
                return False
            Rewriter.insert_op([lo, hi], _before(op))
            op.results[0].replace_all_uses_with(lo.results[0])
            op.results[1].replace_all_uses_with(hi.results[0])
            op.detach()
            op.erase()
            st.counts["ldc64-split"] += 1
            return True
        return False

    def _pack(self, op: PackOp, st: FunctionStats) -> bool:
        if not _unguarded(op) or op.smod_map():
            return False
        parts = [v for _, v in op.slot_values()]
        if not parts or not all(isinstance(p, SSAValue) for p in parts):
            return False
        u = parts[0].owner  # type: ignore[union-attr]
        if not isinstance(u, UnpackOp) or not _unguarded(u):
            return False
        if list(u.results) != parts:
            return False
        x = u.src_reg("a")
        if x is None or x.type != op.results[0].type:
            return False
        op.results[0].replace_all_uses_with(x)
        op.detach()
        op.erase()
        st.counts["pack-unpack"] += 1
        return True

    # ---- copy propagation ---------------------------------------------------
    def _copy(self, op: MovOp, st: FunctionStats) -> bool:
        if not _unguarded(op) or op.smod_map():
            return False
        a = op.src_reg("a")
        d = op.results[0]
        if a is None or a.type != d.type or not d.uses:
            return False
        if isinstance(d.type, OriRegisterType) and d.type.phys_index is not None:
            return False  # allocated registers: a copy there is a real move
        d.replace_all_uses_with(a)
        st.counts["copies"] += 1
        return True

    # ---- constant propagation --------------------------------------------
    def _constant_of(self, op: MovOp | LdcOp | PackOp) -> tuple[Attribute, int] | None:
        """The constant ``op`` defines and its width in bits, if any."""
        if not _unguarded(op) or op.smod_map():
            return None
        if isinstance(op, PackOp):
            # A 64-bit constant whose low word is 0: the form an f64 immediate
            # slot encodes (SASS keeps the high 32 bits: ``DFMA R6, -R2, R4, 1``).
            k = _known(op.results[0])
            if k is None or int(k) & 0xFFFFFFFF:
                return None
            v = int(k)
            return IntegerAttr(v - (1 << 64) if v >> 63 else v, 64), 64
        if isinstance(op, MovOp):
            a = op.src("a")
            if isinstance(a, IntegerAttr | CBankAttr) and isinstance(op.results[0].type, R32Type):
                return a, 32
            return None
        if not _rz_index(op):
            return None
        bank = op.src_int("bank")
        if bank is None:
            return None
        w = op.mod("width")
        if w == "b32":
            return CBankAttr(bank, op.offset()), 32
        if w == "b64" and op.offset() % 8 == 0:
            return CBankAttr(bank, op.offset()), 64
        return None

    def _propagate(self, op: MovOp | LdcOp | PackOp, st: FunctionStats) -> bool:
        c = self._constant_of(op)
        if c is None:
            return False
        const, bits = c
        d = op.results[0]
        changed = False
        for use in list(d.uses):
            user = use.operation
            if not isinstance(user, OriInstruction) or user.parent is None:
                continue
            srcs = user.operand_groups()[0]
            if use.index >= len(srcs):
                continue  # guard or tied prior value: must stay a register
            new = self._substitute(user, d, const, bits)
            if new is not None:
                _replace(user, new)
                st.counts["constants"] += 1
                changed = True
        return changed

    def _substitute(
        self, op: OriInstruction, value: SSAValue, const: Attribute, bits: int
    ) -> OriInstruction | None:
        """``op`` with one source slot that reads ``value`` turned into ``const``."""
        vals = op.slot_values()
        smods = op.smod_map()
        candidates: list[tuple[list[tuple[Src, SSAValue | Attribute]], dict[str, str], str | None]]
        candidates = [(vals, smods, None)]
        if self.commute:
            candidates += _commuted(op, vals, smods)
        for cvals, csmods, cmods in candidates:
            for i, (slot, v) in enumerate(cvals):
                if v is not value:
                    continue
                k = _const_for_slot(op, slot, const, bits, csmods.get(slot.name))
                if k is None:
                    continue
                trial = _zero_to_rz(list(cvals), i)
                trial[i] = (slot, k)
                if not isinstance(op, PackOp) and _port_constants(op, trial) > 1:
                    continue
                new = _rebuild(op, [v for _, v in trial], smods=csmods, mods=cmods)
                if new is None:
                    continue
                # The interpreter must read the constant at the value's width.
                if _slot_bits(new, slot) != bits:
                    continue
                return new
        return None

    # ---- folding ------------------------------------------------------------
    def _fold(self, op: OriInstruction, st: FunctionStats) -> bool:
        cls = type(op)
        if (
            cls.__module__ not in _FOLD_MODULES
            or isinstance(op, MovOp | PackOp | UnpackOp)
            or not _unguarded(op)
            or cls.MEM is not MemEffect.NONE
            or cls.SIDE_EFFECTS
            or not op.results
            or not any(r.uses for r in op.results)
        ):
            return False
        if len(op.results) == 1 and _known(op.results[0]) is not None:
            return False  # already the constant form (PLOP3 PT, PT, PT, 0xff)
        vals = op.slot_values()
        if not vals:
            return False
        smods = op.smod_map()
        srcs: list[Any] = []
        for slot, v in vals:
            if slot.imm in ("f32", "f64"):
                return False  # float compares: not folded
            x = _known(v) if isinstance(v, SSAValue) else _materialise(op, slot, v)
            if x is None:
                return False
            if isinstance(x, np.bool_) and "not" in smods.get(slot.name, "").split("."):
                x = np.bool_(not x)  # the interpreter applies a predicate's 'not' before the call
            srcs.append(x)
        for r in op.results:
            if r.uses and not isinstance(r.type, R32Type | R64Type | PredType):
                return False
        from ori_dialect.interpreter.semantics.registry import compile_op

        try:
            fn = compile_op(op)
            with np.errstate(all="ignore"):
                out = fn(srcs, 1)
        except Exception:  # noqa: BLE001 -- no semantics or an evaluation error: leave the op
            return False
        news: list[Operation] = []
        repl: list[tuple[SSAValue, SSAValue]] = []
        for r, res in zip(op.results, out):
            if not r.uses:
                continue
            x = np.asarray(res).reshape(-1)[0]
            if isinstance(r.type, PredType):
                pt = PredType.fixed()
                new: Operation = PLop3Op.make([pt, pt, pt, 0xFF if bool(x) else 0x00], [r.type])
            elif isinstance(r.type, R32Type):
                new = MovOp.make([int(x) & 0xFFFFFFFF], [r.type])
            else:
                w = int(x) & 0xFFFFFFFFFFFFFFFF
                new = PackOp.make([w & 0xFFFFFFFF, w >> 32], [r.type])
            new.verify()
            news.append(new)
            repl.append((r, new.results[0]))
        Rewriter.insert_op(news, _before(op))
        for r, v in repl:
            r.replace_all_uses_with(v)
        st.counts["folded"] += 1
        return True

    # ---- IMAD.WIDE + 64-bit add ----------------------------------------------
    def _wide_add(self, pack: PackOp, st: FunctionStats) -> bool:
        if not _unguarded(pack) or pack.smod_map():
            return False
        parts = [v for _, v in pack.slot_values()]
        if len(parts) != 2 or not all(isinstance(p, SSAValue) for p in parts):
            return False
        s0, s1 = parts
        lo_add, hi_add = s0.owner, s1.owner  # type: ignore[union-attr]
        if not (isinstance(lo_add, IAdd3Op) and isinstance(hi_add, IAdd3Op)):
            return False
        if s0.index != 0 or s1.index != 0:  # type: ignore[union-attr]
            return False
        if not (_unguarded(lo_add) and _unguarded(hi_add)) or lo_add.smod_map() or hi_add.smod_map():
            return False
        if lo_add.has_mod("x") or not hi_add.has_mod("x"):
            return False
        lv = {s.name: v for s, v in lo_add.slot_values()}
        hv = {s.name: v for s, v in hi_add.slot_values()}
        if set(lv) != {"a", "b", "c"} or set(hv) != {"a", "b", "c", "ci0"}:
            return False
        rz = R32Type.fixed()
        if lv["c"] != rz or hv["c"] != rz:
            return False
        co = lo_add.dst("co0")
        if co is None or hv["ci0"] is not co:
            return False
        co1 = lo_add.dst("co1")
        if co1 is not None and co1.uses:
            return False
        if len(hi_add.results) != 1:
            return False
        # One operand of each add is a half of W = IMAD.WIDE x, b, 0.
        for wl, kl in ((lv["a"], lv["b"]), (lv["b"], lv["a"])):
            for wh, kh in ((hv["a"], hv["b"]), (hv["b"], hv["a"])):
                if not (isinstance(wl, SSAValue) and isinstance(wh, SSAValue)):
                    continue
                u = wl.owner
                if not isinstance(u, UnpackOp) or wh.owner is not u or not _unguarded(u):
                    continue
                if wl.index != 0 or wh.index != 1 or len(u.results) != 2:  # type: ignore[union-attr]
                    continue
                w = u.src_reg("a")
                if w is None or not isinstance(w.owner, IMadOp):
                    continue
                imad = w.owner
                if not _unguarded(imad) or imad.mod("mode") != "wide" or imad.smod_map():
                    continue
                if len(imad.results) != 1:
                    continue
                c = imad.src("c")
                if not ((isinstance(c, IntegerAttr) and c.value.data == 0) or c == R64Type.fixed()):
                    continue
                k = _wide_addend(kl, kh)
                if k is None:
                    continue
                new = self._build_wide(imad, k, pack)
                if new is not None:
                    st.counts["wide-add"] += 1
                    return True
        return False

    def _build_wide(self, imad: IMadOp, k: SSAValue | CBankAttr, pack: PackOp) -> bool:
        x = imad.src("a")
        b = imad.src("b")
        assert x is not None and b is not None
        pre: list[Operation] = []
        if isinstance(k, CBankAttr) and _is_const(b):
            if not isinstance(b, IntegerAttr):
                return False  # a constant-bank b cannot move into a register here
            m = MovOp.make([b], [R32Type.unallocated()])
            pre.append(m)
            b = m.results[0]
        vals = [x, b, k]
        if _port_constants(imad, list(zip(imad.SRCS, vals))) > 1:
            return False
        try:
            new = IMadOp.make(
                vals,  # type: ignore[arg-type]
                [pack.results[0].type],
                mods=imad.mods.data if imad.mods is not None else "",
                attributes=dict(pack.attributes) or dict(imad.attributes),
            )
            new.verify()
        except VerifyException:
            return False
        if isinstance(k, CBankAttr) and _slot_bits(new, IMadOp.SRCS[2]) != 64:
            return False
        Rewriter.insert_op([*pre, new], _before(pack))
        pack.results[0].replace_all_uses_with(new.results[0])
        pack.detach()
        pack.erase()
        return True


    # ---- shifted 64-bit add as LEA / LEA.HI.X ---------------------------------
    def _lea(self, pack: PackOp, st: FunctionStats) -> bool:
        """``PACK(IADD3 L, Klo, RZ; IADD3.X H, Khi, RZ, carry)`` where ``L``/``H``
        are the low/high words of ``(xh:x) << s`` (``SHL x, s`` or ``SHF.L x, s,
        xh``; ``SHF.L.HI x, s, xh``; ``s`` an immediate 0..31) becomes ``LEA lo,
        c = x, Klo, s`` and ``LEA.HI.X hi = x, Khi, s, xh, c``: the same 64-bit
        sum ``((xh:x) << s) + (Khi:Klo)`` (ptxas: ``LEA R8, P1, R0,
        c[0x0][0x178], 0x3`` / ``LEA.HI.X R9, R0, c[0x0][0x17c], R5, 0x3, P1``)."""
        adds = _add64_halves(pack)
        if adds is None:
            return False
        lo_add, hi_add, lo_w, k_lo, hi_w, k_hi = adds
        low = _shift_word(lo_w, hi=False)
        high = _shift_word(hi_w, hi=True)
        if low is None or high is None:
            return False
        x, s, xh = high
        if low[0] is not x or low[1] != s or (low[2] is not None and low[2] is not xh):
            return False
        try:
            lo = LeaOp.make([x, k_lo, s], [R32Type.unallocated(), PredType.unallocated()],
                            attributes=dict(lo_add.attributes))
            hi = LeaOp.make([x, k_hi, s, xh, lo.results[1]], [R32Type.unallocated()], mods="hi.x",
                            attributes=dict(hi_add.attributes))
            lo.verify()
            hi.verify()
        except VerifyException:
            return False
        for new, old in ((lo, lo_add), (hi, hi_add)):
            if _port_constants(new, new.slot_values()) > 1:
                return False
            _ = old
        Rewriter.insert_op(lo, _before(lo_add))
        Rewriter.insert_op(hi, _before(hi_add))
        lo_add.results[0].replace_all_uses_with(lo.results[0])
        hi_add.results[0].replace_all_uses_with(hi.results[0])
        st.counts["lea"] += 1
        return True


# ----------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------
def _before(op: Operation) -> Any:
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _rz_index(op: LdcOp) -> bool:
    return op.src("addr") == R32Type.fixed()


def _add64_halves(
    pack: PackOp,
) -> tuple[IAdd3Op, IAdd3Op, SSAValue, SSAValue | Attribute, SSAValue, SSAValue | Attribute] | None:
    """For ``PACK(s0, s1)`` with ``s0, c = IADD3 w0, k0, RZ`` and ``s1 = IADD3.X
    w1, k1, RZ, c`` (unguarded, no modifiers, the carry used only there):
    (low add, high add, w0, k0, w1, k1).  ``w0``/``w1`` are registers; the
    IADD3 operands may be in either order."""
    if not _unguarded(pack) or pack.smod_map():
        return None
    parts = [v for _, v in pack.slot_values()]
    if len(parts) != 2 or not all(isinstance(p, SSAValue) for p in parts):
        return None
    lo_add, hi_add = parts[0].owner, parts[1].owner  # type: ignore[union-attr]
    if not (isinstance(lo_add, IAdd3Op) and isinstance(hi_add, IAdd3Op)):
        return None
    if parts[0] is not lo_add.results[0] or parts[1] is not hi_add.results[0]:
        return None
    if not (_unguarded(lo_add) and _unguarded(hi_add)) or lo_add.smod_map() or hi_add.smod_map():
        return None
    if lo_add.has_mod("x") or not hi_add.has_mod("x") or len(hi_add.results) != 1:
        return None
    lv = {s.name: v for s, v in lo_add.slot_values()}
    hv = {s.name: v for s, v in hi_add.slot_values()}
    rz = R32Type.fixed()
    if set(lv) != {"a", "b", "c"} or set(hv) != {"a", "b", "c", "ci0"}:
        return None
    if lv["c"] != rz or hv["c"] != rz:
        return None
    co = lo_add.dst("co0")
    if co is None or hv["ci0"] is not co or sum(1 for _ in co.uses) != 1:
        return None
    co1 = lo_add.dst("co1")
    if co1 is not None and co1.uses:
        return None
    w0, k0 = (lv["a"], lv["b"])
    w1, k1 = (hv["a"], hv["b"])
    if not isinstance(w0, SSAValue) or not isinstance(w1, SSAValue):
        return None
    return lo_add, hi_add, w0, k0, w1, k1


def _shift_word(v: SSAValue, *, hi: bool) -> tuple[SSAValue, int, SSAValue | None] | None:
    """(x, s, xh) when ``v`` is the low (``hi=False``: ``SHL x, s`` or
    ``SHF.L x, s, xh``) or high (``SHF.L.HI x, s, xh``) word of ``(xh:x) << s``
    for an immediate ``s`` in 0..31 (both type widths agree there)."""
    d = v.owner
    if not isinstance(d, OriInstruction) or not _unguarded(d) or d.smod_map():
        return None
    if isinstance(d, ShlOp) and not hi:
        x, s = d.src("a"), d.src_int("b")
        if isinstance(x, SSAValue) and s is not None and 0 <= s <= 31:
            return x, s, None
        return None
    if isinstance(d, ShfOp) and d.mod("dir") == "l" and d.has_mod("hi") == hi:
        x, s, xh = d.src("lo"), d.src_int("shift"), d.src("hi")
        if isinstance(x, SSAValue) and isinstance(xh, SSAValue) and s is not None and 0 <= s <= 31:
            return x, s, xh
    return None


def _wide_addend(kl: SSAValue | Attribute, kh: SSAValue | Attribute) -> SSAValue | CBankAttr | None:
    """The 64-bit value whose halves are ``kl`` (low) and ``kh`` (high)."""
    if isinstance(kl, CBankAttr) and isinstance(kh, CBankAttr):
        if kl.bank.data == kh.bank.data and kh.offset.data == kl.offset.data + 4 and kl.offset.data % 8 == 0:
            return kl
        return None
    if isinstance(kl, SSAValue) and isinstance(kh, SSAValue):
        u = kl.owner
        if (
            isinstance(u, UnpackOp)
            and kh.owner is u
            and _unguarded(u)
            and len(u.results) == 2
            and kl.index == 0  # type: ignore[union-attr]
            and kh.index == 1  # type: ignore[union-attr]
        ):
            v = u.src_reg("a")
            if v is not None and isinstance(v.type, R64Type):
                return v
    return None


def _zero_to_rz(
    vals: list[tuple[Src, SSAValue | Attribute]], keep: int
) -> list[tuple[Src, SSAValue | Attribute]]:
    """``vals`` with the immediate 0 of every 32-bit slot that takes RZ (but
    slot ``keep``) written as RZ: the same value, without using the one
    constant port (ptxas: ``ISETP.LE.AND P0, PT, RZ, c[0x0][0x170], PT``)."""
    out = list(vals)
    rz = R32Type.fixed()
    for j, (slot, v) in enumerate(out):
        if (
            j != keep
            and isinstance(v, IntegerAttr)
            and v.value.data == 0
            and slot.fixed
            and slot.types
            and all(t is R32Type for t in slot.types)
        ):
            out[j] = (slot, rz)
    return out


def _const_for_slot(
    op: OriInstruction, slot: Src, const: Attribute, bits: int, smod: str | None
) -> Attribute | None:
    """``const`` in the form ``slot`` takes, or None if it takes none."""
    if isinstance(const, CBankAttr):
        return const if slot.cbank else None
    if smod:
        return None  # -imm / |imm| would need the modifier folded into the value
    assert isinstance(const, IntegerAttr)
    if bits == 64:
        if slot.imm != "f64":
            return None
        d = struct.unpack("<d", struct.pack("<Q", const.value.data & (2**64 - 1)))[0]
        return None if math.isnan(d) else FloatAttr(d, f64)
    assert bits == 32
    if slot.imm == "int":
        return const
    if slot.imm == "f32":
        raw = const.value.data & 0xFFFFFFFF
        f = struct.unpack("<f", struct.pack("<I", raw))[0]
        if math.isnan(f):
            return None
        return FloatAttr(f, f32)
    return None


def _commuted(
    op: OriInstruction,
    vals: list[tuple[Src, SSAValue | Attribute]],
    smods: dict[str, str],
) -> list[tuple[list[tuple[Src, SSAValue | Attribute]], dict[str, str], str | None]]:
    """Operand orders equivalent to ``op``'s: (slot values, source modifiers, modifiers)."""
    names = [s.name for s, _ in vals]
    slots = {s.name: s for s, _ in vals}
    vmap = {s.name: v for s, v in vals}

    def swap(x: str, y: str, mods: str | None = None):
        if x not in vmap or y not in vmap:
            return None
        nv = dict(vmap)
        nv[x], nv[y] = vmap[y], vmap[x]
        ns = {k: v for k, v in smods.items() if k not in (x, y)}
        if x in smods:
            ns[y] = smods[x]
        if y in smods:
            ns[x] = smods[y]
        return ([(slots[n], nv[n]) for n in names], ns, mods)

    out = []
    if isinstance(op, IAdd3Op):
        out += [swap("a", "b"), swap("b", "c")]
    elif (isinstance(op, IMadOp) and not op.has_mod("x")) or isinstance(op, FAddOp | FMulOp | FFmaOp):
        out.append(swap("a", "b"))
    elif isinstance(op, ISetPOp) and not op.has_mod("ex"):
        cmp = op.mod("cmp")
        if cmp in _MIRROR and op.mods is not None:
            toks = [(_MIRROR[t] if t == cmp else t) for t in op.mods.data.split(".")]
            out.append(swap("a", "b", ".".join(toks)))
    return [c for c in out if c is not None]


def _materialise(op: OriInstruction, slot: Src, v: Attribute) -> Any:
    """A constant operand as the interpreter hands it to a semantics function
    (before a predicate's ``not``); None for one not known here (c[..][..])."""
    if isinstance(v, OriRegisterType):
        if isinstance(v, PredType | UPredType):
            return np.True_
        return np.uint64(0) if v.BITS == 64 else np.uint32(0)
    if not isinstance(v, IntegerAttr):
        return None
    x = v.value.data
    return np.uint64(x & 0xFFFFFFFFFFFFFFFF) if _slot_bits(op, slot) == 64 else np.uint32(x & 0xFFFFFFFF)


def _word(x: SSAValue | Attribute) -> int | None:
    """A PACK part's value: an immediate, or RZ (0)."""
    if isinstance(x, IntegerAttr):
        return x.value.data & 0xFFFFFFFF
    if x == R32Type.fixed():  # a fixed register operand is its type attribute
        return 0
    return None


def _known(v: SSAValue) -> Any:
    """The value of a register defined by a constant-producing op (``MOV imm``,
    ``PACK imm, imm``, ``PLOP3 PT, PT, PT, 0xff|0x0``), as the interpreter
    represents it; None otherwise."""
    d = v.owner
    if not isinstance(d, OriInstruction) or not _unguarded(d) or d.smod_map():
        return None
    vals = [x for _, x in d.slot_values()]
    if isinstance(d, MovOp) and isinstance(v.type, R32Type) and isinstance(vals[0], IntegerAttr):
        return np.uint32(vals[0].value.data & 0xFFFFFFFF)
    if isinstance(d, PackOp) and isinstance(v.type, R64Type) and len(vals) == 2:
        words = [_word(x) for x in vals]
        if words[0] is not None and words[1] is not None:
            return np.uint64(words[0] | (words[1] << 32))
    if isinstance(d, PLop3Op) and len(d.results) == 1 and isinstance(v.type, PredType):
        pt = PredType.fixed()
        if vals[:3] == [pt, pt, pt] and isinstance(vals[3], IntegerAttr):
            return np.bool_(vals[3].value.data & 0x80)  # row (1,1,1) of the table
    return None


__all__ = ["GeneralOptimizePass"]
_ = Float32Type
