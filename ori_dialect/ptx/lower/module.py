"""Lowering of a whole PTX module: target, module variables, functions.

``import_ptx(text)`` is the public entry point (parse, then lower).

Module-level decisions:

* ``.target sm_XX`` is recorded as the module's ``ori.target`` (an explicit
  ``target=`` argument overrides it); the target fixes where kernel
  parameters live in constant bank 0.
* Module-scope ``.global`` and ``.const`` variables become ``ori.global`` ops
  (:mod:`ori_dialect.ops.module_vars`) with their initializer as bytes plus
  relocations for symbol addresses (``{op_add, op_mul}``, ``generic(v)``,
  ``v+8``; PTX ISA 5.4.4 "Variable Initializers": missing trailing elements
  are zero).  ``.const`` variables are placed in constant bank 3 in
  declaration order at their alignment, as ptxas 13.0 does (``c[0x3][...]``;
  ``ptxas -v``'s ``cmem[3]`` is their total).  ``.extern`` variables without
  a definition are refused: ori has no linker.
* ``.shared`` variables (module or function scope) are laid out per kernel,
  as ptxas lays them out: the static ones a kernel and the device functions
  it reaches use, from 0 in declaration order at their alignment; kernels
  that reach one device function using shared memory share a layout,
  because the IR bakes an offset into every access and lowers a device
  function once (:mod:`.shared_layout`).  ``.extern .shared`` arrays
  (dynamic shared memory) start after the layout's static variables at
  16-byte alignment.  Module-scope ones also appear as ``ori.global ...
  shared`` ops, with an offset where every layout agrees on it.  Each
  kernel records ptxas's ``smem`` figure -- only the static variables it
  and the device functions it reaches (directly or through an address)
  use, laid out in declaration order -- as ``ori.shared_bytes``, and, when
  its layout's offsets reach further (a variable only another kernel of
  its group uses), that extent as ``ori.shared_extent``, which the
  interpreter allocates (the launch's dynamic size follows it).
* Functions are lowered in file order; a device function's declared
  prototype (``.func`` without body) must be defined in the same module,
  except the CUDA device runtime's functions (``malloc``, ``free``,
  ``vprintf``, ``__assertfail``), which become ``ori.runtime_func``
  declarations after the variables (:mod:`.calls`).
"""

from __future__ import annotations

import gc
import struct
from typing import NoReturn

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Operation

from ori_dialect.ops.control import CallIndirectOp, CallOp
from ori_dialect.ops.func import TARGET_ATTR, FuncOp, RuntimeFuncOp
from ori_dialect.ops.module_vars import GlobalOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.builder import param_size_align
from ori_dialect.ptx.lower.function import FunctionLowering
from ori_dialect.ptx.lower.shared_layout import plan_shared_layouts
from ori_dialect.ptx.lower.types import type_bits
from ori_dialect.ptx.parser import PtxSyntaxError, parse_ptx
from targets import get_target
from targets.descriptor import SMTarget


class ModuleLowering:
    def __init__(self, module: ast.Module, text: str, filename: str, target: str | None) -> None:
        self.ast = module
        self.filename = filename
        self._lines: list[str] | None = None
        self._text = text
        name = target or (module.targets[0] if module.targets else None)
        if name is None:
            raise PtxSyntaxError(filename, 1, 1, "missing .target directive (or pass a target)")
        try:
            self.target: SMTarget = get_target(name)
        except Exception:  # noqa: BLE001 -- UnknownTargetError and friends
            raise PtxSyntaxError(filename, 1, 1, f"unknown target '{name}'") from None
        self.target_name = name
        if module.address_size not in (None, 64):
            raise PtxSyntaxError(filename, 1, 1, ".address_size 32 is not supported (64-bit only)")
        self.shared_offsets: dict[str, int] = {}
        self.shared_end = 0
        self.dynamic_shared: list[str] = []
        self.shared_order: list[str] = []
        """Static ``.shared`` variables in declaration order."""
        self.shared_layout: dict[str, tuple[int, int]] = {}
        """Static ``.shared`` variables: (size, alignment)."""
        self._int_attrs: dict[int, IntegerAttr] = {}
        self.global_vars: dict[str, str] = {}
        """Module-scope ``.global``/``.const`` variables by name: their space."""
        self.const_offsets: dict[str, int] = {}
        """``.const`` variables: their offset in constant bank 3."""
        self.address_taken: set[str] = set()
        """Device functions whose address a function or an initializer takes."""
        self.functions_by_name: dict[str, ast.Function] = {}
        self.helpers: dict[str, FuncOp] = {}
        self.runtime_decls: dict[str, RuntimeFuncOp] = {}
        """The CUDA device-runtime functions the module calls (``ori.runtime_func``)."""
        # ``loc`` attributes by (file, line, column), shared by every function.
        self.loc_attrs: dict[tuple[int, int, int], StringAttr] = {}
        for g in module.globals:
            if isinstance(g, ast.Function):
                self.functions_by_name[g.name] = g
        for f in module.functions:
            self.functions_by_name[f.name] = f

    def source_line(self, line: int) -> str:
        if self._lines is None:
            self._lines = self._text.splitlines()
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""

    def declare_shared(self, st: ast.VarDecl, fl: FunctionLowering | None = None) -> None:
        # (module-wide offsets: the layouts are planned once all are declared)
        if st.name in self.shared_layout or st.name in self.dynamic_shared:
            return
        if st.name in self.global_vars:
            raise PtxSyntaxError(self.filename, st.line, st.col,
                                 f"variable '{st.name}' is declared twice",
                                 self.source_line(st.line))
        size, align = param_size_align(st)
        if size == 0 or st.linkage == "extern":
            self.dynamic_shared.append(st.name)
            return
        if st.initializer is not None:
            where = fl.error if fl is not None else None
            msg = f"shared variable '{st.name}' cannot have an initializer"
            if where is not None:
                where(msg, st)
            raise PtxSyntaxError(self.filename, st.line, st.col, msg)
        self.shared_end = -(-self.shared_end // align) * align
        self.shared_offsets[st.name] = self.shared_end
        self.shared_order.append(st.name)
        self.shared_layout[st.name] = (size, align)
        self.shared_end += size

    def runtime_decl(self, name: str) -> None:
        """Declare CUDA device-runtime function ``name`` in the module (once)."""
        if name not in self.runtime_decls:
            self.runtime_decls[name] = RuntimeFuncOp.for_runtime(name)

    def lower_helper(self, source: ast.Module, fn: ast.Function, text: str,
                     filename: str) -> FuncOp:
        """Lower ``fn`` of another PTX ``source`` (a runtime helper, see
        :mod:`.runtime`) in this module's context: its target and helper
        table.  Diagnostics name ``filename``; the source, file name and line
        cache are the only per-module state lowering reads."""
        saved = (self.ast, self.filename, self._text, self._lines)
        self.ast, self.filename, self._text, self._lines = source, filename, text, None
        try:
            return FunctionLowering(self, fn).lower()
        finally:
            self.ast, self.filename, self._text, self._lines = saved

    def lower(self) -> ModuleOp:
        var_ops: list[GlobalOp] = []
        const_end = 0
        for g in self.ast.globals:
            if not isinstance(g, ast.VarDecl):
                continue
            if g.space == "shared":
                self.declare_shared(g)
            elif g.space in ("global", "const"):
                if g.name in self.global_vars:
                    raise PtxSyntaxError(self.filename, g.line, g.col,
                                         f"variable '{g.name}' is declared twice",
                                         self.source_line(g.line))
                self.global_vars[g.name] = g.space
                if g.space == "const":
                    size, align = self._var_size_align(g)
                    const_end = -(-const_end // align) * align
                    self.const_offsets[g.name] = const_end
                    const_end += size
            else:
                raise PtxSyntaxError(self.filename, g.line, g.col,
                                     f"module-scope .{g.space} variable '{g.name}' is not "
                                     "supported", self.source_line(g.line))
        slots: list[GlobalOp | ast.VarDecl] = []
        for g in self.ast.globals:
            if isinstance(g, ast.VarDecl) and g.space in ("global", "const"):
                slots.append(self._variable(g))
            elif isinstance(g, ast.VarDecl) and g.space == "shared" and g.name in self.shared_offsets \
                    and g.name not in self.dynamic_shared:
                slots.append(g)
        # Function-scope shared arrays get their place before any body is lowered.
        for f in self.ast.functions:
            for st in f.statements():
                if isinstance(st, ast.VarDecl) and st.space == "shared":
                    self.declare_shared(st)
        self.layouts = plan_shared_layouts(self.ast.functions, self.shared_order,
                                           self.shared_layout, self.dynamic_shared,
                                           self.address_taken)
        for g in slots:
            if isinstance(g, GlobalOp):
                var_ops.append(g)
                continue
            size, align = param_size_align(g)
            var_ops.append(GlobalOp(g.name, "shared", size, align,
                                    offset=self.layouts.common.get(g.name)))
        ops: list[Operation] = []
        uses: dict[str, set[str]] = {}
        calls: dict[str, set[str]] = {}
        indirect: set[str] = set()
        kernels: list[FuncOp] = []
        for f in self.ast.functions:
            if f.body is None:
                continue
            # the offsets of the kernels that reach this function (shared_layout.py)
            self.shared_offsets = self.layouts.offsets[f.name]
            self.shared_end = self.layouts.static_end[f.name]
            fl = FunctionLowering(self, f)
            func = fl.lower()
            uses[f.name] = fl.shared_used
            calls[f.name] = set()
            for op in func.walk():
                if isinstance(op, CallIndirectOp):
                    indirect.add(f.name)
                elif isinstance(op, CallOp) and op.callee_name() is not None:
                    calls[f.name].add(op.callee_name())  # type: ignore[arg-type]
            if f.kind == "entry":
                kernels.append(func)
            ops.append(func)
        for func in kernels:
            self.shared_offsets = self.layouts.offsets[func.sym_name.data]
            self.shared_end = self.layouts.static_end[func.sym_name.data]
            self._shared_figures(func, uses, calls, indirect)
        ops.extend(self.helpers.values())
        return ModuleOp([*var_ops, *self.runtime_decls.values(), *ops], attributes={TARGET_ATTR: StringAttr(self.target_name)})

    # ------------------------------------------------------------------
    # shared memory per kernel
    # ------------------------------------------------------------------
    def _shared_figures(self, func: FuncOp, uses: dict[str, set[str]],
                        calls: dict[str, set[str]], indirect: set[str]) -> None:
        """``ori.shared_bytes`` (ptxas's ``smem``) and ``ori.shared_extent`` of a kernel."""
        reached = {func.sym_name.data}
        todo = [func.sym_name.data]
        while todo:
            n = todo.pop()
            nxt = set(calls.get(n, ()))
            if n in indirect:
                # an indirect call may reach any function whose address is taken
                nxt |= self.address_taken
            for c in nxt:
                if c not in reached:
                    reached.add(c)
                    todo.append(c)
        used: set[str] = set()
        for n in reached:
            used |= uses.get(n, set())
        static = [n for n in self.shared_order if n in used]
        smem = 0
        extent = 0
        for n in static:
            size, align = self.shared_layout[n]
            smem = -(-smem // align) * align + size
            extent = max(extent, self.shared_offsets[n] + size)
        if any(n in used for n in self.dynamic_shared):
            # dynamic shared memory starts at the module-wide static end (the
            # launch rounds it up to 16 bytes, as for ptxas's smem)
            extent = max(extent, self.shared_end)
        func.attributes["ori.shared_bytes"] = self._int_attr(smem)
        if extent > smem:
            func.attributes["ori.shared_extent"] = self._int_attr(extent)

    def _int_attr(self, v: int) -> IntegerAttr:
        # one attribute per value (immutable)
        a = self._int_attrs.get(v)
        if a is None:
            a = self._int_attrs[v] = IntegerAttr(v, i32)
        return a

    # ------------------------------------------------------------------
    # .global / .const variables
    # ------------------------------------------------------------------
    def _var_error(self, g: ast.VarDecl, message: str) -> NoReturn:
        raise PtxSyntaxError(self.filename, g.line, g.col, message, self.source_line(g.line))

    def _var_size_align(self, g: ast.VarDecl) -> tuple[int, int]:
        """Size and alignment; an unsized ``[]`` takes its size from the initializer."""
        size, align = param_size_align(g)
        if g.dims and any(d is None for d in g.dims):
            if g.initializer is None:
                if g.linkage == "extern":
                    self._var_error(g, f"external variable '{g.name}' is not defined in this "
                                    "module (ori has no linker)")
                self._var_error(g, f"variable '{g.name}' has no size")
            if len(g.dims) != 1 or not isinstance(g.initializer, tuple):
                self._var_error(g, f"cannot size '{g.name}' from its initializer")
            size = _elem_bytes(g) * len(g.initializer) * (g.vector or 1)
        return size, align

    def _variable(self, g: ast.VarDecl) -> GlobalOp:
        if g.linkage == "extern":
            self._var_error(g, f"external variable '{g.name}' is not defined in this module "
                            "(ori has no linker)")
        size, align = self._var_size_align(g)
        if size == 0:
            self._var_error(g, f"variable '{g.name}' has no size")
        init: bytes | None = None
        relocs: list[tuple[int, str, int]] = []
        if g.initializer is not None:
            items = _flatten(g.initializer)
            esz = _elem_bytes(g)
            count = size // esz
            if len(items) > count:
                self._var_error(g, f"initializer of '{g.name}' has {len(items)} elements, "
                                f"the variable holds {count}")
            buf = bytearray(len(items) * esz)
            for k, item in enumerate(items):
                at = k * esz
                if isinstance(item, ast.Immediate):
                    bits = _init_bits(item, g.type)
                    if bits is None:
                        self._var_error(g, f"initializer element '{item.text}' does not fit a "
                                        f".{g.type} element of '{g.name}'")
                    buf[at:at + esz] = (bits & ((1 << (8 * esz)) - 1)).to_bytes(esz, "little")
                    continue
                sym, addend = (item.name, 0) if isinstance(item, ast.Symbol) else (
                    (item.base.name, item.offset)
                    if isinstance(item, ast.Address) and isinstance(item.base, ast.Symbol)
                    else ("", 0))
                if not sym:
                    self._var_error(g, f"unsupported initializer element in '{g.name}'")
                if esz != 8:
                    self._var_error(g, f"the address of '{sym}' in the initializer of "
                                    f"'{g.name}' needs 64-bit elements, not .{g.type}")
                fn = self.functions_by_name.get(sym)
                if fn is not None:
                    if fn.kind == "entry":
                        self._var_error(g, f"'{sym}' is a kernel entry: only device functions "
                                        "have an address")
                    if not any(f.name == sym and f.body is not None for f in self.ast.functions):
                        self._var_error(g, f"function '{sym}' is declared but not defined in "
                                        "this module (ori has no linker)")
                    self.address_taken.add(sym)
                elif self.global_vars.get(sym) != "global":
                    what = (f"a .{self.global_vars[sym]} variable" if sym in self.global_vars
                            else "no .global variable or function")
                    self._var_error(g, f"initializer of '{g.name}' takes the address of '{sym}', "
                                    f"which is {what}")
                relocs.append((at, sym, addend))
            init = bytes(buf).rstrip(b"\0") or None
        if g.space == "const" and relocs:
            self._var_error(g, f"symbol addresses in the .const variable '{g.name}' are not "
                            "supported")
        return GlobalOp(g.name, g.space, size, align,
                        offset=self.const_offsets.get(g.name), init=init, relocs=relocs)


def _flatten(init: object) -> list[object]:
    """The scalar elements of a (nested) initializer in memory order."""
    if isinstance(init, tuple):
        out: list[object] = []
        for x in init:
            out.extend(_flatten(x))
        return out
    return [init]


def _elem_bytes(g: ast.VarDecl) -> int:
    return max(1, type_bits(g.type) // 8)


def _init_bits(imm: ast.Immediate, ptx_type: str) -> int | None:
    """The bit pattern of an initializer element of type ``ptx_type``: integers
    wrap, ``0f``/``0d`` literals keep their bits in integer types and convert
    between float widths; None for a decimal float in an integer type."""
    bits = type_bits(ptx_type)
    if ptx_type in ("f32", "f64"):
        f = float(imm.value)
        fmt = "<f" if ptx_type == "f32" else "<d"
        return int.from_bytes(struct.pack(fmt, f), "little")
    if ptx_type in ("f16", "bf16"):
        return None if imm.kind != "int" else int(imm.value) & 0xFFFF
    if imm.kind == "f32":
        return int.from_bytes(struct.pack("<f", imm.value), "little")
    if imm.kind == "f64":
        return int.from_bytes(struct.pack("<d", imm.value), "little")
    if imm.kind == "float":
        return None
    return int(imm.value) & ((1 << bits) - 1)


def import_ptx(text: str, filename: str = "<ptx>", target: str | None = None) -> ModuleOp:
    """Parse PTX ``text`` and lower it to an Ori module.

    Raises :class:`~ori_dialect.ptx.parser.PtxSyntaxError` (``FILE:LINE:COL:
    error: ...``) for malformed or unsupported input.
    """
    # The import allocates hundreds of thousands of long-lived objects and
    # frees almost none: the cyclic GC's generation scans found nothing and
    # took ~40% of the time on large files, so it pauses for the import.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        module = parse_ptx(text, filename)
        return ModuleLowering(module, text, filename, target).lower()
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["ModuleLowering", "import_ptx"]
