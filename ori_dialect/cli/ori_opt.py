"""``ori-opt``: the ori driver, ``xdsl-opt`` plus ori's own flags.

Everything ``xdsl-opt`` does works here too (``-p``, ``-t``, ``--split-input-file``,
``--verify-diagnostics``, ``--parsing-diagnostics``, ``--print-op-generic`` ...);
the ori dialect, ori passes and the ``ori-asm`` output target arrive through
the ``xdsl.universe`` entry point.  Added:

``--list-targets``
    print the table of registered SM targets (built-ins, ``ori.targets``
    entry-point plugins and ``--load-plugin`` files) and exit 0.
``--help-passes [NAME]``
    print every registered ori pass (``passes.registry``, plus ``--load-plugin``
    ones) with its one-line summary, what it requires of its input, which
    analyses it preserves, and each option with its type, default and
    description (:mod:`ori_dialect.cli.help_passes`), or that of pass NAME
    only, and exit 0.
``--load-plugin FILE.py`` (repeatable)
    execute a Python file before the pass pipeline is parsed, the analogue of
    LLVM's ``-load-pass-plugin``.  The file registers passes with
    ``passes.registry.register_pass(name, factory)`` and/or SM targets with
    ``targets.register_target(target)``; a file that registers nothing is an
    error.
``--sm NAME``
    set (or override) the module's ``ori.target`` attribute; the name is
    validated and stored in canonical form (``--sm 80`` -> ``sm_80``).
``--jobs N`` and several input files
    compile each file on its own in a pool of N worker processes, one output
    per input in the ``-o`` folder (:mod:`ori_dialect.cli.batch`).
``--time-passes`` (xDSL's flag, ori's report)
    print on stderr, after the output, the wall seconds of each step:
    parsing, every verification, each top-level pass (``ori-ptxas``'s phases
    indented under it, :mod:`passes.timing`) and printing, then their total.

Input files ending in ``.ptx`` (or any input with ``-f ptx``) are imported
with :func:`ori_dialect.ptx.lower.import_ptx`: the result is the Ori module
(printed as IR, or as a listing with ``-t ori-asm``).  ``--sm`` overrides the
PTX ``.target`` (it decides where kernel parameters live in constant bank 0).
A malformed or unsupported PTX input is reported as
``FILE:LINE:COL: error: MESSAGE`` (plus the source line and a caret) and exits
with status 1.

Errors and exit status
----------------------
Bad input never shows a Python traceback.  Malformed text, verifier failures,
unknown or ill-formed passes and pass options, unknown ``-t`` targets, unknown
SM targets, unreadable files and broken plugins all end in one diagnostic on
stderr and exit status **1**.  Where the failing construct has a source
position the diagnostic has xDSL's parse-error form::

    FILE:LINE:COL
    <source line>
    <carets under the construct>
    <message>

(verifier failures point at the failing operation; a type or attribute that
fails its own verifier while being parsed points at the type).
``--verify-diagnostics`` / ``--parsing-diagnostics`` keep their ``xdsl-opt``
meaning: the diagnostic goes to stdout and the tool goes on and exits 0.

An exception that is none of the above is a bug in ori (or in a pass): it
prints ``ori-opt: internal error: <exception>`` and exits with status **2**;
set ``ORI_DEBUG=1`` in the environment to get the full traceback as well.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib.util
import inspect
import os
import sys
import time
from collections.abc import Callable, Sequence
from io import StringIO
from pathlib import Path
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    ShrinkException,
)
from xdsl.utils.lexer import Position, Span
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from ori_dialect.cli.batch import add_batch_arguments, is_batch, run_batch
from ori_dialect.cli.exit_status import failing_op, guarded, plugin_frame
from ori_dialect.diagnostics import LocatedError
from ori_dialect.ir.verify import verify_module
from passes import timing
from passes.registry import all_passes, extra_passes

# ``targets`` is imported inside the methods that need it: it reads the
# plugin entry points through importlib.metadata (about 30 ms of start-up),
# and most runs name no SM.

PROG = "ori-opt"
TARGET_ATTR = "ori.target"  # same name as ori_dialect.ops.func.TARGET_ATTR


class OriOptError(DiagnosticException):
    """A diagnostic of the driver itself (bad flag value, unreadable file, plugin)."""


# ----------------------------------------------------------------------
# a parser that remembers where each op came from
# ----------------------------------------------------------------------
class _LocatingParser(Parser):
    """An xDSL parser that records the source span of every op it parses and
    turns verifier errors raised while a type or attribute is being built
    (``!ori.r32<R999>``) into located diagnostics."""

    def __init__(self, ctx: Context, text: str | bytes, name: str, spans: dict[Operation, Span]):
        super().__init__(ctx, text, name)
        self._spans = spans
        self._first_use: dict[str, Span] = {}

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        # Remember where a not-yet-defined value is first used, so that a value
        # that is never defined is reported there, not at the end of the file.
        if operand.operand_name not in self.ssa_values:
            self._first_use.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as err:
            undefined = list(self.forward_ssa_references)
            if not err.msg.startswith("values used but not defined") or not undefined:
                raise
            name = undefined[0]
            span = self._first_use.get(name)
            if span is None:
                raise
            more = f" (also undefined: {', '.join('%' + n for n in undefined[1:])})"
            raise ParseError(
                span, f"use of undefined value '%{name}'" + (more if undefined[1:] else "")
            ) from None

    def _located(self, err: DiagnosticException, start: Position) -> NoReturn:
        if isinstance(err, ParseError):
            raise err
        span = Span(start, self._end_of_previous_token(start), self.lexer.input)
        raise LocatedError(span, str(err)) from err  # pyright: ignore[reportCallIssue]

    def _end_of_previous_token(self, start: Position) -> Position:
        """The position after the last consumed token (``self.pos`` is the
        start of the next one, possibly lines later)."""
        content = self.lexer.input.content
        end = self.pos
        while end > start + 1 and content[end - 1 : end].isspace():
            end -= 1
        return end

    def parse_optional_type(self) -> Attribute | None:
        start = self.pos
        try:
            return super().parse_optional_type()
        except DiagnosticException as err:
            self._located(err, start)

    def parse_optional_attribute(self) -> Attribute | None:
        start = self.pos
        try:
            return super().parse_optional_attribute()
        except DiagnosticException as err:
            self._located(err, start)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        op = super().parse_operation()
        inp = self.lexer.input
        end = min(inp.get_end_of_line(start), self._end_of_previous_token(start))
        self._spans[op] = Span(start, max(end, start + 1), inp)
        return op


def _span_with_offset(span: Span, line_offset: int) -> Span:
    return dataclasses.replace(span, line_offset=line_offset)


# ----------------------------------------------------------------------
# argument parsing
# ----------------------------------------------------------------------
class _ArgParser(argparse.ArgumentParser):
    """argparse with exit status 1 (not 2) for a bad command line: 2 is
    reserved for internal errors."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


class OriOptMain(xDSLOptMain):
    """The ``ori-opt`` driver: ``xDSLOptMain`` plus plugins, targets and
    traceback-free diagnostics (module docstring)."""

    version_format = "ori-opt (ori 0.1.0) built on xdsl version {xdsl_version}"

    def __init__(
        self,
        args: Sequence[str] | None = None,
        *,
        namespace: argparse.Namespace | None = None,
        load_plugins: bool = True,
    ) -> None:
        # Same steps as xDSLOptMain.__init__, with our own argument parser and
        # with plugins loaded before the pipeline is parsed.  ``namespace``:
        # arguments already parsed (a --jobs worker; ``load_plugins`` False
        # where it inherited the parent's plugins).
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.op_spans: dict[Operation, Span] = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()

        arg_parser = _ArgParser(
            prog=PROG,
            description="ori modular optimizer driver: xdsl-opt with the ori dialect, "
            "passes, SM targets and plugins",
            epilog="Exit status: 0 success, 1 diagnosed error, 2 internal error "
            "(ORI_DEBUG=1 shows its traceback).",
        )
        self.register_all_arguments(arg_parser)
        # intermixed: input files may come before and after the options
        self.args = namespace or arg_parser.parse_intermixed_args(args=args)

        for plugin in self.args.load_plugin if load_plugins else ():
            self.load_plugin(plugin)
        self.sm_target: str | None = None
        if self.args.sm is not None:
            from targets import get_target  # lazy: targets, see the note at the imports

            self.sm_target = get_target(self.args.sm).name
        self._check_output_target()

        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        if self.args.disable_verify:
            Attribute.__post_init__ = _no_post_init  # pyright: ignore[reportAttributeAccessIssue]
        if self.args.syntax_highlight:
            Diagnostic.colored = True
        try:
            self.setup_pipeline()
        except ArgSpecParseError as err:
            raise OriOptError(f"bad pass pipeline '{self.args.passes}': {err}") from None
        except (ValueError, TypeError, KeyError) as err:
            raise OriOptError(f"bad pass pipeline '{self.args.passes}': {err}") from err

    # ------------------------------------------------------------------
    # registration
    # ------------------------------------------------------------------
    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in extra_passes().items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()
        self.available_frontends["mlir"] = self._parse_mlir
        self.available_frontends["ptx"] = self._parse_ptx

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--list-targets",
            action="store_true",
            default=False,
            help="print the registered SM targets and exit",
        )
        arg_parser.add_argument(
            "--help-passes",
            metavar="NAME",
            nargs="?",
            const="",
            default=None,
            help="print every ori pass (or pass NAME) with what it requires and preserves "
            "and its options (type, default, description), and exit",
        )
        arg_parser.add_argument(
            "--load-plugin",
            metavar="FILE.py",
            action="append",
            default=[],
            help="execute a Python file that registers passes (passes.registry.register_pass) "
            "and/or SM targets (targets.register_target) before the pipeline is parsed; "
            "repeatable",
        )
        add_batch_arguments(arg_parser)
        arg_parser.add_argument(
            "--sm",
            metavar="NAME",
            default=None,
            help="set or override the module's ori.target attribute (e.g. sm_80, sm_90a)",
        )

    def setup_pipeline(self) -> None:
        """xDSL's pipeline set-up with ori's ``--time-passes``: the steps go to
        :mod:`passes.timing` (one report on stderr at the end, nested phases
        of ``ori-ptxas`` included) instead of one stdout line per top-level
        pass."""
        start = time.perf_counter()

        def callback(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            nonlocal start
            if previous is not None:
                timing.add(previous.name, time.perf_counter() - start)
            if not self.args.disable_verify:
                with timing.timed("verify"):
                    verify_module(module)
            if previous and following and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            start = time.perf_counter()

        self.pipeline = PassPipeline.parse_spec(self.available_passes, self.args.passes, callback)

    # ------------------------------------------------------------------
    # plugins and targets
    # ------------------------------------------------------------------
    def load_plugin(self, path: str) -> None:
        """Execute a plugin file; it must register at least one pass or target."""
        import targets  # lazy: targets, see the note at the imports

        file = Path(path)
        if not file.is_file():
            raise OriOptError(f"cannot load plugin '{path}': no such file")
        passes_before = set(extra_passes())
        targets_before = {t.name: t for t in targets.list_targets()}
        n = len([m for m in sys.modules if m.startswith("ori_plugin_")])
        mod_name = f"ori_plugin_{n}_{''.join(c if c.isalnum() else '_' for c in file.stem)}"
        spec = importlib.util.spec_from_file_location(mod_name, file)
        if spec is None or spec.loader is None:
            raise OriOptError(f"cannot load plugin '{path}': not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        try:
            spec.loader.exec_module(module)
        except DiagnosticException as err:
            del sys.modules[mod_name]
            raise OriOptError(f"plugin '{path}' failed: {err}") from err
        except Exception as err:
            del sys.modules[mod_name]
            where = plugin_frame(err, file)
            raise OriOptError(
                f"plugin '{path}' failed{where}: {type(err).__name__}: {err}"
            ) from err
        new_passes = set(extra_passes()) - passes_before
        after = {t.name: t for t in targets.list_targets()}
        new_targets = [n for n, t in after.items() if targets_before.get(n) is not t]
        if not new_passes and not new_targets:
            raise OriOptError(
                f"plugin '{path}' registered nothing: call "
                "passes.registry.register_pass(name, factory) or "
                "targets.register_target(target) at import time"
            )
        for name in sorted(new_passes):
            self.register_pass(name, extra_passes()[name])

    def _check_output_target(self) -> None:
        spec = parse_spec(self.args.target)
        entry = self.available_targets.get(spec.name)
        if entry is None:
            raise OriOptError(
                f"unknown output target '{spec.name}' (-t); available: "
                + ", ".join(self.available_targets)
            )
        if not inspect.signature(entry).parameters:
            factory: Callable[[], type[Target]] = entry  # pyright: ignore[reportAssignmentType]
            try:
                factory().from_spec(spec)
            except (ValueError, TypeError) as err:
                raise OriOptError(f"bad output target '{self.args.target}': {err}") from err

    # ------------------------------------------------------------------
    # frontends
    # ------------------------------------------------------------------
    def _parse_mlir(self, io: IO[bytes]) -> ModuleOp:
        parser = _LocatingParser(self.ctx, io.read(), self.get_input_name(), self.op_spans)
        return parser.parse_module(not self.args.no_implicit_module)

    def _parse_ptx(self, io: IO[bytes]) -> ModuleOp:
        # lazy: the PTX frontend (parser, lowering tables) is loaded for .ptx inputs only
        from ori_dialect.ptx.lower import import_ptx

        name = self.get_input_name()
        try:
            text = io.read().decode("utf-8")
        except UnicodeDecodeError as err:
            raise OriOptError(
                f"{name}: not a PTX text file ({err.reason} at byte {err.start})"
            ) from None
        # With --split-input-file a chunk starts ``_line_offset`` lines into the
        # file: pad it so diagnostics give lines of the whole file.
        return import_ptx("\n" * self._line_offset + text, name, target=self.sm_target)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        try:
            return super().get_input_stream()
        except OSError as err:
            raise OriOptError(
                f"cannot open input file '{self.args.input_file}': {err.strerror or err}"
            ) from None

    def prepare_output(self) -> IO[str]:
        try:
            return super().prepare_output()
        except OSError as err:
            raise OriOptError(
                f"cannot open output file '{self.args.output_file}': {err.strerror or err}"
            ) from None

    # ------------------------------------------------------------------
    # running
    # ------------------------------------------------------------------
    def apply_passes(self, prog: ModuleOp) -> None:
        if self.sm_target is not None:
            prog.attributes[TARGET_ATTR] = StringAttr(self.sm_target)
        self._check_module_target(prog)
        super().apply_passes(prog)

    def _check_module_target(self, prog: ModuleOp) -> None:
        attr = prog.attributes.get(TARGET_ATTR)
        if attr is None:
            return
        if not isinstance(attr, StringAttr):
            raise self._at(prog, f"'{TARGET_ATTR}' must be a string naming an SM target")
        from targets import get_target  # lazy: targets, see the note at the imports

        try:
            get_target(attr.data)
        except DiagnosticException as err:
            raise self._at(prog, str(err)) from None

    def _at(self, op: Operation, msg: str) -> DiagnosticException:
        span = self.op_spans.get(op)
        if span is None:
            return OriOptError(msg)
        return LocatedError(_span_with_offset(span, self._line_offset), msg)  # pyright: ignore[reportCallIssue]

    _line_offset: int = 0

    def locate(self, err: DiagnosticException, module: ModuleOp | None) -> str:
        """The diagnostic text for ``err``: with the failing op's source
        position when it can be found, else the message (plus the op)."""
        if isinstance(err, ParseError):
            return str(err)
        msg = str(err)
        if module is None:
            return msg
        culprit = failing_op(module)
        if culprit is None:
            return msg
        span = self.op_spans.get(culprit)
        if span is not None:
            return _span_with_offset(span, self._line_offset).print_with_context(msg)
        text = StringIO()
        Printer(stream=text).print_op(culprit)
        first = text.getvalue().splitlines()[0] if text.getvalue() else culprit.name
        return f"{msg}\nnote: in operation: {first}"

    def run(self) -> int:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Process the input; returns the exit status (module docstring)."""
        if self.args.list_targets:
            import targets  # lazy: targets, see the note at the imports

            print(targets.format_target_table())
            return 0
        if self.args.help_passes is not None:
            return self._help_passes(self.args.help_passes)
        if self.args.time_passes:
            timing.enable()
        chunks, file_extension = self._prepare_input()
        output_stream = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                self._line_offset = offset
                module: ModuleOp | None = None
                try:
                    if i > 0:
                        output_stream.write("// -----\n")
                    with timing.timed(f"parse ({file_extension})"):
                        module = self.parse_chunk(chunk, file_extension, offset)
                    if module is not None:
                        self.apply_passes(module)
                        with timing.timed(f"print ({self.args.target})"):
                            text = self.output_resulting_program(module)
                        output_stream.write(text)
                    output_stream.flush()
                except ParseError as err:
                    err.span = _span_with_offset(err.span, offset)
                    semantic = isinstance(err, DiagnosticException)
                    if self.args.parsing_diagnostics or (semantic and self.args.verify_diagnostics):
                        print(err)
                    else:
                        raise
                except DiagnosticException as err:
                    text = self.locate(err, module)
                    if self.args.verify_diagnostics:
                        print(text)
                    else:
                        raise OriOptError(text) from err
                finally:
                    chunk.close()
        except ShrinkException:
            print("Success, can shrink")
            return 0
        finally:
            if output_stream is not sys.stdout:
                output_stream.close()
            if timing.enabled():
                sys.stderr.write(timing.format_report(timing.totals()))
                timing.disable()
        if self.args.shrink:
            print("Failure, can't shrink")
            return 1
        return 0

    def _help_passes(self, name: str) -> int:
        factories = {**all_passes(), **extra_passes()}
        if name and name not in factories:
            raise OriOptError(
                f"unknown pass '{name}' (--help-passes); ori passes: " + ", ".join(factories)
            )
        # lazy: the listing loads every pass's contract (and with it the
        # analyses and numpy); a compile run does not pay for that at start-up.
        from ori_dialect.cli.help_passes import format_passes

        sys.stdout.write(format_passes(factories, name or None))
        return 0

    def _prepare_input(self):
        try:
            return self.prepare_input()
        except ValueError as err:
            raise OriOptError(
                f"{err} for input '{self.get_input_name()}' (use -f mlir to force the "
                "MLIR frontend)"
            ) from None


def _no_post_init(self: Attribute) -> None:
    """Replaces ``Attribute.__post_init__`` under ``--disable-verify``."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ori-opt`` console script; returns the exit status.

    Called without ``argv`` (the console script, ``python -m``) it is the
    whole process, and it ends the process itself once its output is
    flushed (:func:`_end_process`).  With ``argv`` (tests, other tools) it
    returns the status and leaves the interpreter as it was."""
    if argv is not None:
        return guarded(lambda: _main(argv))
    tune_gc()
    _end_process(guarded(lambda: _main(None)))


def tune_gc() -> None:
    """The collector settings of an ``ori-opt`` process (benchmarks use them
    too).  A compile allocates millions of long-lived objects (the IR) and
    frees few: with the default thresholds the collector's scans found
    little and cost ~10% of a large file's time and two thirds of
    ``ori-loop-unroll``'s on a 30k-instruction kernel, growing faster than
    the program.  Collect young objects 50x less often and never rescan
    what was imported before."""
    gc.freeze()
    gc.set_threshold(35_000, 10, 10)


def _end_process(status: int) -> NoReturn:
    """Flush and leave without the interpreter's teardown: freeing every
    module and the IR object by object took up to a second after a large
    file was written (outputs are closed by then; nothing registers an
    exit hook that matters)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        status = status or 1
    os._exit(status)


def _main(argv: Sequence[str] | None) -> int:
    tool = OriOptMain(argv)
    if is_batch(tool.args):
        return run_batch(tool)
    return tool.run()


__all__ = ["LocatedError", "OriOptError", "OriOptMain", "guarded", "main", "tune_gc"]


if __name__ == "__main__":
    sys.exit(main())
