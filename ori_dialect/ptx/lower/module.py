"""Lowering of a whole PTX module: target, shared-memory layout, functions.

``import_ptx(text)`` is the public entry point (parse, then lower).

Module-level decisions:

* ``.target sm_XX`` is recorded as the module's ``ori.target`` (an explicit
  ``target=`` argument overrides it); the target fixes where kernel
  parameters live in constant bank 0.
* ``.shared`` variables (module or function scope) are laid out once per
  module in declaration order, each at its alignment; ``.extern .shared``
  arrays (dynamic shared memory) start after the static ones at 16-byte
  alignment.  Every kernel records the static size as ``ori.shared_bytes``
  (the interpreter adds the launch's dynamic size).  ptxas lays out only the
  variables a kernel uses; ori reserves all of them for every kernel.
* Functions are lowered in file order; a device function's declared
  prototype (``.func`` without body) must be defined in the same module.
"""

from __future__ import annotations

import gc

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i32

from ori_dialect.ops.func import TARGET_ATTR, FuncOp
from ori_dialect.ptx import ast
from ori_dialect.ptx.lower.builder import param_size_align
from ori_dialect.ptx.lower.function import FunctionLowering
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
        self.global_vars: dict[str, str] = {}
        self.functions_by_name: dict[str, ast.Function] = {}
        self.helpers: dict[str, FuncOp] = {}
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
        if st.name in self.shared_offsets or st.name in self.dynamic_shared:
            return
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
        self.shared_end += size

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
        for g in self.ast.globals:
            if isinstance(g, ast.VarDecl):
                if g.space == "shared":
                    self.declare_shared(g)
                else:
                    self.global_vars[g.name] = g.space
        # Function-scope shared arrays get their place before any body is lowered.
        for f in self.ast.functions:
            for st in f.statements():
                if isinstance(st, ast.VarDecl) and st.space == "shared":
                    self.declare_shared(st)
        dyn_base = -(-self.shared_end // 16) * 16
        for name in self.dynamic_shared:
            self.shared_offsets[name] = dyn_base
        ops = []
        shared_bytes: dict[int, IntegerAttr] = {}  # one attribute per value (immutable)
        for f in self.ast.functions:
            if f.body is None:
                continue
            func = FunctionLowering(self, f).lower()
            if f.kind == "entry":
                a = shared_bytes.get(self.shared_end)
                if a is None:
                    a = shared_bytes[self.shared_end] = IntegerAttr(self.shared_end, i32)
                func.attributes["ori.shared_bytes"] = a
            ops.append(func)
        for g in self.ast.globals:
            if isinstance(g, ast.Function) and g.body is None and g.name not in {
                f.name for f in self.ast.functions if f.body is not None
            }:
                # Calls to it are diagnosed where they occur; an unused prototype is fine.
                continue
        ops.extend(self.helpers.values())
        return ModuleOp(ops, attributes={TARGET_ATTR: StringAttr(self.target_name)})


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
