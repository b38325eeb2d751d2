"""All ops of the ori dialect, grouped by family."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from ori_dialect.ops import (
    control,
    convert,
    floating,
    frame,
    gmma,
    integer,
    memory,
    module_vars,
    predicate,
    regmove,
    special,
    sync,
    tensor,
    texture,
)
from ori_dialect.ops.control import BraOp, BrxOp, CallIndirectOp, CallOp, ExitOp, PragmaOp, RetOp
from ori_dialect.ops.convert import F2FOp, F2FPOp, F2IOp, I2FOp, I2IOp
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
from ori_dialect.ops.frame import FrameAddrOp, FrameEnterOp, FrameLeaveOp
from ori_dialect.ops.func import RUNTIME_FUNCTIONS, TARGET_ATTR, FuncOp, RuntimeFuncOp
from ori_dialect.ops.gmma import (
    FenceAsyncOp,
    GmmaCommitOp,
    HgmmaOp,
    WarpgroupArriveOp,
    WarpgroupDepbarOp,
)
from ori_dialect.ops.integer import (
    BmskOp,
    BrevOp,
    FloOp,
    IAbsOp,
    IAdd3Op,
    IMadOp,
    IMnMxOp,
    LeaHiSx32Op,
    LeaOp,
    Lop3Op,
    MovOp,
    PackOp,
    PopcOp,
    PrmtOp,
    SelOp,
    SgxtOp,
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
from ori_dialect.ops.module_vars import AddrOp, GlobalOp
from ori_dialect.ops.predicate import DSetPOp, FSetPOp, ISetPOp, P2ROp, PLop3Op, R2POp
from ori_dialect.ops.regmove import BMovOp, R2UROp
from ori_dialect.ops.special import BptOp, CS2ROp, NopOp, S2ROp, UndefOp
from ori_dialect.ops.sync import (
    AcqBulkOp,
    BarOp,
    BarRedOp,
    CReduxOp,
    MatchOp,
    MembarOp,
    PreExitOp,
    ReduxOp,
    ShflOp,
    VoteOp,
)
from ori_dialect.ops.tensor import DepBarOp, HmmaOp, ImmaOp, LdgDepBarOp, LdgstsOp, LdsmOp
from ori_dialect.ops.texture import TexOp, Tld4Op, TldOp

INSTRUCTION_OPS: tuple[type[IRDLOperation], ...] = (
    IAdd3Op, IMadOp, LeaOp, LeaHiSx32Op, Lop3Op, ShfOp, ShlOp, ShrOp, IMnMxOp, IAbsOp, PopcOp, FloOp,
    BrevOp, BmskOp, SgxtOp, PrmtOp, SelOp, MovOp, PackOp, UnpackOp,
    ISetPOp, FSetPOp, DSetPOp, PLop3Op, P2ROp, R2POp,
    FAddOp, FMulOp, FFmaOp, FMnMxOp, MufuOp, DAddOp, DMulOp, DFmaOp, HAdd2Op, HMul2Op, HFma2Op,
    I2FOp, F2IOp, F2FOp, F2FPOp, I2IOp,
    S2ROp, CS2ROp, NopOp, UndefOp, BptOp, FrameEnterOp, FrameLeaveOp, FrameAddrOp,
    LdgOp, StgOp, LdsOp, StsOp, LdlOp, StlOp, LdOp, StOp, LdcOp, AtomOp, AtomsOp, RedOp,
    BarOp, BarRedOp, MembarOp, ShflOp, VoteOp, ReduxOp, CReduxOp, MatchOp, AcqBulkOp, PreExitOp,
    R2UROp, BMovOp,
    TexOp, TldOp, Tld4Op,
    HgmmaOp, WarpgroupArriveOp, GmmaCommitOp, WarpgroupDepbarOp, FenceAsyncOp,
    HmmaOp, ImmaOp, LdsmOp, LdgstsOp, LdgDepBarOp, DepBarOp,
)
CONTROL_OPS: tuple[type[IRDLOperation], ...] = (
    BraOp, BrxOp, ExitOp, RetOp, CallOp, CallIndirectOp, PragmaOp)
MODULE_OPS: tuple[type[IRDLOperation], ...] = (GlobalOp, AddrOp, RuntimeFuncOp)
"""Module-level variables and symbol addresses (:mod:`.module_vars`), device-runtime
declarations (:class:`.func.RuntimeFuncOp`)."""
ALL_OPS: tuple[type[IRDLOperation], ...] = (FuncOp, *INSTRUCTION_OPS, *CONTROL_OPS, *MODULE_OPS)

__all__ = [op.__name__ for op in ALL_OPS] + [
    "ALL_OPS", "INSTRUCTION_OPS", "CONTROL_OPS", "MODULE_OPS", "RUNTIME_FUNCTIONS", "TARGET_ATTR", "MemoryOp", "AtomicOp",
    "control", "convert", "floating", "frame", "integer", "memory", "module_vars", "predicate", "regmove", "special", "sync",
    "tensor", "texture", "gmma",
]
