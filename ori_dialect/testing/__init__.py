"""Testing support: a random Ori program generator, an interpreter-based
equivalence checker and a fuzz runner that puts generated programs through
every registered pass.

* :mod:`ori_dialect.testing.generator` -- ``generate(seed, options=...)``
  returns a :class:`GeneratedProgram` (module, kernel name, input factory,
  feature counts); deterministic from the seed.
* :mod:`ori_dialect.testing.equivalence` -- ``check_equivalent`` and
  ``assert_pass_preserves`` (raise :class:`EquivalenceError`).
* :mod:`ori_dialect.testing.fuzz` -- ``fuzz(n_programs, seed0)`` returns a
  :class:`FuzzReport`.

The equivalence and fuzz modules import the interpreter only when they run
a kernel.
"""

from __future__ import annotations

from ori_dialect.testing.equivalence import (
    EquivalenceError,
    assert_pass_preserves,
    check_equivalent,
)
from ori_dialect.testing.fuzz import FuzzReport, PassNotApplicable, fuzz
from ori_dialect.testing.generator import (
    FEATURES,
    GeneratedProgram,
    GenOptions,
    LaunchInputs,
    generate,
)

__all__ = [
    "FEATURES",
    "EquivalenceError",
    "FuzzReport",
    "GenOptions",
    "GeneratedProgram",
    "LaunchInputs",
    "PassNotApplicable",
    "assert_pass_preserves",
    "check_equivalent",
    "fuzz",
    "generate",
]
