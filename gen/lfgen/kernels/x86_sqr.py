"""x86-64 squaring core shared by mpn_sqr and bi_square_to_len (MULX + ADCX/ADOX).

With digits d_0..d_(n-1) (B = 2^64) and a result array T of 2n digits:

    1. rows      T[1..n]          = d_0 * (d_1 .. d_(n-1))              mul_1 row
                 T[2i+1 .. i+n]  += d_i * (d_(i+1) .. d_(n-1)), 1<=i<=n-2  addmul_1 rows
                 (each row's carry digit stored just above it); T[2n-1] = 0
    2. final     (T[2q], T[2q+1]) = 2 (T[2q], T[2q+1]) + d_q^2      q = 0 .. n-1
                 doubling on the CF chain (ADCX t,t), squares on the OF chain (ADOX);
                 T[0] is never read (it is 0), so q = 0 is peeled.

`dig` is where the rows read digits (plain little-endian digits); `diag` streams the digits
for the final pass with first(reg)/next(reg), using only flag-free instructions (the
BigInteger kernel reads those from its BE-word input).
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, MULX, ADCX, ADOX, XOR, LEA, SUB,
                            JZ, JNZ, JRCXZ, JMP, CMP, JBE, TEST, Label, LABEL, rdx, rcx)

from . import x86_rows
from .x86_rows import Digits


def rows(f, T, dig, n, p):
    """Step 1 for n >= 2 digits: T[1 .. 2n-2] written, T[2n-1] untouched."""
    cy = GeneralPurposeRegister64()
    o = GeneralPurposeRegister64()
    a = GeneralPurposeRegister64()
    ln = GeneralPurposeRegister64()
    # row 0: T[1..n-1] = d_0 * d[1..n-1], carry -> T[n]
    XOR(cy.as_dword, cy.as_dword)
    LEA(o, [T + 8])
    LEA(a, [dig + 8])
    LEA(ln, [n - 1])
    MOV(rdx, [dig])
    x86_rows.row(f, Digits(o), Digits(a), ln, "mul", "adc", p.unroll, p.ahead, cy)
    MOV([o], cy)
    # rows i = 1 .. n-2, lengths n-2 .. 1
    i = GeneralPurposeRegister64()
    MOV(i, 1)
    top = f.new_label("top")
    done = f.new_label("done")
    LEA(ln, [n - 2])
    TEST(ln, ln)
    JZ(done)
    LABEL(top)
    XOR(cy.as_dword, cy.as_dword)
    LEA(o, [T + i * 8])
    LEA(o, [o + i * 8 + 8])               # T + 16 i + 8
    LEA(a, [dig + i * 8 + 8])             # d_(i+1)
    MOV(rdx, [a - 8])                     # d_i
    MOV(ln, n)
    SUB(ln, i)
    SUB(ln, 1)                            # n - 1 - i
    x86_rows.row(f, Digits(o), Digits(a), ln, "addmul", "adx", p.unroll, p.ahead, cy)
    MOV([o], cy)                          # carry at T[i + n]
    LEA(i, [i + 1])
    LEA(ln, [i + 1])
    CMP(ln, n)
    JNZ(top)
    LABEL(done)


class PlainDiag:
    """Final-pass digits from a little-endian limb array."""

    def __init__(self, base):
        self.base = base
        self.p = GeneralPurposeRegister64()

    def first(self, reg):
        MOV(reg, [self.base])
        LEA(self.p, [self.base + 8])

    def next(self, reg):
        MOV(reg, [self.p])
        LEA(self.p, [self.p + 8])


def final_pass(f, T, n, diag, store_pos0=None):
    """Step 2. store_pos0(value) stores T[0] (None: plain store; it may use flags)."""
    zero = GeneralPurposeRegister64()
    lo = GeneralPurposeRegister64()
    hi = GeneralPurposeRegister64()
    t0 = GeneralPurposeRegister64()
    t1 = GeneralPurposeRegister64()
    # q = 0: T[0] = lo(d0^2), T[1] = 2 T[1] + hi(d0^2) (+ carries that flow on)
    diag.first(rdx)
    MULX(hi, lo, rdx)
    if store_pos0 is None:
        MOV([T], lo)
    else:
        store_pos0(lo)
    MOV(t1, [T + 8])
    XOR(zero.as_dword, zero.as_dword)     # CF = OF = 0
    ADCX(t1, t1)
    ADOX(t1, hi)
    MOV([T + 8], t1)
    # q = 1 .. n-1 with flag-preserving loop control (LEA, JRCXZ)
    ptr = GeneralPurposeRegister64()
    LEA(rcx, [n - 1])
    LEA(ptr, [T + 16])
    top = f.new_label("top")
    done = f.new_label("done")
    LABEL(top)
    JRCXZ(done)
    diag.next(rdx)
    MULX(hi, lo, rdx)
    MOV(t0, [ptr])
    MOV(t1, [ptr + 8])
    ADCX(t0, t0)
    ADCX(t1, t1)
    ADOX(t0, lo)
    ADOX(t1, hi)
    MOV([ptr], t0)
    MOV([ptr + 8], t1)
    LEA(ptr, [ptr + 16])
    LEA(rcx, [rcx - 1])
    JMP(top)
    LABEL(done)


def square(f, T, dig, n, p, diag, store_pos0=None):
    """Whole square for n >= 1 digits (n in a register, preserved)."""
    one = f.new_label("one")
    CMP(n, 1)
    JBE(one)
    rows(f, T, dig, n, p)
    LABEL(one)
    top = GeneralPurposeRegister64()
    z = GeneralPurposeRegister64()
    LEA(top, [T + n * 8])
    XOR(z.as_dword, z.as_dword)
    MOV([top + n * 8 - 8], z)             # T[2n-1] = 0 (also T[1] when n == 1)
    final_pass(f, T, n, diag, store_pos0)
