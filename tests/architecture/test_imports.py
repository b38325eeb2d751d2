"""The import graph of ori's packages (docs/architecture.md "Layers").

Issue 12 asks for no import cycles.  The five cycles that predated the rule
are broken and ``KNOWN_CYCLES`` is empty; the test fails on any cycle, and the
list is kept (and checked: a listed cycle that is gone fails too) so that a
cycle admitted later has to be named here.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("ori_dialect", "passes", "targets")

# Cycles that predate the rule; the list can only shrink, and it is empty.
KNOWN_CYCLES: tuple[frozenset[str], ...] = ()


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for f in (REPO / pkg).rglob("*.py"):
            name = ".".join(f.relative_to(REPO).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = f
    return out


def import_targets(cur: str, node: ast.Import | ast.ImportFrom, is_pkg: bool,
             known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = cur.split(".") if is_pkg else cur.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        names = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
    out = []
    for t in names:
        while t and t not in known:  # the longest prefix that is one of our modules
            t = t.rpartition(".")[0]
        if t and t != cur:
            out.append(t)
    return out


def _type_checking_imports(tree: ast.Module) -> list[ast.AST]:
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.extend(n for stmt in node.body for n in ast.walk(stmt))
    return out


def import_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> modules it imports (imports inside functions included; those
    under ``if TYPE_CHECKING:`` are left out: they never run)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for name, f in known.items():
        tree = ast.parse(f.read_text(), str(f))
        typing_only = {id(n) for n in _type_checking_imports(tree)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in typing_only:
                edges[name].update(import_targets(name, node, f.name == "__init__.py", known))
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    counter = 0
    nodes = sorted(set(edges) | {w for ws in edges.values() for w in ws})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def test_checker_finds_a_cycle() -> None:
    """The checker itself can fail: a synthetic three-module cycle is found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_new_import_cycle() -> None:
    found = cycles(import_graph(modules()))
    new = [sorted(c) for c in found if not any(c <= k for k in KNOWN_CYCLES)]
    assert not new, f"new import cycle(s): {new}"
    gone = [sorted(k) for k in KNOWN_CYCLES if not any(k & c for c in found)]
    assert not gone, f"cycle(s) broken: remove them from KNOWN_CYCLES: {gone}"


def test_passes_do_not_import_the_interpreter_machine_at_module_top() -> None:
    """Layering: passes sit below the interpreter's machine, the CLI and the test tools."""
    known = modules()
    bad = []
    for name, f in known.items():
        if not name.startswith("passes."):
            continue
        tree = ast.parse(f.read_text(), str(f))
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                for t in import_targets(name, node, f.name == "__init__.py", known):
                    if t.startswith(("ori_dialect.cli", "ori_dialect.testing",
                                     "ori_dialect.interpreter.machine")):
                        bad.append(f"{f.relative_to(REPO)}:{node.lineno} imports {t}")
    assert not bad, bad
