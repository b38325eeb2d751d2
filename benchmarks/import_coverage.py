"""Which PTX files ori imports and compiles: ``python benchmarks/import_coverage.py [DIR...]``.

Imports every ``.ptx`` under the given folders (default: ``examples`` and
``tests/ptx/inputs``) and runs a pass pipeline (default ``ori-ptxas``) on each, one file
at a time, in-process.  ori's diagnostics -- ``PtxSyntaxError`` from the importer,
``PassFailedException``/``DiagnosticException`` from a pass, ``VerifyException`` --
are caught and reported; any other exception is an internal error, reported with its
type.  Prints one row per file (file, lines, imported, compiled, first error) and a
closing line with the counts.  Never crashes on an input: that is what it measures.

Options: ``--pipeline SPEC`` (a pass pipeline, as ``ori-opt -p`` takes it),
``--jobs N`` (a process pool; 1 runs in this process) and ``--per-kernel`` (one row per
``.entry``, imported on its own with the file's other kernels blanked out, see
``examples/library/ptx_entries.py``: ori stops at a file's first unsupported construct,
so this is how to see which kernels of a file are blocked and by what).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # ori_dialect, passes and examples, also in pool workers
    sys.path.insert(0, str(ROOT))
DEFAULT_DIRS = ("examples", "tests/ptx/inputs")
ERROR_WIDTH = 110


@dataclass(frozen=True)
class Row:
    """The outcome for one file."""

    file: str
    lines: int
    imported: bool
    compiled: bool
    error: str  # first error, one line ("" when the file compiled)
    seconds: float


def _one_line(stage: str, err: BaseException, internal: bool) -> str:
    text = str(err).strip().splitlines()
    first = text[0] if text else ""
    if isinstance(getattr(err, "message", None), str) and isinstance(
        getattr(err, "line", None), int
    ):
        # A PtxSyntaxError: the row already names the file, so keep LINE:COL and the message.
        first = f"{err.line}:{getattr(err, 'col', 0)}: {err.message}"  # type: ignore[attr-defined]
    kind = f"internal error {type(err).__name__}" if internal else type(err).__name__
    line = f"{stage}: {kind}: {first}"
    return line if len(line) <= ERROR_WIDTH else line[: ERROR_WIDTH - 3] + "..."


def _diagnostic_types() -> tuple[type[BaseException], ...]:
    # Imported here, not at module level, so that a broken ori still yields a table
    # (every file an internal error) instead of a crash of the tool.
    from xdsl.utils.exceptions import DiagnosticException

    return (DiagnosticException,)  # PtxSyntaxError, PassFailedException, VerifyException...


def measure(path_text: str, pipeline: str, kernel: str | None = None) -> Row:
    """Import and compile one file (or its one ``kernel``); never raises (except
    KeyboardInterrupt/SystemExit)."""
    path = Path(path_text)
    try:
        shown = str(path.resolve().relative_to(ROOT))
    except ValueError:
        shown = str(path)
    start = time.perf_counter()
    try:
        text = path.read_text(errors="replace")
    except OSError as err:
        return Row(shown, 0, False, False, _one_line("read", err, False), 0.0)
    row_name = shown if kernel is None else f"{shown}:{kernel}"
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    sink = io.StringIO()
    stage = "import"
    diagnostics: tuple[type[BaseException], ...] = ()
    try:
        diagnostics = _diagnostic_types()
        if kernel is not None:
            stage = "split"
            from examples.library.ptx_entries import single_entry

            with contextlib.suppress(ValueError):
                # The diagnostics keep the file's line numbers.  A body that is never
                # closed: import the whole text, so the importer says what is wrong.
                text = single_entry(text, kernel)
            stage = "import"
        from ori_dialect.ptx.lower import import_ptx
        from ori_dialect.testing.equivalence import apply_pipeline, make_context

        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            module = import_ptx(text, shown)
            stage = "verify"
            module.verify()
            stage = "compile"
            apply_pipeline(module, pipeline, make_context())
            stage = "verify after compile"
            module.verify()
    except Exception as err:  # noqa: BLE001 -- the tool reports every failure as a row
        internal = not isinstance(err, diagnostics)
        imported = stage not in ("split", "import", "verify")
        return Row(
            row_name,
            lines,
            imported,
            False,
            _one_line(stage, err, internal),
            time.perf_counter() - start,
        )
    return Row(row_name, lines, True, True, "", time.perf_counter() - start)


def find_ptx(dirs: list[str]) -> list[Path]:
    found: set[Path] = set()
    for d in dirs:
        p = Path(d)
        if not p.is_absolute() and not p.exists():
            p = ROOT / d
        if p.is_file() and p.suffix == ".ptx":
            found.add(p.resolve())
        elif p.is_dir():
            found.update(q.resolve() for q in p.rglob("*.ptx") if q.is_file())
        else:
            print(f"warning: {d}: no such file or folder", file=sys.stderr)
    return sorted(found)


def _measure_star(args: tuple[str, str, str | None]) -> Row:
    return measure(*args)


def _kernels(path: Path) -> list[str | None]:
    from examples.library.ptx_entries import entry_names

    try:
        names = entry_names(path.read_text(errors="replace"))
    except OSError:
        names = []
    return list(names) or [None]  # a file without kernels still gets its row


def run(paths: list[Path], pipeline: str, jobs: int, per_kernel: bool = False) -> list[Row]:
    work = [(str(p), pipeline, k) for p in paths for k in (_kernels(p) if per_kernel else [None])]
    if jobs <= 1 or len(work) <= 1:
        return [measure(*w) for w in work]
    # One task per file and a fresh worker after each: a file that exhausts memory or
    # hangs the interpreter state cannot contaminate the others' results.
    with ProcessPoolExecutor(max_workers=jobs, max_tasks_per_child=1) as pool:
        return list(pool.map(_measure_star, work, chunksize=1))


def format_table(rows: list[Row]) -> str:
    width = max([len("file"), *(len(r.file) for r in rows)])
    out = [f"{'file':<{width}}  {'lines':>7}  {'imported':>8}  {'compiled':>8}  first error"]
    for r in rows:
        out.append(
            f"{r.file:<{width}}  {r.lines:>7}  {'yes' if r.imported else 'no':>8}  "
            f"{'yes' if r.compiled else 'no':>8}  {r.error}"
        )
    imported = sum(r.imported for r in rows)
    compiled = sum(r.compiled for r in rows)
    what = "kernels" if any(":" in r.file for r in rows) else "files"
    out.append(f"{len(rows)} {what}, {imported} imported, {compiled} compiled")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", default=list(DEFAULT_DIRS), help="folders (or .ptx files)")
    ap.add_argument("--pipeline", default="ori-ptxas", help="pass pipeline (default ori-ptxas)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--per-kernel", action="store_true", help="one row per .entry")
    ns = ap.parse_args(argv)
    try:  # a misspelt pipeline is the user's error, not one per file
        from xdsl.passes import PassPipeline

        from ori_dialect.testing.equivalence import available_passes

        PassPipeline.parse_spec(available_passes(), ns.pipeline)
    except Exception as err:  # noqa: BLE001 -- reported, not raised
        print(f"error: --pipeline {ns.pipeline!r}: {err}", file=sys.stderr)
        return 2
    paths = find_ptx(ns.dirs)
    rows = run(paths, ns.pipeline, ns.jobs, ns.per_kernel)
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
