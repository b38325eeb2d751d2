"""ori: the Ori IR of ptxas 13.0 re-created on xDSL.

``ori_dialect`` holds the IR (register types, attributes, ops), its analyses,
the assembly printer and the command-line tools.  Passes live in the
top-level ``passes`` package and SM targets in ``targets``.
"""

from ori_dialect.dialect import Ori
from ori_dialect.ir.registers import RegFile

__all__ = ["Ori", "RegFile"]
