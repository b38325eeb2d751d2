"""``ori-opt --help-passes``: every ori pass with its contract and its options."""

from __future__ import annotations

import pytest

from ori_dialect.cli.ori_opt import main
from passes.contract import option_infos
from passes.registry import all_passes


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["--help-passes", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_lists_every_pass_with_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = help_text(capsys)
    assert rc == 0
    assert "(no description)" not in out
    for name, factory in all_passes().items():
        cls = factory()
        assert f"\n{name} -- " in f"\n{out}"
        for info in option_infos(cls):
            assert f"    {info.name}: {info.type} = {info.default}\n" in out
            # the description's first words, wrapped at 100 columns
            assert " ".join(info.doc.split()[:3]) in out


def test_one_pass(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = help_text(capsys, "ori-regalloc")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].startswith("ori-regalloc -- ")
    assert lines[1] == "  requires:  SSA form"
    assert lines[2] == "  preserves: nothing"
    assert "    max-regs: int | None = unset" in lines
    assert "    ssa-search-budget: int = 20000" in lines
    assert "ori-dead-code" not in out
    assert all(len(line) <= 100 for line in lines)


def test_pass_diagnosing_its_own_requirement(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = help_text(capsys, "ori-stats")
    assert "  requires:  allocated registers (diagnosed by the pass)" in out.splitlines()
    assert "  preserves: all analyses (does not change the IR)" in out.splitlines()


def test_unknown_pass(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = help_text(capsys, "ori-nothing")
    assert rc == 1
    assert out == ""
    assert err.startswith("ori-opt: error: unknown pass 'ori-nothing' (--help-passes)")
