"""``ori-asm``: a SASS-like listing of a module of ``ori.func`` ops.

Use it as an output target (``ori-opt -t ori-asm``, ``xdsl-opt -t ori-asm``)
or from Python (:func:`format_module`, :func:`format_function`, or
``OriAsmTarget().emit(ctx, module, stream)``).  The listing is for people and
FileCheck; it is not meant to be assembled.

Format
------
::

    // ori-asm, target sm_80
    .entry k  // target sm_80; params: 0x0 (8 B, align 8), 0x8 (4 B, align 4)
    .L_x_0:
            LDC.64 %r0, c[0x0][0x210] ;
            S2R %r1, SR_TID.X ;
            BRA .L_x_1 ;  // .L_x_1(%r3 <- %r2)
    .L_x_1:  // block args: %r3
            IMAD.WIDE.U32 %r4, %r3, 0x4, %r0 ;
            LDG.E.64 %r5, [%r4.64+0x10] ;
       @!P0 BRA .L_x_1 ;
            EXIT ;
    // end k: 12 instructions, 3 blocks

* One header line per function: ``.entry NAME`` for kernels, ``.func
  NAME(args) -> (result types)`` for device functions, then a comment with
  the module's SM target and the parameter descriptors (byte offset in the
  parameter area for kernels, size and alignment).  Performance directives
  follow as ``.maxnreg N`` / ``.maxntid X, Y, Z`` / ``.reqntid ...`` /
  ``.minnctapersm N`` lines.
* Blocks are labelled ``.L_x_N:`` with N the block's index in the function;
  a block with arguments lists them in a comment on the label line.
* An instruction line is: optional guard (``@P0`` / ``@!P0``), the mnemonic
  (the op's ``SASS`` name plus its modifiers upper-cased and dot-joined, e.g.
  ``ISETP.GE.U32.AND``; memory widths print as SASS does, ``b64`` -> ``.64``,
  ``u8`` -> ``.U8``), destinations, then sources, and `` ;``.  SETP's combining
  op (``.AND``), SHF's type, BAR's mode and MEMBAR's scope are always printed,
  as SASS does, even when they are the IR's default; a SETP with one result
  prints ``PT`` for the second, as SASS does.
* Registers: an allocated value prints its physical name (``R4``, ``UR6``,
  ``P0``; a 64/128-bit value prints its base register, ``R4`` for R4:R5);
  RZ/URZ/PT/UPT print as such.  An unallocated (virtual) value prints as
  ``%`` + the lower-case file name + a number: ``%r12``, ``%ur1``, ``%p3``,
  ``%up0``, ``%b0``.  Numbers count per file and per function, in layout
  order of definition (function arguments, then each block's arguments and
  results in order), so they are stable for a given function.
* Operands: integer immediates in hex (``0x10``, ``-0x1``), float immediates
  in decimal (``1.5``, ``2``, ``+INF``, ``+QNAN``), constant-bank operands
  ``c[0x0][0x160]``, addresses ``[R2.64+0x10]`` (``.64`` marks a 64-bit
  base), ``LDC`` as ``c[0x0][R2+0x10]``, source modifiers ``-R1``, ``|R1|``,
  ``!P0``; ``S2R``/``CS2R`` name their special register (``SR_TID.X``).
* Guarded instructions that define values keep the tied prior value when the
  guard fails; before register allocation (when the names differ) this is
  shown as ``// else %r7 = %r3``.
* Branches: ``BRA .L_x_3 ;``.  A guarded branch prints ``@P0 BRA .L_x_3 ;``
  and then an unconditional ``BRA`` to its fall-through successor, unless
  that successor is the next block in layout.  Values passed along an edge
  (block arguments, before allocation) are shown as moves in a comment on the
  branch line: ``// .L_x_1(%r3 <- %r7)``; an elided fall-through's moves get
  their own comment line ``// fall through to .L_x_2(...)``.  Moves between
  equal names (after allocation) are left out.  An indexed branch prints
  ``BRX %r5 ;  // targets .L_x_1, .L_x_2`` (ptxas prints the jump-table
  offset instead; ori keeps the table as the op's successors).
* ``MATCH`` prints its predicate result before its register result, as
  SASS does (``MATCH.ALL P0, R8, R2``).  ``REDUX``, ``CREDUX``, ``MATCH``
  and a ``SHFL`` that has one show their member mask in the comment (``// membermask 0xffff``): ptxas
  does not encode it in the instruction.
* An op class whose SASS form the rule above does not give spells its own
  line (``OriInstruction.sass_form``: mnemonic, operands and a note for the
  comment, built with this listing's operand spelling); the guard, the tied
  prior values and the count stay the listing's.  The warpgroup MMA and
  texture ops do, as ptxas 13.0 prints them (tables in ``ops/gmma.py`` and
  ``ops/texture.py``):
  ``HGMMA.64x16x16.F32.BF16 R24, gdesc[R8].negA.tnspB, RZ, !UPT`` (the
  descriptors as ``gdesc[A]`` when B's is in the pair above A's, else
  ``gdesc[A, B]``; an A in registers before it, ``-R32`` negated; a true
  ``scale-d`` left out, a false one ``!UPT``), ``WARPGROUP.DEPBAR.LE gsb0,
  0x0``, and ``TLD.LZ RZ, R8, R2, R4, 0x0, 1D, 0x1`` / ``TEX.LL`` /
  ``TLD4.R`` (the results' z,w pair, RZ when not written, and x,y pair; the
  coordinates, ``{R2, R0}`` when not a register pair; the handle; ``0x0``;
  the dimension; the write mask unless all four components are written).
  ori keeps the descriptors and handles in R registers and a ``scale-d``
  predicate in a P register where ptxas uses UR / UP; a commit group is
  its own ``GSB0`` line, not ptxas's ``gsb0`` operand on the last HGMMA.
* ``CALL.REL.NOINC `(name) ;`` with its arguments and results in a comment
  (``CALL.ABS.NOINC`` for a CUDA device-runtime function, an
  ``ori.runtime_func``, which prints as a ``// .extern .func`` line),
  ``RET.REL.NODEC ;`` with returned values in a comment, ``EXIT ;``.
* A pseudo-op that register allocation left with nothing to do (an
  ``ori.pack`` / ``ori.unpack`` whose parts are in their registers of the
  wide value, a ``MOV`` onto its own register: ``sass_instructions() == 0``)
  prints as a comment, ``// PACK R2, R2, R3 ;  no instruction: in place``,
  and is not counted.
* Each function ends with ``// end NAME: N instructions, M blocks``; N counts
  the instruction lines printed.
* Ops that are not Ori instructions print as a comment naming the op.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.target import Target

from ori_dialect.ir.attrs import CBankAttr, ParamAttr
from ori_dialect.ir.instruction import OriInstruction, Src
from ori_dialect.ir.registers import OriRegisterType
from ori_dialect.ops.base import INDEX_SCALES
from ori_dialect.ops.control import BraOp, BrxOp, CallIndirectOp, CallOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.func import TARGET_ATTR, FuncOp, RuntimeFuncOp
from ori_dialect.ops.module_vars import AddrOp
from ori_dialect.ops.special import UndefOp

_INDENT = " " * 4
_GUARD_WIDTH = 5  # "@!P0 " fits; longer virtual guards just push the line

# Modifier groups SASS always spells out although the IR elides the default.
_ALWAYS_PRINTED: frozenset[tuple[str, str]] = frozenset(
    {("*", "bop"), ("SHF", "type"), ("BAR", "mode"), ("MEMBAR", "scope")}
)
# Groups that name an operand (special register), not a modifier.
_OPERAND_GROUPS = frozenset({"sr", "dim", "sb"})  # sb: DEPBAR's scoreboard (SB0)
# Instructions whose predicate result SASS prints before the register result
# (``MATCH.ALL P0, R8, R2``).
_PRED_FIRST = frozenset({"MATCH"})
# Warp collectives whose last source, the PTX member mask, SASS does not
# print (ptxas turns it into a WARPSYNC): shown in the line's comment.
_MASK_IN_COMMENT = frozenset({"REDUX", "CREDUX", "MATCH"})


def _hex(v: int) -> str:
    return hex(v) if v >= 0 else "-" + hex(-v)


def _float(v: float) -> str:
    if math.isnan(v):
        return "+QNAN"
    if math.isinf(v):
        return "+INF" if v > 0 else "-INF"
    text = repr(v)
    return text.removesuffix(".0")


class _Names:
    """Register names of one function (module docstring, "Registers")."""

    def __init__(self) -> None:
        self._names: dict[SSAValue, str] = {}
        self._counts: dict[str, int] = {}

    def define(self, v: SSAValue) -> None:
        if v in self._names:
            return
        t = v.type
        if isinstance(t, OriRegisterType) and t.register_name.data:
            self._names[v] = t.register_name.data
            return
        prefix = t.REG_FILE.value.lower() if isinstance(t, OriRegisterType) else "v"
        n = self._counts.get(prefix, 0)
        self._counts[prefix] = n + 1
        self._names[v] = f"%{prefix}{n}"

    def __call__(self, v: SSAValue) -> str:
        if v not in self._names:
            self.define(v)
        return self._names[v]


class _FunctionPrinter:
    def __init__(self, func: FuncOp, out: IO[str]) -> None:
        self.func = func
        self.out = out
        self.names = _Names()
        self.blocks = list(func.body.blocks)
        self.index = {b: i for i, b in enumerate(self.blocks)}
        self.count = 0
        self.no_code = False
        mod = func.parent_op()
        self.runtime = {op.sym_name.data for op in mod.body.ops
                        if isinstance(op, RuntimeFuncOp)} if isinstance(mod, ModuleOp) else set()
        """The module's device-runtime functions (called ``CALL.ABS.NOINC``)."""
        for a in func.body.blocks[0].args if func.body.blocks else ():
            self.names.define(a)
        for b in self.blocks:
            for a in b.args:
                self.names.define(a)
            for op in b.ops:
                for r in op.results:
                    self.names.define(r)

    # -- output helpers -------------------------------------------------
    def line(self, text: str) -> None:
        self.out.write(text + "\n")

    def insn(self, text: str, guard: str = "", comment: str = "") -> None:
        g = guard.rjust(_GUARD_WIDTH) + " " if guard else " " * (_GUARD_WIDTH + 1)
        if self.no_code:
            # allocation put the operands in place: ptxas emits nothing here
            self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// {guard + ' ' if guard else ''}"
                      f"{text} ;  no instruction: in place")
            return
        self.count += 1
        self.line(f"{_INDENT}{g}{text} ;" + (f"  // {comment}" if comment else ""))

    def label(self, b: Block) -> str:
        return f".L_x_{self.index[b]}"

    # -- function -------------------------------------------------------
    def print(self) -> None:
        f = self.func
        name = f.sym_name.data
        target = f.target_name()
        notes = [f"target {target}" if target else "no target"]
        params = f.params.data if f.params is not None else ()
        if f.is_kernel:
            head = f".entry {name}"
            if params:
                notes.append("params: " + ", ".join(_param(p) for p in params))
        else:
            args = ", ".join(self.names(a) for a in f.body.blocks[0].args) if f.body.blocks else ""
            res = ", ".join(_type_name(t) for t in f.function_type.outputs.data)
            head = f".func {name}({args})" + (f" -> ({res})" if res else "")
            if params:
                notes.append("params: " + ", ".join(_param(p) for p in params))
            if f.returns is not None and f.returns.data:
                notes.append("returns: " + ", ".join(_param(p) for p in f.returns.data))
        self.line(f"{head}  // {'; '.join(notes)}")
        for directive in ("maxnreg", "minnctapersm"):
            a = f.properties.get(directive)
            if isinstance(a, IntegerAttr):
                self.line(f".{directive} {a.value.data}")
        for directive in ("maxntid", "reqntid"):
            a = f.properties.get(directive)
            if isinstance(a, DenseArrayBase):
                self.line(f".{directive} " + ", ".join(str(int(v)) for v in a.get_values()))
        for b in self.blocks:
            self.print_block(b)
        n, c = len(self.blocks), self.count
        self.line(
            f"// end {name}: {c} instruction{'' if c == 1 else 's'}, "
            f"{n} block{'' if n == 1 else 's'}"
        )

    def print_block(self, b: Block) -> None:
        lab = self.label(b) + ":"
        if b.args:
            lab += "  // block args: " + ", ".join(self.names(a) for a in b.args)
        self.line(lab)
        for op in b.ops:
            self.print_op(op)

    # -- ops --------------------------------------------------------------
    def print_op(self, op: Operation) -> None:
        if isinstance(op, BraOp):
            self.print_bra(op)
        elif isinstance(op, ExitOp):
            self.insn(op.SASS)
        elif isinstance(op, RetOp):
            vals = ", ".join(self.names(v) for v in op.values)
            self.insn(op.SASS, comment=f"returns {vals}" if vals else "")
        elif isinstance(op, CallOp):
            self.print_call(op)
        elif isinstance(op, AddrOp):
            # a load-time address (ptxas reads it from a loader-filled bank)
            self.insn(f"MOV.64 {self.names(op.res)}, &{op.symbol_name}")
        elif isinstance(op, BrxOp):
            self.print_brx(op)
        elif isinstance(op, UndefOp):
            # No instruction: the register simply holds whatever it holds.
            names = ", ".join(self.names(r) for r in op.results)
            # a callee save's source: the caller's value (regalloc/callee_saves.py)
            what = "the caller's (callee save)" if "ori.abi_save" in op.attributes else "undefined"
            self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// {names} = {what}")
        elif isinstance(op, PragmaOp):
            self.line(f'{_INDENT}{" " * (_GUARD_WIDTH + 1)}// .pragma "{op.text.data}"')
        elif isinstance(op, OriInstruction):
            self.no_code = op.sass_instructions() == 0
            self.print_instruction(op)
            self.no_code = False
        else:
            self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// {op.name} (not an Ori instruction)")

    def guard_text(self, guard: SSAValue | None, neg: bool) -> str:
        if guard is None:
            return ""
        return "@" + ("!" if neg else "") + self.names(guard)

    def moves(self, dest: Block, args: tuple[SSAValue, ...] | list[SSAValue]) -> str:
        pairs = [
            f"{self.names(d)} <- {self.names(s)}"
            for d, s in zip(dest.args, args)
            if self.names(d) != self.names(s)
        ]
        return f"{self.label(dest)}({', '.join(pairs)})" if pairs else ""

    def print_bra(self, op: BraOp) -> None:
        """A branch whose target is the next block in layout is no instruction
        (``BraOp.sass_instructions``): an unguarded one is a comment, a
        guarded one branches to its other target under the inverted guard."""
        neg = op.guard_neg is not None
        parent = op.parent_block()
        nxt = parent.next_block if parent is not None else None
        tmoves = self.moves(op.taken, list(op.taken_args))
        fall = op.fallthrough
        if fall is None:
            if op.taken is nxt:
                self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// fall through to "
                          f"{tmoves or self.label(op.taken)}")
            else:
                self.insn(f"BRA {self.label(op.taken)}", comment=tmoves)
            return
        fmoves = self.moves(fall, list(op.fallthrough_args))
        if op.taken is nxt and fall is not nxt:
            self.insn(f"BRA {self.label(fall)}", self.guard_text(op.guard, not neg), fmoves)
            if tmoves:
                self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// fall through to {tmoves}")
            return
        self.insn(f"BRA {self.label(op.taken)}", self.guard_text(op.guard, neg), tmoves)
        if fall is nxt:
            if fmoves:
                self.line(f"{_INDENT}{' ' * (_GUARD_WIDTH + 1)}// fall through to {fmoves}")
        else:
            self.insn(f"BRA {self.label(fall)}", comment=fmoves)

    def print_brx(self, op: BrxOp) -> None:
        targets = ", ".join(self.label(t) for t in op.targets)
        self.insn(f"{op.SASS} {self.names(op.index)}", comment=f"targets {targets}")

    def print_call(self, op: CallOp) -> None:
        callee = op.callee
        if isinstance(op, CallIndirectOp):
            # CALL.ABS through the address register pair
            name = self.names(op.target)
        else:
            name = callee.string_value() if isinstance(callee, SymbolRefAttr) else str(callee)
        args = ", ".join(self.names(a) for a in op.args)
        res = ", ".join(self.names(r) for r in op.res)
        comment = f"({args})" + (f" -> {res}" if res else "")
        sass = op.SASS
        if name in self.runtime and not isinstance(op, CallIndirectOp):
            # ptxas calls the driver's code absolutely, through an address it
            # loads from constant bank 4 (LDC.64 R2, c[0x4][...]; CALL.ABS.NOINC R2)
            sass = CallIndirectOp.SASS
            comment += "; CUDA device runtime"
        out = op.stack_out()
        if out:  # the outgoing area of stack-passed arguments (passes/abi/stack_args.py)
            self.insn(f"IADD3 R1, R1, {-out:#x}, RZ", comment="stack pointer: outgoing area")
        self.insn(f"{sass} `({name})", comment=comment)
        if out:
            self.insn(f"IADD3 R1, R1, {out:#x}, RZ", comment="stack pointer")

    def print_instruction(self, op: OriInstruction) -> None:
        form = op.sass_form(self.operand)
        if form is None:
            text, comment = self.generic_form(op)
        else:
            text = form.mnemonic + (" " + ", ".join(form.operands) if form.operands else "")
            comment = form.note
        _, guard, prior = op.operand_groups()
        if prior:
            ties = [
                f"{self.names(d)} = {self.names(p)}"
                for d, p in zip(op.dsts, prior)
                if self.names(d) != self.names(p)
            ]
            if ties:
                comment = "; ".join(c for c in (comment, "else " + ", ".join(ties)) if c)
        guard_text = self.guard_text(guard, op.guard_neg is not None)
        self.insn(text, guard_text, comment)
        for more in form.also if form is not None else ():
            self.insn(more.mnemonic + (" " + ", ".join(more.operands) if more.operands else ""),
                      guard_text, more.note)

    def generic_form(self, op: OriInstruction) -> tuple[str, str]:
        """The line (mnemonic and operands) and comment of an op without a
        ``sass_form`` of its own (module docstring, "instruction line")."""
        cls = type(op)
        uniform = cls.UNIFORM_SASS is not None and op.is_uniform_form()
        mnemonic = (cls.UNIFORM_SASS if uniform else cls.SASS) or cls.name.removeprefix("ori.").upper()
        special: list[str] = []
        for g in cls.MODS:
            val = op.mod(g.name)
            if val is None:
                continue
            if g.name in _OPERAND_GROUPS:
                special.append(val)
                continue
            if val == g.default and not (
                ("*", g.name) in _ALWAYS_PRINTED or (cls.SASS, g.name) in _ALWAYS_PRINTED
            ):
                continue
            if val in cls.SASS_SPELLING:
                mnemonic += "." + cls.SASS_SPELLING[val]
                continue
            if g.name == "width" and val.startswith("b"):
                val = val[1:]  # b64 -> .64, as SASS spells access widths
            mnemonic += "." + val.upper()
        dsts = list(op.dsts)
        if cls.SASS in _PRED_FIRST:
            dsts.reverse()
        operands = [self.names(d) for d in dsts]
        if any(g.name == "bop" for g in cls.MODS) and len(op.dsts) == 1:
            operands.append("UPT" if uniform else "PT")
        if special:
            operands.append(".".join(special))
        srcs = self.sources(op)
        comment = ""
        if srcs and (cls.SASS in _MASK_IN_COMMENT
                     or (cls.SASS == "SHFL" and len(srcs) == len(cls.SRCS))):
            comment = f"membermask {srcs.pop()}"
        operands.extend(srcs)
        return mnemonic + (" " + ", ".join(operands) if operands else ""), comment

    def sources(self, op: OriInstruction) -> list[str]:
        smods = op.smod_map()
        vals = op.slot_values()
        out: list[str] = []
        is_ldc = type(op).SASS == "LDC"
        i = 0
        while i < len(vals):
            slot, v = vals[i]
            if slot.address:
                off = vals[i + 1][1] if i + 1 < len(vals) else None
                o = off.value.data if isinstance(off, IntegerAttr) else 0
                scale = smods.get(slot.name) if smods.get(slot.name) in INDEX_SCALES else None
                base = self.operand(v, None if scale else smods.get(slot.name))
                if _is_wide_base(slot, v):
                    base += ".64"
                if scale:
                    base += "." + scale.upper()  # [R8.X4+0x100]
                if is_ldc and out:
                    bank = out.pop()
                    inner = _hex(o) if base == "RZ" else base + (f"{o:+#x}" if o else "")
                    out.append(f"c[{bank}][{inner}]")
                else:
                    out.append(f"[{base}{f'{o:+#x}' if o else ''}]")
                i += 2
                continue
            out.append(self.operand(v, smods.get(slot.name)))
            i += 1
        return out

    def operand(self, v: SSAValue | Attribute, smod: str | None) -> str:
        parts = smod.split(".") if smod else []
        if isinstance(v, SSAValue):
            text = self.names(v)
        elif isinstance(v, OriRegisterType):
            text = v.register_name.data
        elif isinstance(v, CBankAttr):
            text = v.asm()
        elif isinstance(v, IntegerAttr):
            text = _hex(v.value.data)
        elif isinstance(v, FloatAttr):
            text = _float(v.value.data)
        else:
            text = str(v)
        if "abs" in parts:
            text = f"|{text}|"
        if "neg" in parts:
            text = "-" + text
        if "not" in parts:
            # Predicates negate with '!', registers invert bitwise with '~'.
            t = v.type if isinstance(v, SSAValue) else v
            is_pred = isinstance(t, OriRegisterType) and t.REG_FILE.is_predicate
            text = ("!" if is_pred else "~") + text
        return text


def _is_wide_base(slot: Src, v: SSAValue | Attribute) -> bool:
    if isinstance(v, SSAValue):
        return isinstance(v.type, OriRegisterType) and v.type.BITS == 64
    return False


def _type_name(t: Attribute) -> str:
    if isinstance(t, OriRegisterType):
        return t.name.removeprefix("ori.")
    return str(t)


def _param(p: Attribute) -> str:
    if not isinstance(p, ParamAttr):
        return str(p)
    at = f"{_hex(p.offset.data)} " if p.offset.data >= 0 else ""
    return f"{at}({p.size.data} B, align {p.align.data})"


def format_function(func: FuncOp) -> str:
    """The ``ori-asm`` listing of one function."""
    out = StringIO()
    _FunctionPrinter(func, out).print()
    return out.getvalue()


def format_module(module: ModuleOp) -> str:
    """The ``ori-asm`` listing of every ``ori.func`` in ``module``."""
    out = StringIO()
    target = module.attributes.get(TARGET_ATTR)
    header = "// ori-asm"
    if isinstance(target, StringAttr):
        header += f", target {target.data}"
    out.write(header + "\n")
    for op in module.body.ops:
        if isinstance(op, FuncOp):
            out.write("\n")
            _FunctionPrinter(op, out).print()
        elif isinstance(op, ModuleOp):
            out.write("\n" + format_module(op))
        elif isinstance(op, RuntimeFuncOp):
            ft = op.function_type
            out.write(f"\n// .extern .func {op.sym_name.data}"
                      f"({', '.join(str(t) for t in ft.inputs.data)})"
                      f" -> ({', '.join(str(t) for t in ft.outputs.data)})"
                      ": CUDA device runtime, resolved by the driver\n")
        else:
            out.write(f"\n// {op.name} (not an ori.func; skipped)\n")
    return out.getvalue()


@dataclass(frozen=True)
class OriAsmTarget(Target):
    """The ``ori-asm`` output target (module docstring)."""

    name = "ori-asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(format_module(module))


__all__ = ["OriAsmTarget", "format_function", "format_module"]
