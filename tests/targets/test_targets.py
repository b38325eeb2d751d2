"""Tests for the SM target descriptors and the target registry."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points

import pytest
from xdsl.utils.exceptions import DiagnosticException

import targets
from targets import (
    LATENCY_CLASSES,
    PIPE_NAMES,
    DuplicateTargetError,
    InvalidTargetError,
    SMTarget,
    TargetPluginError,
    UnknownTargetError,
    format_target_table,
    get_target,
    list_targets,
    register_target,
    unregister_target,
)
from targets import registry as reg

BUILTIN_NAMES = [
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
    "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_103", "sm_120",
]  # fmt: skip


@pytest.fixture
def isolated_registry() -> Iterator[None]:
    """Snapshot the registry's module state and restore it afterwards."""
    list_targets()  # make sure the entry points are loaded before the snapshot
    saved = reg.snapshot()
    try:
        yield
    finally:
        reg.restore(saved)


def _demo(name: str = "sm_test_1", sm: int = 1, **overrides: object) -> SMTarget:
    base = get_target("sm_80")
    return dataclasses.replace(base, name=name, sm=sm, **overrides)


# -- entry-point path ------------------------------------------------------


def test_builtin_entry_point_is_declared() -> None:
    eps = {ep.name: ep.value for ep in entry_points(group="ori.targets")}
    assert eps.get("builtin") == "targets.builtin:builtin_targets"


def test_every_builtin_present_through_entry_point() -> None:
    names = [t.name for t in list_targets()]
    for name in BUILTIN_NAMES:
        assert name in names
        # The origin proves the target came in through the entry point, not
        # through a direct import inside the registry.
        assert "ori.targets entry point 'builtin'" in targets.target_origin(name)


def test_list_targets_sorted_by_sm_then_name() -> None:
    ts = list_targets()
    assert ts == sorted(ts, key=lambda t: (t.sm, t.name))
    builtin = [t.name for t in ts if t.name in BUILTIN_NAMES]
    assert builtin == BUILTIN_NAMES


# -- descriptor values -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "warps", "ctas", "smem_kib", "block_kib"),
    [
        ("sm_50", 64, 32, 64, 48),
        ("sm_52", 64, 32, 96, 48),
        ("sm_53", 64, 32, 64, 48),
        ("sm_60", 64, 32, 64, 48),
        ("sm_61", 64, 32, 96, 48),
        ("sm_62", 64, 32, 64, 48),
        ("sm_70", 64, 32, 96, 96),
        ("sm_72", 64, 32, 96, 96),
        ("sm_75", 32, 16, 64, 64),
        ("sm_80", 64, 32, 164, 163),
        ("sm_86", 48, 16, 100, 99),
        ("sm_87", 48, 16, 164, 163),
        ("sm_89", 48, 24, 100, 99),
        ("sm_90", 64, 32, 228, 227),
        ("sm_90a", 64, 32, 228, 227),
        ("sm_100", 64, 32, 228, 227),
        ("sm_103", 64, 32, 228, 227),
        ("sm_120", 48, 32, 100, 99),
    ],
)
def test_per_sm_limits(name: str, warps: int, ctas: int, smem_kib: int, block_kib: int) -> None:
    t = get_target(name)
    assert t.max_warps_per_sm == warps
    assert t.max_threads_per_sm == warps * 32
    assert t.max_ctas_per_sm == ctas
    assert t.smem_per_sm == smem_kib * 1024
    assert t.max_smem_per_block == block_kib * 1024
    assert t.regs_per_sm == 65536
    assert t.reg_alloc_unit == 256 and t.reg_alloc_granularity == "warp"
    assert t.max_regs_per_thread == 255
    assert t.warp_size == 32 and t.max_threads_per_block == 1024


def test_spot_values() -> None:
    sm80 = get_target("sm_80")
    assert sm80.family == "Ampere"
    assert sm80.sm == 80 and not sm80.arch_specific
    assert sm80.pipe_widths == (4, 4, 1, 1, 2, 1, 1)  # seed 001, verbatim
    assert sm80.pipe_width("LSU") == 2
    assert sm80.smem_alloc_unit == 128 and sm80.reserved_smem_per_block == 1024
    assert sm80.smem_carveouts[-1] == sm80.smem_per_sm
    sm90a = get_target("sm_90a")
    assert sm90a.sm == 90 and sm90a.arch_specific and sm90a.family == "Hopper"
    sm70 = get_target("sm_70")
    assert sm70.smem_alloc_unit == 256 and sm70.reserved_smem_per_block == 0
    assert get_target("sm_60").register_subpartitions == 2
    assert get_target("sm_61").register_subpartitions == 4
    assert get_target("sm_53").max_regs_per_block == 32768
    assert get_target("sm_62").max_regs_per_block == 32768


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_register_files(name: str) -> None:
    t = get_target(name)
    assert t.reg_limit("R") == 255
    assert t.reg_limit("P") == 7
    uniform = t.sm >= 75
    assert t.has_uniform_registers is uniform
    assert t.reg_limit("UR") == (63 if uniform else 0)
    assert t.reg_limit("UP") == (7 if uniform else 0)
    assert t.reg_limit("B") == (16 if t.sm >= 70 else 0)
    assert len(t.pipe_widths) == len(PIPE_NAMES) and min(t.pipe_widths) >= 1
    assert tuple(sorted(t.latency_cycles)) == LATENCY_CLASSES


def test_reg_limit_rejects_unknown_file() -> None:
    with pytest.raises(InvalidTargetError, match="unknown register file"):
        get_target("sm_80").reg_limit("Q")


def test_abi_generation_and_min_regs_seed_003() -> None:
    expected = {
        "sm_50": (4, 16), "sm_52": (4, 16), "sm_53": (4, 16),
        "sm_60": (5, 24), "sm_61": (5, 24), "sm_62": (5, 24), "sm_70": (5, 24),
        "sm_72": (5, 24), "sm_75": (5, 24), "sm_80": (5, 24), "sm_86": (5, 24),
        "sm_87": (5, 24), "sm_89": (5, 24), "sm_90": (9, 24), "sm_90a": (9, 24),
        "sm_100": (10, None), "sm_103": (10, None), "sm_120": (12, None),
    }  # fmt: skip
    for name, (gen, min_regs) in expected.items():
        t = get_target(name)
        assert (t.abi_generation, t.abi_min_regs) == (gen, min_regs), name
        # The codegen family (seed 004's >> 12) lands in the same ABI range.
        assert targets.abi_min_regs_for_generation(t.codegen_family) == min_regs, name
    assert targets.abi_min_regs_for_generation(3) == 16
    assert targets.abi_min_regs_for_generation(2) is None


def test_sm_version_code_matches_seed_004() -> None:
    assert get_target("sm_80").sm_version_code == 28673
    assert get_target("sm_90").sm_version_code == 36865
    assert get_target("sm_100").sm_version_code >> 12 > 9  # seed 003: >9 for sm_100+


def test_descriptor_is_frozen() -> None:
    t = get_target("sm_80")
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.max_warps_per_sm = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.register_limits["R"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        t.latency_cycles[6] = 1  # type: ignore[index]
    assert hash(t) == hash(get_target("sm_80"))


def test_invalid_descriptor_rejected() -> None:
    with pytest.raises(InvalidTargetError, match="pipe_widths"):
        _demo(pipe_widths=(1, 2, 3))
    with pytest.raises(InvalidTargetError, match="latency_cycles"):
        _demo(latency_cycles={1: 1})
    with pytest.raises(InvalidTargetError, match="register file"):
        _demo(register_limits={"X": 3})
    with pytest.raises(InvalidTargetError, match="name"):
        _demo(name="ampere")


# -- lookup -------------------------------------------------------------------


@pytest.mark.parametrize("alias", ["sm_80", "80", "sm80", "SM_80", " sm_80 "])
def test_get_target_aliases(alias: str) -> None:
    assert get_target(alias).name == "sm_80"


def test_get_target_arch_specific_aliases() -> None:
    assert get_target("90a").name == "sm_90a"
    assert get_target("sm90a").name == "sm_90a"
    assert get_target("90").name == "sm_90"


def test_unknown_target_error() -> None:
    with pytest.raises(UnknownTargetError) as info:
        get_target("sm_81")
    assert isinstance(info.value, DiagnosticException)
    message = str(info.value)
    assert "'sm_81'" in message
    for name in BUILTIN_NAMES:
        assert name in message


# -- registration ------------------------------------------------------------


@pytest.mark.usefixtures("isolated_registry")
def test_register_target_and_duplicates() -> None:
    demo = _demo()
    register_target(demo)
    assert get_target("sm_test_1") is demo
    register_target(demo)  # the identical descriptor again is a no-op
    other = _demo(max_ctas_per_sm=8)
    with pytest.raises(DuplicateTargetError, match="already registered"):
        register_target(other)
    register_target(other, replace=True)
    assert get_target("sm_test_1").max_ctas_per_sm == 8
    with pytest.raises(DuplicateTargetError):
        register_target(_demo(name="sm_80", sm=80, max_ctas_per_sm=1))
    unregister_target("sm_test_1")
    with pytest.raises(UnknownTargetError):
        get_target("sm_test_1")


def test_register_target_rejects_non_targets() -> None:
    with pytest.raises(TypeError):
        register_target("sm_80")  # type: ignore[arg-type]


def test_plugin_object_forms() -> None:
    a, b = _demo("sm_test_a"), _demo("sm_test_b")
    assert reg.plugin_targets(a, "x") == [a]
    assert reg.plugin_targets([a, b], "x") == [a, b]
    assert reg.plugin_targets((a,), "x") == [a]
    assert reg.plugin_targets(lambda: a, "x") == [a]
    assert reg.plugin_targets(lambda: (a, b), "x") == [a, b]
    with pytest.raises(TargetPluginError, match="plugin-x"):
        reg.plugin_targets(42, "plugin-x")
    with pytest.raises(TargetPluginError, match="SMTarget objects"):
        reg.plugin_targets([a, "sm_99"], "plugin-x")


@pytest.mark.usefixtures("isolated_registry")
def test_broken_plugin_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = EntryPoint(
        name="broken_demo", value="ori_no_such_module_xyz:targets", group="ori.targets"
    )
    good = list(entry_points(group="ori.targets"))
    monkeypatch.setattr(reg, "entry_points", lambda group: [*good, broken])
    reg.forget_all()
    with pytest.raises(TargetPluginError, match="broken_demo") as info:
        list_targets()
    assert "ori_no_such_module_xyz" in str(info.value)
    assert isinstance(info.value, DiagnosticException)
    # Nothing half-loaded is left behind, and a later call retries.
    assert reg.snapshot() == reg.RegistryState({}, {}, False)


# -- table ------------------------------------------------------------------


def test_format_target_table() -> None:
    text = format_target_table()
    assert text == format_target_table()  # stable
    lines = text.splitlines()
    assert lines[0].split() == [
        "name", "sm", "family", "gen", "R", "UR", "P", "UP", "B",
        "abi_min_regs", "warps/SM", "smem/SM",
    ]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(BUILTIN_NAMES) <= set(rows)
    assert rows["sm_80"] == ["sm_80", "80", "Ampere", "5", "255", "63", "7", "7", "16",
                             "24", "64", "164K"]  # fmt: skip
    assert rows["sm_100"][9] == "-"
    assert rows["sm_50"][5] == "0"


def test_format_target_table_is_pure_given_targets() -> None:
    sm86, sm50 = get_target("sm_86"), get_target("sm_50")
    text = format_target_table([sm86, sm50])
    assert [line.split()[0] for line in text.splitlines()] == ["name", "sm_50", "sm_86"]


@pytest.mark.parametrize(
    "name, ntid, nctaid, params",
    [
        # measured with nvcc/ptxas 13.0 + cuobjdump (targets/cbank.py)
        ("sm_75", 0x0, 0xC, 0x160),
        ("sm_80", 0x0, 0xC, 0x160),
        ("sm_90", 0x0, 0xC, 0x210),
        ("sm_90a", 0x0, 0xC, 0x210),
        ("sm_100", 0x360, 0x36C, 0x380),
        ("sm_120", 0x360, 0x36C, 0x380),
        ("sm_52", 0x0, 0xC, 0x140),
    ],
)
def test_constant_bank_layout(name: str, ntid: int, nctaid: int, params: int) -> None:
    layout = get_target(name).cbank0
    assert layout is not None
    assert (layout.ntid, layout.nctaid, layout.params) == (ntid, nctaid, params)
