"""Typed AST for the PTX subset that nvcc 13 emits (ISA 8.x / 9.x).

Every node is a frozen dataclass.  Statements carry their PTX position
(``line``/``col``, 1-based) and, where a ``.loc`` directive preceded them,
the CUDA source location (:class:`SourceLoc`; the file index resolves through
:attr:`Module.files`, which ``.file`` directives fill, usually at the end of
the file).

Shape::

    Module(version, targets, address_size, files, globals, functions)
      globals:   VarDecl | Function (prototype, body None)
      Function(kind 'entry'|'func', name, params, return_params, directives,
               noreturn, linkage, body: tuple[Statement, ...] | None)
      Statement: RegDecl | VarDecl | Instruction | Call | Label | Pragma
                 | CallProto | BranchTargets | Block
      Operand:   Register | Immediate | Symbol | LabelRef | Address | Vector
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceLoc:
    """A CUDA source position from ``.loc FILE LINE COL`` (file is the index)."""

    file: int
    line: int
    col: int
    inlined_at: SourceLoc | None = None


# ----------------------------------------------------------------------------
# Operands


@dataclass(frozen=True)
class Register:
    """A register use, ``%r1``, ``%tid.x`` or a plain-named register.

    ``negated`` is set for ``!%p`` predicate sources; ``pair`` holds the second
    destination of ``%r|%p`` (``shfl.sync``, ``setp``).
    """

    name: str
    negated: bool = False
    pair: str | None = None


@dataclass(frozen=True)
class Immediate:
    """An integer or floating-point constant; ``text`` is the PTX spelling.

    ``kind`` is ``'int'``, ``'f32'`` (``0f`` + 8 hex digits), ``'f64'``
    (``0d`` + 16 hex digits) or ``'float'`` (decimal literal).
    """

    value: int | float
    text: str
    kind: str = "int"


@dataclass(frozen=True)
class Symbol:
    """A reference to a variable, parameter or function by name."""

    name: str


@dataclass(frozen=True)
class LabelRef:
    """A branch target."""

    name: str


@dataclass(frozen=True)
class Address:
    """``[base+offset]``; base is a register, a symbol or None (absolute)."""

    base: Register | Symbol | None
    offset: int = 0


@dataclass(frozen=True)
class Vector:
    """``{a, b, ...}``; elements are registers, immediates or the sink ``_``."""

    elements: tuple[Operand, ...]


@dataclass(frozen=True)
class TextureRef:
    """``[tex, {c0, c1}]`` (unified texture mode, what nvcc emits for texture
    objects) or ``[tex, sampler, {c0, c1}]``: the texture operand of ``tex``
    and ``tld4`` (PTX ISA 9.7.10.3): the handle, then the coordinates."""

    base: Register | Symbol
    rest: tuple[Operand, ...]


Operand = Register | Immediate | Symbol | LabelRef | Address | Vector | TextureRef


# ----------------------------------------------------------------------------
# Declarations


@dataclass(frozen=True)
class RegDecl:
    """``.reg .TYPE name;`` or ``.reg .TYPE %base<count>;`` (``%base0..count-1``)."""

    type: str
    name: str
    count: int | None = None
    vector: int | None = None
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class VarDecl:
    """A ``.global/.const/.shared/.local/.param`` variable.

    ``dims`` holds array extents (``None`` for ``[]``); ``initializer`` is an
    :class:`Immediate`/:class:`Symbol` or a (nested) tuple of them.
    """

    space: str
    type: str
    name: str
    align: int | None = None
    dims: tuple[int | None, ...] = ()
    initializer: object = None
    linkage: str | None = None
    vector: int | None = None
    ptr: bool = False
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class Param:
    """A function parameter (``.param`` or ``.reg``) in a parameter list."""

    space: str
    type: str
    name: str
    align: int | None = None
    dims: tuple[int | None, ...] = ()
    ptr_space: str | None = None
    line: int = 0
    col: int = 0
    # `.ptr [.space] .align N`: the alignment of the memory the pointer points to
    # (not of the parameter, which is `align`)
    ptr_align: int | None = None


# ----------------------------------------------------------------------------
# Statements


@dataclass(frozen=True)
class Instruction:
    """``[@[!]%p] opcode.mod1.mod2 operands;``."""

    opcode: str
    modifiers: tuple[str, ...]
    operands: tuple[Operand, ...]
    guard: tuple[str, bool] | None = None
    loc: SourceLoc | None = None
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class Call:
    """``call[.uni] (rets), target, (args)[, proto];``."""

    modifiers: tuple[str, ...]
    target: Symbol | Register
    returns: tuple[Symbol, ...]
    args: tuple[Operand, ...]
    prototype: str | None = None
    guard: tuple[str, bool] | None = None
    loc: SourceLoc | None = None
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class Label:
    name: str
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class Pragma:
    """``.pragma "text";`` (e.g. ``"nounroll"``)."""

    text: str
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class CallProto:
    """``label: .callprototype (rets) _ (params) [.noreturn];``."""

    name: str
    return_params: tuple[Param, ...]
    params: tuple[Param, ...]
    noreturn: bool = False
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class BranchTargets:
    """``label: .branchtargets L0, L1, ...;``: the target list of ``brx.idx``."""

    name: str
    labels: tuple[str, ...]
    line: int = 0
    col: int = 0


@dataclass(frozen=True)
class Block:
    """A nested ``{ ... }`` scope (nvcc's call sequences)."""

    body: tuple[Statement, ...]
    line: int = 0
    col: int = 0


Statement = (RegDecl | VarDecl | Instruction | Call | Label | Pragma | CallProto | BranchTargets
             | Block)


@dataclass(frozen=True)
class Function:
    """An ``.entry`` kernel or ``.func``; ``body`` is None for a prototype.

    ``directives`` holds performance tuning directives in order, e.g.
    ``(('maxntid', (256, 1, 1)), ('minnctapersm', (2,)), ('pragma', ('nounroll',)))``.
    """

    kind: str
    name: str
    params: tuple[Param, ...]
    return_params: tuple[Param, ...] = ()
    directives: tuple[tuple[str, tuple[int | str, ...]], ...] = ()
    noreturn: bool = False
    linkage: str | None = None
    body: tuple[Statement, ...] | None = None
    line: int = 0
    col: int = 0

    def directive(self, name: str) -> tuple[int | str, ...] | None:
        """The arguments of the first directive called ``name`` (no dot), or None."""
        for key, args in self.directives:
            if key == name:
                return args
        return None

    def statements(self) -> list[Statement]:
        """The body flattened through nested :class:`Block` scopes."""
        out: list[Statement] = []
        stack = [iter(self.body or ())]
        while stack:
            for st in stack[-1]:
                if isinstance(st, Block):
                    stack.append(iter(st.body))
                    break
                out.append(st)
            else:
                stack.pop()
        return out


@dataclass(frozen=True)
class Module:
    version: str
    targets: tuple[str, ...]
    address_size: int | None
    globals: tuple[VarDecl | Function, ...] = ()
    functions: tuple[Function, ...] = ()
    files: dict[int, str] = field(default_factory=dict, hash=False, compare=False)

    def function(self, name: str) -> Function:
        """The defined function (with a body) called ``name``."""
        for f in self.functions:
            if f.name == name and f.body is not None:
                return f
        raise KeyError(name)
