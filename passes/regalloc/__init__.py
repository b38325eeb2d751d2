"""The fat-point register allocator of seed 000 (``ori-regalloc``) and its
checker (``ori-check-regalloc``).

Modules, one per concern:

* :mod:`.points`   -- program points and the live segments of every value;
* :mod:`.budget`   -- register budgets, reserved registers, warning 7016;
* :mod:`.classes`  -- allocation classes (seed 000's 7 classes mapped onto
  ori's register files) and allocation units with their spill costs;
* :mod:`.coalesce` -- units: tied operands (mandatory) and copy / block
  argument coalescing (optional);
* :mod:`.ordering` -- the 6-list simplify/select ordering;
* :mod:`.fatpoint` -- the fat-point core: per-register interference
  histograms, minimum-cost slot, secondary cost, discard threshold;
* :mod:`.refine`   -- refinement trials: the R file coloured again below its
  highest register in other orders, the best colouring kept;
* :mod:`.copies`   -- copies for tied operands and the edge parallel copies
  lowered to MOVs with cycles broken;
* :mod:`.spill`    -- spill code to local memory (STL/LDL), slot compaction,
  frame size;
* :mod:`.pred_pack` -- spilled predicates threaded into shared GPR homes,
  one bit each (after every spill round);
* :mod:`.spill_marks` -- the attributes the spiller marks stores, reloads and
  homes with, and the predicates that read them (spilled values and reloads
  are not spilled again);
* :mod:`.driver`   -- the ``ori-regalloc`` pass: NOSPILL then SPILL retries;
  ``strategy=ssa`` dispatches to the second strategy instead:
* :mod:`.ssa_driver`, :mod:`.ssa_spill`, :mod:`.ssa_assign` -- pre-spilling
  to the budget (Braun & Hack 2009) then assignment in dominance order
  (exactly the maximum pressure for one-register values); same spiller,
  copies, checker and figures;
* :mod:`.result`   -- what both drivers produce: the per-function result and
  the figures recorded for ``ori-stats``;
* :mod:`.checker`  -- ``ori-check-regalloc`` and its Python API.
"""
