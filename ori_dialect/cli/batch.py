"""``ori-opt --jobs N FILE...``: several inputs, one output each, in parallel.

A user compiling a library should not pay ``ori-opt``'s start-up (Python,
xDSL, the dialect, the passes) once per file.  With several input files (or
with ``--jobs``) the driver parses its arguments and the pipeline once, loads
what the pipeline needs, and compiles the files in a pool of worker processes
(``concurrent.futures.ProcessPoolExecutor``; forked where the platform
allows, so the workers start with everything already imported).  ``--jobs
1`` compiles them one after another in the driver's own process.

Rules:

* ``-o`` names a folder (created if missing); each input's output goes to
  its path relative to the inputs' common folder, with the output target's
  suffix added (``-t mlir``: ``.mlir``, ``-t ori-asm``: ``.ori-asm``), so
  ``sm_80/saxpy.ptx`` and ``sm_90/saxpy.ptx`` do not collide;
* what a file's compilation writes to stdout is printed in input order; what
  it writes to stderr (diagnostics, remarks, statistics, ``--time-passes``)
  is printed with every line prefixed by the file's name (``FILE: ...``);
* a file that fails leaves no output behind; the others are still written;
* the exit status is 0 when every file compiled, otherwise the highest
  status of a failed file (1 diagnosed error, 2 internal error).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl.utils.arg_spec import parse_spec

from ori_dialect.cli.exit_status import guarded

if TYPE_CHECKING:
    from concurrent.futures import Future

    from xdsl.xdsl_opt_main import xDSLOptMain

# concurrent.futures and multiprocessing are imported where a pool is made:
# ori-opt imports this module on every run, most runs compile one file.


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and the input files after the first (xDSL declares one)."""
    parser.add_argument(
        "more_input_files",
        metavar="FILE",
        nargs="*",
        help="more input files: each is compiled on its own, -o names a folder "
        "(see --jobs)",
    )
    parser.add_argument(
        "--jobs",
        metavar="N",
        type=int,
        default=None,
        help="compile the input files in N worker processes (one output per input in "
        "the -o folder, each file's diagnostics prefixed by its name; exit 1 if any failed)",
    )


def is_batch(args: argparse.Namespace) -> bool:
    return bool(args.more_input_files) or args.jobs is not None


@dataclass(frozen=True)
class Outcome:
    """What compiling one file printed and its exit status."""

    status: int
    stdout: str
    stderr: str


def _fail(text: str) -> int:
    print(f"ori-opt: error: {text}", file=sys.stderr)
    return 1


def output_paths(inputs: list[str], folder: Path, target: str) -> list[Path]:
    """Where each input's output goes (module docstring)."""
    resolved = [Path(f).resolve() for f in inputs]
    # a missing input fails and writes nothing: it does not move the base
    present = [p for p in resolved if p.exists()] or resolved
    base = Path(os.path.commonpath([p.parent for p in present]))
    suffix = "." + parse_spec(target).name
    return [
        folder / ((str(p.relative_to(base)) if p.is_relative_to(base) else p.name) + suffix)
        for p in resolved
    ]


def run_batch(tool: xDSLOptMain) -> int:
    """Compile every input file of ``tool.args`` (module docstring)."""
    args = tool.args
    inputs = [f for f in [args.input_file, *args.more_input_files] if f is not None]
    if args.jobs is not None and args.jobs < 1:
        return _fail(f"--jobs must be at least 1, got {args.jobs}")
    if not inputs:
        return _fail("--jobs needs input files (standard input cannot be split)")
    if len({str(Path(f).resolve()) for f in inputs}) != len(inputs):
        return _fail("an input file is given more than once")
    if args.output_file is None:
        return _fail("several input files need -o FOLDER (one output per input)")
    folder = Path(args.output_file)
    if folder.exists() and not folder.is_dir():
        return _fail(f"-o '{folder}' is not a folder (several input files: one output each)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return _fail(f"cannot create output folder '{folder}': {err.strerror or err}")
    outputs = output_paths(inputs, folder, args.target)
    try:
        for parent in {o.parent for o in outputs}:
            parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return _fail(f"cannot create output folder '{parent}': {err.strerror or err}")
    jobs = min(args.jobs or 1, len(inputs))
    _preload(tool)
    outcomes = _compile_all(type(tool), args, inputs, outputs, jobs)
    status = 0
    for name, out, outcome in zip(inputs, outputs, outcomes, strict=True):
        sys.stdout.write(outcome.stdout)
        for line in outcome.stderr.splitlines():
            print(f"{name}: {line}", file=sys.stderr)
        if outcome.status != 0:
            out.unlink(missing_ok=True)
            status = max(status, outcome.status)
    sys.stdout.flush()
    return status


def _compile_all(
    driver: type, args: argparse.Namespace, inputs: list[str], outputs: list[Path], jobs: int
) -> list[Outcome]:
    if jobs == 1:
        return [compile_one(driver, args, f, str(o), load_plugins=False)
                for f, o in zip(inputs, outputs)]
    import multiprocessing  # lazy: only --jobs makes a pool
    from concurrent.futures import ProcessPoolExecutor  # lazy: only --jobs makes a pool

    methods = multiprocessing.get_all_start_methods()
    # forked workers inherit the imports and the registered plugins
    fork = "fork" in methods
    ctx = multiprocessing.get_context("fork" if fork else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures = [
            pool.submit(compile_one, driver, args, f, str(o), load_plugins=not fork)
            for f, o in zip(inputs, outputs)
        ]
        return [_result(fut) for fut in futures]


def _result(fut: Future[Outcome]) -> Outcome:
    from concurrent.futures.process import BrokenProcessPool  # lazy: only --jobs uses it

    try:
        return fut.result()
    except BrokenProcessPool as err:
        return Outcome(2, "", f"ori-opt: internal error: the worker process died ({err})\n")


def compile_one(driver: type, args: argparse.Namespace, input_file: str, output_file: str, *,
                load_plugins: bool) -> Outcome:
    """One file as ``ori-opt FILE -o OUTPUT`` with the other arguments of
    ``args``, its printed text captured.  ``driver`` is the driver's class
    (``OriOptMain``, passed in: ori_opt imports this module)."""

    one = argparse.Namespace(**vars(args))
    one.input_file, one.output_file = input_file, output_file
    one.more_input_files, one.jobs = [], None
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = guarded(lambda: driver(namespace=one, load_plugins=load_plugins).run())
    return Outcome(status, out.getvalue(), err.getvalue())


def _preload(tool: xDSLOptMain) -> None:
    """Import, once in the driver, what every file will need (the dialect,
    the PTX frontend, the phases of the pipeline), so that forked workers
    start with it."""
    # Each "lazy" below: loaded once in the driver, before the workers fork.
    from ori_dialect.dialect import Ori  # lazy: for its side effect  # noqa: F401
    from ori_dialect.ptx.lower import import_ptx  # lazy: for its side effect  # noqa: F401
    from passes.pipeline import PHASES, PtxasPipelinePass  # lazy: see above
    from passes.registry import all_passes  # lazy: see above

    registry = all_passes()
    for p in tool.pipeline.passes:
        if isinstance(p, PtxasPipelinePass):
            for phase in PHASES:
                registry[phase.pass_name]()


__all__ = ["Outcome", "add_batch_arguments", "compile_one", "is_batch", "output_paths",
           "run_batch"]
