"""PTX front end: tokenizer, typed AST and parser for the PTX nvcc 13 emits.

``parse_ptx(text, filename)`` returns an :class:`ori_dialect.ptx.ast.Module`
or raises :class:`PtxSyntaxError` (``FILE:LINE:COL: error: ...``).  See
:mod:`ori_dialect.ptx.parser` for the grammar subset.
"""

from ori_dialect.ptx import ast
from ori_dialect.ptx.lexer import tokenize
from ori_dialect.ptx.parser import PtxSyntaxError, parse_ptx

__all__ = ["PtxSyntaxError", "ast", "parse_ptx", "tokenize"]
