"""One kernel of a PTX module on its own, for per-kernel import diagnostics.

ori imports a whole file and stops at the first construct it cannot lower, so one
unsupported instruction in one CUB kernel would hide the state of every other kernel
of the file.  :func:`single_entry` keeps everything of the module except the other
``.entry`` definitions (directives, module-scope variables, every ``.func``, debug
sections), blanking their lines instead of deleting them so that a diagnostic's
LINE:COL still points into the original file.
"""

from __future__ import annotations

import re

_ENTRY_START = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.entry\s+(\w+)", re.MULTILINE)


def entry_names(text: str) -> list[str]:
    """The ``.entry`` names of a PTX module, in file order."""
    return _ENTRY_START.findall(text)


def _entry_spans(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Line ranges [start, end] of each ``.entry``: from its header to the ``}`` that
    closes its body.  Braces are counted (outside ``//`` comments) because inline asm
    in CUB puts its own ``{ ... }`` scopes, closing brace in column 0, in the body."""
    spans: dict[str, tuple[int, int]] = {}
    i = 0
    while i < len(lines):
        m = _ENTRY_START.match(lines[i])
        if m is None:
            i += 1
            continue
        depth = 0
        opened = False
        j = i
        while j < len(lines):
            code = lines[j].split("//", 1)[0]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth == 0:
                break
            j += 1
        if j == len(lines):
            raise ValueError(f"the body of .entry {m.group(1)} is not closed")
        spans[m.group(1)] = (i, j)
        i = j + 1
    return spans


def single_entry(text: str, name: str) -> str:
    """``text`` with every ``.entry`` but ``name`` blanked out (same line numbers)."""
    lines = text.split("\n")
    spans = _entry_spans(lines)
    if name not in spans:
        raise KeyError(f"no .entry {name} in the module")
    for other, (start, end) in spans.items():
        if other != name:
            lines[start : end + 1] = [""] * (end + 1 - start)
    return "\n".join(lines)
