"""Exceptions raised by the ``targets`` package.

All of them derive from :class:`xdsl.utils.exceptions.DiagnosticException` so
that xDSL-based drivers (``ori-opt``) print them as a clean one-line diagnostic
instead of a Python traceback.
"""

from __future__ import annotations

from xdsl.utils.exceptions import DiagnosticException


class TargetError(DiagnosticException):
    """Base class of every error raised by :mod:`targets`."""


class InvalidTargetError(TargetError):
    """An :class:`~targets.descriptor.SMTarget` was built with inconsistent values."""


class UnknownTargetError(TargetError):
    """A target name did not match any registered target."""


class DuplicateTargetError(TargetError):
    """A second target was registered under an already-used name."""


class TargetPluginError(TargetError):
    """An ``ori.targets`` entry point could not be loaded or returned junk."""


class OccupancyInputError(TargetError):
    """Invalid launch parameters were given to the occupancy model."""
