"""One colouring trial (``passes/regalloc/trial.py``): coalescing per
register file, the choice between the coalesced and the uncoalesced R
colouring, and the predicate recomputation of ``remat.py`` on Triton's
matmul loops."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from ori_dialect.asm_printer import format_module
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.ptx.lower import import_ptx
from ori_dialect.testing.equivalence import apply_pipeline, make_context
from ori_dialect.testing.generator import generate
from passes.regalloc import driver
from passes.regalloc.classes import value_costs
from passes.regalloc.coalesce import build_units
from passes.regalloc.copies import split_ties
from passes.regalloc.points import LiveMatrix
from passes.regalloc.trial import colour

ROOT = Path(__file__).resolve().parents[3]
TRITON = ROOT / "examples" / "triton" / "ptx" / "sm_80"


def _partition(units: list[Any], unit_of: Any, lm: LiveMatrix, f: RegFile) -> set[frozenset[int]]:
    vals = [i for i, v in enumerate(lm.numbering.values)
            if type(v.type).REG_FILE is f]  # type: ignore[attr-defined]
    groups: dict[int, set[int]] = {}
    for i in vals:
        groups.setdefault(int(unit_of[i]), set()).add(i)
    return {frozenset(g) for g in groups.values()}


_CARRIED_PREDICATE = """
builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    %c = ori.isetp gt.u32 %t, 0x10, PT : (!ori.r32) -> !ori.p
    ori.bra ^bb1(%z : !ori.r32, %c : !ori.p)
  ^bb1(%i : !ori.r32, %q : !ori.p):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %q2 = ori.plop3 %q, PT, PT, 0x0f : (!ori.p) -> !ori.p
    %more = ori.isetp lt.u32 %i2, 0x8, PT : (!ori.r32) -> !ori.p
    ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32, %q2 : !ori.p), ^bb2
  ^bb2:
    %s = ori.sel RZ, 0x1, %q2 : (!ori.p) -> !ori.r32
    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %ad = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64
    ori.stg [%ad], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
"""


def _funcs() -> list[FuncOp]:
    from xdsl.parser import Parser

    out = [f for seed in range(40) for f in generate(seed).module.walk() if isinstance(f, FuncOp)]
    m = Parser(make_context(), _CARRIED_PREDICATE).parse_module()
    return out + [f for f in m.walk() if isinstance(f, FuncOp)]


def test_merging_is_per_file() -> None:
    """Merging the R file only: the R units are those of full coalescing,
    every other file's those of none; some function tells them apart in
    the R and the P file."""
    differs: set[RegFile] = set()
    for func in _funcs():
        split_ties(func)
        lm = LiveMatrix(func)
        cost, spillable = value_costs(lm, 15.0, 10.0)
        both = build_units(lm, cost, spillable, 10.0, True)
        none = build_units(lm, cost, spillable, 10.0, False)
        r_only = build_units(lm, cost, spillable, 10.0, frozenset({RegFile.R}))
        for f in RegFile:
            full, off = _partition(*both, lm, f), _partition(*none, lm, f)
            got = _partition(*r_only, lm, f)
            assert got == (full if f is RegFile.R else off), (func.sym_name.data, f)
            if full != off:
                differs.add(f)
    assert {RegFile.R, RegFile.P} <= differs


def _loop_with_ten_predicates() -> str:
    lines = ['builtin.module attributes {ori.target = "sm_80"} {',
             '  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {',
             '    %t = ori.s2r SR_TID.X : () -> !ori.r32']
    for i in range(10):
        lines.append(f'    %u{i} = ori.iadd3 %t, {hex(i)}, RZ : (!ori.r32) -> !ori.r32')
        lines.append(f'    %p{i} = ori.isetp gt.u32 %u{i}, 0x10, PT : (!ori.r32) -> !ori.p')
    lines += ['    %z = ori.mov 0x0 : () -> !ori.r32',
              '    ori.bra ^bb1(%z : !ori.r32)',
              '  ^bb1(%i : !ori.r32):',
              '    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32',
              '    %more = ori.isetp lt.u32 %i2, 0x8, PT : (!ori.r32) -> !ori.p',
              '    ori.bra if %more : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2',
              '  ^bb2:']
    prev = "%i2"
    for i in range(10):
        lines.append(f'    %s{i} = ori.sel RZ, {hex(1 << i)}, %p{i} : (!ori.p) -> !ori.r32')
        lines.append(f'    %a{i} = ori.iadd3 {prev}, %s{i}, RZ : (!ori.r32, !ori.r32) -> !ori.r32')
        prev = f"%a{i}"
    lines += ['    %base = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64',
              '    %ad = ori.imad wide.u32 %t, 0x4, %base : (!ori.r32, !ori.r64) -> !ori.r64',
              f'    ori.stg [%ad], {prev} : (!ori.r64, !ori.r32) -> ()',
              '    ori.exit', '  }', '}']
    return "\n".join(lines) + "\n"


def test_a_failing_file_stops_only_its_own_coalescing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten predicates overflow P0-P6 in the first trial: the retries and the
    spill rounds leave the P file uncoalesced and go on coalescing R."""
    from xdsl.parser import Parser

    seen: list[frozenset[RegFile]] = []

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(args[6])
        return colour(*args, **kw)

    monkeypatch.setattr(driver, "colour", spy)
    ctx = make_context()
    m = Parser(ctx, _loop_with_ten_predicates()).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-regalloc{remat-enable=false}", ctx)
    assert seen[0] == frozenset(RegFile)
    assert len(seen) > 2  # the predicates were spilled
    assert all(RegFile.P not in s and RegFile.R in s for s in seen[1:])


def _compile(name: str) -> tuple[FuncOp, str]:
    m = import_ptx((TRITON / f"{name}.ptx").read_text())
    with contextlib.redirect_stderr(io.StringIO()):
        apply_pipeline(m, "ori-ptxas", make_context())
    func = next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)
    return func, format_module(m)


def test_triton_matmul_masks_are_recomputed_not_spilled() -> None:
    """matmul_i8 (sm_80) keeps its eight row masks live across the K loop
    while the rows stay live for the epilogue: in the loop each is
    recomputed, ANDed with the K mask, where a load reads it (``ISETP.LT.AND
    Pn, PT, Rrow, c[0x0][0x178], Pk``, as ptxas does), not reloaded from a
    P2R home and ANDed by a PLOP3; and the loop carries its accumulators
    and counters with no MOV."""
    import re

    _, asm = _compile("matmul_i8")
    loop = asm[asm.index(".L_x_2:"):asm.index(".L_x_3:")]
    assert "BRA .L_x_2" in loop
    assert "PLOP3" not in loop
    fused = re.findall(r"ISETP\.LT\.AND P\d, PT, R\d+, c\[0x0\]\[0x178\], P\d ;", loop)
    assert len(fused) == 8
    # the zero that the guarded loads start from is the loop's only MOV source
    srcs = {ln.split()[2].rstrip(";") for ln in loop.splitlines() if ln.split()[:1] == ["MOV"]}
    zero = {ln.split()[1].rstrip(",") for ln in loop.splitlines()
            if ln.split()[:1] == ["MOV"] and ln.split()[2] == "0x0"}
    assert srcs <= {"0x0"} | zero


def test_triton_matmul_tf32_has_ptxas_register_count() -> None:
    """Coalescing that costs an occupancy step is given up (trial.py,
    refine.py): matmul_tf32 (sm_80) colours in ptxas's 64 registers."""
    func, _ = _compile("matmul_tf32")
    assert func.attributes["ori.num_regs"].value.data <= 64  # type: ignore[union-attr]


def _loop(asm: str) -> list[str]:
    """The instruction lines of the K loop (``.L_x_2`` to its back branch),
    without the in-place pseudo-op comments."""
    body = asm[asm.index(".L_x_2:"):asm.index(".L_x_3:")]
    return [ln.strip() for ln in body.splitlines()[1:] if ln.strip() and not ln.strip().startswith("//")]


def test_triton_attention_loop_scales_accumulators_in_place() -> None:
    """attention_fwd (sm_80): the accumulators scaled word by word before the
    second pair of HMMAs stay in their registers and the LDSM quads' B pairs
    are read in place where one order of refine's polish meets those hints:
    no PACK or UNPACK in the K loop but one moves (the B pair of the first
    HMMAs, whose D takes the quad: ptxas gives D fresh registers), and an
    HMMA adds in place (C and D the same quad), as in ptxas's listing.  The
    column masks are compared at their SELs (sink_defs): no more than three
    P2R homes."""
    import re

    _, asm = _compile("attention_fwd")
    loop = _loop(asm)
    assert len([ln for ln in loop if ln.split()[0] in ("PACK", "UNPACK")]) <= 1
    in_place = [ln for ln in loop if (m := re.match(r"HMMA\.\S+ (R\d+), R\d+, R\d+, (R\d+) ;", ln))
                and m.group(1) == m.group(2)]
    assert in_place
    assert sum(ln.startswith("P2R") for ln in loop) <= 3


def test_triton_matmul_loops_keep_mma_operands_in_place() -> None:
    """matmul (sm_80): the LDSM quad's two B pairs are the quad's own
    registers; matmul_f16out (sm_80): the epilogue's UNPACKs of the
    accumulators are outside the K loop (ori-hoist-invariants'
    sink-to-exits), so the loop moves no accumulator word."""
    for name in ("matmul", "matmul_f16out"):
        _, asm = _compile(name)
        loop = _loop(asm)
        assert not [ln for ln in loop if ln.split()[0] in ("PACK", "UNPACK")], name
        assert any(ln.startswith("HMMA") for ln in loop), name
