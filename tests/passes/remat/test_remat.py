"""``ori-remat`` pieces on their own: option checks and the exclusion list,
the register target, the op facts the pass asks, the IV overflow proof at
the edge of the 32-bit range, and the contract."""

from __future__ import annotations

import contextlib
import io

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from ori_dialect.analysis.cfg import CFG
from ori_dialect.analysis.dominators import DominatorTree
from ori_dialect.analysis.loops import LoopInfo
from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ops import ALL_OPS
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IAdd3Op, IMadOp, LeaHiSx32Op, LeaOp
from ori_dialect.testing.equivalence import apply_pipeline, make_context, module_text
from passes.contract import Requirement
from passes.remat import RematPass
from passes.remat.iv import NotDemoted, recognise_iv, value_range
from passes.remat.knobs import RematKnobs, parse_no_remat, validate
from passes.remat.target import register_target

HEAD = 'builtin.module attributes {ori.target = "sm_80"} {\n'
PARAMS = "params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]"


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text, "test").parse_module()


def run(module: ModuleOp, spec: str) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        apply_pipeline(module, spec)
    return err.getvalue()


LOOP = HEAD + f"""  ori.func kernel @k() attributes {{{PARAMS}}} {{
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %n = ori.mov c[0x0][0x168] : () -> !ori.r32
    %x = ori.s2r SR_TID.X : () -> !ori.r32
    %k = ori.iadd3 %x, 0x10, RZ : (!ori.r32) -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    %r = ori.iadd3 %i2, %k, %x : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%a], %r : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}
"""


# ---- options ---------------------------------------------------------------


@pytest.mark.parametrize(("opt", "msg"), [
    ("do-remat=4", "do-remat must be 0 (off), 1 (conservative), 2 (normal) or 3 (full), got 4"),
    ("remat-load=2", "remat-load must be 0 (off) or 1 (on), got 2"),
    ("remat-lli-factor=0", "remat-lli-factor must be >= 1, got 0"),
    ("remat-for-occ=-1", "remat-for-occ must be 0 (off) or a percentage 1..1000, got -1"),
    ("simplify-live-out=-2", "simplify-live-out must be >= 0"),
    ("remat-max-live-limit=0", "remat-max-live-limit must be >= 1, got 0"),
    ('no-remat="1k"', "malformed no-remat '1k'"),
])
def test_bad_options_are_one_diagnostic(opt: str, msg: str) -> None:
    with pytest.raises(PassFailedException, match=r"^ori-remat: " + msg.replace("(", r"\(")
                       .replace(")", r"\)").replace(".", r"\.")):
        run(parse(LOOP), f"ori-remat{{{opt}}}")


def test_defaults_are_the_seeds() -> None:
    p = RematPass()
    assert (p.do_remat, p.remat_iv, p.remat_load, p.remat_single_cost_limit, p.remat_loop_trip,
            p.remat_gep_cost, p.remat_use_limit, p.remat_max_live_limit,
            p.remat_maxreg_ceiling, p.remat_for_occ, p.remat_lli_factor,
            p.remat_ignore_single_cost, p.remat_move, p.simplify_live_out, p.dump_remat) == (
        3, 4, 1, 6000, 20, 6000, 10, 10, 0, 120, 10, False, False, 2, 0)
    assert validate(RematKnobs()) is None
    assert RematPass.REQUIRES == frozenset({Requirement.SSA, Requirement.UNALLOCATED})


def test_no_remat_list() -> None:
    assert parse_no_remat("") == []
    assert parse_no_remat(" a, @b ,c.d ") == ["a", "b", "c.d"]
    assert isinstance(parse_no_remat("a,,b"), str)
    assert isinstance(parse_no_remat("a b"), str)


def test_excluded_function_and_unknown_name() -> None:
    m = parse(LOOP)
    before = module_text(m)
    err = run(m, 'ori-remat{no-remat="k,@ghost" remat-maxreg-ceiling=2}')
    assert module_text(m) == before
    assert err.splitlines() == [
        "ori-remat: warning: no-remat names @ghost, which is not a function of this module",
        "ori-remat: Skip rematerialization on @k",
    ]
    m2 = parse(LOOP)
    run(m2, "ori-remat{remat-maxreg-ceiling=2}")
    assert "%remat_k = ori.iadd3 %x, 0x10, RZ" in module_text(m2)


def test_nothing_to_do_keeps_the_text() -> None:
    m = parse(LOOP)
    before = module_text(m)
    assert run(m, "ori-remat") == ""
    assert module_text(m) == before


# ---- the register target ---------------------------------------------------


def _func(module: ModuleOp) -> FuncOp:
    f = functions_of(module)[0]
    assert isinstance(f, FuncOp)
    return f


def test_register_target() -> None:
    f = _func(parse(LOOP))
    # sm_80 at 47 registers: 40 warps; 120% -> 48 warps -> 40 registers
    t = register_target(f, 47, for_occ=120, ceiling=0)
    assert (t.target, t.how) == (40, "occupancy 40->48 warps")
    assert register_target(f, 47, for_occ=0, ceiling=0).target == 37
    assert register_target(f, 47, for_occ=0, ceiling=30).how == "ceiling 30"
    # the ceiling only applies below the current count
    assert register_target(f, 20, for_occ=0, ceiling=30).target == 16
    # already at the SM's maximum occupancy: keep the count
    assert register_target(f, 10, for_occ=120, ceiling=0).target == 10


# ---- op facts ----------------------------------------------------------------


def test_op_facts() -> None:
    m = parse(HEAD + f"""  ori.func kernel @f() attributes {{{PARAMS}}} {{
    %a = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %c = ori.ldg constant [%a + 0x10] : (!ori.r64) -> !ori.r32
    %g = ori.ldg [%a + 0x10] : (!ori.r64) -> !ori.r32
    %o = ori.ldg constant.acquire.gpu [%a + 0x10] : (!ori.r64) -> !ori.r32
    %m = ori.mov %g : (!ori.r32) -> !ori.r32
    %i = ori.mov 0x5 : () -> !ori.r32
    ori.stg [%a], %c : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}
""")
    ops = {o.results[0].name_hint: o for o in _func(m).walk()
           if isinstance(o, OriInstruction) and o.results}
    assert ops["a"].is_read_only_load() and ops["c"].is_read_only_load()
    assert not ops["g"].is_read_only_load() and not ops["o"].is_read_only_load()
    assert ops["m"].is_register_copy() and not ops["i"].is_register_copy()
    assert {c for c in ALL_OPS if getattr(c, "ADDITIVE", False)} == {IAdd3Op, IMadOp, LeaOp,
                                                                      LeaHiSx32Op}
    for c in ALL_OPS:
        if getattr(c, "ADDITIVE", False):
            assert c.REMATERIALIZABLE and c.is_speculatable()


# ---- the IV overflow proof --------------------------------------------------


def _iv_kernel(init_lo: int, step: int, bound: int, cmp: str = "lt") -> ModuleOp:
    return parse(HEAD + f"""  ori.func kernel @iv() attributes {{{PARAMS}}} {{
    %out = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %init = ori.pack 0x{init_lo:x}, RZ : () -> !ori.r64
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%init : !ori.r64, %z : !ori.r32)
  ^bb1(%i : !ori.r64, %s : !ori.r32):
    %lo, %hi = ori.unpack %i : (!ori.r64) -> (!ori.r32, !ori.r32)
    %s2 = ori.iadd3 %s, %lo, %hi : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %lo2, %c = ori.iadd3 %lo, 0x{step:x}, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %hi2 = ori.iadd3 x %hi, 0x0, RZ, %c : (!ori.r32, !ori.p) -> !ori.r32
    %next = ori.pack %lo2, %hi2 : (!ori.r32, !ori.r32) -> !ori.r64
    %q = ori.isetp {cmp}.u32 %lo2, 0x{bound & 0xFFFFFFFF:x}, PT : (!ori.r32) -> !ori.p
    %p = ori.isetp {cmp}.ex %hi2, 0x{bound >> 32:x}, PT, %q : (!ori.r32, !ori.p) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%next : !ori.r64, %s2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%out], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }}
}}
""")


def _range(m: ModuleOp) -> tuple[int, int]:
    f = _func(m)
    cfg = CFG.compute(f)
    lp = LoopInfo(cfg, DominatorTree(cfg)).loops[0]
    iv = recognise_iv(cfg.blocks[lp.header].args[0], lp, cfg)
    return value_range(iv)


def test_iv_range_at_the_edge_of_32_bits() -> None:
    # i < 0x7fffffff tested on i + 1: the last value is exactly 2^31 - 1
    assert _range(_iv_kernel(0x7FFFFF00, 1, 0x7FFFFFFF)) == (0x7FFFFF00, 0x7FFFFFFF)
    # one further and the proof fails
    with pytest.raises(NotDemoted, match="leaves the 32-bit range"):
        _range(_iv_kernel(0x7FFFFF00, 1, 0x80000000))
    # a step that jumps over the bound: the last value is the first >= bound
    assert _range(_iv_kernel(0, 7, 100)) == (0, 105)
    # 'le' keeps going one step further than 'lt'
    assert _range(_iv_kernel(0, 5, 100, "le")) == (0, 105)
    # a do-while loop runs once even if the first test fails
    assert _range(_iv_kernel(50, 1, 10)) == (50, 51)
    # 'ne' with a bound the step never reaches: no exit in range
    with pytest.raises(NotDemoted):
        _range(_iv_kernel(0, 3, 100, "ne"))


def test_iv_demotion_is_exact_at_the_edge() -> None:
    m = _iv_kernel(0x7FFFFF00, 1, 0x7FFFFFFF)
    err = run(m, "ori-remat{remarks=true}")
    assert "demoted 64-bit IV %i to 32 bits (values 2147483392..2147483647)" in err
    assert "%newBaseIV" in module_text(m)
