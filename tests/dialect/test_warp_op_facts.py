"""Op facts of the warp reductions and matches (REDUX, CREDUX, MATCH), the
grid-dependency ops (ACQBULK, PREEXIT), BPT.TRAP and the indexed branch BRX:
what the passes ask of them (docs/architecture.md "Op facts"), their xDSL
effect traits, that ori-dead-code keeps them, that every op has interpreter
semantics, and that the random program generator uses REDUX and MATCH
correctly (its programs survive every pipeline)."""

from __future__ import annotations

import pytest
from xdsl.dialects import test as xtest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.traits import IsTerminator, MemoryWriteEffect, Pure

from ori_dialect.interpreter.builtins import BUILDERS
from ori_dialect.ir.instruction import OriOp
from ori_dialect.ir.metadata import LatencyClass, MemEffect, Pipe
from ori_dialect.ir.registers import PredType, R32Type, R64Type, UR32Type
from ori_dialect.ops import ALL_OPS
from ori_dialect.ops.control import BrxOp
from ori_dialect.ops.special import BptOp
from ori_dialect.ops.sync import AcqBulkOp, CReduxOp, MatchOp, PreExitOp, ReduxOp
from ori_dialect.testing import GenOptions, generate
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent, make_context
from ori_dialect.testing.generator import FEATURES

COLLECTIVES = (ReduxOp, CReduxOp, MatchOp)
NEW = (*COLLECTIVES, AcqBulkOp, PreExitOp, BptOp, BrxOp)


def test_registered_with_their_sass_names() -> None:
    assert all(c in ALL_OPS for c in NEW)
    assert {c.SASS for c in NEW} == {"REDUX", "CREDUX", "MATCH", "ACQBULK", "PREEXIT", "BPT", "BRX"}


@pytest.mark.parametrize("cls", COLLECTIVES, ids=lambda c: c.name)
def test_warp_collectives(cls: type[OriOp]) -> None:
    assert cls.WARP_COLLECTIVE and cls.SIDE_EFFECTS
    assert not cls.is_side_effect_free() and not cls.is_speculatable()
    assert not cls.FOLDABLE and not cls.REMATERIALIZABLE
    assert cls.LATENCY is LatencyClass.STANDARD and cls.PIPE is Pipe.LSU
    assert cls.MEM is MemEffect.NONE and not cls.IS_BARRIER
    assert cls.get_trait(MemoryWriteEffect) is not None and cls.get_trait(Pure) is None
    assert cls in BUILDERS


@pytest.mark.parametrize("cls", (AcqBulkOp, BptOp), ids=lambda c: c.name)
def test_ordering_points_are_barriers(cls: type[OriOp]) -> None:
    assert cls.IS_BARRIER and cls.SIDE_EFFECTS and cls.MEM is MemEffect.READ_WRITE
    assert not cls.is_speculatable() and not cls.MAY_FAULT
    assert cls in BUILDERS


def test_preexit_is_kept_but_orders_no_memory() -> None:
    assert PreExitOp.SIDE_EFFECTS and not PreExitOp.IS_BARRIER
    assert PreExitOp.MEM is MemEffect.NONE and not PreExitOp.is_side_effect_free()


def test_brx_is_a_terminator_with_every_target_a_successor() -> None:
    assert BrxOp.get_trait(IsTerminator) is not None
    assert BrxOp.LATENCY is LatencyClass.SCOREBOARD and BrxOp.PIPE is Pipe.BRA
    assert BrxOp.INDIRECT_JUMP


def test_result_types() -> None:
    a, w = xtest.TestOp(result_types=[R32Type.unallocated(), R64Type.unallocated()]).results
    r = ReduxOp.make([a, 0xFFFF], [UR32Type.unallocated()], mods="sum")
    r.verify()
    assert r.results[0].type == UR32Type.unallocated()
    m = MatchOp.make([w, a], [R32Type.unallocated(), PredType.unallocated()], mods="all.u64")
    m.verify()
    assert m.mod("type") == "u64" and m.mod("mode") == "all"


MODULE = """
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @k() attributes {params = []} {
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %0 = ori.redux sum %t, -0x1 : (!ori.r32) -> !ori.r32
    %1 = ori.match any %t, -0x1 : (!ori.r32) -> !ori.r32
    ori.acqbulk : () -> ()
    ori.preexit : () -> ()
    ori.bpt trap 0x1 : () -> ()
    ori.exit
  }
}
"""


def test_dead_code_keeps_them_even_unused() -> None:
    ctx = make_context()
    m = Parser(ctx, MODULE).parse_module()
    assert isinstance(m, ModuleOp)
    apply_pipeline(m, "ori-dead-code", ctx)
    names = [op.name for op in m.walk()]
    for n in ("ori.redux", "ori.match", "ori.acqbulk", "ori.preexit", "ori.bpt"):
        assert n in names


def test_generator_uses_redux_and_match() -> None:
    assert "warp" in FEATURES
    total = 0
    for s in range(40):
        p = generate(s)
        n = sum(isinstance(o, ReduxOp | MatchOp) for o in p.module.walk())
        assert n == p.features["warp"]
        total += n
    assert total > 0
    off = GenOptions(warp=False)
    assert all(generate(s, options=off).features["warp"] == 0 for s in range(20))


@pytest.mark.parametrize("seed", [s for s in range(40) if generate(s).features["warp"]][:4])
def test_generated_warp_programs_survive_the_pipeline(seed: int) -> None:
    p = generate(seed)
    after = p.module.clone()
    apply_pipeline(after, "ori-ptxas")
    check_equivalent(p.module, after, p.kernel, [p.inputs(k) for k in range(2)],
                     physical_after=True)
