"""Random, well-formed Ori kernels for differential testing of passes.

::

    from ori_dialect.testing import generate, GenOptions

    prog = generate(7)                      # deterministic from the seed
    prog.module                             # builtin.module with the kernel (+ callees)
    prog.kernel                             # the kernel's symbol name
    inputs = prog.inputs(123)               # LaunchInputs: args, grid, block, shared_bytes
    inputs = prog.input_factory(np.random.default_rng(123))   # the same
    prog.features                           # Counter of generated constructs

Every generated kernel

* verifies (``module.verify()``) and round-trips through print/parse;
* terminates: all trip counts are bounded (constants, a kernel parameter
  ``n`` in ``0..MAX_N``, or a per-thread value masked to ``0..15``), and an
  estimated dynamic instruction count per thread stays within
  ``GenOptions.budget``;
* is deterministic whatever the order in which threads run: each thread
  stores only to its own ``SLOTS`` words of the output buffer, global
  atomics are commutative additions into a counter buffer whose returned
  old value is never used, shared memory is written and read between two
  CTA-wide barriers that all threads reach (barriers and warp shuffles are
  only placed at CTA-uniform control flow), and float values are kept finite
  (so no NaN reaches a comparison);
* writes a checksum of its live values to the output buffer at the end, so
  comparing the output buffers compares the computation.

Kernel parameters (in this order; ``LaunchInputs.args`` follows it):

====  ======  ==================================================
#     size    meaning
====  ======  ==================================================
0     8       ``out``: ``uint32[threads * SLOTS]`` (random initial contents)
1     8       ``inp``: ``uint32[IN_WORDS]`` read-only random data
2     8       ``cnt``: ``uint32[CNT_WORDS]`` atomic counters (zeros)
3     4       ``n``: trip count of parameter-bounded loops (``0..MAX_N``)
4     4       ``s``: a random 32-bit scalar
5     4       ``f``: a float32 scalar in ``[-100, 100]``
====  ======  ==================================================

Constructs (counted in :attr:`GeneratedProgram.features`, names in
:data:`FEATURES`): nested loops with constant trip counts 0, 1, 2, 3, odd,
37 and 1000, trip counts from the parameter ``n`` and per-thread ones,
counting down, an unsigned IV wrapping through 2**32 (``0xfffffff0`` up by 4,
``!=`` exit test), top-tested and rotated (guarded do-while) shapes,
loop-carried values and the IV used after the loop; if/else diamonds and
if-then triangles on per-thread (or uniform) predicates; guarded
instructions with tied prior values and guarded stores; loads (IMAD.WIDE or
LEA address arithmetic, immediate offsets, masked indices) and stores;
shared memory with BAR; SHFL; ATOM; FADD/FMUL/FFMA/FMNMX/I2F/F2I/FSETP;
calls of generated device functions; a register-pressure block of values all
computed up front and consumed at the end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Operation, SSAValue

from ori_dialect.builder import PT, RZ, FuncBuilder, cbank, module
from ori_dialect.ir.registers import pred, r32, r64, stack_pointer
from ori_dialect.ops.control import CallIndirectOp
from ori_dialect.ops.frame import FrameEnterOp, FrameLeaveOp, frame_size
from ori_dialect.ops.module_vars import AddrOp
from targets import get_target

# ----------------------------------------------------------------------------
# launch-facing constants
# ----------------------------------------------------------------------------
SLOTS = 8
"""Output words per thread (``out[gid * SLOTS + k]``); the last holds the checksum."""
FULL_MASK = 0xFFFFFFFF
"""The member mask of generated REDUX/MATCH: the whole warp (uniform regions)."""
IN_WORDS = 256
"""Words of the read-only input buffer (indices are masked to it)."""
CNT_WORDS = 16
"""Words of the atomic counter buffer."""
MAX_N = 24
"""Largest value of the trip-count parameter ``n``."""
MAX_THREAD_TRIP = 15
"""Largest per-thread trip count."""
TARGETS = ("sm_80", "sm_90", "sm_100")
"""Targets a program is generated for when ``GenOptions.target`` is None
(they differ in where constant bank 0 holds the parameters)."""

# parameter byte offsets within the parameter area
P_OUT, P_INP, P_CNT, P_N, P_S, P_F = 0x0, 0x8, 0x10, 0x18, 0x1C, 0x20
PARAMS = [(8, 8), (8, 8), (8, 8), (4, 4), (4, 4), (4, 4)]

TRIP_CLASSES: dict[str, tuple[int, ...]] = {
    "0": (0,),
    "1": (1,),
    "2": (2,),
    "3": (3,),
    "odd": (5, 7, 9, 11),
    "37": (37,),
    "1000": (1000,),
}

FEATURES = (
    "loop",
    *(f"loop_trip_{c}" for c in TRIP_CLASSES),
    "loop_param",
    "loop_thread",
    "loop_down",
    "loop_wrap",
    "loop_nested",
    "loop_rotated",
    "loop_top_tested",
    "loop_carried",
    "iv_after_loop",
    "diamond",
    "triangle",
    "uniform_branch",
    "guard",
    "guarded_store",
    "guarded_load",
    "select",
    "ldg",
    "ldg_offset",
    "lea",
    "imad_wide",
    "stg",
    "shared",
    "bar",
    "shfl",
    "warp",
    "atomic",
    "float",
    "fsetp",
    "call",
    "call_indirect",
    "const_arg",
    "edge_const",
    "ptr_halves",
    "pressure",
    "local",
)
"""Every construct name :attr:`GeneratedProgram.features` may count."""
OPT_IN_FEATURES: frozenset[str] = frozenset({"call_indirect", "const_arg", "local"})
"""Features only an option that is off by default produces (``abi_calls``,
``frames``)."""
EDGE_CONST_P = 0.12
"""How often a value joined at an if/else join is an entry-block immediate
instead (``edge_const``)."""
PTR_HALVES_P = 0.3
"""How often a load with an immediate offset is also made through a
pointer stepped in halves (``ptr_halves``)."""
FRAME_WORDS = 4
"""Words of a generated function's local array (GenOptions.frames)."""


@dataclass(frozen=True)
class GenOptions:
    """Size and feature knobs of :func:`generate`."""

    max_depth: int = 3
    """Deepest nesting of loops and branches."""
    max_stmts: int = 5
    """Most statements per top-level region (nested regions get fewer)."""
    budget: int = 5000
    """Estimated dynamic instructions per thread (trip counts multiplied)."""
    pressure: int | None = None
    """Values computed up front and all consumed at the end; None picks one of
    0, 8, 24, 48 at random."""
    remat_pressure: int = 0
    """Values that rematerialization can relieve: computed up front from
    inputs that stay live to the end anyway (kernel parameters read from the
    constant bank, the global thread id, a parameter pointer) or from
    constants alone -- one instruction, a chain of two, a constant-bank load,
    a 64-bit address --, about a third of them also read by the body (so they
    are live across its loops and branches), all consumed at the end.  0 (the
    default) generates none and draws no random number, so every program of
    the other options is unchanged."""
    floats: bool = True
    calls: bool = True
    abi_calls: bool = False
    """Calling-convention stress (issue 17): every program has device
    functions, with 1 to 14 parameters (more than the twelve parameter
    registers R4-R15: the rest go to the stack), a later device function
    may call an earlier one (return-address saves), and about a third of
    the calls go through a function pointer (``ori.addr`` +
    ``ori.call_indirect``).  Off by default: the other options' programs
    stay as they are."""
    frames: bool = False
    """Local arrays per activation (ops/frame.py): the kernel and every
    device function own a 16-byte frame (``ori.frame_enter``, and
    ``ori.frame_leave`` before a device function's RET), fill it at entry
    and store to and load from it at fixed offsets (``[R1 + 4k]``) and
    through a computed address (``frame_addr`` + masked index), so a
    callee whose frame overlapped its caller's changes the result.  Off by
    default: the other options' programs stay as they are."""
    shared: bool = True
    shfl: bool = True
    warp: bool = True
    """Warp reductions and matches (REDUX, MATCH) in uniform regions."""
    atomics: bool = True
    large_loops: bool = True
    """Allow 1000-trip loops (they still have to fit the budget)."""
    iv_arith: bool = False
    """Address-like arithmetic on loop IVs (``ori-strength-reduce``'s
    input): each loop body starts with one to three affine values of its
    IV and a value from outside the loop -- ``IMAD iv, K, x``, ``SHL`` or
    ``SHF.L`` then ``IADD3``, ``LEA``, and a pair ``(iv << k) + x + K1``,
    ``(iv << k) + x + K2`` that differ by a constant -- which the body's
    statements then read.  Off by default: the other options' programs stay
    as they are."""
    target: str | None = None
    """SM target; None picks one of :data:`TARGETS`."""


@dataclass(frozen=True)
class LaunchInputs:
    """One launch of a generated kernel: ``run_kernel(m, kernel, grid, block,
    list(args), shared_bytes)``.  ``seed`` names the random draw (reports)."""

    args: tuple[Any, ...]
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int = 0
    seed: int | None = None

    @property
    def threads(self) -> int:
        return int(np.prod(self.grid)) * int(np.prod(self.block))


def make_inputs(rng: np.random.Generator, *, seed: int | None = None) -> LaunchInputs:
    """Random inputs for a kernel with the generator's parameter list."""
    block = int(rng.choice([32, 64, 128]))
    grid = int(rng.choice([1, 1, 2]))
    threads = block * grid
    out = rng.integers(0, 2**32, size=threads * SLOTS, dtype=np.uint64).astype(np.uint32)
    inp = rng.integers(0, 2**32, size=IN_WORDS, dtype=np.uint64).astype(np.uint32)
    # Small values (and the special 0, 1, 0xffffffff) make comparisons interesting.
    small = rng.random(IN_WORDS) < 0.3
    inp[small] = rng.choice(np.array([0, 1, 2, 3, 31, 32, 0xFFFFFFFF], dtype=np.uint32),
                            size=int(small.sum()))
    cnt = np.zeros(CNT_WORDS, dtype=np.uint32)
    r = rng.random()
    n = 0 if r < 0.15 else 1 if r < 0.3 else int(rng.integers(0, MAX_N + 1))
    s = int(rng.integers(0, 2**32))
    f = float(np.float32(rng.uniform(-100.0, 100.0)))
    return LaunchInputs(
        args=(out, inp, cnt, np.uint32(n), np.uint32(s), np.float32(f)),
        grid=(grid, 1, 1),
        block=(block, 1, 1),
        shared_bytes=block * 4,
        seed=seed,
    )


@dataclass
class GeneratedProgram:
    """The result of :func:`generate`."""

    seed: int
    module: ModuleOp
    kernel: str
    features: Counter[str]
    options: GenOptions
    est_cost: int = 0
    """Estimated dynamic instructions per thread."""
    input_factory: Callable[[np.random.Generator], LaunchInputs] = field(default=make_inputs)
    """``input_factory(rng)``: random inputs plus grid/block for one launch."""

    def inputs(self, seed: int) -> LaunchInputs:
        """The launch drawn from ``np.random.default_rng(seed)`` (seed recorded)."""
        li = self.input_factory(np.random.default_rng(seed))
        return replace(li, seed=seed)

    def __iter__(self) -> Iterator[Any]:  # (module, kernel, input_factory) unpacking
        return iter((self.module, self.kernel, self.input_factory))


# ----------------------------------------------------------------------------
# generation
# ----------------------------------------------------------------------------


def _lut(f: Callable[[int, int, int], int]) -> int:
    return sum(1 << i for i in range(8) if f((i >> 2) & 1, (i >> 1) & 1, i & 1))


LUT_AND = _lut(lambda a, b, c: a & b)
LUT_XOR3 = _lut(lambda a, b, c: a ^ b ^ c)
_INT_CMPS = ("lt", "le", "gt", "ge", "eq", "ne")
_FLOAT_CONSTS = (0.5, -1.25, 3.0, 0.1, 2.0, -0.75, 1.5)
_CLAMP = 1.0e6
_CLAMP_AT = 1.0e12


def trip_count(start: int, step: int, cmp: str, bound: int, limit: int) -> int:
    """How often a loop ``for (i = start; i CMP bound; i += step)`` runs on
    32-bit registers (at most ``limit``): the generator's own check that a
    constant trip count is what it claims."""
    op, sign = cmp.split(".")

    def val(x: int) -> int:
        x &= 0xFFFFFFFF
        return x - (1 << 32) if sign == "s32" and x >= 1 << 31 else x

    tests = {"lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__,
             "ne": int.__ne__, "eq": int.__eq__}
    i, n = start, 0
    while n < limit and tests[op](val(i), val(bound)):
        i, n = i + step, n + 1
    return n


@dataclass
class _V:
    """A value of the generator's pool: an int word or a finite float (``bound``
    is an upper bound of its magnitude)."""

    v: SSAValue
    is_float: bool = False
    bound: float = 0.0


@dataclass
class _Callee:
    name: str
    nargs: int
    nres: int
    cost: int


class _FuncGen:
    """Generates the body of one function into ``fb``."""

    def __init__(
        self,
        rng: random.Random,
        fb: FuncBuilder,
        opts: GenOptions,
        features: Counter[str],
        *,
        kernel: bool,
        callees: Sequence[_Callee] = (),
        budget: int,
    ) -> None:
        self.rng = rng
        self.fb = fb
        self.opts = opts
        self.features = features
        self.kernel = kernel
        self.callees = list(callees)
        self.budget = budget
        self.cost = 0
        self.mult = 1
        self.depth = 0
        self.uniform = True
        self.pool: list[_V] = []
        self.keep: list[SSAValue] = []  # consumed by the final checksum
        self.uniform_vals: list[SSAValue] = []
        self.tid: SSAValue | None = None
        self.ntid: SSAValue | None = None
        self.n: SSAValue | None = None
        self.obase: SSAValue | None = None
        self.inp: SSAValue | None = None
        self.cnt: SSAValue | None = None
        self.frame = False
        # immediates defined at the function's entry and passed to calls
        # (GenOptions.abi_calls): ori-abi recomputes them at each call
        # (passes/abi/constant_args.py).  Their own generator, so that
        # programs keep every other choice they had (seeded from the main
        # generator's state words without drawing from it; not the whole
        # state, whose None has no stable hash on Python 3.11).
        self.const_rng = random.Random(hash(rng.getstate()[1]))
        self.call_consts: list[SSAValue] = []
        # immediates defined at the function's entry and joined into block
        # arguments (if/else joins): what LICM leaves for CUB's histogram
        # bins, which ori-regalloc writes at each edge instead
        # (passes/regalloc/edge_constants.py).  Their own generator too
        # (an int mixed in: a str's hash changes between processes).
        self.edge_rng = random.Random(hash(rng.getstate()[1]) ^ 0x9E3779B9)
        self.edge_consts: list[SSAValue] = []
        # load addresses stepped in 32-bit halves (``ptr_halves``); their
        # own generator, and their ops add no cost, so that every other
        # choice of a program stays as it was
        self.halves_rng = random.Random(hash(rng.getstate()[1]) ^ 0x7F4A7C15)

    # ---- emission helpers ---------------------------------------------
    def op(self, name: str, *srcs: Any, **kw: Any) -> Any:
        self.cost += self.mult
        return getattr(self.fb, name)(*srcs, **kw)

    def bra(self, dest: Block, *args: SSAValue, **kw: Any) -> None:
        self.cost += self.mult
        self.fb.bra(dest, *args, **kw)

    def left(self) -> int:
        return self.budget - self.cost

    def ints(self) -> list[_V]:
        return [x for x in self.pool if not x.is_float]

    def floats(self) -> list[_V]:
        return [x for x in self.pool if x.is_float]

    def pick(self) -> SSAValue:
        ints = self.ints()
        # Prefer recent values: chains of dependent instructions.
        if self.rng.random() < 0.6:
            return self.rng.choice(ints[-6:]).v
        return self.rng.choice(ints).v

    def pickf(self) -> _V:
        fl = self.floats()
        return self.rng.choice(fl[-4:]) if self.rng.random() < 0.6 else self.rng.choice(fl)

    def add(self, v: SSAValue) -> SSAValue:
        self.pool.append(_V(v))
        return v

    def addf(self, v: SSAValue, bound: float) -> _V:
        x = _V(v, True, bound)
        if bound > _CLAMP_AT:
            a = self.op("fmnmx", v, _CLAMP, PT)
            b = self.op("fmnmx", a, -_CLAMP, PT, smods={"sel": "not"})
            x = _V(b, True, _CLAMP)
        self.pool.append(x)
        return x

    def imm(self) -> int:
        r = self.rng.random()
        if r < 0.4:
            return self.rng.randint(-8, 8)
        if r < 0.7:
            return self.rng.choice((0xFF, 0xFFFF, 0x7FFFFFFF, -0x80000000, 31, 32, 0x10))
        return self.rng.randint(-(2**31), 2**31 - 1)

    def operand(self) -> Any:
        return self.imm() if self.rng.random() < 0.35 else self.pick()

    def pred(self, *, uniform: bool = False) -> SSAValue:
        """A predicate; a CTA-uniform one when ``uniform`` (from the scalar parameters)."""
        cmp = self.rng.choice(_INT_CMPS)
        sign = self.rng.choice(("s32", "u32"))
        if uniform:
            a = self.rng.choice(self.uniform_vals)
            b: Any = self.rng.randint(0, MAX_N)
        elif self.rng.random() < 0.5:
            # low bits of a value: both outcomes are likely
            a = self.op("lop3", self.pick(), self.rng.choice((1, 3, 7)), RZ, LUT_AND)
            b = self.rng.randint(0, 3)
        else:
            a = self.pick()
            b = self.operand()
        return self.op("isetp", a, b, PT, mods=f"{cmp}.{sign}")

    # ---- statements -----------------------------------------------------
    def int_op(self, **kw: Any) -> SSAValue:
        """One random integer instruction on pool values (``kw``: guard/prior)."""
        r = self.rng
        k = r.randrange(15)
        a = self.pick()
        if k == 0:
            sm = {"a": "neg"} if r.random() < 0.2 else None
            return self.op("iadd3", a, self.operand(), r.choice([RZ, self.pick()]), smods=sm, **kw)
        if k == 1:
            return self.op("imad", a, self.operand(), r.choice([RZ, self.pick()]), **kw)
        if k == 2:
            return self.op("imad", a, self.operand(), r.choice([RZ, self.pick()]), mods=r.choice(("hi.u32", "hi")), **kw)
        if k == 3:
            return self.op("lop3", a, self.operand(), r.choice([RZ, self.pick()]), r.randrange(256), **kw)
        if k == 4:
            mods = r.choice(("l.w.u32", "r.w.u32", "l.u32", "r.s32", "r.w.u32.hi", "l.w.u64"))
            return self.op("shf", a, r.randrange(32), self.pick(), mods=mods, **kw)
        if k == 5:
            return self.op("shl", a, r.randrange(32), **kw)
        if k == 6:
            return self.op("shr", a, r.randrange(32), mods=r.choice(("u32", "", "w")), **kw)
        if k == 7:
            sel: dict[str, str] | None = {"sel": "not"} if r.random() < 0.5 else None
            return self.op("imnmx", a, self.operand(), PT, smods=sel, mods=r.choice(("u32", "")), **kw)
        if k == 8:
            return self.op(r.choice(("iabs", "popc", "brev")), a, **kw)
        if k == 9:
            return self.op("flo", a, mods=r.choice(("", "sh", "s32")), **kw)
        if k == 10:
            return self.op("prmt", a, r.randrange(0x10000), self.pick(), **kw)
        if k == 11:
            self.features["lea"] += 1
            return self.op("lea", a, self.operand(), r.randrange(32), **kw)
        if k == 12:
            if "guard" in kw:
                return self.op("mov", self.operand(), **kw)
            self.features["select"] += 1
            return self.op("sel", a, self.operand(), self.pred())
        if k == 13:
            return self.op("bmsk", a, self.operand(), mods="w", **kw)
        return self.op("mov", self.operand(), **kw)

    def s_arith(self) -> None:
        for _ in range(self.rng.randint(1, 3)):
            self.add(self.int_op())

    def s_guard(self) -> None:
        self.features["guard"] += 1
        p = self.pred()
        neg = self.rng.random() < 0.4
        prior = self.pick()
        self.add(self.int_op(guard=p, guard_neg=neg, prior=[prior]))

    def s_store(self) -> None:
        assert self.obase is not None
        slot = self.rng.randrange(SLOTS - 1)
        v = self.pick() if not self.floats() or self.rng.random() < 0.8 else self.pickf().v
        if self.rng.random() < 0.25:
            self.features["guarded_store"] += 1
            self.op("stg", self.obase, slot * 4, v, guard=self.pred(), guard_neg=self.rng.random() < 0.5)
        else:
            self.op("stg", self.obase, slot * 4, v)
        self.features["stg"] += 1

    def load_addr(self, base: SSAValue, words: int) -> tuple[SSAValue, int]:
        """A 64-bit address ``base + 4 * (index masked into [0, words))`` and an
        immediate byte offset to add to it."""
        r = self.rng
        if r.random() < 0.3:
            self.features["ldg_offset"] += 1
            half = words // 2
            idx = self.op("lop3", self.pick(), half - 1, RZ, LUT_AND)
            off = 4 * r.randrange(half)
        else:
            idx = self.op("lop3", self.pick(), words - 1, RZ, LUT_AND)
            off = 0
        if r.random() < 0.3:
            self.features["lea"] += 1
            boff = self.op("lea", idx, 0, 2)
            addr = self.op("imad", boff, 1, base, mods="wide.u32", types=[r64])
        else:
            addr = self.op("imad", idx, 4, base, mods="wide.u32", types=[r64])
        self.features["imad_wide"] += 1
        return addr, off

    def s_load(self) -> None:
        assert self.inp is not None
        addr, off = self.load_addr(self.inp, IN_WORDS)
        self.features["ldg"] += 1
        if off and self.halves_rng.random() < PTR_HALVES_P:
            self._halves_load(addr, off)
        if self.rng.random() < 0.2:
            self.features["guarded_load"] += 1
            self.add(self.op("ldg", addr, off, guard=self.pred(), prior=[self.pick()]))
        else:
            self.add(self.op("ldg", addr, off))

    def _halves_load(self, addr: SSAValue, off: int) -> None:
        """``addr + off`` formed in 32-bit halves and packed for a load,
        then ``addr`` again from those halves (a subtraction with borrow),
        packed for a second load: a pointer stepped the way unrolled copy
        loops step theirs, whose halves are read again after their PACK
        (``ori-regalloc{pack-parts}``).  Emitted without cost (the budget's
        other choices stay as they were)."""
        self.features["ptr_halves"] += 1
        fb = self.fb
        lo, hi = fb.unpack(addr, types=[r32, r32]).results
        l1, c1 = fb.iadd3(lo, off, RZ, types=[r32, pred]).results
        h1 = fb.iadd3(hi, RZ, RZ, c1, mods="x")
        self.add(fb.ldg(fb.pack(l1, h1, types=[r64]), 0))
        l2, c2 = fb.iadd3(l1, -off, RZ, types=[r32, pred]).results
        h2 = fb.iadd3(h1, -1, RZ, c2, mods="x")
        self.add(fb.ldg(fb.pack(l2, h2, types=[r64]), off))

    def s_atomic(self) -> None:
        assert self.cnt is not None
        addr, off = self.load_addr(self.cnt, CNT_WORDS)
        self.features["atomic"] += 1
        self.op("atom", addr, off, self.pick(), mods="add.u32")  # old value unused

    def new_float(self) -> None:
        r = self.rng
        masked = self.op("lop3", self.pick(), 0xFFFF, RZ, LUT_AND)
        self.addf(self.op("i2f", masked, mods=r.choice(("f32.u32", "f32.s32", "f32.u32.rz"))), 65535.0)

    def s_float(self) -> None:
        self.features["float"] += 1
        r = self.rng
        if not self.floats() or r.random() < 0.2:
            self.new_float()
        for _ in range(r.randint(1, 3)):
            a = self.pickf()
            k = r.randrange(6)
            if k == 0:
                b = self.pickf()
                self.addf(self.op("fadd", a.v, b.v), a.bound + b.bound)
            elif k == 1:
                c = r.choice(_FLOAT_CONSTS)
                self.addf(self.op("fmul", a.v, c), a.bound * abs(c))
            elif k == 2:
                b = self.pickf()
                self.addf(self.op("fmul", a.v, b.v), a.bound * b.bound)
            elif k == 3:
                b, c = self.pickf(), self.pickf()
                self.addf(self.op("ffma", a.v, b.v, c.v), a.bound * b.bound + c.bound)
            elif k == 4:
                b = self.pickf()
                sm = {"sel": "not"} if r.random() < 0.5 else None
                self.addf(self.op("fmnmx", a.v, b.v, PT, smods=sm), max(a.bound, b.bound))
            else:
                self.add(self.op("f2i", a.v, mods=r.choice(("s32.f32.rz", "s32.f32", "u32.f32.rz"))))

    def s_shared(self) -> None:
        assert self.tid is not None and self.ntid is not None
        self.features["shared"] += 1
        self.features["bar"] += 2
        r = self.rng
        sa = self.op("lea", self.tid, 0, 2)
        self.op("sts", sa, 0, self.pick())
        self.op("bar", 0)
        mask = self.op("iadd3", self.ntid, -1, RZ)
        j = self.op("iadd3", self.tid, r.randint(1, 127), RZ)
        j = self.op("lop3", j, mask, RZ, LUT_AND)
        ja = self.op("lea", j, 0, 2)
        self.add(self.op("lds", ja, 0))
        self.op("bar", 0)

    def s_shfl(self) -> None:
        self.features["shfl"] += 1
        r = self.rng
        mode = r.choice(("bfly", "down", "up", "idx"))
        lane: Any = r.choice((1, 2, 4, 8, 16)) if mode != "idx" else r.choice(
            (r.randrange(32), self.op("lop3", self.pick(), 31, RZ, LUT_AND)))
        clamp = 0 if mode == "up" else 0x1F
        self.add(self.op("shfl", self.pick(), lane, clamp, mods=mode))

    def s_warp(self) -> None:
        """REDUX or MATCH where the whole CTA runs together (``uniform``), so
        every warp's lanes all take part, as the PTX member mask requires."""
        self.features["warp"] += 1
        r = self.rng
        kind = r.choice(("sum", "min.s32", "max", "", "or", "xor", "any", "all"))
        if kind in ("any", "all"):
            # few distinct values, so that lanes do match
            v = self.op("lop3", self.pick(), r.choice((1, 3)), RZ, LUT_AND)
            self.add(self.op("match", v, FULL_MASK, mods=kind))
        else:
            self.add(self.op("redux", self.pick(), FULL_MASK, mods=kind))

    def s_call_any(self) -> None:
        """A call of the cheapest callee whatever the budget says."""
        self._call(min(self.callees, key=lambda c: c.cost))

    def s_call(self) -> None:
        self._call(self.rng.choice(
            [c for c in self.callees if c.cost * self.mult <= self.left()]))

    def _call(self, c: _Callee) -> None:
        self.features["call"] += 1
        self.cost += c.cost * self.mult
        args = [self.pick() for _ in range(c.nargs)]
        if self.opts.abi_calls and self.const_rng.random() < 0.3:
            args[self.const_rng.randrange(len(args))] = self._call_const()
        if self.opts.abi_calls and self.rng.random() < 0.35:
            self.features["call_indirect"] += 1  # "call" counts it too (above)
            fp = self.fb.insert(AddrOp(c.name)).res
            op = CallIndirectOp(fp, args, [r32] * c.nres)
            self.fb.insert(op)
            res = op.results[0] if c.nres == 1 else op
        else:
            res = self.fb.call(c.name, *args, results=[r32] * c.nres)
        for v in [res] if c.nres == 1 else res.results:
            self.add(v)

    def _call_const(self) -> SSAValue:
        """An immediate from the function's entry block, read only by call
        arguments (one of at most two): it lives across every call between
        there and its readers unless ``ori-abi`` recomputes it."""
        self.features["const_arg"] += 1
        if len(self.call_consts) < 2 and (not self.call_consts or self.const_rng.random() < 0.5):
            self.call_consts.append(
                self._entry_const(self.const_rng.randrange(-(1 << 31), 1 << 31)))
        return self.const_rng.choice(self.call_consts)

    # ---- the activation's local array (GenOptions.frames) ----------------
    def open_frame(self) -> None:
        """Fill the array (every word written before any read)."""
        self.frame = True
        for k in range(FRAME_WORDS):
            self.op("stl", stack_pointer(), 4 * k, self.pick())

    def s_local(self) -> None:
        r = self.rng
        self.features["local"] += 1
        if r.random() < 0.6:  # a fixed offset: [R1 + 4k]
            k = r.randrange(FRAME_WORDS)
            if r.random() < 0.5:
                self.op("stl", stack_pointer(), 4 * k, self.pick())
            else:
                self.add(self.op("ldl", stack_pointer(), 4 * k))
            return
        # a computed address: R1 + 4 * (v & 3)
        idx = self.op("lop3", self.pick(), FRAME_WORDS - 1, RZ, LUT_AND)
        a = self.op("lea", idx, self.op("frame_addr", 0), 2)
        if r.random() < 0.5:
            self.op("stl", a, 0, self.pick())
        else:
            self.add(self.op("ldl", a, 0))

    def close_frame(self, end: Operation | None) -> None:
        """``frame_enter`` first in the entry block, ``frame_leave`` before
        ``end`` (a device function's RET)."""
        size = frame_size(4 * FRAME_WORDS)
        self.fb.func.attributes["ori.local_bytes"] = IntegerAttr(4 * FRAME_WORDS, i32)
        entry = self.fb.entry
        assert entry.first_op is not None
        entry.insert_op_before(FrameEnterOp.make([size]), entry.first_op)
        if end is not None:
            blk = end.parent_block()
            assert blk is not None
            blk.insert_op_before(FrameLeaveOp.make([size]), end)

    # ---- control flow --------------------------------------------------
    def region(self, n: int) -> None:
        for _ in range(n):
            if self.left() < 4 * self.mult:  # not even a short statement fits
                break
            self.stmt()

    def n_stmts(self) -> int:
        hi = max(1, self.opts.max_stmts - self.depth)
        return self.rng.randint(1, hi)

    def stmt(self) -> None:
        r = self.rng
        kinds: list[tuple[Callable[[], None], float]] = [(self.s_arith, 4.0), (self.s_guard, 1.5)]
        if self.kernel:
            kinds += [(self.s_load, 1.5), (self.s_store, 1.5)]
            if self.opts.atomics:
                kinds.append((self.s_atomic, 0.4))
            if self.opts.floats:
                kinds.append((self.s_float, 1.2))
            if self.uniform and self.opts.shared:
                kinds.append((self.s_shared, 0.6))
            if self.uniform and self.opts.shfl:
                kinds.append((self.s_shfl, 0.6))
            if self.uniform and self.opts.warp:
                kinds.append((self.s_warp, 0.4))
        # a device function has callees only under abi_calls (the earlier
        # ones): its calls exercise the callee saves (regalloc/callee_saves.py)
        if any(c.cost * self.mult <= self.left() for c in self.callees):
            kinds.append((self.s_call, 0.6))
        if self.frame:
            kinds.append((self.s_local, 0.8))
        if self.depth < self.opts.max_depth and self.left() > 40 * self.mult:
            kinds += [(self.s_branch, 1.5), (self.s_loop, 2.2)]
        fns, weights = zip(*kinds)
        r.choices(fns, weights)[0]()

    def scoped(self, body: Callable[[], None], *, uniform: bool, mult: int) -> None:
        """Run ``body`` one nesting level down; the pool is restored afterwards."""
        saved = (list(self.pool), self.uniform, self.mult, self.depth, len(self.keep))
        self.uniform = self.uniform and uniform
        self.mult = mult
        self.depth += 1
        body()
        kept = self.keep[saved[4]:]
        if kept and self.obase is not None:
            # values that must be used but do not reach the end: store them here
            self.op("stg", self.obase, self.rng.randrange(SLOTS - 1) * 4, self.checksum(kept))
        del self.keep[saved[4]:]
        self.pool, self.uniform, self.mult, self.depth = saved[0], saved[1], saved[2], saved[3]

    def merge_values(self, k: int) -> list[_V]:
        """``k`` pool values to carry to a join (ints; a float now and then)."""
        out: list[_V] = []
        for _ in range(k):
            if self.floats() and self.rng.random() < 0.2:
                out.append(self.pickf())
            else:
                v = self.pick()
                if self.edge_rng.random() < EDGE_CONST_P:
                    v = self._edge_const()
                out.append(_V(v))
        return out

    def _entry_const(self, value: int) -> SSAValue:
        """``MOV value`` placed first in the function's entry block."""
        v = self.fb.mov(value)
        op = v.owner
        assert isinstance(op, Operation)
        op.detach()
        entry = self.fb.entry
        if entry.first_op is not None:
            entry.insert_op_before(op, entry.first_op)
        else:
            entry.add_op(op)
        return v

    def _edge_const(self) -> SSAValue:
        """One of at most two entry-block immediates (-1, 0 or any word),
        joined into a block argument (``edge_const``)."""
        self.features["edge_const"] += 1
        if len(self.edge_consts) < 2 and (not self.edge_consts or self.edge_rng.random() < 0.5):
            word = self.edge_rng.choice((-1, 0, self.edge_rng.randrange(-(1 << 31), 1 << 31)))
            self.edge_consts.append(self._entry_const(word))
        return self.edge_rng.choice(self.edge_consts)

    def s_branch(self) -> None:
        r = self.rng
        fb = self.fb
        uni = self.uniform and r.random() < 0.3
        if uni:
            self.features["uniform_branch"] += 1
        if not uni and self.floats() and r.random() < 0.25:
            self.features["fsetp"] += 1
            a, b = self.pickf(), self.pickf()
            p = self.op("fsetp", a.v, b.v, PT, mods=r.choice(("lt", "ge", "ne", "eq", "gt")))
        else:
            p = self.pred(uniform=uni)
        neg = r.random() < 0.3
        k = r.randint(0, 3)
        head = fb.current
        then_b = fb.block()
        triangle = r.random() < 0.35
        outs: dict[str, list[_V]] = {}

        def arm(name: str) -> Callable[[], None]:
            def body() -> None:
                self.region(self.n_stmts())
                outs[name] = self.merge_values(k)
            return body

        fb.goto(then_b)
        self.scoped(arm("then"), uniform=uni, mult=self.mult)
        then_end = fb.current
        else_b: Block | None = None
        if triangle:
            self.features["triangle"] += 1
            outs["else"] = self.merge_values(k)  # values from before the branch
        else:
            self.features["diamond"] += 1
            else_b = fb.block()
            fb.goto(else_b)
            self.scoped(arm("else"), uniform=uni, mult=self.mult)
            else_end = fb.current
        types = [r32] * k
        join = fb.block(*types)
        bounds = [max(a.bound, b.bound) for a, b in zip(outs["then"], outs["else"])]
        isf = [a.is_float and b.is_float for a, b in zip(outs["then"], outs["else"])]
        with fb.at(then_end):
            self.bra(join, *[x.v for x in outs["then"]])
        if else_b is not None:
            with fb.at(else_end):
                self.bra(join, *[x.v for x in outs["else"]])
            with fb.at(head):
                self.bra(then_b, guard=p, neg=neg, fallthrough=else_b)
        else:
            with fb.at(head):
                self.bra(then_b, guard=p, neg=neg, fallthrough=join,
                         fallthrough_args=[x.v for x in outs["else"]])
        fb.goto(join)
        for a, f, b in zip(join.args, isf, bounds):
            if f:
                self.pool.append(_V(a, True, b))
            else:
                self.add(a)

    def choose_trip(self) -> tuple[str, int]:
        """A constant trip-count class and value that fit the budget."""
        r = self.rng
        classes = list(TRIP_CLASSES)
        if not self.opts.large_loops:
            classes.remove("1000")
        weights = {"0": 1.0, "1": 1.0, "2": 1.2, "3": 1.2, "odd": 1.5, "37": 0.8, "1000": 0.6}
        while True:
            cls = r.choices(classes, [weights[c] for c in classes])[0]
            t = r.choice(TRIP_CLASSES[cls])
            # a loop costs at least its IV update, test and branch per trip
            per_trip = 4 if t >= 1000 else 12
            if t <= 3 or self.mult * t * per_trip <= self.left():
                return cls, t
            classes.remove(cls)

    def s_loop(self) -> None:
        r = self.rng
        fb = self.fb
        self.features["loop"] += 1
        if self.depth > 0 and self.mult > 1:
            self.features["loop_nested"] += 1
        # ---- trip count: (start, step, cmp, bound, max trips, uniform) ----
        kind = r.choices(("const", "param", "thread"), (3.0, 1.0 if self.n is not None else 0.0, 1.0))[0]
        if kind == "thread" and self.mult * MAX_THREAD_TRIP * 12 > self.left():
            kind = "const"
        if kind == "param" and self.mult * MAX_N * 12 > self.left():
            kind = "const"
        down = r.random() < 0.3
        uni = True
        bound: Any
        if kind == "const":
            cls, t = self.choose_trip()
            self.features[f"loop_trip_{cls}"] += 1
            maxt = t
            if t >= 5 and r.random() < 0.2:
                self.features["loop_wrap"] += 1
                start, step, cmp = 0xFFFFFFF0, 4, "ne.u32"
                bound = (start + 4 * t) & 0xFFFFFFFF
                down = False
            elif down:
                step = -r.choice((1, 1, 2, 3))
                end = r.randint(-20, 20)
                start = end - t * step
                cmp, bound = r.choice((("gt.s32", end), ("ne.u32", end), ("ge.s32", end + 1)))
            else:
                step = r.choice((1, 1, 2, 5))
                start = r.randint(-10, 100)
                end = start + t * step
                cmp, bound = r.choice((("lt.s32", end), ("ne.s32", end), ("le.s32", end - 1)))
                if cmp == "lt.s32" and start >= 0 and r.random() < 0.5:
                    cmp = "lt.u32"  # same trips: no value involved is negative
        elif kind == "param":
            assert self.n is not None
            self.features["loop_param"] += 1
            maxt = MAX_N
            if down:
                start, step = self.n, -1
                cmp, bound = r.choice((("gt.s32", 0), ("ne.u32", 0)))
            else:
                start, step = 0, 1
                cmp, bound = r.choice((("lt.u32", self.n), ("ne.u32", self.n)))
        else:
            self.features["loop_thread"] += 1
            uni = False
            maxt = MAX_THREAD_TRIP
            m = self.op("lop3", self.pick(), r.choice((3, 7, MAX_THREAD_TRIP)), RZ, LUT_AND)
            if down:
                start, step = m, -1
                cmp, bound = "gt.s32", 0
            else:
                start, step = 0, 1
                cmp, bound = r.choice((("lt.u32", m), ("ne.u32", m)))
        if kind == "const":
            assert trip_count(start, step, cmp, bound, t + 1) == t, (start, step, cmp, bound, t)
        if down:
            self.features["loop_down"] += 1
        init = start if isinstance(start, SSAValue) else self.op("mov", start)

        # ---- carried values ----
        k_max = 3
        while k_max and self.mult * maxt * (4 + k_max) > self.left():
            k_max -= 1  # each carried value costs an update per trip
        carried = self.merge_values(r.randint(0, k_max))
        if carried:
            self.features["loop_carried"] += 1
        incs: list[_V | None] = []
        for c in carried:
            incs.append(self.pickf() if c.is_float else None)
        n_car = len(carried)
        body_bounds = [
            c.bound + (inc.bound * 3.0 * maxt if inc is not None else 0.0)
            for c, inc in zip(carried, incs)
        ]
        types = [r32] * (1 + n_car)
        rotated = r.random() < 0.5
        pre = fb.current

        def cond(v: SSAValue) -> SSAValue:
            return self.op("isetp", v, bound, PT, mods=cmp)

        header = fb.block(*types)
        if rotated:
            self.features["loop_rotated"] += 1
            could_skip = not (kind == "const" and maxt > 0 and r.random() < 0.7)
        else:
            self.features["loop_top_tested"] += 1
            could_skip = False
        # body (== header for the rotated shape)
        body = header if rotated else fb.block()
        fb.goto(body)
        new_vals: list[SSAValue] = []

        def gen_body() -> None:
            iv = header.args[0]
            outside = self.pick() if self.opts.iv_arith else None  # before the loop's values
            self.add(iv)
            if outside is not None:
                self.iv_arith(iv, outside)
            for a, c, b in zip(header.args[1:], carried, body_bounds):
                if c.is_float:
                    self.pool.append(_V(a, True, b))
                else:
                    self.add(a)
            self.region(self.n_stmts())
            for a, c, inc in zip(header.args[1:], carried, incs):
                if inc is not None:
                    new_vals.append(self.op("ffma", inc.v, r.choice((0.5, -1.25, 3.0)), a))
                else:
                    x = r.choice((iv, self.pick()))
                    k = r.randrange(3)
                    if k == 0:
                        new_vals.append(self.op("iadd3", a, x, RZ))
                    elif k == 1:
                        new_vals.append(self.op("lop3", a, x, RZ, LUT_XOR3))
                    else:
                        new_vals.append(self.op("imad", a, r.randint(1, 99) | 1, x))
            iv2 = self.op("iadd3", iv, step, RZ)
            new_vals.insert(0, iv2)

        mult = self.mult * max(maxt, 1)
        self.scoped(gen_body, uniform=uni, mult=mult)
        latch = fb.current
        exit_b = fb.block(*types)
        if rotated:
            with fb.at(latch):
                p = cond(new_vals[0])
                self.bra(header, *new_vals, guard=p, fallthrough=exit_b, fallthrough_args=new_vals)
            with fb.at(pre):
                inits = [init, *[c.v for c in carried]]
                if could_skip:
                    p0 = cond(init)
                    self.bra(header, *inits, guard=p0, fallthrough=exit_b, fallthrough_args=inits)
                else:
                    self.bra(header, *inits)
        else:
            with fb.at(latch):
                self.bra(header, *new_vals)
            with fb.at(pre):
                self.bra(header, init, *[c.v for c in carried])
            with fb.at(header):
                p = cond(header.args[0])
                if r.random() < 0.5:
                    self.bra(body, guard=p, fallthrough=exit_b, fallthrough_args=list(header.args))
                else:
                    q = self.op("plop3", p, PT, PT, 0x0F)  # not p
                    self.bra(exit_b, *header.args, guard=q, fallthrough=body)
        fb.goto(exit_b)
        # the IV after the loop and the carried values flow on
        iv_out = exit_b.args[0]
        self.features["iv_after_loop"] += 1
        self.keep.append(iv_out)
        self.add(iv_out)
        for a, c, b in zip(exit_b.args[1:], carried, body_bounds):
            if c.is_float:
                self.addf(a, b)
            else:
                self.add(a)

    def iv_arith(self, iv: SSAValue, x: SSAValue) -> None:
        """Affine values of ``iv`` and the loop-invariant ``x`` (GenOptions.iv_arith)."""
        r = self.rng
        self.features["iv_arith"] += 1
        for _ in range(r.randint(1, 3)):
            kind = r.randrange(5)
            k = r.randint(0, 31)
            if kind == 0:
                v = self.op("imad", iv, r.randint(1, 99), x)
            elif kind == 1:
                v = self.op("iadd3", self.op("shl", iv, k), r.randint(-64, 64), x)
            elif kind == 2:
                v = self.op("iadd3", self.op("shf", iv, k, RZ, mods="l.u32"), x, RZ)
            elif kind == 3:
                v = self.op("lea", self.op("iadd3", iv, x, RZ), x, r.randint(0, 31))
            else:
                k1, k2 = r.randint(-512, 512), r.randint(-512, 512)
                self.add(self.op("iadd3", self.op("shl", iv, k), k1, x))
                v = self.op("iadd3", self.op("shl", iv, k), k2, x)
            self.add(v)

    # ---- function shapes -----------------------------------------------
    def checksum(self, vals: Sequence[SSAValue]) -> SSAValue:
        h = self.op("mov", 0x9E3779B9)
        for i in range(0, len(vals), 2):
            a = vals[i]
            b = vals[i + 1] if i + 1 < len(vals) else RZ
            if i % 4 == 0:
                h = self.op("iadd3", h, a, b)
            else:
                h = self.op("lop3", h, a, b, LUT_XOR3)
            h = self.op("shf", h, 7, h, mods="l.w.u32")  # rotate: order matters
        return h


def _remat_values(g: _FuncGen, rng: random.Random, count: int, p: int, gid: SSAValue,
                  s: SSAValue, out: SSAValue) -> tuple[list[SSAValue], list[SSAValue]]:
    """``GenOptions.remat_pressure`` values (its docstring): the 32-bit ones
    with the inputs they are computed from (the final checksum reads those
    too, which keeps them live to the end), and the 64-bit ones."""
    n2 = g.op("mov", cbank(0, p + P_N))
    bases = [gid, s, n2]
    vals: list[SSAValue] = []
    wide: list[SSAValue] = []
    for i in range(count):
        k = rng.randrange(6)
        a, b = rng.choice(bases), rng.choice(bases)
        kc = rng.randint(3, 2**31 - 1) | 1
        if k == 5:
            wide.append(g.op("imad", a, kc, out, mods="wide.u32", types=[r64]))
            continue
        if k == 0:
            v = g.op("imad", a, kc, b)
        elif k == 1:
            v = g.op("iadd3", g.op("lop3", a, kc, RZ, rng.randrange(256)), rng.randrange(1 << 16), b)
        elif k == 2:
            v = g.op("mov", kc)
        elif k == 3:
            v = g.op("ldc", 0, RZ, p + rng.choice((P_N, P_S, P_F)))
        else:
            v = g.op("lop3", a, kc, b, rng.randrange(256))
        vals.append(v)
        if i % 3 == 0:
            g.add(v)
    return [*vals, *bases], [*wide, out]


def _gen_callee(rng: random.Random, opts: GenOptions, features: Counter[str], name: str,
                callees: Sequence[_Callee] = ()) -> tuple[FuncBuilder, _Callee]:
    nargs = rng.randint(1, 14 if opts.abi_calls else 3)
    nres = rng.randint(1, 2)
    fb = FuncBuilder(name, [r32] * nargs, [r32] * nres)
    sub = replace(opts, max_depth=min(opts.max_depth, 2), max_stmts=min(opts.max_stmts, 3))
    g = _FuncGen(rng, fb, sub, features, kernel=False, callees=callees, budget=200)
    g.uniform = False  # a callee may be called under divergence
    for a in fb.entry.args:
        g.add(a)
    g.add(g.op("mov", rng.randint(0, 1000)))
    if opts.frames:
        g.open_frame()
    g.region(rng.randint(1, 3))
    ret = fb.ret(*[g.pick() for _ in range(nres)])
    if opts.frames:
        g.close_frame(ret)
    return fb, _Callee(name, nargs, nres, max(g.cost, 1))


def generate(seed: int, *, options: GenOptions | None = None) -> GeneratedProgram:
    """A random kernel (plus device functions it calls), deterministic from ``seed``."""
    opts = options or GenOptions()
    rng = random.Random(seed)
    target = opts.target or rng.choice(TARGETS)
    if opts.pressure is None:
        opts = replace(opts, pressure=rng.choice((0, 0, 8, 24, 48)))
    features: Counter[str] = Counter()
    funcs: list[FuncBuilder] = []
    callees: list[_Callee] = []
    if opts.calls and (opts.abi_calls or rng.random() < 0.5):
        for i in range(rng.randint(1, 2) if not opts.abi_calls else rng.randint(1, 3)):
            # under abi_calls a device function may call the earlier ones
            fb_c, c = _gen_callee(rng, opts, features, f"dev{i}",
                                  callees if opts.abi_calls else ())
            funcs.append(fb_c)
            callees.append(c)

    cb = get_target(target).cbank0
    assert cb is not None
    P = cb.params
    name = f"fuzz{seed}"
    fb = FuncBuilder(name, kernel=True, params=PARAMS)
    callee_calls = features["call"]  # the calls the device functions make
    g = _FuncGen(rng, fb, opts, features, kernel=True, callees=callees, budget=opts.budget)
    # ---- preamble ----
    tid = g.op("s2r", mods="SR_TID.X")
    ctaid = g.op("s2r", mods="SR_CTAID.X")
    ntid = g.op("mov", cbank(0, cb.ntid))
    gid = g.op("imad", ctaid, ntid, tid)
    out = g.op("ldc", 0, RZ, P + P_OUT, mods="b64", types=[r64])
    g.inp = g.op("ldc", 0, RZ, P + P_INP, mods="b64", types=[r64])
    g.cnt = g.op("ldc", 0, RZ, P + P_CNT, mods="b64", types=[r64])
    g.n = g.op("mov", cbank(0, P + P_N))
    s = g.op("mov", cbank(0, P + P_S))
    g.obase = g.op("imad", gid, SLOTS * 4, out, mods="wide.u32", types=[r64])
    g.tid, g.ntid = tid, ntid
    g.uniform_vals = [g.n, s]
    for v in (tid, gid, s):
        g.add(v)
    g.s_load()
    if opts.frames:
        g.open_frame()
    if opts.floats:
        g.pool.append(_V(g.op("mov", cbank(0, P + P_F)), True, 100.0))
    # ---- pressure: values computed up front, all consumed at the end ----
    pressure: list[SSAValue] = []
    if opts.pressure:
        features["pressure"] += 1
        g.s_load()
        for i in range(opts.pressure):
            v = g.op("imad", g.pick(), rng.randint(3, 2**31 - 1) | 1, g.pick())
            if i % 3 == 2:
                v = g.op("lop3", v, g.pick(), RZ, rng.randrange(256))
            pressure.append(v)
            if i < 4:
                g.add(v)
    # ---- rematerializable pressure (GenOptions.remat_pressure) ----
    remat: list[SSAValue] = []
    remat_wide: list[SSAValue] = []
    if opts.remat_pressure:
        remat, remat_wide = _remat_values(g, rng, opts.remat_pressure, P, gid, s, out)
    # ---- body ----
    g.region(rng.randint(max(2, opts.max_stmts - 2), opts.max_stmts + 2))
    if opts.abi_calls and callees and features["call"] == callee_calls:
        # every abi_calls program calls (the budget may have left no room)
        g.s_call_any()
    # ---- epilogue: checksum of recent values, kept values and pressure ----
    recent = [x.v for x in g.pool[-12:]]
    for w in remat_wide:
        parts = g.op("unpack", w, types=[r32, r32])
        remat.extend(parts.results)
    h = g.checksum([*recent, *g.keep, *pressure, *remat])
    g.op("stg", g.obase, (SLOTS - 1) * 4, h)
    fb.exit()
    if opts.frames:
        g.close_frame(None)
    m = module(*[f.func for f in funcs], fb.func, target=target)
    m.verify()
    return GeneratedProgram(seed, m, name, features, opts, est_cost=g.cost)


__all__ = [
    "CNT_WORDS",
    "FEATURES",
    "FRAME_WORDS",
    "IN_WORDS",
    "LUT_AND",
    "LUT_XOR3",
    "MAX_N",
    "PARAMS",
    "P_CNT",
    "P_F",
    "P_INP",
    "P_N",
    "P_OUT",
    "P_S",
    "SLOTS",
    "TARGETS",
    "TRIP_CLASSES",
    "GenOptions",
    "GeneratedProgram",
    "LaunchInputs",
    "generate",
    "make_inputs",
    "trip_count",
]
