"""``ori-opt``: exit statuses and the no-traceback guarantee (run as a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INPUTS = REPO / "tests" / "filecheck" / "cli" / "Inputs"

GOOD = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    ori.exit
  }
}
"""


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "ori_dialect.cli.ori_opt", *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def write(tmp_path: Path, text: str, name: str = "in.mlir") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def expect_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    for n in needles:
        assert n in proc.stderr, proc.stderr


def test_good_input_round_trips(tmp_path: Path) -> None:
    proc = run(write(tmp_path, GOOD))
    assert proc.returncode == 0, proc.stderr
    assert "ori.s2r SR_TID.X" in proc.stdout


def test_asm_output(tmp_path: Path) -> None:
    proc = run(write(tmp_path, GOOD), "-t", "ori-asm")
    assert proc.returncode == 0, proc.stderr
    assert "S2R %r0, SR_TID.X ;" in proc.stdout


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        (GOOD.replace("ori.s2r", "ori.s3r"), ["in.mlir:3:", "Operation ori.s3r is not registered"]),
        (GOOD.replace("!ori.r32", "!ori.r32<R999>"), ["in.mlir:3:35", "unknown register 'R999'"]),
        (GOOD[: GOOD.index("ori.exit")], ["in.mlir:"]),
        (
            GOOD.replace(
                "ori.exit",
                "%u = ori.iadd3 %t, %q, RZ : (!ori.r32, !ori.r32) -> !ori.r32\n    ori.exit",
            ),
            ["in.mlir:4:24", "use of undefined value '%q'"],
        ),
        (
            GOOD.replace(
                "ori.exit", "%u = ori.iadd3 %t, 2.5, RZ : (!ori.r32) -> !ori.r32\n    ori.exit"
            ),
            ["in.mlir:4:24", "takes an integer immediate"],
        ),
        (
            GOOD.replace(
                "ori.exit", "%u = ori.iadd3 %t, 0x1, RZ : (!ori.r32) -> !ori.p\n    ori.exit"
            ),
            ["in.mlir:4:5", "result 'd' must be ori.r32"],
        ),
        (GOOD.replace("sm_80", "sm_999"), ["in.mlir:1:1", "unknown SM target 'sm_999'"]),
        (GOOD.replace("ori.exit", "ori.ret"), ["a kernel ends with ori.exit, not ori.ret"]),
    ],
)
def test_bad_input_is_one_diagnostic(tmp_path: Path, text: str, needles: list[str]) -> None:
    expect_error(run(write(tmp_path, text)), *needles)


def test_verify_diagnostics_exits_zero(tmp_path: Path) -> None:
    bad = GOOD.replace("ori.exit", "ori.ret")
    proc = run(write(tmp_path, bad), "--verify-diagnostics")
    assert proc.returncode == 0
    assert "a kernel ends with ori.exit" in proc.stdout


def test_parsing_diagnostics_exits_zero(tmp_path: Path) -> None:
    proc = run(write(tmp_path, GOOD.replace("ori.s2r", "ori.s3r")), "--parsing-diagnostics")
    assert proc.returncode == 0
    assert "not registered" in proc.stdout


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["-p", "ori-no-such-pass"], ["Unrecognized passes: ['ori-no-such-pass']"]),
        (["-p", "ori-print-loops{bogus=1}"], ["bad pass pipeline", "bogus"]),
        (["-p", "ori-print-loops{"], ["Error parsing pass pipeline specification"]),
        (["-t", "no-such-target"], ["unknown output target 'no-such-target'"]),
        (["--sm", "sm_999"], ["unknown SM target 'sm_999'"]),
        (
            ["--load-plugin", str(INPUTS / "raising_plugin.py")],
            ["RuntimeError: this plugin is broken"],
        ),
        (["--load-plugin", str(INPUTS / "empty_plugin.py")], ["registered nothing"]),
        (["--load-plugin", "no/such/plugin.py"], ["cannot load plugin"]),
        (["--no-such-flag"], ["unrecognized arguments: --no-such-flag"]),
    ],
)
def test_bad_options_are_one_diagnostic(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    expect_error(run(write(tmp_path, GOOD), *args), *needles)


def test_missing_input_file(tmp_path: Path) -> None:
    expect_error(run(str(tmp_path / "nope.mlir")), "cannot open input file")


def test_ptx_input_is_imported() -> None:
    proc = run(str(INPUTS / "kernel.ptx"))
    assert proc.returncode == 0, proc.stderr
    assert "ori.func kernel @k()" in proc.stdout


def test_bad_ptx_is_located(tmp_path: Path) -> None:
    bad = write(
        tmp_path,
        ".version 8.5\n.target sm_80\n.entry k()\n{\n\t.reg .b32 %r1;\n\tfoo.u32 %r1;\n}\n",
        "bad.ptx",
    )
    proc = run(bad)
    expect_error(proc, "unsupported PTX instruction 'foo.u32'")
    assert proc.stderr.startswith(f"{bad}:6:2: error: "), proc.stderr


def test_sm_overrides_module_target(tmp_path: Path) -> None:
    proc = run(write(tmp_path, GOOD), "--sm", "90a")
    assert proc.returncode == 0, proc.stderr
    assert 'ori.target = "sm_90a"' in proc.stdout


def test_list_targets() -> None:
    proc = run("--list-targets")
    assert proc.returncode == 0, proc.stderr
    for name in ("sm_50", "sm_80", "sm_90a", "sm_120"):
        assert name in proc.stdout


def test_plugin_registers_pass_and_target(tmp_path: Path) -> None:
    plugin = str(INPUTS / "plugin.py")
    proc = run(
        write(tmp_path, GOOD), "--load-plugin", plugin, "-p", "test-count-ops", "--sm", "sm_plug_81"
    )
    assert proc.returncode == 0, proc.stderr
    assert 'ori.target = "sm_plug_81"' in proc.stdout
    assert "test.ops = 3 : i64" in proc.stdout


INTERNAL_ERROR_PLUGIN = """
from dataclasses import dataclass
from xdsl.passes import ModulePass
from passes.registry import register_pass

@dataclass(frozen=True)
class Broken(ModulePass):
    name = "test-broken"

    def apply(self, ctx, op):
        raise ZeroDivisionError("a bug in a pass")

register_pass("test-broken", lambda: Broken)
"""


def test_internal_error_is_exit_2_and_traceback_is_opt_in(tmp_path: Path) -> None:
    plugin = write(tmp_path, INTERNAL_ERROR_PLUGIN, "broken.py")
    src = write(tmp_path, GOOD)
    proc = run(src, "--load-plugin", plugin, "-p", "test-broken")
    assert proc.returncode == 2
    assert "ori-opt: internal error: ZeroDivisionError: a bug in a pass" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run(src, "--load-plugin", plugin, "-p", "test-broken", env={"ORI_DEBUG": "1"})
    assert proc.returncode == 2
    assert "Traceback" in proc.stderr


def test_split_input_file_line_numbers(tmp_path: Path) -> None:
    text = GOOD + "\n// -----\n" + GOOD.replace("ori.exit", "ori.ret")
    proc = run(write(tmp_path, text), "--split-input-file")
    expect_error(proc, "in.mlir:10:3", "a kernel ends with ori.exit")
