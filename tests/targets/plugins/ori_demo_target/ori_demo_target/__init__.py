"""A made-up SM target shipped as an ori plugin (test fixture).

``sm_demo_77`` is a Turing-like part with a smaller shared memory; the point is
only that ori discovers it through the ``ori.targets`` entry-point group
without any change to ori itself.
"""

from __future__ import annotations

from targets import LATENCY_CLASSES, SMTarget

DEMO_TARGET = SMTarget(
    name="sm_demo_77",
    sm=77,
    family="Demo",
    abi_generation=5,
    sm_version_code=(6 << 12) | 8,
    register_limits={"R": 255, "UR": 63, "P": 7, "UP": 7, "B": 16},
    pipe_widths=(4, 4, 1, 1, 1, 1, 1),
    latency_cycles={cls: 4 if cls < 12 else 20 for cls in LATENCY_CLASSES},
    max_warps_per_sm=32,
    max_ctas_per_sm=16,
    smem_per_sm=48 * 1024,
    max_smem_per_block=48 * 1024,
)


def demo_targets() -> list[SMTarget]:
    """Entry point: a zero-argument callable returning the plugin's targets."""
    return [DEMO_TARGET]
