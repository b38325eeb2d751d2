"""SM target descriptors, their registry and the occupancy model.

Targets are registered through the ``ori.targets`` entry-point group (the
built-ins included, see :mod:`targets.builtin`); query them with
:func:`get_target` / :func:`list_targets`.
"""

from targets.cbank import ConstBankLayout, cbank_layout_for_sm
from targets.descriptor import (
    LATENCY_CLASSES,
    PIPE_NAMES,
    REGISTER_FILES,
    SMTarget,
    abi_generation_for_sm,
    abi_min_regs_for_generation,
)
from targets.errors import (
    DuplicateTargetError,
    InvalidTargetError,
    OccupancyInputError,
    TargetError,
    TargetPluginError,
    UnknownTargetError,
)
from targets.occupancy import (
    Limiter,
    Occupancy,
    max_regs_for_warps,
    occupancy,
    warps_per_sm,
)
from targets.registry import (
    ENTRY_POINT_GROUP,
    canonical_name,
    get_target,
    list_targets,
    register_target,
    target_origin,
    unregister_target,
)
from targets.table import format_target_table

__all__ = [
    "ENTRY_POINT_GROUP",
    "LATENCY_CLASSES",
    "PIPE_NAMES",
    "REGISTER_FILES",
    "ConstBankLayout",
    "DuplicateTargetError",
    "InvalidTargetError",
    "Limiter",
    "Occupancy",
    "OccupancyInputError",
    "SMTarget",
    "TargetError",
    "TargetPluginError",
    "UnknownTargetError",
    "abi_generation_for_sm",
    "abi_min_regs_for_generation",
    "canonical_name",
    "cbank_layout_for_sm",
    "format_target_table",
    "get_target",
    "list_targets",
    "max_regs_for_warps",
    "occupancy",
    "register_target",
    "target_origin",
    "unregister_target",
    "warps_per_sm",
]
