"""Lowering of one PTX function (``.entry`` or ``.func``) to an ``ori.func``.

Steps (the "MercConverter" step of ptxas, re-done):

1. Walk the body with a scope stack: ``.reg`` declarations (ranges
   ``%r<100>`` included) become :class:`Var` objects, unique per declaration,
   so a name re-declared in a nested ``{ }`` scope is a different variable;
   ``.param`` declarations in call scopes become word-addressed parameter
   buffers; ``.local``/``.shared`` arrays get frame/window offsets.
2. Split the statements into basic blocks at labels and after branches,
   ``ret`` and ``exit``; a guarded ``ret``/``exit`` ends its block with a
   conditional branch to a synthetic return block.  Unreachable blocks are
   dropped.  A ``.pragma "nounroll"`` becomes an ``ori.pragma`` at the start
   of the block it stands in (nvcc places it in the loop header).
3. Fill the blocks in reverse post-order, lowering each instruction through
   :data:`~ori_dialect.ptx.lower.handlers.LOWERINGS`; register reads and
   writes go through :class:`~ori_dialect.ptx.lower.ssa.SSABuilder`.
4. Delete dead phis and create the terminators with their edge arguments.

Guards: a guarded PTX instruction whose lowering is one op carries the guard
on that op (with the destination's previous value as the tied ``prior``
operand).  When the lowering needs several pure ops, they run unguarded
(they cannot fault) and each destination is then defined by a guarded
``ori.mov`` (``ori.plop3`` for predicates), so the value is unchanged when
the guard fails.  Ops with memory effects always carry the guard themselves.
"""

from __future__ import annotations

import functools
import os
import struct
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue

from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.instruction import OriInstruction, create_op
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    R64Type,
    R128Type,
)
from ori_dialect.ops.control import BraOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import MovOp, PackOp, UnpackOp
from ori_dialect.ops.predicate import PLop3Op
from ori_dialect.ops.special import UndefOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.handlers import LOWERINGS
from ori_dialect.ptx.lower.ssa import Edge, SSABuilder
from ori_dialect.ptx.lower.types import is_signed, reg_class, type_bits
from ori_dialect.ptx.parser import PtxSyntaxError

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.module import ModuleLowering

RZ = R32Type.fixed()
PT = PredType.fixed()
_DIGITS = "0123456789"

SPECIAL_PREFIXES = ("%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid",
                    "%smid", "%nsmid", "%clock", "%clock64", "%globaltimer", "%lanemask_",
                    "%dynamic_smem_size", "%total_smem_size", "%envreg", "%gridid", "%pm")


@dataclass(eq=False)
class Var:
    """A PTX register (one declaration); ``type`` is its PTX type."""

    name: str
    type: str

    def __repr__(self) -> str:
        return f"Var({self.name}: .{self.type})"


@dataclass(eq=False)
class ParamBuffer:
    """A ``.param`` object: the kernel's (read from constant bank 0 at
    ``cbank_offset``) or a word-addressed buffer of 32-bit variables (device
    function parameters and return values, call-site arguments)."""

    name: str
    size: int
    align: int
    cbank_offset: int | None = None
    words: list[Var] = field(default_factory=list)

    def word(self, i: int) -> Var:
        while len(self.words) <= i:
            self.words.append(Var(f"{self.name}+{4 * len(self.words)}", "b32"))
        return self.words[i]


@dataclass(eq=False)
class Scope:
    parent: Scope | None
    vars: dict[str, Var] = field(default_factory=dict)
    ranges: dict[str, tuple[str, int, dict[int, Var]]] = field(default_factory=dict)
    params: dict[str, ParamBuffer] = field(default_factory=dict)
    # Register names already resolved from this scope (FunctionLowering.lookup):
    # every declaration is collected before the first lookup, so a hit stays valid.
    resolved: dict[str, Var] = field(default_factory=dict)


@dataclass(eq=False)
class PBlock:
    """A PTX basic block before lowering."""

    label: str | None
    items: list[tuple[ast.Instruction | ast.Call, Scope]] = field(default_factory=list)
    pragmas: list[ast.Pragma] = field(default_factory=list)
    term: tuple[Any, ...] = ("fall",)
    term_stmt: tuple[ast.Instruction, Scope] | None = None
    succs: list[int] = field(default_factory=list)


def param_size_align(p: ast.Param | ast.VarDecl) -> tuple[int, int]:
    """Byte size and alignment of a parameter declaration."""
    elem = max(1, type_bits(p.type) // 8) if p.type != "pred" else 1
    n = 1
    for d in p.dims:
        if d is None:
            return 0, p.align or elem
        n *= d
    vec = getattr(p, "vector", None) or 1
    return elem * n * vec, p.align or elem * vec


class FunctionLowering:
    """Lowers one PTX function; handlers call the helpers below."""

    def __init__(self, mod: ModuleLowering, fn: ast.Function) -> None:
        self.mod = mod
        self.fn = fn
        self.target = mod.target
        self.ins: ast.Instruction | ast.Call | None = None
        self.scope: Scope = Scope(None)
        self.cur: Block
        self.guard: tuple[SSAValue, bool] | None = None
        self.local_bytes = 0
        self.local_vars: dict[str, int] = {}
        self._loc_ins: ast.Instruction | ast.Call | None | bool = False  # never an instruction
        self._loc_attr: Attribute | None = None
        self._undefs: dict[Hashable, SSAValue] = {}
        self._unpacked: dict[SSAValue, tuple[SSAValue, ...]] = {}
        self.func: FuncOp
        self.entry: Block

    # ------------------------------------------------------------------
    # diagnostics
    # ------------------------------------------------------------------
    def error(self, message: str, node: Any = None) -> NoReturn:
        node = node if node is not None else self.ins
        # Operands carry no position: fall back to the instruction, then the function.
        if not getattr(node, "line", 0):
            node = self.ins if getattr(self.ins, "line", 0) else self.fn
        line = getattr(node, "line", 0)
        col = getattr(node, "col", 0) or 1
        raise PtxSyntaxError(self.mod.filename, line, col, message, self.mod.source_line(line))

    def unsupported(self, ins: ast.Instruction | ast.Call, why: str = "") -> NoReturn:
        text = ins.opcode + "".join("." + m for m in ins.modifiers) if isinstance(
            ins, ast.Instruction) else "call"
        msg = f"unsupported PTX instruction '{text}'"
        self.error(msg + (f": {why}" if why else ""), ins)

    # ------------------------------------------------------------------
    # variables
    # ------------------------------------------------------------------
    def lookup(self, name: str, node: Any = None) -> Var:
        scope = self.scope
        v = scope.resolved.get(name)
        if v is None:
            v = scope.resolved[name] = self._lookup(name, node)
        return v

    def _lookup(self, name: str, node: Any) -> Var:
        s: Scope | None = self.scope
        # ``%r12`` may come from the range ``%r<N>``: split off the decimal suffix.
        base = name.rstrip(_DIGITS)
        i = len(base)
        while s is not None:
            v = s.vars.get(name)
            if v is not None:
                return v
            if i < len(name):
                r = s.ranges.get(base)
                if r is not None:
                    t, count, made = r
                    k = int(name[i:])
                    if k < count and (name[i] != "0" or k == 0):
                        v = made.get(k)
                        if v is None:
                            v = made[k] = Var(name, t)
                        return v
            s = s.parent
        self.error(f"use of undeclared register '{name}'", node)

    def param(self, name: str, node: Any = None) -> ParamBuffer | None:
        s: Scope | None = self.scope
        while s is not None:
            p = s.params.get(name)
            if p is not None:
                return p
            s = s.parent
        return None

    def read_var(self, var: Hashable) -> SSAValue:
        # SSABuilder.read's hit path (a definition in the current block), inlined.
        ssa = self.ssa
        d = ssa.defs.get(var)
        if d is not None:
            v = d.get(id(self.cur))
            if v is not None:
                return v if type(v) is OpResult else ssa.resolve(v)
        return ssa.read(var, self.cur)

    def write_var(self, var: Hashable, value: SSAValue) -> None:
        self.ssa.write(var, self.cur, value)

    def _type_of(self, var: Hashable) -> Attribute:
        assert isinstance(var, Var)
        return reg_class(var.type).unallocated()

    def _undef(self, var: Hashable) -> SSAValue:
        v = self._undefs.get(var)
        if v is None:
            t = self._type_of(var) if isinstance(var, Var) else var[-1]  # type: ignore[index]
            op = UndefOp.make([], [t])
            self.entry.insert_op_before(op, self.entry.first_op) if self.entry.first_op else (
                self.entry.add_op(op))
            v = self._undefs[var] = op.results[0]
        return v

    # ------------------------------------------------------------------
    # emission
    # ------------------------------------------------------------------
    def _loc_of(self, ins: ast.Instruction | ast.Call | None) -> Attribute | None:
        loc = ins.loc if ins is not None else None
        if loc is None:
            return None
        key = (loc.file, loc.line, loc.col)
        cache = self.mod.loc_attrs  # shared by the module's functions
        a = cache.get(key)
        if a is None:
            fname = os.path.basename(self.mod.ast.files.get(loc.file, f"file{loc.file}"))
            a = cache[key] = StringAttr(f"{fname}:{loc.line}:{loc.col}")
        return a

    def add(self, op: Operation) -> Operation:
        """Append ``op`` to the current block with the instruction's location.

        The location lookup is inlined: this runs for every op the import
        builds.
        """
        ins = self.ins
        if ins is self._loc_ins:
            a = self._loc_attr
        else:
            a = self._loc_attr = self._loc_of(ins)
            self._loc_ins = ins
        if a is not None:
            op.attributes["loc"] = a
        _append(self.cur, op)
        return op

    def emit(
        self,
        cls: type[OriInstruction],
        srcs: Sequence[Any],
        types: Sequence[Attribute] | None = None,
        mods: str = "",
        smods: dict[str, str] | None = None,
    ) -> OriInstruction:
        """An unguarded instruction (pure ops; the caller defines results via ``set``)."""
        op = cls.make(srcs if type(srcs) is list else list(srcs), types, mods=mods, smods=smods)
        self.add(op)
        return op

    def emit1(self, cls: type[OriInstruction], srcs: Sequence[Any], rtype: Attribute | None = None,
              mods: str = "", smods: dict[str, str] | None = None) -> SSAValue:
        """:meth:`emit` for an op with one result; returns it."""
        op = cls.make(srcs if type(srcs) is list else list(srcs),
                      [rtype] if rtype is not None else None, mods=mods, smods=smods)
        self.add(op)
        return _item(op.results, 0)  # SSAValues.__getitem__ is Python-level

    def emit_effect(
        self,
        cls: type[OriInstruction],
        srcs: Sequence[Any],
        types: Sequence[Attribute] | None = None,
        mods: str = "",
        smods: dict[str, str] | None = None,
        dsts: Sequence[ast.Operand | None] = (),
    ) -> OriInstruction:
        """An instruction that carries the PTX guard itself (memory, sync ops).

        ``dsts`` are the PTX destinations its results define, in order (None
        for a result no PTX register receives); under a guard their previous
        values become the tied ``prior`` operands.  The results are *not* yet
        written to the destinations: call :meth:`set` with ``guarded=True``.
        """
        guard, neg, prior = None, False, []
        if self.guard is not None:
            guard, neg = self.guard
            rtypes = list(types) if types is not None else None
            for i, d in enumerate(dsts):
                if d is None:
                    t = rtypes[i] if rtypes else None
                    prior.append(self._undef(("prior", t)) if t else RZ)
                else:
                    want = rtypes[i] if rtypes else None
                    prior.append(self._prior_for(d, want))
        op = cls.make(list(srcs), types, mods=mods, smods=smods, guard=guard, guard_neg=neg,
                      prior=prior)
        self.add(op)
        return op

    def _prior_for(self, d: ast.Operand, want: Attribute | None) -> SSAValue:
        assert isinstance(d, ast.Register)
        var = self.lookup(d.name, d)
        v = self.read_var(var)
        if want is not None and type(v.type) is not type(want):
            v = self.convert_width(v, type(want), signed=False)  # type: ignore[arg-type]
        return v

    # ------------------------------------------------------------------
    # values
    # ------------------------------------------------------------------
    def mov_imm(self, value: int) -> SSAValue:
        return self.emit1(MovOp, [_u32(value)])

    def const(self, value: int, bits: int = 32) -> SSAValue:
        """A register holding integer ``value`` (``bits`` 32, 64 or 128)."""
        if bits == 32:
            return self.mov_imm(value)
        value &= (1 << bits) - 1
        parts = [self.mov_imm((value >> (32 * i)) & 0xFFFFFFFF) for i in range(bits // 32)]
        return self.pack(parts)

    def pack(self, parts: Sequence[SSAValue | int]) -> SSAValue:
        t = R64Type if len(parts) == 2 else R128Type
        vals = [p if isinstance(p, SSAValue) else self.mov_imm(p) for p in parts]
        v = self.emit1(PackOp, vals, t.unallocated())
        self._unpacked[v] = tuple(vals)
        return v

    def parts(self, v: SSAValue) -> tuple[SSAValue, ...]:
        """The 32-bit registers of a 64/128-bit value (cached per value)."""
        got = self._unpacked.get(v)
        if got is not None and self._dominates(got[0]):
            return got
        n = type(v.type).num_regs()  # type: ignore[attr-defined]
        op = self.emit(UnpackOp, [v], [R32Type.unallocated()] * n)
        got = tuple(op.results)
        self._unpacked[v] = got
        return got

    def _dominates(self, v: SSAValue) -> bool:
        # Values defined in the current block or the entry block, or passed
        # through a pack, are safe to reuse; others are re-unpacked (cheap,
        # and CSE-able later) rather than risk a dominance violation.
        owner = v.owner
        blk = owner.parent_block() if isinstance(owner, Operation) else owner
        return blk is self.cur or blk is self.entry

    def lo(self, v: SSAValue) -> SSAValue:
        return self.parts(v)[0] if not isinstance(v.type, R32Type) else v

    def convert_width(self, v: SSAValue, to: type[OriRegisterType], *, signed: bool) -> SSAValue:
        """Re-size an integer register value (zero- or sign-extend, or truncate)."""
        frm = type(v.type)
        if frm is to:
            return v
        if to is R32Type:
            return self.parts(v)[0]
        lo = v if frm is R32Type else self.parts(v)[0]
        n = to.num_regs()
        if signed:
            from ori_dialect.ops.integer import ShrOp

            hi = self.emit1(ShrOp, [lo, 31], mods="s32")
        else:
            hi = self.mov_imm(0)
        if frm is R32Type:
            return self.pack([lo, *([hi] * (n - 1))])
        got = self.parts(v)
        return self.pack([*got, *([hi if signed else 0] * (n - len(got)))])

    def value(self, operand: ast.Operand, ptx_type: str) -> SSAValue:
        """``operand`` as a register of the width of ``ptx_type`` (immediates
        materialized; wider/narrower registers truncated or extended the way
        PTX's operand-size rule says)."""
        if isinstance(operand, ast.Register):
            if operand.negated:
                self.error("'!' is allowed only on predicate sources of logic ops", operand)
            if operand.name.startswith("%") and self._is_special(operand.name):
                from ori_dialect.ptx.lower.special import read_special

                v = read_special(self, operand.name)
            else:
                v = self.read_var(self.lookup(operand.name, operand))
            want = reg_class(ptx_type)
            # Exact-type tests (register types are leaf classes): isinstance
            # against these ABC-derived classes was visible in import profiles.
            have = type(v.type)
            if want is PredType or have is PredType:
                if have is not PredType or want is not PredType:
                    self.error(f"register '{operand.name}' does not hold a .{ptx_type} value",
                               operand)
                return v
            if have is not want:
                v = self.convert_width(v, want, signed=is_signed(ptx_type))
            return v
        if isinstance(operand, ast.Immediate):
            if ptx_type == "pred":
                # ptxas takes 0 and 1 as predicate constants (vote, selp, mov.pred ...).
                if operand.kind != "int":
                    self.error("a .pred immediate must be 0 or 1", operand)
                lut = 0xFF if operand.value else 0x00
                return self.emit1(PLop3Op, [PT, PT, PT, lut])
            return self.const(self.imm_bits(operand, ptx_type), max(32, type_bits(ptx_type)))
        if isinstance(operand, ast.Symbol):
            return self.symbol_address(operand, ptx_type)
        self.error(f"expected a register or immediate operand of type .{ptx_type}", operand)

    def src(self, operand: ast.Operand, ptx_type: str) -> SSAValue | int | float:
        """Like :meth:`value`, but a 32-bit immediate stays an immediate
        (an ``int`` holding its bit pattern, or a ``float`` for float types)."""
        if isinstance(operand, ast.Immediate) and type_bits(ptx_type) <= 32 and ptx_type != "pred":
            bits = self.imm_bits(operand, ptx_type)
            if ptx_type == "f32":
                return struct.unpack("<f", struct.pack("<I", bits))[0]
            return bits
        return self.value(operand, ptx_type)

    def imm_bits(self, imm: ast.Immediate, ptx_type: str) -> int:
        """The bit pattern of ``imm`` as a value of ``ptx_type`` (zero-extended to 32 bits
        for narrow types)."""
        bits = type_bits(ptx_type)
        if ptx_type in ("f32", "f64", "f16", "bf16"):
            if imm.kind == "f32" or (imm.kind == "int" and ptx_type == "f32"):
                raw = int(imm.value) if imm.kind == "int" else struct.unpack(
                    "<I", struct.pack("<f", imm.value))[0]
                if ptx_type == "f64":
                    return struct.unpack("<Q", struct.pack("<d", struct.unpack(
                        "<f", struct.pack("<I", raw))[0]))[0]
                return raw
            if imm.kind == "f64":
                raw = struct.unpack("<Q", struct.pack("<d", imm.value))[0]
                if ptx_type == "f32":
                    return struct.unpack("<I", struct.pack("<f", imm.value))[0]
                return raw
            f = float(imm.value)
            if ptx_type == "f64":
                return struct.unpack("<Q", struct.pack("<d", f))[0]
            if ptx_type == "f32":
                return struct.unpack("<I", struct.pack("<f", f))[0]
            import numpy as np

            h = np.array([f], dtype=np.float16).view(np.uint16)[0]
            return int(h)
        v = int(imm.value)
        if bits < 32 or ptx_type == "pred":
            return v & ((1 << max(bits, 1)) - 1)
        return v & ((1 << bits) - 1)

    def _is_special(self, name: str) -> bool:
        if name.startswith(SPECIAL_PREFIXES):
            s: Scope | None = self.scope
            while s is not None:
                if name in s.vars:
                    return False
                s = s.parent
            return True
        return False

    def symbol_address(self, sym: ast.Symbol, ptx_type: str) -> SSAValue:
        """``mov.u64 %rd, name``: the address of a variable."""
        off = self.local_vars.get(sym.name)
        if off is not None:
            return self.const(off, max(32, type_bits(ptx_type)))
        off = self.mod.shared_offsets.get(sym.name)
        if off is not None:
            return self.const(off, max(32, type_bits(ptx_type)))
        if sym.name in self.mod.functions_by_name:
            self.error(f"taking the address of function '{sym.name}' is not supported", sym)
        if self.param(sym.name) is not None:
            self.error(f"taking the address of parameter '{sym.name}' is not supported "
                       "(ld.param/st.param with the parameter name are)", sym)
        if sym.name in self.mod.global_vars:
            self.error(f"module-scope variable '{sym.name}' in the .{self.mod.global_vars[sym.name]}"
                       " space is not supported yet", sym)
        self.error(f"unknown symbol '{sym.name}'", sym)

    # ------------------------------------------------------------------
    # destinations
    # ------------------------------------------------------------------
    def set(self, dst: ast.Operand, value: SSAValue, *, guarded: bool = False,
            signed: bool = False) -> None:
        """Define PTX register ``dst`` as ``value``.

        ``value`` is re-sized to the register's width (``signed`` picks sign
        extension).  Under a guard, an unguarded ``value`` is wrapped in a
        guarded move so the register keeps its old value when the guard fails;
        pass ``guarded=True`` for results of :meth:`emit_effect`.
        """
        if isinstance(dst, ast.Vector):
            self.error("a vector destination needs a vector (.v2/.v4) instruction", dst)
        if not isinstance(dst, ast.Register):
            self.error("destination must be a register", dst)
        if dst.name == "_":
            return
        var = self.lookup(dst.name, dst)
        want = reg_class(var.type)
        have = type(value.type)  # exact types: see value()
        if want is PredType or have is PredType:
            if not (want is PredType and have is PredType):
                self.error(f"register '{dst.name}' of type .{var.type} cannot receive this value",
                           dst)
        elif have is not want:
            value = self.convert_width(value, want, signed=signed)
        if self.guard is not None and not guarded:
            g, neg = self.guard
            prior = self.read_var(var)
            if want is PredType:
                op = PLop3Op.make([value, PT, PT, 0xF0], guard=g, guard_neg=neg, prior=[prior])
            elif type(value.type) is not R32Type:
                # MOV moves 32 bits: a guarded move of each register of the pair
                movs = [MovOp.make([v], guard=g, guard_neg=neg, prior=[p])
                        for v, p in zip(self.parts(value), self.parts(prior))]
                for m in movs:
                    self.add(m)
                self.write_var(var, self.pack([m.results[0] for m in movs]))
                return
            else:
                op = MovOp.make([value], [value.type], guard=g, guard_neg=neg, prior=[prior])
            self.add(op)
            value = op.results[0]
        self.write_var(var, value)

    # ------------------------------------------------------------------
    # driver
    # ------------------------------------------------------------------
    def lower(self) -> FuncOp:
        fn = self.fn
        assert fn.body is not None
        kernel = fn.kind == "entry"
        top = Scope(None)
        self.scope = top
        params: list[ParamAttr] = []
        inputs: list[Attribute] = []
        off = 0
        for p in fn.params:
            size, align = param_size_align(p)
            if p.space == "reg":
                v = Var(p.name, p.type)
                top.vars[p.name] = v
                inputs.append(reg_class(p.type).unallocated())
                params.append(_param_attr(max(size, 1), max(align, 1)))
                continue
            if size == 0:
                self.error(f"parameter '{p.name}' has no size", p)
            if kernel:
                off = -(-off // align) * align
                top.params[p.name] = ParamBuffer(p.name, size, align, cbank_offset=off)
                params.append(_param_attr(size, align, off))
                off += size
            else:
                if size > 16:
                    self.error(f"parameter '{p.name}' of {size} bytes: by-value parameters larger "
                               "than 16 bytes are not supported yet", p)
                top.params[p.name] = ParamBuffer(p.name, size, align)
                inputs.append(_param_reg(size).unallocated())
                params.append(_param_attr(size, align))
        outputs: list[Attribute] = []
        returns: list[ParamAttr] = []
        for p in fn.return_params:
            size, align = param_size_align(p)
            if p.space == "reg":
                top.vars[p.name] = Var(p.name, p.type)
                outputs.append(reg_class(p.type).unallocated())
            else:
                if size > 16 or size == 0:
                    self.error(f"return value '{p.name}' of {size} bytes is not supported", p)
                top.params[p.name] = ParamBuffer(p.name, size, align)
                outputs.append(_param_reg(size).unallocated())
            returns.append(_param_attr(max(size, 1), max(align, 1)))

        pblocks = self._split(fn.body, top)
        order = self._reachable(pblocks)
        region = Region()
        blocks: dict[int, Block] = {}
        needs_entry = any(0 in pblocks[i].succs for i in order)
        self.entry = Block(arg_types=inputs)
        region.add_block(self.entry)
        for i in order:
            if i == 0 and not needs_entry:
                blocks[0] = self.entry
            else:
                blocks[i] = Block()
                region.add_block(blocks[i])
        preds: dict[Block, list[Edge]] = {b: [] for b in region.blocks}
        for i in order:
            for slot, s in enumerate(pblocks[i].succs):
                preds[blocks[s]].append((blocks[i], slot))
        if needs_entry:
            preds[blocks[0]].append((self.entry, 0))
        self.ssa = SSABuilder(preds, self._type_of, self._undef)

        self.func = FuncOp(fn.name, inputs, outputs, kernel=kernel, params=params,
                           returns=returns if not kernel else None, region=region)
        self._set_directives()

        # Device-function inputs seed their variables.
        self.cur = self.entry
        self.ssa.seal(self.entry)
        args = iter(self.entry.args)
        for p in fn.params:
            a = next(args) if (p.space == "reg" or not kernel) else None
            if a is None:
                continue
            if p.space == "reg":
                self.write_var(top.vars[p.name], a)
            else:
                buf = top.params[p.name]
                words = [a] if isinstance(a.type, R32Type) else list(self.parts(a))
                for k, w in enumerate(words):
                    self.write_var(buf.word(k), w)

        filled: set[Block] = set()
        terms: dict[Block, tuple[Any, ...]] = {}
        if needs_entry:
            filled.add(self.entry)
            terms[self.entry] = ("jump", 0)
        for i in order:
            blk = blocks[i]
            pb = pblocks[i]
            self.cur = blk
            if blk not in self.ssa.sealed and all(p in filled for p, _ in preds[blk]):
                self.ssa.seal(blk)
            for pr in pb.pragmas:
                self._pragma(pr)
            for ins, scope in pb.items:
                self._lower_one(ins, scope)
            terms[blk] = self._terminator(pb, top)
            filled.add(blk)
            for s in pb.succs:
                sb = blocks[s]
                if sb not in self.ssa.sealed and all(p in filled for p, _ in preds[sb]):
                    self.ssa.seal(sb)
        for b in region.blocks:
            if b not in self.ssa.sealed:
                self.ssa.seal(b)
        roots: list[SSAValue] = []
        for t in terms.values():
            if t[0] == "cond":
                roots.append(t[1])
            elif t[0] == "ret":
                roots.extend(t[1])
        self.ssa.finish(roots)
        for b in region.blocks:
            self._emit_terminator(b, terms[b], blocks)
        if self.local_bytes:
            self.func.attributes["ori.local_bytes"] = IntegerAttr(self.local_bytes, i32)
        return self.func

    def _set_directives(self) -> None:
        from xdsl.dialects.builtin import DenseArrayBase

        fn = self.fn
        for key, args in fn.directives:
            ints = [int(a) for a in args if isinstance(a, int)]
            if key == "maxnreg":
                self.func.maxnreg = IntegerAttr(ints[0], i32)
            elif key in ("maxntid", "reqntid"):
                setattr(self.func, key, DenseArrayBase.from_list(i32, ints))
            elif key == "minnctapersm":
                self.func.minnctapersm = IntegerAttr(ints[0], i32)
            elif key == "pragma":
                prev = self.func.attributes.get("ori.pragmas")
                texts = [*(prev.data.split(",") if isinstance(prev, StringAttr) else []),
                         *(str(a) for a in args)]
                self.func.attributes["ori.pragmas"] = StringAttr(",".join(texts))
        if fn.noreturn:
            self.func.attributes["ori.noreturn"] = StringAttr("true")

    def _pragma(self, pr: ast.Pragma) -> None:
        for text in pr.text.split(","):
            text = text.strip().strip('"').strip()
            if text:
                op = PragmaOp(text)
                self.cur.add_op(op)

    def _lower_one(self, ins: ast.Instruction | ast.Call, scope: Scope) -> None:
        self.ins = ins
        self.scope = scope
        self.guard = None
        if ins.guard is not None:
            name, neg = ins.guard
            var = self.lookup(name, ins)
            if var.type != "pred":
                self.error(f"guard '{name}' is not a .pred register", ins)
            self.guard = (self.read_var(var), neg)
        if isinstance(ins, ast.Call):
            from ori_dialect.ptx.lower.calls import lower_call

            lower_call(self, ins)
            return
        fn = LOWERINGS.get(ins.opcode)
        if fn is None:
            self.unsupported(ins)
        fn(self, ins)

    # ------------------------------------------------------------------
    # CFG
    # ------------------------------------------------------------------
    def _split(self, body: Sequence[ast.Statement], top: Scope) -> list[PBlock]:
        blocks: list[PBlock] = [PBlock(None)]
        labels: dict[str, int] = {}

        def new_block(label: str | None) -> PBlock:
            b = PBlock(label)
            blocks.append(b)
            return b

        cur = blocks[0]
        closed = False

        def walk(stmts: Sequence[ast.Statement], scope: Scope) -> None:
            nonlocal cur, closed
            for st in stmts:
                if isinstance(st, ast.RegDecl):
                    names = [st.name] if st.count is None else []
                    if st.count is not None:
                        scope.ranges[st.name] = (st.type, st.count, {})
                    for n in names:
                        scope.vars[n] = Var(n, st.type)
                elif isinstance(st, ast.VarDecl):
                    self._declare(st, scope)
                elif isinstance(st, ast.Block):
                    walk(st.body, Scope(scope))
                elif isinstance(st, ast.Label):
                    if cur.items or cur.pragmas or closed or cur.label is not None or cur is not blocks[0]:
                        cur = new_block(st.name)
                    else:
                        cur.label = st.name
                    labels[st.name] = len(blocks) - 1 if cur is not blocks[0] else 0
                    closed = False
                elif isinstance(st, ast.Pragma):
                    if closed:
                        cur = new_block(None)
                        closed = False
                    cur.pragmas.append(st)
                elif isinstance(st, ast.CallProto):
                    continue
                elif isinstance(st, ast.Instruction) and st.opcode in ("bra", "ret", "exit", "trap",
                                                                         "brx"):
                    if closed:
                        cur = new_block(None)
                    self._close(cur, st, scope)
                    closed = True
                elif isinstance(st, ast.Instruction | ast.Call):
                    if closed:
                        cur = new_block(None)
                        closed = False
                    cur.items.append((st, scope))

        walk(body, top)
        # successors
        for i, b in enumerate(blocks):
            kind = b.term[0]
            nxt = i + 1 if i + 1 < len(blocks) else None
            if kind == "fall":
                b.term = ("jump", nxt) if nxt is not None else ("ret",)
            elif kind == "bra":
                lab = b.term[1]
                if lab not in labels:
                    self.error(f"branch to undefined label '{lab}'", b.term_stmt[0] if b.term_stmt else None)
                tgt = labels[lab]
                if b.term_stmt is not None and b.term_stmt[0].guard is not None:
                    if nxt is None:
                        nxt = len(blocks)
                        blocks.append(PBlock(None, term=("ret",)))
                    b.term = ("cond", tgt, nxt)
                else:
                    b.term = ("jump", tgt)
            elif kind in ("ret", "exit") and b.term_stmt is not None and b.term_stmt[0].guard is not None:
                if nxt is None:
                    nxt = len(blocks)
                    blocks.append(PBlock(None, term=("ret",)))
                rb = len(blocks)
                blocks.append(PBlock(None, term=(kind,)))
                b.term = ("cond", rb, nxt, kind)
        for b in blocks:
            t = b.term
            if t[0] == "jump":
                b.succs = [t[1]]
            elif t[0] == "cond":
                b.succs = [t[1], t[2]]
            else:
                b.succs = []
        return blocks

    def _close(self, b: PBlock, st: ast.Instruction, scope: Scope) -> None:
        b.term_stmt = (st, scope)
        if st.opcode == "bra":
            if len(st.operands) != 1 or not isinstance(st.operands[0], ast.LabelRef | ast.Symbol):
                self.error("bra takes one label", st)
            tgt = st.operands[0]
            b.term = ("bra", tgt.name)
        elif st.opcode == "brx":
            self.unsupported(st, "indirect branches (brx.idx) are not supported yet")
        elif st.opcode == "trap":
            self.unsupported(st, "trap is not supported yet")
        else:
            b.term = ("exit",) if st.opcode == "exit" else ("ret",)

    def _reachable(self, blocks: list[PBlock]) -> list[int]:
        """Reachable block indices in reverse post-order."""
        seen: set[int] = set()
        post: list[int] = []
        stack: list[tuple[int, int]] = [(0, 0)]
        seen.add(0)
        while stack:
            n, k = stack[-1]
            succs = blocks[n].succs
            if k < len(succs):
                stack[-1] = (n, k + 1)
                s = succs[k]
                if s not in seen:
                    seen.add(s)
                    stack.append((s, 0))
            else:
                stack.pop()
                post.append(n)
        return post[::-1]

    def _terminator(self, pb: PBlock, top: Scope) -> tuple[Any, ...]:
        t = pb.term
        if pb.term_stmt is not None:
            self.ins = pb.term_stmt[0]
            self.scope = pb.term_stmt[1]
        if t[0] == "cond":
            st = pb.term_stmt[0] if pb.term_stmt else None
            assert st is not None and st.guard is not None
            var = self.lookup(st.guard[0], st)
            if var.type != "pred":
                self.error(f"guard '{st.guard[0]}' is not a .pred register", st)
            return ("cond", self.read_var(var), st.guard[1], t[1], t[2])
        if t[0] == "ret" or t[0] == "exit":
            if self.fn.kind == "entry" or t[0] == "exit":
                return ("exit",) if self.fn.kind == "entry" else ("exit_in_func",)
            vals: list[SSAValue] = []
            for p in self.fn.return_params:
                if p.space == "reg":
                    vals.append(self.read_var(top.vars[p.name]))
                else:
                    buf = top.params[p.name]
                    n = _param_reg(buf.size).num_regs()
                    words = [self.read_var(buf.word(k)) for k in range(n)]
                    vals.append(words[0] if n == 1 else self.pack(words))
            return ("ret", vals)
        return t

    def _emit_terminator(self, b: Block, t: tuple[Any, ...], blocks: dict[int, Block]) -> None:
        r = self.ssa.resolve
        if t[0] == "jump":
            dest = blocks[t[1]]
            _append(b, _bra(dest, self.ssa.edge_args(b, 0, dest)))
        elif t[0] == "cond":
            _, g, neg, taken, fall = t
            tb, fb = blocks[taken], blocks[fall]
            _append(b, _bra(tb, self.ssa.edge_args(b, 0, tb), r(g), neg, fb,
                          self.ssa.edge_args(b, 1, fb)))
        elif t[0] == "exit":
            _append(b, create_op(ExitOp, [], {}))
        elif t[0] == "exit_in_func":
            self.error("'exit' in a device function is not supported (the thread would end "
                       "inside a call)")
        else:
            _append(b, create_op(RetOp, [r(v) for v in t[1]], {}))

    def _declare(self, st: ast.VarDecl, scope: Scope) -> None:
        size, align = param_size_align(st)
        if st.space == "param":
            scope.params[st.name] = ParamBuffer(st.name, size, align)
        elif st.space == "local":
            if size == 0:
                self.error(f"local array '{st.name}' needs a size", st)
            self.local_bytes = -(-self.local_bytes // align) * align
            self.local_vars[st.name] = self.local_bytes
            self.local_bytes += size
        elif st.space == "shared":
            self.mod.declare_shared(st, self)
        elif st.space in ("global", "const"):
            self.error(f"function-scope .{st.space} variable '{st.name}' is not supported yet", st)
        else:
            self.error(f"unsupported state space .{st.space} for '{st.name}'", st)


def _append(blk: Block, op: Operation) -> None:
    """``blk.add_op(op)``.

    Inlined for a fresh op without regions (every op the lowering builds):
    such an op cannot contain the block, so xDSL's ancestry walk up to the
    module has nothing to find.
    """
    if op.parent is not None or op.regions:
        blk.add_op(op)
        return
    last = blk._last_op  # pyright: ignore[reportPrivateUsage]
    op.parent = blk
    if last is None:
        blk._first_op = op  # pyright: ignore[reportPrivateUsage]
    else:
        last._next_op = op  # pyright: ignore[reportPrivateUsage]
        op._prev_op = last  # pyright: ignore[reportPrivateUsage]
        op._next_op = None  # pyright: ignore[reportPrivateUsage]
    blk._last_op = op  # pyright: ignore[reportPrivateUsage]


def _bra(
    taken: Block,
    taken_args: Sequence[SSAValue],
    guard: SSAValue | None = None,
    guard_neg: bool = False,
    fallthrough: Block | None = None,
    fallthrough_args: Sequence[SSAValue] = (),
) -> BraOp:
    """``BraOp(...)`` built with ``create_op`` (``Operation.create``'s fields
    set directly): IRDL's generic constructor was ~10% of lowering time; the
    module verifier still checks the op."""
    props: dict[str, Attribute] = {
        "operandSegmentSizes": _bra_segments(
            0 if guard is None else 1, len(taken_args), len(fallthrough_args)
        )
    }
    if guard_neg:
        props["guard_neg"] = _UNIT
    return create_op(
        BraOp,
        [*(() if guard is None else (guard,)), *taken_args, *fallthrough_args],
        props,
        successors=[taken] if fallthrough is None else [taken, fallthrough],
    )


@functools.lru_cache(maxsize=256)
def _bra_segments(n_guard: int, n_taken: int, n_fall: int) -> Attribute:
    return DenseArrayBase.from_list(i32, (n_guard, n_taken, n_fall))


_UNIT = UnitAttr()
_item = tuple.__getitem__


@functools.lru_cache(maxsize=1024)
def _param_attr(size: int, align: int, offset: int = -1) -> ParamAttr:
    # Attributes are immutable: one instance per descriptor spares building
    # and verifying four attributes per parameter of every function.
    return ParamAttr(size, align, offset)


def _param_reg(size: int) -> type[OriRegisterType]:
    if size <= 4:
        return R32Type
    if size <= 8:
        return R64Type
    return R128Type


def _u32(v: int) -> int:
    return v & 0xFFFFFFFF


__all__ = ["FunctionLowering", "ParamBuffer", "Scope", "Var"]
