"""Tensor cores and asynchronous copies of sm_80: ``mma.sync``, ``ldmatrix``,
``wmma.{load,store,mma}`` and ``cp.async`` (see :mod:`ori_dialect.ops.tensor`
for the SASS forms).

* ``mma.sync.aligned.SHAPE.row.col`` becomes one HMMA for f16/bf16 inputs
  (m16n8k16, m16n8k8) with f32 (or, for f16 inputs, f16) accumulators and
  for tf32 inputs (m16n8k8, m16n8k4) with f32 accumulators, and one IMMA for
  s8/u8 inputs in any mix (m16n8k32, m16n8k16, ``.satfinite`` or not) with
  s32 accumulators; the PTX register lists are packed into the aligned
  tuples the op reads (``ori.pack``) and the result split back
  (``ori.unpack``).
* ``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`` becomes LDSM
  (Triton loads tf32 and int8 fragments with it too: a b16 pair is half a
  tf32 element or two int8 ones, and the lane ownership is the same).
* ``wmma`` (m16n16k16: f16 -> f16/f32, bf16 -> f32, s8/u8 -> s32; m16n16k8:
  tf32 -> f32): the PTX ISA leaves the fragment layout implementation-defined
  (9.7.14.5.1 "the layout of the fragments ... is unspecified"); ori uses
  the layout ptxas 13.0 gives it on sm_80, which the SASS shows: an ``a``
  fragment is the A fragment of the m16n8 MMA that wmma.mma runs (f16/bf16:
  m16n8k16's 4 words, the 8-register ``.f16`` form repeating them in
  registers 4-7; tf32: m16n8k8's ``A[g][t], A[g+8][t], A[g][t+4],
  A[g+8][t+4]``; s8/u8: m16n8k16's rows g and g+8), ``b`` holds the B
  fragments of columns 0-7 and then 8-15 (f16/bf16: words 0-1 and 2-3;
  tf32: ``B[t][g], B[t+4][g]`` then column g+8; s8/u8: one word each), and
  the accumulator those of the two 8-column halves (f32/s32: registers 0-3
  and 4-7; f16: 0-1 and 2-3).  ``wmma.load``/``wmma.store`` become per lane
  32-bit loads/stores of those words at addresses computed from ``%laneid``
  (two 16-bit or four 8-bit accesses where the layout makes a word's
  elements non-contiguous), and ``wmma.mma`` two HMMA.16816 or IMMA.16816,
  one per column half, or, for tf32, four HMMA.1684 (k 0-3, then k 4-7, of
  each half), as ptxas emits them.
* ``cvt.rna.tf32.f32`` (in :mod:`.convert`) is what ptxas makes of it on
  sm_80 and sm_90: ``x + 0x1000`` on the bit pattern unless ``|x|`` is
  infinite or NaN, the low 13 bits left for the MMA to ignore.
* ``cp.async.{ca,cg}.shared.global`` becomes LDGSTS (``.cg`` = ``bypass``);
  the ``.L2::{64,128,256}B`` prefetch hint is LDGSTS's ``LTC64B`` /
  ``LTC128B`` / ``LTC256B`` (``LDGSTS.E.BYPASS.LTC128B.128``);
  a ``src-size`` operand below the copy size zero-fills as ptxas encodes it
  (``zfill``: the fill count in the low source-address bits, plus the
  predicate ``src-size != 0``), a register ``src-size`` that is 0 or the
  copy size on every path (``selp`` of the two: Triton's masks) by the
  predicate alone; ``ignore-src`` is the negated predicate.
  ``cp.async.commit_group`` is LDGDEPBAR, ``cp.async.wait_group N`` is
  ``DEPBAR.LE SB0, N`` and ``cp.async.wait_all`` is LDGDEPBAR plus
  ``DEPBAR.LE SB0, 0``, as ptxas emits them.

Everything else of these families (other shapes, types, layouts, cache
hints) stops with one diagnostic naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType, R32Type, R64Type, R128Type
from ori_dialect.ops.integer import IMadOp, Lop3Op, MovOp, SelOp, ShrOp
from ori_dialect.ops.memory import LdgOp, LdOp, LdsOp, StgOp, StOp, StsOp
from ori_dialect.ops.predicate import ISetPOp
from ori_dialect.ops.tensor import (
    IMMA_SHAPES,
    DepBarOp,
    HmmaOp,
    ImmaOp,
    LdgDepBarOp,
    LdgstsOp,
    LdsmOp,
    fragment_registers,
)
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
_FLOAT_MMA: dict[tuple[str, str], tuple[str, ...]] = {
    ("f32", "f16"): ("m16n8k16", "m16n8k8"),
    ("f16", "f16"): ("m16n8k16", "m16n8k8"),
    ("f32", "bf16"): ("m16n8k16", "m16n8k8"),
    ("f32", "tf32"): ("m16n8k8", "m16n8k4"),
}
"""(D/C type, A/B type) -> the shapes HMMA models for them."""
_INT8 = ("s8", "u8")
_MODELLED = (".f32.f16.f16.f32, .f16.f16.f16.f16, .f32.bf16.bf16.f32, .f32.tf32.tf32.f32 "
             "and .s32.{s8,u8}.{s8,u8}.s32")


@lowers("mma")
def lower_mma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    name = "mma." + ".".join(mods)
    sat = "satfinite" in mods
    core = [m for m in mods if m != "satfinite"]
    if core[:2] != ["sync", "aligned"] or len(core) != 9 or mods.count("satfinite") > 1:
        ctx.unsupported(ins, f"'{name}' (ori models mma.sync.aligned.SHAPE.row.col"
                             "[.satfinite].D.A.B.C)")
    shape, alay, blay, dt, at, bt, ct = core[2:]
    integer = dt == ct == "s32" and at in _INT8 and bt in _INT8
    if not integer and not (at == bt and dt == ct and (dt, at) in _FLOAT_MMA):
        ctx.unsupported(ins, f"mma types .{dt}.{at}.{bt}.{ct} (ori models {_MODELLED})")
    shapes = IMMA_SHAPES if integer else _FLOAT_MMA[(dt, at)]
    if shape not in shapes:
        what = f".{at}.{bt}" if integer else f".{at}"
        ctx.unsupported(ins, f"mma shape .{shape} with {what} inputs (ori models "
                             f"{' and '.join(shapes)} for them)")
    if (alay, blay) != ("row", "col"):
        ctx.unsupported(ins, f"mma layout .{alay}.{blay} (these shapes take .row.col)")
    if sat and not integer:
        ctx.unsupported(ins, f"mma .satfinite on .{at} inputs (ori models it on s8/u8)")
    _no_guard(ctx, ins)
    if len(ins.operands) != 4:
        ctx.error("mma takes four operands: d, a, b, c", ins)
    d, a, b, c = ins.operands
    k = int(shape.rsplit("k", 1)[1])
    ebits = 8 if integer else 32 if at == "tf32" else 16
    na, nb = fragment_registers(k, ebits)
    nacc = 2 if dt == "f16" else 4
    ctype = "f32" if dt == "f32" else "b32"
    av = _tuple(ctx, [ctx.value(e, "b32") for e in _regs(ctx, a, na, "mma's A")])
    bv = _tuple(ctx, [ctx.value(e, "b32") for e in _regs(ctx, b, nb, "mma's B")])
    cv = _tuple(ctx, [ctx.value(e, ctype) for e in _regs(ctx, c, nacc, "mma's C")])
    dsts = _regs(ctx, d, nacc, "mma's D")
    if integer:
        mod = f"{shape}.{at}.{bt}" + (".sat" if sat else "")
        dv = ctx.emit1(ImmaOp, [av, bv, cv], R128Type.unallocated(), mods=mod)
    else:
        mod = f"{shape}.{dt}" + (f".{at}" if at != "f16" else "")
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
            if _all_or_nothing(nreg, size):
                # n is 0 or the copy size (Triton's selp.b32 %r, 4, 0, %p):
                # the fill is 0, only valid = n != 0 is left, as ptxas emits
                # it (ISETP.NE.U32.AND P0, PT, R52, RZ, PT / LDGSTS.E.LTC128B
                # [R55], [R60.64], P0)
                srcs.append(ctx.emit1(ISetPOp, [nreg, rzero(), _PT], PredType.unallocated(),
                                      mods="ne.u32"))
                ctx.emit_effect(LdgstsOp, srcs, [], mods=_ldgsts_mods(cache, hints, size, False))
                return
            # fill = (size - n) & (size - 1) goes into the source address
            # (ptxas: IADD3 + LOP3, then the 64-bit add); valid = n != 0.
            t = ctx.emit1(IMadOp, [nreg, 0xFFFFFFFF, size])  # size - n
            fill = ctx.emit1(Lop3Op, [t, size - 1, rzero(), 0xC0])
            srcs[2] = ctx.emit1(IMadOp, [fill, 1, sbase], R64Type.unallocated(), mods="wide.u32")
            p = ctx.emit1(ISetPOp, [nreg, rzero(), _PT], PredType.unallocated(), mods="ne.u32")
            srcs.append(p)
            zfill = True
    ctx.emit_effect(LdgstsOp, srcs, [], mods=_ldgsts_mods(cache, hints, size, zfill),
                    smods=smods)


def _ldgsts_mods(cache: str, hints: Sequence[str], size: int, zfill: bool) -> str:
    l2 = _L2_PREFETCH[hints[0]] if hints else ""
    return ".".join(x for x in ("bypass" if cache == "cg" else "", l2, f"b{size * 8}",
                                "zfill" if zfill else "") if x)


def _all_or_nothing(v: SSAValue, size: int, depth: int = 4) -> bool:
    """``v`` is 0 or ``size`` whatever the path: an unguarded ``MOV`` of
    either, or a ``SEL`` between two such values (PTX ``selp``, nested as
    Triton nests its masks)."""
    op = v.owner
    if isinstance(op, MovOp) and op.guard is None:
        a = op.src("a")
        return isinstance(a, IntegerAttr) and a.value.data & 0xFFFFFFFF in (0, size)
    if isinstance(op, SelOp) and op.guard is None and depth and not op.smod_map():
        return all(
            (isinstance(x, IntegerAttr) and x.value.data & 0xFFFFFFFF in (0, size))
            or (isinstance(x, R32Type) and x.is_fixed)
            or (isinstance(x, SSAValue) and _all_or_nothing(x, size, depth - 1))
            for x in (op.src("a"), op.src("b")))
    return False


# ----------------------------------------------------------------------
# wmma
# ----------------------------------------------------------------------
_WMMA_SPACES = {"global": (LdgOp, StgOp), "shared": (LdsOp, StsOp), "generic": (LdOp, StOp)}

_WMMA_SHAPE_OF = {"f16": "m16n16k16", "bf16": "m16n16k16", "s8": "m16n16k16",
                  "u8": "m16n16k16", "tf32": "m16n16k8"}
"""The one wmma shape ori models per input type (accumulators: either)."""


@dataclass(frozen=True)
class _Frag:
    """How one wmma fragment lies in memory for a lane: the lane's first
    element is ``(g, per*t)`` (A and C: row, column) or ``(per*t, g)`` (B:
    k, n); register word ``i`` starts ``words[i]`` (rows, columns) -- for B
    (k, n) -- from there and holds ``per`` elements of ``ebytes`` bytes
    running along the columns (A, C) or along k (B)."""

    words: tuple[tuple[int, int], ...]
    per: int
    ebytes: int
    along_cols: bool
    repeat: bool = False  # .f16 A/B: registers 4-7 repeat 0-3


_QUADS = ((0, 0), (8, 0), (0, 8), (8, 8))
_ACC32 = tuple((r8, c8 + j) for c8 in (0, 8) for r8 in (0, 8) for j in (0, 1))


def _fragment(frag: str, ty: str) -> _Frag | None:
    """The fragment layout (module docstring) of ``.frag`` of type ``.ty``."""
    if frag in ("a", "b"):
        if ty in ("f16", "bf16"):
            return _Frag(_QUADS, 2, 2, frag == "a", repeat=ty == "f16")
        if ty == "tf32":  # the m16n8k8 fragments: A (g|g+8, t|t+4), B (t|t+4, g|g+8)
            words = ((0, 0), (8, 0), (0, 4), (8, 4)) if frag == "a" else \
                ((0, 0), (4, 0), (0, 8), (4, 8))
            return _Frag(words, 1, 4, frag == "a")
        if ty in _INT8:  # the m16n8k16 fragments: A rows g, g+8; B columns g, g+8
            return _Frag(((0, 0), (8, 0)) if frag == "a" else ((0, 0), (0, 8)), 4, 1,
                         frag == "a")
        return None
    if ty in ("f32", "s32"):
        return _Frag(_ACC32, 2, 4, True)
    if ty == "f16":
        return _Frag(tuple((r8, c8) for c8 in (0, 8) for r8 in (0, 8)), 2, 2, True)
    return None


def _leading_dimension(frag: str, shape: str, row_major: bool) -> int:
    """PTX ISA 9.7.14.4: the default stride is the matrix's leading dimension
    (A is 16xK, B Kx16, C/D 16x16)."""
    k = int(shape.rsplit("k", 1)[1])
    if frag == "a":
        return k if row_major else 16
    if frag == "b":
        return 16 if row_major else k
    return 16


class _Lane:
    """Per-lane fragment coordinates: ``g = laneid >> 2`` and ``per*(laneid & 3)``."""

    def __init__(self, ctx: LoweringBuilder, per: int) -> None:
        lane = ctx.value(ast.Register("%laneid"), "u32")
        self.g = ctx.emit1(ShrOp, [lane, 2], mods="u32")
        t = ctx.emit1(Lop3Op, [lane, 3, rzero(), 0xC0])
        self.t = ctx.emit1(IMadOp, [t, per, rzero()]) if per != 1 else t


def _wmma_addresses(ctx: LoweringBuilder, space: str, ptr: ast.Operand,
                    stride: ast.Operand | None, default: int, row_major: bool, lay: _Frag,
                    ) -> tuple[SSAValue, int, SSAValue | int]:
    """(lane base address, constant byte offset, stride in elements) of the
    lane's first fragment element for a matrix whose element ``(r, c)`` lies
    at ``(r*stride + c)`` (row-major) or ``(c*stride + r)`` (column-major)."""
    base, off = address(ctx, ptr, space)
    lane = _Lane(ctx, lay.per)
    s: SSAValue | int
    if stride is None:
        s = default
    elif isinstance(stride, ast.Immediate):
        s = int(stride.value)
    else:
        s = ctx.value(stride, "u32")
    row, col = (lane.g, lane.t) if lay.along_cols else (lane.t, lane.g)
    rs, cs = (s, 1) if row_major else (1, s)
    e = ctx.emit1(IMadOp, [row, rs, rzero()] if isinstance(rs, int) else [rs, row, rzero()])
    e = ctx.emit1(IMadOp, [col, cs, e] if isinstance(cs, int) else [cs, col, e])
    if isinstance(base.type, R64Type):
        addr = ctx.emit1(IMadOp, [e, lay.ebytes, base], R64Type.unallocated(), mods="wide.u32")
    else:
        addr = ctx.emit1(IMadOp, [e, lay.ebytes, base])
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


def _wmma_mods(ctx: LoweringBuilder, ins: ast.Instruction) -> tuple[str, str, str, str, str]:
    """(matrix a/b/c/d, layout, space, shape, type) of a wmma.load/store."""
    mods = list(ins.modifiers)
    name = "wmma." + ".".join(mods)
    frag = mods[1] if len(mods) > 1 else ""
    rest = [m for m in mods[2:] if m not in ("sync", "aligned")]
    layout = next((m for m in rest if m in ("row", "col")), "")
    space = next((m for m in rest if m in ("global", "shared", "shared::cta")), "generic")
    space = "shared" if space == "shared::cta" else space
    shape = next((m for m in rest if m.startswith("m") and "n" in m and "k" in m), "")
    ty = rest[-1] if rest else ""
    if shape not in ("m16n16k16", "m16n16k8"):
        ctx.unsupported(ins, f"'{name}' (ori models the wmma shapes m16n16k16 and, for "
                             "tf32, m16n16k8)")
    known = {layout, space, ty, shape, "generic", "shared::cta"}
    if not layout or any(m not in known for m in rest):
        ctx.unsupported(ins, f"'{name}'")
    return frag, layout, space, shape, ty


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
    frag, layout, space, shape, ty = _wmma_mods(ctx, ins)
    name = "wmma." + ".".join(ins.modifiers)
    _no_guard(ctx, ins)
    lay = _fragment(frag, ty) if frag in (("d",) if store else ("a", "b", "c")) else None
    if lay is None:
        ctx.unsupported(ins, f"'{name}' (fragment .{frag} of type .{ty})")
    if frag in ("a", "b") and _WMMA_SHAPE_OF[ty] != shape:
        ctx.unsupported(ins, f"'{name}' (.{ty} fragments come in shape {_WMMA_SHAPE_OF[ty]})")
    row_major = layout == "row"
    ops = ins.operands
    if len(ops) not in (2, 3):
        ctx.error("wmma.load/store take a fragment, an address and an optional stride", ins)
    ptr, frag_op = (ops[0], ops[1]) if store else (ops[1], ops[0])
    stride = ops[2] if len(ops) == 3 else None
    nregs = len(lay.words) * (2 if lay.repeat else 1)
    regs = _regs(ctx, frag_op, nregs, f"a .{frag}.{ty} fragment")
    addr, off, s = _wmma_addresses(ctx, space, ptr, stride,
                                   _leading_dimension(frag, shape, row_major), row_major, lay)
    load_cls, store_cls = _WMMA_SPACES[space]
    eb = lay.ebytes
    # a word is one 32-bit access when it holds one element, or when its
    # elements run along the layout's contiguous dimension
    contiguous = eb == 4 or row_major == lay.along_cols
    step = (0, 1) if lay.along_cols else (1, 0)
    width = f"u{8 * eb}"
    vals: list[SSAValue] = []
    for i, (dr, dc) in enumerate(lay.words):
        a0, o0 = _word_address(ctx, addr, off, s, dr, dc, row_major, eb)
        places = [(a0, o0)] if contiguous else [
            _word_address(ctx, addr, off, s, dr + h * step[0], dc + h * step[1], row_major, eb)
            for h in range(lay.per)]
        if store:
            v = ctx.value(regs[i], "b32")
            if contiguous:
                ctx.emit_effect(store_cls, [a0, o0, v], [], mods="b32")
            else:
                for (ah, oh), part in zip(places, split_word(ctx, v, 8 * eb)):
                    ctx.emit_effect(store_cls, [ah, oh, part], [], mods=width)
            continue
        if contiguous:
            vals.append(ctx.emit1(load_cls, [a0, o0], R32Type.unallocated(), mods="b32"))
        else:
            parts = [ctx.emit1(load_cls, [ah, oh], R32Type.unallocated(), mods=width)
                     for ah, oh in places]
            vals.append(join_word(ctx, parts, 8 * eb))
    if store:
        return
    if lay.repeat:
        vals = vals + vals
    for e, v in zip(regs, vals):
        ctx.set(e, v)


def _wmma_mma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = [m for m in ins.modifiers[1:] if m not in ("sync", "aligned")]
    name = "wmma." + ".".join(ins.modifiers)
    sat = mods[-1:] == ["satfinite"]
    if sat:
        mods = mods[:-1]
    shape = mods[2] if len(mods) > 2 else ""
    if len(mods) < 5 or shape not in ("m16n16k16", "m16n16k8") or \
            any(m not in ("row", "col") for m in mods[:2]):
        ctx.unsupported(ins, f"'{name}' (ori models wmma.mma.sync.aligned.LAYOUTS.m16n16k16 "
                             "and, for tf32, .m16n16k8)")
    types = mods[3:]
    itype = {("f32", "f32"): "f16", ("f16", "f16"): "f16", ("f32", "bf16", "bf16", "f32"): "bf16",
             ("f32", "tf32", "tf32", "f32"): "tf32", ("s32", "s8", "s8", "s32"): "s8",
             ("s32", "u8", "u8", "s32"): "u8"}.get(tuple(types))
    if itype is None:
        ctx.unsupported(ins, f"wmma types .{'.'.join(types)} (ori models .f32.f32, .f16.f16, "
                             ".f32.bf16.bf16.f32, .f32.tf32.tf32.f32, .s32.s8.s8.s32 and "
                             ".s32.u8.u8.s32)")
    if _WMMA_SHAPE_OF[itype] != shape:
        ctx.unsupported(ins, f"'{name}' (.{itype} inputs come in shape {_WMMA_SHAPE_OF[itype]})")
    if sat and itype not in _INT8:
        ctx.unsupported(ins, f"'{name}' (.satfinite on .{itype} inputs)")
    _no_guard(ctx, ins)
    d, a, b, c = ins.operands
    dt = types[0]
    nin = {"f16": 8, "bf16": 4, "tf32": 4, "s8": 2, "u8": 2}[itype]
    nacc = 4 if dt == "f16" else 8
    ctype = "f32" if dt == "f32" else "b32"
    av = [ctx.value(e, "b32") for e in _regs(ctx, a, nin, "wmma's A")]
    bv = [ctx.value(e, "b32") for e in _regs(ctx, b, nin, "wmma's B")]
    cv = [ctx.value(e, ctype) for e in _regs(ctx, c, nacc, "wmma's C")]
    dsts = _regs(ctx, d, nacc, "wmma's D")
    half = nacc // 2
    acc_t = _TYPE_FOR_BITS[32 * half]
    acc = [ctx.pack(cv[half * h:half * (h + 1)]) for h in range(2)]
    if itype == "tf32":
        # as ptxas: four HMMA.1684, k 0-3 then k 4-7 of each column half (the
        # A words (0, 1) and (2, 3); B words 2h and 2h+1)
        for kk in range(2):
            at = ctx.pack(av[2 * kk:2 * kk + 2])
            for h in range(2):
                acc[h] = ctx.emit1(HmmaOp, [at, bv[2 * h + kk], acc[h]], acc_t.unallocated(),
                                   mods="m16n8k4.f32.tf32")
    elif itype in _INT8:
        at = ctx.pack(av)
        mod = f"m16n8k16.{itype}.{itype}" + (".sat" if sat else "")
        for h in range(2):
            acc[h] = ctx.emit1(ImmaOp, [at, bv[h], acc[h]], acc_t.unallocated(), mods=mod)
    else:
        mod = f"m16n8k16.{dt}" + (".bf16" if itype == "bf16" else "")
        at = ctx.pack(av[:4])
        for h in range(2):
            bt = ctx.pack(bv[2 * h:2 * h + 2])
            acc[h] = ctx.emit1(HmmaOp, [at, bt, acc[h]], acc_t.unallocated(), mods=mod)
    for h in range(2):
        _set_all(ctx, dsts[half * h:half * (h + 1)], acc[h])


__all__ = ["lower_cp", "lower_ldmatrix", "lower_mma", "lower_wmma"]
