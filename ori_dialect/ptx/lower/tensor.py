"""Tensor cores and asynchronous copies of sm_80: ``mma.sync``, ``ldmatrix``,
``wmma.{load,store,mma}`` and ``cp.async`` (see :mod:`ori_dialect.ops.tensor`
for the SASS forms).

* ``mma.sync.aligned.{m16n8k16,m16n8k8}.row.col`` with f16/bf16 inputs and
  f32 (or, for f16 inputs, f16) accumulators becomes one HMMA; the PTX
  register lists are packed into the aligned tuples HMMA reads (``ori.pack``)
  and the result split back (``ori.unpack``).
* ``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`` becomes LDSM.
* ``wmma`` (m16n16k16, f16 -> f16/f32 and bf16 -> f32): the PTX ISA leaves
  the fragment layout implementation-defined (9.7.14.5.1 "the layout of the
  fragments ... is unspecified"); ori uses the layout ptxas 13.0 gives it on
  sm_80, which the SASS shows: an ``a`` fragment is the m16n8k16 A fragment
  (its 4 words; the 8-register ``.f16`` form repeats them in registers 4-7),
  ``b`` holds the B fragments of columns 0-7 (words 0-1) and 8-15 (words
  2-3), and the accumulator those of the two 8-column halves (f32: registers
  0-3 and 4-7; f16: 0-1 and 2-3).  ``wmma.load``/``wmma.store`` become per
  lane 32-bit loads/stores of those words at addresses computed from
  ``%laneid`` (two 16-bit accesses where the layout makes a pair
  non-contiguous), and ``wmma.mma`` two HMMA.16816, one per column half.
* ``cp.async.{ca,cg}.shared.global`` becomes LDGSTS (``.cg`` = ``bypass``);
  the ``.L2::{64,128,256}B`` prefetch hint is LDGSTS's ``LTC64B`` /
  ``LTC128B`` / ``LTC256B`` (``LDGSTS.E.BYPASS.LTC128B.128``);
  a ``src-size`` operand below the copy size zero-fills as ptxas encodes it
  (``zfill``: the fill count in the low source-address bits, plus the
  predicate ``src-size != 0``); ``ignore-src`` is the negated predicate.
  ``cp.async.commit_group`` is LDGDEPBAR, ``cp.async.wait_group N`` is
  ``DEPBAR.LE SB0, N`` and ``cp.async.wait_all`` is LDGDEPBAR plus
  ``DEPBAR.LE SB0, 0``, as ptxas emits them.

Everything else of these families (other shapes, types, layouts, cache
hints) stops with one diagnostic naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type, R64Type, R128Type
from ori_dialect.ops.integer import IMadOp, Lop3Op, ShrOp
from ori_dialect.ops.memory import LdgOp, LdOp, LdsOp, StgOp, StOp, StsOp
from ori_dialect.ops.predicate import ISetPOp
from ori_dialect.ops.tensor import DepBarOp, HmmaOp, LdgDepBarOp, LdgstsOp, LdsmOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.data import address, join_word, rzero, split_word
from ori_dialect.ptx.lower.handlers import lowers

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

_PT = PredType.fixed()
_TYPE_FOR_BITS = {32: R32Type, 64: R64Type, 128: R128Type}


def _regs(ctx: LoweringBuilder, op: ast.Operand, n: int, what: str) -> list[ast.Operand]:
    elems = list(op.elements) if isinstance(op, ast.Vector) else [op]
    if len(elems) != n:
        ctx.error(f"{what} needs a vector of {n} registers, found {len(elems)}", op)
    return elems


def _tuple(ctx: LoweringBuilder, vals: Sequence[SSAValue]) -> SSAValue:
    return vals[0] if len(vals) == 1 else ctx.pack(list(vals))


def _set_all(ctx: LoweringBuilder, dsts: Sequence[ast.Operand], v: SSAValue) -> None:
    parts = [v] if isinstance(v.type, R32Type) else list(ctx.parts(v))
    for e, p in zip(dsts, parts):
        ctx.set(e, p)


def _no_guard(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    # The warp-wide forms need every lane of the warp (.sync.aligned): a
    # per-lane guard cannot be honoured.
    if ctx.guard is not None:
        ctx.unsupported(ins, f"a guarded '{ins.opcode}' (.sync.aligned needs the whole warp)")


# ----------------------------------------------------------------------
# mma.sync
# ----------------------------------------------------------------------
@lowers("mma")
def lower_mma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    name = "mma." + ".".join(mods)
    if mods[:2] != ["sync", "aligned"] or len(mods) != 9:
        ctx.unsupported(ins, f"'{name}' (ori models mma.sync.aligned.SHAPE.row.col.D.A.B.C)")
    shape, alay, blay, dt, at, bt, ct = mods[2:]
    if shape not in ("m16n8k16", "m16n8k8"):
        ctx.unsupported(ins, f"mma shape .{shape} (ori models m16n8k16 and m16n8k8)")
    if (alay, blay) != ("row", "col"):
        ctx.unsupported(ins, f"mma layout .{alay}.{blay} (the f16/bf16 shapes take .row.col)")
    ok = at == bt and dt == ct and (
        (at == "f16" and dt in ("f16", "f32")) or (at == "bf16" and dt == "f32"))
    if not ok:
        ctx.unsupported(ins, f"mma types .{dt}.{at}.{bt}.{ct} (ori models .f32.f16.f16.f32, "
                             ".f16.f16.f16.f16 and .f32.bf16.bf16.f32)")
    _no_guard(ctx, ins)
    if len(ins.operands) != 4:
        ctx.error("mma takes four operands: d, a, b, c", ins)
    d, a, b, c = ins.operands
    k = 16 if shape == "m16n8k16" else 8
    nacc = 4 if dt == "f32" else 2
    ctype = "f32" if dt == "f32" else "b32"
    av = _tuple(ctx, [ctx.value(e, "b32") for e in _regs(ctx, a, k // 4, "mma's A")])
    bv = _tuple(ctx, [ctx.value(e, "b32") for e in _regs(ctx, b, k // 8, "mma's B")])
    cv = _tuple(ctx, [ctx.value(e, ctype) for e in _regs(ctx, c, nacc, "mma's C")])
    dsts = _regs(ctx, d, nacc, "mma's D")
    mod = f"{shape}.{dt}" + (".bf16" if at == "bf16" else "")
    dv = ctx.emit1(HmmaOp, [av, bv, cv], _TYPE_FOR_BITS[32 * nacc].unallocated(), mods=mod)
    _set_all(ctx, dsts, dv)


# ----------------------------------------------------------------------
# ldmatrix
# ----------------------------------------------------------------------
@lowers("ldmatrix")
def lower_ldmatrix(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = [m for m in ins.modifiers if m not in ("sync", "aligned")]
    name = "ldmatrix." + ".".join(ins.modifiers)
    count = {"x1": 1, "x2": 2, "x4": 4}
    num = next((m for m in mods if m in count), None)
    trans = "trans" in mods
    rest = [m for m in mods if m not in count and m != "trans"]
    if num is None or sorted(rest) not in (["b16", "m8n8", "shared"], ["b16", "m8n8", "shared::cta"]):
        ctx.unsupported(ins, f"'{name}' (ori models ldmatrix.sync.aligned.m8n8.x1/.x2/.x4"
                             "[.trans].shared.b16)")
    _no_guard(ctx, ins)
    d, a = ins.operands
    n = count[num]
    dsts = _regs(ctx, d, n, "ldmatrix")
    base, off = address(ctx, a, "shared")
    mod = "b16." + ("mt88" if trans else "m88") + ("" if n == 1 else f".x{n}")
    v = ctx.emit1(LdsmOp, [base, off], _TYPE_FOR_BITS[32 * n].unallocated(), mods=mod)
    _set_all(ctx, dsts, v)


# ----------------------------------------------------------------------
# cp.async
# ----------------------------------------------------------------------
_L2_PREFETCH = {"L2::64B": "ltc64b", "L2::128B": "ltc128b", "L2::256B": "ltc256b"}
"""The ``.L2::{64,128,256}B`` prefetch-size hint of cp.async -> LDGSTS's ``l2``
modifier: ptxas 13.0 prints ``LDGSTS.E[.BYPASS].LTC{64,128,256}B[.64|.128]``
for ``.ca`` and ``.cg`` alike (sm_80 and sm_90a, ``cuobjdump -sass``)."""


@lowers("cp")
def lower_cp(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    name = "cp." + ".".join(mods)
    if not mods or mods[0] != "async":
        ctx.unsupported(ins, f"'{name}'")
    rest = mods[1:]
    if rest == ["commit_group"]:
        ctx.emit_effect(LdgDepBarOp, [], [])
        return
    if rest == ["wait_all"]:  # PTX ISA 9.7.9.25.5: commit_group; wait_group 0
        ctx.emit_effect(LdgDepBarOp, [], [])
        ctx.emit_effect(DepBarOp, [0], [], mods="le.SB0")
        return
    if rest == ["wait_group"]:
        if len(ins.operands) != 1 or not isinstance(ins.operands[0], ast.Immediate):
            ctx.error("cp.async.wait_group takes an integer constant", ins)
        n = int(ins.operands[0].value)
        if not 0 <= n <= 63:
            ctx.error(f"cp.async.wait_group {n}: the count must be in 0..63", ins.operands[0])
        ctx.emit_effect(DepBarOp, [n], [], mods="le.SB0")
        return
    cache = rest[0] if rest else ""
    spaces = [m for m in rest[1:] if not m.startswith("L2::")]
    hints = [m for m in rest[1:] if m.startswith("L2::")]
    if cache not in ("ca", "cg") or spaces not in (["shared", "global"], ["shared::cta", "global"]) \
            or any(h not in _L2_PREFETCH for h in hints) or len(hints) > 1:
        ctx.unsupported(ins, f"'{name}' (ori models cp.async.ca/.cg.shared.global with an "
                             "optional L2 prefetch size)")
    ops = ins.operands
    if len(ops) not in (3, 4):
        ctx.error("cp.async takes [dst], [src], cp-size and an optional src-size or ignore-src",
                  ins)
    size_op = ops[2]
    if not isinstance(size_op, ast.Immediate) or int(size_op.value) not in (4, 8, 16):
        ctx.error("cp.async's cp-size must be 4, 8 or 16", size_op)
    size = int(size_op.value)
    if cache == "cg" and size != 16:
        ctx.error("cp.async.cg copies 16 bytes", size_op)
    dbase, doff = address(ctx, ops[0], "shared")
    sbase, soff = address(ctx, ops[1], "global")
    srcs: list[object] = [dbase, doff, sbase, soff]
    smods: dict[str, str] | None = None
    zfill = False
    if len(ops) == 4:
        extra = ops[3]
        if isinstance(extra, ast.Register) and not ctx.is_special(extra.name) and \
                ctx.lookup(extra.name, extra).type == "pred":
            # ignore-src: true means "do not read the source" (zero-fill)
            srcs.append(ctx.value(extra, "pred"))
            smods = {"valid": "not"}
        elif isinstance(extra, ast.Immediate):
            n = int(extra.value)
            if not 0 <= n <= size:
                ctx.error(f"cp.async src-size {n} is larger than cp-size {size}", extra)
            if n < size:
                zfill = True
                if n:
                    srcs[3] = soff + (size - n)
                    srcs.append(_PT)
                else:
                    srcs.append(_PT)
                    smods = {"valid": "not"}
        else:
            nreg = ctx.value(extra, "u32")
            # fill = (size - n) & (size - 1) goes into the source address
            # (ptxas: IADD3 + LOP3, then the 64-bit add); valid = n != 0.
            t = ctx.emit1(IMadOp, [nreg, 0xFFFFFFFF, size])  # size - n
            fill = ctx.emit1(Lop3Op, [t, size - 1, rzero(), 0xC0])
            srcs[2] = ctx.emit1(IMadOp, [fill, 1, sbase], R64Type.unallocated(), mods="wide.u32")
            p = ctx.emit1(ISetPOp, [nreg, rzero(), _PT], PredType.unallocated(), mods="ne.u32")
            srcs.append(p)
            zfill = True
    l2 = _L2_PREFETCH[hints[0]] if hints else ""
    mod = ".".join(x for x in ("bypass" if cache == "cg" else "", l2, f"b{size * 8}",
                               "zfill" if zfill else "") if x)
    ctx.emit_effect(LdgstsOp, srcs, [], mods=mod, smods=smods)


# ----------------------------------------------------------------------
# wmma
# ----------------------------------------------------------------------
_WMMA_SPACES = {"global": (LdgOp, StgOp), "shared": (LdsOp, StsOp), "generic": (LdOp, StOp)}


class _Lane:
    """Per-lane fragment coordinates: ``g = laneid >> 2`` and ``2t = 2*(laneid & 3)``."""

    def __init__(self, ctx: LoweringBuilder) -> None:
        lane = ctx.value(ast.Register("%laneid"), "u32")
        self.g = ctx.emit1(ShrOp, [lane, 2], mods="u32")
        t = ctx.emit1(Lop3Op, [lane, 3, rzero(), 0xC0])
        self.t2 = ctx.emit1(IMadOp, [t, 2, rzero()])


def _wmma_addresses(ctx: LoweringBuilder, ins: ast.Instruction, space: str, ptr: ast.Operand,
                    stride: ast.Operand | None, row_major: bool, ebytes: int,
                    pairs_along_cols: bool) -> tuple[SSAValue, int, SSAValue | int]:
    """(lane base address, constant byte offset, stride in elements) of the
    fragment element ``(g, 2t)`` for a matrix whose element ``(r, c)`` lies at
    ``(r*stride + c)`` (row-major) or ``(c*stride + r)`` (column-major)."""
    base, off = address(ctx, ptr, space)
    lane = _Lane(ctx)
    s: SSAValue | int
    if stride is None:
        s = 16  # PTX ISA 9.7.14.4: the default stride is the fragment's leading dimension
    elif isinstance(stride, ast.Immediate):
        s = int(stride.value)
    else:
        s = ctx.value(stride, "u32")
    # the element offset of (row, col) = (g, 2t) for A/C, (k, n) = (2t, g) for B
    row, col = (lane.g, lane.t2) if pairs_along_cols else (lane.t2, lane.g)
    rs, cs = (s, 1) if row_major else (1, s)
    e = ctx.emit1(IMadOp, [row, rs, rzero()] if isinstance(rs, int) else [rs, row, rzero()])
    e = ctx.emit1(IMadOp, [col, cs, e] if isinstance(cs, int) else [cs, col, e])
    if isinstance(base.type, R64Type):
        addr = ctx.emit1(IMadOp, [e, ebytes, base], R64Type.unallocated(), mods="wide.u32")
    else:
        addr = ctx.emit1(IMadOp, [e, ebytes, base])
    return addr, off, s


def _word_address(ctx: LoweringBuilder, addr: SSAValue, off: int, s: SSAValue | int,
                  dr: int, dc: int, row_major: bool, ebytes: int) -> tuple[SSAValue, int]:
    """``addr`` moved by ``dr`` rows and ``dc`` columns: (register, byte offset)."""
    along_s, along_1 = (dr, dc) if row_major else (dc, dr)
    if isinstance(s, int):
        return addr, off + (along_s * s + along_1) * ebytes
    if along_s == 0:
        return addr, off + along_1 * ebytes
    if isinstance(addr.type, R64Type):
        moved = ctx.emit1(IMadOp, [s, along_s * ebytes, addr], R64Type.unallocated(),
                          mods="wide.u32")
    else:
        moved = ctx.emit1(IMadOp, [s, along_s * ebytes, addr])
    return moved, off + along_1 * ebytes


def _wmma_mods(ctx: LoweringBuilder, ins: ast.Instruction) -> tuple[str, str, str, str]:
    """(matrix a/b/c/d, layout, space, type) of a wmma.load/store."""
    mods = list(ins.modifiers)
    name = "wmma." + ".".join(mods)
    frag = mods[1] if len(mods) > 1 else ""
    rest = [m for m in mods[2:] if m not in ("sync", "aligned")]
    layout = next((m for m in rest if m in ("row", "col")), "")
    space = next((m for m in rest if m in ("global", "shared", "shared::cta")), "generic")
    space = "shared" if space == "shared::cta" else space
    ty = rest[-1] if rest else ""
    known = {layout, space, ty, "m16n16k16", "generic"}
    if "m16n16k16" not in rest:
        ctx.unsupported(ins, f"'{name}' (ori models the wmma shape m16n16k16)")
    if not layout or any(m not in known and m != "shared::cta" for m in rest):
        ctx.unsupported(ins, f"'{name}'")
    return frag, layout, space, ty


@lowers("wmma")
def lower_wmma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    kind = ins.modifiers[0] if ins.modifiers else ""
    if kind == "mma":
        _wmma_mma(ctx, ins)
    elif kind in ("load", "store"):
        _wmma_memory(ctx, ins, kind == "store")
    else:
        ctx.unsupported(ins, f"'wmma.{'.'.join(ins.modifiers)}'")


def _wmma_memory(ctx: LoweringBuilder, ins: ast.Instruction, store: bool) -> None:
    frag, layout, space, ty = _wmma_mods(ctx, ins)
    name = "wmma." + ".".join(ins.modifiers)
    _no_guard(ctx, ins)
    valid = {("a", "f16"), ("b", "f16"), ("a", "bf16"), ("b", "bf16"), ("c", "f16"),
             ("c", "f32")} if not store else {("d", "f16"), ("d", "f32")}
    if (frag, ty) not in valid:
        ctx.unsupported(ins, f"'{name}' (fragment .{frag} of type .{ty})")
    row_major = layout == "row"
    ops = ins.operands
    if len(ops) not in (2, 3):
        ctx.error("wmma.load/store take a fragment, an address and an optional stride", ins)
    ptr, frag_op = (ops[0], ops[1]) if store else (ops[1], ops[0])
    stride = ops[2] if len(ops) == 3 else None
    ebytes = 4 if ty == "f32" else 2
    # (row, column) offsets of each 32-bit word from the lane's (g, 2t) element
    if frag == "a" or frag == "b":
        words = [(0, 0), (8, 0), (0, 8), (8, 8)]
        nregs = 8 if ty == "f16" else 4
    elif ty == "f32":  # accumulator elements, one per register: halves 0-7 and 8-15
        words = [(r8 + 0, c8 + j) for c8 in (0, 8) for r8 in (0, 8) for j in (0, 1)]
        nregs = 8
    else:
        words = [(r8, c8) for c8 in (0, 8) for r8 in (0, 8)]
        nregs = 4
    regs = _regs(ctx, frag_op, nregs, f"a .{frag}.{ty} fragment")
    pairs_along_cols = frag != "b"
    addr, off, s = _wmma_addresses(ctx, ins, space, ptr, stride, row_major, ebytes,
                                   pairs_along_cols)
    load_cls, store_cls = _WMMA_SPACES[space]
    # a pair of 16-bit elements is one 32-bit word in memory when it runs
    # along the layout's contiguous dimension
    contiguous = ebytes == 4 or (row_major == pairs_along_cols)
    second = (0, 1) if pairs_along_cols else (1, 0)
    vals: list[SSAValue] = []
    for i, (dr, dc) in enumerate(words):
        a0, o0 = _word_address(ctx, addr, off, s, dr, dc, row_major, ebytes)
        if store:
            v = ctx.value(regs[i], "b32")
            if contiguous:
                ctx.emit_effect(store_cls, [a0, o0, v], [], mods="b32")
            else:
                lo, hi = split_word(ctx, v, 16)
                a1, o1 = _word_address(ctx, addr, off, s, dr + second[0], dc + second[1],
                                       row_major, ebytes)
                ctx.emit_effect(store_cls, [a0, o0, lo], [], mods="u16")
                ctx.emit_effect(store_cls, [a1, o1, hi], [], mods="u16")
            continue
        if contiguous:
            vals.append(ctx.emit1(load_cls, [a0, o0], R32Type.unallocated(), mods="b32"))
        else:
            a1, o1 = _word_address(ctx, addr, off, s, dr + second[0], dc + second[1],
                                   row_major, ebytes)
            lo = ctx.emit1(load_cls, [a0, o0], R32Type.unallocated(), mods="u16")
            hi = ctx.emit1(load_cls, [a1, o1], R32Type.unallocated(), mods="u16")
            vals.append(join_word(ctx, [lo, hi], 16))
    if store:
        return
    if frag in ("a", "b") and nregs == 8:
        vals = vals + vals  # .f16: registers 4-7 repeat 0-3
    for e, v in zip(regs, vals):
        ctx.set(e, v)


def _wmma_mma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = [m for m in ins.modifiers[1:] if m not in ("sync", "aligned")]
    name = "wmma." + ".".join(ins.modifiers)
    if len(mods) < 5 or mods[2] != "m16n16k16" or any(m not in ("row", "col") for m in mods[:2]):
        ctx.unsupported(ins, f"'{name}' (ori models wmma.mma.sync.aligned.LAYOUTS.m16n16k16)")
    types = mods[3:]
    if types == ["f32", "f32"]:
        dt, bf16 = "f32", False
    elif types == ["f16", "f16"]:
        dt, bf16 = "f16", False
    elif types == ["f32", "bf16", "bf16", "f32"]:
        dt, bf16 = "f32", True
    else:
        ctx.unsupported(ins, f"wmma types .{'.'.join(types)} (ori models .f32.f32, .f16.f16 "
                             "and .f32.bf16.bf16.f32)")
    _no_guard(ctx, ins)
    d, a, b, c = ins.operands
    nin = 4 if bf16 else 8
    nacc = 8 if dt == "f32" else 4
    ctype = "f32" if dt == "f32" else "b32"
    av = [ctx.value(e, "b32") for e in _regs(ctx, a, nin, "wmma's A")]
    bv = [ctx.value(e, "b32") for e in _regs(ctx, b, nin, "wmma's B")]
    cv = [ctx.value(e, ctype) for e in _regs(ctx, c, nacc, "wmma's C")]
    dsts = _regs(ctx, d, nacc, "wmma's D")
    half = nacc // 2
    mod = f"m16n8k16.{dt}" + (".bf16" if bf16 else "")
    acc_t = _TYPE_FOR_BITS[32 * half]
    atuple = ctx.pack(av[:4])
    for h in range(2):
        bt = ctx.pack(bv[2 * h:2 * h + 2])
        ct = ctx.pack(cv[half * h:half * (h + 1)])
        dv = ctx.emit1(HmmaOp, [atuple, bt, ct], acc_t.unallocated(), mods=mod)
        _set_all(ctx, dsts[half * h:half * (h + 1)], dv)


__all__ = ["lower_cp", "lower_ldmatrix", "lower_mma", "lower_wmma"]
