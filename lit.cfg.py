"""lit configuration for ori's FileCheck tests (``lit -v tests/filecheck``).

Tools (``ori-opt``, ``xdsl-opt``, ``filecheck``) are taken from PATH:
activate the virtual environment that has ori installed (``pip install -e
'.[test]'``) before running lit.
"""

# ruff: noqa: F821 -- ``config`` and ``lit_config`` are injected by lit.
from __future__ import annotations

import hashlib
import os
import tempfile

import lit.formats

config.name = "ori"
# lit's internal shell: portable, and it provides ``not`` and ``diff``.
# (``ShTest(True)``, the external shell, is deprecated from lit 23 on and
# refused there unless forced.)
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
# Scratch files (%t) go outside the source tree, one folder per checkout, so
# running lit leaves no Output/ folders behind; ORI_LIT_OUTPUT overrides it.
config.test_exec_root = os.environ.get("ORI_LIT_OUTPUT") or os.path.join(
    tempfile.gettempdir(),
    "ori-lit-" + hashlib.sha1(config.test_source_root.encode()).hexdigest()[:12],
)
# Helper inputs (plugins, data) live in Inputs/ folders; Output/ is lit's own.
config.excludes = ["Inputs", "Output", "lit.cfg.py", "README.md"]

# Run the tools the environment provides; pass through what they need.
config.environment["PATH"] = os.environ.get("PATH", "")
for var in ("HOME", "PYTHONPATH", "VIRTUAL_ENV", "ORI_DEBUG", "SYSTEMROOT"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Diagnostics are compared verbatim: no colours.
config.environment["NO_COLOR"] = "1"
