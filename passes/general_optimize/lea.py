"""``lea``: a 64-bit shift-left by 0..31 plus a 64-bit add becomes ``LEA`` /
``LEA.HI.X``.

Seed 001 "Pipeline Placement" (phase 13 GeneralOptimizeEarly): ptxas forms
``a + (i << s)`` for 64-bit addresses as ``LEA R8, P1, R0, c[0x0][0x178],
0x3`` / ``LEA.HI.X R9, R0, c[0x0][0x17c], R5, 0x3, P1``.  The importer's
``shl.b64`` + ``add.s64`` is ``L = SHL x, s`` (or ``SHF.L x, s, xh``), ``H =
SHF.L.HI x, s, xh`` with an immediate ``s`` in 0..31, then ``IADD3 L, K0,
RZ`` / ``IADD3.X H, K1, RZ, carry`` / ``PACK``: the same 64-bit sum
``((xh:x) << s) + (K1:K0)`` as ``LEA lo, c = x, K0, s`` / ``LEA.HI.X hi = x,
K1, s, xh, c``.  The adds' results are redirected; the old ops die
(``ori-dead-code``).
"""

from __future__ import annotations

from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, op_type_rewrite_pattern
from xdsl.utils.exceptions import VerifyException

from ori_dialect.ir.instruction import OriInstruction
from ori_dialect.ir.registers import PredType, R32Type
from ori_dialect.ops.integer import IAdd3Op, LeaOp, PackOp, ShfOp, ShlOp
from passes.general_optimize.common import CountingPattern, before, port_constants, unguarded


class ShiftAddToLea(CountingPattern):
    """``PACK(IADD3 (x << s).lo, K0, RZ; IADD3.X (x << s).hi, K1, RZ, c)`` ->
    ``LEA`` / ``LEA.HI.X``."""

    ROOTS = (PackOp,)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, pack: PackOp, rewriter: PatternRewriter) -> None:
        adds = add64_halves(pack)
        if adds is None:
            return
        lo_add, hi_add, lo_w, k_lo, hi_w, k_hi = adds
        low = shift_word(lo_w, hi=False)
        high = shift_word(hi_w, hi=True)
        if low is None or high is None:
            return
        x, s, xh = high
        if low[0] is not x or low[1] != s or (low[2] is not None and low[2] is not xh):
            return
        try:
            lo = LeaOp.make([x, k_lo, s], [R32Type.unallocated(), PredType.unallocated()],
                            attributes=dict(lo_add.attributes))
            hi = LeaOp.make([x, k_hi, s, xh, lo.results[1]], [R32Type.unallocated()], mods="hi.x",
                            attributes=dict(hi_add.attributes))
            lo.verify()
            hi.verify()
        except VerifyException:
            return
        if port_constants(lo, lo.slot_values()) > 1 or port_constants(hi, hi.slot_values()) > 1:
            return
        rewriter.insert(lo, before(lo_add))
        rewriter.insert(hi, before(hi_add))
        rewriter.replace_all_uses_with(lo_add.results[0], lo.results[0])
        rewriter.replace_all_uses_with(hi_add.results[0], hi.results[0])
        self.counts["lea"] += 1


def add64_halves(
    pack: PackOp,
) -> tuple[IAdd3Op, IAdd3Op, SSAValue, SSAValue | Attribute, SSAValue, SSAValue | Attribute] | None:
    """For ``PACK(s0, s1)`` with ``s0, c = IADD3 w0, k0, RZ`` and ``s1 = IADD3.X
    w1, k1, RZ, c`` (unguarded, no modifiers, the carry used only there):
    (low add, high add, w0, k0, w1, k1).  ``w0``/``w1`` are registers."""
    if not unguarded(pack) or pack.smod_map():
        return None
    parts = [v for _, v in pack.slot_values()]
    if len(parts) != 2 or not all(isinstance(p, SSAValue) for p in parts):
        return None
    lo_add, hi_add = parts[0].owner, parts[1].owner  # type: ignore[union-attr]
    if not (isinstance(lo_add, IAdd3Op) and isinstance(hi_add, IAdd3Op)):
        return None
    if parts[0] is not lo_add.results[0] or parts[1] is not hi_add.results[0]:
        return None
    if not (unguarded(lo_add) and unguarded(hi_add)) or lo_add.smod_map() or hi_add.smod_map():
        return None
    if lo_add.has_mod("x") or not hi_add.has_mod("x") or len(hi_add.results) != 1:
        return None
    lv = {s.name: v for s, v in lo_add.slot_values()}
    hv = {s.name: v for s, v in hi_add.slot_values()}
    rz = R32Type.fixed()
    if set(lv) != {"a", "b", "c"} or set(hv) != {"a", "b", "c", "ci0"}:
        return None
    if lv["c"] != rz or hv["c"] != rz:
        return None
    co = lo_add.dst("co0")
    if co is None or hv["ci0"] is not co or sum(1 for _ in co.uses) != 1:
        return None
    co1 = lo_add.dst("co1")
    if co1 is not None and co1.uses:
        return None
    w0, k0 = (lv["a"], lv["b"])
    w1, k1 = (hv["a"], hv["b"])
    if not isinstance(w0, SSAValue) or not isinstance(w1, SSAValue):
        return None
    return lo_add, hi_add, w0, k0, w1, k1


def shift_word(v: SSAValue, *, hi: bool) -> tuple[SSAValue, int, SSAValue | None] | None:
    """(x, s, xh) when ``v`` is the low (``hi=False``: ``SHL x, s`` or
    ``SHF.L x, s, xh``) or high (``SHF.L.HI x, s, xh``) word of ``(xh:x) << s``
    for an immediate ``s`` in 0..31 (both type widths agree there)."""
    d = v.owner
    if not isinstance(d, OriInstruction) or not unguarded(d) or d.smod_map():
        return None
    if isinstance(d, ShlOp) and not hi:
        x, s = d.src("a"), d.src_int("b")
        if isinstance(x, SSAValue) and s is not None and 0 <= s <= 31:
            return x, s, None
        return None
    if isinstance(d, ShfOp) and d.mod("dir") == "l" and d.has_mod("hi") == hi:
        x, s, xh = d.src("lo"), d.src_int("shift"), d.src("hi")
        if isinstance(x, SSAValue) and isinstance(xh, SSAValue) and s is not None and 0 <= s <= 31:
            return x, s, xh
    return None


__all__ = ["ShiftAddToLea", "add64_halves", "shift_word"]
