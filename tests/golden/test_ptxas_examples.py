"""``ori-ptxas`` output on every example PTX outside ``examples/ptx`` stays as
recorded (by digest: ``tests/golden/ptxas_digests.py``); the large library
files run under ``-m fuzz``."""

from __future__ import annotations

import pytest

from tests.golden.cases import REPO, run_case
from tests.golden.ptxas_digests import SLOW_BYTES, digest, example_files, key, recorded

FILES = example_files()
PARAMS = [
    pytest.param(p, id=key(p), marks=[pytest.mark.fuzz] if p.stat().st_size >= SLOW_BYTES else [])
    for p in FILES
]


@pytest.mark.parametrize("path", PARAMS)
def test_ptxas_output_as_recorded(path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    want = recorded().get(key(path))
    assert want is not None, f"no digest for {key(path)}: run python -m tests.golden.record"
    got = digest(run_case(path, "ptxas"))
    assert got == want, (
        f"ori-ptxas output of {key(path)} changed ({want['lines']} -> {got['lines']} lines): "
        "compare ori-opt's output before and after; re-record (python -m tests.golden.record) "
        "only for a change meant to alter it"
    )


def test_every_digest_has_an_example() -> None:
    """A digest whose example is gone means an input was lost."""
    live = {key(p) for p in FILES}
    assert not sorted(set(recorded()) - live)
