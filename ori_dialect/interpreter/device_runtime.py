"""The CUDA device runtime's functions (``ori.runtime_func``) in the interpreter.

nvcc declares them ``.extern .func`` and the CUDA driver supplies them when it
loads the module; ptxas 13.0 leaves each call a ``CALL.ABS.NOINC`` through an
address read from constant bank 4.  Here a call to one of them runs the
Python function of the same name below, for the calling lanes in thread
order (lowest CTA-linear thread index first), so that allocation order and
output order are deterministic:

* ``malloc(size) -> ptr``: first-fit in the *device heap*, one global
  allocation of ``heap_bytes`` (``run_kernel(..., heap_bytes=...)``, default
  8 MiB like ``cudaLimitMallocHeapSize``) made at the first ``malloc`` of a
  launch.  Blocks are 16-byte aligned (CUDA guarantees 16) and take at least
  16 bytes, so ``malloc(0)`` returns a unique pointer; an exhausted heap
  returns 0, as CUDA does.  Memory is zero when the heap is created and keeps
  what a freed block held.  Accesses are bounds-checked against the heap as a
  whole, not against the block.
* ``free(ptr)``: releases a block; ``free(0)`` does nothing; a pointer that
  ``malloc`` did not return (or that was already freed) is an error naming
  the thread.
* ``vprintf(format, args) -> int``: formats the C format string at
  ``format`` with the argument buffer at ``args`` (nvcc packs the arguments
  into a local buffer, each at its natural alignment: 4-byte ``int``,
  8-byte ``long long``, pointers and ``double``, ``float`` promoted to
  ``double``) and appends the text to the launch's printf output
  (``run_kernel(..., printf_out=list)``).  Returns the number of arguments,
  as CUDA's ``printf`` does.  Conversions ``d i u o x X c s p e E f F g G``
  and ``%%`` with flags, width, precision and the length modifiers ``hh h l
  ll z j t``; ``*`` widths, ``%n`` and ``%a`` are not supported (an error).
* ``__assertfail(message, file, line, function, char_size)``: stops the
  launch with an error naming the thread and carrying ``file:line:
  function: Assertion `message` failed.`` as CUDA's ``assert`` prints it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ori_dialect.interpreter.memory import Fault
from ori_dialect.ir.metadata import MemSpace

if TYPE_CHECKING:
    from ori_dialect.interpreter.machine import Machine

DEFAULT_HEAP_BYTES = 8 * 1024 * 1024
"""The device heap's size when ``run_kernel`` is not told (CUDA's default
``cudaLimitMallocHeapSize``)."""
HEAP_ALIGN = 16
MAX_STRING = 1 << 20
"""The longest C string ``vprintf``/``__assertfail`` read (a missing NUL
otherwise scans to the end of the buffer)."""

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?"
                   r"(?P<len>hh|h|ll|l|L|z|j|t)?(?P<conv>.)", re.DOTALL)


class DeviceHeap:
    """First-fit allocator over ``[base, base + size)`` of global memory."""

    def __init__(self, base: int, size: int) -> None:
        self.base = base
        self.size = size
        self.live: dict[int, int] = {}
        """Live blocks: address -> rounded size."""

    def malloc(self, nbytes: int) -> int:
        want = max(HEAP_ALIGN, -(-nbytes // HEAP_ALIGN) * HEAP_ALIGN)
        at = self.base
        for addr in sorted(self.live):
            if addr - at >= want:
                break
            at = addr + self.live[addr]
        if at + want > self.base + self.size:
            return 0
        self.live[at] = want
        return at

    def free(self, addr: int) -> bool:
        """Release the block at ``addr``; False when no block starts there."""
        return self.live.pop(addr, None) is not None


def read_cstring(m: Machine, addr: int, lane: int, what: str) -> bytes:
    """The NUL-terminated string at generic address ``addr`` as ``lane`` sees it."""
    ((_, buf, offs),) = m.resolve(MemSpace.GENERIC, np.array([addr], dtype=np.int64),
                                  np.array([lane], dtype=np.int64), 1, what)
    start = int(offs[0])
    chunk = buf[start:start + MAX_STRING]
    nul = np.flatnonzero(chunk == 0)
    if not len(nul):
        raise Fault(f"{what}: no NUL within {MAX_STRING} bytes of {addr:#x}", thread=lane)
    return chunk[: int(nul[0])].tobytes()


def _read(m: Machine, addr: int, lane: int, nbytes: int) -> int:
    v = m.load(MemSpace.GENERIC, np.array([addr], dtype=np.int64),
               np.array([lane], dtype=np.int64), "b64" if nbytes == 8 else "b32")
    return int(v[0])


def format_printf(m: Machine, fmt: bytes, args: int, lane: int) -> tuple[str, int]:
    """``fmt`` formatted with the packed arguments at ``args``; (text, number
    of arguments)."""
    text = fmt.decode("utf-8", errors="replace")
    out: list[str] = []
    pos = 0
    off = 0
    count = 0

    def arg(nbytes: int) -> int:
        nonlocal off, count
        if args == 0:
            raise Fault("printf: the format string takes an argument, but the call passes "
                        "none", thread=lane)
        off = -(-off // nbytes) * nbytes
        v = _read(m, args + off, lane, nbytes)
        off += nbytes
        count += 1
        return v

    for mt in _SPEC.finditer(text):
        out.append(text[pos:mt.start()])
        pos = mt.end()
        flags, width, prec = mt["flags"], mt["width"], mt["prec"]
        length, conv = mt["len"] or "", mt["conv"]
        if conv == "%":
            out.append("%")
            continue
        if width == "*" or prec == "*":
            raise Fault("printf: '*' widths and precisions are not supported", thread=lane)
        spec = f"%{flags}{width or ''}{'' if prec is None else '.' + prec}"
        if conv in "diouxXc":
            wide = length in ("l", "ll", "z", "j", "t")
            v = arg(8 if wide else 4)
            bits = {"hh": 8, "h": 16}.get(length, 64 if wide else 32)
            v &= (1 << bits) - 1
            if conv in "di" and v >> (bits - 1):
                v -= 1 << bits
            if conv == "c":
                out.append((f"%{flags}{width or ''}s") % chr(v & 0xFF))
            elif conv == "o" and "#" in flags:
                # C's alternate form is a leading 0, Python's is 0o
                body = ("%" + flags.replace("#", "") + (width or "") + "s")
                out.append(body % ("0" + format(v, "o") if v else "0"))
            else:
                out.append((spec + ("d" if conv in "diu" else conv)) % v)
        elif conv in "eEfFgG":
            v = arg(8)
            out.append((spec + conv) % float(np.uint64(v).view(np.float64)))
        elif conv == "s":
            p = arg(8)
            s = "(null)" if p == 0 else read_cstring(m, p, lane, "printf %s argument").decode(
                "utf-8", errors="replace")
            out.append((f"%{flags}{width or ''}{'' if prec is None else '.' + prec}s") % s)
        elif conv == "p":
            out.append((f"%{flags}{width or ''}s") % f"0x{arg(8):x}")
        else:
            raise Fault(f"printf: the conversion '%{conv}' is not supported", thread=lane)
    out.append(text[pos:])
    return "".join(out), count


RuntimeFn = Callable[["Machine", np.ndarray, list[np.ndarray]], list[np.ndarray]]


def _malloc(m: Machine, idx: np.ndarray, args: list[np.ndarray]) -> list[np.ndarray]:
    heap = m.device_heap()
    sizes = args[0]
    out = np.zeros(len(idx), dtype=np.uint64)
    for i in range(len(idx)):
        out[i] = heap.malloc(int(sizes[i]))
    return [out]


def _free(m: Machine, idx: np.ndarray, args: list[np.ndarray]) -> list[np.ndarray]:
    ptrs = args[0]
    for i, t in enumerate(idx.tolist()):
        p = int(ptrs[i])
        if p == 0:
            continue
        if m.heap is None or not m.heap.free(p):
            raise Fault(f"free({p:#x}): not a pointer malloc returned, or already freed",
                        thread=t)
    return []


def _vprintf(m: Machine, idx: np.ndarray, args: list[np.ndarray]) -> list[np.ndarray]:
    out = np.zeros(len(idx), dtype=np.uint32)
    for i, t in enumerate(idx.tolist()):
        fp = int(args[0][i])
        if fp == 0:
            out[i] = np.uint32(0xFFFFFFFF)  # CUDA: -1 for a NULL format string
            continue
        fmt = read_cstring(m, fp, t, "printf format string")
        text, n = format_printf(m, fmt, int(args[1][i]), t)
        m.printf_out.append(text)
        out[i] = n
    return [out]


def _assertfail(m: Machine, idx: np.ndarray, args: list[np.ndarray]) -> list[np.ndarray]:
    t = int(idx[0])
    msg, file, func = (read_cstring(m, int(args[k][0]), t, "assert argument").decode(
        "utf-8", errors="replace") for k in (0, 1, 3))
    line = int(args[2][0])
    raise Fault(f"device assertion failed: {file}:{line}: {func}: Assertion `{msg}` failed.",
                thread=t)


RUNTIME_IMPLS: dict[str, RuntimeFn] = {
    "malloc": _malloc,
    "free": _free,
    "vprintf": _vprintf,
    "__assertfail": _assertfail,
}
"""The interpreter's implementation of each ``ori.runtime_func`` (by name)."""


__all__ = ["DEFAULT_HEAP_BYTES", "RUNTIME_IMPLS", "DeviceHeap", "format_printf", "read_cstring"]
