"""Differential checking with the interpreter: does a transformed module
compute the same thing as the original?

::

    check_equivalent(before, after, "k", [prog.inputs(1), prog.inputs(2)])
    assert_pass_preserves(module, "ori-some-pass{opt=1}", "k", prog.input_factory, n=3)

Both modules run with :func:`ori_dialect.interpreter.run_kernel` on each
input set; every returned array (and scalar) is compared byte for byte.  On
a difference :class:`EquivalenceError` (an ``AssertionError``) is raised; its
message names the input seed, the first differing byte (argument index,
element index, byte offset in the argument, both element values) and prints
both modules in the custom syntax.  An ``InterpreterError`` (or any other
exception of the interpreter) on one side only is reported as a difference
with the error's text; when both sides fail the same way the inputs are not
usable and that is an error of its own (:class:`BothFailedError`).
"""

from __future__ import annotations

import contextlib
import io
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from ori_dialect.dialect import Ori
from ori_dialect.interpreter import InterpreterError, run_kernel
from ori_dialect.testing.generator import GeneratedProgram, GenOptions, LaunchInputs, generate
from passes.registry import all_passes, extra_passes

InputSet = LaunchInputs | Sequence[Any]
"""One launch: a :class:`LaunchInputs`, or the bare argument list (then the
launch geometry comes from ``check_equivalent``'s keyword arguments)."""


class EquivalenceError(AssertionError):
    """Two modules computed different results (or only one of them failed)."""

    def __init__(self, message: str, difference: Difference | None = None) -> None:
        super().__init__(message)
        self.difference = difference


class BothFailedError(AssertionError):
    """Both modules failed in the interpreter: the check proves nothing."""


# ----------------------------------------------------------------------------
# running
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one launch gave: the returned values, or the error text."""

    results: tuple[np.ndarray, ...] | None
    error: str | None = None
    error_type: str | None = None
    steps: int | None = None
    """Executed thread-instructions (when the launch completed)."""

    @property
    def ok(self) -> bool:
        return self.results is not None


def make_context() -> Context:
    """An xDSL context with the builtin and ori dialects."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Ori)
    return ctx


def module_text(module: ModuleOp) -> str:
    """``module`` in the custom syntax."""
    s = io.StringIO()
    Printer(stream=s).print_op(module)
    return s.getvalue()


def _launch(
    inputs: InputSet,
    grid: tuple[int, ...] | int | None,
    block: tuple[int, ...] | int | None,
    shared_bytes: int | None,
) -> tuple[list[Any], Any, Any, int, int | None]:
    if isinstance(inputs, LaunchInputs):
        return (
            list(inputs.args),
            inputs.grid if grid is None else grid,
            inputs.block if block is None else block,
            inputs.shared_bytes if shared_bytes is None else shared_bytes,
            inputs.seed,
        )
    if grid is None or block is None:
        raise TypeError("bare argument lists need grid= and block=")
    return list(inputs), grid, block, shared_bytes or 0, None


def _copy_arg(a: Any) -> Any:
    return a.copy() if isinstance(a, np.ndarray) else a


def run_launch(
    module: ModuleOp,
    kernel: str,
    args: Sequence[Any],
    grid: Any,
    block: Any,
    shared_bytes: int = 0,
    *,
    strict: bool = False,
    max_steps: int | None = None,
    physical: bool = False,
) -> Outcome:
    """Run ``kernel`` once (on copies of the arrays); errors become an Outcome."""
    stats: dict[str, int] = {}
    kw: dict[str, Any] = {"strict": strict, "stats": stats}
    if physical:
        kw["physical"] = True
    if max_steps is not None:
        kw["max_steps"] = max_steps
    try:
        res = run_kernel(module, kernel, grid, block, [_copy_arg(a) for a in args], shared_bytes, **kw)
    except InterpreterError as e:
        return Outcome(None, str(e), "InterpreterError")
    except Exception as e:  # noqa: BLE001 -- an interpreter crash is a finding too
        tb = traceback.format_exc(limit=6)
        return Outcome(None, f"{type(e).__name__}: {e}\n{tb}", type(e).__name__)
    return Outcome(tuple(np.asarray(r) for r in res), steps=stats.get("thread_instructions"))


def step_limit(reference: Outcome, factor: int = 20, floor: int = 200_000) -> int | None:
    """A step bound for running a transformed module on the launch that gave
    ``reference``: a correct transformation does not run ``factor`` times
    longer, while a broken one that loops forever is stopped early."""
    if reference.steps is None:
        return None
    return max(factor * reference.steps, floor)


# ----------------------------------------------------------------------------
# comparing
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """The first difference between two outcomes of one launch."""

    seed: int | None
    arg_index: int | None = None
    element_index: int | None = None
    byte_offset: int | None = None
    before_value: str | None = None
    after_value: str | None = None
    before_error: str | None = None
    after_error: str | None = None
    note: str = ""
    before_byte: int | None = None
    after_byte: int | None = None

    def describe(self) -> str:
        head = f"input seed {self.seed}" if self.seed is not None else "input set (no seed)"
        if self.before_error is not None or self.after_error is not None:
            lines = [f"{head}: the interpreter failed on one side only"]
            lines.append(f"  before: {self.before_error or 'ok'}")
            lines.append(f"  after:  {self.after_error or 'ok'}")
            return "\n".join(lines)
        if self.note:
            return f"{head}: argument #{self.arg_index}: {self.note}"
        return (
            f"{head}: first differing byte in argument #{self.arg_index}, element "
            f"{self.element_index}, byte offset {self.byte_offset} "
            f"({self.before_byte:#04x} vs {self.after_byte:#04x}): "
            f"before {self.before_value}, after {self.after_value}"
        )


def _fmt_elem(a: np.ndarray, i: int) -> str:
    flat = a.reshape(-1)
    v = flat[i]
    if a.dtype.kind in "ui":
        return f"{int(v):#x} ({int(v)})"
    if a.dtype.kind == "f":
        bits = flat.view(f"u{a.dtype.itemsize}")[i]
        return f"{float(v)!r} (bits {int(bits):#x})"
    if a.dtype.kind == "b":
        return str(bool(v))
    return repr(v)


def first_difference(before: Outcome, after: Outcome, seed: int | None = None) -> Difference | None:
    """None when the outcomes are byte-identical."""
    if not before.ok or not after.ok:
        if not before.ok and not after.ok:
            return None if before.error == after.error else Difference(
                seed, before_error=before.error, after_error=after.error,
                note="both failed, differently")
        return Difference(seed, before_error=before.error, after_error=after.error)
    assert before.results is not None and after.results is not None
    if len(before.results) != len(after.results):
        return Difference(seed, note=f"{len(before.results)} vs {len(after.results)} results")
    for k, (a, b) in enumerate(zip(before.results, after.results)):
        if a.dtype != b.dtype or a.shape != b.shape:
            return Difference(seed, k, note=f"{a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}")
        ab = np.frombuffer(np.ascontiguousarray(a).tobytes(), dtype=np.uint8)
        bb = np.frombuffer(np.ascontiguousarray(b).tobytes(), dtype=np.uint8)
        diff = np.flatnonzero(ab != bb)
        if diff.size:
            off = int(diff[0])
            size = max(a.dtype.itemsize, 1)
            elem = off // size
            return Difference(
                seed, k, elem, off,
                _fmt_elem(a, elem) if a.ndim else _fmt_elem(a.reshape(1), 0),
                _fmt_elem(b, elem) if b.ndim else _fmt_elem(b.reshape(1), 0),
                before_byte=int(ab[off]),
                after_byte=int(bb[off]),
            )
    return None


def format_failure(
    diff: Difference, before: ModuleOp | str, after: ModuleOp | str, *, title: str = ""
) -> str:
    bt = before if isinstance(before, str) else module_text(before)
    at = after if isinstance(after, str) else module_text(after)
    head = f"{title}: " if title else ""
    return (
        f"{head}results differ -- {diff.describe()}\n"
        f"---- IR before ----\n{bt}\n---- IR after ----\n{at}"
    )


def check_equivalent(
    before: ModuleOp,
    after: ModuleOp,
    kernel: str,
    inputs: Sequence[InputSet],
    *,
    grid: tuple[int, ...] | int | None = None,
    block: tuple[int, ...] | int | None = None,
    shared_bytes: int | None = None,
    strict: bool = False,
    max_steps: int | None = None,
    title: str = "",
    physical_after: bool = False,
) -> None:
    """Run both modules on each input set and compare every returned value
    byte for byte; raise :class:`EquivalenceError` at the first difference.
    Unless ``max_steps`` is given, ``after`` may run at most
    :func:`step_limit` of what ``before`` took (a transformation that makes a
    loop endless fails quickly).
    ``grid``/``block``/``shared_bytes`` override (or, for bare argument lists,
    give) the launch geometry.  ``physical_after`` runs ``after`` in the
    interpreter's physical-register mode (an allocated module)."""
    for inp in inputs:
        args, g, b, sh, seed = _launch(inp, grid, block, shared_bytes)
        ob = run_launch(before, kernel, args, g, b, sh, strict=strict, max_steps=max_steps)
        limit = max_steps if max_steps is not None else step_limit(ob)
        oa = run_launch(after, kernel, args, g, b, sh, strict=strict, max_steps=limit,
                        physical=physical_after)
        if not ob.ok and not oa.ok and ob.error == oa.error:
            raise BothFailedError(
                f"{title + ': ' if title else ''}input seed {seed}: both modules fail in the "
                f"interpreter:\n{ob.error}\n---- IR ----\n{module_text(before)}"
            )
        d = first_difference(ob, oa, seed)
        if d is not None:
            raise EquivalenceError(format_failure(d, before, after, title=title), d)


# ----------------------------------------------------------------------------
# passes
# ----------------------------------------------------------------------------


def available_passes() -> dict[str, Callable[[], type[Any]]]:
    """Every registered ori pass (plus run-time registered ones), by name."""
    return {**all_passes(), **extra_passes()}


def apply_pipeline(module: ModuleOp, spec: str, ctx: Context | None = None) -> None:
    """Apply the pass pipeline ``spec`` (``"a,b{opt=1}"``) to ``module`` in place."""
    pipeline = PassPipeline.parse_spec(available_passes(), spec)
    pipeline.apply(ctx or make_context(), module)


def assert_pass_preserves(
    module: ModuleOp,
    pass_spec: str,
    kernel: str,
    input_factory: Callable[[np.random.Generator], LaunchInputs],
    n: int = 3,
    *,
    seed: int = 0,
    max_steps: int | None = None,
    quiet: bool = True,
) -> ModuleOp:
    """Apply ``pass_spec`` to a clone of ``module``, verify the result and check
    it against the original on ``n`` inputs drawn with seeds ``seed .. seed+n-1``.
    Returns the transformed clone.  Pass output on stdout is swallowed when
    ``quiet``."""
    after = module.clone()
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
        apply_pipeline(after, pass_spec)
    try:
        after.verify()
    except Exception as e:
        raise EquivalenceError(
            f"{pass_spec}: the result does not verify: {e}\n---- IR before ----\n"
            f"{module_text(module)}"
        ) from e
    inputs = []
    for s in range(seed, seed + n):
        li = input_factory(np.random.default_rng(s))
        inputs.append(LaunchInputs(li.args, li.grid, li.block, li.shared_bytes, s))
    check_equivalent(module, after, kernel, inputs, max_steps=max_steps, title=pass_spec)
    return after


def check_generated(seed: int, options: GenOptions, pipeline: str) -> tuple[GeneratedProgram, ModuleOp]:
    """Generated program ``seed`` computes the same after ``pipeline`` and
    after ``ori-ptxas`` (in the interpreter's physical-register mode), strict
    about undefined values, on the program's own input for the seed (each
    result must verify).  Returns the program and its ``pipeline`` result."""
    prog = generate(seed, options=options)
    inputs = [prog.inputs(seed * 1000)]
    after = prog.module.clone()
    compiled = prog.module.clone()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(after, pipeline)
        apply_pipeline(compiled, "ori-ptxas")
    after.verify()
    compiled.verify()
    check_equivalent(prog.module, after, prog.kernel, inputs, strict=True,
                     title=f"{pipeline} on program {seed}")
    check_equivalent(prog.module, compiled, prog.kernel, inputs, strict=True,
                     physical_after=True, title=f"ori-ptxas (physical) on program {seed}")
    return prog, after


def lit_chunks(dirs: Sequence[Path]) -> list[tuple[str, int, str]]:
    """Every ``// -----`` chunk holding an ``ori.func`` in the ``.mlir`` lit
    files of ``dirs``: (file name, chunk index, text), in file order.  The
    equivalence tests of a pass run its own lit inputs through the interpreter."""
    out = []
    for path in sorted(p for d in dirs for p in d.glob("*.mlir")):
        for i, text in enumerate(path.read_text().split("// -----")):
            if "ori.func" in text:
                out.append((path.name, i, text))
    return out


def lit_kernel_args(func: Any, rng: np.random.Generator, scalar: int) -> list[Any]:
    """Arguments for a lit kernel: a 256-word random buffer for each 8-byte
    (pointer) parameter, ``scalar`` for each 4-byte one."""
    args: list[Any] = []
    assert func.params is not None
    for p in func.params.data:
        if p.size.data == 8:
            args.append(rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32))
        else:
            args.append(np.uint32(scalar))
    return args


@dataclass
class LitCheck:
    """What :func:`check_lit_inputs` saw: kernels run, chunks the pipeline changed."""

    kernels: int = 0
    changed: int = 0


def check_lit_inputs(
    dirs: Sequence[Path],
    pipeline: str,
    *,
    seeds: Sequence[int] = range(6),
    block: int = 32,
    shared_bytes: int = 0,
    max_steps: int | None = None,
    check: Callable[[ModuleOp, ModuleOp, str], None] | None = None,
) -> LitCheck:
    """Every kernel of every lit chunk of ``dirs`` (:func:`lit_chunks`) runs
    the same before and after ``pipeline`` (its diagnostics swallowed) on one
    input per seed (:func:`lit_kernel_args`), one CTA of ``block`` threads;
    the transformed module must verify, and ``check(before, after, title)``
    (a pass's own promise, e.g. "max live never rises") must hold for every
    chunk.  ``max_steps`` bounds the reference runs.  Raises
    :class:`EquivalenceError` at the first difference."""
    seen = LitCheck()
    for name, idx, text in lit_chunks(dirs):
        module = Parser(make_context(), text, "lit").parse_module()
        after = module.clone()
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(after, pipeline)
        after.verify()
        title = f"{name} chunk {idx}: {pipeline}"
        seen.changed += module_text(after) != module_text(module)
        if check is not None:
            check(module, after, title)
        for func in module.walk():
            if getattr(func, "kernel", None) is None:
                continue
            kname = func.sym_name.data  # type: ignore[attr-defined]
            assert getattr(func, "params", None) is not None, \
                f"{name} chunk {idx}: @{kname} is not observable (no params)"
            seen.kernels += 1
            for s in seeds:
                args = lit_kernel_args(func, np.random.default_rng(s), s)
                ref = run_launch(module, kname, args, 1, block, max_steps=max_steps,
                                 shared_bytes=shared_bytes)
                assert ref.ok, f"{name} chunk {idx} @{kname} does not run: {ref.error}"
                out = run_launch(after, kname, args, 1, block, max_steps=step_limit(ref),
                                 shared_bytes=shared_bytes)
                d = first_difference(ref, out, s)
                if d is not None:
                    raise EquivalenceError(format_failure(
                        d, module, after, title=f"{name} chunk {idx} @{kname}: {pipeline}"), d)
    return seen


__all__ = [
    "BothFailedError",
    "Difference",
    "EquivalenceError",
    "LitCheck",
    "Outcome",
    "apply_pipeline",
    "assert_pass_preserves",
    "available_passes",
    "check_equivalent",
    "check_generated",
    "check_lit_inputs",
    "first_difference",
    "format_failure",
    "lit_chunks",
    "lit_kernel_args",
    "make_context",
    "module_text",
    "run_launch",
    "step_limit",
]
