"""Lowering of one PTX function (``.entry`` or ``.func``) to an ``ori.func``.

Steps (the "MercConverter" step of ptxas, re-done):

1. Walk the body with a scope stack: ``.reg`` declarations (ranges
   ``%r<100>`` included) become :class:`Var` objects, unique per declaration,
   so a name re-declared in a nested ``{ }`` scope is a different variable;
   ``.param`` declarations in call scopes become word-addressed parameter
   buffers; ``.local``/``.shared`` arrays get frame/window offsets.
2. Split the statements into basic blocks at labels and after branches,
   ``ret`` and ``exit``; a guarded ``ret``/``exit``/``brx.idx`` ends its block
   with a conditional branch to a synthetic block that returns, exits or
   branches.  ``brx.idx`` becomes an ``ori.brx`` whose targets are one
   synthetic block per ``.branchtargets`` entry, each jumping on to the
   entry's label: a jump table holds addresses only, so the block arguments
   a label needs travel on those jumps (``ori.brx`` passes none).  ``exit``
   in a ``.func`` is an ``ori.exit`` there (the thread ends in the callee).  Unreachable blocks are
   dropped.  A ``.pragma "nounroll"`` becomes an ``ori.pragma`` at the start
   of the block it stands in (nvcc places it in the loop header).
3. Fill the blocks in reverse post-order, lowering each instruction through
   :data:`~ori_dialect.ptx.lower.handlers.LOWERINGS`; register reads and
   writes go through :class:`~ori_dialect.ptx.lower.ssa.SSABuilder`.
4. Delete dead phis and create the terminators with their edge arguments.

The emit API the instruction lowerings use (operands, ops, destinations,
guards) is the base class :class:`~ori_dialect.ptx.lower.builder.LoweringBuilder`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Region, SSAValue

from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.instruction import create_op
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.control import BraOp, BrxOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.frame import FrameEnterOp, FrameLeaveOp, frame_size
from ori_dialect.ops.func import FuncOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.builder import (
    MAX_PARAM_BYTES,
    LoweringBuilder,
    ParamBuffer,
    Scope,
    Var,
    append_op,
    param_reg,
    param_size_align,
)
from ori_dialect.ptx.lower.calls import lower_call
from ori_dialect.ptx.lower.handlers import LOWERINGS
from ori_dialect.ptx.lower.ssa import Edge, SSABuilder
from ori_dialect.ptx.lower.types import reg_class


@dataclass(eq=False)
class PBlock:
    """A PTX basic block before lowering."""

    label: str | None
    items: list[tuple[ast.Instruction | ast.Call, Scope]] = field(default_factory=list)
    pragmas: list[ast.Pragma] = field(default_factory=list)
    term: tuple[Any, ...] = ("fall",)
    term_stmt: tuple[ast.Instruction, Scope] | None = None
    succs: list[int] = field(default_factory=list)


class FunctionLowering(LoweringBuilder):
    """Lowers one PTX function: declarations, basic blocks, SSA, terminators."""

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
                if size > MAX_PARAM_BYTES:
                    self.error(f"parameter '{p.name}' of {size} bytes: by-value parameters larger "
                               f"than {MAX_PARAM_BYTES} bytes are not supported yet", p)
                top.params[p.name] = ParamBuffer(p.name, size, align)
                inputs.append(param_reg(size).unallocated())
                params.append(_param_attr(size, align))
        outputs: list[Attribute] = []
        returns: list[ParamAttr] = []
        for p in fn.return_params:
            size, align = param_size_align(p)
            if p.space == "reg":
                top.vars[p.name] = Var(p.name, p.type)
                outputs.append(reg_class(p.type).unallocated())
            else:
                if size > MAX_PARAM_BYTES or size == 0:
                    self.error(f"return value '{p.name}' of {size} bytes is not supported", p)
                top.params[p.name] = ParamBuffer(p.name, size, align)
                outputs.append(param_reg(size).unallocated())
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
            if t[0] in ("cond", "brx"):
                roots.append(t[1])
            elif t[0] == "ret":
                roots.extend(t[1])
        self.ssa.finish(roots)
        for b in region.blocks:
            self._emit_terminator(b, terms[b], blocks)
        if self.local_bytes:
            self.func.attributes["ori.local_bytes"] = IntegerAttr(self.local_bytes, i32)
            self._open_frame()
        return self.func

    def _open_frame(self) -> None:
        """The function's local variables live in its own frame below the
        caller's (ops/frame.py): ``R1 -= size`` first, ``R1 += size`` before
        each return of a device function.  A recursive or re-entered function
        gets fresh variables per activation, and a callee's never overlap its
        caller's -- PTX's ``__local_depot`` is per activation."""
        size = frame_size(self.local_bytes)
        entry = self.func.body.blocks.first
        assert entry is not None
        enter = FrameEnterOp.make([size])
        if entry.first_op is None:
            entry.add_op(enter)
        else:
            entry.insert_op_before(enter, entry.first_op)
        if self.func.is_kernel:
            return
        for b in self.func.body.blocks:
            if isinstance(b.last_op, RetOp):
                b.insert_op_before(FrameLeaveOp.make([size]), b.last_op)

    def _set_directives(self) -> None:
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
        tables: dict[str, tuple[str, ...]] = {}  # .branchtargets lists

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
                elif isinstance(st, ast.BranchTargets):
                    tables[st.name] = st.labels
                elif isinstance(st, ast.Instruction) and st.opcode in ("bra", "ret", "exit", "brx"):
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
            elif kind == "brx":
                assert b.term_stmt is not None
                st, scope = b.term_stmt
                table = tables.get(b.term[2])
                if table is None:
                    self.error(f"brx.idx: '{b.term[2]}' is not a .branchtargets list of this "
                               "function", st)
                tramps: list[int] = []
                for lab in table:
                    if lab not in labels:
                        self.error(f"branch to undefined label '{lab}'", st)
                    tramps.append(len(blocks))
                    blocks.append(PBlock(None, term=("jump", labels[lab])))
                brx = ("brxt", b.term[1], st, scope, tramps)
                if st.guard is not None:
                    if nxt is None:
                        nxt = len(blocks)
                        blocks.append(PBlock(None, term=("ret",)))
                    rb = len(blocks)
                    blocks.append(PBlock(None, term=brx))
                    b.term = ("cond", rb, nxt, kind)
                else:
                    b.term = brx
        for b in blocks:
            t = b.term
            if t[0] == "jump":
                b.succs = [t[1]]
            elif t[0] == "cond":
                b.succs = [t[1], t[2]]
            elif t[0] == "brxt":
                b.succs = list(t[4])
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
            if st.modifiers not in (("idx",), ("idx", "uni")):
                self.unsupported(st, "only brx.idx{.uni} exists")
            if len(st.operands) != 2 or not isinstance(st.operands[1], ast.LabelRef | ast.Symbol):
                self.error("brx.idx takes an index and a .branchtargets label", st)
            b.term = ("brx", st.operands[0], st.operands[1].name)
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
        if t[0] == "brxt":
            _, index, st, scope, tramps = t
            self.ins, self.scope, self.guard = st, scope, None
            return ("brx", self.value(index, "u32"), tramps)
        if t[0] == "ret" or t[0] == "exit":
            if self.fn.kind == "entry" or t[0] == "exit":
                return ("exit",)
            vals: list[SSAValue] = []
            for p in self.fn.return_params:
                if p.space == "reg":
                    vals.append(self.read_var(top.vars[p.name]))
                else:
                    buf = top.params[p.name]
                    n = param_reg(buf.size).num_regs()
                    words = [self.read_var(buf.word(k)) for k in range(n)]
                    vals.append(words[0] if n == 1 else self.pack(words))
            return ("ret", vals)
        return t

    def _emit_terminator(self, b: Block, t: tuple[Any, ...], blocks: dict[int, Block]) -> None:
        r = self.ssa.resolve
        if t[0] == "jump":
            dest = blocks[t[1]]
            append_op(b, _bra(dest, self.ssa.edge_args(b, 0, dest)))
        elif t[0] == "cond":
            _, g, neg, taken, fall = t
            tb, fb = blocks[taken], blocks[fall]
            append_op(b, _bra(tb, self.ssa.edge_args(b, 0, tb), r(g), neg, fb,
                          self.ssa.edge_args(b, 1, fb)))
        elif t[0] == "exit":
            append_op(b, create_op(ExitOp, [], {}))
        elif t[0] == "brx":
            append_op(b, BrxOp(r(t[1]), [blocks[s] for s in t[2]]))
        else:
            append_op(b, create_op(RetOp, [r(v) for v in t[1]], {}))

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


__all__ = ["FunctionLowering"]
