"""Ori passes: one module per documented phase, registered in ``passes.registry``."""
