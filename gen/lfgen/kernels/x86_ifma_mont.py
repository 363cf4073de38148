"""x86-64 AVX-512 IFMA Montgomery multiplication for mpn_montmul, radix 2^52 (almost
Montgomery multiplication of OpenSSL's RSAZ IFMA code, Gueron-Krasnov; Drucker-Gueron 2019).

Digits. With n limbs, D = ceil(64n/52) digits of 52 bits and k = 52D - 64n (0 <= k < 52):

    A = a,  N = N  (digits of the limbs, bits [52p, 52p+52))
    B = b 2^k      (b shifted left k bits first: n+1 limbs, then cut the same way)

so that D reductions by 2^52 divide by 2^(52D) = R 2^k and the result is a b R^-1 (R = 2^(64n)),
exactly mpn_montmul's; V = ceil(D/8) zmm per operand, lanes above D zero. b 2^k is made 8
limbs a step (VPSLLQ/VPSRLQ of masked loads that read only b[0..n-1]), then A, N, B are cut
into digits by VPERMB/VPSRLVQ (x86_ifma_sqr.unpack_block).

The plain loop (V > lookahead_upto), one digit b_i per iteration (i = 0 .. D-1), accumulators
R_0 .. R_(V-1) (lane l of R_v is digit 8v+l), digit 0 kept exactly in the scalar acc0:

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

    Each digit waits for m: acc0 -> IMUL -> VPBROADCASTQ -> IFMA -> VALIGNQ -> VMOVQ -> acc0,
    and R's own chain is four IFMAs and an align: about 23 core cycles a digit where the
    ports allow about 10.

Lookahead (V <= lookahead_upto): the same sums, with m_(i+1) computed while digit i's vector
work is in flight, and no vector value on m's path. With t = acc0 + a_0 b_i (128-bit),
q = floor(m_i n_0 / 2^52) (the high half of MULX by n_0 2^12) and eps_i = digit i+1 as far
as digits < i made it (the plain loop's lane 0 after the align, before b_i and m_i):

    acc0_(i+1) = ceil(t / 2^52) + q + eps_i + lo(a_1 b_i) + lo(n_1 m_i)
        (t + m_i n_0 is a multiple of 2^52 and the low 52 bits of t and of m_i n_0 add to
        0 or 2^52, 2^52 exactly when those of t are not 0: (t + m_i n_0) / 2^52 =
        ceil(t / 2^52) + q)
    m_(i+1) = k0 (acc0_(i+1) + a_0 b_(i+1)) mod 2^52
            = (k0 (ceil(t / 2^52) + eps_i + lo(a_1 b_i) + a_0 b_(i+1) + q) + (k0 n_1) m_i)
              mod 2^52                        (k0 lo(n_1 m_i) = (k0 n_1) m_i mod 2^52)
    eps_(i+1) = gamma_i + lo(a_2 b_i) + hi(a_1 b_i) + lo(n_2 m_i) + hi(n_1 m_i)

so from m_i to m_(i+1) there are a MULX, an addition, an IMUL, an addition and an AND.
gamma_i, digit i+2 as far as digits < i made it, is lane 2 of R_i + H_(i-1), read while
digit i computes; c2_i = lo(a_2 b_i) + hi(a_1 b_i) comes from one IFMA pair per zmm of B
before the loop. The vector side keeps H_i = hi(A b_i) + hi(N m_i) apart for one digit:

    R_(i+1) = (R_i + H_(i-1) + lo(A b_i) + lo(N m_i)) >> one digit

where the low products accumulate onto H_(i-1) itself, so R's chain is an add and an align;
two sets of H registers trade places, the loop unrolled by two (an odd D enters at the
second half). On the development host this loop runs about 17 core cycles a digit at
V = 3 (23 for the plain loop) and the whole product is 1.49x the plain one at 16 limbs,
1.28x at 32; from V = 7 the extra scalar products (MULX uses port 5 too) cost more than the
shorter chain gains, so lookahead_upto is 6.

Bounds. A lane gains < 4 2^52 per iteration and shifts down, so it stays below 4 D 2^52.
The lookahead loop needs lanes < 2^61 (D <= 2^7; it runs only up to V = lookahead_upto, D
<= 48) for acc0, eps < 2^62. The plain loop needs lanes < 2^62 (D <= 2^8): acc0 + a_0 b_i +
m n_0 < 2^106 leaves acc0 < 2^54 after the SHRD, and lane 0 added to it stays < 2^63.
ifma_max = 128 limbs gives D = 158, V = 20. The value t = sum R_p 2^(52p) < (a b 2^k + M N) /
(R 2^k) < R + N for a, b < R (M < R 2^k), the same bound as the scalar CIOS.

Sizes. Up to ifma_max = 128 limbs (8192-bit moduli: RSA-8192, the RFC 7919 ffdhe6144 and
ffdhe8192 groups); the plain loop holds V accumulators and three more zmm, so V = 20 fits the
32 registers, and the frame (A, N and B digits, 3840 bytes at V = 20) stays below 4 KiB by
cutting B in place (_Layout). Above SPILL_V accumulators _finish parks t - N in B's rows
(t and t - N side by side would need 2V registers); above CUT_UNROLLED_V the digits are cut
by loops. On AMD Zen 5 (2026-12-07, `limbforge-bench --kernel mpn_montmul,bi_mod_pow_ct
--sizes 64,65,80,96,112,128,129`) 65..128 limbs took 3.5-4.9x less time than the adx code
they ran before (128 limbs: 9,484 against 40,380 core cycles, 5.7x OpenSSL's
BN_mod_mul_montgomery), and lf_bi_mod_pow_consttime at 6144 and 8192 bits 3.8x and 4.0x
OpenSSL's BN_mod_exp_mont_consttime (1.2x before).

Out, in zmm registers (acc0 as digit 0): carries d >> 52 one lane up, then the 0/1 ripple
with the generate/propagate masks (g = d > M52, p = d == M52: x = ((g << 1) + cin + p) ^ p,
bit l the carry into lane l, bit 8 the carry out; OpenSSL rsaz-avx512's trick); the same
for t - N digit by digit (generate d < 0, propagate d == 0), whose last borrow against
t's top digit chooses t or t - N by a masked move; packed 13 bytes per digit pair
(x86_ifma_sqr.pack_block) and stored by byte masks that end at rp[n-1]. Nothing branches on
or is addressed by a, b or N: the code for V (a function of n) is chosen by n, every loop
count and mask depends on n only.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, XMMRegister, KRegister,
                            LocalVariable, NEG, JNC, VPSLLQ, VPORQ,
                            MOV, LEA, ADD, ADC, SUB, SHL, SHR, SHRD, AND, XOR, IMUL,
                            MULX, CMP, DEC, CMOVB, CMOVL, BZHI, JNZ, JE, JMP, KMOVQ, VMOVQ,
                            VMOVDQA64, VPBROADCASTQ, VALIGNQ, VPMADD52LUQ, VPMADD52HUQ, VPXORQ,
                            VPADDQ, TEST, JZ, KMOVB, VPSRLQ, VPANDQ, VPSUBQ, VPCMPQ, VPCMPUQ,
                            VPCMPEQQ, VMOVDQU64, VMOVDQU8, SAR, k7, zword, rdx)

from ..kernel import Param
from .x86_ifma_sqr import (M52, _div13, unpack_consts, unpack_block, pack_index,
                           pack_block)

PARAMS = {
    "ifma_min": Param(10, (8, 10, 12, 16, 24, 32),
                      "from this many limbs the IFMA path (below: the scalar adx variant)",
                      kind="size", sizes=(8, 10, 12, 16, 24, 32)),
    "split_upto": Param(0, (0, 4, 6, 8),
                        "up to this many zmm per operand (V = ceil(ceil(64n/52)/8)) the "
                        "products go to fresh temporaries added to the accumulators (their "
                        "chain: add, align, add; 2V more VPADDQ); above, IFMAs straight into "
                        "the accumulators", kind="size", sizes=(16, 24, 32, 40, 48, 56, 64)),
    "lookahead_upto": Param(6, (0, 3, 5, 6, 7, 10),
                            "up to this many zmm per operand (V) the digit loop computes m "
                            "one digit ahead from scalar terms and reads R's lane 1 a digit "
                            "early (module docstring, Lookahead); above, the plain loop (its "
                            "extra scalar products compete with the IFMAs for port 5 once "
                            "the vector work dominates)", kind="size",
                            sizes=(16, 24, 32, 40, 48, 56, 64)),
    "ifma_max": Param(128, (32, 48, 64, 96, 128),
                      "up to this many limbs the IFMA path (above: adx); sizes the stack "
                      "(128: V = 20 accumulators, the compact frame)",
                      kind="size", sizes=(48, 64, 65, 96, 128, 129)),
}


def digits(n):
    return -(-64 * n // 52)


def vectors(n):
    return -(-digits(n) // 8)


def montmul(f, rp, ap, bp, np, n0inv, n, p):
    """The kernel body for ifma_min <= n <= ifma_max (the caller sends other sizes to adx)."""
    vmin, vmax = vectors(p.ifma_min), vectors(p.ifma_max)
    # lane bounds (module docstring, "Bounds"): the lookahead digits, below 2^61; the plain
    # loop, below 2^62
    if 4 * 8 * min(vmax, p.lookahead_upto) << 52 >= 1 << 61:
        raise ValueError("ifma_max = %d: lookahead lanes could pass 2^61" % p.ifma_max)
    if 4 * 8 * vmax << 52 >= 1 << 62:
        raise ValueError("ifma_max = %d: lanes could pass 2^62" % p.ifma_max)
    lay = _Layout(vmax, ifma_limbs(p), p.lookahead_upto)
    buf = LocalVariable(lay.size + 64, 16)
    base = GeneralPurposeRegister64()
    LEA(base, buf)
    ADD(base, 63)
    AND(base, -64)
    lay.base = base
    # loop constants of the lookahead digits (n0 2^12, n1 2^12, k0 n1) and the pack index
    lay.n0s, lay.n1s, lay.kn1 = LocalVariable(8), LocalVariable(8), LocalVariable(8)
    lay.pidx = LocalVariable(64, 16)
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
    # X, 8 limbs a step: X_i = b_i << k | b_(i-1) >> (64 - k) (a count of 64 gives 0), from
    # masked loads that read only b[0 .. n-1]
    xk, xr = XMMRegister(), XMMRegister()
    VMOVQ(xk, k)
    NEG(k)
    ADD(k, 64)
    VMOVQ(xr, k)
    w, rem, cnt, ones, first = (GeneralPurposeRegister64() for _ in range(5))
    XOR(w.as_dword, w.as_dword)
    MOV(rem, n)
    MOV(ones, -1)
    MOV(first.as_dword, 0xFE)                       # b_(-1) does not exist
    kc, kp = KRegister(), KRegister()
    cur, prv = ZMMRegister(), ZMMRegister()
    shl = f.new_label("shift_b")
    f.bind(shl)
    MOV(cnt, 8)
    CMP(rem, 8)
    CMOVB(cnt, rem)
    BZHI(t, ones, cnt)
    KMOVB(kc, t.as_dword)                           # lanes of b_(8w+l), 8w + l < n
    LEA(cnt, [rem + 1])
    MOV(t, 8)
    CMP(cnt, 8)
    CMOVB(t, cnt)
    BZHI(t, ones, t)
    AND(t, first)
    KMOVB(kp, t.as_dword)                           # lanes of b_(8w+l-1), 0 <= 8w + l - 1 < n
    VMOVDQU64(cur(kc.z), [bp + w * 8])
    VMOVDQU64(prv(kp.z), [bp + w * 8 - 8])
    VPSLLQ(cur, cur, xk)
    VPSRLQ(prv, prv, xr)
    VPORQ(cur, cur, prv)
    VMOVDQA64([base + w * 8 + lay.X], cur)
    MOV(first.as_dword, 0xFF)
    ADD(w, 8)
    SUB(rem, 8)
    JNC(shl)                                        # until 8w > n: the n + 1 limbs are out

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
    """The frame (byte offsets from a 64-byte aligned base): A and N digits (8 vmax qwords
    each), B digits (8 vmax), X: b 2^k (8 floor(n/8) + 8 limbs, written 8 at a time), C2: the
    lookahead's c2_i (8 lookahead_upto qwords).

    Wide: X and C2 share a region of their own after B. Compact, where that frame would pass
    the 4 KiB a frame may take without stack probes (Function._frame_shape; vmax = 20 at
    ifma_max = 128): X lies on B's region and B is cut from it in place, last block first
    (block j reads bytes [52j, 52j + 64) and writes [64j, 64j + 64): it reads nothing an
    earlier, higher block wrote, and writes nothing a later, lower block reads), and C2 lies
    in A's region above the digits of any V that has a lookahead loop (V <= lookahead_upto,
    2 lookahead_upto <= vmax)."""

    def __init__(self, vmax, limbs, lookahead_upto):
        nq = 8 * vmax
        xq = 8 * (limbs // 8) + 8
        self.A, self.N, self.B = 0, 8 * nq, 16 * nq
        wide = 8 * (3 * nq + max(xq, 8 * lookahead_upto))
        # beside the buffer the frame holds its 64-byte alignment slack and the other locals
        # (pack index, three lookahead constants, three parked arguments; under 256 bytes)
        self.compact = wide + 64 + 256 >= 4096
        if not self.compact:
            self.X = self.C2 = 24 * nq
            self.size = wide
        else:
            if xq > nq or 2 * lookahead_upto > vmax:
                raise ValueError("x86_ifma_mont: no compact frame for vmax = %d" % vmax)
            self.X = self.B
            self.C2 = self.A + 64 * lookahead_upto
            self.size = 24 * nq


def _cut_block(dst, src, rem, cnt, ones, zero, kl, cidx, csh, m52):
    """One block of 8 digits: the bytes at src (min(max(rem, 0), 64) of them, by a byte mask)
    cut into dst (both memory operands)."""
    MOV(cnt, 64)
    CMP(rem, 64)
    CMOVB(cnt, rem)
    CMP(rem, 0)
    CMOVL(cnt, zero)
    BZHI(cnt, ones, cnt)
    KMOVQ(kl, cnt)
    x = ZMMRegister()
    unpack_block(x, kl, src, cidx, csh, m52)
    VMOVDQA64(dst, x)


def _unpack(f, dst, src, nbytes, nblocks, cidx, csh, m52, descending=False):
    # dst: an address expression (base + offset), src: a register
    """nblocks blocks of 8 digits from the first `nbytes` (a register) bytes at src: block j
    loads bytes [52j, 52j + 52) masked to what exists. descending: the last block first (in
    place, src == dst: _Layout's compact frame)."""
    rem, cnt, ones = (GeneralPurposeRegister64() for _ in range(3))
    kl = KRegister()
    MOV(ones, -1)
    zero = GeneralPurposeRegister64()
    XOR(zero.as_dword, zero.as_dword)
    if not descending:
        MOV(rem, nbytes)
    for j in (range(nblocks - 1, -1, -1) if descending else range(nblocks)):
        if descending:
            LEA(rem, [nbytes - 52 * j])
        _cut_block([dst + 64 * j], [src + 52 * j], rem, cnt, ones, zero, kl, cidx, csh, m52)
        if not descending:
            SUB(rem, 52)


def _unpack_loop(f, dst, src, nbytes, nblocks, cidx, csh, m52, descending=False):
    """_unpack as a loop over the blocks (the same loads, masks and stores, in the same
    order)."""
    rem, cnt, ones, zero, s, d, j = (GeneralPurposeRegister64() for _ in range(7))
    kl = KRegister()
    MOV(ones, -1)
    XOR(zero.as_dword, zero.as_dword)
    first = nblocks - 1 if descending else 0
    LEA(rem, [nbytes - 52 * first])
    LEA(s, [src + 52 * first])
    LEA(d, [dst + 64 * first])
    MOV(j.as_dword, nblocks)
    loop = f.new_label("cut")
    f.bind(loop)
    _cut_block([d], [s], rem, cnt, ones, zero, kl, cidx, csh, m52)
    step = -1 if descending else 1
    ADD(rem, -52 * step)
    ADD(s, 52 * step)
    ADD(d, 64 * step)
    DEC(j)
    JNZ(loop)


def _body(f, V, parked, ap, np, k0, n, D, lay, m52, zero, cidx, csh, p):
    s_rp, s_np, s_n = parked
    b = lay.base
    nb = GeneralPurposeRegister64()
    LEA(nb, [n * 8])
    # above CUT_UNROLLED_V the digits are cut in a loop over the blocks (code size: the three
    # cuts unrolled take about 3.5 KiB at V = 20); up to it unrolled (the loops' exits cost
    # about 1-2% at 48 and 64 limbs on AMD Zen 5)
    cut = _unpack if V <= CUT_UNROLLED_V else _unpack_loop
    cut(f, b + lay.A, ap, nb, V, cidx, csh, m52)
    cut(f, b + lay.N, np, nb, V, cidx, csh, m52)
    ADD(nb, 8)
    xp = GeneralPurposeRegister64()
    LEA(xp, [b + lay.X])
    cut(f, b + lay.B, xp, nb, V, cidx, csh, m52, descending=lay.compact)

    R = [ZMMRegister() for _ in range(V)]
    for r in R:
        VMOVDQA64(r, zero)
    if V <= p.lookahead_upto:
        acc0, mask = _digits_lookahead(f, V, lay, D, R, zero, m52, k0, p)
    else:
        acc0, mask = _digits_plain(f, V, lay, D, R, zero, k0, p)

    _finish(f, R, V, acc0, lay, s_rp, s_n, m52, zero, mask)


# up to this many accumulators _body cuts the digits of a, N and b 2^k with unrolled code
CUT_UNROLLED_V = 10

# up to this many accumulators _finish keeps t and t - N in registers side by side
SPILL_V = 12


def _finish(f, R, V, acc0, lay, s_rp, s_n, m52, zero, mask):
    """t = R (digit 0 = acc0) normalised, t - N, the choice between them and the packing into
    rp, all in zmm registers (the module docstring, "Out")."""
    t, x, g, pr, c = (GeneralPurposeRegister64() for _ in range(5))
    pidx_mem = GeneralPurposeRegister64()
    LEA(pidx_mem, lay.pidx)
    pack_index(pidx_mem, t)
    k = KRegister()
    MOV(t.as_dword, 1)
    KMOVB(k, t.as_dword)
    z = ZMMRegister()
    VPBROADCASTQ(z, acc0)
    VMOVDQA64(R[0](k), z)                           # digit 0 = acc0
    one = ZMMRegister()
    MOV(t.as_dword, 1)
    VPBROADCASTQ(one, t)
    # carries: c = F >> 52 one lane up, then the 0/1 ripple (generate F > M52, propagate
    # F == M52: x = ((g << 1) + cin + p) ^ p, bit l = carry into lane l, bit 8 = out)
    cprev = zero
    for v in range(V):
        cy, cs = ZMMRegister(), ZMMRegister()
        VPSRLQ(cy, R[v], 52)
        VPANDQ(R[v], R[v], m52)
        VALIGNQ(cs, cy, cprev, 7)
        VPADDQ(R[v], R[v], cs)
        cprev = cy
    top = GeneralPurposeRegister64()
    VALIGNQ(z, zero, cprev, 7)
    VMOVQ(top, z.as_xmm)                            # digit 8V (< 2^10)
    XOR(c.as_dword, c.as_dword)
    for v in range(V):
        _ripple(R[v], m52, 6, 0, c, x, g, pr)
        VPADDQ(R[v](_k(x)), R[v], one)
        VPANDQ(R[v], R[v], m52)
    ADD(top, c)
    # t - N digit by digit, borrows rippled the same way (generate < 0, propagate == 0); with
    # more than SPILL_V accumulators the digits of t - N wait in B's rows (free after the
    # loop), as t and t - N side by side would need more than the 32 zmm registers
    spill = V > SPILL_V
    Dv = [ZMMRegister() for _ in range(V)]
    XOR(c.as_dword, c.as_dword)
    for v in range(V):
        VPSUBQ(Dv[v], R[v], [lay.base + lay.N + 64 * v])
        _ripple(Dv[v], zero, 1, 1, c, x, g, pr)
        VPSUBQ(Dv[v](_k(x)), Dv[v], one)
        VPANDQ(Dv[v], Dv[v], m52)
        if spill:
            VMOVDQA64([lay.base + lay.B + 64 * v], Dv[v])
    SUB(top, c)
    SAR(top, 63)                                    # -1: t < N, keep t; 0: t - N
    keep = KRegister()
    KMOVB(keep, top.as_dword)
    pidx, keven = ZMMRegister(), KRegister()
    VMOVDQU64(pidx, [pidx_mem])
    MOV(t.as_dword, 0x55)
    KMOVB(keven, t.as_dword)
    rp, rem, cnt, ones = (GeneralPurposeRegister64() for _ in range(4))
    MOV(rp, s_rp)
    MOV(rem, s_n)
    SHL(rem, 3)                                     # bytes of rp still to write
    MOV(ones, -1)
    for v in range(V):
        if spill:
            Dv[v] = ZMMRegister()
            VMOVDQA64(Dv[v], [lay.base + lay.B + 64 * v])
        VMOVDQA64(Dv[v](keep), R[v])
        r = pack_block(Dv[v], pidx, keven)
        MOV(cnt, 52)                                # min(max(rem, 0), 52) bytes
        CMP(rem, 52)
        CMOVB(cnt, rem)
        XOR(t.as_dword, t.as_dword)
        CMP(rem, 0)
        CMOVL(cnt, t)
        BZHI(cnt, ones, cnt)
        KMOVQ(k7, cnt)
        VMOVDQU8(zword[rp + 52 * v](k7), r)
        SUB(rem, 52)


def _k(x):
    k = KRegister()
    KMOVB(k, x.as_dword)
    return k


def _ripple(F, ref, gen_pred, borrow, c, x, g, pr):
    """x = the lanes of F that take a carry (borrow) in: generate F (gen_pred) ref, propagate
    F == ref; c: the carry into lane 0, then out of lane 7."""
    kg, kp = KRegister(), KRegister()
    if borrow:
        VPCMPQ(kg, F, ref, gen_pred)                # signed: F < 0
    else:
        VPCMPUQ(kg, F, ref, gen_pred)               # F > M52
    VPCMPEQQ(kp, F, ref)
    KMOVB(g.as_dword, kg)
    KMOVB(pr.as_dword, kp)
    LEA(x, [c + g * 2])
    ADD(x, pr)
    XOR(x, pr)
    MOV(c, x)
    SHR(c, 8)


def _digits_plain(f, V, lay, D, R, zero, k0, p):
    """The digit loop as the algorithm reads (the baseline): m from acc0 each digit, lane 0
    of the shifted R read back by VMOVQ. Returns (acc0, mask)."""
    b = lay.base
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

    return acc0, mask


def _digits_lookahead(f, V, lay, D, R, zero, m52, k0, p):
    """The digit loop with m one digit ahead (the module docstring, "Lookahead"), unrolled
    by two so that the two sets of H registers trade places. Returns (acc0, mask)."""
    b = lay.base
    A0, A1, N1, N2 = b + lay.A, b + lay.A + 8, b + lay.N + 8, b + lay.N + 16
    C2 = lay.C2 - lay.B                             # c2_i at [bptr + C2]
    n0s, n1s, kn1 = lay.n0s, lay.n1s, lay.kn1
    acc0, m, eps, mask, bptr, cnt = (GeneralPurposeRegister64() for _ in range(6))
    t = GeneralPurposeRegister64()
    MOV(mask, M52)
    MOV(t, [b + lay.N])
    SHL(t, 12)
    MOV(n0s, t)                                     # n0 2^12: MULX's high half is m n0 >> 52
    MOV(t, [N1])
    SHL(t, 12)
    MOV(n1s, t)
    MOV(t, [N1])
    IMUL(t, k0)
    MOV(kn1, t)                                     # k0 n1
    # c2_i = lo(a2 b_i) + hi(a1 b_i), every digit at once
    za1, za2, c = ZMMRegister(), ZMMRegister(), ZMMRegister()
    VPBROADCASTQ(za1, [A1])
    VPBROADCASTQ(za2, [b + lay.A + 16])
    for v in range(V):
        VPXORQ(c, c, c)
        VPMADD52LUQ(c, za2, [b + lay.B + 64 * v])
        VPMADD52HUQ(c, za1, [b + lay.B + 64 * v])
        VMOVDQA64([b + lay.C2 + 64 * v], c)
    XOR(acc0.as_dword, acc0.as_dword)
    XOR(eps.as_dword, eps.as_dword)                 # eps_0
    LEA(bptr, [b + lay.B])
    MOV(cnt, D)
    zb, zm, g = ZMMRegister(), ZMMRegister(), ZMMRegister()
    plo, phi, plo2 = (GeneralPurposeRegister64() for _ in range(3))
    MOV(rdx, [bptr])
    VPBROADCASTQ(zb, rdx)
    MULX(phi, plo, [A0])                            # a0 b_0
    MOV(m, plo)
    IMUL(m, k0)
    AND(m, mask)                                    # m_0
    sets = ([ZMMRegister() for _ in range(V)], [ZMMRegister() for _ in range(V)])
    for h in sets[0] + sets[1]:
        VPXORQ(h, h, h)
    loop, second = f.new_label("digits_v%d" % V), f.new_label("digits_odd_v%d" % V)
    TEST(cnt, 1)                                    # D odd: start with the second half
    JZ(loop)
    MOV(plo2, plo)
    JMP(second)
    f.bind(loop)
    f.mca_begin("amm52 lookahead x2 digits=%d" % (8 * V))
    for half, (Hp, Hn), (lo_in, lo_out) in ((0, sets, (plo, plo2)),
                                             (1, sets[::-1], (plo2, plo))):
        if half:
            f.bind(second)
        # vector: R_(i+1) = shift(R + H_(i-1) + lo(A b_i) + lo(N m_i)); H_i = hi(A b_i) +
        # hi(N m_i) stays apart until the next digit
        VPBROADCASTQ(zm, m)
        VPADDQ(g, R[0], Hp[0])
        VALIGNQ(g, g, g, 2)                         # lane 2 of R_i + H_(i-1): gamma_i
        for v in range(V):
            VPMADD52LUQ(Hp[v], zb, [b + lay.A + 64 * v])
        for v in range(V):
            VPXORQ(Hn[v], Hn[v], Hn[v])
            VPMADD52HUQ(Hn[v], zb, [b + lay.A + 64 * v])
        MOV(rdx, m)
        qh, u, h1 = (GeneralPurposeRegister64() for _ in range(3))
        MULX(qh, qh, [n0s])                         # floor(m n0 / 2^52)
        MULX(h1, u, [n1s])                          # hi(n1 m); lo(n1 m) 2^12
        for v in range(V):
            VPMADD52LUQ(Hp[v], zm, [b + lay.N + 64 * v])
        for v in range(V):
            VPMADD52HUQ(Hn[v], zm, [b + lay.N + 64 * v])
        for v in range(V):
            VPADDQ(R[v], R[v], Hp[v])
        for v in range(V - 1):
            VALIGNQ(R[v], R[v + 1], R[v], 1)
        VALIGNQ(R[V - 1], zero, R[V - 1], 1)
        # scalar (the module docstring's equations)
        SHR(u, 12)                                  # lo(n1 m)
        ADD(lo_in, mask)
        ADC(phi, 0)
        ADD(lo_in, acc0)
        ADC(phi, 0)
        SHRD(lo_in, phi, 52)                        # ceil(t / 2^52), t = acc0 + a0 b_i
        c1 = GeneralPurposeRegister64()
        MOV(c1, [bptr])
        IMUL(c1, [A1])
        AND(c1, mask)                               # lo(a1 b_i)
        ADD(lo_in, eps)
        ADD(lo_in, c1)                              # f_i
        LEA(acc0, [lo_in + u * 1])
        ADD(acc0, qh)                               # acc0_(i+1)
        w, v2 = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        MOV(w, [kn1])
        IMUL(w, rdx)                                # k0 n1 m
        MOV(v2, [N2])
        IMUL(v2, rdx)
        AND(v2, mask)                               # lo(n2 m)
        VMOVQ(eps, g.as_xmm)
        ADD(eps, v2)
        ADD(eps, h1)
        ADD(eps, [bptr + C2])                       # eps_(i+1)
        MOV(rdx, [bptr + 8])
        VPBROADCASTQ(zb, rdx)
        MULX(phi, lo_out, [A0])                     # a0 b_(i+1)
        ADD(lo_in, lo_out)
        LEA(m, [lo_in + qh * 1])
        IMUL(m, k0)
        ADD(m, w)
        AND(m, mask)                                # m_(i+1)
        ADD(bptr, 8)
        DEC(cnt)                                    # never 0 after the first half
        if half:
            JNZ(loop)
    f.mca_end()
    for v in range(V):                              # the last H joins R
        VPADDQ(R[v], R[v], sets[0][v])
    return acc0, mask
