"""Loop-focused random kernels for testing the loop passes (an extension of
:mod:`ori_dialect.testing.generator`, whose parameter list, inputs and
checksum convention it shares).

Each kernel runs a few loops one after another (sometimes nested), each in
one of the shapes the unroller handles or must reject:

* rotated (do-while) loops, single- or multi-block (an if/else in the body),
  and top-tested (``while``) loops, mostly guarded only by their header test,
  sometimes computing a value in the header that the body and the code after
  the loop use, sometimes with the header's IV and value used directly after
  the loop (ori-loop-simplify inverts them);
* constant trip counts 1, 2, 3, odd, 37, 1000 and trip count 0 (a guard
  around a rotated loop), the parameter ``n`` (unknown), per-thread counts;
* up and down strides (1, 2, 3, 5, -1, -2, -3), ``lt/le/gt/ge/ne`` tests on
  ``s32`` and ``u32``, the IV on either side of the compare, the test on the
  IV or on its increment, negated guards;
* an unsigned IV wrapping through 2^32 (``0xfffffff0`` up by 4, ``ne``);
* unknown trip counts with the IV starting just below the wrap point of its
  compare (``0xfffffff0 + n%8`` up to ``0xffffffff`` unsigned, ``0x7ffffff0
  + n%8`` up to ``INT_MAX``, ``INT_MIN + 8 + n%8`` down to ``INT_MIN``);
* the IV and loop values used after the loop (through exit arguments and
  directly, which needs LCSSA when unrolled), loads indexed by the IV and
  an ``ori.pragma "nounroll"`` now and then.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from xdsl.ir import SSAValue

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import r32, r64
from ori_dialect.ops.control import PragmaOp
from ori_dialect.testing.generator import (
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
    trip_count,
)
from targets import get_target

_TRIPS = (1, 2, 3, 5, 7, 9, 37, 1000)


def _cmp_for(r: random.Random, start: int, step: int, t: int) -> tuple[str, int]:
    """An exit test (continue while ``next CMP bound``) giving ``t`` trips of a
    rotated loop that tests the incremented IV."""
    end = start + t * step
    if step > 0:
        opts = [("lt.s32", end), ("ne.s32", end), ("le.s32", end - 1), ("ne.u32", end)]
        if start >= 0 and end < 2**31:
            opts.append(("lt.u32", end))
    else:
        opts = [("gt.s32", end), ("ne.u32", end), ("ge.s32", end + 1)]
    return r.choice(opts)


def generate_loops(seed: int) -> GeneratedProgram:
    """A loop-heavy kernel, deterministic from ``seed``."""
    r = random.Random(seed)
    target = r.choice(TARGETS)
    cb = get_target(target).cbank0
    assert cb is not None
    P = cb.params
    name = f"loops{seed}"
    features: Counter[str] = Counter()
    fb = FuncBuilder(name, kernel=True, params=PARAMS)
    tid = fb.s2r(mods="SR_TID.X")
    ctaid = fb.s2r(mods="SR_CTAID.X")
    ntid = fb.mov(cbank(0, cb.ntid))
    gid = fb.imad(ctaid, ntid, tid)
    out = fb.ldc(0, RZ, P + P_OUT, mods="b64", types=[r64])
    inp = fb.ldc(0, RZ, P + P_INP, mods="b64", types=[r64])
    n = fb.mov(cbank(0, P + P_N))
    s = fb.mov(cbank(0, P + P_S))
    obase = fb.imad(gid, SLOTS * 4, out, mods="wide.u32", types=[r64])
    keep: list[SSAValue] = [gid]
    pool: list[SSAValue] = [tid, gid, s]

    def body_ops(iv: SSAValue, acc: SSAValue, k: int) -> SSAValue:
        v = acc
        for _ in range(k):
            c = r.randrange(4)
            if c == 0:
                v = fb.iadd3(v, iv, r.choice(pool))
            elif c == 1:
                v = fb.lop3(v, iv, r.choice(pool), LUT_XOR3)
            elif c == 2:
                idx = fb.lop3(iv, IN_WORDS - 1, RZ, LUT_AND)
                addr = fb.imad(idx, 4, inp, mods="wide.u32", types=[r64])
                ld = fb.ldg(addr, 0)
                v = fb.iadd3(v, ld, RZ)
                features["load"] += 1
            else:
                v = fb.imad(v, r.randint(1, 99) | 1, iv)
        return v

    def one_loop(depth: int) -> None:
        kind = r.choices(("const", "zero", "param", "thread", "wrap", "nearwrap"), (5, 1, 2, 1, 1, 1))[0]
        rotated = r.random() < 0.8
        multiblock = r.random() < 0.25
        nounroll = r.random() < 0.08
        direct_use = r.random() < 0.3
        test_next = r.random() < 0.75
        swap = r.random() < 0.25
        negate = r.random() < 0.25
        bound: Any
        features[f"kind_{kind}"] += 1
        if kind == "wrap":
            t = r.choice((5, 7, 9))
            start, step, cmp = 0xFFFFFFF0, 4, "ne.u32"
            bound = (start + 4 * t) & 0xFFFFFFFF
            start = start - (1 << 32)
        elif kind == "nearwrap":
            # unknown trip count, IV starting a few steps below the wrap point
            # of its compare (2^32 unsigned, 2^31 signed), or above INT_MIN
            # going down: the unroller's wrap guard must send it to the
            # original loop
            lo = fb.lop3(n, 7, RZ, LUT_AND)
            step = r.choice((1, 1, -1))
            if step > 0:
                base, cmp, bound = r.choice(((-16, "lt.u32", -1), (0x7FFFFFF0, "lt.s32", 0x7FFFFFFF)))
                start = fb.iadd3(lo, base, RZ)
            else:
                start = fb.iadd3(lo, -0x7FFFFFF8, RZ)  # INT_MIN + 8 + n%8
                cmp, bound = "gt.s32", -0x80000000
            t = -1
        elif kind == "param" or kind == "thread":
            step = r.choice((1, -1))
            lim = n if kind == "param" else fb.lop3(r.choice(pool), 7, RZ, LUT_AND)
            if step > 0:
                start, cmp, bound = 0, r.choice(("lt.u32", "ne.u32")), lim
            else:
                start, cmp, bound = lim, "gt.s32", 0
            t = -1
        else:
            t = 0 if kind == "zero" else r.choice(_TRIPS if depth == 0 else _TRIPS[:5])
            step = r.choice((1, 1, 2, 5, -1, -2, -3))
            start = r.randint(-20, 100)
            cmp, bound = _cmp_for(r, start, step, max(t, 1))
            if t >= 1:
                assert trip_count(start, step, cmp, bound, t + 1) == t
        if not test_next:
            # test the IV itself: continue while iv CMP bound - step
            if isinstance(bound, int):
                bound = bound - step
            else:
                test_next = True
        init = start if isinstance(start, SSAValue) else fb.mov(start)
        acc0 = r.choice(pool)
        # a top-tested loop guards itself; an extra guard in front of it now and
        # then (then its exit block has two predecessors)
        guard_zero = kind in ("zero", "param", "thread") and (rotated or r.random() < 0.3)
        header_val = not rotated and r.random() < 0.6
        pre = fb.current
        header = fb.block(r32, r32)
        exit_b = fb.block(r32, r32)
        fb.goto(header)
        if nounroll:
            fb.insert(PragmaOp("nounroll"))
            features["nounroll"] += 1
        iv, acc = header.args
        hv = acc
        if not rotated:
            features["top_tested"] += 1
            if header_val:
                # the header computes a value the body and the code after the
                # loop use (inversion must route it through both copies)
                features["header_value"] += 1
                hv = fb.iadd3(acc, iv, r.choice(pool))
            p = fb.isetp(iv, bound, PT, mods=cmp)
            body = fb.block()
            fb.bra(body, guard=p, fallthrough=exit_b, fallthrough_args=[iv, hv])
            fb.goto(body)
        v = body_ops(iv, hv, r.randint(1, 4))
        if multiblock:
            features["multiblock"] += 1
            q = fb.isetp(fb.lop3(v, 1, RZ, LUT_AND), 0, PT, mods="eq.u32")
            then_b, join = fb.block(), fb.block(r32)
            fb.bra(then_b, guard=q, fallthrough=join, fallthrough_args=[v])
            with fb.at(then_b):
                w = fb.iadd3(v, 0x55, iv)
                fb.bra(join, w)
            fb.goto(join)
            v = join.args[0]
        if depth == 0 and r.random() < 0.25:
            features["nested"] += 1
            saved_pool, saved_keep = len(pool), len(keep)
            pool.append(v)
            one_loop(depth + 1)
            v = fb.iadd3(v, pool[-1], keep[saved_keep])
            del pool[saved_pool:]
            del keep[saved_keep:]
        iv2 = fb.iadd3(iv, step, RZ)
        x = iv2 if (test_next or not rotated) else iv
        if rotated:
            lhs, rhs, c = (x, bound, cmp)
            if swap and isinstance(bound, SSAValue):
                features["swapped"] += 1
                sw = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "ne": "ne"}
                op_, sign = cmp.split(".")
                lhs, rhs, c = bound, x, f"{sw[op_]}.{sign}"
            p = fb.isetp(lhs, rhs, PT, mods=c)
            if negate and r.random() < 0.5:
                # the plop3 hides the compare: the unroller must reject (code 14)
                features["plop3_exit"] += 1
                np_ = fb.plop3(p, PT, PT, 0x0F)
                fb.bra(exit_b, iv2, v, guard=np_, fallthrough=header, fallthrough_args=[iv2, v])
            elif negate:
                features["negated"] += 1
                fb.bra(exit_b, iv2, v, guard=p, neg=True, fallthrough=header, fallthrough_args=[iv2, v])
            else:
                fb.bra(header, iv2, v, guard=p, fallthrough=exit_b, fallthrough_args=[iv2, v])
        else:
            fb.bra(header, iv2, v)
        latch_v = v
        with fb.at(pre):
            if guard_zero and rotated:
                if kind == "zero":
                    p0 = fb.isetp(init, init, PT, mods="ne.u32")  # never: 0 trips
                else:
                    # first trip runs when init + step passes the test (<= for ne)
                    first = fb.iadd3(init, step, RZ)
                    gc = cmp if not cmp.startswith("ne") else ("le.u32" if step > 0 else "ge.s32")
                    p0 = fb.isetp(first, bound, PT, mods=gc)
                fb.bra(header, init, acc0, guard=p0, fallthrough=exit_b, fallthrough_args=[init, acc0])
            else:
                fb.bra(header, init, acc0)
        fb.goto(exit_b)
        keep.extend(exit_b.args)
        pool.append(exit_b.args[1])
        if direct_use and not (guard_zero and rotated) and rotated:
            features["direct_use"] += 1
            keep.append(fb.iadd3(latch_v, 3, RZ))
        if not rotated and not guard_zero and direct_use:
            # the header dominates the exit: use its IV and value directly
            features["direct_use_top"] += 1
            keep.append(fb.iadd3(iv, 5, hv))

    for _ in range(r.randint(1, 4)):
        one_loop(0)
    h = fb.mov(0x9E3779B9)
    for i, v in enumerate(keep):
        h = fb.iadd3(h, v, RZ) if i % 2 == 0 else fb.lop3(h, v, RZ, LUT_XOR3)
        h = fb.shf(h, 7, h, mods="l.w.u32")
    fb.stg(obase, (SLOTS - 1) * 4, h)
    fb.exit()
    m = module(fb.func, target=target)
    m.verify()
    return GeneratedProgram(seed, m, name, features, GenOptions(target=target))


__all__ = ["generate_loops"]
