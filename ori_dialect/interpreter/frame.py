"""The records shared by the decoder, the builtins and the machine.

Decoded code is a list of :class:`Segment` per function: closures ``Core``
(``fn(frame, idx)``) for the ops and one ``Term`` (``fn(activation, idx)``)
for the terminator.  A running function is an :class:`Activation`: its
:data:`Frame` (one CTA-sized numpy array per value slot, laid out by
:func:`storage_of`) and each thread's position.  The decoder
(:mod:`.decoder`), the machine-executed instructions (:mod:`.builtins`),
physical-register frames (:mod:`.physical`) and the machine
(:mod:`.machine`) all speak these types, so they live below all four
(docs/architecture.md "Layers").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Attribute, Operation

from ori_dialect.ir.registers import OriRegisterType, PredType, UPredType

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

INF = 1 << 30
"""``pc`` of a thread that is not runnable (exited, returned or waiting)."""
GLOBALTIMER_NS_PER_INSTRUCTION = 1000
"""``SR_GLOBALTIMER`` = executed instructions x this (a 1 GHz clock at 1 IPC ~ 1 ns;
scaled so that timer differences look like nanoseconds of a slow machine)."""

Frame = list[np.ndarray]
Core = Callable[[Frame, np.ndarray], None]
Term = Callable[["Activation", np.ndarray], None]


@dataclass(frozen=True, slots=True)
class OpInfo:
    """Where an op sits, for messages."""

    func: str
    block: int
    index: int
    op: Operation

    def describe(self) -> str:
        text = str(self.op).strip().splitlines()[0] if self.op is not None else "?"
        if len(text) > 160:
            text = text[:157] + "..."
        return f"@{self.func} block {self.block} op {self.index} `{text}`"


class Segment:
    __slots__ = ("cost", "infos", "ops", "term")

    def __init__(self, ops: list[Core], infos: list[OpInfo], term: Term) -> None:
        self.ops = ops
        self.infos = infos  # one per op plus the terminator's
        self.term = term
        self.cost = len(ops) + 1


def storage_of(t: Attribute) -> tuple[type[np.generic], tuple[int, ...]]:
    """The element dtype and per-thread shape of a value of type ``t`` (the
    representation of :mod:`.semantics.registry`)."""
    if isinstance(t, PredType | UPredType):
        return np.bool_, ()
    bits = t.BITS if isinstance(t, OriRegisterType) else 32
    if bits == 64:
        return np.uint64, ()
    if bits >= 128:  # quads and the wider tuples: one uint32 column per register
        return np.uint32, (bits // 32,)
    return np.uint32, ()


class ExitedInCall(Exception):
    """Raised by a call's core when some of its threads executed ``exit`` in
    the callee (PTX ``exit`` in a ``.func``): the machine drops them from the
    caller's segment and runs the rest of it for the other threads."""


def nothing(frame: Frame, idx: np.ndarray) -> None:
    """The core that does nothing (what a strict-mode check wraps when the op
    itself has no effect to run)."""


class Activation:
    """One running function instance: its frame and per-thread position."""

    __slots__ = ("dec", "frame", "pc", "red_dst", "red_op", "red_val", "ret", "wait_bar",
                 "wait_count", "wait_site")

    def __init__(self, dec: Decoder, n: int) -> None:
        self.dec = dec
        self.frame = dec.new_frame(n)
        self.pc = np.full(n, INF, dtype=np.int64)
        self.wait_bar = np.full(n, -1, dtype=np.int64)
        self.wait_count = np.full(n, -1, dtype=np.int64)
        self.wait_site = np.full(n, -1, dtype=np.int64)
        # a thread waiting at ``ori.bar_red``: its predicate, the reduction
        # (builtins.BAR_RED_OPS index) and the frame slot of its result; -1
        # for a thread waiting at a plain barrier
        self.red_val = np.zeros(n, dtype=np.bool_)
        self.red_op = np.full(n, -1, dtype=np.int64)
        self.red_dst = np.full(n, -1, dtype=np.int64)
        self.ret = [np.zeros((n, *storage_of(t)[1]), dtype=storage_of(t)[0])
                    for t in dec.ret_types]


__all__ = [
    "GLOBALTIMER_NS_PER_INSTRUCTION",
    "INF",
    "Activation",
    "Core",
    "ExitedInCall",
    "Frame",
    "OpInfo",
    "Segment",
    "Term",
    "nothing",
    "storage_of",
]
