"""Memories of the interpreter: global, shared, local and constant banks.

Every memory is a little-endian numpy byte buffer.  Accesses are vectorised:
an access takes an array of byte addresses (one per executing lane) and
resolves them to ``(positions, buffer, offsets)`` groups -- the lanes that hit
one buffer -- so a load or store is one numpy gather or scatter per buffer.

Address map (64-bit addresses as generic ``LD``/``ST``/``ATOM`` see them):

===========================  ==================================================
``0x7f00_0000_0000`` and up  global allocations, 256-byte aligned, each followed
                             by an unmapped gap of at least 4 KiB
``0x7e00_0000_0000 + off``   the shared window: CTA shared memory offset ``off``
                             (what ``cvta.shared`` produces here)
``0x7d00_0000_0000 + off``   the local window: the accessing thread's local
                             memory at offset ``off`` (``cvta.local``)
``0x7c00_0000_0000 + 16*k``  code: the address of the module's k-th
                             ``ori.func`` (in module order), what ``ori.addr
                             @f`` and a function pointer in an initializer
                             hold; an indirect call maps it back, anything
                             else is no function.  Loads and stores fault.
===========================  ==================================================

``.global`` variables (``ori.global``) are global allocations made by
``run_kernel`` before the launch; ``.const`` ones fill constant bank 3.

Anything else is unmapped and faults.  Shared (``LDS``/``STS``/``ATOMS``) and
local (``LDL``/``STL``) instructions take 32-bit offsets within their window.

Stores from several lanes to one address in one instruction: the highest
lane (thread index) wins, deterministically.  Buffers are padded to a
multiple of 16 bytes so that word views exist; bounds checks use the logical
size.
"""

from __future__ import annotations

import numpy as np

from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.ir.address_space import GLOBAL_BASE, LOCAL_WINDOW, SHARED_WINDOW, WINDOW_SIZE

CODE_BASE = 0x7C00_0000_0000
"""Code address of the module's first function (see the address map)."""
CODE_STRIDE = 16
"""Distance between two functions' code addresses (one SASS instruction)."""
GLOBAL_ALIGN = 256
GLOBAL_GAP = 4096
CBANK_SIZE = 0x10000

WIDTH_BYTES: dict[str, int] = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "b32": 4, "b64": 8, "b128": 16}

_ARANGE4 = np.arange(4, dtype=np.int64)
_I64 = np.int64


class Fault(Exception):
    """A fault of the interpreted program; the machine adds instruction and
    thread context.  ``thread`` is the CTA-linear thread index when known;
    ``position`` indexes the addresses/lanes of the access that raised it."""

    def __init__(self, message: str, *, thread: int | None = None,
                 position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.thread = thread
        self.position = position


def _pad(n: int) -> int:
    return max(16, -(-n // 16) * 16)


Group = tuple[np.ndarray | None, np.ndarray, np.ndarray]
"""(positions of the lanes in the access or None for all, byte buffer, offsets)."""


class GlobalMemory:
    """Device global memory: separate allocations at distinct aligned addresses."""

    def __init__(self) -> None:
        self.bases: list[int] = []
        self.sizes: list[int] = []
        self.buffers: list[np.ndarray] = []
        self._next = GLOBAL_BASE
        self._base_arr = np.zeros(0, dtype=_I64)
        self._end_arr = np.zeros(0, dtype=_I64)

    def allocate(self, nbytes: int) -> int:
        base = self._next
        self.bases.append(base)
        self.sizes.append(nbytes)
        self.buffers.append(np.zeros(_pad(nbytes), dtype=np.uint8))
        self._next = -(-(base + nbytes + GLOBAL_GAP) // GLOBAL_ALIGN) * GLOBAL_ALIGN
        self._base_arr = np.array(self.bases, dtype=_I64)
        self._end_arr = self._base_arr + np.array(self.sizes, dtype=_I64)
        return base

    def write(self, addr: int, data: bytes) -> None:
        k = self.bases.index(addr)
        self.buffers[k][: len(data)] = np.frombuffer(data, dtype=np.uint8)

    def read(self, addr: int, nbytes: int) -> bytes:
        k = self.bases.index(addr)
        return self.buffers[k][:nbytes].tobytes()

    def contains(self, a: np.ndarray) -> np.ndarray:
        """Which addresses lie in the global heap's range (mapped or not)."""
        return a >= GLOBAL_BASE

    def resolve(self, a: np.ndarray, nbytes: int, what: str) -> list[Group]:
        if not self.bases:
            raise Fault(f"{what} at unmapped global address {_hex(int(a[0]))}", position=0)
        k = np.searchsorted(self._base_arr, a, side="right") - 1
        kc = np.maximum(k, 0)
        ok = (k >= 0) & (a + nbytes <= self._end_arr[kc])
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            kb = int(k[bad])
            ab = int(a[bad])
            if kb >= 0 and ab < self.bases[kb] + self.sizes[kb] + GLOBAL_GAP:
                msg = (f"{what} at {_hex(ab)} out of bounds of the {self.sizes[kb]}-byte "
                       f"allocation at {_hex(self.bases[kb])}")
            else:
                msg = f"{what} at unmapped global address {_hex(ab)}"
            raise Fault(msg, position=bad)
        k0 = int(kc[0])
        if len(self.bases) == 1 or (kc == k0).all():
            return [(None, self.buffers[k0], a - self.bases[k0])]
        groups: list[Group] = []
        for kk in np.unique(kc):
            pos = np.flatnonzero(kc == kk)
            groups.append((pos, self.buffers[int(kk)], a[pos] - self.bases[int(kk)]))
        return groups


def _hex(v: int) -> str:
    return hex(v) if v >= 0 else "-" + hex(-v)


def check_align(a: np.ndarray, nbytes: int, what: str, base: int = 0) -> None:
    if nbytes > 1:
        mis = (a & (nbytes - 1)) != 0
        if mis.any():
            bad = int(np.flatnonzero(mis)[0])
            raise Fault(
                f"misaligned {what} of {nbytes} bytes at address {_hex(int(a[bad]) + base)}",
                position=bad,
            )


def check_window(a: np.ndarray, nbytes: int, size: int, what: str, space: str) -> None:
    bad_m = (a < 0) | (a + nbytes > size)
    if bad_m.any():
        bad = int(np.flatnonzero(bad_m)[0])
        raise Fault(
            f"{what} out of bounds of {space} memory ({size} bytes) at offset {_hex(int(a[bad]))}",
            position=bad,
        )


# ----------------------------------------------------------------------
# access kernels on one buffer
# ----------------------------------------------------------------------
def load(buf: np.ndarray, offs: np.ndarray, width: str) -> np.ndarray:
    """Read one value per offset; the register representation of ``width``."""
    if width == "b32":
        return buf.view(np.uint32)[offs >> 2]
    if width == "b64":
        return buf.view(np.uint64)[offs >> 3]
    if width == "b128":
        return buf.view(np.uint32)[(offs >> 2)[:, None] + _ARANGE4]
    if width == "u8":
        return buf[offs].astype(np.uint32)
    if width == "s8":
        return buf.view(np.int8)[offs].astype(np.int32).view(np.uint32)
    if width == "u16":
        return buf.view(np.uint16)[offs >> 1].astype(np.uint32)
    if width == "s16":
        return buf.view(np.int16)[offs >> 1].astype(np.int32).view(np.uint32)
    raise InterpreterError(f"unknown access width {width}")


def _last_of_duplicates(offs: np.ndarray) -> np.ndarray | None:
    """Positions to keep so that the last (highest-lane) store to each offset
    wins; None when all offsets differ."""
    if len(offs) < 2:
        return None
    order = np.argsort(offs, kind="stable")
    s = offs[order]
    dup = s[1:] == s[:-1]
    if not dup.any():
        return None
    keep = np.ones(len(s), dtype=bool)
    keep[:-1] = ~dup
    return np.sort(order[keep])


def store(buf: np.ndarray, offs: np.ndarray, width: str, vals: np.ndarray) -> None:
    """Write one value per offset (the highest position wins on duplicates)."""
    vals = np.asarray(vals)
    keep = _last_of_duplicates(offs)
    if keep is not None:
        offs = offs[keep]
        if vals.ndim and vals.shape[0] > 1:
            vals = vals[keep]
    if width == "b32":
        buf.view(np.uint32)[offs >> 2] = vals
    elif width == "b64":
        buf.view(np.uint64)[offs >> 3] = vals
    elif width == "b128":
        buf.view(np.uint32)[(offs >> 2)[:, None] + _ARANGE4] = vals
    elif width in ("u8", "s8"):
        buf[offs] = (vals & np.uint32(0xFF)).astype(np.uint8)
    elif width in ("u16", "s16"):
        buf.view(np.uint16)[offs >> 1] = (vals & np.uint32(0xFFFF)).astype(np.uint16)
    else:
        raise InterpreterError(f"unknown access width {width}")


def empty_like_width(n: int, width: str) -> np.ndarray:
    if width == "b64":
        return np.zeros(n, dtype=np.uint64)
    if width == "b128":
        return np.zeros((n, 4), dtype=np.uint32)
    return np.zeros(n, dtype=np.uint32)


# ----------------------------------------------------------------------
# atomics
# ----------------------------------------------------------------------
_INT_TYPES = {"s32": (np.uint32, np.int32), "u32": (np.uint32, np.int32),
              "s64": (np.uint64, np.int64), "u64": (np.uint64, np.int64)}


def _ftz32(x: np.ndarray) -> np.ndarray:
    tiny = np.abs(x) < np.float32(1.1754944e-38)
    return np.where(tiny & (x != 0), np.copysign(np.float32(0), x), x).astype(np.float32)


def _bf16_to_f64(h: np.ndarray) -> np.ndarray:
    return (h.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)


def _f64_to_bf16(x: np.ndarray) -> np.ndarray:
    f = x.astype(np.float32)
    b = f.view(np.uint32)
    nan = np.isnan(f)
    r = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    return np.where(nan, np.uint32(0x7FC0), r).astype(np.uint16)


def _halves(old: np.ndarray, b: np.ndarray, ty: str, fn: str) -> np.ndarray:
    lo_o, hi_o = (old & 0xFFFF).astype(np.uint16), (old >> 16).astype(np.uint16)
    lo_b, hi_b = (b & 0xFFFF).astype(np.uint16), (b >> 16).astype(np.uint16)
    out = []
    for o, v in ((lo_o, lo_b), (hi_o, hi_b)):
        if ty == "f16x2":
            x, y = o.view(np.float16).astype(np.float64), v.view(np.float16).astype(np.float64)
        else:
            x, y = _bf16_to_f64(o), _bf16_to_f64(v)
        if fn == "add":
            r = x + y
        elif fn == "min":
            r = np.fmin(x, y)
        else:
            r = np.fmax(x, y)
        out.append(r.astype(np.float16).view(np.uint16) if ty == "f16x2" else _f64_to_bf16(r))
    return out[0].astype(np.uint32) | (out[1].astype(np.uint32) << np.uint32(16))


def atomic_result(op: str, ty: str, old: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    """The new memory value of ``old OP b`` (``cas``: ``old == b ? c : old``)."""
    if op == "exch":
        return np.broadcast_to(b, old.shape).astype(old.dtype)
    if op == "cas":
        assert c is not None
        return np.where(old == b, c, old).astype(old.dtype)
    if ty in _INT_TYPES:
        ut, st = _INT_TYPES[ty]
        b = np.asarray(b).astype(ut)
        if op == "add":
            return old + b
        if op == "and":
            return old & b
        if op == "or":
            return old | b
        if op == "xor":
            return old ^ b
        if op in ("min", "max"):
            if ty[0] == "s":
                x, y = old.view(st), np.asarray(b).view(st)
                r = np.minimum(x, y) if op == "min" else np.maximum(x, y)
                return r.astype(st).view(ut)
            return np.minimum(old, b) if op == "min" else np.maximum(old, b)
        if op == "inc":
            return np.where(old >= b, ut(0), old + ut(1)).astype(ut)
        if op == "dec":
            return np.where((old == 0) | (old > b), b, old - ut(1)).astype(ut)
    elif ty == "f32" and op in ("add", "min", "max"):
        x = old.view(np.float32)
        y = np.asarray(b).astype(np.uint32).view(np.float32)
        if op == "add":
            r = _ftz32(_ftz32(x) + _ftz32(y))
        else:
            r = (np.fmin if op == "min" else np.fmax)(x, y).astype(np.float32)
        return r.view(np.uint32)
    elif ty == "f64" and op in ("add", "min", "max"):
        x = old.view(np.float64)
        y = np.asarray(b).astype(np.uint64).view(np.float64)
        r = x + y if op == "add" else (np.fmin if op == "min" else np.fmax)(x, y)
        return r.astype(np.float64).view(np.uint64)
    elif ty in ("f16x2", "bf16x2") and op in ("add", "min", "max"):
        return _halves(old, np.asarray(b).astype(np.uint32), ty, op)
    raise InterpreterError(f"atomic operation '{op}' on type '{ty}' is not supported")


def atomic(buf: np.ndarray, offs: np.ndarray, op: str, ty: str, b: np.ndarray,
           c: np.ndarray | None) -> np.ndarray:
    """Apply the atomic lane by lane in lane order; returns the old values."""
    wide = ty.endswith("64")
    view = buf.view(np.uint64) if wide else buf.view(np.uint32)
    words = offs >> (3 if wide else 2)
    n = len(words)
    b = np.broadcast_to(np.asarray(b), (n,))
    cc = None if c is None else np.broadcast_to(np.asarray(c), (n,))
    if n < 2 or len(np.unique(words)) == n:
        old = view[words]
        view[words] = atomic_result(op, ty, old, b, cc)
        return old
    old = np.empty(n, dtype=view.dtype)
    for i in range(n):
        w = words[i : i + 1]
        o = view[w]
        old[i] = o[0]
        view[w] = atomic_result(op, ty, o, b[i : i + 1], None if cc is None else cc[i : i + 1])
    return old


__all__ = [
    "CBANK_SIZE",
    "CODE_BASE",
    "CODE_STRIDE",
    "GLOBAL_BASE",
    "LOCAL_WINDOW",
    "SHARED_WINDOW",
    "WIDTH_BYTES",
    "WINDOW_SIZE",
    "Fault",
    "GlobalMemory",
    "atomic",
    "atomic_result",
    "load",
    "store",
]
