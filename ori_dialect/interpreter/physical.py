"""Physical-register execution mode (``run_kernel(..., physical=True)``).

In the default mode every SSA value has its own CTA-wide numpy array.  In
physical mode each function activation instead owns one register file per
register kind -- ``R`` as a ``(threads, 256)`` ``uint32`` array, ``UR``
``(threads, 64)``, ``P``/``UP`` ``(threads, 8)`` ``bool``, ``B`` ``(threads,
16)`` -- and the frame slot of a value is a numpy *view* of the registers
its type names:

* a 32-bit value in ``R5`` is the column ``R[:, 5]``;
* a 64-bit value in ``R4`` is ``R[:, 4:6]`` viewed as ``uint64`` (little
  endian: R4 is the low word, as on the GPU);
* a 128-bit value in ``R8`` is ``R[:, 8:12]`` (the ``(n, 4)`` layout the
  semantics already use);
* a predicate in ``P2`` is ``P[:, 2]``.

The decoded closures are the same as in SSA mode (they only index slots
with lane arrays), so nothing slows down the default mode.  Because values
sharing a register now share storage, a wrong parallel copy, a coalescing
of interfering values or a reload from the wrong spill slot changes the
results.  Every register value must carry a physical register; an
unallocated one is an ``InterpreterError``.  Each activation (a kernel or a
called device function) has its own register files, and arguments and
results travel by value -- except the preserved registers (R16-R31) of a
device function ``ori-abi`` lowered whose callee saves were emitted: the
caller's values there are copied into the callee's file at the call and
copied back at the return (:func:`shared_preserved`), as on the hardware
one register file serves both, so a preserved register the callee uses
without saving it changes the caller's value.  The stack pointer R1 is
not in these files: it is the machine's per-thread ``sp`` (ops/frame.py).  In a
function ``ori-abi`` lowered, the registers a
call may overwrite (its ``ori.abi_clobbers``, else the caller's scratch
registers) are filled with garbage after the call, so a value left in one
across the call is caught (``decoder.py``); elsewhere a call behaves as if
the callee saved every register it uses.
Undef shadows of strict mode stay per SSA value.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue

from ori_dialect.interpreter.frame import Frame
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ir.registers import OriRegisterType, RegFile

RegisterLayout = list[tuple[RegFile, int, int] | None]
"""Per frame slot: (register file, first register, bits), or None for a slot
that is no register value (undef shadows)."""

_FILES: dict[RegFile, tuple[int, type[np.generic]]] = {
    RegFile.R: (256, np.uint32),
    RegFile.UR: (64, np.uint32),
    RegFile.P: (8, np.bool_),
    RegFile.UP: (8, np.bool_),
    RegFile.B: (16, np.uint32),
}


def register_layout(func: str, slots: dict[SSAValue, int], nslots: int) -> RegisterLayout:
    """Where each of the ``nslots`` slots of function ``func`` lives (``slots``:
    the slot of each SSA value); every register value must be allocated,
    except RZ-typed ones, which live in no register."""
    layout: RegisterLayout = [None] * nslots
    for v, s in slots.items():
        t = v.type
        if not isinstance(t, OriRegisterType):
            continue
        if t.is_fixed:
            # an RZ-typed value holds no register (a stack-passed parameter
            # or its CALL operand, passes/abi/stack_args.py): a slot of its
            # own, which nothing reads
            continue
        base = t.phys_index
        if base is None:
            raise InterpreterError(
                f"physical mode: @{func} has a value of type {t} without a physical "
                "register (run ori-regalloc first)"
            )
        layout[s] = (t.REG_FILE, base, t.BITS)
    return layout


class PhysicalFrame(list[np.ndarray]):
    """A physical-mode frame: the value slots (views) and the R file they view
    (``r_file``), which a call reads to share the preserved registers."""

    r_file: np.ndarray


def physical_frame(storage: list[tuple[type[np.generic], tuple[int, ...]]],
                   layout: RegisterLayout, n: int) -> Frame:
    """A frame of ``n`` threads whose value slots are views into fresh register
    files (``storage``: each slot's dtype and shape, as the decoder lays it out)."""
    files = {f: np.zeros((n, size), dtype=dt) for f, (size, dt) in _FILES.items()}
    frame = PhysicalFrame()
    frame.r_file = files[RegFile.R]
    for s, (dt, shape) in enumerate(storage):
        loc = layout[s] if s < len(layout) else None
        if loc is None:  # undef shadows and non-register slots
            frame.append(np.zeros((n, *shape), dtype=dt))
            continue
        file, base, bits = loc
        regs = files[file]
        if file.is_predicate:
            frame.append(regs[:, base])
        elif bits == 64:
            frame.append(regs[:, base : base + 2].view(np.uint64)[:, 0])
        elif bits >= 128:  # quads and register tuples
            frame.append(regs[:, base : base + bits // 32])
        else:
            frame.append(regs[:, base])
    return frame


def shared_preserved(func: object) -> list[int]:
    """The preserved R registers a call to ``func`` shares with its caller's
    activation (module docstring): those of a device function ``ori-abi``
    lowered whose callee saves are emitted (``ori.abi_save_bytes`` 0 after
    allocation: regalloc/callee_saves.py); none elsewhere."""
    attrs = getattr(func, "attributes", {})
    done, left = attrs.get("ori.abi_resolved"), attrs.get("ori.abi_save_bytes")
    abi = getattr(func, "abi", None)
    if getattr(func, "is_kernel", True) or abi is None or not (
            isinstance(done, IntegerAttr) and done.value.data == 1
            and isinstance(left, IntegerAttr) and left.value.data == 0):
        return []
    return sorted((abi.fields().preserved or {}).get(RegFile.R, frozenset()))


__all__ = ["PhysicalFrame", "RegisterLayout", "physical_frame", "register_layout",
           "shared_preserved"]
