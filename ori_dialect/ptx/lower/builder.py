"""The emit API of the PTX lowering: what every instruction lowering calls.

:class:`LoweringBuilder` holds the state of one function's lowering (scopes,
the current block, the PTX guard, the SSA builder) and builds Ori ops in the
current block: ``add``/``emit``/``emit1``/``emit_effect``, constants
(``mov_imm``/``const``), 64/128-bit values (``pack``/``parts``/``lo``/
``convert_width``), source operands (``value``/``src``) and destinations
(``set``).  :class:`~ori_dialect.ptx.lower.function.FunctionLowering` derives
from it and adds the driver (declarations, blocks, terminators); the handler
modules and :mod:`.handlers` know only this class, so the lowering's imports
go one way: builder <- handler modules <- function <- module.

Guards: a guarded PTX instruction whose lowering is one op carries the guard
on that op (with the destination's previous value as the tied ``prior``
operand).  When the lowering needs several pure ops, they run unguarded
(they cannot fault) and each destination is then defined by a guarded
``ori.mov`` (``ori.plop3`` for predicates), so the value is unchanged when
the guard fails.  Ops with memory effects always carry the guard themselves.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ir.instruction import OriInstruction, uses_constant_port
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    R64Type,
    R128Type,
    RegFile,
    reg_type,
)
from ori_dialect.ops.frame import FrameAddrOp
from ori_dialect.ops.integer import MovOp, PackOp, ShrOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from ori_dialect.ops.module_vars import AddrOp
from ori_dialect.ops.predicate import PLop3Op
from ori_dialect.ops.special import UndefOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.special import SPECIAL_PREFIXES, read_special
from ori_dialect.ptx.lower.types import is_signed, reg_class, type_bits
from ori_dialect.ptx.parser import PtxSyntaxError

if TYPE_CHECKING:
    from ori_dialect.ops.func import FuncOp
    from ori_dialect.ptx.lower.module import ModuleLowering
    from ori_dialect.ptx.lower.ssa import SSABuilder

RZ = R32Type.fixed()
PT = PredType.fixed()
_DIGITS = "0123456789"

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


class LoweringBuilder:
    """The state of one PTX function's lowering and the calls that build its ops.

    The driver (:class:`~ori_dialect.ptx.lower.function.FunctionLowering`)
    sets ``ins``, ``scope``, ``guard`` and ``cur`` before each instruction;
    the lowerings read operands, emit ops and define destinations here.
    """

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
        self.param_copy_at: int | None = None
        """Local offset of the kernel-parameter copy ``cvta.param`` uses (data.param_copy)."""
        self.entry: Block
        self.shared_used: set[str] = set()
        """The ``.shared`` variables this function addresses (:meth:`shared_offset`)."""
        self._loc_ins: ast.Instruction | ast.Call | None | bool = False  # never an instruction
        self._loc_attr: Attribute | None = None
        self._undefs: dict[Hashable, SSAValue] = {}
        self._unpacked: dict[SSAValue, tuple[SSAValue, ...]] = {}
        self.func: FuncOp
        self.entry: Block
        self.ssa: SSABuilder
        # The carry flag CC.CF of add.cc/addc chains (integer.py): a hidden
        # predicate variable, created at its first use.
        self.carry: Var | None = None

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
        append_op(self.cur, op)
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
        op = cls.make(self._one_port(cls, srcs), types, mods=mods, smods=smods)
        self.add(op)
        return op

    def emit1(self, cls: type[OriInstruction], srcs: Sequence[Any], rtype: Attribute | None = None,
              mods: str = "", smods: dict[str, str] | None = None) -> SSAValue:
        """:meth:`emit` for an op with one result; returns it."""
        op = cls.make(self._one_port(cls, srcs),
                      [rtype] if rtype is not None else None, mods=mods, smods=smods)
        self.add(op)
        return _item(op.results, 0)  # SSAValues.__getitem__ is Python-level

    def _one_port(self, cls: type[OriInstruction], srcs: Sequence[Any]) -> list[Any]:
        """``srcs`` with at most ``cls.CONSTANT_PORTS`` constants among the
        register-capable slots (docs/architecture.md "the one-port rule"):
        the one in ``b`` (SASS's constant operand) or else the first stays; a
        zero where the slot takes RZ becomes RZ (``IMAD.WIDE R2, R5, 0x4,
        RZ``), any other constant a register (``MOV``).  PTX allows any
        number of immediates (``mad.lo.s32 %r1, %r2, 59, 16``), SASS one."""
        srcs = srcs if type(srcs) is list else list(srcs)
        slots = cls.SRCS
        used = [i for i, v in enumerate(srcs)
                if i < len(slots) and slots[i].types and uses_constant_port(v)]
        if len(used) <= cls.CONSTANT_PORTS:
            return srcs
        keep = sorted(used, key=lambda i: (slots[i].name != "b", i))[:cls.CONSTANT_PORTS]
        out = list(srcs)
        for i in used:
            if i in keep:
                continue
            slot, v = slots[i], srcs[i]
            bits = slot.types[0].BITS
            word = _constant_bits(v, bits)
            if word == 0 and slot.fixed:
                out[i] = slot.types[0].fixed()
            elif isinstance(v, CBankAttr):
                out[i] = self.emit1(MovOp, [v], slot.types[0].unallocated()) if bits == 32 else (
                    self.emit1(LdcOp, [v.bank.data, R32Type.fixed(), v.offset.data],
                               slot.types[0].unallocated(), mods=f"b{bits}"))
            elif word is not None:
                out[i] = self.const(word, bits)
        return out

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
        op = cls.make(self._one_port(cls, srcs), types, mods=mods, smods=smods, guard=guard,
                      guard_neg=neg, prior=prior)
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
        # 2 parts: a pair, 4: a quad, 8..64: a register tuple (wgmma accumulators)
        t = R64Type if len(parts) == 2 else R128Type if len(parts) == 4 else reg_type(
            RegFile.R, 32 * len(parts))
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
            if operand.name.startswith("%") and self.is_special(operand.name):
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
            # lazy: only f16/bf16 immediates written as decimals need numpy's
            # float16 rounding, and loading it would add to ori-opt's start-up.
            import numpy as np

            h = np.array([f], dtype=np.float16).view(np.uint16)[0]
            return int(h)
        if imm.kind in ("f32", "f64"):
            # ``0f``/``0d`` literals are bit patterns (PTX ISA 4.5.1 "Floating-Point
            # Constants"): into an integer or bit type they keep their bits
            # (``mov.b32 %r, 0f3F800000`` is 0x3F800000, not 1).
            v = struct.unpack("<I", struct.pack("<f", imm.value))[0] if imm.kind == "f32" else (
                struct.unpack("<Q", struct.pack("<d", imm.value))[0])
        elif imm.kind == "float":
            self.error(f"a decimal floating-point constant cannot be a .{ptx_type} operand", imm)
        else:
            v = int(imm.value)
        if bits < 32 or ptx_type == "pred":
            return v & ((1 << max(bits, 1)) - 1)
        return v & ((1 << bits) - 1)

    def is_special(self, name: str) -> bool:
        """True when ``name`` reads a special register (``%tid.x`` ...), not a
        declared register of that name."""
        if name.startswith(SPECIAL_PREFIXES):
            s: Scope | None = self.scope
            while s is not None:
                if name in s.vars:
                    return False
                s = s.parent
            return True
        return False

    def shared_offset(self, name: str) -> int | None:
        """The shared-window offset of ``.shared`` variable ``name`` (None if it is
        none), recorded as used by this function: a kernel's ``smem`` counts the
        variables it and its callees use (module.py)."""
        off = self.mod.shared_offsets.get(name)
        if off is not None:
            self.shared_used.add(name)
        return off

    def global_address(self, name: str) -> SSAValue:
        """The 64-bit address of a ``.global`` variable or device function (``ori.addr``)."""
        if name in self.mod.functions_by_name:
            self.mod.address_taken.add(name)
        return self.add(AddrOp(name)).results[0]

    def symbol_address(self, sym: ast.Symbol, ptx_type: str) -> SSAValue:
        """``mov.u64 %rd, name``: the address of a variable or function.

        ``.local``/``.shared`` variables give their window offset, ``.const``
        ones their offset in constant bank 3 (what ``ld.const [%r]`` takes);
        ``.global`` variables and device functions their 64-bit address."""
        off = self.local_vars.get(sym.name)
        if off is not None:  # R1 + offset: the activation's frame (ops/frame.py)
            fa = self.emit1(FrameAddrOp, [off])
            return fa if type_bits(ptx_type) <= 32 else self.pack([fa, 0])
        off = self.shared_offset(sym.name)
        if off is not None:
            return self.const(off, max(32, type_bits(ptx_type)))
        off = self.mod.const_offsets.get(sym.name)
        if off is not None:
            return self.const(off, max(32, type_bits(ptx_type)))
        buf = self.param(sym.name)
        if buf is not None:
            if buf.cbank_offset is not None:
                # PTX ISA 5.1.6.1 "Kernel Function Parameters": the address of a
                # kernel parameter (mov) is an address in the .param space, which
                # ld.param takes through a register.  It is the parameter's offset
                # in the parameter area, as in ptxas's LDC c[0x0][R+0x160].
                return self.const(buf.cbank_offset, max(32, type_bits(ptx_type)))
            self.error(f"taking the address of parameter '{sym.name}' is not supported "
                       "(ld.param/st.param with the parameter name are)", sym)
        fn = self.mod.functions_by_name.get(sym.name)
        if fn is not None or self.mod.global_vars.get(sym.name) == "global":
            if fn is not None and fn.kind == "entry":
                self.error(f"'{sym.name}' is a kernel entry: only device functions have an "
                           "address", sym)
            if type_bits(ptx_type) != 64:
                self.error(f"the address of '{sym.name}' needs a 64-bit operand, not .{ptx_type}",
                           sym)
            return self.global_address(sym.name)
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


def _constant_bits(v: Any, bits: int) -> int | None:
    """The ``bits``-wide pattern of an immediate (None: not an immediate)."""
    if isinstance(v, IntegerAttr | FloatAttr):
        v = v.value.data
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    if isinstance(v, float):
        return (struct.unpack("<Q", struct.pack("<d", v))[0] if bits == 64
                else struct.unpack("<I", struct.pack("<f", v))[0])
    return v & ((1 << bits) - 1)


def append_op(blk: Block, op: Operation) -> None:
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


_item = tuple.__getitem__


MAX_PARAM_BYTES = 512
"""The largest by-value ``.param`` object a call carries as one value (an
``!ori.r4096`` register tuple)."""


def param_reg(size: int) -> type[OriRegisterType]:
    """The register that carries a ``.param`` object of ``size`` bytes in a
    call (32, 64 or 128 bits; a larger by-value aggregate, up to
    :data:`MAX_PARAM_BYTES`, the smallest register tuple that holds it -- the
    calling convention decides whether it travels in registers or on the
    stack, passes/abi/params.py)."""
    if size <= 4:
        return R32Type
    if size <= 8:
        return R64Type
    if size <= 16:
        return R128Type
    bits = 256
    while bits < 8 * size:
        bits *= 2
    return reg_type(RegFile.R, bits)


def _u32(v: int) -> int:
    return v & 0xFFFFFFFF


__all__ = [
    "MAX_PARAM_BYTES",
    "PT",
    "RZ",
    "LoweringBuilder",
    "ParamBuffer",
    "Scope",
    "Var",
    "append_op",
    "param_reg",
    "param_size_align",
]
