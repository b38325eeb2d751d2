"""PTX tokenizer: one compiled master regex with named groups.

Token kinds:

* ``ID``    identifiers and dotted opcodes: ``ld.param.u32``, ``$L__BB0_2``, ``_``
* ``DIR``   directives / type and state-space keywords: ``.reg``, ``.u32``
* ``REG``   ``%``-registers, with an optional ``.x/.y/.z/.w`` component
  (``%tid.x``)
* ``FLT``   hex floats ``0fXXXXXXXX`` (f32) and ``0dXXXXXXXXXXXXXXXX`` (f64)
* ``DEC``   decimal floats ``1.5``, ``1e-3``, ``9.0``
* ``INT``   integers: decimal, ``0x`` hex, ``0b`` binary, octal, optional ``U``
* ``STR``   ``"..."``
* ``P``     punctuation: ``{ } ( ) [ ] , ; : + - ! @ | < > =``
* ``ERR``   any other character (reported by the parser)
* ``EOF``   end of input

Whitespace is skipped by the regex search itself (no token matches it) and
``//`` / ``/* */`` comments match a group that is filtered out, so the Python
loop runs once per token.
A token is a tuple ``(kind, text, offset)``; :class:`LineMap` turns offsets
into 1-based line/column numbers by bisection.
"""

from __future__ import annotations

import bisect
import re

Token = tuple[str, str, int]

_MASTER = re.compile(
    r"(?P<C>//[^\n]*|/\*[\s\S]*?\*/)"
    r"|(?P<ID>[A-Za-z_$][\w$]*(?:\.[\w$]+)*)"
    r"|(?P<DIR>\.[A-Za-z_][\w$]*)"
    r"|(?P<REG>%[\w$]+(?:\.[xyzw](?![\w$]))?)"
    r"|(?P<FLT>0[fF][0-9a-fA-F]{8}(?![\w.])|0[dD][0-9a-fA-F]{16}(?![\w.]))"
    r"|(?P<DEC>\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(?P<INT>0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|\d+U?)"
    r'|(?P<STR>"(?:[^"\\\n]|\\.)*")'
    r"|(?P<P>[{}()\[\],;:+\-!@|<>=])"
    r"|(?P<ERR>\S)"
)


def tokenize(text: str) -> list[Token]:
    """Split PTX text into ``(kind, text, offset)`` tokens ending with ``EOF``."""
    toks = [(k, m.group(), m.start()) for m in _MASTER.finditer(text) if (k := m.lastgroup) != "C"]
    end = len(text.rstrip())
    toks.append(("EOF", "", end))
    return toks  # type: ignore[return-value]


class LineMap:
    """Offset -> (line, col) conversion for one source text (1-based)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]
