"""Analyses of the Ori IR (docs/architecture.md "Analyses"; seed 001 "AnalyzeControlFlow,
phase 3"): CFG with RPO, dominators, back edges and natural loops with nesting
depth, liveness bitsets, register pressure, and the cached analysis manager.
"""

from ori_dialect.analysis.cfg import CFG, Edge
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import (
    FILES,
    Liveness,
    ValueNumbering,
    bits_to_indices,
    edge_operands,
    indices_to_bits,
)
from ori_dialect.analysis.loops import IrreducibleRegion, Loop, LoopInfo
from ori_dialect.analysis.manager import (
    PRESERVES_ALL,
    AllAnalyses,
    Analysis,
    AnalysisManager,
    functions_of,
    preserved_by,
    run_and_invalidate,
)
from ori_dialect.analysis.pressure import PressurePoint, RegisterPressure

__all__ = [
    "CFG",
    "FILES",
    "PRESERVES_ALL",
    "AllAnalyses",
    "Analysis",
    "AnalysisManager",
    "DominatorTree",
    "Edge",
    "IrreducibleRegion",
    "Liveness",
    "Loop",
    "LoopInfo",
    "PressurePoint",
    "RegisterPressure",
    "ValueNumbering",
    "bits_to_indices",
    "edge_operands",
    "functions_of",
    "indices_to_bits",
    "preserved_by",
    "run_and_invalidate",
]
