"""Unit tests of ``ori-remat-block``'s parts: max live against the
register-pressure analysis, the depth-50 bound of recursive pullability,
undoing a round, the opcode exclusions read from the op facts, the option
checks and the target."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.liveness import Liveness
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.analysis.pressure import RegisterPressure
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from ori_dialect.testing.equivalence import apply_pipeline, make_context, module_text
from ori_dialect.testing.generator import GenOptions, generate
from passes.registry import all_passes
from passes.remat_block import RematBlockPass, parse_function_list
from passes.remat_block.candidates import def_check
from passes.remat_block.context import RoundContext
from passes.remat_block.cost import select
from passes.remat_block.execute import execute
from passes.remat_block.knobs import Knobs
from passes.remat_block.maxlive import compute_max_live
from passes.remat_block.search import find


def _funcs(module: ModuleOp) -> list[FuncOp]:
    return [f for f in functions_of(module) if isinstance(f, FuncOp)]


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_max_live_is_the_pressure_analysis(seed: int) -> None:
    """Per block, the seed's max-live walk counts what RegisterPressure counts
    for R, and the live set at the peak adds up to the maximum."""
    opts = GenOptions(remat_pressure=16) if seed % 2 else None
    for f in _funcs(generate(seed, options=opts).module):
        lv = Liveness(CFG.compute(f))
        ml = compute_max_live(lv)
        rp = RegisterPressure(lv)
        assert ml.block_max == [bm[RegFile.R] for bm in rp.block_max]
        assert ml.max == rp.max[RegFile.R]
        width = lv.numbering.width
        for b in range(lv.cfg.num_blocks):
            pk = ml.peak(b)
            assert sum(int(width[v]) for v in pk.live) == ml.block_max[b], (seed, b, str(pk))


def _chain_kernel(length: int) -> ModuleOp:
    """%c<length> is a chain of IADD3s from a constant, read after a block
    with three loads live (max live 6 there)."""
    body = ["    %c0 = ori.mov 0x1 : () -> !ori.r32"]
    body += [f"    %c{i} = ori.iadd3 %c{i - 1}, 0x{i:x}, RZ : (!ori.r32) -> !ori.r32"
             for i in range(1, length + 1)]
    text = f"""builtin.module attributes {{ori.target = "sm_80"}} {{
  ori.func kernel @deep() attributes {{params = [#ori.param<8, align 8, at 0x0>]}} {{
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
{chr(10).join(body)}
    ori.bra ^bb1
  ^bb1:
    %v1 = ori.ldg [%a] : (!ori.r64) -> !ori.r32
    %v2 = ori.ldg [%a + 0x4] : (!ori.r64) -> !ori.r32
    %v3 = ori.ldg [%a + 0x8] : (!ori.r64) -> !ori.r32
    %s = ori.iadd3 %v1, %v2, %v3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %t = ori.iadd3 %s, %c{length}, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %t : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}
"""
    return Parser(make_context(), text, "deep").parse_module()


def _dump(module: ModuleOp, spec: str) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(module, spec)
    return err.getvalue()


GENEROUS = ("nv-remat-default-max-reg=5 nv-remat-block-map-size-limit=100 "
            "nv-remat-block-single-cost=100 nv-remat-block-max-cost=1000 dump-remat=3 remarks=true")


def test_recursion_stops_at_depth_50() -> None:
    """seed 002: operands are checked "recursively up to depth 50": the
    candidate's definition is depth 1, so a chain of 50 instructions (49
    operand levels below it) is pulled and one of 51 is not."""
    ok = _chain_kernel(49)
    out = _dump(ok, f"ori-remat-block{{{GENEROUS}}}")
    assert "rematerialized %c49 (IADD3, 1 register): pulled into ^bb1 (50 instructions" in out
    deep = _chain_kernel(50)
    out = _dump(deep, f"ori-remat-block{{{GENEROUS}}}")
    assert "%c50: not pullable: operand chain deeper than 50" in out
    assert "rematerialized" not in out


def test_a_round_is_undone_exactly() -> None:
    """Journal.rollback restores the function as it was, text for text."""
    for seed in range(4):
        m = generate(seed, options=GenOptions(remat_pressure=24, pressure=8)).module
        knobs = Knobs(mode=15)
        for f in _funcs(m):
            text = module_text(m)
            cfg = CFG.compute(f)
            lv = Liveness(cfg)
            ml = compute_max_live(lv)
            ctx = RoundContext(f, cfg, lv, LoopInfo(cfg, DominatorTree(cfg)), knobs)
            found = find(ctx, ml, 8)
            sel = select(found.good, ml.excess(8))
            if not sel:
                continue
            journal = execute(sel)
            assert module_text(m) != text
            journal.rollback()
            assert module_text(m) == text
            m.verify()


def test_blocks_and_edges_stay() -> None:
    """PRESERVES CFG_ANALYSES: only instructions change."""
    for seed in range(6):
        m = generate(seed, options=GenOptions(remat_pressure=32)).module
        shape = [[len(list(b.ops)) > 0 for b in f.body.blocks] for f in _funcs(m)]
        succ = [CFG.compute(f).succs for f in _funcs(m)]
        with contextlib.redirect_stderr(io.StringIO()):
            apply_pipeline(m, "ori-remat-block{nv-remat-default-max-reg=8 nv-remat-block=15}")
        assert [[len(list(b.ops)) > 0 for b in f.body.blocks] for f in _funcs(m)] == shape
        assert [CFG.compute(f).succs for f in _funcs(m)] == succ


def test_registered() -> None:
    assert all_passes()["ori-remat-block"]() is RematBlockPass


@pytest.mark.parametrize(("opts", "msg"), [
    ({"nv_remat_block": -1}, "nv-remat-block must be a bitmask in 0..15, got -1"),
    ({"nv_remat_block_single_cost": -5}, "nv-remat-block-single-cost must be at least 0"),
    ({"nv_remat_block_loop_cost_factor": 0}, "nv-remat-block-loop-cost-factor must be at least 1"),
    ({"nv_remat_default_max_reg": 0}, "nv-remat-default-max-reg must be at least 1"),
    ({"nv_remat_block_load_cost": -1}, "nv-remat-block-load-cost must be at least 0"),
    ({"nv_remat_block_max_cost": -1}, "nv-remat-block-max-cost must be at least 0"),
    ({"no_mi_remat": "a b"}, "malformed no-mi-remat 'a b'"),
])
def test_bad_options_are_one_diagnostic(opts: dict[str, object], msg: str) -> None:
    with pytest.raises(PassFailedException, match="ori-remat-block: ") as e:
        RematBlockPass(**opts).apply(make_context(), ModuleOp([]))  # type: ignore[arg-type]
    assert msg in str(e.value)


def test_function_list() -> None:
    assert parse_function_list("") == []
    assert parse_function_list(" f , _Z3gPi ") == ["f", "_Z3gPi"]
    for bad in ("f,", ",f", "f g", "1f"):
        with pytest.raises(ValueError, match="malformed no-mi-remat"):
            parse_function_list(bad)


def test_dump_level_four_is_nv_dump_remat_block() -> None:
    assert RematBlockPass(nv_dump_remat_block=True).knobs().dump == 4
    assert RematBlockPass(dump_remat=9).knobs().dump == 4
    assert RematBlockPass().knobs() == Knobs()


def test_target_follows_the_register_limit() -> None:
    m = generate(1).module
    k = next(f for f in _funcs(m) if f.is_kernel)
    assert RematBlockPass(remat_for_occ=0).target_of(k) == 70
    assert RematBlockPass(remat_for_occ=0, nv_remat_default_max_reg=40).target_of(k) == 40
    # sm_70+: the limit less R1 and the two registers ptxas withholds
    assert RematBlockPass(max_regs=32).target_of(k) == 29


def test_opcode_exclusions_come_from_the_op_facts() -> None:
    """Textures (a global-memory read), barriers (BAR.RED), warp collectives
    (REDUX) and ld.global are refused, each for the fact its class declares;
    an ALU op and a constant-bank load are accepted."""
    text = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @facts() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %h = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %p = ori.isetp lt.u32 %x, 0x10, PT : (!ori.r32) -> !ori.p
    %t = ori.tld dim1 %h, %x : (!ori.r64, !ori.r32) -> !ori.r128
    %b = ori.bar_red popc 0x0, %p : (!ori.p) -> !ori.r32
    %r = ori.redux xor %x, -0x1 : (!ori.r32) -> !ori.r32
    %g = ori.ldg [%h] : (!ori.r64) -> !ori.r32
    %k = ori.lop3 %x, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.exit
  }
}
"""
    m = Parser(make_context(), text, "facts").parse_module()
    knobs = Knobs()
    vals = {r.name_hint: r for op in next(iter(_funcs(m))).walk() for r in op.results}
    assert def_check(vals["t"], knobs) == "TLD loads from memory a store may change"
    assert def_check(vals["b"], knobs) == "BAR.RED has side effects"
    assert def_check(vals["r"], knobs) == "REDUX has side effects"
    assert def_check(vals["g"], knobs) == "LDG.E loads from memory a store may change"
    assert def_check(vals["x"], knobs) == "S2R is not rematerializable"
    assert def_check(vals["k"], knobs) is None
    assert def_check(vals["h"], knobs) is None
    assert def_check(vals["h"], Knobs(load_remat=False)) == "LDC is a load (load-remat=false)"


def test_predicate_homes_count_the_predicates_beyond_the_p_file() -> None:
    """The occupancy target adds one GPR home per seven predicates beyond
    P0-P6 (pred_pack.py): 7 live -> 0, 8 -> 1, 14 -> 1, 15 -> 2."""
    from passes.remat_block.maxlive import predicate_homes
    from targets import get_target

    for n, want in ((7, 0), (8, 1), (14, 1), (15, 2)):
        preds = "".join(f"    %q{i} = ori.isetp gt.u32 %t, 0x{i + 1:x}, PT : (!ori.r32) -> !ori.p\n"
                        for i in range(n))
        uses = "".join(f"    %f{i} = ori.sel RZ, 0x1, %q{i} : (!ori.p) -> !ori.r32\n"
                       for i in range(n))
        m = Parser(make_context(), f"""builtin.module attributes {{ori.target = "sm_80"}} {{
  ori.func kernel @k() attributes {{params = [#ori.param<8, align 8, at 0x0>]}} {{
    %t = ori.s2r SR_TID.X : () -> !ori.r32
{preds}{uses}    ori.exit
  }}
}}""").parse_module()
        k = next(f for f in _funcs(m) if f.is_kernel)
        assert predicate_homes(Liveness(CFG.compute(k)), get_target("sm_80")) == want, n


def test_run_reports_kernels_stopped_short() -> None:
    """``run`` hands ``ori-ptxas``'s occupancy retune the kernels that
    stopped short of their target (``aimed`` false: the seed's target, not
    an occupancy goal), not those that reached it."""
    short = _chain_kernel(10)
    with contextlib.redirect_stderr(io.StringIO()):
        got = RematBlockPass(nv_remat_default_max_reg=5).run(short)
    rep = got["deep"]
    assert (rep.target, rep.aimed) == (5, False)
    assert rep.after > rep.target
    reached = _chain_kernel(10)
    with contextlib.redirect_stderr(io.StringIO()):
        got = RematBlockPass(nv_remat_default_max_reg=5, nv_remat_block_map_size_limit=100,
                             nv_remat_block_single_cost=100,
                             nv_remat_block_max_cost=1000).run(reached)
    assert got == {}
    with contextlib.redirect_stderr(io.StringIO()):
        got = RematBlockPass(nv_remat_default_max_reg=5, remat_for_occ=0).run(_chain_kernel(10))
    assert got == {}


def test_run_reports_occupancy_goals_given_up() -> None:
    """A kernel whose copies for occupancy were undone (the goal not
    reached) is handed on with the goal it gave up: occupancy.mlir's @occ
    aims at 37, stops at 38 (%u over the single cost) and is undone."""
    path = Path(__file__).resolve().parents[2] / "filecheck/passes/remat_block/occupancy.mlir"
    m = Parser(make_context(), path.read_text(), str(path)).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        got = RematBlockPass().run(m)
    rep = got["occ"]
    assert (rep.missed, rep.goal, rep.target, rep.after, rep.aimed) == (37, 37, 70, 39, False)
    # @calls calls a device function: its warps do not follow its max live
    assert "calls" not in got
