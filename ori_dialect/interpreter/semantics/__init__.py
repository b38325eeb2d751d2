"""Per-op semantics of the Ori interpreter (see ``registry``)."""
