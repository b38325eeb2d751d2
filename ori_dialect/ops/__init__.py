"""All ops of the ori dialect, grouped by family."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from ori_dialect.ops import (
    control,
    convert,
    floating,
    integer,
    memory,
    predicate,
    regmove,
    special,
    sync,
)
from ori_dialect.ops.control import BraOp, CallOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.convert import F2FOp, F2IOp, I2FOp, I2IOp
from ori_dialect.ops.floating import (
    DAddOp,
    DFmaOp,
    DMulOp,
    FAddOp,
    FFmaOp,
    FMnMxOp,
    FMulOp,
    HAdd2Op,
    HFma2Op,
    HMul2Op,
    MufuOp,
)
from ori_dialect.ops.func import TARGET_ATTR, FuncOp
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    IAbsOp,
    IAdd3Op,
    IMadOp,
    IMnMxOp,
    LeaOp,
    Lop3Op,
    MovOp,
    PackOp,
    PopcOp,
    PrmtOp,
    SelOp,
    ShfOp,
    ShlOp,
    ShrOp,
    UnpackOp,
)
from ori_dialect.ops.memory import (
    AtomicOp,
    AtomOp,
    AtomsOp,
    LdcOp,
    LdgOp,
    LdlOp,
    LdOp,
    LdsOp,
    MemoryOp,
    RedOp,
    StgOp,
    StlOp,
    StOp,
    StsOp,
)
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, P2ROp, PLop3Op, R2POp
from ori_dialect.ops.regmove import BMovOp, R2UROp
from ori_dialect.ops.special import CS2ROp, NopOp, S2ROp, UndefOp
from ori_dialect.ops.sync import BarOp, MembarOp, ShflOp, VoteOp

INSTRUCTION_OPS: tuple[type[IRDLOperation], ...] = (
    IAdd3Op, IMadOp, LeaOp, Lop3Op, ShfOp, ShlOp, ShrOp, IMnMxOp, IAbsOp, PopcOp, FloOp,
    BrevOp, BmskOp, PrmtOp, SelOp, MovOp, PackOp, UnpackOp,
    ISetPOp, FSetPOp, DSetPOp, PLop3Op, P2ROp, R2POp,
    FAddOp, FMulOp, FFmaOp, FMnMxOp, MufuOp, DAddOp, DMulOp, DFmaOp, HAdd2Op, HMul2Op, HFma2Op,
    I2FOp, F2IOp, F2FOp, I2IOp,
    S2ROp, CS2ROp, NopOp, UndefOp,
    LdgOp, StgOp, LdsOp, StsOp, LdlOp, StlOp, LdOp, StOp, LdcOp, AtomOp, AtomsOp, RedOp,
    BarOp, MembarOp, ShflOp, VoteOp,
    R2UROp, BMovOp,
)
CONTROL_OPS: tuple[type[IRDLOperation], ...] = (BraOp, ExitOp, RetOp, CallOp, PragmaOp)
ALL_OPS: tuple[type[IRDLOperation], ...] = (FuncOp, *INSTRUCTION_OPS, *CONTROL_OPS)

__all__ = [op.__name__ for op in ALL_OPS] + [
    "ALL_OPS", "INSTRUCTION_OPS", "CONTROL_OPS", "TARGET_ATTR", "MemoryOp", "AtomicOp",
    "control", "convert", "floating", "integer", "memory", "predicate", "regmove", "special", "sync",
]
