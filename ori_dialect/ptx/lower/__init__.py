"""PTX -> Ori lowering (the MercConverter step of ptxas).

``import_ptx(text, filename="<ptx>", target=None) -> ModuleOp`` parses PTX
and lowers every function; see :mod:`.function` for the per-function steps
(scopes, CFG, SSA construction after Braun et al.), :mod:`.handlers` for how
instruction lowerings are registered, and the handler modules for what each
PTX instruction becomes.
"""

from ori_dialect.ptx.lower import convert, data, floating, integer, special, sync  # noqa: F401 -- register lowerings
from ori_dialect.ptx.lower.handlers import LOWERINGS, lowers
from ori_dialect.ptx.lower.module import import_ptx

__all__ = ["LOWERINGS", "import_ptx", "lowers"]
