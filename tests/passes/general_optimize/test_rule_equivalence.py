"""The interpreter's results are unchanged by constants moved by swapping
sources, ``add-chain``, ``setp-combine``,
``lop3-predicate``, ``lop3-merge``, ``imad-add``, ``narrow-store``, ``zero-accumulator``, ``lea-sx32``, ``lea-hi``, ``sx-wide-add`` and ``wide-add`` (its add
pairs no PACK reads): the shapes of their lit tests as kernels over random
data (``check_lit_inputs``: one CTA of 32 threads, eight inputs), each
asserted to fire, since the generated programs rarely hold these shapes."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path

import pytest
from xdsl.parser import Parser

from ori_dialect.analysis import functions_of
from ori_dialect.testing.equivalence import check_lit_inputs, make_context
from passes.general_optimize import GeneralOptimizePass

HEAD = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>]} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a0 = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b0 = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %a = ori.lop3 %a0, -0x7ffffffd, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %b = ori.lop3 %b0, -0x7ffffffd, RZ, 0xc0 : (!ori.r32) -> !ori.r32
"""
# a and b keep bits 31, 1 and 0 of random words: equal in a quarter of the
# threads' pairs, negative (signed) in half, so every compare and its
# complement differ somewhere
TAIL = """    ori.exit
  }
}
"""

# (x + K1) + K2: 32-bit (with and without wrap-around), and the 64-bit add
# form with positive and negative sums; the chained pointers are stored
# through, so a wrong sum writes elsewhere
ADD_CHAIN = """
    %i1 = ori.iadd3 %a, 0x7ffffff0, RZ : (!ori.r32) -> !ori.r32
    %i2 = ori.iadd3 %i1, 0x20, RZ : (!ori.r32) -> !ori.r32
    %j1 = ori.iadd3 %b, -0x5, RZ : (!ori.r32) -> !ori.r32
    %j2 = ori.iadd3 RZ, 0x3, %j1 : (!ori.r32) -> !ori.r32
    %lo0, %hi0 = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %k1 = ori.iadd3 %lo0, 0x100, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %hi0, 0x0, RZ, %k1 : (!ori.r32, !ori.p) -> !ori.r32
    %p1 = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    %l2, %k2 = ori.iadd3 %l1, 0x80, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.iadd3 x %h1, 0x0, RZ, %k2 : (!ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %l2, %h2 : (!ori.r32, !ori.r32) -> !ori.r64
    %m1, %e1 = ori.iadd3 %lo0, 0x300, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %g1 = ori.iadd3 x %hi0, 0x0, RZ, %e1 : (!ori.r32, !ori.p) -> !ori.r32
    %m2, %e2 = ori.iadd3 %m1, -0x380, RZ : (!ori.r32) -> (!ori.r32, !ori.p)
    %g2 = ori.iadd3 x %g1, -0x1, RZ, %e2 : (!ori.r32, !ori.p) -> !ori.r32
    %q2 = ori.pack %m2, %g2 : (!ori.r32, !ori.r32) -> !ori.r64
    ori.stg [%p2], %i2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%q2 + 0x200], %j2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %h2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %g2 : (!ori.r64, !ori.r32) -> ()
"""

# PLOP3 of a compare and another predicate, every combining table the rule
# takes (AND, OR, XOR; negated inputs on either side), each stored as 0 or 1
SETP_COMBINE = """
    %z = ori.isetp lt.u32 %b, 0x7fffffff, PT : (!ori.r32) -> !ori.p
    %x1 = ori.isetp ge %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y1 = ori.plop3 %z, %x1, PT, 0xfc : (!ori.p, !ori.p) -> !ori.p
    %x2 = ori.isetp lt.u32 %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y2 = ori.plop3 %x2, not %z, PT, 0x30 : (!ori.p, !ori.p) -> !ori.p
    %x3 = ori.isetp eq %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y3 = ori.plop3 not %x3, %z, PT, 0x3c : (!ori.p, !ori.p) -> !ori.p
    %x4 = ori.isetp gt %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y4 = ori.plop3 not %x4, not %z, PT, 0x80 : (!ori.p, !ori.p) -> !ori.p
    %x5 = ori.isetp le.u32 %a, %b, PT : (!ori.r32, !ori.r32) -> !ori.p
    %y5 = ori.plop3 PT, %x5, %z, 0x90 : (!ori.p, !ori.p) -> !ori.p
    %one = ori.mov 0x1 : () -> !ori.r32
    %s1 = ori.sel %one, 0x0, %y1 : (!ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %one, 0x0, %y2 : (!ori.r32, !ori.p) -> !ori.r32
    %s3 = ori.sel %one, 0x0, %y3 : (!ori.r32, !ori.p) -> !ori.r32
    %s4 = ori.sel %one, 0x0, %y4 : (!ori.r32, !ori.p) -> !ori.r32
    %s5 = ori.sel %one, 0x0, %y5 : (!ori.r32, !ori.p) -> !ori.r32
    ori.stg [%w + 0x100], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %s4 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %s5 : (!ori.r64, !ori.r32) -> ()
"""

# a LOP3 tested against zero (!= twice, the LOP3 result stored too; == once,
# read negated by a SEL and as a guard)
LOP3_PREDICATE = """
    %x = ori.lop3 %a, %b, RZ, 0xc0 : (!ori.r32, !ori.r32) -> !ori.r32
    %q = ori.isetp ne.u32 %x, 0x0, PT : (!ori.r32) -> !ori.p
    %y = ori.lop3 %a, 0x10, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %r = ori.isetp ne RZ, %y, PT : (!ori.r32) -> !ori.p
    %one = ori.mov 0x1 : () -> !ori.r32
    %s1 = ori.sel %one, 0x0, %q : (!ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %one, 0x0, %r : (!ori.r32, !ori.p) -> !ori.r32
    %v = ori.lop3 %b, 0x1, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %e = ori.isetp eq.u32 %v, 0x0, PT : (!ori.r32) -> !ori.p
    %s3 = ori.sel %one, 0x0, %e : (!ori.r32, !ori.p) -> !ori.r32
    %g = ori.iadd3 %a, 0x5, RZ if %e else %b : (!ori.r32, !ori.p, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x280], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %g : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x100], %s1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %s2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %x : (!ori.r64, !ori.r32) -> ()
"""

# the high half of base + (int64)a and of 7:c + (int64)b, a and b negative
# in half the threads (the sign word all ones) and with carries from the low
# halves; both halves stored
LEA_SX32 = """
    %lo0, %hi0 = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %sa = ori.shr %a, 0x1f : (!ori.r32) -> !ori.r32
    %l1, %c1 = ori.iadd3 %a, %lo0, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %sa, %hi0, RZ, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %sb = ori.shr %b, 0x1f : (!ori.r32) -> !ori.r32
    %l2, %c2 = ori.iadd3 %b, %b0, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.iadd3 x RZ, 0x7, %sb, %c2 : (!ori.r32, !ori.p) -> !ori.r32
    ori.stg [%w + 0x100], %l1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %h1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %l2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %h2 : (!ori.r64, !ori.r32) -> ()
    %l3, %c3 = ori.lea %a, %lo0, 0x3 : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h3 = ori.lea hi.x %a, %hi0, 0x3, %sa, %c3 : (!ori.r32, !ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %h4 = ori.lea hi %b, %b0, 0x5, %sb : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x300], %h3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x380], %h4 : (!ori.r64, !ori.r32) -> ()
"""

# a signed division by 16 and by 128 as nvcc writes it (the sign word's
# logical shift added, then an arithmetic shift), %a negative in half the
# threads; the shifted word added to another register (%e) and in the first
# slot (%f)
LEA_HI = """
    %sa = ori.shr %a, 0x1f : (!ori.r32) -> !ori.r32
    %t4 = ori.shr u32 %sa, 0x1c : (!ori.r32) -> !ori.r32
    %u4 = ori.iadd3 %a, %t4, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %q4 = ori.shr %u4, 0x4 : (!ori.r32) -> !ori.r32
    %t7 = ori.shr u32 %sa, 0x19 : (!ori.r32) -> !ori.r32
    %u7 = ori.iadd3 %t7, %a, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %q7 = ori.shr %u7, 0x7 : (!ori.r32) -> !ori.r32
    %tb = ori.shr u32 %b, 0x3 : (!ori.r32) -> !ori.r32
    %e = ori.iadd3 %a0, %tb, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %q4 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %q7 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %e : (!ori.r64, !ori.r32) -> ()
"""

# base + (int64)i on a register base: the base an UNPACK's words (%p1) and
# two separate words (%p2, a PACK made for it); i negative in half the
# threads; a scaled high half (shift 2) is not this rule's
SX_WIDE_ADD = """
    %lo0, %hi0 = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %c1 = ori.iadd3 %a, %lo0, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.lea_hi_sx32 x %a, %hi0, 0x1, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p1 = ori.pack %l1, %h1 : (!ori.r32, !ori.r32) -> !ori.r64
    %l2, %c2 = ori.iadd3 %b0, %b, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.lea_hi_sx32 x %b, %a0, 0x1, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p2 = ori.pack %l2, %h2 : (!ori.r32, !ori.r32) -> !ori.r64
    %l3, %c3 = ori.iadd3 %b0, %b, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h3 = ori.lea_hi_sx32 x %b, %a0, 0x2, %c3 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %p3 = ori.pack %l3, %h3 : (!ori.r32, !ori.r32) -> !ori.r64
    %x1, %y1 = ori.unpack %p1 : (!ori.r64) -> (!ori.r32, !ori.r32)
    %x2, %y2 = ori.unpack %p2 : (!ori.r64) -> (!ori.r32, !ori.r32)
    %x3, %y3 = ori.unpack %p3 : (!ori.r64) -> (!ori.r32, !ori.r32)
    ori.stg [%w + 0x100], %x1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %y1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %x2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %y2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %x3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x380], %y3 : (!ori.r64, !ori.r32) -> ()
"""

# (base + a*2) + b*4 as two 64-bit add pairs that no PACK reads: the words
# of the first feed the second, the second's are stored
WIDE_ADD_CHAIN = """
    %x = ori.imad wide.u32 %a, 0x2, RZ : (!ori.r32) -> !ori.r64
    %wl, %wh = ori.unpack %w : (!ori.r64) -> (!ori.r32, !ori.r32)
    %xl, %xh = ori.unpack %x : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l1, %c1 = ori.iadd3 %xl, %wl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h1 = ori.iadd3 x %xh, %wh, RZ, %c1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %y = ori.imad wide %b, 0x4, RZ : (!ori.r32) -> !ori.r64
    %yl, %yh = ori.unpack %y : (!ori.r64) -> (!ori.r32, !ori.r32)
    %l2, %c2 = ori.iadd3 %l1, %yl, RZ : (!ori.r32, !ori.r32) -> (!ori.r32, !ori.p)
    %h2 = ori.iadd3 x %h1, %yh, RZ, %c2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    ori.stg [%w + 0x100], %l2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %h2 : (!ori.r64, !ori.r32) -> ()
"""

# xor of three, an immediate in slot b, and a majority read again by a
# table over the same three inputs in another order
LOP3_MERGE = """
    %x1 = ori.lop3 %a, %b, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %y1 = ori.lop3 %x1, %a0, RZ, 0x3c : (!ori.r32, !ori.r32) -> !ori.r32
    %x2 = ori.lop3 %a0, 0xff00ff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %y2 = ori.lop3 %b0, %x2, RZ, 0xfc : (!ori.r32, !ori.r32) -> !ori.r32
    %x3 = ori.lop3 %a0, %b0, %a, 0xe8 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y3 = ori.lop3 %b0, %x3, %a0, 0x1e : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %y1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %y2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %y3 : (!ori.r64, !ori.r32) -> ()
"""

# products read by one add: a register addend (wrapping: a0 * b0 spans the
# whole word), an immediate addend with the product in slot c, and a
# c[][] multiplier beside a register addend
IMAD_ADD = """
    %x1 = ori.imad %a0, %b0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y1 = ori.iadd3 %x1, %a, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %x2 = ori.imad %b0, %a, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %y2 = ori.iadd3 RZ, -0x7ffffff0, %x2 : (!ori.r32) -> !ori.r32
    %x3 = ori.imad %b, c[0x0][0x160], RZ : (!ori.r32) -> !ori.r32
    %y3 = ori.iadd3 %a0, %x3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %y1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %y2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %y3 : (!ori.r64, !ori.r32) -> ()
"""

# MMAs from zero accumulators: an f32 HMMA and an s8 IMMA whose C is a
# PACK of zeros (RZ words and an immediate 0, as const-prop leaves them),
# then read as RZ
ZERO_ACCUMULATOR = """
    %z = ori.pack RZ, RZ, RZ, 0x0 : () -> !ori.r128
    %qa = ori.pack %a0, %b0, %a, %b : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %pb = ori.pack %b, %a0 : (!ori.r32, !ori.r32) -> !ori.r64
    %d1 = ori.hmma m16n8k16.f32 %qa, %pb, %z : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %d2 = ori.imma m16n8k32.s8.u8 %qa, %pb, %z : (!ori.r128, !ori.r64, !ori.r128) -> !ori.r128
    %e0, %e1, %e2, %e3 = ori.unpack %d1 : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %f0, %f1, %f2, %f3 = ori.unpack %d2 : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %g0 = ori.lop3 %f0, %f1, %f2, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %g1 = ori.iadd3 %g0, %f3, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %e0 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %e1 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x200], %e2 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x280], %e3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x300], %g1 : (!ori.r64, !ori.r32) -> ()
"""

# constants read in a slot that takes none, moved to b by swapping sources
# (the op's commutation fix-ups): FSETP's mirrored comparisons (unordered
# ones too: %a0/%b0 are raw words, NaNs among them), SEL's negated
# predicate (plain and already negated), LOP3's permuted truth table
COMMUTED_CONSTANTS = """
    %k = ori.mov 0x3f800000 : () -> !ori.r32
    %c = ori.mov -0x3ee00000 : () -> !ori.r32
    %p1 = ori.fsetp lt %k, %a0, PT : (!ori.r32, !ori.r32) -> !ori.p
    %p2 = ori.fsetp geu %c, %b0, PT : (!ori.r32, !ori.r32) -> !ori.p
    %p3 = ori.fsetp leu.ftz %k, |%b0|, PT : (!ori.r32, !ori.r32) -> !ori.p
    %s1 = ori.sel %k, %a0, %p1 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s2 = ori.sel %c, %b0, not %p2 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %s3 = ori.sel %k, %s1, %p3 : (!ori.r32, !ori.r32, !ori.p) -> !ori.r32
    %l1 = ori.lop3 %k, %a0, %b0, 0xe8 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %l2 = ori.lop3 %a0, %b0, %c, 0x1e : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %y = ori.lop3 %l1, %l2, %s2, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %y : (!ori.r64, !ori.r32) -> ()
"""

# masks read only by narrow stores: u16 and u8 of a sum's low bits, s16 of
# a value whose bit 15 is random (the sign a wider read would see); a
# wrong rewrite stores other bytes
NARROW_STORE = """
    %s = ori.iadd3 %a0, %b0, RZ : (!ori.r32, !ori.r32) -> !ori.r32
    %m16 = ori.lop3 %s, 0xffff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u16 [%w + 0x200], %m16 : (!ori.r64, !ori.r32) -> ()
    %m8 = ori.lop3 %a0, 0x1ff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u8 [%w + 0x202], %m8 : (!ori.r64, !ori.r32) -> ()
    ori.stg s16 [%w + 0x204], %m16 : (!ori.r64, !ori.r32) -> ()
    %k8 = ori.lop3 %b0, 0xff, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    ori.stg u16 [%w + 0x206], %k8 : (!ori.r64, !ori.r32) -> ()
"""

CASES = {"narrow-store": (NARROW_STORE, 2), "constants": (COMMUTED_CONSTANTS, 8), "add-chain": (ADD_CHAIN, 4), "zero-accumulator": (ZERO_ACCUMULATOR, 2), "setp-combine": (SETP_COMBINE, 5),
         "lop3-merge": (LOP3_MERGE, 3), "imad-add": (IMAD_ADD, 3),
         "lop3-predicate": (LOP3_PREDICATE, 3), "lea-sx32": (LEA_SX32, 4), "lea-hi": (LEA_HI, 3),
         "wide-add": (WIDE_ADD_CHAIN, 2), "sx-wide-add": (SX_WIDE_ADD, 2)}


def _fires_and_keeps_results(rule: str, text: str, fires: int, tmp_path: Path) -> None:
    """``rule`` rewrites ``fires`` times in ``text``, and the interpreter's
    results are unchanged by the pass and after allocation."""
    counts: Counter[str] = Counter()
    m = Parser(make_context(), text).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        for f in functions_of(m):
            counts.update(GeneralOptimizePass().run_function(f).counts)
    assert counts[rule] == fires, counts
    (tmp_path / f"{rule}.mlir").write_text(text)
    seen = check_lit_inputs([tmp_path], "ori-general-optimize", seeds=range(8))
    assert seen.kernels == 1 and seen.changed == 1
    # and after allocation, on the physical registers
    seen = check_lit_inputs([tmp_path], "ori-general-optimize,ori-regalloc", seeds=range(4))
    assert seen.kernels == 1


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_keeps_results(rule: str, tmp_path: Path) -> None:
    body, fires = CASES[rule]
    _fires_and_keeps_results(rule, HEAD + body + TAIL, fires, tmp_path)


def test_tuple_args_keep_results(tmp_path: Path) -> None:
    """``tuple-args`` on the lit kernels (an HMMA accumulator carried around
    its loop and out of it as one quad): the interpreter's results before and
    after, and after allocation; the rule fires on the accumulator kernel."""
    lit = Path(__file__).resolve().parents[2] / "filecheck" / "passes" / "general_optimize"
    text = (lit / "tuple-args.mlir").read_text()
    acc = text.split("// -----")[0]
    counts: Counter[str] = Counter()
    m = Parser(make_context(), acc).parse_module()
    with contextlib.redirect_stderr(io.StringIO()):
        for f in functions_of(m):
            counts.update(GeneralOptimizePass().run_function(f).counts)
    assert counts["tuple-args"] == 2, counts
    (tmp_path / "tuple-args.mlir").write_text(acc)
    seen = check_lit_inputs([tmp_path], "ori-general-optimize", seeds=range(8))
    assert seen.kernels == 1 and seen.changed == 1
    seen = check_lit_inputs([tmp_path], "ori-general-optimize,ori-regalloc", seeds=range(4))
    assert seen.kernels == 1


# scaled shared-memory indices: each thread stores its word at t * 4, a
# pair at t * 8 and a quad at t * 16 and counts its value's low 3 bits in
# eight ATOMS bins, then reads other threads' (t ^ 5, t + 3) and bin t & 7:
# a wrong scale or offset reads another slot or an unwritten one
SCALED_INDEX = """builtin.module attributes {ori.target = "sm_80"} {
  ori.func kernel @k() attributes {params = [#ori.param<8, align 8, at 0x0>], ori.shared_bytes = 2048 : i32} {
    %p = ori.ldc b64 0x0, [RZ + 0x160] : () -> !ori.r64
    %t = ori.s2r SR_TID.X : () -> !ori.r32
    %w = ori.imad wide.u32 %t, 0x4, %p : (!ori.r32, !ori.r64) -> !ori.r64
    %a0 = ori.ldg [%w] : (!ori.r64) -> !ori.r32
    %b0 = ori.ldg [%w + 0x80] : (!ori.r64) -> !ori.r32
    %s4 = ori.shl %t, 0x2 : (!ori.r32) -> !ori.r32
    ori.sts [%s4], %a0 : (!ori.r32, !ori.r32) -> ()
    %pair = ori.pack %a0, %b0 : (!ori.r32, !ori.r32) -> !ori.r64
    %s8 = ori.imad %t, 0x8, RZ : (!ori.r32) -> !ori.r32
    ori.sts b64 [%s8 + 0x100], %pair : (!ori.r32, !ori.r64) -> ()
    %quad = ori.pack %b0, %a0, %t, %b0 : (!ori.r32, !ori.r32, !ori.r32, !ori.r32) -> !ori.r128
    %s16 = ori.shl %t, 0x4 : (!ori.r32) -> !ori.r32
    ori.sts b128 [%s16 + 0x300], %quad : (!ori.r32, !ori.r128) -> ()
    %bin = ori.lop3 %a0, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %b4 = ori.shl %bin, 0x2 : (!ori.r32) -> !ori.r32
    %old = ori.atoms add.u32 [%b4 + 0x700], 0x1 : (!ori.r32) -> !ori.r32
    ori.bar 0x0 : () -> ()
    %u = ori.lop3 %t, 0x5, RZ, 0x3c : (!ori.r32) -> !ori.r32
    %u0 = ori.lop3 %t, 0x7, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %c4 = ori.shl %u0, 0x2 : (!ori.r32) -> !ori.r32
    %cnt = ori.lds [%c4 + 0x700] : (!ori.r32) -> !ori.r32
    %u4 = ori.shl %u, 0x2 : (!ori.r32) -> !ori.r32
    %x = ori.lds [%u4] : (!ori.r32) -> !ori.r32
    %u8 = ori.shl %u, 0x3 : (!ori.r32) -> !ori.r32
    %y = ori.lds b64 [%u8 + 0x100] : (!ori.r32) -> !ori.r64
    %v = ori.iadd3 %t, 0x3, RZ : (!ori.r32) -> !ori.r32
    %v31 = ori.lop3 %v, 0x1f, RZ, 0xc0 : (!ori.r32) -> !ori.r32
    %v16 = ori.shl %v31, 0x4 : (!ori.r32) -> !ori.r32
    %z = ori.lds b128 [%v16 + 0x300] : (!ori.r32) -> !ori.r128
    %y0, %y1 = ori.unpack %y : (!ori.r64) -> (!ori.r32, !ori.r32)
    %z0, %z1, %z2, %z3 = ori.unpack %z : (!ori.r128) -> (!ori.r32, !ori.r32, !ori.r32, !ori.r32)
    %s1 = ori.iadd3 %x, %y0, %y1 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s2 = ori.lop3 %z0, %z1, %z2, 0x96 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %s3 = ori.iadd3 %s1, %s2, %z3 : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    ori.stg [%w + 0x100], %s3 : (!ori.r64, !ori.r32) -> ()
    ori.stg [%w + 0x180], %cnt : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
"""


def test_scaled_index_keeps_results(tmp_path: Path) -> None:
    """A kernel of its own: the accesses need shared memory."""
    _fires_and_keeps_results("scaled-index", SCALED_INDEX, 8, tmp_path)
