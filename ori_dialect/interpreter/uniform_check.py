"""The interpreter's check of the uniform datapath (passes/uniform).

A uniform register belongs to the warp, not to a thread: the hardware runs
a uniform-datapath instruction (``UIADD3``, ``ULDC``, ``S2UR`` ...) once
for the warp.  The interpreter keeps UR/UP values per thread like any other
value, so it can check that this is sound: each time such an op runs,

* every thread of each warp taking part that has not exited runs it
  (threads waiting in a block that only exits count as exited), i.e. the
  warp is converged; part of a warp elsewhere -- another branch, a barrier,
  or outside the device function being run -- is an error;
* it writes the same value in all those threads.

Either failure is an interpreter error naming the op and the threads, so
the equivalence tests (lit inputs, examples, generated programs) prove the
uniformity analysis, not only the arithmetic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ori_dialect.interpreter.frame import Core, Frame
from ori_dialect.interpreter.memory import Fault
from ori_dialect.ir.instruction import OriInstruction

if TYPE_CHECKING:
    from ori_dialect.interpreter.decoder import Decoder

WARP = 32


def needs_check(op: OriInstruction) -> bool:
    """The op is a uniform-datapath instruction (``OriOp.UNIFORM_SASS``)."""
    return type(op).UNIFORM_SASS is not None and op.is_uniform_form()


def uniform_checked(dec: Decoder, op: OriInstruction, core: Core) -> Core:
    """``core`` followed by the two checks of the module docstring."""
    m = dec.m
    slots = [dec.slot[r] for r in op.results]
    mnemonic = type(op).UNIFORM_SASS

    def checked(frame: Frame, idx: np.ndarray) -> None:
        core(frame, idx)
        act = m.running[-1]
        pc = act.pc
        cur = pc[idx[0]]
        warps = idx // WARP
        for w in np.unique(warps):
            lanes = np.arange(w * WARP, min(m.n, (w + 1) * WARP))
            away = lanes[(pc[lanes] != cur) & ~m.exited[lanes]]
            if len(away):
                away = away[~dec.terminal_pc(pc[away])]
            if len(away):
                raise Fault(
                    f"{mnemonic} runs with warp {int(w)} diverged: "
                    f"{len(away)} of its threads are elsewhere (a uniform register "
                    "needs the whole warp)", thread=int(away[0]))
        starts = np.searchsorted(warps, warps, side="left")
        for s in slots:
            vals = frame[s][idx]
            same = vals == vals[starts]
            if same.ndim > 1:
                same = same.all(axis=1)
            if not same.all():
                t = int(idx[int(np.flatnonzero(~same)[0])])
                raise Fault(
                    f"{mnemonic} writes different values in the threads of warp "
                    f"{t // WARP}: not warp-uniform", thread=t)

    return checked


__all__ = ["needs_check", "uniform_checked"]
