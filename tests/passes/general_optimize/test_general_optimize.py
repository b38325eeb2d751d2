"""``ori-general-optimize`` (phase 13) and ``ori-dead-code`` (phase 16).

* Generated programs: the two passes (alone, together, and with every
  sub-step but one switched off) leave results identical in the interpreter.
* Every PTX example (sm_80 and sm_90, launches of ``examples/cuda/launches.py``):
  the optimised module gives byte-identical results to the imported one and
  still matches numpy; the full pipeline up to ``ori-regalloc`` passes the
  allocation checker and gives the same results in physical-register mode
  (sm_80 by default, sm_90 too under ``-m fuzz``).
* The shape of the output: saxpy reads its parameters from the constant bank
  in ISETP/IMAD.WIDE/FFMA, as ptxas does.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ori_dialect.interpreter import run_kernel
from ori_dialect.ir.attrs import CBankAttr
from ori_dialect.ops.integer import IMadOp, MovOp, PackOp, UnpackOp
from ori_dialect.ops.memory import LdcOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, assert_pass_preserves
from ori_dialect.testing.generator import generate
from passes.dead_code import DeadCodePass, has_effect
from passes.general_optimize import GeneralOptimizePass
from passes.regalloc.checker import check_module
from tests.ptx.test_import_examples import LAUNCHES

ROOT = Path(__file__).resolve().parents[3]
PTX_DIR = ROOT / "examples" / "ptx"

BOTH = "ori-general-optimize,ori-dead-code"
FULL = "ori-general-optimize,ori-dead-code,ori-loop-simplify,ori-loop-unroll,ori-regalloc"
SUBSTEPS = ("copy-prop", "const-prop", "pack-unpack", "fold", "wide-add", "lea", "commute")


def _launch_id(launch: Any) -> str:
    return f"{Path(launch.file).stem}.{launch.kernel}"


@functools.cache
def _imported(rel: str) -> ModuleOp:
    path = PTX_DIR / rel
    return import_ptx(path.read_text(), str(path.relative_to(ROOT)))


def _run(module: ModuleOp, launch: Any, args: list[Any], *, physical: bool = False) -> list[Any]:
    return run_kernel(
        module, launch.kernel, launch.grid, launch.block, [copy.deepcopy(a) for a in args],
        shared_bytes=launch.shared_bytes, strict=not physical, physical=physical,
    )


def _same(a: list[Any], b: list[Any], what: str) -> None:
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        assert np.asarray(x).tobytes() == np.asarray(y).tobytes(), f"{what}: argument {i} differs"


def _check_numpy(launch: Any, got: list[Any], want: list[Any]) -> None:
    checked = 0
    for g, w in zip(got, want, strict=True):
        if w is not None:
            launch.check(g, w)
            checked += 1
    assert checked


# ---- generated programs ------------------------------------------------------


def _gen_check(seed: int, spec: str) -> None:
    prog = generate(seed)
    assert_pass_preserves(prog.module, spec, prog.kernel, prog.input_factory, n=2, seed=seed)


@pytest.mark.parametrize("seed", range(24))
def test_generated_both(seed: int) -> None:
    _gen_check(seed, BOTH)


@pytest.mark.parametrize("off", SUBSTEPS)
def test_generated_substep_off(off: str) -> None:
    for seed in range(200, 203):
        _gen_check(seed, f"ori-general-optimize{{{off}=false}},ori-dead-code")


@pytest.mark.fuzz
def test_generated_fuzz_300() -> None:
    for seed in range(3000, 3300):
        _gen_check(seed, BOTH)


# ---- PTX examples -------------------------------------------------------------


@pytest.mark.parametrize("arch", ("sm_80", "sm_90"))
@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_examples_equivalent(launch: Any, arch: str) -> None:
    rel = f"{arch}/{Path(launch.file).stem}.ptx"
    before = _imported(rel)
    after = before.clone()
    apply_pipeline(after, BOTH)
    after.verify()
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected([copy.deepcopy(a) for a in args])
    ref = _run(before, launch, args)
    got = _run(after, launch, args)
    _same(ref, got, f"{launch.kernel} ({arch})")
    _check_numpy(launch, got, want)


# sm_90 runs under -m fuzz only: the allocation of both targets doubles the time
# of this file, and the sm_80 run already covers every kernel.
@pytest.mark.parametrize("arch", ("sm_80", pytest.param("sm_90", marks=pytest.mark.fuzz)))
@pytest.mark.parametrize("launch", LAUNCHES, ids=_launch_id)
def test_examples_full_pipeline_physical(launch: Any, arch: str) -> None:
    rel = f"{arch}/{Path(launch.file).stem}.ptx"
    before = _imported(rel)
    after = before.clone()
    apply_pipeline(after, FULL)
    after.verify()
    problems = check_module(after)
    assert not problems, "\n".join(problems)
    args = launch.make_args(np.random.default_rng(launch.seed))
    want = launch.expected([copy.deepcopy(a) for a in args])
    ref = _run(before, launch, args)
    got = _run(after, launch, args, physical=True)
    _same(ref, got, f"{launch.kernel} ({arch}, allocated)")
    _check_numpy(launch, got, want)


# ---- shape --------------------------------------------------------------------


def test_saxpy_reads_parameters_from_the_constant_bank() -> None:
    m = _imported("sm_80/saxpy.ptx").clone()
    apply_pipeline(m, BOTH)
    ops = list(m.walk())
    assert not any(isinstance(o, LdcOp | PackOp | UnpackOp) for o in ops)
    wides = [o for o in ops if isinstance(o, IMadOp) and o.mod("mode") == "wide"]
    assert sorted(o.src("c").offset.data for o in wides) == [0x168, 0x170]  # type: ignore[union-attr]
    assert all(isinstance(o.src("b"), type(wides[0].src("b"))) for o in wides)
    cbanks = [o for o in ops if any(isinstance(v, CBankAttr) for _, v in getattr(o, "slot_values", list)())]
    assert {o.name for o in cbanks} == {"ori.imad", "ori.isetp", "ori.ffma"}


def test_substeps_switch_off() -> None:
    """Each sub-step off leaves its pattern in place (the switches work)."""
    base = _imported("sm_80/saxpy.ptx")
    m = base.clone()
    apply_pipeline(m, "ori-general-optimize{wide-add=false},ori-dead-code")
    assert any(isinstance(o, PackOp) for o in m.walk())
    m = base.clone()
    apply_pipeline(m, "ori-general-optimize{const-prop=false},ori-dead-code")
    assert any(isinstance(o, LdcOp) for o in m.walk())
    m = base.clone()
    apply_pipeline(m, "ori-general-optimize{pack-unpack=false wide-add=false},ori-dead-code")
    assert any(isinstance(o, UnpackOp) for o in m.walk())
    # wide-add alone also takes a 64-bit register addend (the LDC.64 pair stays).
    m = base.clone()
    apply_pipeline(m, "ori-general-optimize{pack-unpack=false},ori-dead-code")
    assert not any(isinstance(o, UnpackOp) for o in m.walk())
    assert sum(isinstance(o, LdcOp) and o.mod("width") == "b64" for o in m.walk()) == 2


def test_dead_code_keeps_effects() -> None:
    """Stores, calls, barriers, branches and pragmas never count as dead."""
    prog = generate(5)
    m = prog.module.clone()
    kinds_before = {type(o) for o in m.walk() if has_effect(o)}
    DeadCodePass().apply(None, m)  # type: ignore[arg-type]
    kinds_after = {type(o) for o in m.walk() if has_effect(o)}
    assert kinds_before == kinds_after
    for o in m.walk():
        if o.results and not has_effect(o):
            assert any(r.uses for r in o.results), o


def test_bad_option() -> None:
    from xdsl.utils.exceptions import PassFailedException

    with pytest.raises(PassFailedException, match="max-iterations"):
        GeneralOptimizePass(max_iterations=0).apply(None, _imported("sm_80/saxpy.ptx").clone())  # type: ignore[arg-type]


def test_mov_immediates_fold_into_uses() -> None:
    """A MOV of an immediate reaches the slot that takes it; the MOV dies."""
    m = _imported("sm_80/saxpy.ptx").clone()
    apply_pipeline(m, BOTH)
    movs = [o for o in m.walk() if isinstance(o, MovOp)]
    # Only the 4 that IMAD.WIDE cannot take next to a constant-bank addend.
    assert [o.src_int("a") for o in movs] == [4, 4]


@pytest.mark.parametrize("rel", sorted(p.name for p in (PTX_DIR / "sm_80").glob("*.ptx")))
def test_examples_reach_a_fixed_point(rel: str) -> None:
    """One run of both passes leaves nothing for a second run to change."""
    from ori_dialect.testing.equivalence import module_text

    m = _imported(f"sm_80/{rel}").clone()
    apply_pipeline(m, BOTH)
    once = module_text(m)
    apply_pipeline(m, BOTH)
    assert module_text(m) == once
