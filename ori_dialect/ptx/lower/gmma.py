"""Warpgroup MMA: ``wgmma.*`` and ``fence.proxy.async`` (PTX ISA 9.7.15).

* ``wgmma.fence.sync.aligned`` -> ``ori.warpgroup_arrive``;
  ``wgmma.commit_group.sync.aligned`` -> ``ori.gmma_commit``;
  ``wgmma.wait_group.sync.aligned N`` -> ``ori.warpgroup_depbar N``;
  ``fence.proxy.async[.shared::cta]`` -> ``ori.fence_async`` (the ``fence``
  opcode itself is lowered in :mod:`.sync`, which hands this form here).
* ``wgmma.mma_async.sync.aligned.m64nNk16.{f32,f16}.{f16,bf16}.{f16,bf16}
  d, a, b-desc, scale-d, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b``
  -> ``ori.hgmma``, for every N of the PTX ISA (multiples of 8 up to 256)
  with f16 accumulators and up to 128 with f32 ones.  The accumulator list
  ``d`` (N/2 f32 or N/4 f16x2 registers) is packed into one register tuple
  (``ori.pack``, a run of consecutive registers after allocation; RZ fills
  the padding of a tuple wider than the list, :func:`~ori_dialect.ops.gmma.acc_type`)
  and the result unpacked back into the PTX registers (the allocator puts
  an accumulator in flight back into one value -- a chain of HGMMAs takes
  the previous ``d`` itself, the unpack moves past the wait:
  ``passes/regalloc/inflight.py``); ``a``
  is a ``.u64`` descriptor or a vector of four ``.b32`` registers (A from
  registers, which has no ``imm-trans-a``).  An immediate ``scale-d`` of 0
  reads no accumulator (``RZ``, ``not PT``), as ptxas encodes it.

Not modelled, each with one diagnostic: other input types (tf32, e4m3/e5m2,
integer), the ``.sp`` sparse form, a guarded ``wgmma`` (the instruction is
``.aligned``: the whole warpgroup executes it) and ``imm-scale`` values
other than 1 and -1.  Every ``m64nNk16`` shape is modelled: an f32
accumulator of N > 128 (68 to 128 registers; ptxas 13.0 compiles
``m64n256k16.f32`` to ``HGMMA.64x256x16.F32 R24`` and 154 registers) is an
``!ori.r4096`` tuple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ori_dialect.ir.registers import PredType
from ori_dialect.ops.gmma import (
    GMMA_N,
    FenceAsyncOp,
    GmmaCommitOp,
    HgmmaOp,
    WarpgroupArriveOp,
    WarpgroupDepbarOp,
    acc_regs,
    acc_type,
)
from ori_dialect.ops.integer import PackOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.data import rzero
from ori_dialect.ptx.lower.handlers import lowers

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder

_PT = PredType.fixed()


def _no_guard(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    if ctx.guard is not None:
        ctx.unsupported(ins, "a guarded wgmma (.aligned: the whole warpgroup executes it)")


def lower_fence_proxy_async(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    """``fence.proxy.async[.shared::cta]`` (called by the ``fence`` lowering)."""
    if list(ins.modifiers) not in (["proxy", "async"], ["proxy", "async", "shared::cta"]):
        ctx.unsupported(ins, "expected fence.proxy.async[.shared::cta]")
    if ins.operands:
        ctx.error("fence.proxy.async takes no operands", ins)
    ctx.emit_effect(FenceAsyncOp, [])


def _imm(ctx: LoweringBuilder, op: ast.Operand, allowed: tuple[int, ...], what: str) -> int:
    if not isinstance(op, ast.Immediate) or op.kind != "int" or op.value not in allowed:
        ctx.error(f"{what} must be one of {', '.join(map(str, allowed))}", op)
    return int(op.value)


def _mma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    _no_guard(ctx, ins)
    mods = list(ins.modifiers)
    if "sp" in mods:
        ctx.unsupported(ins, "the sparse form (.sp)")
    shape = mods[3] if len(mods) > 3 else ""
    if (len(mods) != 7 or mods[:3] != ["mma_async", "sync", "aligned"]
            or not (shape.startswith("m64n") and shape.endswith("k16"))
            or not shape[4:-3].isdigit() or int(shape[4:-3]) not in GMMA_N):
        ctx.unsupported(ins, "expected wgmma.mma_async.sync.aligned.m64nNk16.dtype.atype.btype "
                        "(N a multiple of 8 up to 256)")
    dtype, atype, btype = mods[4:7]
    if atype != btype or atype not in ("f16", "bf16") or dtype not in ("f32", "f16") or (
            dtype == "f16" and atype == "bf16"):
        ctx.unsupported(ins, "only f16 x f16 -> f32/f16 and bf16 x bf16 -> f32 are modelled")
    n = int(shape[4:-3])
    nregs = acc_regs(n, dtype)
    acc_cls = acc_type(n, dtype)
    if acc_cls is None:
        ctx.unsupported(ins, f"{shape}.{dtype}: an accumulator of {nregs} registers per thread "
                        "(ori's register tuples hold at most 128 registers, !ori.r4096)")
    ops = list(ins.operands)
    d = ops[0] if ops else None
    if not isinstance(d, ast.Vector) or len(d.elements) != nregs:
        ctx.error(f"a {shape}.{dtype} accumulator is a vector of {nregs} registers", d or ins)
    pad = acc_cls.num_regs() - nregs  # the tuple's padding (ops/gmma.py)

    def acc_in() -> SSAValue:
        """The accumulator list as one tuple, RZ in the padding."""
        vals = [ctx.value(e, "b32") for e in d.elements]
        if not pad:
            return ctx.pack(vals)
        return ctx.emit1(PackOp, [*vals, *[rzero()] * pad], acc_cls.unallocated())
    a_regs = isinstance(ops[1], ast.Vector) if len(ops) > 1 else False
    want = 7 if a_regs else 8
    if len(ops) != want:
        ctx.error(f"wgmma.mma_async takes {want} operands with A {'in registers' if a_regs else 'from a descriptor'}", ins)
    flags = [shape] + ([dtype] if dtype != "f32" else []) + ([atype] if atype != "f16" else [])
    if _imm(ctx, ops[4], (1, -1), "imm-scale-a") == -1:
        flags.append("nega")
    if _imm(ctx, ops[5], (1, -1), "imm-scale-b") == -1:
        flags.append("negb")
    if not a_regs and _imm(ctx, ops[6], (0, 1), "imm-trans-a"):
        flags.append("tnspa")
    if _imm(ctx, ops[-1], (0, 1), "imm-trans-b"):
        flags.append("tnspb")
    if a_regs:
        av = ops[1]
        assert isinstance(av, ast.Vector)
        if len(av.elements) != 4:
            ctx.error("A in registers is a vector of four .b32 registers", av)
        a: SSAValue = ctx.pack([ctx.value(e, "b32") for e in av.elements])
    else:
        a = ctx.value(ops[1], "u64")
    b = ctx.value(ops[2], "u64")
    acc_t = acc_cls.unallocated()
    sd = ops[3]
    if isinstance(sd, ast.Immediate):
        scale = _imm(ctx, sd, (0, 1), "scale-d")
        scale_d: SSAValue = _PT
        smods = {} if scale else {"scale_d": "not"}
        c: SSAValue = acc_cls.fixed() if not scale else acc_in()
    else:
        scale_d = ctx.value(sd, "pred")
        smods = {}
        c = acc_in()
    op = ctx.emit_effect(HgmmaOp, [a, b, c, scale_d], [acc_t], mods=".".join(flags),
                         smods=smods)
    for e, v in zip(d.elements, ctx.parts(op.results[0])):
        if isinstance(e, ast.Register) and e.name != "_":
            ctx.set(e, v)


@lowers("wgmma")
def lower_wgmma(ctx: LoweringBuilder, ins: ast.Instruction) -> None:
    mods = list(ins.modifiers)
    head = mods[0] if mods else ""
    if head == "mma_async":
        _mma(ctx, ins)
        return
    _no_guard(ctx, ins)
    if mods[1:] != ["sync", "aligned"]:
        ctx.unsupported(ins, "expected .sync.aligned")
    if head == "fence":
        ctx.emit_effect(WarpgroupArriveOp, [])
    elif head == "commit_group":
        ctx.emit_effect(GmmaCommitOp, [])
    elif head == "wait_group":
        if len(ins.operands) != 1:
            ctx.error("wgmma.wait_group takes the number of groups that may stay pending", ins)
        ctx.emit_effect(WarpgroupDepbarOp, [_imm(ctx, ins.operands[0], tuple(range(8)),
                                                 "wgmma.wait_group's operand")])
        return
    else:
        ctx.unsupported(ins)
    if ins.operands:
        ctx.error(f"wgmma.{head} takes no operands", ins)


__all__ = ["lower_fence_proxy_async", "lower_wgmma"]
