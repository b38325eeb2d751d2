"""Compile every kernel of ``examples/triton/kernels.py`` to PTX for sm_80 and sm_90a.

Needs a Python that has Triton 3.9 (ori does not depend on Triton)::

    TRITON_PTXAS_PATH=$(which ptxas) TRITON_DEFAULT_FP_FUSION=1 \\
        /tmp/tvenv/bin/python examples/triton/build_ptx.py

(``TRITON_PTXAS_PATH``: Triton's bundled ptxas is older than ``.version 9.0``; the
script sets both variables itself when they are unset and ``ptxas`` is on PATH.)

Writes ``examples/triton/ptx/sm_80/NAME.ptx`` (capability 80) and
``examples/triton/ptx/sm_90a/NAME.ptx`` (capability 90: Triton targets ``sm_90a``)
as Triton emits them, ``.version 9.0``. The output is deterministic for a given Triton:
``kernels.py`` is compiled under the relative file name ``kernels.py`` so that no
checkout path reaches the ``.file`` directive or the DWARF sections, Triton's cache is
bypassed (a fresh cache directory per run), and the one post-edit, :func:`strip_paths`,
cuts the absolute path of Triton's own library files (``.file 2 ".../triton/language/
standard.py"``, named by inlined reductions) to ``triton/language/standard.py``.
"""

from __future__ import annotations

import importlib.util
import linecache
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

TRITON_DIR = Path(__file__).resolve().parent
PTX_DIR = TRITON_DIR / "ptx"
ARCHS: dict[str, int] = {"sm_80": 80, "sm_90a": 90}
PTX_VERSION = 90

_LIB_FILE_RE = re.compile(r'^(\s*\.file\s+\d+\s+)"[^"]*/(triton/[^"]*)"', re.MULTILINE)


def strip_paths(ptx: str) -> str:
    """``ptx`` with Triton's library files named relative to its install directory."""
    return _LIB_FILE_RE.sub(r'\1"\2"', ptx)


def load_kernels() -> ModuleType:
    """``kernels.py`` as a module whose code objects name the file ``kernels.py``."""
    path = TRITON_DIR / "kernels.py"
    text = path.read_text()
    name = "kernels.py"
    # Triton reads the kernel source back with inspect.getsource: serve it from linecache.
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    spec = importlib.util.spec_from_loader("ori_triton_kernels", loader=None, origin=name)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = name
    sys.modules[spec.name] = mod  # dataclasses look their module up by name
    exec(compile(text, name, "exec"), mod.__dict__)  # noqa: S102  (our own source file)
    return mod


def compile_all(root: Path) -> list[Path]:
    """Compile every kernel for every arch into ``root/ARCH/NAME.ptx``."""
    # imported here: only this script needs Triton, and ori's venv has none
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    kernels = load_kernels()
    written = []
    for arch, cap in ARCHS.items():
        (root / arch).mkdir(parents=True, exist_ok=True)
        for k in kernels.KERNELS:
            src = ASTSource(fn=k.fn, signature=k.signature, constexprs=k.constexprs)
            compiled = triton.compile(
                src,
                target=GPUTarget("cuda", cap, 32),
                options={"ptx_version": PTX_VERSION, "num_warps": k.num_warps},
            )
            out = root / arch / f"{k.name}.ptx"
            out.write_text(strip_paths(compiled.asm["ptx"]))
            written.append(out)
    return written


def main(argv: list[str]) -> int:
    """``build_ptx.py [OUT_DIR]``: write the PTX under OUT_DIR (default: the committed
    ``examples/triton/ptx``; the tests regenerate into a temporary directory)."""
    root = Path(argv[0]) if argv else PTX_DIR
    ptxas = shutil.which("ptxas")
    if "TRITON_PTXAS_PATH" not in os.environ and ptxas is not None:
        os.environ["TRITON_PTXAS_PATH"] = ptxas
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        for out in compile_all(root):
            print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
