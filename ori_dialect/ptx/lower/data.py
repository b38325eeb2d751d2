"""Data movement: ``mov``, ``cvta``, ``ld``, ``st`` (every state space).

* ``mov`` between registers makes no op at all: the destination simply names
  the source's SSA value (under a guard, a guarded ``ori.mov``).  Vector
  ``mov``s pack and unpack register pairs (``ori.pack``/``ori.unpack``) or
  16-bit halves (``ori.prmt``).
* Kernel parameters are read from constant bank 0 (``ori.ldc``) at the
  target's parameter base plus the parameter's offset.  Device-function
  parameters, return values and call arguments are word-addressed buffers of
  SSA variables: ``st.param``/``ld.param`` on them make no memory traffic
  (the calling convention decides registers later, seed 003).
* Loads and stores map to LDG/STG (``.global``), LDS/STS (``.shared``),
  LDL/STL (``.local``), LD/ST (generic).  A vector access becomes one access
  of the whole vector's width (64 or 128 bits) and a pack/unpack; cache
  operators that only steer caching (``.ca .cg .cs .cv .L2::...``) do not
  change meaning: ``.cs`` maps to ``ef``, ``.lu`` to ``lu``, ``.nc`` to
  ``constant`` and the others are dropped.
* ``cvta``: global addresses are generic addresses; shared and local ones
  move in and out of the windows of :mod:`ori_dialect.ir.address_space`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.address_space import LOCAL_WINDOW, SHARED_WINDOW
from ori_dialect.ir.registers import R32Type, R64Type, R128Type, stack_pointer
from ori_dialect.ops.frame import FrameAddrOp
from ori_dialect.ops.integer import IAdd3Op, Lop3Op, MovOp, PrmtOp, ShlOp, ShrOp
from ori_dialect.ops.memory import (
    LdcOp,
    LdgOp,
    LdlOp,
    LdOp,
    LdsOp,
    StgOp,
    StlOp,
    StOp,
    StsOp,
)
from ori_dialect.ops.module_vars import CONST_BANK
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.handlers import lowers
from ori_dialect.ptx.lower.types import is_signed, reg_class, type_bits

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder, ParamBuffer

SPACES = ("global", "shared", "local", "param", "const", "generic")
_TYPES = frozenset([
    "b8", "u8", "s8", "b16", "u16", "s16", "f16", "bf16", "b32", "u32", "s32", "f32",
    "f16x2", "bf16x2", "b64", "u64", "s64", "f64", "b128",
])
_LOADS = {"global": LdgOp, "shared": LdsOp, "local": LdlOp, "generic": LdOp}
_STORES = {"global": StgOp, "shared": StsOp, "local": StlOp, "generic": StOp}
_CACHE = {"cs": "ef", "lu": "lu", "nc": "constant"}
_IGNORED = frozenset(["ca", "cg", "cv", "wb", "wt", "weak", "unified", "relaxed_no", "ss"])


_RZ = R32Type.fixed()


def rzero() -> SSAValue:
    # One shared instance: attributes are immutable, and building (and
    # verifying) RZ for every access was visible in PTX import profiles.
    return _RZ  # type: ignore[return-value]


def mask(ctx: LoweringBuilder, v: SSAValue, bits: int) -> SSAValue:
    """``v & (2^bits - 1)``: the canonical (zero-extended) form of a narrow value."""
    if bits >= 32:
        return v
    return ctx.emit1(Lop3Op, [v, (1 << bits) - 1, rzero(), 0xC0])


def sign_extend(ctx: LoweringBuilder, v: SSAValue, bits: int) -> SSAValue:
    """Sign-extend the low ``bits`` of ``v`` to 32 bits (SHL then arithmetic SHR)."""
    if bits >= 32:
        return v
    t = ctx.emit1(ShlOp, [v, 32 - bits])
    return ctx.emit1(ShrOp, [t, 32 - bits], mods="s32")


# ----------------------------------------------------------------------------
# instruction shape helpers


class Mods:
    """Modifiers of a memory instruction split into their roles."""

    def __init__(self, ctx: LoweringBuilder, ins: ast.Instruction) -> None:
        self.space = "generic"
        self.vec = 1
        self.type = ""
        self.cache = ""
        self.sem = ""
        self.scope = ""
        for m in ins.modifiers:
            if m in SPACES:
                self.space = m
            elif m == "shared::cta":
                # the executing CTA's own window: what plain .shared means
                self.space = "shared"
            elif m in ("v2", "v4", "v8"):
                self.vec = int(m[1])
            elif m in _TYPES:
                self.type = m
            elif m in _CACHE:
                self.cache = _CACHE[m]
            elif m == "volatile":
                self.sem = "strong"
            elif m in ("relaxed", "acquire", "release"):
                self.sem = m
            elif m in ("cta", "gpu", "sys", "cluster"):
                self.scope = "gpu" if m == "cluster" else m
            elif m in _IGNORED or m.startswith(("L1::", "L2::")):
                continue
            else:
                ctx.unsupported(ins, f"modifier '.{m}'")
        if not self.type:
            ctx.error(f"{ins.opcode} needs a type", ins)

    def mods(self, width: str) -> str:
        parts = [width]
        if self.cache:
            parts.append(self.cache)
        if self.sem:
            parts.append(self.sem)
        if self.scope:
            parts.append(self.scope)
        return ".".join(parts)


def width_of(bits: int, signed: bool) -> str:
    if bits == 8:
        return "s8" if signed else "u8"
    if bits == 16:
        return "s16" if signed else "u16"
    return {32: "b32", 64: "b64", 128: "b128"}[bits]


def elements(ctx: LoweringBuilder, op: ast.Operand, n: int) -> list[ast.Operand]:
    if n == 1:
        if isinstance(op, ast.Vector):
            ctx.error("a vector operand needs a .v2/.v4 instruction", op)
        return [op]
    if not isinstance(op, ast.Vector) or len(op.elements) != n:
        ctx.error(f"expected a vector of {n} elements", op)
    return list(op.elements)


def split_word(ctx: LoweringBuilder, word: SSAValue, ebits: int) -> list[SSAValue]:
    """The 8- or 16-bit elements of a 32-bit word, each zero-extended."""
    n = 32 // ebits
    out = []
    for i in range(n):
        if ebits == 16:
            sel = 0x4410 if i == 0 else 0x4432
        else:
            sel = 0x4440 | i
        out.append(ctx.emit1(PrmtOp, [word, sel, rzero()]))
    return out


def join_word(ctx: LoweringBuilder, parts: Sequence[SSAValue], ebits: int) -> SSAValue:
    """One 32-bit word from zero-extended 8/16-bit elements."""
    if ebits == 16:
        return ctx.emit1(PrmtOp, [parts[0], 0x5410, parts[1]])
    lo = ctx.emit1(PrmtOp, [parts[0], 0x0040, parts[1]])  # bytes a0 b0 0 0
    hi = ctx.emit1(PrmtOp, [parts[2], 0x0040, parts[3]])
    return ctx.emit1(PrmtOp, [lo, 0x5410, hi])


def combine(ctx: LoweringBuilder, vals: Sequence[SSAValue], ebits: int) -> SSAValue:
    """Elements (in memory order) -> one register of their total width."""
    total = ebits * len(vals)
    if ebits < 32:
        per = 32 // ebits
        words = [join_word(ctx, vals[i:i + per], ebits) if per > 1 else vals[i]
                 for i in range(0, len(vals), per)] if total >= 32 else []
        if total < 32:  # v2.u8 (16 bits)
            lo = ctx.emit1(PrmtOp, [vals[0], 0x0040, vals[1]])
            return lo
        return words[0] if len(words) == 1 else ctx.pack(words)
    words = []
    for v in vals:
        words.extend([v] if isinstance(v.type, R32Type) else ctx.parts(v))
    return words[0] if len(words) == 1 else ctx.pack(words)


def explode(ctx: LoweringBuilder, v: SSAValue, ebits: int, n: int) -> list[SSAValue]:
    """Inverse of :func:`combine`."""
    words = [v] if isinstance(v.type, R32Type) else list(ctx.parts(v))
    if ebits < 32:
        out: list[SSAValue] = []
        for w in words:
            out.extend(split_word(ctx, w, ebits))
        return out[:n]
    if ebits == 32:
        return words[:n]
    per = ebits // 32
    return [ctx.pack(words[i:i + per]) for i in range(0, len(words), per)][:n]


# ----------------------------------------------------------------------------
# addresses


def address(ctx: LoweringBuilder, a: ast.Operand, space: str) -> tuple[SSAValue, int]:
    """(base register, byte offset) for an access in ``space``."""
    if not isinstance(a, ast.Address):
        ctx.error("expected an address operand '[...]'", a)
    wide = space in ("global", "generic")
    base = a.base
    if base is None:
        if wide:
            return ctx.const(a.offset, 64), 0
        return rzero(), a.offset
    if isinstance(base, ast.Symbol):
        name = base.name
        if space in ("shared", "generic") and ctx.shared_offset(name) is not None:
            off = ctx.mod.shared_offsets[name] + a.offset
            if space == "shared":
                return rzero(), off
            return ctx.const(SHARED_WINDOW + off, 64), 0
        if space in ("local", "generic") and name in ctx.local_vars:
            # in the activation's frame (ops/frame.py): [R1 + offset]
            off = ctx.local_vars[name] + a.offset
            if space == "local":
                return stack_pointer(), off
            return ctx.pack([ctx.emit1(FrameAddrOp, [off]), LOCAL_WINDOW >> 32]), 0
        if space == "const" and name in ctx.mod.const_offsets:
            return rzero(), ctx.mod.const_offsets[name] + a.offset
        if space in ("global", "generic") and ctx.mod.global_vars.get(name) == "global":
            return ctx.global_address(name), a.offset
        ctx.symbol_address(base, "u64")  # diagnoses what it is
        ctx.error(f"'{name}' cannot be accessed in the .{space} space", a)
    reg = ctx.read_var(ctx.lookup(base.name, base)) if not ctx.is_special(base.name) else (
        ctx.value(base, "u64"))
    if wide:
        if not isinstance(reg.type, R64Type):
            ctx.error(f"a .{space} address needs a 64-bit register, '{base.name}' is 32-bit", a)
        return reg, a.offset
    if isinstance(reg.type, R64Type):
        reg = ctx.parts(reg)[0]
    elif not isinstance(reg.type, R32Type):
        ctx.error(f"'{base.name}' cannot hold an address", a)
    return reg, a.offset


# ----------------------------------------------------------------------------
# parameter buffers


def param_buffer(ctx: LoweringBuilder, a: ast.Operand) -> tuple[ParamBuffer, int]:
    if not isinstance(a, ast.Address) or not isinstance(a.base, ast.Symbol):
        ctx.unsupported(ctx.ins, "parameters are accessed through their name "  # type: ignore[arg-type]
                        "('[name+offset]'), not through a register")
    buf = ctx.param(a.base.name, a)
    if buf is None:
        ctx.error(f"'{a.base.name}' is not a parameter in scope", a)
    return buf, a.offset


def buffer_read(ctx: LoweringBuilder, buf: ParamBuffer, off: int, nbytes: int) -> SSAValue:
    """``nbytes`` (1, 2, 4, 8, 16) at ``off`` of a buffer, zero-extended to 32 bits
    when narrower."""
    if nbytes >= 4:
        if off % 4:
            ctx.unsupported(ctx.ins, f"a {nbytes}-byte parameter access at offset {off}")  # type: ignore[arg-type]
        words = [ctx.read_var(buf.word(off // 4 + k)) for k in range(nbytes // 4)]
        return words[0] if len(words) == 1 else ctx.pack(words)
    if off % 4 + nbytes > 4:
        ctx.unsupported(ctx.ins, f"a {nbytes}-byte parameter access at offset {off}")  # type: ignore[arg-type]
    w = ctx.read_var(buf.word(off // 4))
    sh = (off % 4) * 8
    if sh:
        w = ctx.emit1(ShrOp, [w, sh], mods="u32")
    return mask(ctx, w, nbytes * 8)


def buffer_write(ctx: LoweringBuilder, buf: ParamBuffer, off: int, nbytes: int,
                 value: SSAValue) -> None:
    if nbytes >= 4:
        if off % 4:
            ctx.unsupported(ctx.ins, f"a {nbytes}-byte parameter access at offset {off}")  # type: ignore[arg-type]
        words = [value] if isinstance(value.type, R32Type) else list(ctx.parts(value))
        for k, w in enumerate(words):
            _write_word(ctx, buf, off // 4 + k, w)
        return
    if off % 4 + nbytes > 4:
        ctx.unsupported(ctx.ins, f"a {nbytes}-byte parameter access at offset {off}")  # type: ignore[arg-type]
    sh = (off % 4) * 8
    m = ((1 << (nbytes * 8)) - 1) << sh
    v = mask(ctx, value, nbytes * 8)
    if sh:
        v = ctx.emit1(ShlOp, [v, sh])
    var = buf.word(off // 4)
    if nbytes * 8 >= 32:
        _write_word(ctx, buf, off // 4, v)
        return
    old = ctx.read_var(var)
    # (old & ~m) | v ; LUT for (a & ~b) | c with b = mask immediate
    cleared = ctx.emit1(Lop3Op, [old, m, rzero(), 0x30])
    new = ctx.emit1(Lop3Op, [cleared, v, rzero(), 0xFC])
    _write_word(ctx, buf, off // 4, new)


def _write_word(ctx: LoweringBuilder, buf: ParamBuffer, k: int, w: SSAValue) -> None:
    var = buf.word(k)
    if ctx.guard is not None:
        g, neg = ctx.guard
        op = MovOp.make([w], guard=g, guard_neg=neg, prior=[ctx.read_var(var)])
        ctx.add(op)
        w = op.results[0]
    ctx.write_var(var, w)


# ----------------------------------------------------------------------------
# lowerings


@lowers("mov")
def lower_mov(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if len(ins.operands) != 2 or len(ins.modifiers) != 1:
        ctx.error("mov takes a type and two operands", ins)
    t = ins.modifiers[0]
    d, a = ins.operands
    if isinstance(a, ast.Vector):
        ebits = type_bits(t) // len(a.elements)
        if ebits not in (8, 16, 32, 64) or ebits * len(a.elements) != type_bits(t):
            ctx.error(f"vector of {len(a.elements)} elements does not fill a .{t}", a)
        et = f"b{ebits}"
        vals = [ctx.value(e, et) for e in a.elements]
        ctx.set(d, combine(ctx, vals, ebits))
        return
    if isinstance(d, ast.Vector):
        ebits = type_bits(t) // len(d.elements)
        if ebits not in (8, 16, 32, 64) or ebits * len(d.elements) != type_bits(t):
            ctx.error(f"vector of {len(d.elements)} elements does not fill a .{t}", d)
        parts = explode(ctx, ctx.value(a, t), ebits, len(d.elements))
        for e, v in zip(d.elements, parts):
            if isinstance(e, ast.Register) and e.name != "_":
                ctx.set(e, v)
        return
    # mov does not take PTX's relaxed operand-size rule: ptxas rejects a
    # register of another width ("Arguments mismatch"), so ori does too.
    for r in (d, a):
        if isinstance(r, ast.Register) and not ctx.is_special(r.name) and r.name != "_":
            var = ctx.lookup(r.name, r)
            if var.type != "pred" and t != "pred" and type_bits(var.type) != type_bits(t):
                ctx.error(f"mov.{t} with {type_bits(var.type)}-bit register '{r.name}': "
                          "arguments mismatch (operands of mov must have the type's width)", r)
    ctx.set(d, ctx.value(a, t), signed=is_signed(t))


@lowers("cvta")
def lower_cvta(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = [m for m in ins.modifiers]
    to = "to" in mods
    space = next((m for m in mods if m in ("global", "shared", "local", "const", "param")), None)
    t = mods[-1]
    if space is None or t not in ("u32", "u64"):
        ctx.error("cvta needs a state space and .u32/.u64", ins)
    d, a = ins.operands
    if space == "global":
        ctx.set(d, ctx.value(a, t))
        return
    if space == "param":
        _cvta_param(ctx, ins, d, a, t, to)
        return
    if space not in ("shared", "local"):
        ctx.unsupported(ins, f"cvta for the .{space} space")
    window = SHARED_WINDOW if space == "shared" else LOCAL_WINDOW
    v = ctx.value(a, "u64") if not isinstance(a, ast.Symbol) else ctx.symbol_address(a, "u64")
    lo = ctx.parts(v)[0] if isinstance(v.type, R64Type) else v
    hi = 0 if to else window >> 32
    if t == "u32":
        ctx.set(d, lo)
    else:
        ctx.set(d, ctx.pack([lo, hi]))


def _cvta_param(ctx: LoweringBuilder, ins: ast.Instruction, d: ast.Operand, a: ast.Operand,
                t: str, to: bool) -> None:
    """``cvta.param`` / ``cvta.to.param`` of a kernel parameter's address (PTX
    ISA 9.7.9.17 "cvta": the generic address of a .param-space address).

    ptxas 13.0 adds the address to ``c[0x0][0x40]``, the generic address at
    which the driver maps constant bank 0 (``LD.E [R6.64+0x160]`` then reads
    the parameter).  Ori has no generic window onto constant bank 0; instead
    the kernel's parameter area is copied once, in the entry block, into a
    local-memory buffer (:func:`param_copy`), and the generic address is that
    buffer's address in the local window plus the .param offset.  Kernel
    parameters are read-only (a store through the address is undefined in
    PTX), so reading the copy gives what reading the parameters would."""
    if ctx.fn.kind != "entry":
        ctx.unsupported(ins, "cvta.param in a device function (its parameters are registers)")
    base = param_copy(ctx)
    v = ctx.value(a, "u64") if not isinstance(a, ast.Symbol) else ctx.symbol_address(a, "u64")
    lo = ctx.parts(v)[0] if isinstance(v.type, R64Type) else v
    # .param-space addresses and the copy's local offsets are below 2^32, and the
    # local window's low word is zero: only the low word changes, as for cvta.local
    # the copy is in the kernel's frame: its address is R1 + base (ops/frame.py)
    fa = ctx.emit1(FrameAddrOp, [base])
    lo = ctx.emit1(IAdd3Op, [lo, fa, rzero()], smods={"b": "neg"} if to else None)
    if t == "u32":
        ctx.set(d, lo)
    else:
        ctx.set(d, ctx.pack([lo, 0 if to else LOCAL_WINDOW >> 32]))


def param_copy(ctx: LoweringBuilder) -> int:
    """The local offset of the copy of the kernel's parameter area that
    ``cvta.param`` addresses point into, made on first use: the area's words
    are read from constant bank 0 (LDC) and stored to local memory (STL) at
    the end of the entry block, which dominates every use (the entry block is
    no branch target)."""
    if ctx.param_copy_at is not None:
        return ctx.param_copy_at
    layout = ctx.target.cbank0
    if layout is None:
        ctx.error(f"target {ctx.target.name} has no constant-bank layout")
    size = 0
    for p in ctx.fn.params:
        buf = ctx.param(p.name)
        if buf is not None and buf.cbank_offset is not None:
            size = max(size, buf.cbank_offset + buf.size)
    size = -(-size // 4) * 4
    base = ctx.local_bytes = -(-ctx.local_bytes // 16) * 16
    ctx.local_bytes += size
    ctx.param_copy_at = base
    saved, saved_guard = ctx.cur, ctx.guard
    ctx.cur, ctx.guard = ctx.entry, None
    try:
        for off in range(0, size, 4):
            w = ctx.emit1(LdcOp, [0, rzero(), layout.params + off], R32Type.unallocated(),
                          mods=width_of(32, False))
            ctx.emit(StlOp, [stack_pointer(), base + off, w], [], mods=width_of(32, False))
    finally:
        ctx.cur, ctx.guard = saved, saved_guard
    return base


@lowers("ld")
def lower_ld(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    m = Mods(ctx, ins)
    if len(ins.operands) != 2:
        ctx.error("ld takes a destination and an address", ins)
    d, a = ins.operands
    ebits = type_bits(m.type)
    signed = is_signed(m.type)
    dsts = elements(ctx, d, m.vec)
    total = ebits * m.vec
    if m.space == "param" and isinstance(a, ast.Address) and isinstance(a.base, ast.Register):
        _ld_param_indirect(ctx, m, a, d, dsts, ebits, signed)
        return
    if m.space == "param":
        buf, off = param_buffer(ctx, a)
        if buf.cbank_offset is not None:
            _ld_kernel_param(ctx, m, buf.cbank_offset + off, dsts, ebits, signed)
            return
        for i, e in enumerate(dsts):
            v = buffer_read(ctx, buf, off + i * ebits // 8, max(ebits // 8, 1))
            if signed and ebits < 32:
                v = sign_extend(ctx, v, ebits)
            if isinstance(e, ast.Register) and e.name != "_":
                ctx.set(e, v, signed=signed)
        return
    if m.space == "const":
        _ld_const(ctx, m, a, d, dsts, ebits, signed)
        return
    if total > 128:
        ctx.unsupported(ins, f"a {total}-bit access (at most 128 bits)")
    cls = _LOADS[m.space]
    base, off = address(ctx, a, m.space)
    if m.vec == 1:
        width = width_of(ebits, signed)
        rt = reg_class(m.type).unallocated() if ebits > 32 else R32Type.unallocated()
        op = ctx.emit_effect(cls, [base, off], [rt], mods=m.mods(width), dsts=[_dst(d)])
        v = op.results[0]
        _set_loaded(ctx, d, v, ebits, signed)
        return
    if total < 32:
        ctx.unsupported(ins, "vector loads narrower than 32 bits")
    width = width_of(total, False)
    rt = {32: R32Type, 64: R64Type, 128: R128Type}[total].unallocated()
    op = ctx.emit(cls, [base, off], [rt], mods=m.mods(width)) if ctx.guard is None else None
    if op is None:
        # A guarded vector load: the load carries the guard; elements that are
        # not loaded keep their values through the guarded moves of ``set``.
        op = ctx.emit_effect(cls, [base, off], [rt], mods=m.mods(width), dsts=[None])
    for e, v in zip(dsts, explode(ctx, op.results[0], ebits, m.vec)):
        if isinstance(e, ast.Register) and e.name != "_":
            if signed and ebits < 32:
                v = sign_extend(ctx, v, ebits)
            ctx.set(e, v, signed=signed)


def _dst(d: ast.Operand) -> ast.Operand | None:
    return d if isinstance(d, ast.Register) and d.name != "_" else None


def _set_loaded(ctx: LoweringBuilder, d: ast.Operand, v: SSAValue, ebits: int,
                signed: bool) -> None:
    if not isinstance(d, ast.Register):
        ctx.error("destination must be a register", d)
    if d.name == "_":
        return
    var = ctx.lookup(d.name, d)
    vbits = type_bits(var.type)
    narrow_fix = signed and ebits < 32 and vbits < 32
    if narrow_fix or reg_class(var.type) is not type(v.type):
        # The loaded value still needs an op to fit the register: that op's
        # result is wrapped in a guarded move by ``set``.
        if narrow_fix:
            v = mask(ctx, v, vbits)  # keep the narrow register zero-extended
        ctx.set(d, v, signed=signed)
    else:
        ctx.set(d, v, guarded=ctx.guard is not None)


def _ld_kernel_param(ctx: LoweringBuilder, m: Mods, off: int, dsts: list[ast.Operand],
                     ebits: int, signed: bool) -> None:
    layout = ctx.target.cbank0
    if layout is None:
        ctx.error(f"target {ctx.target.name} has no constant-bank layout")
    for i, e in enumerate(dsts):
        width = width_of(ebits, signed)
        rt = R64Type if ebits == 64 else (R128Type if ebits == 128 else R32Type)
        v = ctx.emit1(LdcOp, [0, rzero(), layout.params + off + i * ebits // 8], rt.unallocated(),
                      mods=width)
        if isinstance(e, ast.Register) and e.name != "_":
            var = ctx.lookup(e.name, e)
            if signed and ebits < 32 and type_bits(var.type) < 32:
                v = mask(ctx, v, type_bits(var.type))
            ctx.set(e, v, signed=signed)


def _ld_param_indirect(ctx: LoweringBuilder, m: Mods, a: ast.Address, d: ast.Operand,
                       dsts: list[ast.Operand], ebits: int, signed: bool) -> None:
    """``ld.param [%rd+off]`` in a kernel: ``%rd`` holds a .param-space address
    (``mov %rd, param``: the parameter's offset in the parameter area, PTX ISA
    5.1.6.1), so the load reads constant bank 0 at the parameter base plus the
    register (ptxas 13.0: ``LDC R0, c[0x0][R0+0x160]``).  A device function's
    parameters are registers, which have no address."""
    if ctx.fn.kind != "entry":
        ctx.unsupported(ctx.ins, "ld.param through a register in a device "  # type: ignore[arg-type]
                        "function (its parameters have no address)")
    layout = ctx.target.cbank0
    if layout is None:
        ctx.error(f"target {ctx.target.name} has no constant-bank layout")
    _ld_const(ctx, m, a, d, dsts, ebits, signed, bank=0, bias=layout.params)


def _ld_const(ctx: LoweringBuilder, m: Mods, a: ast.Operand, d: ast.Operand,
              dsts: list[ast.Operand], ebits: int, signed: bool, *, bank: int = CONST_BANK,
              bias: int = 0) -> None:
    """``ld.const``: user constants live in constant bank 3 (``CONST_BANK``, as
    ptxas places them); an address register holds the offset in the bank.
    ``bank``/``bias``: another bank and the offset the register is relative to
    (kernel parameters, :func:`_ld_param_indirect`)."""
    base, off = address(ctx, a, "const")
    off += bias
    # LDC cannot fault, so it runs unguarded; under a PTX guard ``set`` wraps
    # each destination in a guarded move.
    total = ebits * m.vec
    if total > 128:
        ctx.unsupported(ctx.ins, f"a {total}-bit access (at most 128 bits)")  # type: ignore[arg-type]
    if m.vec == 1:
        rt = reg_class(m.type).unallocated() if ebits > 32 else R32Type.unallocated()
        v = ctx.emit1(LdcOp, [bank, base, off], rt, mods=width_of(ebits, signed))
        if not isinstance(d, ast.Register):
            ctx.error("destination must be a register", d)
        if d.name != "_":
            var = ctx.lookup(d.name, d)
            if signed and ebits < 32 and type_bits(var.type) < 32:
                v = mask(ctx, v, type_bits(var.type))
            ctx.set(d, v, signed=signed)
        return
    if total < 32:
        # no narrow vector LDC: one LDC.U8/U16 per element (a constant bank
        # has no side effects, so splitting the access changes nothing)
        for i, e in enumerate(dsts):
            if isinstance(e, ast.Register) and e.name != "_":
                x = ctx.emit1(LdcOp, [bank, base, off + i * ebits // 8], R32Type.unallocated(),
                              mods=width_of(ebits, signed))
                var = ctx.lookup(e.name, e)
                if signed and type_bits(var.type) < 32:
                    x = mask(ctx, x, type_bits(var.type))  # narrow registers stay zero-extended
                ctx.set(e, x, signed=signed)
        return
    rt = {32: R32Type, 64: R64Type, 128: R128Type}[total].unallocated()
    v = ctx.emit1(LdcOp, [bank, base, off], rt, mods=width_of(total, False))
    for e, x in zip(dsts, explode(ctx, v, ebits, m.vec)):
        if isinstance(e, ast.Register) and e.name != "_":
            if signed and ebits < 32:
                x = sign_extend(ctx, x, ebits)
            ctx.set(e, x, signed=signed)


@lowers("st")
def lower_st(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    m = Mods(ctx, ins)
    if len(ins.operands) != 2:
        ctx.error("st takes an address and a value", ins)
    a, s = ins.operands
    ebits = type_bits(m.type)
    srcs = elements(ctx, s, m.vec)
    total = ebits * m.vec
    vals = [ctx.value(e, m.type if ebits >= 32 else f"b{ebits}") for e in srcs]
    if m.space == "param":
        buf, off = param_buffer(ctx, a)
        if buf.cbank_offset is not None:
            ctx.error(f"kernel parameter '{buf.name}' is read-only", a)
        for i, v in enumerate(vals):
            buffer_write(ctx, buf, off + i * ebits // 8, max(ebits // 8, 1), v)
        return
    if m.space == "const":
        ctx.error("the .const state space is read-only", ins)
    if total > 128:
        ctx.unsupported(ins, f"a {total}-bit access (at most 128 bits)")
    cls = _STORES[m.space]
    base, off = address(ctx, a, m.space)
    if m.vec == 1:
        v = vals[0]
        width = width_of(ebits, False)
    else:
        if total < 32:
            ctx.unsupported(ins, "vector stores narrower than 32 bits")
        v = combine(ctx, vals, ebits)
        width = width_of(total, False)
    ctx.emit_effect(cls, [base, off, v], [], mods=m.mods(width))


__all__ = ["address", "buffer_read", "buffer_write", "combine", "explode", "mask", "sign_extend"]
