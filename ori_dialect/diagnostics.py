"""Diagnostic classes shared by the IR's parsers and the command-line tools."""

from __future__ import annotations

from xdsl.utils.exceptions import DiagnosticException, ParseError


class LocatedError(ParseError, DiagnosticException):
    """A semantic error with a source span, printed like an xDSL parse error.

    Used for verifier errors pointing at the failing op and for types and
    attributes that fail their own verifier while being parsed
    (``!ori.r32<R999>``).  It is both a :class:`ParseError` (it has a span) and
    a :class:`DiagnosticException` (it is a semantic error, so
    ``--verify-diagnostics`` prints it).
    """
