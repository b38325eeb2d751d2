"""PTX tokenizer: one compiled master regex, run line by line with ``findall``.

Token kinds (from the first character of the token text):

* ``ID``    identifiers and dotted opcodes: ``ld.param.u32``, ``$L__BB0_2``, ``_``;
  modifiers may contain ``::`` (``ld.global.L1::no_allocate.u32``)
* ``DIR``   directives / type and state-space keywords: ``.reg``, ``.u32``
* ``REG``   ``%``-registers, with an optional ``.x/.y/.z/.w`` component
  (``%tid.x``)
* ``INT``   any numeric literal: ``16``, ``0x10``, ``7U``, ``1.5``, ``1e-3``,
  hex floats ``0f3F800000`` / ``0d3FF0000000000000``; the parser validates and
  classifies the spelling (:func:`classify_number`)
* ``STR``   ``"..."``
* ``P``     punctuation: ``{ } ( ) [ ] , ; : + - ! @ | < > =``
* ``ERR``   any other character (reported by the parser)
* ``EOF``   end of input

``//`` comments and ``/* */`` comments are dropped (multi-line block comments
are blanked first, offsets preserved).  The regex runs in C through
``findall`` once per line (mapped over the lines, flattened with
``chain``), and kinds come from a first-character table, so no Python code
runs per token or per line (only per line holding a ``/``).  A token is
``(kind, text, index)``; :class:`Lexed` maps a token index back to a 1-based
line (bisecting the first-token index of each line) and column, rescanning
the line only for tokens that are not the first on their line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from itertools import accumulate, chain
from operator import itemgetter

Token = tuple[str, str, int]

_TOKEN = re.compile(
    r"//.*"
    r"|/\*.*?\*/"
    r"|[A-Za-z_$][\w$]*(?:\.[\w$]+(?:::[\w$]+)*)*"
    r"|\.[A-Za-z_][\w$]*"
    r"|%[\w$]+(?:\.[xyzw](?![\w$]))?"
    r"|\d[\w.]*(?:(?<=[eE])[+-]\d+)?"
    r'|"(?:[^"\\]|\\.)*"'
    r"|\S"
)
_BLOCK_COMMENT = re.compile(r"/\*[\s\S]*?\*/")
_NUMBER_KINDS = (
    ("f32", re.compile(r"0[fF][0-9a-fA-F]{8}")),
    ("f64", re.compile(r"0[dD][0-9a-fA-F]{16}")),
    ("int", re.compile(r"0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|0[0-7]*U?|[1-9]\d*U?")),
    ("float", re.compile(r"\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+")),
)

_KIND: defaultdict[str, str] = defaultdict(lambda: "ERR")
for _c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$":
    _KIND[_c] = "ID"
for _c in "0123456789":
    _KIND[_c] = "INT"
for _c in "{}()[],;:+-!@|<>=":
    _KIND[_c] = "P"
_KIND["."] = "DIR"
_KIND["%"] = "REG"
_KIND['"'] = "STR"


def classify_number(text: str) -> str | None:
    """``'int'``, ``'f32'``, ``'f64'`` or ``'float'`` for a valid literal, else None."""
    for kind, pat in _NUMBER_KINDS:
        if pat.fullmatch(text):
            return kind
    return None


def _is_comment(tok: str) -> bool:
    return tok[:2] in ("//", "/*")


class Lexed:
    """The tokens of one text plus the index -> (line, col) mapping."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.source_lines = text.split("\n")
        scan = text
        if "/*" in text:
            scan = _BLOCK_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
        self.lines = scan.split("\n") if scan is not text else self.source_lines
        # The per-line lists are built and flattened by C-level map/chain
        # calls: the Python loop around findall cost as much as the regex.
        per_line = list(map(_TOKEN.findall, self.lines))
        if "/" in scan:
            for ln, line in enumerate(self.lines):
                if "/" in line:
                    per_line[ln] = [t for t in per_line[ln] if not _is_comment(t)]
        # first[ln] = index of the first token of line ln (= tokens before it);
        # one extra entry holds the token count.
        self.first = list(accumulate(map(len, per_line), initial=0))
        texts = list(chain.from_iterable(per_line))
        n = len(texts)
        self.n_tokens = n
        self.toks: list[Token] = list(
            zip(map(_KIND.__getitem__, map(itemgetter(0), texts)), texts, range(n))
        )
        if n:
            last = self._line_of(n - 1)
            self.eof = (last + 1, len(self.lines[last].rstrip()) + 1)
        else:
            self.eof = (1, 1)
        self.toks.append(("EOF", "", n))

    def _line_of(self, index: int) -> int:
        # The last line whose first token index is <= index: lines before it
        # with the same index are empty, so this is the line holding the token.
        return bisect_right(self.first, index) - 1

    def line_col(self, index: int) -> tuple[int, int]:
        """1-based line and column of token ``index`` (the EOF index gives end of text)."""
        if index >= self.n_tokens:
            return self.eof
        ln = self._line_of(index)
        line = self.lines[ln]
        k = index - self.first[ln]
        if k == 0 and "/" not in line:
            return ln + 1, len(line) - len(line.lstrip()) + 1
        matches = [m for m in _TOKEN.finditer(line) if not _is_comment(m.group())]
        return ln + 1, matches[k].start() + 1

    def line_text(self, line: int) -> str:
        return self.source_lines[line - 1] if 0 < line <= len(self.source_lines) else ""


def tokenize(text: str) -> list[Token]:
    """Split PTX text into ``(kind, text, index)`` tokens ending with ``EOF``."""
    return Lexed(text).toks
