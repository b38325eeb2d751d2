"""``ori.func``: a kernel entry or a device function holding a CFG.

::

    ori.func kernel @saxpy() attributes {params = [#ori.param<4, align 4, at 0x0>, ...]} {
    ^bb0:
      ...
      ori.exit
    }
    ori.func @helper(%a : !ori.r32) -> !ori.r32 {
    ^bb0(%a : !ori.r32):
      ori.ret %a : !ori.r32
    }

A kernel takes no SSA arguments: its launch parameters live in constant bank 0
and are described by ``params`` (size, alignment, byte offset within the
parameter area).  A device function receives its parameters as entry-block
arguments; ``params``/``returns`` then describe their sizes and alignment for
the calling convention (seed 003).  Limits mirror PTX performance directives:
``maxnreg`` (``.maxnreg``), ``maxntid``/``reqntid`` (``.maxntid``/``.reqntid``,
up to 3 dims), ``minnctapersm``.  ``abi`` (``#ori.abi<...>``) is the
function's calling-convention specification (``ori_dialect/ir/abi.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.abi import AbiAttr
from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ir.registers import OriRegisterType, R32Type, R64Type, same_register_classes
from ori_dialect.ir.traits import OriCallable
from ori_dialect.ops.control import BraOp, RetOp

TARGET_ATTR = "ori.target"
"""Name of the module attribute that names the SM target (from PTX ``.target``)."""

_PROPS = ("sym_name", "function_type", "kernel", "params", "returns", "maxnreg",
          "maxntid", "reqntid", "minnctapersm", "abi")


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A kernel entry (``kernel``) or device function."""

    name = "ori.func"

    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    kernel = opt_prop_def(UnitAttr)
    params = opt_prop_def(ArrayAttr[ParamAttr])
    returns = opt_prop_def(ArrayAttr[ParamAttr])
    maxnreg = opt_prop_def(IntegerAttr)
    maxntid = opt_prop_def(DenseArrayBase)
    reqntid = opt_prop_def(DenseArrayBase)
    minnctapersm = opt_prop_def(IntegerAttr)
    abi = opt_prop_def(AbiAttr)
    """The calling convention (seed 003): a request that overrides the
    target's defaults, resolved by ``ori-abi`` (``ori_dialect/ir/abi.py``)."""

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), OriCallable())

    def __init__(
        self,
        name: str,
        inputs: Sequence[Attribute] = (),
        outputs: Sequence[Attribute] = (),
        *,
        kernel: bool = False,
        params: Sequence[ParamAttr] | None = None,
        returns: Sequence[ParamAttr] | None = None,
        maxnreg: int | None = None,
        region: Region | None = None,
    ) -> None:
        if region is None:
            region = Region(Block(arg_types=inputs))
        super().__init__(
            regions=[region],
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(list(inputs), list(outputs)),
                "kernel": UnitAttr() if kernel else None,
                "params": ArrayAttr(params) if params is not None else None,
                "returns": ArrayAttr(returns) if returns is not None else None,
                "maxnreg": IntegerAttr(maxnreg, i32) if maxnreg is not None else None,
            },
        )

    @property
    def is_kernel(self) -> bool:
        return self.kernel is not None

    @property
    def entry_block(self) -> Block:
        b = self.body.first_block
        if b is None:
            raise VerifyException(f"ori.func @{self.sym_name.data} has no body")
        return b

    def launch_threads(self) -> int | None:
        """Threads per CTA of the kernel's ``.reqntid`` (else ``.maxntid``):
        the product of its dimensions; None without launch bounds."""
        for arr in (self.reqntid, self.maxntid):
            if arr is not None:
                n = 1
                for x in arr.get_values():
                    n *= int(x)  # type: ignore[call-overload]
                return n
        return None

    def target_name(self) -> str | None:
        """The ``ori.target`` of the enclosing module, if any."""
        mod = self.parent_op()
        if isinstance(mod, ModuleOp):
            t = mod.attributes.get(TARGET_ATTR)
            if isinstance(t, StringAttr):
                return t.data
        return None

    # ------------------------------------------------------------------
    def verify_(self) -> None:
        fname = f"ori.func @{self.sym_name.data}"
        if not self.body.blocks:
            raise VerifyException(f"{fname}: a function needs a body")
        ftype = self.function_type
        for t in (*ftype.inputs.data, *ftype.outputs.data):
            if not isinstance(t, OriRegisterType):
                raise VerifyException(f"{fname}: parameter and result types must be registers, got {t}")
        entry = self.entry_block
        if [a.type for a in entry.args] != list(ftype.inputs.data):
            raise VerifyException(
                f"{fname}: entry block arguments {[str(a.type) for a in entry.args]} do not match "
                f"the parameter types {[str(t) for t in ftype.inputs.data]}"
            )
        if self.is_kernel and (ftype.inputs.data or ftype.outputs.data):
            raise VerifyException(
                f"{fname}: a kernel takes its parameters from constant bank 0 (see 'params') "
                "and returns nothing"
            )
        if not self.is_kernel and self.params is not None and len(self.params.data) != len(ftype.inputs.data):
            raise VerifyException(f"{fname}: 'params' must describe each of the {len(ftype.inputs.data)} parameters")
        if self.returns is not None and len(self.returns.data) != len(ftype.outputs.data):
            raise VerifyException(f"{fname}: 'returns' must describe each of the {len(ftype.outputs.data)} results")
        if self.maxnreg is not None and not 1 <= self.maxnreg.value.data <= 255:
            raise VerifyException(f"{fname}: maxnreg must be in 1..255, got {self.maxnreg.value.data}")
        for nm, arr in (("maxntid", self.maxntid), ("reqntid", self.reqntid)):
            if arr is not None:
                vals = arr.get_values()
                if not 1 <= len(vals) <= 3 or any(int(v) <= 0 for v in vals):
                    raise VerifyException(f"{fname}: {nm} takes 1 to 3 positive dimensions")
        for i, block in enumerate(self.body.blocks):
            last = block.last_op
            if last is None or last.get_trait(IsTerminator) is None:
                raise VerifyException(
                    f"{fname}: block #{i} does not end with a terminator "
                    "(ori.bra, ori.exit or ori.ret)"
                )
            if isinstance(last, RetOp):
                if self.is_kernel:
                    raise VerifyException(f"{fname}: a kernel ends with ori.exit, not ori.ret")
                if not same_register_classes([v.type for v in last.values], list(ftype.outputs.data)):
                    raise VerifyException(
                        f"{fname}: ori.ret returns {[str(v.type) for v in last.values]} but the "
                        f"function returns {[str(t) for t in ftype.outputs.data]}"
                    )
            if isinstance(last, BraOp) and entry in last.successors:
                raise VerifyException(
                    f"{fname}: the entry block cannot be a branch target (give the loop its own header)"
                )
        self._verify_dominance()
        self._verify_target()

    def _verify_dominance(self) -> None:
        """SSA: every use is dominated by its definition (xDSL 0.74 does not
        check this).  Operands a branch passes along an edge are used at the
        end of the branching block.  Uses in unreachable blocks are not checked,
        as in MLIR."""
        # lazy: the analysis package loads numpy (liveness); single-block
        # functions, the common case when parsing, never need the CFG.
        from ori_dialect.analysis.cfg import CFG
        from ori_dialect.analysis.dominators import DominatorTree  # lazy: as above

        blocks = list(self.body.blocks)
        if len(blocks) == 1:
            cfg = None
            dom = None
        else:
            cfg = CFG(blocks)
            dom = DominatorTree(cfg)
        index = {b: i for i, b in enumerate(blocks)}
        for bi, block in enumerate(blocks):
            if dom is not None and not dom.is_reachable(bi):
                continue
            seen: set[Operation] = set()
            for op in block.ops:
                for k, v in enumerate(op.operands):
                    if isinstance(v, OpResult):
                        def_block = v.op.parent
                        if def_block is block:
                            if v.op in seen:
                                continue
                            why = "is used before its definition in the same block"
                        elif dom is not None and def_block in index and dom.dominates(
                            index[def_block], bi
                        ):
                            continue
                        else:
                            why = "is defined in a block that does not dominate this use"
                    elif isinstance(v, BlockArgument):
                        args = v.block.args
                        if not (v.index < len(args) and args[v.index] is v):
                            why = "is a block argument that was erased from its block"
                        elif v.block is block or (
                            dom is not None and v.block in index and dom.dominates(index[v.block], bi)
                        ):
                            continue
                        else:
                            why = "is a block argument of a block that does not dominate this use"
                    else:
                        continue
                    raise VerifyException(
                        f"ori.func @{self.sym_name.data}: operand #{k} of {op.name} "
                        f"(in block #{bi}) {why}"
                    )
                seen.add(op)

    def _verify_target(self) -> None:
        name = self.target_name()
        if name is None:
            return
        from targets import get_target  # lazy: loads the target tables; most functions name none

        target = get_target(name)  # raises a diagnostic naming the known targets
        missing = {f for f in ("UR", "UP", "B") if target.reg_limit(f) == 0}
        if not missing:
            return
        # Only older SMs lack register files, so the walk is rarely needed.
        for block in self.body.blocks:
            values = [*block.args, *(r for op in block.ops for r in op.results)]
            for v in values:
                t = v.type
                if isinstance(t, OriRegisterType) and t.REG_FILE.value in missing:
                    raise VerifyException(
                        f"ori.func @{self.sym_name.data}: {name} has no {t.REG_FILE.value} "
                        f"registers, but a value has type {t}"
                    )

    # ------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        if self.is_kernel:
            printer.print_string(" kernel")
        attrs: dict[str, Attribute] = {
            k: v for k, v in self.properties.items() if k not in ("sym_name", "function_type", "kernel")
        }
        attrs.update(self.attributes)
        print_func_op_like(
            printer, self.sym_name, self.function_type, self.body, attrs, reserved_attr_names=()
        )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        kernel = parser.parse_optional_keyword("kernel") is not None
        pos = parser.pos
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "kernel")
        )
        if arg_attrs is not None or res_attrs is not None:
            parser.raise_error("ori.func takes no argument or result attributes", pos, parser.pos)
        if not region.blocks:
            parser.raise_error(f"ori.func @{name} needs a body", pos, parser.pos)
        op = cls(name, inputs, outputs, kernel=kernel, region=region)
        if extra is not None:
            for k, v in extra.data.items():
                if k in _PROPS:
                    op.properties[k] = v
                else:
                    op.attributes[k] = v
        return op


RUNTIME_FUNCTIONS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "malloc": ((64,), (64,)),
    "free": ((64,), ()),
    "vprintf": ((64, 64), (32,)),
    "__assertfail": ((64, 64, 32, 64, 64), ()),
}
"""The CUDA device runtime's functions nvcc declares ``.extern .func`` in
device code, by name: the bit widths of their parameters and results.
``malloc``/``free`` (also ``new``/``delete``), ``vprintf`` (``printf``: format
string, pointer to the packed argument buffer; returns the number of
arguments) and ``__assertfail`` (``assert``: message, file, line, function,
character size).  The CUDA driver resolves them when it loads the module
(ptxas 13.0 calls them ``CALL.ABS.NOINC`` through an address it loads from
constant bank 4)."""


@irdl_op_definition
class RuntimeFuncOp(IRDLOperation):
    """A function of the CUDA device runtime the module calls: a declaration
    without body, which ``ori.call`` may name (:data:`RUNTIME_FUNCTIONS`).

    ::

        ori.runtime_func @malloc : (!ori.r64) -> !ori.r64

    It is not an ``ori.func``: passes that work on function bodies do not see
    it, and a call to it is a leaf call as far as the call graph is concerned
    (the register allocator's call order and the spill area's reachable
    functions only follow calls to ``ori.func``s).  The interpreter implements
    each function (``run_kernel``'s docstring)."""

    name = "ori.runtime_func"

    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), OriCallable())

    def __init__(self, name: str, inputs: Sequence[Attribute] = (),
                 outputs: Sequence[Attribute] = ()) -> None:
        super().__init__(
            regions=[Region()],
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(list(inputs), list(outputs)),
            },
        )

    @classmethod
    def for_runtime(cls, name: str) -> RuntimeFuncOp:
        """The declaration of runtime function ``name`` (its signature from
        :data:`RUNTIME_FUNCTIONS`)."""
        ins, outs = RUNTIME_FUNCTIONS[name]
        return cls(name, [_reg_of_bits(b) for b in ins], [_reg_of_bits(b) for b in outs])

    def verify_(self) -> None:
        name = self.sym_name.data
        if self.body.blocks:
            raise VerifyException(f"ori.runtime_func @{name}: a runtime function has no body")
        sig = RUNTIME_FUNCTIONS.get(name)
        if sig is None:
            known = ", ".join(sorted(RUNTIME_FUNCTIONS))
            raise VerifyException(
                f"ori.runtime_func @{name}: not a CUDA device runtime function ori knows "
                f"({known})")
        ftype = self.function_type
        have = tuple(tuple(t.BITS if isinstance(t, R32Type | R64Type) else -1
                           for t in ts) for ts in (ftype.inputs.data, ftype.outputs.data))
        if have != sig:
            want = FunctionType.from_lists([_reg_of_bits(b) for b in sig[0]],
                                           [_reg_of_bits(b) for b in sig[1]])
            raise VerifyException(
                f"ori.runtime_func @{name}: has type {ftype}, the runtime function has type {want}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" @")
        printer.print_string(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.function_type)

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeFuncOp:
        name = parser.parse_symbol_name().data
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        return cls(name, ftype.inputs.data, ftype.outputs.data)


def _reg_of_bits(bits: int) -> Attribute:
    return R64Type.unallocated() if bits == 64 else R32Type.unallocated()


__all__ = ["RUNTIME_FUNCTIONS", "TARGET_ATTR", "FuncOp", "RuntimeFuncOp"]
