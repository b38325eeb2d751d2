"""Liveness and register pressure (ori_dialect.analysis.liveness / .pressure)."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue

from ori_dialect.analysis import (
    CFG,
    AnalysisManager,
    DominatorTree,
    Liveness,
    RegisterPressure,
    bits_to_indices,
    indices_to_bits,
)
from ori_dialect.ir.registers import RegFile
from ori_dialect.ops.func import FuncOp
from passes.print_liveness import PrintLivenessPass
from tests.conftest import parse


def first_func(m: ModuleOp) -> FuncOp:
    f = m.ops.first
    assert isinstance(f, FuncOp)
    return f


def names(vals: object) -> set[str]:
    return {v.name_hint for v in vals}  # type: ignore[attr-defined, misc]


LOOP = """
builtin.module {
  ori.func kernel @k() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32)
  ^bb1(%i : !ori.r32):
    %i2 = ori.iadd3 %i, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %i2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%i2 : !ori.r32), ^bb2
  ^bb2:
    ori.exit
  }
}
"""


def test_loop_block_sets() -> None:
    f = first_func(parse(LOOP))
    lv = Liveness.compute(f)
    b0, b1, b2 = f.body.blocks
    assert names(lv.live_in_values(b0)) == set()
    # the edge operand %z is live-out of ^bb0 but not live-in to ^bb1
    assert names(lv.live_out_values(b0)) == {"z", "n"}
    assert names(lv.live_in_values(b1)) == {"n"}
    assert names(lv.live_out_values(b1)) == {"n", "i2"}
    assert names(lv.live_in_values(b2)) == set()
    (i,) = b1.args
    assert not lv.is_live_in(i, b1) and not lv.is_live_out(i, b1)
    n = b0.ops.first.next_op  # type: ignore[union-attr]
    assert n is not None
    assert lv.is_live_out(n.results[0], b1) and lv.is_live_out(n.results[0], 0)


def test_per_op_queries() -> None:
    f = first_func(parse(LOOP))
    lv = Liveness.compute(f)
    b1 = f.body.blocks[1]
    iadd, isetp, bra = list(b1.ops)
    assert names(lv.live_before(iadd)) == {"i", "n"}
    assert names(lv.live_after(iadd)) == {"i2", "n"}
    assert names(lv.live_before(isetp)) == {"i2", "n"}
    assert names(lv.live_after(isetp)) == {"i2", "n", "p"}
    assert names(lv.live_before(bra)) == {"i2", "n", "p"}
    assert names(lv.live_after(bra)) == {"i2", "n"}
    walked = [(k, op.name, set(live)) for k, op, live in lv.walk_backward(b1)]
    assert [w[0] for w in walked] == [2, 1, 0]
    assert lv.names(walked[0][2]) == ["n", "i2"]


def test_edge_liveness() -> None:
    f = first_func(parse(LOOP))
    lv = Liveness.compute(f)
    e = lv.cfg.out_edges[0][0]
    assert lv.names(lv.live_on_edge(e)) == ["z", "n"]


def test_straight_line_dead_def_and_pressure() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %a = ori.mov 0x0 : () -> !ori.r32
    %b = ori.mov 0x1 : () -> !ori.r32
    %dead = ori.iadd3 %a, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %c = ori.iadd3 %a, %b, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w], %c : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb1:
    %w = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    lv = Liveness.compute(f)
    rp = RegisterPressure(lv)
    # %w is defined in an unreachable block and used in the entry: live-in of ^bb0
    assert names(lv.live_in_values(0)) == {"w"}
    # at %dead: a, b, w(2) live across, and %dead occupies one register
    assert rp.max[RegFile.R] == 5
    assert rp.where[RegFile.R] is not None and rp.where[RegFile.R].block == 0
    dead = list(f.body.blocks[0].ops)[2]
    assert rp.at_op(dead)[RegFile.R] == 5


def test_wide_values_and_predicates() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %v = ori.ldg b128 [%a] : (!ori.r64) -> !ori.r128
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    %q = ori.isetp ge.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    %u = ori.mov 0x0 : () -> !ori.ur32
    ori.stg b128 [%a], %v : (!ori.r64, !ori.r128) -> ()
    ori.bra if %p : !ori.p, ^bb1, ^bb2
  ^bb1:
    %s = ori.sel %z, %u, %q : (!ori.r32, !ori.ur32, !ori.p) -> !ori.r32
    ori.stg [%a], %s : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb2:
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    am = AnalysisManager()
    rp = am.get(RegisterPressure, f)
    lv = am.get(Liveness, f)
    # a(2) + v(4) + z(1) live before the STG
    assert rp.max[RegFile.R] == 7
    assert rp.max[RegFile.P] == 2
    assert rp.max[RegFile.UR] == 1
    assert rp.max[RegFile.UP] == 0 and rp.where[RegFile.UP] is None
    assert rp.block_max[1][RegFile.R] == 3  # a(2) + z before the SEL, a(2) + s after
    assert names(lv.live_in_values(1)) == {"a", "z", "q", "u"}
    num = lv.numbering
    assert [int(w) for w in num.width] == [2, 4, 1, 1, 1, 1, 1]


def test_guarded_prior_shares_register() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %x0 = ori.mov 0x1 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    %x = ori.iadd3 %z, 0x1, RZ if %p else %x0 : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%w], %x : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb1:
    %w = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    lv = Liveness.compute(f)
    rp = RegisterPressure(lv)
    ops = list(f.body.blocks[0].ops)
    g = ops[3]
    assert names(lv.live_before(g)) == {"z", "x0", "p", "w"}
    assert names(lv.live_after(g)) == {"x", "w"}
    # before: w(2) z x0 = 4 ; after: w(2) x = 3 (x0 dies into x)
    assert rp.at_op(g)[RegFile.R] == 4
    assert rp.max[RegFile.R] == 4


def test_guarded_prior_still_live_counts_once_at_op() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %z = ori.mov 0x0 : () -> !ori.r32
    %p = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p
    %x = ori.iadd3 %z, 0x1, RZ if %p else %z : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    %y = ori.iadd3 %x, %z, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    rp = RegisterPressure.compute(f)
    g = list(f.body.blocks[0].ops)[2]
    # after the guarded op z and x are both live but count once there
    assert rp.at_op(g)[RegFile.R] == 1
    # at %y: x, z before ; y after (dead def) -> 2
    assert rp.max[RegFile.R] == 2


def test_duplicate_successor_with_different_args() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %a = ori.mov 0x0 : () -> !ori.r32
    %b = ori.mov 0x1 : () -> !ori.r32
    %p = ori.isetp lt.u32 %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%a : !ori.r32), ^bb1(%b : !ori.r32)
  ^bb1(%x : !ori.r32):
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    lv = Liveness.compute(f)
    assert names(lv.live_out_values(0)) == {"a", "b"}
    e0, e1 = lv.cfg.out_edges[0]
    assert lv.names(lv.live_on_edge(e0)) == ["a"]
    assert lv.names(lv.live_on_edge(e1)) == ["b"]
    rp = RegisterPressure(lv)
    assert rp.block_max[1][RegFile.R] == 1  # the unused argument


def test_bitset_helpers() -> None:
    row = indices_to_bits([0, 5, 63, 64, 130], 3)
    assert bits_to_indices(row).tolist() == [0, 5, 63, 64, 130]
    assert row.dtype == np.uint64


def test_print_pass() -> None:
    m = parse(LOOP)
    out = io.StringIO()
    PrintLivenessPass(per_op=True).print_module(m, out)
    assert out.getvalue().splitlines() == [
        "liveness in @k:",
        "  ^bb0: live-in [] live-out [z, n] pressure R=2",
        "    op 0 ori.mov: live-before [] live-after [z]",
        "    op 1 ori.mov: live-before [z] live-after [z, n]",
        "    op 2 ori.bra: live-before [z, n] live-after [z, n]",
        "  ^bb1(i): live-in [n] live-out [n, i2] pressure R=2 P=1",
        "    op 0 ori.iadd3: live-before [n, i] live-after [n, i2]",
        "    op 1 ori.isetp: live-before [n, i2] live-after [n, i2, p]",
        "    op 2 ori.bra: live-before [n, i2, p] live-after [n, i2]",
        "  ^bb2: live-in [] live-out [] pressure none",
        "    op 0 ori.exit: live-before [] live-after []",
        "  max pressure R=2 at ^bb0 op 1, P=1 at ^bb1 op 1",
    ]


def test_names_without_hints() -> None:
    text = """
builtin.module {
  ori.func kernel @k() {
    %0 = ori.mov 0x0 : () -> !ori.r32
    %x:2 = ori.iadd3 %0, 0x1, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    ori.stg [%w], %x#0 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  ^bb1:
    %w = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    ori.exit
  }
}
"""
    f = first_func(parse(text))
    lv = Liveness.compute(f)
    assert lv.numbering.names() == ["#0", "x", "x#2", "w"]


# ----------------------------------------------------------------------
# randomized cross-check against a naive per-program-point reference
# ----------------------------------------------------------------------
_TYPES = {"r32": "!ori.r32", "r64": "!ori.r64", "p": "!ori.p"}


def random_program(rng: random.Random) -> str:
    """A random kernel in valid SSA form (uses only values of dominating blocks)."""
    n = rng.randrange(2, 14)
    succs: list[list[int]] = [[1]]
    for _ in range(1, n):
        k = rng.choice([0, 1, 1, 2, 2])
        succs.append([rng.randrange(1, n) for _ in range(k)])
    # structure first: dominators decide which values each block may use
    dt = DominatorTree(CFG.from_succs(succs))
    args: list[list[tuple[str, str]]] = [[]] + [
        [(f"a{b}_{j}", rng.choice(["r32", "r32", "r64", "p"])) for j in range(rng.randrange(0, 3))]
        for b in range(1, n)
    ]
    defined: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    body: list[list[str]] = [[] for _ in range(n)]
    counter = 0
    order = sorted(range(n), key=lambda b: (dt.depth(b) if dt.depth(b) >= 0 else 10**6, b))
    for b in order:
        avail: list[tuple[str, str]] = []
        for d in dt.dominators(b)[1:]:
            avail += args[d] + defined[d]
        avail += [("z", "r32"), ("p0", "p")] if b != 0 else []
        avail += args[b]

        def pick(kind: str, avail: list[tuple[str, str]] = avail) -> str | None:
            c = [v for v, t in avail if t == kind]
            return rng.choice(c) if c else None

        if b == 0:
            body[0] += [
                "    %z = ori.mov 0x0 : () -> !ori.r32",
                "    %p0 = ori.isetp lt.u32 %z, %z, PT : (!ori.r32, !ori.r32) -> !ori.p",
            ]
            avail += [("z", "r32"), ("p0", "p")]
        for _ in range(rng.randrange(0, 6)):
            counter += 1
            name = f"v{counter}"
            kind = rng.choice(["add", "add", "wide", "setp", "guard"])
            x, y = pick("r32"), pick("r32")
            if x is None or y is None:
                continue
            if kind == "add":
                body[b].append(
                    f"    %{name} = ori.iadd3 %{x}, %{y}, RZ : (!ori.r32, !ori.r32) -> !ori.r32"
                )
                t = "r32"
            elif kind == "wide":
                w = pick("r64")
                if w is None:
                    body[b].append(
                        f"    %{name} = ori.imad wide.u32 %{x}, 0x4, RZ : (!ori.r32) -> !ori.r64"
                    )
                else:
                    body[b].append(
                        f"    %{name} = ori.imad wide.u32 %{x}, 0x4, %{w} : "
                        "(!ori.r32, !ori.r64) -> !ori.r64"
                    )
                t = "r64"
            elif kind == "setp":
                body[b].append(
                    f"    %{name} = ori.isetp lt.u32 %{x}, %{y}, PT : "
                    "(!ori.r32, !ori.r32) -> !ori.p"
                )
                t = "p"
            else:
                q = pick("p")
                body[b].append(
                    f"    %{name} = ori.iadd3 %{x}, 0x1, RZ if %{q} else %{y} : "
                    "(!ori.r32, !ori.p, !ori.r32) -> !ori.r32"
                )
                t = "r32"
            avail.append((name, t))
            defined[b].append((name, t))

        def dest(s: int) -> str:
            if not args[s]:
                return f"^bb{s}"
            vals = []
            for _, t in args[s]:
                v = pick(t)
                if v is None:  # fall back to a fresh value
                    raise RetryDraw
                vals.append(f"%{v} : {_TYPES[t]}")
            return f"^bb{s}(" + ", ".join(vals) + ")"

        ss = succs[b]
        if not ss:
            body[b].append("    ori.exit")
        elif len(ss) == 1:
            body[b].append(f"    ori.bra {dest(ss[0])}")
        else:
            body[b].append(f"    ori.bra if %{pick('p')} : !ori.p, {dest(ss[0])}, {dest(ss[1])}")
    lines = ["builtin.module {", "  ori.func kernel @k() {"]
    for b in range(n):
        a = ", ".join(f"%{v} : {_TYPES[t]}" for v, t in args[b])
        lines.append(f"  ^bb{b}" + (f"({a})" if a else "") + ":")
        lines += body[b]
    lines += ["  }", "}"]
    return "\n".join(lines)


class RetryDraw(Exception):
    """random_program drew a shape it cannot finish; the caller draws again."""


def reference(f: FuncOp) -> dict[object, tuple[set[SSAValue], set[SSAValue]]]:
    """Naive liveness: per-op (before, after) value sets, iterated to a fixpoint."""
    blocks: list[Block] = list(f.body.blocks)
    cfg = CFG.compute(f)
    live_in: list[set[SSAValue]] = [set() for _ in blocks]
    res: dict[object, tuple[set[SSAValue], set[SSAValue]]] = {}
    changed = True
    while changed:
        changed = False
        for b in reversed(range(len(blocks))):
            term = blocks[b].last_op
            assert term is not None
            out: set[SSAValue] = set()
            for slot, s in enumerate(term.successors):
                out |= live_in[cfg.id(s)]
                out |= set(term.edge_args(slot))  # type: ignore[attr-defined]
            cur = set(out)
            for op in reversed(list(blocks[b].ops)):
                after = set(cur)
                cur = (cur - set(op.results)) | set(op.operands)
                res[op] = (set(cur), after)
            new = cur - set(blocks[b].args)
            if new != live_in[b]:
                live_in[b] = new
                changed = True
    res["live_in"] = tuple(live_in)  # type: ignore[assignment]
    return res


@pytest.mark.parametrize("seed", range(40))
def test_random_liveness_against_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        try:
            text = random_program(rng)
            break
        except RetryDraw:
            continue
    else:  # pragma: no cover
        pytest.fail("the random CFG generator gave up 20 times in a row")
    f = first_func(parse(text))
    lv = Liveness.compute(f)
    ref = reference(f)
    ref_in = ref["live_in"]
    for b, block in enumerate(f.body.blocks):
        assert set(lv.live_in_values(b)) == ref_in[b], (seed, b)  # type: ignore[index]
        for op in block.ops:
            before, after = ref[op]
            assert lv.live_before(op) == before, (seed, b, op.name)
            assert lv.live_after(op) == after, (seed, b, op.name)
    # pressure: the maximum over the reference's per-op sets, with the counting rules
    rp = RegisterPressure(lv)
    num = lv.numbering
    for fi, file in enumerate(RegFile):
        best = 0
        for b, block in enumerate(f.body.blocks):
            entry = set(ref_in[b]) | set(block.args)  # type: ignore[index]
            best = max(
                best,
                sum(int(num.width[num.index[v]]) for v in entry if num.file[num.index[v]] == fi),
            )
            for op in block.ops:
                before, after = ref[op]
                after = after | set(op.results)
                prior = getattr(op, "prior", ())
                shared = {p for p in prior if p in after}
                for s, excl in ((before, set()), (after, shared)):
                    best = max(
                        best,
                        sum(
                            int(num.width[num.index[v]])
                            for v in s - excl
                            if num.file[num.index[v]] == fi
                        ),
                    )
        assert rp.max[file] == best, (seed, file)
