"""How ``ori-opt`` reports errors: each exception mapped to its diagnostic on
stderr and its exit status (``ori_dialect.cli.ori_opt``'s docstring, "Errors
and exit status"), shared by the driver and its ``--jobs`` workers, and the
helpers that find where a failure happened (the failing op, the plugin line)."""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

PROG = "ori-opt"

# xDSL's form (``FILE:LINE:COL`` alone on the first line) and the PTX
# frontend's (``FILE:LINE:COL: error: MESSAGE``) are both already located.
_LOCATION_LINE = re.compile(r"^\S.*:\d+:\d+(: error: .*)?$")


def _report(msg: str) -> None:
    """Print a diagnostic: located ones (``FILE:LINE:COL`` on the first line)
    as they are, others as ``ori-opt: error: ...``."""
    text = msg.rstrip("\n")
    if not _LOCATION_LINE.match(text.split("\n", 1)[0]):
        text = f"{PROG}: error: {text}"
    print(text, file=sys.stderr)


def guarded(run: Callable[[], int]) -> int:
    """``run()``'s exit status, with every exception mapped to its diagnostic
    and status (module docstring, "Errors and exit status")."""
    try:
        return run()
    except SystemExit as exc:  # argparse --help / --version / usage errors
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ParseError as err:
        print(str(err).rstrip("\n"), file=sys.stderr)
        return 1
    except DiagnosticException as err:
        _report(str(err))
        return 1
    except ArgSpecParseError as err:
        _report(f"bad specification: {err}")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as err:  # noqa: BLE001 -- the documented internal-error path
        if os.environ.get("ORI_DEBUG") == "1":
            print(f"{PROG}: internal error: {type(err).__name__}: {err}", file=sys.stderr)
            traceback.print_exc()
        else:
            print(
                f"{PROG}: internal error: {type(err).__name__}: {err} "
                "(set ORI_DEBUG=1 to see the traceback)",
                file=sys.stderr,
            )
        return 2


def failing_op(module: ModuleOp) -> Operation | None:
    """The innermost op whose own verification fails (nested ops first, as
    xDSL verifies), or None."""
    for op in module.walk(reverse=False):
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException:
            # prefer a failing op nested inside this one
            for inner in op.walk():
                if inner is op:
                    continue
                try:
                    inner.verify(verify_nested_ops=False)
                except DiagnosticException:
                    return inner
            return op
    return None


def plugin_frame(err: BaseException, file: Path) -> str:
    """``' at FILE:LINE'`` for the innermost traceback frame inside the plugin."""
    where = ""
    target = str(file.resolve())
    for frame in traceback.extract_tb(err.__traceback__):
        try:
            if str(Path(frame.filename).resolve()) == target:
                where = f" at {file}:{frame.lineno}"
        except OSError:
            continue
    return where


__all__ = ["failing_op", "guarded", "plugin_frame"]
