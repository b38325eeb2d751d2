"""``ori-general-optimize``: phase 13, *GeneralOptimizeEarly* (seed 001,
"Pipeline Placement": "Phase 13 GeneralOptimizeEarly -- const fold + copy
prop (feeds loop analysis)").

The seed names only the phase's purpose; the rules below are ori's, chosen
so that the code handed to the loop passes and the register allocator has
the shape ptxas gives it: kernel parameters read straight from the constant
bank by the instruction that needs them (``ISETP.GE.AND P0, PT, R4,
c[0x0][0x160], PT``, ``IMAD.WIDE R2, R4, R5, c[0x0][0x168]``, ``FFMA R7,
R2, c[0x0][0x164], R7`` in ``ptxas -arch=sm_80`` output for saxpy) instead
of being loaded into a register that stays live.

Sub-steps (each switchable, each one ``RewritePattern`` module of this
package with its rule and the ptxas form it produces in its docstring):

* ``pack-unpack`` (``pack_unpack.py``) -- ``UNPACK(PACK(..))``,
  ``PACK(UNPACK(..))``, ``UNPACK(LDC.64 c[b][o])`` -> two ``LDC``, an MMA
  accumulator ``PACK`` of zeros -> RZ (counted as ``zero-accumulator``);
* ``copy-prop`` (``copy_prop.py``) -- uses of unguarded same-type ``MOV``
  copies read the source;
* ``const-prop`` (``const_prop.py``) -- constants into the source slots that
  take them, one constant port per instruction, commuting operands and
  writing 0 as RZ where that helps; f64 immediates from ``PACK``;
* ``fold`` (``fold.py``) -- ``FOLDABLE`` ops with constant sources evaluated
  by the interpreter's semantics;
* ``imad-identity`` (``imad_identity.py``) -- ``IMAD a, 1, c`` -> ``IADD3 a,
  c, RZ`` (or ``a``), ``IMAD a, 0, c`` -> ``c``, ``IMAD K, imm, c`` with a
  known ``K`` -> ``IADD3 c, K*imm, RZ``, ``IADD3 x, RZ, RZ`` -> ``x``;
* ``wide-add`` (``wide_add.py``) -- ``IMAD.WIDE`` + 64-bit add ->
  ``IMAD.WIDE x, b, K``;
* ``lea`` (``lea.py``) -- 64-bit shift-left + add -> ``LEA`` / ``LEA.HI.X``;
* ``frame-addr`` (``frame_addr.py``) -- ``R1 + o`` plus a constant is
  ``R1 + o'``, and a local access through it is ``[R1 + o']``;
* ``addr-offset`` (``addr_offset.py``) -- an access through ``p + K`` (a
  64-bit add of a sign-extended 32-bit constant, a 32-bit add, or an
  ``IMAD`` whose product or addend is a known constant) reads ``[p + K]``:
  the constant in the access's 24-bit offset;
* ``imad-add`` (``imad_add.py``) -- ``IADD3 (IMAD a, b, RZ), c, RZ`` ->
  ``IMAD a, b, c``: ptxas's multiply-add for PTX's ``mul.lo`` + ``add``;
* ``iadd3-merge`` (``iadd3_merge.py``) -- ``IADD3 (IADD3 a, b, RZ), c,
  RZ`` -> ``IADD3 a, b, c``;
* ``add-chain`` (``add_chain.py``) -- ``(x + K1) + K2`` -> ``x + (K1 +
  K2)``, 32-bit and the 64-bit add form: an unrolled loop steps its IV and
  pointers once per iteration, not once per copy;
* ``setp-combine`` (``setp_combine.py``) -- ``PLOP3`` of an ``ISETP`` and
  another predicate -> ``ISETP.CMP.{AND,OR,XOR}`` with that predicate;
* ``lop3-predicate`` (``lop3_predicate.py``) -- ``ISETP.NE (LOP3 ..), 0``
  -> the LOP3's own predicate result (``ISETP.EQ``: negated at every reader);
* ``lop3-merge`` (``lop3_merge.py``) -- ``LOP3 (LOP3 p, q, r), s, t`` over
  at most three inputs -> one LOP3 with the composed table (Philox's
  ``x ^ k ^ y`` in one ``LOP3.LUT .., 0x96``);
* ``lea-sx32`` (``lea_sx32.py``) -- ``IADD3.X (SHR.S32 x, 31), y, RZ, c``
  -> ``LEA.HI.X.SX32 x, y, 0x1, c``: the high half of ``base + (int64)i``;
  ``LEA.HI[.X] x, y, s, (SHR.S32 x, 31)`` -> ``LEA.HI[.X].SX32 x, y, s``:
  that of ``base + ((int64)i << s)``;
* ``lea-hi`` (``lea_hi.py``) -- ``IADD3 x, (SHR.U32 a, n), RZ`` -> ``LEA.HI
  a, x, RZ, 32 - n``: the rounding of a signed division by ``2^k``;
* ``sx-wide-add`` (``sx_wide_add.py``) -- ``PACK(IADD3 i, b0; LEA.HI.X.SX32
  i, b1, 0x1)`` -> ``IMAD.WIDE i, 0x1, PACK(b0, b1)``: a byte address in
  one instruction;
* ``scaled-index`` (``scaled_index.py``) -- ``LDS/STS/ATOMS [(x << k) + o]`` ->
  ``[x * 2^k + o]`` (SASS ``[R8.X4+0x100]``) when the shift has no other
  reader;
* ``narrow-store`` (``narrow_store.py``) -- ``ST.U16 [a], (x & 0xffff)``
  -> ``ST.U16 [a], x``: a mask read only by stores that keep no more bits
  than it does goes (CUB's 16-bit radix counters);
* ``guard-sink`` (``guard_sink.py``) -- ``y = OP ..; z = @g MOV y`` ->
  ``z = @g OP ..``: the importer's guarded copy of a guarded instruction's
  result becomes the guarded instruction (``@P0 IADD3`` in CUB's scans).

After the rounds, ``tuple-args`` (``tuple_args.py``) carries block arguments
that an edge fills with all the parts of one MMA result as that value (an
MMA accumulator around its loop and out of it).

After the rounds, ``dead-code`` erases the pure ops the rules left without
readers (the copies' address adds once their accesses read ``[p + K]``):
phase 13 has ``ori-dead-code`` (phase 16) after it, phase 29 no such phase,
and a dead PACK or add left for the allocator costs registers and moves.

Driving (docs/architecture.md "Rewrite patterns"; ``driver.py``): per round,
one walk over a function's ops (program order, not recursive: ops made in
the round wait for the next) applies the first per-op pattern that matches,
in the order pack-unpack, copy-prop, fold, imad-identity, wide-add, lea, frame-addr, addr-offset, imad-add,
iadd3-merge,
add-chain, setp-combine, lop3-predicate, lop3-merge, lea-sx32, scaled-index, narrow-store, guard-sink; then a second walk
applies const-prop to every constant-producing op.  Rounds repeat until one
changes nothing or ``max-iterations`` is reached; after the first, a round
visits only the ops near the previous changes (``driver.py`` says why that
finds every match a full walk would).  The patterns come from
``patterns_for`` (the pass's options), so a new rule is one more module and
one more entry there.

"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern
from xdsl.utils.exceptions import PassFailedException

from ori_dialect.analysis import functions_of
from passes.contract import (
    CFG_ANALYSES,
    Requirement,
    emit_remark,
    emit_stats,
    flush_diagnostics,
    option,
    require,
)
from passes.general_optimize.add_chain import ConstantAddChain
from passes.general_optimize.addr_offset import AddressOffset
from passes.general_optimize.const_prop import ConstantPropagation
from passes.general_optimize.copy_prop import CopyPropagation
from passes.general_optimize.driver import run_rounds
from passes.general_optimize.fold import ConstantFolding
from passes.general_optimize.frame_addr import FrameAddressAccess, FrameAddressAdd
from passes.general_optimize.guard_sink import GuardSink
from passes.general_optimize.iadd3_merge import MergeAdds
from passes.general_optimize.imad_add import ImadAdd
from passes.general_optimize.imad_identity import AddIdentity, ImadIdentity
from passes.general_optimize.lea import ShiftAddToLea
from passes.general_optimize.lea_hi import ShiftedAddToLeaHi
from passes.general_optimize.lea_sx32 import SignWordLeaHi, SignWordToLea
from passes.general_optimize.lop3_merge import MergeLop3
from passes.general_optimize.lop3_predicate import Lop3Predicate
from passes.general_optimize.narrow_store import NarrowStore
from passes.general_optimize.pack_unpack import PackOfUnpack, UnpackOfPack, ZeroAccumulator
from passes.general_optimize.scaled_index import ScaledIndex
from passes.general_optimize.setp_combine import CombineSetp
from passes.general_optimize.sx_wide_add import SignedWideAdd
from passes.general_optimize.tuple_args import promote_tuple_args
from passes.general_optimize.wide_add import WideAdd
from passes.loop_utils import is_pure


@dataclass
class FunctionStats:
    counts: Counter[str]

    def line(self) -> str:
        keys = ("copies", "constants", "pack-unpack", "ldc64-split", "folded", "imad-identity", "wide-add", "lea",
                "frame-addr", "addr-offset", "iadd3-merge", "add-chain", "setp-combine",
                "lop3-predicate", "lea-sx32", "guard-sink", "tuple-args", "dead-code", "lop3-merge",
                "imad-add", "zero-accumulator", "sx-wide-add", "narrow-store", "scaled-index", "lea-hi")
        return " ".join(f"[{k}={self.counts[k]}]" for k in keys)


@dataclass(frozen=True)
class GeneralOptimizePass(ModulePass):
    """Phase 13: copy and constant propagation, folding, PACK/UNPACK, wide-add and LEA forming.

    The rules and their driving are in the module docstring."""

    name = "ori-general-optimize"

    REQUIRES: ClassVar[frozenset[Requirement]] = frozenset({Requirement.SSA})
    # Instructions are replaced one by one, never a terminator's successors:
    # the CFG, dominators and loops stay valid (liveness does not).
    PRESERVES: ClassVar[frozenset[type]] = CFG_ANALYSES

    copy_prop: bool = option(
        True, "ori: propagate unguarded same-type MOV copies into their uses (module docstring)"
    )
    const_prop: bool = option(
        True,
        "ori: write MOV/LDC/PACK constants into the source slots that take an immediate or a "
        "c[bank][offset] operand, at most one constant per instruction",
    )
    pack_unpack: bool = option(
        True,
        "ori: cancel UNPACK(PACK(..)) and PACK(UNPACK(..)); split an UNPACKed LDC.64 c[b][o] "
        "into two 32-bit LDCs; read an MMA accumulator PACK of zeros as RZ",
    )
    fold: bool = option(
        True,
        "ori: evaluate integer/predicate instructions whose sources are all constants with the "
        "interpreter's semantics (bit-exact) into MOV/PACK/PLOP3 constants",
    )
    imad_identity: bool = option(
        True, "ori: IMAD a, 1, c becomes IADD3 a, c, RZ (a copy of a when c is RZ) and IMAD "
        "a, 0, c a copy of c (imad_identity.py)"
    )
    wide_add: bool = option(
        True,
        "ori: IMAD.WIDE followed by a 64-bit add of K becomes IMAD.WIDE x, b, K "
        "(ptxas's address form)",
    )
    lea: bool = option(
        True, "ori: a 64-bit shift-left by 0..31 plus a 64-bit add becomes LEA / LEA.HI.X"
    )
    frame_addr: bool = option(
        True, "ori: fold constants added to a frame address (R1 + o) and local accesses "
        "through it into [R1 + o'] (frame_addr.py)"
    )
    addr_offset: bool = option(
        True, "ori: an access through p + K (a constant add) reads [p + K], the constant in "
        "its signed 24-bit offset (addr_offset.py)"
    )
    imad_add: bool = option(
        True, "ori: IADD3 (IMAD a, b, RZ), c, RZ becomes IMAD a, b, c when the product has no "
        "other use, in one block (imad_add.py)"
    )
    iadd3_merge: bool = option(
        True, "ori: IADD3 (IADD3 a, b, RZ), c, RZ becomes IADD3 a, b, c when the inner sum has "
        "no other use (iadd3_merge.py)"
    )
    iadd3_merge_extend: bool = option(
        False, "ori: merge adds even where both inner sources die at the inner add (one more "
        "live register up to the outer add; iadd3_merge.py)"
    )
    add_chain: bool = option(
        True, "ori: (x + K1) + K2 becomes x + (K1 + K2), 32-bit and 64-bit, when the inner sum "
        "has no other live reader (add_chain.py)"
    )
    setp_combine: bool = option(
        True, "ori: PLOP3 of an ISETP result (read only there) and another predicate becomes "
        "the ISETP's own AND/OR/XOR with it (setp_combine.py)"
    )
    lop3_predicate: bool = option(
        True, "ori: ISETP.NE x, 0 of a LOP3 result x becomes the LOP3's predicate result, "
        "ISETP.EQ x, 0 that predicate negated at every reader (lop3_predicate.py)"
    )
    lop3_merge: bool = option(
        True, "ori: a LOP3 read only by another LOP3 merges into it when the two read at most "
        "three inputs, the truth tables composed (lop3_merge.py)"
    )
    lea_sx32: bool = option(
        True, "ori: IADD3.X of a sign word SHR.S32 x, 31 becomes LEA.HI.X.SX32 x, the high "
        "half of base + (int64)x (lea_sx32.py)"
    )
    lea_hi: bool = option(
        True, "ori: x + (a >> n), a logical shift by 1..31, becomes LEA.HI a, x, RZ, 32 - n "
        "(ptxas's rounding of a signed division by a power of two; lea_hi.py)"
    )
    sx_wide_add: bool = option(
        True, "ori: base + (int64)i on a register base, IADD3 + LEA.HI.X.SX32, becomes one "
        "IMAD.WIDE i, 0x1, base (sx_wide_add.py)"
    )
    scaled_index: bool = option(
        True, "ori: a shared-memory address that is an index shifted by 2, 3 or 4, read by "
        "nothing else, becomes the scaled index [x * 4 + o] (scaled_index.py)"
    )
    narrow_store: bool = option(
        True, "ori: a LOP3 mask (x & 0xffff, x & 0xff) read only by 16- or 8-bit stores is "
        "removed, the stores write x (narrow_store.py)"
    )
    guard_sink: bool = option(
        True, "ori: a guarded copy of a value computed only for it becomes that computation "
        "under the guard, tied to the copy's prior value (guard_sink.py)"
    )
    tuple_args: bool = option(
        True, "ori: after the rounds, block arguments an edge fills with all the parts of one "
        "MMA result are carried as that value (tuple_args.py)"
    )
    dead_code: bool = option(
        True, "ori: after the rounds, erase the pure ops the rules left without readers"
    )
    commute: bool = option(
        True, "ori: swap commutative operands to bring a constant into the slot that takes it"
    )
    max_iterations: int = option(
        16, "ori: rounds of all sub-steps per function before stopping (>= 1)"
    )
    remarks: bool = option(
        False, "ori: print one line per function with the counts of each rewrite to stderr"
    )
    stats: bool = option(False, "ori: print the module's total counts to stderr")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        require(self, op)
        if self.max_iterations < 1:
            raise PassFailedException(
                f"ori-general-optimize: max-iterations must be >= 1, got {self.max_iterations}"
            )
        total: Counter[str] = Counter()
        for func in functions_of(op):
            st = self.run_function(func)
            total.update(st.counts)
            if self.remarks:
                emit_remark(func.sym_name.data, f"general-optimize {st.line()}")  # type: ignore[attr-defined]
        if self.stats:
            emit_stats(self.name, FunctionStats(total).line())
        if self.remarks or self.stats:
            flush_diagnostics()

    # ------------------------------------------------------------------
    def patterns_for(self, counts: Counter[str]) -> tuple[list[RewritePattern], list[RewritePattern]]:
        """The enabled patterns, counting into ``counts``: (the per-op walk in
        order, the constant sweep that follows it)."""
        per_op: list[RewritePattern] = []
        if self.pack_unpack:
            per_op += [UnpackOfPack(counts), PackOfUnpack(counts), ZeroAccumulator(counts)]
        if self.copy_prop:
            per_op.append(CopyPropagation(counts))
        if self.fold:
            per_op.append(ConstantFolding(counts))
        if self.imad_identity:
            per_op += [ImadIdentity(counts), AddIdentity(counts)]
        if self.wide_add:
            per_op.append(WideAdd(counts))
        if self.lea:
            per_op.append(ShiftAddToLea(counts))
        if self.frame_addr:
            per_op += [FrameAddressAdd(counts), FrameAddressAccess(counts)]
        if self.addr_offset:
            per_op.append(AddressOffset(counts))
        if self.imad_add:
            per_op.append(ImadAdd(counts))
        if self.iadd3_merge:
            per_op.append(MergeAdds(counts, extend=self.iadd3_merge_extend))
        if self.add_chain:
            per_op.append(ConstantAddChain(counts))
        if self.setp_combine:
            per_op.append(CombineSetp(counts))
        if self.lop3_predicate:
            per_op.append(Lop3Predicate(counts))
        if self.lop3_merge:
            per_op.append(MergeLop3(counts))
        if self.lea_sx32:
            per_op.append(SignWordToLea(counts))
            per_op.append(SignWordLeaHi(counts))
        if self.lea_hi:
            per_op.append(ShiftedAddToLeaHi(counts))
        if self.sx_wide_add:
            per_op.append(SignedWideAdd(counts))
        if self.scaled_index:
            per_op.append(ScaledIndex(counts))
        if self.narrow_store:
            per_op.append(NarrowStore(counts))
        if self.guard_sink:
            per_op.append(GuardSink(counts))
        sweep: list[RewritePattern] = []
        if self.const_prop:
            sweep.append(ConstantPropagation(counts, commute=self.commute))
        return per_op, sweep

    def run_function(self, func: Operation) -> FunctionStats:
        st = FunctionStats(Counter())
        run_rounds(func.regions[0], self.patterns_for(st.counts), st.counts, self.max_iterations)
        if self.tuple_args:
            st.counts["tuple-args"] += promote_tuple_args(func)
        self.sweep_dead(func, st.counts)
        return st

    def sweep_dead(self, func: Operation, counts: Counter[str]) -> None:
        """``dead-code``: erase the pure ops without readers, in reverse
        program order (an erased reader may leave its sources dead)."""
        if not self.dead_code:
            return
        for block in reversed(list(func.regions[0].blocks)):
            for o in reversed(list(block.ops)):
                if is_pure(o) and all(not r.uses for r in o.results):
                    block.erase_op(o)
                    counts["dead-code"] += 1


__all__ = ["FunctionStats", "GeneralOptimizePass"]
