"""PTX -> Ori lowering (the MercConverter step of ptxas).

``import_ptx(text, filename="<ptx>", target=None) -> ModuleOp`` parses PTX
and lowers every function; see :mod:`.function` for the per-function steps
(scopes, CFG, SSA construction after Braun et al.), :mod:`.builder` for the
emit API the instruction lowerings use, :mod:`.handlers` for how they are
registered, and the handler modules for what each PTX instruction becomes.
"""

# The handler modules register their lowerings when imported.  Order matters
# where two modules register one opcode: the integer forms (integer, logic)
# chain to the float forms (floating), which must be registered first.
from ori_dialect.ptx.lower import (  # noqa: F401
    convert,
    data,
    floating,
    gmma,
    integer,
    logic,
    special,
    sync,
    tensor,
    texture,
)
from ori_dialect.ptx.lower.handlers import LOWERINGS, lowers
from ori_dialect.ptx.lower.module import import_ptx

__all__ = ["LOWERINGS", "import_ptx", "lowers"]
