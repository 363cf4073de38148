"""x86-64 AVX-512 IFMA Montgomery multiplication for mpn_montmul, radix 2^52 (almost
Montgomery multiplication of OpenSSL's RSAZ IFMA code, Gueron-Krasnov; Drucker-Gueron 2019).

Digits. With n limbs, D = ceil(64n/52) digits of 52 bits and k = 52D - 64n (0 <= k < 52):

    A = a,  N = N  (digits of the limbs, bits [52p, 52p+52))
    B = b 2^k      (b shifted left k bits first: n+1 limbs, then cut the same way)

so that D reductions by 2^52 divide by 2^(52D) = R 2^k and the result is a b R^-1 (R = 2^(64n)),
exactly mpn_montmul's; V = ceil(D/8) zmm per operand, lanes above D zero.

The loop, one digit b_i per iteration (i = 0 .. D-1), accumulators R_0 .. R_(V-1) (lane l of
R_v is digit 8v+l), digit 0 kept exactly in the scalar acc0:

    acc0 += a_0 b_i;  m = acc0 k0 mod 2^52 (k0 = n0inv mod 2^52 = -N^-1 mod 2^52)
    acc0 = (acc0 + m N_0) >> 52                              (128-bit, scalar MULX)
    R += lo(A, b_i) + lo(N, m)                               VPMADD52LUQ, 2V
    R >>= one digit                                          VALIGNQ, V
    acc0 += lane 0 of R                                      VMOVQ
    R += hi(A, b_i) + hi(N, m)                               VPMADD52HUQ, 2V

    (lo/hi of a lane product: its bits 0..51 / 52..103.) Lane 0 of R is never read again
    after the VMOVQ: acc0 carries digit 0 with its carries exactly, so m is right.
    With V <= split_upto the IFMAs write fresh temporaries (zero idioms) that VPADDQ adds to
    R: R's own loop-carried chain is then add, align, add rather than two IFMA latencies on
    each side of the VALIGNQ, for 2V more additions per digit. On the development host
    (Sapphire Rapids class) `make tune` found no V where that pays (split_upto 0 was 1.02-1.03x
    faster than 6 over 8..64 limbs), so it is off by default.

Bounds. A lane gains < 4 2^52 per iteration and shifts down, so it stays below 4 D 2^52 <
2^61 for D <= 2^7 (n <= 96); acc0 < 2^62. The value t = sum R_p 2^(52p) < (a b 2^k + M N) /
(R 2^k) < R + N for a, b < R (M < R 2^k), the same bound as the scalar CIOS.

Out. R is stored with acc0 as digit 0 and zero digits above; one scalar pass normalises
(carry = d >> 52, d &= 2^52-1, in digit order) and packs 16 digits into 13 limbs at a time,
every shift fixed at generation time; then the constant-time subtraction of N & mask
(mpn_montmul.final_subtract). Nothing branches on or is addressed by a, b or N: the code
for V (a function of n) is chosen by n, every loop count depends on n only.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, KRegister, LocalVariable,
                            MOV, LEA, ADD, ADC, SUB, SHL, SHR, SHLD, SHRD, AND, OR, XOR, IMUL,
                            MULX, CMP, DEC, CMOVB, CMOVL, BZHI, JNZ, JE, JB, JMP, KMOVQ, VMOVQ,
                            VMOVDQA64, VPBROADCASTQ, VALIGNQ, VPMADD52LUQ, VPMADD52HUQ, VPXORQ,
                            VPADDQ, rdx, rcx)

from ..kernel import Param
from .x86_ifma_sqr import M52, _div13, unpack_consts, unpack_block

PARAMS = {
    "ifma_min": Param(16, (8, 12, 16, 24, 32),
                      "from this many limbs the IFMA path (below: the scalar adx variant)",
                      kind="size", sizes=(8, 12, 16, 24, 32)),
    "split_upto": Param(0, (0, 4, 6, 8, 10),
                        "up to this many zmm per operand (V = ceil(ceil(64n/52)/8)) the "
                        "products go to fresh temporaries added to the accumulators (their "
                        "chain: add, align, add; 2V more VPADDQ); above, IFMAs straight into "
                        "the accumulators", kind="size", sizes=(16, 24, 32, 40, 48, 56, 64)),
    "ifma_max": Param(64, (32, 48, 64),
                      "up to this many limbs the IFMA path (above: adx); sizes the stack",
                      kind="size", sizes=(48, 64, 65)),
}


def digits(n):
    return -(-64 * n // 52)


def vectors(n):
    return -(-digits(n) // 8)


def montmul(f, rp, ap, bp, np, n0inv, n, p):
    """The kernel body for ifma_min <= n <= ifma_max (the caller sends other sizes to adx)."""
    vmin, vmax = vectors(p.ifma_min), vectors(p.ifma_max)
    if 4 * 8 * vmax << 52 >= 1 << 61:
        raise ValueError("ifma_max = %d: lanes could pass 2^61" % p.ifma_max)
    # frame: A and N digits (8 vmax each; later R's digits, up to 8 vmax + 16), B digits
    # (8 vmax), X: b 2^k (n + 1 limbs) and later the packed t (13 per 16 digits)
    nq = 8 * vmax
    xq = max(ifma_limbs(p) + 1, 13 * (-(-(nq + 1) // 16))) + 8
    buf = LocalVariable(8 * (3 * nq + xq) + 64, 16)
    base = GeneralPurposeRegister64()
    LEA(base, buf)
    ADD(base, 63)
    AND(base, -64)
    lay = _Layout(base, nq)
    # parked for the end (every register is needed in the loop)
    s_rp, s_np, s_n = LocalVariable(8), LocalVariable(8), LocalVariable(8)
    MOV(s_rp, rp)
    MOV(s_np, np)
    MOV(s_n, n)
    k0 = GeneralPurposeRegister64()
    MOV(k0, M52)
    AND(k0, n0inv)                                  # -N^-1 mod 2^52

    # D, k = 52 D - 64 n, and X = b << k (n + 1 limbs)
    D, k = GeneralPurposeRegister64(), GeneralPurposeRegister64()
    MOV(D, n)
    SHL(D, 4)
    ADD(D, 12)
    _div13(D, D)                                    # ceil(16 n / 13)
    IMUL(k, D, 52)
    t = GeneralPurposeRegister64()
    MOV(t, n)
    SHL(t, 6)
    SUB(k, t)
    prev, cur, i = GeneralPurposeRegister64(), GeneralPurposeRegister64(), \
        GeneralPurposeRegister64()
    MOV(rcx, k)
    XOR(prev.as_dword, prev.as_dword)
    XOR(i.as_dword, i.as_dword)
    shl = f.new_label("shift_b")
    f.bind(shl)
    MOV(cur, [bp + i * 8])
    MOV(t, cur)
    SHLD(cur, prev, rcx.as_low_byte)                # b_i << k | b_(i-1) >> (64 - k)
    MOV([base + i * 8 + lay.X], cur)
    MOV(prev, t)
    ADD(i, 1)
    CMP(i, n)
    JNZ(shl)
    XOR(cur.as_dword, cur.as_dword)
    SHLD(cur, prev, rcx.as_low_byte)
    MOV([base + i * 8 + lay.X], cur)

    m52 = ZMMRegister()
    MOV(t, M52)
    VPBROADCASTQ(m52, t)
    zero = ZMMRegister()
    XOR(t.as_dword, t.as_dword)
    VPBROADCASTQ(zero, t)
    cidx, csh = unpack_consts(zero)

    # the code for this n's V
    done = f.new_label("mont_done")
    V = GeneralPurposeRegister64()
    LEA(V, [D + 7])
    SHR(V, 3)
    entries = {v: f.new_label("v%d" % v) for v in range(vmin, vmax + 1)}
    for v in range(vmin, vmax):
        CMP(V, v)
        JE(entries[v])
    JMP(entries[vmax])
    for v in range(vmin, vmax + 1):
        f.bind(entries[v])
        _body(f, v, (s_rp, s_np, s_n), ap, np, k0, n, D, lay, m52, zero, cidx, csh, p)
        JMP(done)
    f.bind(done)


def ifma_limbs(p):
    return p.ifma_max


class _Layout:
    """The frame: A and N digits (nq qwords each; afterwards t's digits, up to 8V + 16),
    B digits (nq), X: b 2^k (n + 1 limbs), afterwards the packed t."""

    def __init__(self, base, nq):
        self.base = base
        self.A, self.N, self.B, self.X = 0, 8 * nq, 16 * nq, 24 * nq


def _unpack(f, dst, src, nbytes, nblocks, cidx, csh, m52):
    # dst: an address expression (base + offset), src: a register
    """nblocks blocks of 8 digits from the first `nbytes` (a register) bytes at src: block j
    loads bytes [52j, 52j + 52) masked to what exists."""
    rem, cnt, ones = (GeneralPurposeRegister64() for _ in range(3))
    kl = KRegister()
    MOV(rem, nbytes)
    MOV(ones, -1)
    zero = GeneralPurposeRegister64()
    XOR(zero.as_dword, zero.as_dword)
    for j in range(nblocks):
        MOV(cnt, 64)
        CMP(rem, 64)
        CMOVB(cnt, rem)
        CMP(rem, 0)
        CMOVL(cnt, zero)
        BZHI(cnt, ones, cnt)
        KMOVQ(kl, cnt)
        x = ZMMRegister()
        unpack_block(x, kl, [src + 52 * j], cidx, csh, m52)
        VMOVDQA64([dst + 64 * j], x)
        SUB(rem, 52)


def _body(f, V, parked, ap, np, k0, n, D, lay, m52, zero, cidx, csh, p):
    s_rp, s_np, s_n = parked
    b = lay.base
    nb = GeneralPurposeRegister64()
    LEA(nb, [n * 8])
    _unpack(f, b + lay.A, ap, nb, V, cidx, csh, m52)
    _unpack(f, b + lay.N, np, nb, V, cidx, csh, m52)
    ADD(nb, 8)
    xp = GeneralPurposeRegister64()
    LEA(xp, [b + lay.X])
    _unpack(f, b + lay.B, xp, nb, V, cidx, csh, m52)

    R = [ZMMRegister() for _ in range(V)]
    for r in R:
        VMOVDQA64(r, zero)
    acc0, a0, n0, mask, bptr, cnt = (GeneralPurposeRegister64() for _ in range(6))
    XOR(acc0.as_dword, acc0.as_dword)
    MOV(a0, [b + lay.A])
    MOV(n0, [b + lay.N])
    MOV(mask, M52)
    LEA(bptr, [b + lay.B])
    MOV(cnt, D)
    zb, zm = ZMMRegister(), ZMMRegister()
    hi, lo, hi2, lo2, x = (GeneralPurposeRegister64() for _ in range(5))
    loop = f.new_label("digit_v%d" % V)
    f.bind(loop)
    f.mca_begin("amm52 digits=%d" % (8 * V))
    MOV(rdx, [bptr])
    VPBROADCASTQ(zb, rdx)
    MULX(hi, lo, a0)
    # split: the products go to fresh temporaries T (zero idioms) and reach R by VPADDQ, so
    # R's loop-carried chain is add, align, add instead of two IFMA latencies on each side
    split = V <= p.split_upto
    T = [ZMMRegister() for _ in range(V)] if split else R

    def fresh():
        if split:
            for t in T:
                VPXORQ(t, t, t)
    fresh()
    for v in range(V):
        VPMADD52LUQ(T[v], zb, [b + lay.A + 64 * v])
    ADD(acc0, lo)
    ADC(hi, 0)
    MOV(rdx, acc0)
    IMUL(rdx, k0)
    AND(rdx, mask)                                  # m
    VPBROADCASTQ(zm, rdx)
    MULX(hi2, lo2, n0)
    ADD(acc0, lo2)
    ADC(hi, hi2)
    SHRD(acc0, hi, 52)
    for v in range(V):
        VPMADD52LUQ(T[v], zm, [b + lay.N + 64 * v])
    if split:
        for v in range(V):
            VPADDQ(R[v], R[v], T[v])
    for v in range(V - 1):
        VALIGNQ(R[v], R[v + 1], R[v], 1)
    VALIGNQ(R[V - 1], zero, R[V - 1], 1)
    VMOVQ(x, R[0].as_xmm)
    ADD(acc0, x)
    if split:
        T = [ZMMRegister() for _ in range(V)]
    fresh()
    for v in range(V):
        VPMADD52HUQ(T[v], zb, [b + lay.A + 64 * v])
        VPMADD52HUQ(T[v], zm, [b + lay.N + 64 * v])
    if split:
        for v in range(V):
            VPADDQ(R[v], R[v], T[v])
    ADD(bptr, 8)
    DEC(cnt)
    JNZ(loop)
    f.mca_end()

    # t's digits (digit 0 = acc0) and zero digits up to a whole number of 16-digit groups
    for v in range(V):
        VMOVDQA64([b + lay.A + 64 * v], R[v])
    VMOVDQA64([b + lay.A + 64 * V], zero)
    VMOVDQA64([b + lay.A + 64 * V + 64], zero)
    MOV([b + lay.A], acc0)
    groups = -(-(8 * V + 1) // 16)
    _pack(f, b + lay.A, b + lay.X, groups, mask)
    from .mpn_montmul import final_subtract
    top, nn, xp = (GeneralPurposeRegister64() for _ in range(3))
    MOV(nn, s_n)
    LEA(xp, [b + lay.X])
    MOV(top, [xp + nn * 8])
    final_subtract(f, s_rp, xp, s_np, s_n, top)


def _pack(f, src, dst, groups, mask):
    """Normalise the digits at src (carries upward) and pack them into limbs at dst: 16
    digits -> 13 limbs per group, straight-line within a group."""
    c, d, y, out = (GeneralPurposeRegister64() for _ in range(4))
    sp, dp, g = GeneralPurposeRegister64(), GeneralPurposeRegister64(), \
        GeneralPurposeRegister64()
    XOR(c.as_dword, c.as_dword)
    LEA(sp, [src])
    LEA(dp, [dst])
    MOV(g, groups)
    top = f.new_label("pack")
    f.bind(top)
    XOR(out.as_dword, out.as_dword)
    for j in range(16):
        pos = 52 * j
        q, o = divmod(pos, 64)
        MOV(d, [sp + 8 * j])
        ADD(d, c)
        MOV(c, d)
        SHR(c, 52)
        AND(d, mask)
        if o + 52 <= 64:
            if o:
                SHL(d, o)
            OR(out, d)
            if o + 52 == 64:
                MOV([dp + 8 * q], out)
                XOR(out.as_dword, out.as_dword)
        else:
            MOV(y, d)
            SHL(y, o)
            OR(out, y)
            MOV([dp + 8 * q], out)
            SHR(d, 64 - o)
            MOV(out, d)
    ADD(sp, 128)
    ADD(dp, 104)
    DEC(g)
    JNZ(top)
