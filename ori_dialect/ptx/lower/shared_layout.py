"""Where each kernel's ``.shared`` variables live: one layout per kernel, as
ptxas 13.0 lays them out.

ptxas places the static shared variables a kernel uses -- its own and those
of the device functions it reaches -- from offset 0 in declaration order at
their alignment, separately for every kernel, and compiles a device function
once per kernel that reaches it, each copy with that kernel's offsets.
Measured (nvcc 13 / ptxas 13.0, sm_80, three ``__shared__`` arrays ``a``
1 KiB, ``b`` 256 B, ``c`` 128 B; ``dev`` uses ``c``): ``k1`` (``a`` and
``dev``) has ``a`` at 0 and ``c`` at 0x400, ``k2`` (``b`` and ``dev``) has
``b`` at 0 and ``c`` at 0x100 -- ``dev``'s ``STS [R5+0x400]`` in one copy,
``[R5+0x100]`` in the other --, ``k3`` (``a`` and ``b``) has ``b`` at 0x400.
A module-wide layout instead puts a later kernel's arrays behind every
earlier kernel's, and CUB's and the tensor examples' kernels addressed
their buffers at ``[R+0xc00]`` where ptxas's listing reads ``[R]``: an
offset that no longer folds into an address costs an ``IADD3`` and
sometimes a register (cp_async_double_buffer on sm_90, 27 registers
against ptxas's 25).

ori's IR bakes a variable's offset into every access and lowers each device
function once, so kernels that reach one device function using shared
memory share a layout: the kernels are grouped by the shared-memory-using
device functions they reach (a union-find), and each group lays out the
union of its kernels' variables from 0 in declaration order.  A kernel that
shares no such function with another -- every CUB, Thrust, Triton and
example kernel -- gets exactly ptxas's layout; in a group a kernel's
variables keep their relative order but may sit behind a variable only
another kernel uses (its ``smem`` figure still counts its own variables
only, and ``ori.shared_extent`` says how far the group's offsets reach; the
module docstring of :mod:`.module`).  Dynamic shared memory (``.extern
.shared``) starts after the group's static variables at 16-byte alignment.
A device function no kernel reaches keeps the module-wide layout (every
variable in declaration order, as before).

The references are read from the PTX before any function is lowered: the
shared variables each function names (in an address, a ``mov`` of the
variable's address, a texture or vector operand), the functions it calls
directly, whether it calls through a register, and the functions whose
address it takes (an indirect call may reach any of those).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass

from ori_dialect.ptx import ast

DYNAMIC_ALIGN = 16
"""Alignment of the dynamic shared area after the static variables."""


@dataclass
class FunctionRefs:
    """What one function's body names (module docstring)."""

    shared: set[str] = field(default_factory=set)
    callees: set[str] = field(default_factory=set)
    indirect: bool = False
    addresses: set[str] = field(default_factory=set)


def _symbols(op: object) -> Iterable[str]:
    """Every symbol name inside an operand, whatever its shape (an address,
    a vector, a texture reference ...: any operand field that holds one)."""
    if isinstance(op, ast.Symbol):
        yield op.name
    elif isinstance(op, tuple):
        for e in op:
            yield from _symbols(e)
    elif is_dataclass(op) and not isinstance(op, type):
        for f in fields(op):
            yield from _symbols(getattr(op, f.name))


def function_refs(f: ast.Function, shared: set[str], functions: set[str]) -> FunctionRefs:
    """The shared variables, callees and function addresses ``f`` names."""
    out = FunctionRefs()
    for st in f.statements():
        if isinstance(st, ast.Call):
            if isinstance(st.target, ast.Symbol):
                out.callees.add(st.target.name)
            else:
                out.indirect = True
            names = [n for a in st.args for n in _symbols(a)]
        elif isinstance(st, ast.Instruction):
            names = [n for a in st.operands for n in _symbols(a)]
        else:
            continue
        for n in names:
            if n in shared:
                out.shared.add(n)
            elif n in functions:
                out.addresses.add(n)
    return out


@dataclass
class SharedLayouts:
    """The offsets each function's body uses, and what the module reports."""

    offsets: dict[str, dict[str, int]]
    """Function name -> shared variable -> offset (static and dynamic)."""
    static_end: dict[str, int]
    """Function name -> the end of its layout's static variables."""
    common: dict[str, int | None]
    """Static variable -> its offset where every layout that holds it
    agrees (the ``ori.global ... shared`` op's), else None."""


def _layout(names: Iterable[str], order: Sequence[str],
            sizes: dict[str, tuple[int, int]], dynamic: Sequence[str]) -> tuple[dict[str, int], int]:
    want = set(names)
    off: dict[str, int] = {}
    end = 0
    for n in order:
        if n in want:
            size, align = sizes[n]
            end = -(-end // align) * align
            off[n] = end
            end += size
    dyn = -(-end // DYNAMIC_ALIGN) * DYNAMIC_ALIGN
    for n in dynamic:
        off[n] = dyn
    return off, end


def plan_shared_layouts(functions: Sequence[ast.Function], order: Sequence[str],
                        sizes: dict[str, tuple[int, int]], dynamic: Sequence[str],
                        address_taken: set[str]) -> SharedLayouts:
    """One layout per group of kernels (module docstring).  ``order``: the
    static shared variables in declaration order, ``sizes`` their (size,
    alignment); ``dynamic``: the ``.extern .shared`` arrays;
    ``address_taken``: functions whose address a variable's initializer
    takes."""
    bodies = [f for f in functions if f.body is not None]
    names = {f.name for f in bodies}
    shared = set(order) | set(dynamic)
    refs = {f.name: function_refs(f, shared, names) for f in bodies}
    taken = set(address_taken)
    for r in refs.values():
        taken |= r.addresses
    kernels = [f.name for f in bodies if f.kind == "entry"]

    def reach(k: str) -> set[str]:
        seen = {k}
        todo = [k]
        while todo:
            r = refs[todo.pop()]
            nxt = r.callees | (taken if r.indirect else set())
            for c in nxt:
                if c in refs and c not in seen:
                    seen.add(c)
                    todo.append(c)
        return seen

    reached = {k: reach(k) for k in kernels}
    # kernels that reach one shared-memory-using device function share a layout
    parent = {k: k for k in kernels}

    def find(k: str) -> str:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    users: dict[str, str] = {}
    for k in kernels:
        for fn in reached[k]:
            if fn != k and refs[fn].shared:
                if fn in users:
                    parent[find(k)] = find(users[fn])
                else:
                    users[fn] = k
    groups: dict[str, list[str]] = {}
    for k in kernels:
        groups.setdefault(find(k), []).append(k)
    offsets: dict[str, dict[str, int]] = {}
    static_end: dict[str, int] = {}
    seen_at: dict[str, set[int]] = {}
    for members in groups.values():
        fns = set().union(*(reached[k] for k in members))
        used = set().union(*(refs[fn].shared for fn in fns))
        off, end = _layout(used, order, sizes, dynamic)
        for n in used & set(order):
            seen_at.setdefault(n, set()).add(off[n])
        for fn in fns:
            offsets[fn] = off
            static_end[fn] = end
    module_off, module_end = _layout(order, order, sizes, dynamic)
    for fn in names - offsets.keys():
        offsets[fn] = module_off
        static_end[fn] = module_end
    common: dict[str, int | None] = {}
    for n in order:
        at = seen_at.get(n, {module_off[n]})
        common[n] = next(iter(at)) if len(at) == 1 else None
    return SharedLayouts(offsets, static_end, common)


__all__ = ["FunctionRefs", "SharedLayouts", "function_refs", "plan_shared_layouts"]
