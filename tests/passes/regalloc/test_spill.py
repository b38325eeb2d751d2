"""Spilling of every register file and the SMEM spill mode of ori-regalloc
(``passes/regalloc/spill.py``): programs forced to spill predicates, uniform
predicates, uniform registers and barrier registers (the debug option
``force-file-limits`` lowers a file's limit, like NAK's forced low register
limit), R spills to shared memory (``smem-spilling``, knob 619), with the
checker passing and the allocated program, run in the interpreter's
physical-register mode, giving the SSA program's results."""

from __future__ import annotations

import random

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i32
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import (
    OriRegisterType,
    PredType,
    R32Type,
    UPredType,
    barrier,
    r32,
    r64,
    ur32,
)
from ori_dialect.ops.control import CallOp
from ori_dialect.ops.func import FuncOp
from ori_dialect.ops.integer import IAdd3Op
from ori_dialect.ops.memory import LdsOp, StlOp, StsOp
from ori_dialect.ops.predicate import P2ROp, R2POp
from ori_dialect.ops.regmove import BMovOp, R2UROp
from ori_dialect.testing.equivalence import apply_pipeline, check_equivalent
from ori_dialect.testing.generator import GenOptions, LaunchInputs, generate
from passes.regalloc.checker import check_module
from passes.regalloc.spill_marks import HOME_ATTR, SMEM_BASE_ATTR
from targets import get_target

_CMPS = ("lt", "le", "gt", "ge", "eq", "ne")


def spill_files_program(seed: int, *, target: str = "sm_80") -> tuple[ModuleOp, LaunchInputs]:
    """A kernel that keeps many predicates (P and UP), uniform registers and
    barrier registers live at once, uses them as SEL/PLOP3 sources, guards,
    branch conditions and a loop-carried predicate, and folds every one of
    them into the thread's output word."""
    rng = random.Random(seed)
    cb = get_target(target).cbank0
    assert cb is not None
    P = cb.params
    fb = FuncBuilder("k", kernel=True, params=[(8, 8), (4, 4), (4, 4)])
    tid = fb.s2r(mods="SR_TID.X")
    cta = fb.s2r(mods="SR_CTAID.X")
    gid = fb.imad(cta, cbank(0, cb.ntid), tid)
    out = fb.pack(fb.mov(cbank(0, P)), fb.mov(cbank(0, P + 4)), types=[r64])
    n = fb.mov(cbank(0, P + 8))
    s = fb.mov(cbank(0, P + 12))
    xs = [fb.imad(tid, rng.randrange(1, 9), s if rng.random() < 0.5 else n)
          for _ in range(rng.randrange(3, 7))]
    preds: list[SSAValue] = []
    for _ in range(rng.randrange(4, 10)):
        x = rng.choice(xs)
        preds.append(fb.isetp(x, rng.randrange(0, 64), PT, mods=f"{rng.choice(_CMPS)}.u32"))
    # uniform values in their uniform forms (ULDC, UISETP, UMOV): a uniform
    # op reads only uniform registers (ir/instruction.py)
    n_u = fb.ldc(0, R32Type.fixed(), P + 8, types=[ur32])
    upreds = [fb.isetp(n_u, rng.randrange(0, 8), UPredType.fixed(),
                       mods=f"{rng.choice(_CMPS)}.u32", types=[UPredType.unallocated()])
              for _ in range(rng.randrange(2, 5))]
    urs = [fb.ldc(0, R32Type.fixed(), P + rng.choice((8, 12)), types=[ur32])
           if rng.random() < 0.5 else fb.mov(rng.randrange(1, 1 << 20), types=[ur32])
           for _ in range(rng.randrange(2, 6))]
    bars = [fb.bmov(rng.choice(xs), types=[barrier]) for _ in range(rng.randrange(2, 5))]
    acc = fb.iadd3(gid, s, RZ)

    def stmt(acc: SSAValue) -> SSAValue:
        k = rng.randrange(6)
        if k == 0:
            return fb.sel(acc, rng.choice(xs), rng.choice(preds + upreds))
        if k == 1:
            op = IAdd3Op.make([acc, rng.choice(urs), RZ], guard=rng.choice(preds), prior=[acc])
            fb.insert(op)
            return op.results[0]
        if k == 2 and len(preds) >= 2:
            a, b = rng.sample(preds, 2)
            preds.append(fb.plop3(a, b, PT, rng.randrange(256)))
            return fb.iadd3(acc, rng.choice(urs), RZ)
        if k == 3:
            # diamond on a predicate, joined through a block argument
            then, other, join = fb.block(), fb.block(), fb.block(r32)
            fb.bra(then, guard=rng.choice(preds + upreds), fallthrough=other)
            with fb.at(then):
                fb.bra(join, fb.lop3(acc, rng.choice(xs), RZ, 0x96))
            with fb.at(other):
                fb.bra(join, fb.iadd3(acc, rng.choice(urs), rng.choice(xs)))
            fb.goto(join)
            return join.args[0]
        if k == 4:
            r = fb.bmov(rng.choice(bars))
            return fb.lop3(acc, r, RZ, 0x96)
        # a loop (n & 3 trips) carrying a toggling predicate
        head, body, done = fb.block(r32, r32, PredType.unallocated()), fb.block(), fb.block()
        trips = fb.lop3(n, 3, RZ, 0xC0)
        fb.bra(head, fb.mov(0), acc, rng.choice(preds))
        with fb.at(head):
            i, a, tp = head.args
            c = fb.isetp(i, trips, PT, mods="lt.u32")
            fb.bra(body, guard=c, fallthrough=done)
        with fb.at(body):
            a2 = fb.sel(fb.iadd3(a, 7, RZ), fb.iadd3(a, rng.choice(urs), RZ), tp)
            a3 = fb.sel(a2, fb.iadd3(a2, 1, RZ), rng.choice(preds))
            fb.bra(head, fb.iadd3(i, 1, RZ), a3, fb.plop3(tp, PT, PT, 0x0F))
        fb.goto(done)
        return head.args[1]

    for _ in range(rng.randrange(4, 12)):
        acc = stmt(acc)
    # fold everything into the output word
    for k, p in enumerate(preds + upreds):
        acc = fb.iadd3(acc, fb.sel(RZ, 1 << (k % 31), p), RZ)
    for u in urs:
        acc = fb.lop3(acc, u, RZ, 0x96)
    for b in bars:
        acc = fb.iadd3(acc, fb.bmov(b), RZ)
    addr = fb.imad(gid, 4, out, mods="wide.u32", types=[r64])
    fb.stg(addr, 0, acc)
    fb.exit()
    m = module(fb.func, target=target)
    block = rng.choice((32, 64))
    grid = rng.choice((1, 2))
    args = (np.zeros(block * grid, np.uint32), np.uint32(rng.randrange(0, 12)),
            np.uint32(rng.randrange(0, 1 << 32)))
    return m, LaunchInputs(args, (grid, 1, 1), (block, 1, 1), 0, seed)


def _count(m: ModuleOp, cls: type) -> int:
    return sum(1 for op in m.walk() if isinstance(op, cls))


def _alloc(before: ModuleOp, kernel: str, inputs: LaunchInputs, spec: str,
           title: str) -> ModuleOp:
    after = before.clone()
    apply_pipeline(after, spec)
    after.verify()
    problems = check_module(after)
    assert not problems, f"{title}: " + "\n".join(problems)
    check_equivalent(before, after, kernel, [inputs], physical_after=True, title=title)
    return after


def _spill_files(seed: int) -> dict[str, int]:
    m, inp = spill_files_program(seed)
    m.verify()
    limits = "P=2;UP=1;UR=1;B=1"
    max_regs = "" if seed % 3 else " max-regs=24"
    # remat-enable=false: the UR values of these programs are uniform loads
    # of the constant bank, which the allocator would recompute instead of
    # giving them the GPR homes this test is about (remat.py)
    after = _alloc(m, "k", inp,
                   f'ori-regalloc{{force-file-limits="{limits}"{max_regs} remat-enable=false}}',
                   f"seed {seed} {limits}{max_regs}")
    # the forced limits hold (the checker knows only the target's)
    top: dict[str, int] = {}
    for op in after.walk():
        for v in op.results:
            t = v.type
            if isinstance(t, OriRegisterType) and t.phys_index is not None and not t.is_fixed:
                f = t.REG_FILE.value
                top[f] = max(top.get(f, -1), t.phys_index + t.num_regs() - 1)
    assert top.get("P", -1) < 2 and top.get("UP", -1) < 1
    assert top.get("UR", -1) < 1 and top.get("B", -1) < 1
    return {
        "p2r": _count(after, P2ROp), "r2p": _count(after, R2POp),
        "r2ur": _count(after, R2UROp), "bmov": _count(after, BMovOp),
        "homes": sum(1 for op in after.walk() if HOME_ATTR in op.attributes),
        "stl": _count(after, StlOp),
    }


@pytest.mark.parametrize("seed", range(24))
def test_spill_every_file(seed: int) -> None:
    c = _spill_files(seed)
    # every file is over its forced limit in every program
    assert c["r2p"] > 0 and c["r2ur"] > 0 and c["homes"] > 0


@pytest.mark.fuzz
def test_spill_every_file_fuzz_300() -> None:
    homes_spilled = 0
    for seed in range(5000, 5300):
        c = _spill_files(seed)
        homes_spilled += c["stl"] > 0
    assert homes_spilled > 0


def test_spilled_homes_reach_local_memory() -> None:
    """With a small R budget too, GPR homes of predicates / uniform / barrier
    registers are themselves spilled to local memory (and reloaded before
    their R2P / R2UR / BMOV), and the program still computes the same."""
    found = 0
    for seed in (3, 6, 9, 12):
        m, inp = spill_files_program(seed)
        # pack-predicates=false: one home per predicate, enough of them to
        # overflow the R budget (packed, they fit)
        after = _alloc(m, "k", inp, 'ori-regalloc{force-file-limits="P=2;UP=1;UR=1;B=1" '
                       'max-regs=24 pack-predicates=false}', f"seed {seed}")
        for op in after.walk():
            if isinstance(op, StlOp):
                v = op.src("value")
                found += bool(getattr(v, "op", None) is not None
                              and HOME_ATTR in v.op.attributes)  # type: ignore[union-attr]
    assert found > 0


def test_impossible_predicate_limit_is_a_diagnostic() -> None:
    """PLOP3 reads two predicates at once: with one P register it cannot run
    however much is spilled; the diagnostic names the minimum (issue 13)."""
    m, _ = spill_files_program(2)
    assert _count(m, type(next(op for op in m.walk() if op.name == "ori.plop3"))) > 0
    with pytest.raises(PassFailedException, match=r"plop3.*needs 2 P registers at once.*"
                       r"minimum P register count for this function is 2\)"):
        apply_pipeline(m, 'ori-regalloc{force-file-limits="P=1"}')


def test_force_file_limits_is_validated() -> None:
    m, _ = spill_files_program(1)
    with pytest.raises(PassFailedException, match="FILE=N"):
        apply_pipeline(m.clone(), 'ori-regalloc{force-file-limits="Q=2"}')
    with pytest.raises(PassFailedException, match="below 1"):
        apply_pipeline(m.clone(), 'ori-regalloc{force-file-limits="P=0"}')


# ---------------------------------------------------------------------------
# checker
# ---------------------------------------------------------------------------


def test_checker_detects_a_reload_from_the_wrong_home() -> None:
    m, inp = spill_files_program(1)
    after = _alloc(m, "k", inp, 'ori-regalloc{force-file-limits="P=2;UP=1;UR=1;B=1"}', "s1")
    homes = [op for op in after.walk() if isinstance(op, P2ROp) and HOME_ATTR in op.attributes]
    r2p = [op for op in after.walk() if isinstance(op, R2POp)]
    assert len(homes) >= 2 and r2p
    from passes.regalloc.pred_pack import home_bits

    # a home that does not hold the reloaded predicate at the bit read (a
    # link of its own chain may)
    bit = (r2p[0].src_int("mask") or 0).bit_length() - 1
    tag = r2p[0].attributes["ori.spill_value"].value.data  # type: ignore[attr-defined]
    wrong = next(h for h in homes if (home_bits(h.results[0]) or {}).get(bit) != tag)
    r2p[0].operands[0] = wrong.results[0]
    assert any(f"reload of spilled value #{tag} reads" in p for p in check_module(after))


# ---------------------------------------------------------------------------
# SMEM spilling (knob 619)
# ---------------------------------------------------------------------------


def _smem_case(seed: int, *, bounds: bool, max_regs: int,
               dims3: bool = False) -> tuple[ModuleOp, ModuleOp]:
    """A generated kernel (no shared memory, no calls) allocated with SMEM
    spilling; launch bounds of the launch's block (``bounds``), as
    ``(x/2, 2, 1)`` with the launch reshaped to match (``dims3``: the linear
    thread id path), or none (1024 threads).  ``max-regs`` applies through
    the launch bounds with ``override-directive-values`` (ptxas ignores
    ``--maxrregcount`` for a kernel with ``.maxntid`` otherwise: budget.py)."""
    prog = generate(seed, options=GenOptions(shared=False, calls=False, pressure=48))
    inp = prog.inputs(seed + 1)
    k = next(f for f in prog.module.walk() if isinstance(f, FuncOp) and f.is_kernel)
    if dims3:
        # the generated kernel indexes by ntid.x * ctaid.x + tid.x: keep its
        # y extent 1 in the launch, the bounds give y = 2
        k.maxntid = DenseArrayBase.from_list(i32, [inp.block[0], 2, 1])
    elif bounds:
        k.maxntid = DenseArrayBase.from_list(i32, list(inp.block))
    after = _alloc(prog.module, prog.kernel, inp,
                   f"ori-regalloc{{smem-spilling=true max-regs={max_regs} "
                   "override-directive-values=true}", f"smem {seed}")
    return prog.module, after


def _kernel(m: ModuleOp) -> FuncOp:
    return next(f for f in m.walk() if isinstance(f, FuncOp) and f.is_kernel)


@pytest.mark.parametrize("seed", range(8))
def test_smem_spilling(seed: int) -> None:
    """With launch bounds every spill fits in shared memory: STS/LDS at the
    per-thread base, ``ori.shared_bytes`` grown by threads x stride, no
    local-memory spills, and the program computes the same."""
    _, after = _smem_case(seed, bounds=True, max_regs=16 + seed % 8)
    k = _kernel(after)
    assert _count(after, StsOp) > 0 and _count(after, LdsOp) > 0
    assert _count(after, StlOp) == 0
    sb = k.attributes["ori.smem_spill_bytes"].value.data  # type: ignore[union-attr]
    assert k.attributes["ori.shared_bytes"].value.data == sb > 0  # type: ignore[union-attr]
    assert k.attributes["ori.spill_stores"].value.data == 0  # type: ignore[union-attr]
    assert any(SMEM_BASE_ATTR in op.attributes for op in after.walk())


@pytest.mark.parametrize("seed", [6028, 6003, 6006, 6009])
def test_smem_spilling_divergent_threads(seed: int) -> None:
    """Seed 6028 mixed 32- and 64-bit slots in one structure-of-arrays region
    before the layout got one region per width: diverging threads then
    overwrote each other's slots (a corrupted 64-bit address)."""
    _, after = _smem_case(seed, bounds=True, max_regs=20, dims3=True)
    assert _count(after, StsOp) > 0


def test_smem_spilling_partial_fallback(capsys: pytest.CaptureFixture[str]) -> None:
    """Without launch bounds the area is laid out for 1024 threads: what does
    not fit in the 48 KiB goes to local memory, with a remark."""
    _, after = _smem_case(4, bounds=False, max_regs=20)
    assert _count(after, StsOp) > 0 and _count(after, StlOp) > 0
    assert "go to local memory" in capsys.readouterr().err
    assert _kernel(after).attributes["ori.shared_bytes"].value.data <= 48 * 1024  # type: ignore[union-attr]


def test_smem_spilling_not_applicable(capsys: pytest.CaptureFixture[str]) -> None:
    """A kernel that touches shared memory spills to local memory, with a
    remark (ori cannot tell its dynamic shared memory, where the area goes)."""
    for seed in range(40):
        prog = generate(seed, options=GenOptions(shared=True, calls=False, pressure=48))
        if any(isinstance(o, StsOp | LdsOp) for o in prog.module.walk()):
            break
    else:
        pytest.fail("no generated program uses shared memory")
    after = _alloc(prog.module, prog.kernel, prog.inputs(1),
                   "ori-regalloc{smem-spilling=true max-regs=24}", "shared")
    assert _count(after, StsOp) == _count(prog.module, StsOp)
    assert _count(after, StlOp) > 0
    err = capsys.readouterr().err
    assert "SMEM spilling not applicable" in err and "accesses shared memory" in err


def test_smem_spilling_with_calls() -> None:
    """A kernel that calls a device function keeps SMEM spilling for its own
    spills (as ptxas 13.0 does); the device function spills to local memory."""
    for seed in range(60):
        prog = generate(seed, options=GenOptions(shared=False, calls=True, pressure=48))
        if any(isinstance(o, CallOp) for o in prog.module.walk()):
            break
    else:
        pytest.fail("no generated program makes a call")
    inp = prog.inputs(1)
    k = _kernel(prog.module)
    k.maxntid = DenseArrayBase.from_list(i32, list(inp.block))
    after = _alloc(prog.module, prog.kernel, inp,
                   "ori-regalloc{smem-spilling=true max-regs=24 override-directive-values=true}",
                   "calls")
    ka = _kernel(after)
    assert any(isinstance(o, StsOp) for o in ka.walk())
    for f in after.walk():
        if isinstance(f, FuncOp) and not f.is_kernel:
            assert not any(isinstance(o, StsOp) for o in f.walk())


def test_smem_spilling_pragma() -> None:
    """The kernel's ``enable_smem_spilling`` pragma turns the mode on without
    the pass option."""
    prog = generate(5, options=GenOptions(shared=False, calls=False, pressure=48))
    inp = prog.inputs(6)
    k = _kernel(prog.module)
    k.reqntid = DenseArrayBase.from_list(i32, list(inp.block))
    from xdsl.dialects.builtin import StringAttr

    k.attributes["ori.pragmas"] = StringAttr("enable_smem_spilling")
    after = _alloc(prog.module, prog.kernel, inp,
                   "ori-regalloc{max-regs=20 override-directive-values=true}", "pragma")
    assert _count(after, StsOp) > 0 and _count(after, StlOp) == 0


def test_smem_spilling_3d_block() -> None:
    """Launch bounds over y: the per-thread base uses the linear thread id
    (TID.X + ntid.x * (TID.Y + ntid.y * TID.Z))."""
    prog = generate(7, options=GenOptions(shared=False, calls=False, pressure=48))
    inp = prog.inputs(8)
    x = inp.block[0] // 2
    inp3 = LaunchInputs(inp.args, inp.grid, (x, 2, 1), 0, inp.seed)
    k = _kernel(prog.module)
    k.maxntid = DenseArrayBase.from_list(i32, [x, 2, 1])
    after = _alloc(prog.module, prog.kernel, inp3,
                   "ori-regalloc{smem-spilling=true max-regs=20 override-directive-values=true}",
                   "3d")
    assert _count(after, StsOp) > 0
    assert any(op.name == "ori.s2r" and "SR_TID.Y" in str(op) for op in after.walk())


def test_checker_detects_a_clobbered_smem_slot() -> None:
    _, after = _smem_case(1, bounds=True, max_regs=17)
    stores = [op for op in after.walk() if isinstance(op, StsOp)]
    offs = {op.offset() for op in stores}
    assert len(offs) >= 2
    victim = stores[0]
    other = next(o for o in sorted(offs) if o != victim.offset())
    from passes.regalloc.spill import set_const

    for op in after.walk():
        if isinstance(op, LdsOp) and op.attributes.get("ori.spill_value") == victim.attributes[
            "ori.spill_value"
        ]:
            set_const(op, "offset", other)
    assert any("shared offset" in p for p in check_module(after))


def test_checker_detects_mixed_width_smem_slots() -> None:
    """A 32-bit slot moved onto a 64-bit slot's per-thread bytes: in the
    structure-of-arrays layout another thread's bytes would overlap, which
    the checker reports (the allocator keeps one region per width)."""
    for seed in range(6000, 6040):
        _, after = _smem_case(seed, bounds=True, max_regs=16 + seed % 8)
        ops = [op for op in after.walk() if isinstance(op, StsOp | LdsOp)]
        wide = [op for op in ops if op.access_bytes() == 8]
        narrow = [op for op in ops if op.access_bytes() == 4]
        if wide and narrow:
            break
    else:
        pytest.fail("no program with 32- and 64-bit SMEM spill slots")
    assert not check_module(after)
    from passes.regalloc.spill import set_const

    set_const(narrow[0], "offset", wide[0].offset())
    assert any("share per-thread byte" in p for p in check_module(after))


def test_guarded_copies_rename_for_later_branches() -> None:
    """Seed 6076 of the fuzz below: a guarded edge copy renames the other
    edge's reads of a register's value, and a later branch's guarded copy
    must take the renamed value as its prior (copies.py ``_rename`` keeps
    the live-in lists current); with the old value there, both were live in
    one register and the checker refused the allocation."""
    seed = 6076
    _smem_case(seed, bounds=seed % 4 != 0, max_regs=16 + seed % 12, dims3=seed % 3 == 0)


@pytest.mark.fuzz
def test_smem_spilling_fuzz() -> None:
    for seed in range(6000, 6100):
        _smem_case(seed, bounds=seed % 4 != 0, max_regs=16 + seed % 12, dims3=seed % 3 == 0)


def test_smem_spilling_from_ptx_pragma() -> None:
    """The PTX of a CUDA kernel with ``__launch_bounds__(64)`` and the CUDA
    13.0 ``enable_smem_spilling`` pragma (nvcc output kept in the lit inputs):
    spills go to shared memory without the pass option, and the allocated
    kernel computes what the SSA kernel computes."""
    from pathlib import Path

    from ori_dialect.ptx.lower import import_ptx

    path = (Path(__file__).resolve().parents[2] / "filecheck" / "passes" / "regalloc" / "Inputs"
            / "smem_spilling.ptx")
    m = import_ptx(path.read_text(), path.name)
    n = 100
    rng = np.random.default_rng(7)
    inp = LaunchInputs(
        (np.zeros(128, np.float32), rng.uniform(-2, 2, n).astype(np.float32), np.int32(n)),
        (2, 1, 1), (64, 1, 1), 0, 7,
    )
    after = _alloc(m, "bounded", inp, "ori-regalloc{max-regs=8 override-directive-values=true}",
                   "ptx pragma")
    k = _kernel(after)
    assert _count(after, StsOp) > 0 and _count(after, StlOp) == 0
    assert k.attributes["ori.smem_spill_threads"].value.data == 64  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# packed predicate homes (pred_pack.py)
# ---------------------------------------------------------------------------


def _chained(m: ModuleOp) -> list[P2ROp]:
    return [op for op in m.walk() if isinstance(op, P2ROp) and HOME_ATTR in op.attributes
            and isinstance(op.src("a"), SSAValue)]


def test_spilled_predicates_share_homes() -> None:
    """The programs of test_spill_every_file (equivalent in the physical
    interpreter, checker clean) thread spilled predicates into shared
    homes, each with at most seven bits."""
    from passes.regalloc.pred_pack import MAX_BITS, home_bits

    chained = 0
    for seed in range(6):
        m, inp = spill_files_program(seed)
        after = _alloc(m, "k", inp, 'ori-regalloc{force-file-limits="P=2;UP=1;UR=1;B=1" '
                       'remat-enable=false}', f"seed {seed}")
        for op in _chained(after):
            chained += 1
            bits = home_bits(op.results[0])
            assert bits is not None and 2 <= len(bits) <= MAX_BITS
    assert chained > 0


def test_checker_detects_a_reload_of_the_wrong_bit() -> None:
    m, inp = spill_files_program(1)
    after = _alloc(m, "k", inp, 'ori-regalloc{force-file-limits="P=2;UP=1;UR=1;B=1" '
                   'remat-enable=false}', "s1")
    rel = next(u.operation for link in _chained(after) for u in link.results[0].uses
               if isinstance(u.operation, R2POp))
    mask = rel.src_int("mask") or 0
    wrong = R2POp.make([rel.operands[0], 1 if mask != 1 else 2], [rel.results[0].type],
                       attributes=dict(rel.attributes))
    rel.parent_block().insert_op_before(wrong, rel)  # type: ignore[union-attr]
    rel.results[0].replace_all_uses_with(wrong.results[0])
    rel.detach()
    rel.erase()
    assert any("reads the home of" in p for p in check_module(after)), check_module(after)
