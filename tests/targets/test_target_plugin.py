"""A third-party target plugin is discovered through the ``ori.targets`` group.

The demo distribution under ``tests/targets/plugins/ori_demo_target`` is copied to a
temporary directory (so no build/ or egg-info lands in the repository),
installed with ``pip --target`` into another temporary directory, and a fresh
interpreter with that directory on PYTHONPATH must list ``sm_demo_77``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN_SRC = REPO / "tests" / "targets" / "plugins" / "ori_demo_target"
DEMO = "sm_demo_77"


def _have(module: str) -> bool:
    # find_spec imports parent packages, which may be half-written: treat any
    # failure as "not available".
    try:
        return importlib.util.find_spec(module) is not None
    except Exception:  # noqa: BLE001 -- any import-time failure means 'absent'
        return False


def _can_build_without_isolation() -> bool:
    """setuptools builds wheels offline if it has ``bdist_wheel``.

    That is built into setuptools from 70.1; older setuptools needs the
    separate ``wheel`` package.
    """
    if _have("wheel"):
        return True
    from importlib.metadata import version

    parts = version("setuptools").split(".")
    major, minor = int(parts[0]), int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return (major, minor) >= (70, 1)


# Messages pip prints when it cannot reach a package index for an isolated
# build environment; only these turn a failed install into a skip.
_NO_INDEX_HINTS = (
    "No matching distribution found",
    "Could not find a version that satisfies",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
)


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (_have("pip") and _have("setuptools")):
        pytest.skip("pip and setuptools are needed to install the demo target plugin")
    work = tmp_path_factory.mktemp("ori_demo_target")
    src = work / "src"
    site = work / "site"
    shutil.copytree(PLUGIN_SRC, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    offline = _can_build_without_isolation()
    cmd = [
        sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input",
        "--disable-pip-version-check", "--target", str(site), str(src),
    ]  # fmt: skip
    if offline:
        cmd.insert(4, "--no-build-isolation")
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=work, timeout=300)
    output = f"{done.stdout}\n{done.stderr}"
    if done.returncode != 0 and not offline and any(h in output for h in _NO_INDEX_HINTS):
        pytest.skip(
            "cannot build the demo plugin: setuptools < 70.1 without the 'wheel' package, "
            "and no package index is reachable for an isolated build"
        )
    assert done.returncode == 0, f"pip install failed:\n{output}"
    return site


def _env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(site), str(REPO), env.get("PYTHONPATH", "")) if p
    )
    return env


def test_plugin_target_is_listed(plugin_site: Path) -> None:
    code = (
        "import targets\n"
        "names = [t.name for t in targets.list_targets()]\n"
        "t = targets.get_target('sm_demo_77')\n"
        "print(','.join(names))\n"
        "print(targets.target_origin('sm_demo_77'))\n"
        "print(t.max_warps_per_sm, t.abi_min_regs)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False, capture_output=True, text=True, env=_env(plugin_site), cwd=plugin_site, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    names_line, origin_line, values_line = done.stdout.splitlines()
    names = names_line.split(",")
    assert DEMO in names and "sm_80" in names  # plugin beside the built-ins
    assert "entry point 'demo'" in origin_line and "ori-demo-target" in origin_line
    assert values_line == "32 24"


def _ori_opt() -> str:
    """The installed ``ori-opt`` command (next to this Python, else on PATH)."""
    exe = shutil.which("ori-opt", path=str(Path(sys.executable).parent)) or shutil.which("ori-opt")
    assert exe is not None, "ori-opt is not installed (pip install -e .)"
    return exe


def test_plugin_target_in_ori_opt_list(plugin_site: Path) -> None:
    exe = _ori_opt()
    done = subprocess.run(
        [exe, "--list-targets"],
        check=False, capture_output=True, text=True, env=_env(plugin_site), cwd=plugin_site, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.strip()]
    assert DEMO in listed and "sm_80" in listed
