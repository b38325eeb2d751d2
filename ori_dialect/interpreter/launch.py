"""``run_kernel``: marshal arguments, build constant bank 0, run the grid."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from ori_dialect.interpreter import memory as mem
from ori_dialect.interpreter.device_runtime import DEFAULT_HEAP_BYTES
from ori_dialect.interpreter.machine import Machine, kernel_target
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.interpreter.texture import Texture
from ori_dialect.ir.attrs import ParamAttr
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.module_vars import CONST_BANK, GlobalOp
from targets import get_target

DEFAULT_MAX_STEPS = 50_000_000
DEFAULT_LOCAL_BYTES = 64 * 1024

Dim = int | Sequence[int]


def _dim3(v: Dim, what: str) -> tuple[int, int, int]:
    t = (int(v),) if isinstance(v, int | np.integer) else tuple(int(x) for x in v)
    if not 1 <= len(t) <= 3 or any(x < 1 for x in t):
        raise InterpreterError(f"{what} must be a positive int or a tuple of 1 to 3 positive ints, got {v!r}")
    return (*t, *(1,) * (3 - len(t)))  # type: ignore[return-value]


def _scalar_bytes(i: int, arg: Any, size: int) -> bytes:
    """The bytes of a by-value argument for a ``size``-byte parameter."""
    if isinstance(arg, bytes | bytearray):
        if len(arg) != size:
            raise InterpreterError(f"argument #{i}: {len(arg)} bytes for a {size}-byte parameter")
        return bytes(arg)
    if isinstance(arg, np.generic):
        if arg.dtype.itemsize != size:
            raise InterpreterError(
                f"argument #{i}: a {arg.dtype} scalar ({arg.dtype.itemsize} bytes) for a "
                f"{size}-byte parameter"
            )
        return arg.tobytes()
    if isinstance(arg, bool):
        arg = int(arg)
    if isinstance(arg, int):
        if size not in (1, 2, 4, 8):
            raise InterpreterError(f"argument #{i}: an int for a {size}-byte parameter")
        bits = 8 * size
        if not -(1 << (bits - 1)) <= arg < (1 << bits):
            raise InterpreterError(f"argument #{i}: {arg} does not fit a {size}-byte parameter")
        return (arg & ((1 << bits) - 1)).to_bytes(size, "little")
    if isinstance(arg, float):
        if size == 4:
            return np.float32(arg).tobytes()
        if size == 8:
            return np.float64(arg).tobytes()
        raise InterpreterError(f"argument #{i}: a float for a {size}-byte parameter")
    raise InterpreterError(
        f"argument #{i}: unsupported argument type {type(arg).__name__} (pass a numpy "
        "array, a Python/numpy scalar or bytes)"
    )


def _symbol_bytes(name: str, value: Any, size: int) -> bytes:
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value).tobytes()
    elif isinstance(value, bytes | bytearray):
        data = bytes(value)
    elif isinstance(value, np.generic):
        data = value.tobytes()
    else:
        raise InterpreterError(
            f"symbols[{name!r}]: pass a numpy array, a numpy scalar or bytes, not "
            f"{type(value).__name__}")
    if len(data) > size:
        raise InterpreterError(
            f"symbols[{name!r}]: {len(data)} bytes for a {size}-byte variable")
    return data


def _load_variables(module: ModuleOp, machine: Machine, symbols: Mapping[str, Any],
                    const_banks: dict[int, bytes] | None) -> dict[str, tuple[int, int]]:
    """Allocate and initialise the module's variables; returns each ``.global``
    variable's (address, size)."""
    variables = [op for op in module.body.ops if isinstance(op, GlobalOp)]
    known = {v.var_name: v for v in variables if v.space.data in ("global", "const")}
    for n in symbols:
        if n not in known:
            have = ", ".join(sorted(known)) or "none"
            raise InterpreterError(f"symbols: no .global or .const variable named {n!r} "
                                   f"(variables: {have})")
    out: dict[str, tuple[int, int]] = {}
    for v in variables:
        if v.space.data == "global":
            addr = machine.global_mem.allocate(max(v.nbytes, 1))
            machine.symbols[v.var_name] = addr
            out[v.var_name] = (addr, v.nbytes)
    bank3 = bytearray()
    for v in variables:
        sp = v.space.data
        if sp == "shared":
            continue
        data = bytearray(v.init_bytes())
        for off, sym, addend in v.reloc_list():
            target = machine.symbol_address(sym) + addend
            data[off:off + 8] = (target & ((1 << 64) - 1)).to_bytes(8, "little")
        if v.var_name in symbols:
            new = _symbol_bytes(v.var_name, symbols[v.var_name], v.nbytes)
            data[: len(new)] = new
        if sp == "global":
            machine.global_mem.write(out[v.var_name][0], bytes(data))
        else:
            at = v.place or 0
            if at + v.nbytes > mem.CBANK_SIZE:
                raise InterpreterError(f".const variable @{v.var_name} lies outside constant "
                                       f"bank {CONST_BANK}")
            if len(bank3) < at + v.nbytes:
                bank3.extend(bytes(at + v.nbytes - len(bank3)))
            bank3[at:at + v.nbytes] = data
    if bank3 or any(v.space.data == "const" for v in variables):
        if const_banks and CONST_BANK in const_banks:
            raise InterpreterError(
                f"the module's .const variables fill constant bank {CONST_BANK}: set them "
                "with symbols=..., not const_banks")
        machine.set_bank(CONST_BANK, bytes(bank3))
    return out


def find_kernel(module: ModuleOp, name: str) -> FuncOp:
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
    func = funcs.get(name)
    if func is None:
        known = ", ".join(f"@{n}" for n, f in funcs.items() if f.is_kernel) or "none"
        raise InterpreterError(f"no kernel named @{name} in the module (kernels: {known})")
    if not func.is_kernel:
        raise InterpreterError(f"@{name} is a device function, not a kernel entry")
    return func


def run_kernel(
    module: ModuleOp,
    name: str,
    grid: Dim,
    block: Dim,
    args: Sequence[Any],
    shared_bytes: int = 0,
    *,
    strict: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    target: str | None = None,
    const_banks: dict[int, bytes] | None = None,
    local_bytes: int = DEFAULT_LOCAL_BYTES,
    stats: dict[str, int] | None = None,
    physical: bool = False,
    symbols: Mapping[str, Any] | None = None,
    symbols_out: dict[str, np.ndarray] | None = None,
    heap_bytes: int = DEFAULT_HEAP_BYTES,
    printf_out: list[str] | None = None,
) -> list[Any]:
    """Launch kernel ``name`` of ``module`` on a ``grid`` of ``block``-sized CTAs.

    ``args`` follow the kernel's ``params``: a numpy array is copied into
    global memory and its parameter receives the 64-bit device address; a
    Python or numpy scalar (or ``bytes`` of the parameter's size) is passed by
    value; a :class:`~.texture.Texture` is a texture object
    (``cudaTextureObject_t``) passed as its 64-bit handle.  Returns one entry
    per argument: the array's final contents (same dtype and shape), or the
    scalar (or texture) unchanged.

    ``strict`` reports uses of ``ori.undef`` values, SHFL reads of lanes
    that do not execute the SHFL and, in physical mode, the allocator's moves
    of HGMMA accumulator registers before the wait (:mod:`.gmma`); ``max_steps`` bounds the executed
    thread-instructions; ``const_banks`` gives banks 1..17 for ``c[b][o]``
    operands and LDC; ``local_bytes`` is each thread's local memory (the
    initial stack pointer in constant bank 0 is its top); ``stats``, when a
    dict is given, receives ``thread_instructions`` and ``ctas``.
    ``physical=True`` runs an allocated module with values stored by physical
    register instead of by SSA value (:mod:`.physical`), so that allocation
    mistakes change the results.

    Module variables (``ori.global``, from PTX ``.global``/``.const``): every
    launch starts from their initializers -- ``.global`` variables are
    allocated in global memory (with function pointers and variable addresses
    of their initializers filled in), ``.const`` ones fill constant bank 3
    (so ``const_banks`` may not give bank 3 then).  ``symbols`` overrides
    their initial contents by name, like ``cudaMemcpyToSymbol``: a numpy
    array or ``bytes`` of at most the variable's size, written at its start.
    ``symbols_out``, when a dict is given, receives every ``.global``
    variable's final contents, like ``cudaMemcpyFromSymbol``: an array of the
    dtype of the array given for it in ``symbols`` (its shape when the sizes
    agree), else ``uint8`` bytes.  A function's address (``ori.addr @f``) is
    its code address (:data:`.memory.CODE_BASE`); an indirect call maps it
    back to the function.

    CUDA device-runtime calls (``ori.runtime_func``, :mod:`.device_runtime`):
    ``malloc``/``free`` (and ``new``/``delete``) use a device heap of
    ``heap_bytes`` bytes (default 8 MiB, ``cudaLimitMallocHeapSize``'s
    default) in global memory, first-fit, 16-byte aligned, allocated in
    thread order; an exhausted heap makes ``malloc`` return 0, and freeing a
    pointer ``malloc`` did not return is an error naming the thread.  The
    heap lives for one launch.  ``printf`` (``vprintf``) appends the text of
    each call -- one string per calling thread, in CTA order and then thread
    order, the newline included when the format has one -- to ``printf_out``
    when a list is given, else writes it all to ``sys.stdout`` after the
    launch (as the CUDA runtime prints the device's buffer at a
    synchronisation point).  ``assert`` (``__assertfail``) stops the launch
    with an ``InterpreterError`` naming the thread and the instruction and
    carrying ``file:line: function: Assertion `message` failed.``.
    """
    func = find_kernel(module, name)
    gdim = _dim3(grid, "grid")
    bdim = _dim3(block, "block")
    tname = kernel_target(module, target)
    try:
        tgt = get_target(tname)
    except DiagnosticException as e:
        raise InterpreterError(f"unknown target {tname!r}: {e}") from None
    nthreads = bdim[0] * bdim[1] * bdim[2]
    if nthreads > tgt.max_threads_per_block:
        raise InterpreterError(
            f"a block of {nthreads} threads exceeds the {tgt.max_threads_per_block}-thread "
            f"limit of {tgt.name}"
        )
    if shared_bytes < 0 or local_bytes < 0 or heap_bytes < 0:
        raise InterpreterError("shared_bytes, local_bytes and heap_bytes must not be negative")
    params: list[ParamAttr] = list(func.params.data) if func.params is not None else []
    if len(args) != len(params):
        raise InterpreterError(
            f"@{name} takes {len(params)} parameter(s), got {len(args)} argument(s)"
        )
    if const_banks and 0 in const_banks:
        raise InterpreterError("constant bank 0 holds the launch data and cannot be given")
    # A kernel imported from PTX records its static shared memory; the launch's
    # ``shared_bytes`` is the dynamic part that follows it (16-byte aligned).
    static = func.attributes.get("ori.shared_extent") or func.attributes.get("ori.shared_bytes")
    if isinstance(static, IntegerAttr) and static.value.data:
        shared_bytes += -(-static.value.data // 16) * 16
    machine = Machine(
        module, bdim, gdim, target=tgt.name, strict=strict, max_steps=max_steps,
        shared_bytes=shared_bytes, local_bytes=local_bytes, const_banks=const_banks,
        max_warps_per_sm=tgt.max_warps_per_sm, physical=physical, heap_bytes=heap_bytes,
    )
    layout = tgt.cbank0
    assert layout is not None
    bank0 = bytearray(mem.CBANK_SIZE)

    def put(off: int, data: bytes, what: str) -> None:
        if off < 0 or off + len(data) > len(bank0):
            raise InterpreterError(f"{what} at c[0x0][{off:#x}] lies outside constant bank 0")
        bank0[off : off + len(data)] = data

    for i, v in enumerate(bdim):
        put(layout.ntid + 4 * i, v.to_bytes(4, "little"), "ntid")
    for i, v in enumerate(gdim):
        put(layout.nctaid + 4 * i, v.to_bytes(4, "little"), "nctaid")
    put(layout.stack_init, machine.local_bytes.to_bytes(4, "little"), "stack pointer")
    arrays: list[tuple[int, int, np.ndarray] | None] = []
    for i, (p, arg) in enumerate(zip(params, args)):
        size, off = p.size.data, p.offset.data
        if off < 0:
            raise InterpreterError(f"parameter #{i} of @{name} has no offset ('at')")
        if isinstance(arg, Texture):
            # A texture object is passed by value as its 64-bit handle
            # (cudaTextureObject_t); handles count from 1 as the driver's do.
            if size != 8:
                raise InterpreterError(
                    f"argument #{i}: a Texture (a 64-bit texture object) for a {size}-byte "
                    "parameter")
            handle = len(machine.textures) + 1
            machine.textures[handle] = arg
            arrays.append(None)
            put(layout.params + off, handle.to_bytes(8, "little"), f"parameter #{i}")
            continue
        if isinstance(arg, np.ndarray):
            if size != 8:
                raise InterpreterError(
                    f"argument #{i}: an array (passed as a 64-bit address) for a {size}-byte "
                    "parameter"
                )
            data = np.ascontiguousarray(arg)
            addr = machine.global_mem.allocate(data.nbytes)
            machine.global_mem.write(addr, data.tobytes())
            arrays.append((addr, data.nbytes, data))
            put(layout.params + off, addr.to_bytes(8, "little"), f"parameter #{i}")
        else:
            arrays.append(None)
            put(layout.params + off, _scalar_bytes(i, arg, size), f"parameter #{i}")
    machine.set_bank(0, bytes(bank0))
    given = _load_variables(module, machine, symbols or {}, const_banks)
    with np.errstate(all="ignore"):
        try:
            machine.run_grid(name)
        finally:  # what was printed before a fault is still shown
            if printf_out is not None:
                printf_out.extend(machine.printf_out)
            elif machine.printf_out:
                sys.stdout.write("".join(machine.printf_out))
    if symbols_out is not None:
        for vname, (addr, size) in given.items():
            raw = machine.global_mem.read(addr, size)
            like = (symbols or {}).get(vname)
            if isinstance(like, np.ndarray) and size % like.dtype.itemsize == 0:
                arr = np.frombuffer(raw, dtype=like.dtype).copy()
                symbols_out[vname] = arr.reshape(like.shape) if arr.size == like.size else arr
            else:
                symbols_out[vname] = np.frombuffer(raw, dtype=np.uint8).copy()
    out: list[Any] = []
    for arg, a in zip(args, arrays):
        if a is None:
            out.append(arg)
            continue
        addr, nbytes, data = a
        raw = machine.global_mem.read(addr, nbytes)
        out.append(np.frombuffer(raw, dtype=data.dtype).reshape(data.shape).copy())
    if stats is not None:
        stats["thread_instructions"] = machine.steps
        stats["ctas"] = gdim[0] * gdim[1] * gdim[2]
    return out


__all__ = ["DEFAULT_LOCAL_BYTES", "DEFAULT_MAX_STEPS", "find_kernel", "run_kernel"]
