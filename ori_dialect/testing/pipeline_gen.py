"""Random single-block loops for ``ori-pipeline`` and ``ori-loop-fusion`` (an
extension of :mod:`ori_dialect.testing.generator`: same parameter list and
checksum convention, a small launch so hundreds of programs stay cheap).

Each kernel runs one to three rotated (do-while) single-block loops, one
after another (adjacent loops are what fusion looks for), with

* trip counts 0 (a guard in front), 1 .. 9, 17 and ``n & 15`` (unknown,
  guarded against 0), up or down strides, the test on the incremented IV;
* register recurrences: accumulators, a value carried over two iterations
  (``b <- a <- new``), the IV in the body;
* global loads from the read-only input (long latency: what gives a
  pipelined loop several stages) and loads and stores to the thread's own
  output words indexed by the IV, so a store of one iteration is read by a
  later one (loads and stores that alias, across iterations);
* the loop's values used after it through its exit arguments and, without
  a guard, directly.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from xdsl.ir import SSAValue

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import r32, r64
from ori_dialect.testing.generator import (
    CNT_WORDS,
    IN_WORDS,
    LUT_AND,
    LUT_XOR3,
    P_INP,
    P_N,
    P_OUT,
    P_S,
    PARAMS,
    SLOTS,
    TARGETS,
    GeneratedProgram,
    GenOptions,
    LaunchInputs,
)
from targets import get_target

_TRIPS = (0, 1, 2, 3, 4, 5, 6, 7, 9, 17)


def small_inputs(rng: np.random.Generator) -> LaunchInputs:
    """One warp of one CTA, random buffers, ``n`` in 0..40."""
    threads = 32
    out = rng.integers(0, 2**32, size=threads * SLOTS, dtype=np.uint64).astype(np.uint32)
    inp = rng.integers(0, 2**32, size=IN_WORDS, dtype=np.uint64).astype(np.uint32)
    cnt = np.zeros(CNT_WORDS, dtype=np.uint32)
    n = int(rng.choice([0, 1, 2, 3, int(rng.integers(0, 41))]))
    s = int(rng.integers(0, 2**32))
    return LaunchInputs(args=(out, inp, cnt, np.uint32(n), np.uint32(s), np.float32(1.5)),
                        grid=(1, 1, 1), block=(threads, 1, 1), shared_bytes=threads * 4)


def generate_pipeline_loops(seed: int) -> GeneratedProgram:
    """A kernel of single-block loops, deterministic from ``seed``."""
    r = random.Random(seed)
    target = r.choice(TARGETS)
    cb = get_target(target).cbank0
    assert cb is not None
    P = cb.params
    name = f"pipe{seed}"
    features: Counter[str] = Counter()
    fb = FuncBuilder(name, kernel=True, params=PARAMS)
    tid = fb.s2r(mods="SR_TID.X")
    out = fb.ldc(0, RZ, P + P_OUT, mods="b64", types=[r64])
    inp = fb.ldc(0, RZ, P + P_INP, mods="b64", types=[r64])
    n = fb.mov(cbank(0, P + P_N))
    s = fb.mov(cbank(0, P + P_S))
    obase = fb.imad(tid, SLOTS * 4, out, mods="wide.u32", types=[r64])
    keep: list[SSAValue] = [tid]
    pool: list[SSAValue] = [tid, s]
    same_trips = r.random() < 0.4  # adjacent loops of one trip count: fusion candidates
    shared_kind = r.choice(_TRIPS + ("param",))
    # fusion candidates read only what exists before the first loop and
    # leave the output words alone now and then
    no_stores = same_trips and r.random() < 0.6

    def one_loop() -> None:
        kind = shared_kind if same_trips else r.choice(_TRIPS + ("param",))
        features[f"trips_{kind}"] += 1
        step = r.choice((1, 1, 2, -1))
        pre = fb.current
        header = fb.block(r32, r32, r32, r32, r32)
        exit_b = fb.block(r32, r32, r32)
        guard = None
        if kind == "param":
            cnt = fb.lop3(n, 15, RZ, LUT_AND)
            start, bound, cmp = 0, cnt, "lt.u32"
            if step < 0:
                start, bound, cmp = cnt, 0, "gt.s32"
            init = fb.mov(start) if isinstance(start, int) else start
            # do-while: guard the first trip (cnt == 0 runs nothing)
            guard = fb.isetp(cnt, 0, PT, mods="ne.u32")
            if step != 1 and step != -1:
                step = 1
        else:
            t = int(kind)
            start = r.randint(-5, 20)
            end = start + max(t, 1) * step
            cmp = r.choice(("lt.s32", "ne.s32")) if step > 0 else r.choice(("gt.s32", "ne.u32"))
            bound = end
            init = fb.mov(start)
            if t == 0:
                guard = fb.isetp(init, init, PT, mods="ne.u32")  # never enters
        a0, b0, acc1 = r.choice(pool), r.choice(pool), r.choice(pool)
        fb.goto(header)
        iv, acc, a, b, acc2 = header.args
        v = fb.iadd3(acc, iv, RZ)
        for _ in range(r.randint(2, 7)):
            c = r.randrange(7)
            if no_stores and c in (1, 2):
                c = 0
            if c == 0:
                idx = fb.lop3(fb.iadd3(iv, r.randint(0, 9), RZ), IN_WORDS - 1, RZ, LUT_AND)
                ld = fb.ldg(fb.imad(idx, 4, inp, mods="wide.u32", types=[r64]), 0)
                v = fb.iadd3(v, ld, RZ)
                features["load"] += 1
            elif c == 1:
                # a word of this thread's output, written by this or another iteration
                idx = fb.lop3(fb.iadd3(iv, r.randint(0, 7), RZ), SLOTS - 2, RZ, LUT_AND)
                ld = fb.ldg(fb.imad(idx, 4, obase, mods="wide.u32", types=[r64]), 0)
                v = fb.lop3(v, ld, iv, LUT_XOR3)
                features["alias_load"] += 1
            elif c == 2:
                idx = fb.lop3(fb.iadd3(iv, r.randint(0, 7), RZ), SLOTS - 2, RZ, LUT_AND)
                fb.stg(fb.imad(idx, 4, obase, mods="wide.u32", types=[r64]), 0, v)
                features["alias_store"] += 1
            elif c == 3:
                v = fb.imad(v, r.randint(1, 99) | 1, a)
                features["carried2"] += 1
            elif c == 4:
                v = fb.lop3(v, b, r.choice(pool), LUT_XOR3)
            elif c == 5:
                v = fb.shf(v, r.randint(1, 31), v, mods="l.w.u32")
            else:
                v = fb.iadd3(v, r.choice(pool), iv)
        acc2n = fb.imad(acc2, 3, v) if r.random() < 0.5 else acc2
        iv2 = fb.iadd3(iv, step, RZ)
        p = fb.isetp(iv2, bound, PT, mods=cmp)
        fb.bra(header, iv2, v, v, a, acc2n, guard=p, fallthrough=exit_b,
               fallthrough_args=[iv2, v, acc2n])
        with fb.at(pre):
            if guard is not None:
                fb.bra(header, init, a0, a0, b0, acc1, guard=guard, fallthrough=exit_b,
                       fallthrough_args=[init, a0, acc1])
            else:
                fb.bra(header, init, a0, a0, b0, acc1)
        fb.goto(exit_b)
        keep.extend(exit_b.args)
        if not same_trips:
            pool.append(exit_b.args[1])
        if guard is None and r.random() < 0.5:
            features["direct_use"] += 1
            keep.append(fb.iadd3(v, 3, b))

    for _ in range(r.randint(1, 3)):
        one_loop()
    h = fb.mov(0x9E3779B9)
    for i, v in enumerate(keep):
        h = fb.iadd3(h, v, RZ) if i % 2 == 0 else fb.lop3(h, v, RZ, LUT_XOR3)
        h = fb.shf(h, 7, h, mods="l.w.u32")
    fb.stg(obase, (SLOTS - 1) * 4, h)
    fb.exit()
    m = module(fb.func, target=target)
    m.verify()
    return GeneratedProgram(seed, m, name, features, GenOptions(target=target),
                            input_factory=small_inputs)


__all__ = ["generate_pipeline_loops", "small_inputs"]
