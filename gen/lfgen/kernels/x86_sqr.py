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
                            SHR, JZ, JNZ, JNE, JRCXZ, JMP, CMP, JBE, JA, TEST, LABEL,
                            rdx, rcx)

from . import x86_rows
from .x86_rows import Digits


def rows(f, T, dig, n, p, stop=1):
    """Step 1 for n >= 2 digits down to rows of length `stop` (the corner does the shorter
    ones): row i writes T[2i+1 .. i+n]; T[2n-1] untouched."""
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
    LEA(ln, [n - 1 - stop])               # rows 1 .. n-1-stop
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
    LEA(ln, [i + stop])
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
    """Step 2. store_pos0(value) stores T[0] (None: plain store; it may use flags).

    Every decision is taken before the carry chains start (n == 1, the parity of n - 1); the
    loop then runs two digits per iteration, entered at its second half when n - 1 is odd,
    and steers with flag-free instructions only: LEA for the counter, a JRCXZ that jumps two
    bytes (over the back JMP; JRCXZ has no rel32 form) and JMP."""
    done = f.new_label("final_done")
    multi = f.new_label("final_multi")
    even = f.new_label("final_even")
    loop_a = f.new_label("final_a")
    loop_b = f.new_label("final_b")
    ptr = GeneralPurposeRegister64()
    lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    t0, t1 = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    CMP(n, 1)
    JNE(multi)
    final_head(T, diag, store_pos0)       # n == 1
    JMP(done)
    LABEL(multi)
    MOV(rcx, n)
    SHR(rcx, 1)                           # ceil((n-1)/2) iterations of two digits
    TEST(n, 1)
    JZ(even)
    final_head(T, diag, store_pos0)       # n - 1 even: start with the first half
    LEA(ptr, [T + 16])
    JMP(loop_a)
    LABEL(even)
    final_head(T, diag, store_pos0)       # n - 1 odd: start with the second half
    LEA(ptr, [T])

    def step(off):
        diag.next(rdx)
        MULX(hi, lo, rdx)
        MOV(t0, [ptr + off])
        MOV(t1, [ptr + off + 8])
        ADCX(t0, t0)
        ADCX(t1, t1)
        ADOX(t0, lo)
        ADOX(t1, hi)
        MOV([ptr + off], t0)
        MOV([ptr + off + 8], t1)

    JMP(loop_b)
    LABEL(loop_a)
    step(0)
    LABEL(loop_b)
    step(16)
    LEA(ptr, [ptr + 32])
    LEA(rcx, [rcx - 1])
    JRCXZ(done)
    JMP(loop_a)
    LABEL(done)


def small(f, T, dig, k, diag, store_pos0=None):
    """The whole square of a constant number k of digits as straight-line code: no loop
    control, no pointer updates, T[2k-1] = 0 known, the last chains closed per row."""
    zero = GeneralPurposeRegister64()
    if k >= 2:
        # row 0: T[1..k-1] = d_0 * d[1..k-1], T[k] = carry
        MOV(rdx, [dig])
        XOR(zero.as_dword, zero.as_dword)
        prev = None
        for j in range(1, k):
            lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
            MULX(hi, lo, [dig + 8 * j])
            if prev is not None:
                ADCX(lo, prev)
            MOV([T + 8 * j], lo)
            prev = hi
        ADCX(prev, zero)
        MOV([T + 8 * k], prev)
        # rows i = 1 .. k-2
        for i in range(1, k - 1):
            MOV(rdx, [dig + 8 * i])
            XOR(zero.as_dword, zero.as_dword)
            prev = None
            for j in range(i + 1, k):
                lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
                MULX(hi, lo, [dig + 8 * j])
                if prev is not None:
                    ADCX(lo, prev)
                ADOX(lo, [T + 8 * (i + j)])
                MOV([T + 8 * (i + j)], lo)
                prev = hi
            ADCX(prev, zero)
            ADOX(prev, zero)
            MOV([T + 8 * (i + k)], prev)
    # final pass, T[2k-1] = 0 never loaded
    lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    diag.first(rdx)
    MULX(hi, lo, rdx)
    if store_pos0 is None:
        MOV([T], lo)
    else:
        store_pos0(lo)
    XOR(zero.as_dword, zero.as_dword)
    t1 = GeneralPurposeRegister64()
    if k == 1:
        MOV([T + 8], hi)
        return
    MOV(t1, [T + 8])
    ADCX(t1, t1)
    ADOX(t1, hi)
    MOV([T + 8], t1)
    for q in range(1, k):
        lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        t0, t1 = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        diag.next(rdx)
        MULX(hi, lo, rdx)
        MOV(t0, [T + 16 * q])
        ADCX(t0, t0)
        ADOX(t0, lo)
        MOV([T + 16 * q], t0)
        if q < k - 1:
            MOV(t1, [T + 16 * q + 8])
            ADCX(t1, t1)
        else:
            MOV(t1, zero)                 # T[2k-1] = 0: only the carry from doubling
            ADCX(t1, zero)
        ADOX(t1, hi)
        MOV([T + 16 * q + 8], t1)


def _tree(f, n, lo, hi, targets):
    """Binary search on the register n over lo..hi, jumping to targets[k]."""
    if lo == hi:
        JMP(targets[lo])
        return
    mid = (lo + hi) // 2
    right = f.new_label("n_gt%d" % mid)
    CMP(n, mid)
    JA(right)
    _tree(f, n, lo, mid, targets)
    LABEL(right)
    _tree(f, n, mid + 1, hi, targets)


def corner_rows(f, Ttop, Dtop, C, entries):
    """Rows of lengths C-1 .. 1 of the triangle as straight-line addmul_1 code, addressed
    from the top (Ttop = T + 16n, Dtop = dig + 8n), so the same code serves every n:

        row of length L: multiplier d_(n-1-L) = [Dtop - 8(L+1)]
                         digit t = 1..L:  [Dtop - 8(L+1-t)],  T at [Ttop - 8(2L+2-t)]
                         carry -> [Ttop - 8(L+1)]

    entries[L] is bound at the start of the row of length L (T must hold the partial sums
    of the longer rows: the generic rows, or zeros)."""
    zero = GeneralPurposeRegister64()
    for L in range(C - 1, 0, -1):
        LABEL(entries[L])
        MOV(rdx, [Dtop - 8 * (L + 1)])
        XOR(zero.as_dword, zero.as_dword)
        prev = None
        for t in range(1, L + 1):
            lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
            MULX(hi, lo, [Dtop - 8 * (L + 1 - t)])
            if prev is not None:
                ADCX(lo, prev)
            ADOX(lo, [Ttop - 8 * (2 * L + 2 - t)])
            MOV([Ttop - 8 * (2 * L + 2 - t)], lo)
            prev = hi
        ADCX(prev, zero)
        ADOX(prev, zero)
        MOV([Ttop - 8 * (L + 1)], prev)


def final_head(T, diag, store_pos0):
    """q = 0 of the final pass: T[0] = lo(d0^2), T[1] = 2 T[1] + hi(d0^2), chains started."""
    zero, lo, hi, t1 = (GeneralPurposeRegister64() for _ in range(4))
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


def square(f, T, dig, n, p, diag, store_pos0=None):
    """Whole square for n >= 1 digits (n in a register, preserved).

        n <= p.small             straight-line code for that n (binary search on n)
        p.small < n <= p.corner  T[1..n-1] = 0, the corner rows entered at length n-1, the
                                 straight-line final steps entered at q = 1
        n > p.corner             looped rows down to length p.corner, the corner rows of
                                 lengths p.corner-1 .. 1, the looped final pass"""
    done = f.new_label("sqr_done")
    generic = f.new_label("generic")
    C = p.corner
    if p.small >= 1:
        CMP(n, p.small)
        JA(generic)
        targets = {k: f.new_label("small%d" % k) for k in range(1, p.small + 1)}
        _tree(f, n, 1, p.small, targets)
        for k in range(1, p.small + 1):
            LABEL(targets[k])
            small(f, T, dig, k, diag, store_pos0)
            JMP(done)
    LABEL(generic)
    Ttop, Dtop, z = (GeneralPurposeRegister64() for _ in range(3))
    if C > p.small:
        row_entry = {L: f.new_label("corner_row%d" % L) for L in range(1, C)}
        large = f.new_label("large")
        fin = f.new_label("final")
        CMP(n, C)
        JA(large)
        if p.small < 1:
            # n == 1 (no straight-line code for it): no rows, T[1] = 0, the final pass
            multi = f.new_label("multi")
            CMP(n, 1)
            JA(multi)
            LEA(Ttop, [T + 16])
            JMP(fin)
            LABEL(multi)
        # p.small < n <= C, n >= 2: zero T[1..n-1], rows from length n-1
        XOR(z.as_dword, z.as_dword)
        cnt = GeneralPurposeRegister64()
        ptr = GeneralPurposeRegister64()
        LEA(cnt, [n - 1])
        LEA(ptr, [T + 8])
        zl = f.new_label("zero_t")
        LABEL(zl)
        MOV([ptr], z)
        LEA(ptr, [ptr + 8])
        SUB(cnt, 1)
        JNZ(zl)
        LEA(Ttop, [T + n * 8])
        LEA(Ttop, [Ttop + n * 8])
        LEA(Dtop, [dig + n * 8])
        _tree(f, n, max(p.small + 1, 2), C, {k: row_entry[k - 1] for k in range(2, C + 1)})
        LABEL(large)
        rows(f, T, dig, n, p, stop=C)
        LEA(Ttop, [T + n * 8])
        LEA(Ttop, [Ttop + n * 8])
        LEA(Dtop, [dig + n * 8])
        corner_rows(f, Ttop, Dtop, C, row_entry)
        LABEL(fin)
        XOR(z.as_dword, z.as_dword)
        MOV([Ttop - 8], z)                # T[2n-1] = 0
        final_pass(f, T, n, diag, store_pos0)
    else:
        one = f.new_label("one")
        CMP(n, 1)
        JBE(one)
        rows(f, T, dig, n, p)
        LABEL(one)
        LEA(Ttop, [T + n * 8])
        XOR(z.as_dword, z.as_dword)
        MOV([Ttop + n * 8 - 8], z)        # T[2n-1] = 0 (also T[1] when n == 1)
        final_pass(f, T, n, diag, store_pos0)
    LABEL(done)
