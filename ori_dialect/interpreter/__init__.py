"""A functional interpreter for Ori kernels: ``run_kernel`` launches a grid.

::

    from ori_dialect.interpreter import run_kernel
    x, y = run_kernel(module, "saxpy", grid=4, block=128, args=[n, 2.0, x, y])

Design
======

Why not ``xdsl.interpreter``
----------------------------
xDSL's interpreter framework dispatches every op of every thread through
Python (one ``run_op`` call, one value environment per thread), and in xDSL
0.74 ``run_ssacfg_region`` pushes a new value scope on each block entry and
never pops it, so a loop runs in quadratic time (measured: 1k iterations
0.24 s, 10k iterations 20 s).  Instead each function is *pre-decoded* once
per launch into a list of closures per block (:mod:`.decoder`), run by
the machine (:mod:`.machine`) on records both share (:mod:`.frame`), and all
threads of a CTA execute together as numpy lanes.

Execution model
---------------
* **Values.**  Every SSA value of a function activation has a slot in a
  *frame*: a numpy array with one element per thread of the CTA (the
  representation of :mod:`.semantics.registry`: ``uint32``/``uint64``/
  ``(n, 4) uint32``/``bool``).  An op runs for the *executing lanes* ``idx``
  (an index array): it gathers its sources ``frame[s][idx]``, computes, and
  scatters its results ``frame[d][idx] = r``.  Constants are materialised at
  decode time (integer immediates ``np.uint32``/``np.uint64`` by slot width,
  float immediates as IEEE bits, ``c[b][o]`` read from the bank, RZ = 0,
  PT = True, predicate ``not`` applied).  ALU/float/convert/predicate ops get
  their function from :func:`.semantics.registry.compile_op`; memory,
  special-register, barrier, warp-collective and control ops are executed by
  the machine itself (:mod:`.builtins`).
* **Guards.**  A guarded op runs only for the lanes whose guard holds; its
  results are ``where(guard, computed, prior)`` per lane (memory is never
  touched by a guarded-off lane).
* **Scheduling and reconvergence.**  Each thread has a ``pc``: the *segment*
  it is about to run (a block, split after each ``BAR.SYNC``; segments are
  numbered in a loop-aware reverse post-order, :func:`.decoder.schedule_order`:
  each natural loop's blocks stay contiguous and come before its exits, so a
  thread that left a loop waits for the rest of its warp).  The machine repeatedly picks
  the lowest ``pc`` among runnable threads and runs that segment for all
  threads currently there.  Threads that diverge at a branch therefore
  reconverge at the first block that all paths reach in RPO order -- the
  immediate post-dominator for structured control flow -- and a loop runs
  until its last thread leaves it.
* **Block arguments.**  On each edge the branch operands are copied into the
  successor's argument slots for the lanes taking that edge, reading all
  sources before writing (parallel-copy semantics).
* **Calls.**  ``CALL`` runs the callee to completion for the calling lanes
  (its own frame and ``pc`` array; arguments into its entry block arguments;
  ``RET`` values back into the call's results).  Recursion is allowed up to
  :data:`.machine.MAX_CALL_DEPTH` activations.
* **Cost.**  The step counter counts executed thread-instructions (op x
  lanes, terminators and guarded-off lanes included) and stops the launch at
  ``max_steps``.

Memories (:mod:`.memory`)
-------------------------
Global memory: one byte buffer per allocation at 256-byte aligned addresses
from ``0x7f00_0000_0000`` up, separated by unmapped gaps (out-of-bounds
accesses fault).  Shared memory: ``shared_bytes`` per CTA, zeroed per CTA.
Local memory: ``local_bytes`` per thread (default 64 KiB, allocated on first
use); constant bank 0's stack-pointer word holds ``local_bytes``.  Generic
addresses (``LD``/``ST``/``ATOM``/``RED``): global addresses pass through;
the shared window is ``0x7e00_0000_0000 + offset`` and the local window
``0x7d00_0000_0000 + offset`` (what ``cvta`` would produce).  Constant bank
0 follows the target's ``cbank0`` layout (``ntid``, ``nctaid``, stack
pointer, parameters at ``params + param.offset``); other banks come from
``const_banks``.  All widths ``u8 s8 u16 s16 b32 b64 b128`` with zero/sign
extension; accesses must be aligned to their size.  Several lanes storing to
one address in one instruction: the highest lane wins.  Atomics (``ATOM``,
``ATOMS``, ``RED``: add min max inc dec and or xor exch cas on s32 u32 s64
u64; add min max on f32 f64 f16x2 bf16x2; exch/cas on any type) run lane by
lane in lane order, so contention is deterministic; ``atom.add.f32`` flushes
subnormals as PTX specifies.  ``MEMBAR`` is a no-op: memory is sequentially
consistent here.

Special registers
-----------------
``SR_TID``/``SR_CTAID`` (X/Y/Z), ``SR_LANEID`` (linear tid % 32),
``SR_WARPID`` (linear tid / 32), ``SR_NWARPID`` (the target's warps per SM),
``SR_SMID`` = 0, ``SR_NSMID`` = 1, the lane masks.  The clock is
deterministic: ``SR_CLOCKLO/HI`` and ``CS2R SR_CLOCKLO`` read the number of
instructions the thread executed before this one; ``SR_GLOBALTIMER*`` reads
that number times :data:`.frame.GLOBALTIMER_NS_PER_INSTRUCTION`.
``ori.undef`` reads as 0; with ``strict=True`` a use of an undef value by an
instruction raises, also after it flowed through block arguments or the
prior value of a guarded op (branch edges are copies, not uses; ``CALL``
arguments, ``RET`` values and stored values are uses).

Barriers and warp collectives
-----------------------------
``BAR.SYNC`` parks the arriving threads; other runnable threads keep running
(they may exit, which removes them from the barrier).  A barrier without a
count completes when every non-exited thread of the CTA waits at it; one with
a count when that many threads arrived (``BAR.ARV`` arrivals included;
counted per thread, not per warp; when ``BAR.ARV`` completes the count after
the waiters arrived, they resume once no other thread can run).  When no thread can run and a barrier
cannot complete, or when threads wait on the same barrier at different
``BAR`` instructions, the launch fails with "barrier reached by only part of
the CTA", naming the threads that are missing.  ``SHFL`` (idx/up/down/bfly,
PTX ``c`` operand: clamp in bits 0-4, segment mask in bits 8-12) and ``VOTE``
(all/any/eq, ballot in lane bit positions) act on the lanes of each warp that
execute the instruction together.  A SHFL whose source lane does not execute
it (diverged, guarded off or beyond the CTA) reads undefined data on
hardware: here it reads its own value (non-strict) or raises (strict).

Not modelled
------------
* Independent thread scheduling interleavings: diverged paths of a warp run
  one after another (lowest RPO first), never interleaved; programs whose
  result depends on the interleaving (spin locks between lanes of a warp,
  racy communication without barriers) may behave differently or hang until
  ``max_steps``.
* Warp-synchronous code relying on reconvergence points other than the RPO
  join (e.g. ``BSSY``/``BSYNC`` placing them elsewhere, or ``WARPSYNC``):
  lanes run together exactly when they are at the same segment.
* Counted barriers are counted per thread; the hardware counts whole warps.
* A ``BAR`` inside a device function called by only part of the CTA fails
  (the rest of the CTA cannot run while the call is in progress).
* Memory ordering, caches, scopes and the ``sem``/``cache`` modifiers
  (everything is sequentially consistent).

Errors are :class:`InterpreterError` naming the instruction (function, block
index, op index, printed op), the thread (``ctaid``, ``tid``) and, where
relevant, the address.
"""

from ori_dialect.interpreter.decoder import Decoder
from ori_dialect.interpreter.frame import Activation, OpInfo, Segment
from ori_dialect.interpreter.launch import DEFAULT_MAX_STEPS, find_kernel, run_kernel
from ori_dialect.interpreter.machine import MAX_CALL_DEPTH, LocatedError, Machine
from ori_dialect.interpreter.memory import (
    GLOBAL_BASE,
    LOCAL_WINDOW,
    SHARED_WINDOW,
    Fault,
    GlobalMemory,
)
from ori_dialect.interpreter.semantics.registry import InterpreterError
from ori_dialect.interpreter.texture import Texture

__all__ = [
    "DEFAULT_MAX_STEPS",
    "GLOBAL_BASE",
    "LOCAL_WINDOW",
    "MAX_CALL_DEPTH",
    "SHARED_WINDOW",
    "Activation",
    "Decoder",
    "Fault",
    "GlobalMemory",
    "InterpreterError",
    "LocatedError",
    "Machine",
    "OpInfo",
    "Segment",
    "Texture",
    "find_kernel",
    "run_kernel",
]
