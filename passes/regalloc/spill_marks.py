"""The marks the spiller leaves on the IR and the predicates that read them.

:mod:`.spill` writes the marks; :mod:`.classes` and :mod:`.ssa_spill` read
them to keep reloads and values already spilled out of the next spill round
(seed 000 "Spilling Overview": a reload is never spilled again), and
:mod:`.checker` reads them to check spill slots and homes.  They live apart
from the spiller so that both sides import them one way.

* ``ori.spill_value`` (:data:`SPILL_ATTR`) on every spill store and reload,
  the spilled value's tag;
* ``ori.spill_home`` (:data:`HOME_ATTR`) on the op defining the GPR home of
  a spilled P/UP/UR/B value, the value's tag;
* ``ori.smem_spill_base`` (:data:`SMEM_BASE_ATTR`) on the ops computing the
  per-thread SMEM spill base;
* ``ori.spill_remat`` (:data:`REMAT_ATTR`) on a rematerialized copy of a
  spilled value's definition (:mod:`.remat`), the value's tag;
* ``ori.abi_save`` (:data:`CALLEE_SAVE_ATTR`) on the callee saves of a
  device function (:mod:`.callee_saves`), the saved register;
* ``ori.spill_phi`` (:data:`PHI_ATTR`) besides the tag on the stores and home
  definitions of a spilled block argument (:mod:`.phi_spill`), which a
  predecessor makes of its edge operand before branching: the operand itself
  is not spilled by them and may still be.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, OpResult, SSAValue

from ori_dialect.ir.registers import OriRegisterType, RegFile
from ori_dialect.ops.memory import LdlOp, LdsOp, StlOp, StsOp

SPILL_ATTR = "ori.spill_value"
"""On every spill store and reload: the tag of the spilled value."""
HOME_ATTR = "ori.spill_home"
"""On the op that defines the GPR home of a spilled P/UP/UR/B value."""
SMEM_BASE_ATTR = "ori.smem_spill_base"
"""On the ops computing the per-thread SMEM spill base (1 on the final IMAD)."""

REMAT_ATTR = "ori.spill_remat"
"""On a clone of a definition the allocator rematerializes instead of
spilling (:mod:`.remat`): the spilled value's tag."""

PHI_ATTR = "ori.spill_phi"
"""On the stores / home definitions of a memory phi (:mod:`.phi_spill`)."""

CALLEE_SAVE_ATTR = "ori.abi_save"
"""On a device function's callee-save store and reload (:mod:`.callee_saves`)
and on the ``ori.undef`` naming the caller's register they save: the
register number.  The stores and reloads carry a spill tag too."""

SPILL_STORES = (StlOp, StsOp)
"""The op classes of a spill store (local memory, shared memory)."""
SPILL_LOADS = (LdlOp, LdsOp)
"""The op classes of a reload from memory (local memory, shared memory)."""


def spill_tag(op: Operation) -> int | None:
    """The value id of a spill store or reload (None for other ops)."""
    a = op.attributes.get(SPILL_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


def remat_tag(op: Operation) -> int | None:
    """The value id of which ``op`` is a rematerialized clone (None for other ops)."""
    a = op.attributes.get(REMAT_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


def home_tag(op: Operation) -> int | None:
    """The value id whose GPR home ``op`` defines (None for other ops)."""
    a = op.attributes.get(HOME_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else None


def is_spill_reload(v: SSAValue) -> bool:
    """A value the spiller created to feed one use (never spilled again);
    the SMEM spill base counts too (spilling it would need itself)."""
    if not isinstance(v, OpResult):
        return False
    a = v.op.attributes
    return SPILL_ATTR in a or SMEM_BASE_ATTR in a or REMAT_ATTR in a


def is_spilled_value(v: SSAValue) -> bool:
    """Every use of ``v`` is its spill store or the definition of its home
    (the stores of a memory phi that ``v`` feeds are not ``v``'s own)."""
    uses = list(v.uses)
    return bool(uses) and all(
        PHI_ATTR not in (a := u.operation.attributes) and (
            (SPILL_ATTR in a and isinstance(u.operation, SPILL_STORES)) or HOME_ATTR in a
        )
        for u in uses
    )


def can_spill(v: SSAValue) -> bool:
    """Whether the spiller has a way for ``v``'s register file and width."""
    t = v.type
    if not isinstance(t, OriRegisterType):
        return False
    f = t.REG_FILE
    if f is RegFile.UR:
        return t.BITS in (32, 64)
    if f is RegFile.R:
        # spill accesses are at most 128 bits: a register tuple (an MMA
        # accumulator) stays in registers, as ptxas keeps it (it stops with
        # C7602 "Insufficient registers" instead)
        return t.BITS <= 128
    return f in (RegFile.P, RegFile.UP, RegFile.B)


__all__ = [
    "CALLEE_SAVE_ATTR",
    "HOME_ATTR",
    "PHI_ATTR",
    "REMAT_ATTR",
    "SMEM_BASE_ATTR",
    "SPILL_ATTR",
    "SPILL_LOADS",
    "SPILL_STORES",
    "can_spill",
    "home_tag",
    "is_spill_reload",
    "is_spilled_value",
    "remat_tag",
    "spill_tag",
]
