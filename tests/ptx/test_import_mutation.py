"""Bad PTX never crashes the importer.

The valid PTX files (the CUDA examples and the importer's test inputs) are
mutated at random -- truncated, a token dropped, duplicated, swapped with its
neighbour or replaced by another token of the file -- with a fixed seed, so
every run sees the same inputs.  Each mutant must end in one of two ways:

* a :class:`~ori_dialect.ptx.parser.PtxSyntaxError` (or another xDSL
  ``DiagnosticException``) whose text starts ``FILE:LINE:COL: error:``, or
* a module that verifies (many mutants are still valid PTX).

Any other exception, and a module that fails verification, is a bug.  A few
mutants also go through ``ori-opt`` (exit 0 or 1, never a traceback).  The
default run takes a few seconds; ``-m fuzz`` runs a much bigger one.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.exceptions import DiagnosticException

from ori_dialect.interpreter import run_kernel
from ori_dialect.ptx.lower import import_ptx

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    [
        *(ROOT / "examples" / "ptx" / "sm_80").glob("*.ptx"),
        *(ROOT / "examples" / "ptx" / "sm_90").glob("*.ptx"),
        *(ROOT / "tests" / "ptx" / "inputs").glob("*.ptx"),
    ]
)
# Tokens: comments and strings whole, register/label/directive words, numbers,
# then single punctuation characters.  Whitespace is never a token, so a
# mutation keeps the rest of the file (and its line numbers) intact.
TOKEN = re.compile(r'//[^\n]*|"[^"\n]*"|[%$.\w]+|\S')
LOCATED = re.compile(r"^(?P<file>\S+):(?P<line>\d+):(?P<col>\d+): error: \S")
KINDS = ("truncate", "drop", "duplicate", "swap", "replace")


@dataclass(frozen=True)
class Mutant:
    source: Path
    kind: str
    where: int  # character offset of the mutation
    text: str

    @property
    def name(self) -> str:
        return f"{self.source.parent.name}/{self.source.stem}.{self.kind}@{self.where}.ptx"


@cache
def _tokens(path: Path) -> tuple[str, list[tuple[int, int]]]:
    text = path.read_text()
    # Mutating comments is pointless: they cannot fail; leave them out.
    spans = [m.span() for m in TOKEN.finditer(text) if not m.group().startswith("//")]
    return text, spans


def mutate(rng: random.Random) -> Mutant:
    """One random mutant of one source file (deterministic for the rng state)."""
    path = rng.choice(SOURCES)
    text, spans = _tokens(path)
    kind = rng.choice(KINDS)
    # Most files start with ~10 header tokens; bias towards function bodies
    # (where the importer does its work) while still hitting headers.
    i = rng.randrange(len(spans))
    s, e = spans[i]
    if kind == "truncate":
        cut = rng.randrange(s, e + 1)
        return Mutant(path, kind, cut, text[:cut])
    if kind == "drop":
        return Mutant(path, kind, s, text[:s] + text[e:])
    if kind == "duplicate":
        return Mutant(path, kind, s, text[:e] + " " + text[s:e] + text[e:])
    if kind == "swap":
        j = min(i + 1, len(spans) - 1)
        s2, e2 = spans[j]
        if j == i:
            return Mutant(path, kind, s, text)
        return Mutant(path, kind, s, text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:])
    s2, e2 = spans[rng.randrange(len(spans))]
    return Mutant(path, kind, s, text[:s] + text[s2:e2] + text[e:])


def check_mutant(m: Mutant) -> str:
    """Import one mutant; returns ``"ok"`` or ``"diagnosed"``, raises on a bug."""
    try:
        module = import_ptx(m.text, m.name)
    except DiagnosticException as err:
        text = str(err)
        got = LOCATED.match(text)
        assert got is not None, f"{m.name}: diagnostic without FILE:LINE:COL: error:\n{text}"
        assert got.group("file") == m.name, f"{m.name}: diagnostic names another file\n{text}"
        line = int(got.group("line"))
        assert 1 <= line <= m.text.count("\n") + 1, f"{m.name}: line out of range\n{text}"
        return "diagnosed"
    except Exception as err:
        raise AssertionError(
            f"{m.name}: {type(err).__name__} escaped the importer: {err}\n"
            f"mutant of {_reproducer(m)}"
        ) from err
    try:
        module.verify()
    except Exception as err:
        raise AssertionError(
            f"{m.name}: the importer built a module that does not verify: {err}\n"
            f"mutant of {_reproducer(m)}"
        ) from err
    return "ok"


def _reproducer(m: Mutant) -> str:
    """Where the mutant differs: its source, the mutation and the changed line."""
    line = m.text.count("\n", 0, m.where) + 1
    start = m.text.rfind("\n", 0, m.where) + 1
    end = m.text.find("\n", m.where)
    changed = m.text[start : end if end >= 0 else len(m.text)].strip()
    return f"{m.source.relative_to(ROOT)}, {m.kind} at line {line}: {changed!r}"


def _run_batch(seed: int, count: int) -> dict[str, int]:
    rng = random.Random(seed)
    tally = {"ok": 0, "diagnosed": 0}
    for _ in range(count):
        tally[check_mutant(mutate(rng))] += 1
    return tally


BATCHES = 12
PER_BATCH = 40  # 480 mutants in the default run


@pytest.mark.parametrize("seed", range(BATCHES))
def test_mutants_are_diagnosed_or_valid(seed: int) -> None:
    tally = _run_batch(seed, PER_BATCH)
    assert sum(tally.values()) == PER_BATCH


def test_mutations_mostly_break_the_input() -> None:
    """The mutator is not a no-op: most mutants are rejected with a diagnostic,
    and the test inputs themselves import (the baseline is valid)."""
    for path in SOURCES:
        if path.parent.name.startswith("sm_"):  # tests/ptx/inputs may use unsupported PTX
            import_ptx(path.read_text(), str(path)).verify()
    tally = _run_batch(1000, 60)
    assert tally["diagnosed"] >= 20, tally


def test_truncation_at_every_line_of_one_kernel() -> None:
    """Cutting a file after any line gives a located diagnostic or a valid module."""
    path = ROOT / "examples" / "ptx" / "sm_80" / "saxpy.ptx"
    lines = path.read_text().splitlines(keepends=True)
    for n in range(len(lines)):
        check_mutant(Mutant(path, "truncate", n, "".join(lines[:n])))


def test_cli_mutants(tmp_path: Path) -> None:
    """A handful of mutants through ``ori-opt``: exit 0 or 1, never a traceback;
    a failure is one located diagnostic."""
    rng = random.Random(4242)
    seen_error = False
    for k in range(6):
        m = mutate(rng)
        f = tmp_path / f"m{k}.ptx"
        f.write_text(m.text)
        proc = subprocess.run(
            [sys.executable, "-m", "ori_dialect.cli.ori_opt", str(f)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert "Traceback" not in proc.stderr + proc.stdout, (m.name, proc.stderr)
        assert proc.returncode in (0, 1), (m.name, proc.returncode, proc.stderr)
        if proc.returncode == 1:
            seen_error = True
            assert proc.stderr.startswith(f"{f}:"), (m.name, proc.stderr)
            assert ": error: " in proc.stderr.splitlines()[0], (m.name, proc.stderr)
        else:
            assert "builtin.module" in proc.stdout
    # Truncating in the middle of a kernel always fails: make sure the error path ran.
    if not seen_error:
        f = tmp_path / "cut.ptx"
        f.write_text(SOURCES[0].read_text()[:-3])
        proc = subprocess.run(
            [sys.executable, "-m", "ori_dialect.cli.ori_opt", str(f)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert proc.returncode == 1 and proc.stderr.startswith(f"{f}:"), proc.stderr


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(100, 140))
def test_mutants_fuzz(seed: int) -> None:
    """The big run: 40 x 250 = 10,000 mutants (``pytest -m fuzz``)."""
    _run_batch(seed, 250)


# ----------------------------------------------------------------------
# regressions found by the mutation run
# ----------------------------------------------------------------------
PRED_CONSTANTS = """.version 8.5
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.pred 	%p1, 1;
	mov.pred 	%p2, 0;
	selp.u32 	%r1, 1, 0, %p1;
	selp.u32 	%r2, 1, 0, %p2;
	selp.u32 	%r3, 7, 9, 1;
	selp.u32 	%r4, 7, 9, 0;
	vote.sync.all.pred 	%p3, 1, -1;
	vote.sync.any.pred 	%p4, 0, -1;
	selp.u32 	%r5, 1, 0, %p3;
	selp.u32 	%r6, 1, 0, %p4;
	st.global.v4.u32 	[%rd2], {%r1, %r2, %r3, %r4};
	st.global.v2.u32 	[%rd2+16], {%r5, %r6};
	ret;
}
"""


def test_pred_immediates_are_constants() -> None:
    """ptxas takes 0/1 where a .pred source goes; they were lowered as 32-bit
    registers (a module that did not verify)."""
    module = import_ptx(PRED_CONSTANTS, "pred.ptx")
    module.verify()
    (out,) = run_kernel(module, "k", (1, 1, 1), (32, 1, 1), [np.zeros(6, np.uint32)])
    assert out.tolist() == [1, 0, 7, 9, 1, 0]


@pytest.mark.parametrize(
    "line",
    ["setp.eq.f32 \t3, %f1, %f1;", "setp.eq.s32 \t3, %r1, %r1;", "mov.pred \t%p1, 0f3F800000;"],
)
def test_bad_predicate_operands_are_diagnosed(line: str) -> None:
    text = PRED_CONSTANTS.replace("mov.pred \t%p1, 1;", line).replace(
        ".reg .b64", ".reg .f32 \t%f1;\n\t.reg .b64"
    )
    m = Mutant(SOURCES[0], "replace", text.index(line), text)
    assert check_mutant(m) == "diagnosed"
