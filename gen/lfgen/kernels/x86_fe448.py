"""Curve448's field in seven saturated 64-bit limbs on x86-64 (BMI2 + ADX): the field
operations of x448_ladder's `adx` variant, emitted inline over memory operands.

    p = 2^448 - 2^224 - 1;  an element is any value w in [0, 2^448) (seven limbs,
    little-endian limb order), standing for w mod p.  2^448 == 2^224 + 1 (mod p), and
    2^224 = 2^(3*64 + 32): a value V above 2^448 folds as V + (V << 32) placed at limb 3.

    limbs       0    1    2    3    4    5    6  |  7 ...
                [          w < 2^448           ] |  H: folds as H + (H << 32) 2^192

    mul, sqr   P = a b (14 limbs: a MULX row per limb of b, the ADCX/ADOX chains, the window
               of the 7 limbs still open in registers; the final limbs parked in the product
               scratch, H too once complete; sqr: the 21 cross products once, doubled, plus
               the 7 squares) = H 2^448 + L.  Then
                 S = L + H                         (ADD/ADC; carry c)
                 T = S + c 2^448 + (H << 32) 2^192  < 2^673: T_lo + V 2^448, V < 2^226,
                 U = T_lo + V + (V << 32) 2^192    = U_lo + u 2^448, u <= 3,
               and `fold` adds u (1 + 2^224) (below); the limbs of X << 32 are formed by
               SHLX/SHRX/LEA from the parked limbs, inside the chains (no flags touched).
    mul_small  a s for s < 2^32 (a24 = 39081): a row, its top limb folded.
    add, sub   the seven-limb chain, then the carry (borrow) c folded: + (-) c (1 + 2^224).
    fold       w + u (1 + 2^224) for a top u <= 2^32 - 2 (mul_small's top is at most s - 1):
               one chain (limb 0 + u, limb 3 + u << 32); a carry out e leaves a value below
               u (1 + 2^224), limb 3 below 2^64 - 2^32, so the second round
               (+ e (1 + 2^224), limbs 0..3) cannot carry.  Subtraction mirrors it: a borrow
               leaves a value at least 2^448 - 2^224 - 1, so the second round cannot borrow.
    cswap      (x, y) = (y, x) when mask = -1, unchanged when 0: t = (x ^ y) & mask.

Every operation is straight-line code with no branch and no address depending on the values
(constant time); results are stored, so each operation's registers live only inside it, and
every operand is a (base register, byte offset) pair: the ladder keeps one base register.
The shape follows x86_fe64 (Curve25519 in 4 x 64); the reduction is the Solinas form of
p448 (M. Hamburg, "Ed448-Goldilocks, a new elliptic curve", 2015: the "golden ratio"
prime), here on saturated limbs with the 2^224 fold at a half-limb offset.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, MULX, ADCX, ADOX, ADD, ADC,
                            SUB, SBB, AND, XOR, SHL, SHR, SHRD, rdx)

from . import x86_fe64
from .x86_fe64 import w                 # limb i of an element at (register, byte offset)

N = 7                                   # limbs of an element
HALF = 32                               # 2^224 = 2^(3 * 64 + HALF)


def fold(r, u, op=ADD, opc=ADC):
    """r (seven registers) op= u (1 + 2^224) mod p for a top u <= 2^32 - 2 (a register,
    consumed), twice: the second round takes the carry (borrow) e out of the first.  Adding:
    a carry leaves r below u (1 + 2^224), limb 3 below (u + 1) 2^32 <= 2^64 - 2^32, so
    e (1 + 2^224) lands in limbs 0..3 without a carry out of limb 3.  Subtracting (u = 1): a borrow leaves r at least 2^448 - 2^224 - 1,
    limb 3 at least 2^64 - 2^32 - 1, so e (1 + 2^224) borrows nothing out of limb 3."""
    for rnd in range(2):
        v = G()
        MOV(v, u)
        SHL(v, HALF)
        op(r[0], u)
        opc(r[1], 0)
        opc(r[2], 0)
        opc(r[3], v)
        if rnd == 0:
            for j in (4, 5, 6):
                opc(r[j], 0)
            u = G()
            MOV(u.as_dword, 0)                  # keeps CF
            ADC(u, 0)                           # the carry (borrow) out: 0 or 1


def _store(out, r):
    for j in range(N):
        MOV(w(out, j), r[j])


def mul(out, a, b, z):
    """out = a b (mod p); out may be a or b; z: scratch for the 14 limbs of the product,
    overlapping none of out, a, b (it is written while a and b are read)"""
    # row 0: a b_0 by ADD/ADC
    MOV(rdx, w(b, 0))
    r0 = [G() for _ in range(N + 1)]
    x86_fe64._row(r0, 0, a, range(N))
    MOV(w(z, 0), r0[0])
    win = r0[1:]                                # the window: limbs 1 .. 7
    for i in range(1, N):
        zero = G()
        XOR(zero.as_dword, zero.as_dword)       # CF = OF = 0
        MOV(rdx, w(b, i))
        for j in range(N):
            lo, hi = G(), G()
            MULX(hi, lo, w(a, j))
            ADCX(win[j], lo)
            if j < N - 1:
                ADOX(win[j + 1], hi)
            else:
                ADOX(hi, zero)
                ADCX(hi, zero)
                win.append(hi)
        MOV(w(z, i), win[0])                    # limb i is final
        win = win[1:]
    _reduce_store(out, z, win)


def sqr(out, a, z):
    """out = a^2 (mod p); out may be a; z: scratch for 14 limbs, overlapping neither out nor
    a.  The 21 cross products
    a_i a_j (i < j) once, a row per a_i with the window of open limbs in registers (limbs
    2i+1 and 2i+2 are final after row i, parked in z), then 2 cross + the 7 squares a_i^2
    limb by limb (ADCX doubles, ADOX adds): 28 MULX where mul takes 49"""
    r = {}
    MOV(rdx, w(a, 0))                           # row 0: a_0 a_j by ADD/ADC
    prev = None
    for j in range(1, N):
        lo, hi = G(), G()
        MULX(hi, lo, w(a, j))
        if j > 1:
            (ADD if j == 2 else ADC)(lo, prev)
        r[j] = lo
        prev = hi
    ADC(prev, 0)
    r[N] = prev                                 # cross limbs 1 .. 7
    MOV(w(z, 1), r[1])
    MOV(w(z, 2), r[2])
    for i in range(1, N - 1):                   # row i: a_i a_j, j > i, into limbs 2i+1 ..
        zero = G()
        XOR(zero.as_dword, zero.as_dword)       # CF = OF = 0
        MOV(rdx, w(a, i))
        for j in range(i + 1, N):
            lo, hi = G(), G()
            MULX(hi, lo, w(a, j))
            ADCX(r[i + j], lo)
            if j < N - 1:
                ADOX(r[i + j + 1], hi)
            else:
                ADOX(hi, zero)
                ADCX(hi, zero)
                r[i + N] = hi
        MOV(w(z, 2 * i + 1), r[2 * i + 1])      # final: later rows start at 2i + 3
        MOV(w(z, 2 * i + 2), r[2 * i + 2])
    # t_k = 2 c_k + the squares' limbs (c_0 = c_13 = 0): low half back into z, high half kept
    zero = G()
    XOR(zero.as_dword, zero.as_dword)
    t = {}
    MOV(rdx, w(a, 0))
    t[0], s1 = G(), G()
    MULX(s1, t[0], rdx)
    sq = {1: s1}
    for k in range(1, 2 * N):
        i = k // 2
        if k % 2 == 0:
            lo, hi = G(), G()
            MOV(rdx, w(a, i))
            MULX(hi, lo, rdx)
            sq[k], sq[k + 1] = lo, hi
        if k < 2 * N - 1:
            x = G()
            MOV(x, w(z, k))
            ADCX(x, x)
            ADOX(x, sq[k])
        else:
            x = sq[k]
            ADCX(x, zero)
            ADOX(x, zero)
        t[k] = x
        if k < N:
            MOV(w(z, k), x)
    MOV(w(z, 0), t[0])
    _reduce_store(out, z, [t[N + j] for j in range(N)])


def _reduce_store(out, z, h):
    """out = (H 2^448 + L) mod p as seven limbs: L in z[0..7) (memory), H in the registers h,
    parked in z[7..14) so that the 2^224 fold can read it a limb at a time"""
    from peachpy.x86_64 import SHLX, SHRX, LEA
    for j in range(N):
        MOV(w(z, N + j), h[j])
    # S = L + H, carry c
    s = [G() for _ in range(N)]
    for j in range(N):
        MOV(s[j], w(z, j))
    c, cnt = G(), G()
    MOV(c.as_dword, 0)
    MOV(cnt.as_dword, HALF)
    for j in range(N):
        (ADD if j == 0 else ADC)(s[j], w(z, N + j))
    ADC(c, 0)

    def g(i, n=N):
        """limb i (0..n) of X << 32 for the n limbs X parked at z[7..7+n), formed without
        touching the flags"""
        r = G()
        if i == 0:
            SHLX(r, w(z, N), cnt)
        elif i == n:
            SHRX(r, w(z, N + n - 1), cnt)
        else:
            lo, hi = G(), G()
            SHLX(lo, w(z, N + i), cnt)
            SHRX(hi, w(z, N + i - 1), cnt)
            LEA(r, [lo + hi * 1])               # disjoint bits: the sum is the OR
        return r

    # T = S + c 2^448 + (H << 32) 2^192: limbs 3 .. 10, one chain
    ADD(s[3], g(0))
    for j in (4, 5, 6):
        ADC(s[j], g(j - 3))
    v = []                                      # T's limbs 7 .. 10: V < 2^226
    for j in range(4):
        v.append(g(4 + j))
        ADC(v[j], c if j == 0 else 0)
    for j in range(4):
        MOV(w(z, N + j), v[j])                  # parked where H was
    # U = T_lo + V + (V << 32) 2^192 = U_lo + u 2^448
    u = G()
    MOV(u.as_dword, 0)
    ADD(s[0], w(z, N))
    for j in (1, 2, 3):
        ADC(s[j], w(z, N + j))
    for j in (4, 5, 6):
        ADC(s[j], 0)
    ADC(u, 0)
    ADD(s[3], g(0, 4))
    for j in (4, 5, 6):
        ADC(s[j], g(j - 3, 4))
    ADC(u, g(4, 4))                             # (V << 32)'s top limb < 2: u <= 3
    fold(s, u)
    _store(out, s)


def mul_small(out, a, s):
    """out = a s (mod p), 0 < s < 2^32"""
    MOV(rdx, s)
    r = [G() for _ in range(N + 1)]
    x86_fe64._row(r, 0, a, range(N))            # r[N]: the top limb, below s
    fold(r[:N], r[N])
    _store(out, r)


def _add_or_sub(out, a, b, op, opc):
    r = [G() for _ in range(N)]
    for j in range(N):
        MOV(r[j], w(a, j))
    for j in range(N):
        (op if j == 0 else opc)(r[j], w(b, j))
    c = G()
    MOV(c.as_dword, 0)                          # keeps CF
    ADC(c, 0)                                   # the carry (borrow) out
    fold(r, c, op, opc)
    _store(out, r)


def add(out, a, b):
    """out = a + b (mod p)"""
    _add_or_sub(out, a, b, ADD, ADC)


def sub(out, a, b):
    """out = a - b (mod p)"""
    _add_or_sub(out, a, b, SUB, SBB)


def cswap(mask, x, y):
    """(x, y) = (y, x) where mask = -1 (a register: 0 or -1): x86_fe64's over N limbs"""
    x86_fe64.cswap(mask, x, y, N)


R50 = 50                                # the ladder's interface: 9 limbs of 50 bits


def from_r50(out, u):
    """out = the element of u's nine 50-bit limbs (memory operand base u; limbs <= 2^50, so
    the value is below 2^451): each limb shifted into place and added (limbs at 2^50 overlap
    the next one's bits), the top limb folded"""
    acc = [G() for _ in range(N + 1)]
    for j in range(N + 1):
        MOV(acc[j].as_dword, 0)
    for i in range(9):
        k, s = divmod(R50 * i, 64)
        lo = G()
        MOV(lo, w(u, i))
        hi = None
        if s + R50 + 1 > 64:
            hi = G()
            MOV(hi, lo)
            SHR(hi, 64 - s)
        if s:
            SHL(lo, s)
        ADD(acc[k], lo)
        if hi is not None:
            ADC(acc[k + 1], hi)
            for j in range(k + 2, N + 1):
                ADC(acc[j], 0)
        else:
            for j in range(k + 1, N + 1):
                ADC(acc[j], 0)
    fold(acc[:N], acc[N])                       # acc[7] < 2^3
    _store(out, acc[:N])


def to_r50(dst, a):
    """a (seven limbs, a value below 2^448) as nine limbs into dst (a list of nine memory
    operands): limbs 0..7 of 50 bits, limb 8 = a >> 400, below 2^48"""
    m = G()
    MOV(m, (1 << R50) - 1)
    x = [G() for _ in range(N)]
    for j in range(N):
        MOV(x[j], w(a, j))
    for i in range(8):
        k, s = divmod(R50 * i, 64)
        t = G()
        MOV(t, x[k])
        if s:
            if s + R50 > 64:
                SHRD(t, x[k + 1], s)
            else:
                SHR(t, s)
        AND(t, m)
        MOV(dst[i], t)
    k, s = divmod(R50 * 8, 64)
    SHR(x[k], s)
    MOV(dst[8], x[k])
