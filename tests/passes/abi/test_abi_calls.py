"""Issue 17 item 7: programs with calls (examples/abi/abi_calls.cu: direct,
indirect, recursive calls, many and wide parameters, 32- and 64-byte
by-value structs, values live across calls, local arrays per activation and
a recursive function that spills) compute the numpy reference
before ``ori-abi``, after it, and after ``ori-ptxas`` in the interpreter's
physical-register mode -- where every scratch register of a lowered caller
is clobbered at each call, so a value the allocator kept in a scratch
register across a call changes the result (the last test shows that it
does)."""

from __future__ import annotations

import contextlib
import copy
import functools
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, run_launch
from passes.regalloc.checker import check_module

ROOT = Path(__file__).resolve().parents[3]
PTX = ROOT / "examples" / "abi" / "ptx"
N = 64
M32 = 0xFFFFFFFF


def _i32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def _fib(n: int) -> int:
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def _direct(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-300, 300, N + 2).astype(np.int32)
    out = np.zeros(N, np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        x, y, z = (args[0][i: i + N].astype(np.int64) for i in range(3))
        r = x * y + z
        s = r * x + y
        return np.array([_i32(int(v)) for v in r + s + x * y * z], np.int32)

    return [a, out, np.int32(N)], ref


def _structs(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-100, 100, N + 40).astype(np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        a_ = args[0].astype(np.int64)
        res = []
        for i in range(N):
            mid = sum(int(a_[i + j]) * (j + 1) for j in range(8))
            big = sum(int(a_[i + 2 * j]) * (j + i) for j in range(16))
            res.append(_i32(mid + big))
        return np.array(res, np.int32)

    return [a, np.zeros(N, np.int32)], ref


def _many(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-1000, 1000, 14 * N).astype(np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        p = args[0].astype(np.int64).reshape(N, 14)
        return (p * np.arange(1, 15)).sum(axis=1).astype(np.int32)

    return [a, np.zeros(N, np.int32)], ref


def _recursive(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(0, 1000, N).astype(np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        return np.array([_fib(int(v) & 7) + i for i, v in enumerate(args[0])], np.int32)

    return [a, np.zeros(N, np.int32)], ref


def _indirect(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-3000, 3000, N).astype(np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        res = []
        for i, v in enumerate(args[0].tolist()):
            f = (lambda x: x * x) if v & 1 else (lambda x: -x)
            res.append(_i32(f(v) + f(i)))
        return np.array(res, np.int32)

    return [a, np.zeros(N, np.int32)], ref


def _wide(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-(2**40), 2**40, N).astype(np.int64)
    b = rng.integers(-10000, 10000, N).astype(np.float64) / 4
    d = rng.integers(-100, 100, (N, 4)).astype(np.float32) / 2

    def ref(args: list[Any]) -> np.ndarray:
        s = args[2].astype(np.float32)
        tot = ((s[:, 0] + s[:, 1]) + s[:, 2]) + s[:, 3]
        return (args[0] + np.trunc(args[1]).astype(np.int64) + np.arange(N)
                + np.trunc(tot).astype(np.int64))

    return [a, b, d, np.zeros(N, np.int64)], ref


def _nest(n: int, x: int) -> int:
    if n <= 0:
        return n * 16 + (x & 3) + x
    return _i32(_nest(n - 1, x + 1) + n * 16 + ((x + n) & 3) + x)


def _deep(n: int, x: int) -> int:
    if n <= 0:
        return x
    a = [x * 3 + 1, x * 5 + 2, x * 7 + 3, x * 11 + 4, x * 13 + 5, x ^ 0x55, x ^ 0x3C,
         x * 17 + 6, x * 19 + 7, x * 23 + 8]
    b = [x * 29 + 9, x * 31 + 10, x ^ 0x77, x * 37 + 11, x * 41 + 12, x * 43 + 13,
         x * 47 + 14, x ^ 0x1F, x * 53 + 15, x * 59 + 16]
    a, b = [_i32(v) for v in a], [_i32(v) for v in b]
    r = _deep(n - 1, _i32(x ^ _i32(a[0] + b[9])))
    s = r + sum((k + 1) * v for k, v in enumerate(a))
    s += sum(b[2 * k] ^ b[2 * k + 1] for k in range(5))
    return _i32(s)


def _frames(rng: np.random.Generator) -> tuple[list[Any], Callable[[list[Any]], np.ndarray]]:
    a = rng.integers(-500, 500, N).astype(np.int32)

    def ref(args: list[Any]) -> np.ndarray:
        res = []
        for i, v in enumerate(args[0].tolist()):
            pick = 100 * (v & 7) + v
            res.append(_i32(pick + v + ((i + 1) & 7) + _nest(v & 3, i) + _deep(v & 3, i)))
        return np.array(res, np.int32)

    return [a, np.zeros(N, np.int32)], ref


CASES: dict[str, tuple[Callable[..., Any], int]] = {
    "abi_frames": (_frames, 1),
    "abi_direct": (_direct, 1),
    "abi_structs": (_structs, 1),
    "abi_many": (_many, 1),
    "abi_recursive": (_recursive, 1),
    "abi_indirect": (_indirect, 1),
    "abi_wide": (_wide, 3),
}
"""Kernel -> (arguments and reference, index of the output argument)."""


@functools.cache
def abi_example_module(arch: str, pipeline: str) -> ModuleOp:
    """examples/abi/ptx/ARCH/abi_calls.ptx imported and run through ``pipeline``."""
    path = PTX / arch / "abi_calls.ptx"
    m = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    if pipeline:
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, pipeline)
        m.verify()
    return m


def _run(m: ModuleOp, kernel: str, args: list[Any], physical: bool) -> np.ndarray:
    out = run_launch(m, kernel, [copy.deepcopy(a) for a in args], 1, N, strict=True,
                     physical=physical)
    assert out.results is not None, out.error
    return out.results[CASES[kernel][1]]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("kernel", sorted(CASES))
def test_calls_before_and_after_abi(kernel: str, arch: str) -> None:
    make, _ = CASES[kernel]
    args, ref = make(np.random.default_rng(17))
    want = ref(args)
    # max-regs=24: a stack-passed struct holds no registers on either side
    # (sum_big's 64 bytes had needed 16 aligned ones and failed)
    for pipeline, physical in (("", False), ("ori-abi", False), ("ori-ptxas", True),
                               ("ori-ptxas{max-regs=24}", True)):
        got = _run(abi_example_module(arch, pipeline), kernel, args, physical)
        np.testing.assert_array_equal(got, want, err_msg=f"{kernel} after {pipeline!r}")


def test_scratch_clobber_catches_a_value_left_in_scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the live-across-call restriction the allocator keeps a value
    in a scratch register across a call; the physical interpreter's clobber
    then changes the result (the check above can fail)."""
    from passes.regalloc import trial

    orig = trial.abi_masks

    def only_pinned(func: Any, lm: Any, units: Any, spillable: Any) -> Any:
        masks, pinned = orig(func, lm, units, spillable)
        return {k: v for k, v in masks.items() if k in pinned}, pinned

    monkeypatch.setattr(trial, "abi_masks", only_pinned)
    path = PTX / "sm_80" / "abi_calls.ptx"
    m = import_ptx(path.read_text(), str(path.relative_to(ROOT)))
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-ptxas")
    wrong = []
    for kernel, (make, k) in sorted(CASES.items()):
        args, ref = make(np.random.default_rng(17))
        out = run_launch(m, kernel, [copy.deepcopy(a) for a in args], 1, N, strict=True,
                         physical=True)
        if out.results is None or not np.array_equal(out.results[k], ref(args)):
            wrong.append(kernel)
    assert wrong, "no kernel kept a value in a clobbered register: the check proves nothing"
    # the allocation checker's rule 8 says the same without running anything
    problems = check_module(m)
    assert any("which may overwrite" in p for p in problems), problems


def test_checker_accepts_the_abi_allocation() -> None:
    assert check_module(abi_example_module("sm_80", "ori-ptxas")) == []
    assert check_module(abi_example_module("sm_80", "ori-ptxas{max-regs=24}")) == []
