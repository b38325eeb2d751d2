"""The generic address map ori assumes (frontend and interpreter agree on it).

A generic 64-bit address in the window ``SHARED_WINDOW + off`` is CTA shared
memory at offset ``off``; in ``LOCAL_WINDOW + off`` the thread's local memory.
Both windows are 2^32 bytes and start on a multiple of 2^32, so the low word
of a generic address inside a window is the window offset (what PTX
``cvta.to.shared`` yields) and the high word is the window's tag.  Global
allocations live above ``GLOBAL_BASE``.  Real GPUs take the window bases from
the driver; the values only have to be consistent within ori.
"""

GLOBAL_BASE = 0x7F00_0000_0000
SHARED_WINDOW = 0x7E00_0000_0000
LOCAL_WINDOW = 0x7D00_0000_0000
WINDOW_SIZE = 1 << 32

__all__ = ["GLOBAL_BASE", "LOCAL_WINDOW", "SHARED_WINDOW", "WINDOW_SIZE"]
