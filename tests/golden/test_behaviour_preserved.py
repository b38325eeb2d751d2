"""Every listing, remark and figure stays as recorded (``tests/golden/cases.py``).

A refactoring must leave these outputs byte-identical; a change that is meant
to alter them re-records with ``python -m tests.golden.record`` and says why.
"""

from __future__ import annotations

import difflib

import pytest

from tests.golden.cases import REPO, case_id, cases, recorded, run_case

CASES = cases()


@pytest.mark.parametrize("path,pipeline", CASES, ids=[case_id(f, p) for f, p in CASES])
def test_output_as_recorded(path, pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    want_file = recorded(path, pipeline)
    assert want_file.is_file(), f"no recording for {case_id(path, pipeline)}: run tests.golden.record"
    want = want_file.read_text()
    got = run_case(path, pipeline)
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(keepends=True), got.splitlines(keepends=True),
                "recorded", "now", n=2,
            )
        )
        pytest.fail(f"{case_id(path, pipeline)} changed:\n{diff[:6000]}")


def test_every_recording_has_a_case() -> None:
    """A recording whose case is gone means an input was lost."""
    live = {recorded(f, p).name for f, p in CASES}
    stale = sorted(p.name for p in recorded(*CASES[0]).parent.glob("*.txt") if p.name not in live)
    assert not stale, stale
