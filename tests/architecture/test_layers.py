"""The layering rules of docs/architecture.md "Layers", checked on the source.

* A module imports only modules of its own layer or of lower layers
  (``LAYERS``); ``targets`` imports nothing of ``ori_dialect`` but the
  latency-class and pipe enums; passes take nothing from the interpreter but
  its pure semantics.
* No private name (``_x``) crosses a module boundary, neither as
  ``from m import _x`` nor as ``m._x``, tests included.
* An import inside a function says why it is lazy: a ``# lazy: <why>``
  comment on its line or in the comment lines right above it.

Each checker is shown to find a violation in a small synthetic source, so
the tests cannot pass vacuously.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.test_imports import REPO, import_graph, import_targets, modules

# (module prefix, layer): the longest matching prefix decides.
LAYERS: tuple[tuple[str, int], ...] = (
    ("targets", 0),
    ("ori_dialect.ir", 1),
    ("ori_dialect.diagnostics", 1),
    ("ori_dialect.analysis", 2),
    ("ori_dialect.ops", 3),
    ("ori_dialect.dialect", 3),
    ("ori_dialect.interpreter", 4),
    ("ori_dialect.ptx", 4),
    ("ori_dialect.asm_printer", 4),
    ("ori_dialect.builder", 4),
    ("passes", 5),
    ("ori_dialect.testing", 6),
    ("ori_dialect.cli", 6),
    ("ori_dialect.universe", 6),
    ("ori_dialect", 6),  # the package's __init__ re-exports the dialect
)

# What targets/ may take from ori_dialect: the enums its latency tables use.
TARGETS_MAY_IMPORT = frozenset({"ori_dialect.ir.metadata"})
# What passes/ may take from the interpreter: the pure per-op semantics.
PASSES_MAY_IMPORT_FROM_INTERPRETER = "ori_dialect.interpreter.semantics"


def layer_of(module: str) -> int:
    best: tuple[int, int] | None = None
    for prefix, layer in LAYERS:
        matches = module == prefix or module.startswith(prefix + ".")
        if matches and (best is None or len(prefix) > best[0]):
            best = (len(prefix), layer)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[1]


def layering_violations(edges: dict[str, set[str]]) -> list[str]:
    bad = []
    for src in sorted(edges):
        for dst in sorted(edges[src]):
            if layer_of(dst) > layer_of(src):
                bad.append(f"{src} (layer {layer_of(src)}) imports {dst} (layer {layer_of(dst)})")
            elif (src == "targets" or src.startswith("targets.")) and dst.startswith(
                "ori_dialect"
            ) and dst not in TARGETS_MAY_IMPORT:
                bad.append(f"{src} imports {dst}: targets take only {sorted(TARGETS_MAY_IMPORT)}")
            elif (
                src.startswith("passes")
                and dst.startswith("ori_dialect.interpreter")
                and not dst.startswith(PASSES_MAY_IMPORT_FROM_INTERPRETER)
            ):
                bad.append(f"{src} imports {dst}: passes take only the interpreter's semantics")
    return bad


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(path: str, source: str, ours: frozenset[str]) -> list[str]:
    """``from m import _x`` and ``m._x`` where ``m`` is one of ``ours`` (module
    names or their first component)."""
    tree = ast.parse(source, path)
    bad = []
    module_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] not in ours and not node.level:
                continue
            for a in node.names:
                if _private(a.name):
                    bad.append(f"{path}:{node.lineno} imports {node.module}.{a.name}")
                else:
                    module_aliases.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ours:
                    module_aliases.add(a.asname or a.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in module_aliases
            and node.value.id[:1].islower()  # a module, not a class
        ):
            bad.append(f"{path}:{node.lineno} uses {node.value.id}.{node.attr}")
    return bad


def unmarked_lazy_imports(path: str, source: str) -> list[str]:
    """Imports inside functions without a ``# lazy: <why>`` comment."""
    tree = ast.parse(source, path)
    lines = source.splitlines()
    bad = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            text = [lines[node.lineno - 1]]
            k = node.lineno - 2
            while k >= 0 and lines[k].lstrip().startswith("#"):
                text.append(lines[k])
                k -= 1
            if not any("# lazy:" in t for t in text):
                bad.append(f"{path}:{node.lineno} imports inside {fn.name}() without '# lazy: <why>'")
    return sorted(set(bad))


def _sources(*roots: str) -> list[Path]:
    return sorted(f for r in roots for f in (REPO / r).rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_imports_go_down_the_layers() -> None:
    bad = layering_violations(import_graph(modules()))
    assert not bad, "\n".join(bad)


def test_no_private_name_crosses_a_module() -> None:
    ours = frozenset({"ori_dialect", "passes", "targets", "tests"})
    bad = []
    for f in _sources("ori_dialect", "passes", "targets", "tests"):
        bad += private_imports(str(f.relative_to(REPO)), f.read_text(), ours)
    assert not bad, "\n".join(bad)


def test_lazy_imports_say_why() -> None:
    bad = []
    for f in _sources("ori_dialect", "passes", "targets"):
        bad += unmarked_lazy_imports(str(f.relative_to(REPO)), f.read_text())
    assert not bad, "\n".join(bad)


def test_the_checkers_find_violations() -> None:
    """Each rule fails on a source that breaks it and passes the fixed form."""
    assert layering_violations({"ori_dialect.ir.slots": {"passes.dead_code"}})
    assert layering_violations({"targets.table": {"ori_dialect.ops.func"}})
    assert layering_violations({"passes.x": {"ori_dialect.interpreter.machine"}})
    assert not layering_violations({"passes.x": {"ori_dialect.interpreter.semantics.fold"}})
    ours = frozenset({"ori_dialect"})
    assert private_imports("a.py", "from ori_dialect.ir.slots import _x\n", ours)
    assert private_imports("a.py", "from ori_dialect.ir import slots\nslots._x\n", ours)
    assert not private_imports("a.py", "from ori_dialect.ir.slots import Src\nSrc._x\n", ours)
    assert not private_imports("a.py", "from numpy import _x\n", ours)
    lazy = "def f():\n    import json\n"
    assert unmarked_lazy_imports("a.py", lazy)
    assert not unmarked_lazy_imports("a.py", lazy.replace("json", "json  # lazy: start-up"))
    assert not unmarked_lazy_imports("a.py", "def f():\n    # lazy: start-up\n    import json\n")


def test_import_target_resolution_is_shared() -> None:
    """The helper this file relies on maps a relative import to our module."""
    known = modules()
    node = ast.parse("from .slots import Src").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert import_targets("ori_dialect.ir.instruction", node, False, known) == ["ori_dialect.ir.slots"]
