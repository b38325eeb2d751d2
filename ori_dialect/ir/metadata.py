"""Scheduling and effect metadata that every Ori op class declares once.

Passes ask the op (``op.LATENCY``, ``op.PIPE``, ``op.MEM``, ...), never a table
keyed by op names (docs/architecture.md "Op facts").

Latency classes and pipes follow seed 001 ("Latency Class Table" and the
latency-to-pipe mapping used by ResMII): a latency class is an id, not a cycle
count; the SM target maps it to cycles (targets/).  The 7 pipes are the ResMII
resource table (ALU, FMA, DFMA, MMA, LSU, TEX, BRA/SMEM).  Seed 001 maps the
SFU class (8) to a pipe index 8 that ResMII clamps to the last table entry; ori
keeps that as ``Pipe.XU`` and clamps with ``Pipe.resmii_index``.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class LatencyClass(IntEnum):
    """Latency class ids of seed 001's classifier (sub_91A0F0)."""

    SKIP = 1  # predicate moves, past-end operands
    FP64_CONVERT = 4  # FP64 conversion misc
    SHORT_ALU = 6  # simple ALU, bitwise, short integer
    PAIRED = 7  # paired-register ops, FP16 / narrow FP conversion
    SPECIAL = 8  # MUFU-style special functions
    CONVERT = 9  # I2F, F2I, I2I
    MULTIPLY = 10  # integer multiply, IMAD, shifts
    ADDRESS = 11  # LEA and address arithmetic
    STANDARD = 12  # memory ops, FP32, barriers, atomics
    WIDE_MEMORY = 14  # wide memory, atomics, FP64 stores
    FP64 = 16  # FP64 arithmetic
    UNIFORM_LOAD = 20  # texture / uniform / constant loads
    GLOBAL_LOAD = 26  # global memory loads
    SCOREBOARD = 31  # control / barrier operands


class Pipe(IntEnum):
    """Functional pipes, in the order of the target's 7 pipe widths."""

    ALU = 0
    FMA = 1
    DFMA = 2
    MMA = 3
    LSU = 4
    TEX = 5
    BRA = 6
    XU = 8  # transcendental unit; seed 001 clamps pipe > 6 to 6 for ResMII

    @property
    def resmii_index(self) -> int:
        return min(int(self), 6)


class MemEffect(Enum):
    """What an op does to memory."""

    NONE = "none"
    READ = "read"
    WRITE = "write"
    READ_WRITE = "read_write"

    @property
    def reads(self) -> bool:
        return self in (MemEffect.READ, MemEffect.READ_WRITE)

    @property
    def writes(self) -> bool:
        return self in (MemEffect.WRITE, MemEffect.READ_WRITE)


class MemSpace(Enum):
    """State space a memory op addresses."""

    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"
    CONST = "const"
    GENERIC = "generic"


class AsyncRole(Enum):
    """An op's part in an asynchronous register protocol (PTX ISA 9.7.15.7,
    warpgroup MMA): the registers an issued op writes or reads belong to it
    until the wait that completes its commit group (``ori_dialect/analysis/inflight.py``)."""

    ISSUE = "issue"
    """Starts work that writes ``async_results()`` and reads
    ``async_sources()`` after the op itself (HGMMA); joins the open group."""
    COMMIT = "commit"
    """Closes the open group: the ops issued since the previous commit form one."""
    WAIT = "wait"
    """Waits until at most ``async_pending()`` committed groups are still in flight."""
