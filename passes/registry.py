"""The one place where every ori pass is registered.

Entries map the pass name (as used with ``-p``) to a factory returning the
pass class, so that importing the registry does not import every pass module:
``xdsl-opt`` and ``ori-opt`` list passes without loading them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.passes import ModulePass

# name -> "module:ClassName" (relative to this package)
_PASSES: dict[str, str] = {
    "ori-print-loops": "passes.print_loops:PrintLoopsPass",
    "ori-print-liveness": "passes.print_liveness:PrintLivenessPass",
    "ori-check-regalloc": "passes.regalloc.checker:CheckRegAllocPass",
    "ori-abi": "passes.abi:AbiPass",
    "ori-mem-to-reg": "passes.mem_to_reg:MemToRegPass",
    "ori-uniform": "passes.uniform:UniformPass",
    "ori-block-layout": "passes.block_layout:BlockLayoutPass",
    "ori-regalloc": "passes.regalloc.driver:RegAllocPass",
    "ori-stats": "passes.stats:StatsPass",
    "ori-loop-simplify": "passes.loop_simplify:LoopSimplifyPass",
    "ori-strength-reduce": "passes.strength_reduce:StrengthReducePass",
    "ori-loop-unroll": "passes.loop_unroll:LoopUnrollPass",
    "ori-pipeline": "passes.pipeline_modulo:PipelinePass",
    "ori-loop-fusion": "passes.loop_fusion:LoopFusionPass",
    "ori-general-optimize": "passes.general_optimize:GeneralOptimizePass",
    "ori-dead-code": "passes.dead_code:DeadCodePass",
    "ori-branch-opt": "passes.branch_opt:BranchOptPass",
    "ori-cse": "passes.cse:CsePass",
    "ori-cse-late": "passes.cse:CseLatePass",
    "ori-remat-block": "passes.remat_block:RematBlockPass",
    "ori-remat": "passes.remat:RematPass",
    # one LICM engine, four instances (seed 001 phases 35, 66, 79, 88)
    "ori-hoist-invariants": "passes.hoist_invariants:HoistInvariantsPass",
    "ori-hoist-invariants-early": "passes.hoist_invariants:HoistInvariantsEarlyPass",
    "ori-hoist-invariants-late": "passes.hoist_invariants:HoistInvariantsLatePass",
    "ori-hoist-invariants-late2": "passes.hoist_invariants:HoistInvariantsLate2Pass",
    "ori-hoist-invariants-late3": "passes.hoist_invariants:HoistInvariantsLate3Pass",
    # the named pipeline: every phase above in ptxas's order (passes/pipeline.py)
    "ori-ptxas": "passes.pipeline:PtxasPipelinePass",
}


def _loader(spec: str) -> Callable[[], type[ModulePass]]:
    mod, cls = spec.split(":")

    def load() -> type[ModulePass]:
        return getattr(importlib.import_module(mod), cls)

    return load


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every registered ori pass, by name."""
    return {name: _loader(spec) for name, spec in _PASSES.items()}


def register_pass(name: str, factory: Callable[[], type[ModulePass]]) -> None:
    """Register an extra pass at run time (``ori-opt --load-plugin``)."""
    _EXTRA[name] = factory


_EXTRA: dict[str, Callable[[], type[ModulePass]]] = {}


def extra_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The passes registered at run time, by name."""
    return dict(_EXTRA)


def unregister_pass(name: str) -> None:
    """Forget a pass registered at run time (tests, plugin reloads); unknown
    names are ignored."""
    _EXTRA.pop(name, None)


# name -> pipeline spec (``"pass-a,pass-b{opt=1}"``, as for ``-p``)
_PIPELINES: dict[str, str] = {}


def named_pipelines() -> dict[str, str]:
    """Named pass pipelines (name -> ``PassPipeline.parse_spec`` spec string).

    None are defined yet.  Add an entry to ``_PIPELINES`` when a pipeline
    worth keeping exists (e.g. the ptxas loop-optimization phase order): the
    fuzz runner (``ori_dialect.testing.fuzz``) checks every named pipeline
    on every generated program as it does every registered pass.
    """
    return dict(_PIPELINES)
