"""AArch64 squaring core shared by mpn_sqr and bi_square_to_len (mul/umulh, adds/adcs).

Same two steps as x86_sqr.py (digits d_0..d_(n-1), result T of 2n digits):

    1. rows      T[1..n] = d_0 * d[1..n-1]; T[2i+1 .. i+n] += d_i * d[i+1..n-1] (a64_rows)
    2. final     (T[2q], T[2q+1]) = 2 (T[2q], T[2q+1]) + d_q^2

    doubling without a second carry flag:  extr d0, t0, prev_t1, #63   (t0 << 1 | prev >> 63)
                                           extr d1, t1, t0, #63
    the squares are added by one adcs chain running through the whole pass; loop control is
    sub/cbnz, which leaves NZCV alone.
"""

from ..a64.insn import mem
from ..a64.regs import XZR
from . import a64_rows
from .a64_rows import Digits


class PlainDiag:
    """Digits for the final pass read from a little-endian limb array."""

    def __init__(self, f, base):
        self.f = f
        self.base = base
        self.p = f.gpr("dp")

    def first(self, reg):
        self.f.ldr(reg, mem(self.base))
        self.f.add(self.p, self.base, 8)

    def next(self, reg):
        self.f.ldr(reg, mem(self.p))
        self.f.add(self.p, self.p, 8)


def plain_diag(f, base):
    return PlainDiag(f, base)


def rows(f, T, dig, n, p, unit=("limbs", 1)):
    """Step 1 for n >= 2 digits."""
    cy, m = f.gpr("cy"), f.gpr("m")
    o, a, ln = f.gpr("o"), f.gpr("a"), f.gpr("ln")
    f.mov(cy, XZR)
    f.add(o, T, 8)
    f.add(a, dig, 8)
    f.sub(ln, n, 1)
    f.ldr(m, mem(dig))
    a64_rows.row(f, Digits(o), Digits(a), ln, m, "mul", p, cy, unit)
    f.str_(cy, mem(o))
    # rows i = 1 .. n-2 (lengths n-2 .. 1): ro = T + 16 i + 8, ra = dig + 8 (i + 1)
    ro, ra, rl = f.gpr("ro"), f.gpr("ra"), f.gpr("rl")
    done = f.new_label("rows_done")
    top = f.new_label("rows")
    f.subs(rl, n, 2)
    f.b_eq(done)
    f.add(ro, T, 24)
    f.add(ra, dig, 16)
    f.bind(top)
    f.mov(cy, XZR)
    f.mov(o, ro)
    f.mov(a, ra)
    f.mov(ln, rl)
    f.ldr(m, mem(ra, -8))
    a64_rows.row(f, Digits(o), Digits(a), ln, m, "addmul", p, cy, unit)
    f.str_(cy, mem(o))
    f.add(ro, ro, 16)
    f.add(ra, ra, 8)
    f.subs(rl, rl, 1)
    f.b_ne(top)
    f.bind(done)


def final_pass(f, T, n, diag, store_pos0=None):
    d, lo, hi = f.gpr("d"), f.gpr("lo"), f.gpr("hi")
    t0, t1, prev = f.gpr("t0"), f.gpr("t1"), f.gpr("prev")
    d0, d1 = f.gpr("d0"), f.gpr("d1")
    ptr, c = f.gpr("ptr"), f.gpr("c")
    diag.first(d)
    f.mul(lo, d, d)
    f.umulh(hi, d, d)
    if store_pos0 is None:
        f.str_(lo, mem(T))
    else:
        store_pos0(lo)
    f.ldr(prev, mem(T, 8))
    f.lsl(d1, prev, 1)
    f.adds(d1, d1, hi)
    f.str_(d1, mem(T, 8))
    f.add(ptr, T, 16)
    f.sub(c, n, 1)
    done = f.new_label("final_done")
    top = f.new_label("final")
    f.cbz(c, done)
    f.bind(top)
    diag.next(d)
    f.mul(lo, d, d)
    f.umulh(hi, d, d)
    f.ldp(t0, t1, mem(ptr))
    f.extr(d0, t0, prev, 63)
    f.extr(d1, t1, t0, 63)
    f.mov(prev, t1)
    f.adcs(d0, d0, lo)
    f.adcs(d1, d1, hi)
    f.stp(d0, d1, mem(ptr))
    f.add(ptr, ptr, 16)
    f.sub(c, c, 1)
    f.cbnz(c, top)
    f.bind(done)


def square(f, T, dig, n, p, diag, store_pos0=None, unit=("limbs", 1)):
    """Whole square for n >= 1 digits (n preserved)."""
    one = f.new_label("sqr1")
    f.cmp(n, 1)
    f.b_eq(one)
    rows(f, T, dig, n, p, unit)
    f.bind(one)
    top = f.gpr("top")
    f.add(top, T, n, "lsl #4")
    f.str_(XZR, mem(top, -8))              # T[2n-1] = 0 (also T[1] when n == 1)
    final_pass(f, T, n, diag, store_pos0)
