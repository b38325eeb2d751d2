"""``call``: direct calls to device functions of the same module, and
indirect calls through a register (``ori.call_indirect``).

A call to a function that is only declared (``.extern .func``) is refused --
ori has no linker -- unless it is one of the CUDA device runtime's functions
nvcc emits (``malloc``, ``free``, ``vprintf``, ``__assertfail``: NVIDIA's
"PTX Interoperability" guide, "System Calls", lists them as functions the
driver provides): the call stays an ``ori.call`` naming an
``ori.runtime_func`` declaration the module gets once, as ptxas keeps a
``CALL.ABS.NOINC`` to the driver's code.

nvcc passes arguments through ``.param`` objects declared in a ``{ }`` scope
around the call: ``st.param`` fills them, the call names them, ``ld.param``
reads the return object afterwards.  Those objects are word buffers of SSA
variables here, so a call becomes one ``ori.call`` whose operands are the
argument values (one register per parameter: 32, 64 or 128 bits by size, a
larger by-value aggregate up to 512 bytes a register tuple); where they
travel is decided later by the calling convention (``ori-abi``, seed 003:
twelve parameter registers, the rest in the caller's frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Attribute, SSAValue

from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.registers import R32Type
from ori_dialect.ops.control import CallIndirectOp, CallOp
from ori_dialect.ops.func import RUNTIME_FUNCTIONS
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.builder import (
    MAX_PARAM_BYTES,
    ParamBuffer,
    param_reg,
    param_size_align,
)
from ori_dialect.ptx.lower.types import reg_class

if TYPE_CHECKING:
    from ori_dialect.ptx.lower.builder import LoweringBuilder


def _slot_type(p: ast.Param) -> type:
    if p.space == "reg":
        return reg_class(p.type)
    return param_reg(param_size_align(p)[0])


def _arg(ctx: LoweringBuilder, op: ast.Operand, p: ast.Param) -> SSAValue:
    want = _slot_type(p)
    if p.space == "reg" or not isinstance(op, ast.Symbol):
        if isinstance(op, ast.Symbol):
            ctx.error(f"parameter '{p.name}' is a register parameter; pass a register", op)
        return ctx.value(op, p.type)
    buf = ctx.param(op.name, op)
    if buf is None:
        ctx.error(f"'{op.name}' is not a .param object in scope", op)
    size, _ = param_size_align(p)
    if buf.size < size:
        ctx.error(f"argument '{op.name}' has {buf.size} bytes, parameter '{p.name}' needs {size}", op)
    n = want.num_regs()
    words = [ctx.read_var(buf.word(k)) for k in range(n)]
    return words[0] if n == 1 else ctx.pack(words)


def _prototype(ctx: LoweringBuilder, ins: ast.Call) -> ast.CallProto:
    """The ``.callprototype`` an indirect call names (declared in the function)."""
    if ins.prototype is None:
        ctx.error("an indirect call needs a .callprototype (call-target lists are not "
                  "supported)", ins)
    for st in ctx.fn.statements():
        if isinstance(st, ast.CallProto) and st.name == ins.prototype:
            return st
    ctx.error(f"unknown call prototype '{ins.prototype}'", ins)


def _lower_indirect(ctx: LoweringBuilder, ins: ast.Call, target: ast.Register) -> None:
    """``call (rets), %rd, (args), proto;``: an ``ori.call_indirect`` whose
    ``params``/``returns`` carry the prototype's sizes (the interpreter checks
    them against the function the address names)."""
    proto = _prototype(ctx, ins)
    if len(ins.args) != len(proto.params):
        ctx.error(f"prototype '{proto.name}' takes {len(proto.params)} argument(s), the call "
                  f"passes {len(ins.args)}", ins)
    if len(ins.returns) != len(proto.return_params):
        ctx.error(f"prototype '{proto.name}' returns {len(proto.return_params)} value(s), the "
                  f"call receives {len(ins.returns)}", ins)
    for p in (*proto.params, *proto.return_params):
        size = param_size_align(p)[0]
        if size == 0 or size > MAX_PARAM_BYTES:
            ctx.error(f"a {size}-byte parameter in prototype '{proto.name}' is not supported", ins)
    fp = ctx.value(target, "u64")
    args = [_arg(ctx, a, p) for a, p in zip(ins.args, proto.params)]
    rtypes: list[Attribute] = [_slot_type(p).unallocated() for p in proto.return_params]
    op = CallIndirectOp(fp, args, rtypes,
                        params=[ParamAttr(*param_size_align(p), -1) for p in proto.params],
                        returns=[ParamAttr(*param_size_align(p), -1)
                                 for p in proto.return_params])
    ctx.add(op)
    _receive(ctx, ins, op, proto.return_params)


def _receive(ctx: LoweringBuilder, ins: ast.Call, op: CallOp,
             rparams: tuple[ast.Param, ...]) -> None:
    for r, sym, p in zip(op.results, ins.returns, rparams):
        if p.space == "reg":
            ctx.set(ast.Register(sym.name), r)
            continue
        buf: ParamBuffer | None = ctx.param(sym.name, sym)
        if buf is None:
            ctx.error(f"'{sym.name}' is not a .param object in scope", ins)
        words = [r] if isinstance(r.type, R32Type) else list(ctx.parts(r))
        for k, w in enumerate(words):
            ctx.write_var(buf.word(k), w)


def _check_runtime_prototype(ctx: LoweringBuilder, ins: ast.Call, callee: ast.Function) -> None:
    """A CUDA device-runtime function (``malloc``, ``free``, ``vprintf``,
    ``__assertfail``) the CUDA driver supplies: its ``.extern .func``
    declaration must have the runtime's prototype (parameter and result sizes
    as nvcc declares them), since the call is made with that prototype."""
    want_in, want_out = RUNTIME_FUNCTIONS[callee.name]
    have_in = tuple(8 * param_size_align(p)[0] for p in callee.params)
    have_out = tuple(8 * param_size_align(p)[0] for p in callee.return_params)
    if (have_in, have_out) != (want_in, want_out):
        def sig(ins_: tuple[int, ...], outs: tuple[int, ...]) -> str:
            return (f"({', '.join(f'.b{b}' for b in outs)}) {callee.name}"
                    f"({', '.join(f'.b{b}' for b in ins_)})")
        ctx.error(f"'{callee.name}' is declared {sig(have_in, have_out)}, but the CUDA device "
                  f"runtime's function is {sig(want_in, want_out)}", ins)


def lower_call(ctx: LoweringBuilder, ins: ast.Call) -> None:
    if ins.guard is not None:
        ctx.unsupported(ins, "guarded calls are not supported; branch around the call")
    if isinstance(ins.target, ast.Register):
        _lower_indirect(ctx, ins, ins.target)
        return
    name = ins.target.name
    callee = ctx.mod.functions_by_name.get(name)
    if callee is None:
        ctx.error(f"call to unknown function '{name}'", ins)
    if callee.kind == "entry":
        ctx.error(f"'{name}' is a kernel entry and cannot be called", ins)
    defined = any(f.name == name and f.body is not None for f in ctx.mod.ast.functions)
    if not defined and name in RUNTIME_FUNCTIONS:
        _check_runtime_prototype(ctx, ins, callee)
        ctx.mod.runtime_decl(name)
    elif not defined:
        ctx.unsupported(ins, f"'{name}' is declared but not defined in this module "
                        "(external functions need a linker ori does not have)")
    if len(ins.args) != len(callee.params):
        ctx.error(f"'{name}' takes {len(callee.params)} argument(s), the call passes "
                  f"{len(ins.args)}", ins)
    if len(ins.returns) != len(callee.return_params):
        ctx.error(f"'{name}' returns {len(callee.return_params)} value(s), the call receives "
                  f"{len(ins.returns)}", ins)
    args = [_arg(ctx, a, p) for a, p in zip(ins.args, callee.params)]
    rtypes: list[Attribute] = [_slot_type(p).unallocated() for p in callee.return_params]
    op = CallOp(name, args, rtypes)
    ctx.add(op)
    _receive(ctx, ins, op, callee.return_params)


__all__ = ["lower_call"]
