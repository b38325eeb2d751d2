"""Terse Python construction of Ori functions for tests and generators.

::

    from ori_dialect.builder import FuncBuilder, RZ, PT, cbank, module

    fb = FuncBuilder("count", kernel=True, params=[(4, 4)])
    n = fb.mov(cbank(0, 0x210))
    zero = fb.mov(0)
    loop = fb.block(r32)
    done = fb.block()
    fb.bra(loop, zero)
    with fb.at(loop):
        i = loop.args[0]
        i2 = fb.iadd3(i, 1, RZ)
        p = fb.isetp(i2, n, PT, mods="lt.u32")
        fb.bra(loop, i2, guard=p, fallthrough=done)
    with fb.at(done):
        fb.exit()
    m = module(fb.func, target="sm_80")

Any instruction op is reachable as a method named after it without the
``ori.`` prefix; sources are given in slot order (ints and floats become
immediates).  A method returns the op's only result, or the op itself when it
has none or several.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ori_dialect.ir.attrs import CBankAttr, ParamAttr
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType, R32Type, UPredType, UR32Type
from ori_dialect.ops import INSTRUCTION_OPS
from ori_dialect.ops.control import BraOp, CallOp, ExitOp, RetOp
from ori_dialect.ops.func import TARGET_ATTR, FuncOp

RZ = R32Type.fixed()
URZ = UR32Type.fixed()
PT = PredType.fixed()
UPT = UPredType.fixed()

_BY_NAME: dict[str, type[OriInstruction]] = {
    op.name.removeprefix("ori."): op  # type: ignore[misc]
    for op in INSTRUCTION_OPS
    if issubclass(op, OriInstruction)
}


def cbank(bank: int, offset: int) -> CBankAttr:
    return CBankAttr(bank, offset)


def module(*funcs: Operation, target: str | None = "sm_80") -> ModuleOp:
    """A module holding ``funcs`` with the ``ori.target`` attribute set."""
    attrs: dict[str, Attribute] = {TARGET_ATTR: StringAttr(target)} if target else {}
    return ModuleOp(list(funcs), attributes=attrs)


class FuncBuilder:
    """Builds one ``ori.func``; instructions go to the current block."""

    def __init__(
        self,
        name: str,
        inputs: Sequence[Attribute] = (),
        outputs: Sequence[Attribute] = (),
        *,
        kernel: bool = False,
        params: Sequence[tuple[int, int]] | None = None,
        maxnreg: int | None = None,
    ) -> None:
        descs: list[ParamAttr] | None = None
        if params is not None:
            descs = []
            off = 0
            for size, align in params:
                off = -(-off // align) * align
                descs.append(ParamAttr(size, align, off if kernel else -1))
                off += size
        self.func = FuncOp(name, inputs, outputs, kernel=kernel, params=descs, maxnreg=maxnreg)
        self.entry: Block = self.func.entry_block
        self._block = self.entry

    # ---- blocks -------------------------------------------------------
    def block(self, *arg_types: Attribute) -> Block:
        """Append a new block (with arguments of ``arg_types``) to the function."""
        b = Block(arg_types=arg_types)
        self.func.body.add_block(b)
        return b

    @contextmanager
    def at(self, block: Block) -> Iterator[Block]:
        """Emit into ``block`` inside the ``with``."""
        old = self._block
        self._block = block
        try:
            yield block
        finally:
            self._block = old

    def goto(self, block: Block) -> None:
        """Emit into ``block`` from now on."""
        self._block = block

    @property
    def current(self) -> Block:
        return self._block

    def insert(self, op: Operation) -> Operation:
        self._block.add_op(op)
        return op

    # ---- instructions ---------------------------------------------------
    def emit(
        self,
        cls: type[OriInstruction],
        *sources: Any,
        types: Sequence[Attribute] | None = None,
        **kwargs: Any,
    ) -> Any:
        op = cls.make(list(sources), types, **kwargs)
        self.insert(op)
        return op.results[0] if len(op.results) == 1 else op

    def __getattr__(self, name: str) -> Any:
        cls = _BY_NAME.get(name)
        if cls is None:
            raise AttributeError(f"no ori instruction named '{name}'")

        def build(*sources: Any, types: Sequence[Attribute] | None = None, **kwargs: Any) -> Any:
            return self.emit(cls, *sources, types=types, **kwargs)

        return build

    # ---- control flow -----------------------------------------------------
    def bra(
        self,
        dest: Block,
        *args: SSAValue | Operation,
        guard: SSAValue | Operation | None = None,
        neg: bool = False,
        fallthrough: Block | None = None,
        fallthrough_args: Sequence[SSAValue | Operation] = (),
    ) -> BraOp:
        op = BraOp(dest, list(args), guard=guard, guard_neg=neg, fallthrough=fallthrough,
                   fallthrough_args=fallthrough_args)
        self.insert(op)
        return op

    def exit(self) -> ExitOp:
        op = ExitOp()
        self.insert(op)
        return op

    def ret(self, *values: SSAValue | Operation) -> RetOp:
        op = RetOp(*values)
        self.insert(op)
        return op

    def call(self, callee: str, *args: SSAValue, results: Sequence[Attribute] = ()) -> Any:
        op = CallOp(callee, list(args), list(results))
        self.insert(op)
        return op.results[0] if len(op.results) == 1 else op


__all__ = ["PT", "RZ", "UPT", "URZ", "FuncBuilder", "cbank", "module"]
