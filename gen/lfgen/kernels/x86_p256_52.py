"""x86-64 variants of the JDK's MontgomeryIntegerPolynomialP256 field (5 x 52-bit limbs, R =
2^260): p256_mont_mult / p256_mont_square ("ifma": one element in the lanes of a zmm, as the
JDK's montgomeryMultiply; "mulx": scalar) and p256_mont_mult_x8 ("ifma": eight elements, one
per lane; "mulx": eight mulx products in a loop, for CPUs without IFMA). The arithmetic is p256_mont_mult.py's; what the variants add:

p = [M52, 2^44 - 1, 0, 2^36, 2^48 - 2^16] (limbs), so for a quotient digit m < 2^52

    m p = m (2^96 - 1) + m 2^36 2^156 + m (2^48 - 2^16) 2^208

and m (2^96 - 1) at column i is "-m at column i" (which clears the low 52 bits of column i,
m being those bits: what is left is column i >> 52, the carry into column i + 1) plus m 2^44
at column i + 1. So a reduction step is: carry column i >> 52 into column i + 1, then add
lo/hi(m, 2^44) at columns i + 1 / i + 2, lo/hi(m, 2^36) at i + 3 / i + 4 and lo/hi(m, p4)
at i + 4 / i + 5 (lo(x, y) = x y mod 2^52, hi(x, y) = x y >> 52) -- the "x8" and "mulx"
variants use this form (six 52x52 products per step instead of ten; "x8" makes the carry and
lo(m, 2^44) = (m mod 2^8) 2^44 together by a byte select, five IFMA per step); "ifma"
multiplies the whole modulus vector, as the JDK.

ifma (one element, the JDK's AVX-512 montgomeryMultiply): A = a0..a4 and M = p in lanes 0..4
of a zmm (masked load, lanes 5..7 zero). Per row i: T = lo(A, b_i) and H = hi(A, b_i) into
fresh registers (they do not wait for the accumulator), X = Acc + T, N = broadcast(lane 0 of
X) (IFMA reads its low 52 bits: the quotient digit), X += lo(M, N), H += hi(M, N), H lane 0
+= X lane 0 >> 52 (the carry out of the cleared column; masked add), Acc = X shifted down one
lane (VALIGNQ with zero) + H. After five rows Acc holds columns 5..9 (each < 2^57).
Final step, constant time, all in lanes with mask-register carries:
    t: c = Acc >> 52 moved up one lane, Acc = (Acc & M52) + c (lanes <= 2^52 + 31); then the
       carry pattern by generate/propagate masks g = lanes > M52, q = lanes == M52 in a GPR:
       carry-in lanes = ((g << 1) + q) ^ q; those lanes get + 1 (- M52, then & M52).
    u = t + (2^260 - p) lane by lane (each lane < 2^53 - 1), normalised the same way; bit 5
       of its carry pattern is the carry out of lane 4: u >= 2^260, i.e. t >= p.
    r = t >= p ? u mod 2^260 : t, by a merge-masked move with the mask -(bit 5); stored by a
       masked store of lanes 0..4.
The quotient digits, the carries and the choice never reach a branch or an address
(f.secret_independent checks it).

x8 (eight elements, lane k of limb register j = limb j of element k). Timing on a
Sapphire Rapids-class core showed the kernel bound by its dependency chains as much as by its
~190 512-bit uops (all on ports 0 and 5; shuffles on 5 only), with a cycle of bypass between
IFMA and the integer ALU each way, so the layout is chosen for short chains:
Column c is the sum of up to four registers: P_c, the lo(A_j, B_(c-j)) products; H_c, the
hi(A_j, B_(c-1-j)) products (both need no quotient digit and run ahead); R_c, the reduction
terms of the digits m_(c-5) .. m_(c-2) (in digit order); and z_(c-1) = (m_(c-1) >> 52) +
((m_(c-1) mod 2^8) << 44), the carry out of column c - 1 plus lo(m_(c-1), 2^44): the two
share no bit, so one VPMULTISHIFTQB (bytes of m from bit offsets 52, 60, 60, 4; ZSEL) and a
VPANDQ (ZMASK) make it. Reduction step i: m = column i (IFMA reads its low 52 bits), z_i,
then hi(m, 2^44), lo/hi(m, 2^36), lo/hi(m, p4) into R_(i+2..i+5) (five IFMA): from one digit
to the next the path is a byte select, an AND and adds, no IFMA. Products of column i + 2
are issued after step i.
Final step: t = columns 5..9 and e = t - p (lazy limbs; limb 2 of p is 0) are carried to
52-bit limbs by two independent chains (VPSRLQ for t, VPSRAQ for e, VPADDQ, VPANDQ); the sign
of e's top limb, spread over its lane by VPSRAQ 63, selects r_j = e < 0 ? t_j : e_j
(VPTERNLOGQ). The chains run side by side: on AMD Zen 5, paired in one process, a chained
call took 130 core cycles against 147 with one chain for the sign of e, the selection
(VPMOVQ2M, VPBLENDMQ) and a second carry chain after it; independent calls 1.005-1.013x.
Transposition in (x8_perms has the index vectors and checks them on a model of memory): for
limb pairs (1, 2), (3, 4) and limb 0, H_a = VPERMT2Q over two 8-qword windows (a load and a
memory operand, unaligned) with limbs j, j + 1 of elements 0..3 in its halves, H_b the same
for elements 4..7 with the halves swapped; L_j = VPBLENDMQ(H_a, H_b) (upper lanes from H_b)
and L_(j+1) = VSHUFI64X2(H_a, H_b). The two VPERMT2Q index vectors come from one VPMOVZXBQ
(the second is VPSRLQ by 4 of it: the permutes read the low 4 bits of a lane only).
Transposition out: limb 4 first, by two VPERMQ putting elements e, e + 1 five lanes apart and
four plain 8-qword stores (qwords 5e + 4 and 5e + 9; the other qwords they write are limbs
0..3, rewritten by the next stores); then VSHUFI64X2 pairs [L0 | L1], [L2 | L3] of elements
0..3 and 4..7, VPERMT2Q rows [e_k limbs 0..3 | e_(k+1) limbs 0..3], stored as two 256-bit
halves. Every load precedes the first store, so r may alias a or b.

mulx (scalar, one element; the dispatcher's first choice on x86-64: chained products, the
JDK's use, wait on latency, where the zmm code's lane moves cost most): product scanning,
the columns S_c = sum a_i b_(c-i) as 128-bit MULX sums (ADD/ADC, no per-product split at 52
bits), each formed just before the carry chain reaches it; the reduction terms of the digit
m_c = S_c mod 2^52 enter later columns as shifts (m 2^44 split at column c + 1 / c + 2, m 2^36
at c + 3) and one MULX (m p4 at c + 4); the carry S_c >> 52 plus the low piece of m_c 2^44
are read from S_c's own words, so one column waits on the previous by a shift, an add and an
ADD/ADC pair (mulx_body's docstring). Final: t = S_5..S_8 mod 2^52 and S_8 >> 52, d = t - p
with SAR borrows, the sign of d's top limb selects t by CMOVS.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, ZMMRegister as Z, KRegister,
                            MOV, ADD, ADC, SUB, XOR, AND, OR, LEA, NEG, SHR, SHL, SAR, SHRD, BZHI, MULX,
                            CMOVS, TEST, KMOVB, VMOVQ, VMOVDQU64, VMOVDQA64, VPBROADCASTQ,
                            VPXORQ, VPADDQ, VPSUBQ, VPANDQ, VPSRLQ, VPSRAQ, VALIGNQ,
                            VPMADD52LUQ, VPMADD52HUQ, VPCMPUQ, VPCMPEQQ, VPMULTISHIFTQB,
                            VSHUFI64X2, VPERMT2Q, VPERMQ, VPMOVZXBQ, VPBLENDMQ, VPTERNLOGQ,
                            VEXTRACTI64X4, rdx, zword, k7 as K7)

M52 = (1 << 52) - 1
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
PL = [M52, (1 << 44) - 1, 0, 1 << 36, (1 << 48) - (1 << 16)]
QL = [(2**260 - P) >> (52 * j) & M52 for j in range(5)]           # 2^260 - p, 52-bit limbs
assert sum(v << (52 * j) for j, v in enumerate(PL)) == P
assert sum(v << (52 * j) for j, v in enumerate(QL)) == 2**260 - P
K44, K36, KP4 = 1 << 44, 1 << 36, PL[4]
# x8: z = (m >> 52) + ((m mod 2^8) << 44) for a 64-bit column m, as VPMULTISHIFTQB(ZSEL, m) &
# ZMASK: byte 0 = bits 52..59 of m, byte 1 = bits 60..63 (low nibble), byte 5 = bits 0..3
# (high nibble), byte 6 = bits 4..7 (low nibble); the two terms share no bit, so OR = sum
ZSEL = sum(b << (8 * j) for j, b in enumerate([52, 60, 0, 0, 0, 60, 4, 0]))
ZMASK = 0x000FF00000000FFF


def _zsel_model(m):
    """VPMULTISHIFTQB(ZSEL, m) & ZMASK on one qword (each byte: 8 bits of m rotated right)."""
    rot = lambda k: ((m >> k) | (m << (64 - k))) & (2**64 - 1)
    return sum((rot(k) & 0xFF) << (8 * j)
               for j, k in enumerate([52, 60, 0, 0, 0, 60, 4, 0])) & ZMASK


for _m in (0, 2**64 - 1, 0x123456789ABCDEF0, 0xFEDCBA9876543210, 2**52 - 1, 2**63 + 255):
    assert _zsel_model(_m) == (_m >> 52) + ((_m & 0xFF) << 44)


def _bcast(value):
    """A zmm with `value` in every lane."""
    z = Z()
    if value == 0:
        VPXORQ(z, z, z)
        return z
    t = G()
    MOV(t, value)
    VPBROADCASTQ(z, t)
    return z


def _lanes(values):
    """A zmm with values[l] in lane l (lanes past the list zero): masked broadcasts, one per
    distinct non-zero value."""
    z = Z()
    VPXORQ(z, z, z)
    t, km = G(), G()
    k = KRegister()
    for v in sorted(set(values) - {0}):
        bits = sum(1 << l for l, x in enumerate(values) if x == v)
        MOV(km.as_dword, bits)
        KMOVB(k, km.as_dword)
        MOV(t, v)
        VPBROADCASTQ(z(k), t)
    return z


# ---- ifma: one element in lanes 0..4 --------------------------------------------------------

def _carry_in(X, m52, cin=None):
    """Lanes of X (<= 2^53 - 2) to 52 bits by generate/propagate masks; returns the GPR
    holding the carry-in pattern (bit j: lane j got + 1; bit 5: carry out of lane 4)."""
    kg, kq, kc = KRegister(), KRegister(), KRegister()
    VPCMPUQ(kg, X, m52, 6)                      # g: lane > M52 (carries out)
    VPCMPEQQ(kq, X, m52)                        # q: lane == M52 (passes a carry on)
    g, q, c = G(), G(), G()
    KMOVB(g.as_dword, kg)
    KMOVB(q.as_dword, kq)
    MOV(c.as_dword, g.as_dword)
    ADD(c.as_dword, c.as_dword)                 # (not LEA: the taint check reads its operand
    ADD(c.as_dword, q.as_dword)                 # as an address)
    XOR(c.as_dword, q.as_dword)                 # ((g << 1) + q) ^ q
    KMOVB(kc, c.as_dword)
    VPSUBQ(X(kc), X, m52)                       # + 1 - 2^52
    VPANDQ(X, X, m52)
    return c


def ifma_body(f, rp, ap, bp):
    k5 = K7                                     # physical: it masks a store
    t = G()
    MOV(t.as_dword, 0x1F)
    KMOVB(k5, t.as_dword)
    A = Z()
    VMOVDQU64(A(k5.z), [ap])                    # a0..a4, lanes 5..7 zero
    M = _lanes(PL)
    zero = _bcast(0)
    k0 = KRegister()
    MOV(t.as_dword, 1)
    KMOVB(k0, t.as_dword)
    acc = None
    for i in range(5):
        f.comment("row %d: X = Acc + lo(A, b%d), N = lane 0 of X, X += lo(M, N), "
                  "Acc = (X >> one lane) + hi(A, b%d) + hi(M, N) + (X0 >> 52)" % (i, i, i))
        B = Z()
        VPBROADCASTQ(B, [bp + 8 * i])
        T, H = Z(), Z()
        VPXORQ(H, H, H)
        VPMADD52HUQ(H, A, B)
        if acc is None:
            VPXORQ(T, T, T)
            VPMADD52LUQ(T, A, B)
            X = T
        else:
            VPXORQ(T, T, T)
            VPMADD52LUQ(T, A, B)
            X = Z()
            VPADDQ(X, acc, T)
        N = Z()
        VPBROADCASTQ(N, X.as_xmm)
        VPMADD52LUQ(X, M, N)
        VPMADD52HUQ(H, M, N)
        c = Z()
        VPSRLQ(c, X, 52)
        VPADDQ(H(k0), H, c)                     # lane 0: the carry out of the cleared column
        acc = Z()
        VALIGNQ(acc, zero, X, 1)
        VPADDQ(acc, acc, H)
    f.comment("columns 5..9 in lanes 0..4 (< 2^57): t to 52-bit lanes")
    m52 = _bcast(M52)
    c = Z()
    VPSRLQ(c, acc, 52)
    VPANDQ(acc, acc, m52)
    VALIGNQ(c, c, zero, 7)                      # one lane up, zero into lane 0
    VPADDQ(acc, acc, c)
    _carry_in(acc, m52)
    f.comment("u = t + 2^260 - p; its carry out of lane 4 is t >= p")
    Q = _lanes(QL)
    U = Z()
    VPADDQ(U, acc, Q)
    cu = _carry_in(U, m52)
    SHR(cu.as_dword, 5)
    AND(cu.as_dword, 1)
    NEG(cu.as_dword)
    ks = KRegister()
    KMOVB(ks, cu.as_dword)
    VMOVDQA64(acc(ks), U)                       # t >= p: t - p
    VMOVDQU64(zword[rp](k5), acc)


# ---- x8: eight elements, one per lane -----------------------------------------------------------

def _idx_pair(idx_lo, idx_hi):
    """Two index vectors from one immediate: VPMOVZXBQ of the bytes idx_lo[l] | idx_hi[l] << 4
    is idx_lo for VPERMT2Q/VPERMQ (they read the low 4/3 bits of a lane only) and VPSRLQ of
    it by 4 is idx_hi."""
    t = G()
    MOV(t, sum((lo | hi << 4) << (8 * l) for l, (lo, hi) in enumerate(zip(idx_lo, idx_hi))))
    x, lo = Z(), Z()
    VMOVQ(x.as_xmm, t)
    VPMOVZXBQ(lo, x.as_xmm)
    hi = Z()
    VPSRLQ(hi, lo, 4)
    return lo, hi


def x8_perms():
    """The lane indices of the transpositions (lane k of every limb register is element k):
    in: idx_a, idx_b (VPERMT2Q over the windows of _transpose_in); out: the row indices
    idx_r1, idx_r2 and the limb-4 indices idx_v1, idx_v2 of _transpose_out. Checked on a
    model of the memory layout."""
    idx_a = [0, 5, 8, 13, 1, 6, 9, 14]
    idx_b = [1, 6, 10, 15, 0, 5, 9, 14]
    idx_r1 = [0, 4, 8, 12, 1, 5, 9, 13]
    idx_r2 = [2, 6, 10, 14, 3, 7, 11, 15]
    idx_v1 = [0, 2, 4, 0, 0, 1, 3, 5]
    idx_v2 = [0, 0, 6, 0, 0, 0, 0, 7]
    # model: qword q of the 40 holds ("e", q // 5, q % 5)
    mem = [(q // 5, q % 5) for q in range(40)]

    def vpermt2q(t1, ix, t2):
        return [(t1 + t2)[i & 15] for i in ix]
    for j in (0, 1, 3):
        ha = vpermt2q(mem[j:j + 8], idx_a, mem[10 + j:18 + j])
        hb = vpermt2q(mem[20 + j:28 + j], idx_b, mem[29 + j:37 + j])
        assert ha[:4] == [(k, j) for k in range(4)] and hb[4:] == [(k, j) for k in range(4, 8)]
        if j:
            assert ha[4:] == [(k, j + 1) for k in range(4)]
            assert hb[:4] == [(k, j + 1) for k in range(4, 8)]
    L = [[(k, j) for k in range(8)] for j in range(5)]
    for half in (0, 4):
        p_ = L[0][half:half + 4] + L[1][half:half + 4]
        q_ = L[2][half:half + 4] + L[3][half:half + 4]
        for ix, k in ((idx_r1, half), (idx_r2, half + 2)):
            row = vpermt2q(p_, ix, q_)
            assert row == [(k, j) for j in range(4)] + [(k + 1, j) for j in range(4)]
    v1 = [L[4][i & 7] for i in idx_v1]
    v2 = [L[4][i & 7] for i in idx_v2]
    for (v, base) in ((v1, 4), (v1, 13), (v1, 22), (v2, 32)):
        for l in range(8):
            if (base + l) % 5 == 4:
                assert v[l] == ((base + l) // 5, 4)
    return (idx_a, idx_b), (idx_r1, idx_r2), (idx_v1, idx_v2)


def _transpose_in(ptr, idx, khi, L, part):
    """Limb registers of the 8 elements at ptr (element k at qwords 5k..5k+4; lane k of L_j =
    limb j of element k) into L: part 0 = limb 0, part 1 = limbs 1, 2, part 3 = limbs 3, 4.
    Two levels: H = VPERMT2Q over two 8-qword windows (one load, one memory operand) holding
    four elements' limbs j and j + 1; then per limb pair L_j = VPBLENDMQ(H_a, H_b) and
    L_(j+1) = VSHUFI64X2(H_a, H_b); limb 0 by a blend alone. idx = (idx_a, idx_b), the
    VPERMT2Q indices of x8_perms."""
    idx_a, idx_b = idx

    def perm(w1, ix, w2):
        h = Z()
        VMOVDQU64(h, [ptr + 8 * w1])
        VPERMT2Q(h, ix, [ptr + 8 * w2])
        return h
    j = part
    Ha = perm(j, idx_a, 10 + j)                 # [e0..e3 limb j | e0..e3 limb j+1]
    Hb = perm(20 + j, idx_b, 29 + j)            # [e4..e7 limb j+1 | e4..e7 limb j]
    L[j] = Z()
    VPBLENDMQ(L[j](khi), Ha, Hb)
    if j:
        L[j + 1] = Z()
        VSHUFI64X2(L[j + 1], Ha, Hb, 0x4E)


def _transpose_out(ptr, L, idx_r, idx_v):
    """The inverse of _transpose_in: limb registers L0..L4 (lane k = element k) to the 8
    elements at ptr. Limb 4 first: two VPERMQ put elements e, e + 1 five lanes apart, and four
    plain 8-qword stores write them at qwords 5e + 4, 5e + 9 (the other qwords they write are
    limbs 0..3, rewritten next); then limbs 0..3: VSHUFI64X2 pairs [L0 | L1] and [L2 | L3] of
    elements 0..3 and 4..7, VPERMT2Q rows [e_k limbs 0..3 | e_(k+1) limbs 0..3], stored as two
    256-bit halves. All loads precede the first store, so r may alias a or b."""
    idx_r1, idx_r2 = idx_r
    V1, V2 = Z(), Z()
    VPERMQ(V1, idx_v[0], L[4])
    VPERMQ(V2, idx_v[1], L[4])
    for base, reg in ((4, V1), (13, V1), (22, V1), (32, V2)):
        VMOVDQU64([ptr + 8 * base], reg)
    for half, imm in ((0, 0x44), (4, 0xEE)):
        Pq, Qq = Z(), Z()
        VSHUFI64X2(Pq, L[0], L[1], imm)         # [e limb 0 | e limb 1], e in half..half+3
        VSHUFI64X2(Qq, L[2], L[3], imm)         # [e limb 2 | e limb 3]
        for ix, k in ((idx_r1, half), (idx_r2, half + 2)):
            row = Z()
            VMOVDQA64(row, Pq)
            VPERMT2Q(row, ix, Qq)               # [e_k limbs 0..3 | e_(k+1) limbs 0..3]
            VMOVDQU64([ptr + 40 * k], row.as_ymm)
            VEXTRACTI64X4([ptr + 40 * (k + 1)], row, 1)


def x8_body(f, rp, ap, bp):
    pin, pr, pv = x8_perms()
    idx_in = _idx_pair(*pin)
    t = G()
    khi = KRegister()
    MOV(t.as_dword, 0xF0)
    KMOVB(khi, t.as_dword)
    f.comment("transpose: limb j of the 8 elements in zmm j (lane k: element k)")
    A, B = [None] * 5, [None] * 5
    for X, ptr in ((A, ap), (B, bp)):
        for part in (0, 1, 3):
            _transpose_in(ptr, idx_in, khi, X, part)
    k44, k36, kp4 = _bcast(K44), _bcast(K36), _bcast(KP4)
    zsel, zmask = _bcast(ZSEL), _bcast(ZMASK)
    # Column c is the sum of up to four registers, so that no IFMA waits on a long chain:
    # P[c] the lo(a_j b_(c-j)) products, H[c] the hi(a_j b_(c-1-j)) products (both need no
    # quotient digit and run ahead), R[c] the reduction terms of the quotient digits m_(c-2)
    # .. m_(c-5), and late[c] = carry(m_(c-1)) + lo(m_(c-1), 2^44) by a byte select (ZSEL): the
    # path from one digit to the next is VPMULTISHIFTQB, VPANDQ and adds, no IFMA.
    P, H, R = [None] * 10, [None] * 10, [None] * 10
    late = {}

    def acc(regs, c, op, x, y):
        if regs[c] is None:
            regs[c] = Z()
            VPXORQ(regs[c], regs[c], regs[c])
        op(regs[c], x, y)

    def products(c):
        f.comment("column %d: lo(a_j b_(%d-j)), hi(a_j b_(%d-j))" % (c, c, c - 1))
        for j in range(5):
            if 0 <= c - j <= 4:
                acc(P, c, VPMADD52LUQ, A[j], B[c - j])
        for j in range(5):
            if 0 <= c - 1 - j <= 4:
                acc(H, c, VPMADD52HUQ, A[j], B[c - 1 - j])

    def column(c):
        parts = [r[c] for r in (P, H, R) if r[c] is not None] + ([late.pop(c)] if c in late else [])
        x = parts[0]
        for y in parts[1:]:
            s_ = Z()
            VPADDQ(s_, x, y)
            x = s_
        return x

    products(0)
    products(1)
    for i in range(5):
        f.comment("reduction step %d: m = column %d (IFMA reads its low 52 bits); carry + lo(m, "
                  "2^44) = (m >> 52) + ((m mod 2^8) << 44) into column %d; hi(m, 2^44), lo/hi(m, "
                  "2^36), lo/hi(m, p4)" % (i, i, i + 1))
        m = column(i)
        u, z = Z(), Z()
        VPMULTISHIFTQB(u, zsel, m)              # bytes of m at bit offsets 52, 60, 60, 4
        VPANDQ(z, u, zmask)                     # (m >> 52) + ((m mod 2^8) << 44)
        late[i + 1] = z
        acc(R, i + 2, VPMADD52HUQ, m, k44)
        acc(R, i + 3, VPMADD52LUQ, m, k36)
        acc(R, i + 4, VPMADD52HUQ, m, k36)
        acc(R, i + 4, VPMADD52LUQ, m, kp4)
        acc(R, i + 5, VPMADD52HUQ, m, kp4)
        products(i + 2)
    for c in range(7, 10):
        products(c)
    f.comment("t = columns 5..9 and e = t - p, each carried to 52-bit limbs (two independent "
              "chains: t by logical, e by arithmetic shifts)")
    C = [column(c) for c in range(5, 10)]
    m52 = _bcast(M52)
    pc = [m52, _bcast(PL[1]), None, k36, kp4]
    T = list(C)
    E = []
    for j in range(5):
        if pc[j] is None:
            E.append(C[j])
            continue
        e = Z()
        VPSUBQ(e, C[j], pc[j])
        E.append(e)
    for j in range(4):
        for X, shift in ((T, VPSRLQ), (E, VPSRAQ)):
            c_, x1, x0 = Z(), Z(), Z()
            shift(c_, X[j], 52)
            VPADDQ(x1, X[j + 1], c_)
            VPANDQ(x0, X[j], m52)
            X[j], X[j + 1] = x0, x1
    f.comment("r = e < 0 (t < p) ? t : e, lane by lane: the sign of e's top limb as a mask")
    sgn = Z()
    VPSRAQ(sgn, E[4], 63)
    Rr = []
    for j in range(5):
        VPTERNLOGQ(T[j], E[j], sgn, 0xE4)       # sgn ? T : E
        Rr.append(T[j])
    f.comment("transpose back and store")
    _transpose_out(rp, Rr, _idx_pair(*pr), _idx_pair(*pv))


# ---- mulx: scalar ----------------------------------------------------------------------------

def mulx_body(f, rp, ap, bp):
    """Columns S_c = sum a_i b_(c-i), c = 0..8, as 128-bit (lo, hi) register pairs (MULX
    h:l summed by ADD/ADC, no per-product split at 52 bits), each formed just before the
    carry chain reaches it (a square, ap is bp: the products 2 a_i a_j, i < j, and a_i^2).
    r is stored only after the last load of a and b, so rp may be ap or bp.
    Into S_c, besides its products:
        S_(c-1) >> 52 = (lo >> 52) + (hi << 12)    the carry (S_(c-1) - m_(c-1) = 0 mod 2^52)
        (m_(c-1) mod 2^8) 2^44 = (lo << 56) >> 12  the low piece of m_(c-1) 2^44  (c <= 5)
        m_(c-2) >> 8                               its high piece                  (2 <= c <= 6)
        m_(c-3) 2^36                               (p_3 = 2^36)                    (3 <= c <= 7)
        m_(c-4) p_4                                (p_4 = 2^48 - 2^16, one MULX)    (4 <= c <= 8)
    m_c = S_c mod 2^52 for c <= 4 (the quotient digit: -p^-1 = 1 mod 2^52); t_(c-5) = S_c
    mod 2^52 for c >= 5 and t_4 = S_8 >> 52.  The three carry terms come from S_(c-1)'s own
    words (no m needed) and are disjoint bit ranges of one word but for hi << 12, so the chain
    from one column to the next is a shift, an add and an ADD/ADC pair."""
    square = ap is bp
    c52 = G()
    MOV(c52.as_dword, 52)
    m = {}
    t = []
    prev = None

    def acc(S, lo, hi=None):
        if S[0] is None:
            S[0], S[1] = lo, hi
            if hi is None:
                S[1] = G()
                XOR(S[1].as_dword, S[1].as_dword)
            return
        ADD(S[0], lo)
        ADC(S[1], hi if hi is not None else 0)

    def product(S, x_mem, y_mem, double=False):
        if double:
            MOV(rdx, x_mem)
            ADD(rdx, rdx)
        else:
            MOV(rdx, x_mem)
        h, l = G(), G()
        MULX(h, l, y_mem)
        acc(S, l, h)

    for c in range(9):
        f.comment("column %d" % c)
        S = [None, None]
        for i in range(5):
            j = c - i
            if not 0 <= j < 5:
                continue
            if square:
                if i > j:
                    continue
                product(S, [ap + 8 * i] if i else [ap], [ap + 8 * j] if j else [ap], double=i < j)
            else:
                product(S, [ap + 8 * j] if j else [ap], [bp + 8 * i] if i else [bp])
        if 4 <= c <= 8:                                # m_(c-4) p_4
            MOV(rdx, KP4)
            h, l = G(), G()
            MULX(h, l, m[c - 4])
            acc(S, l, h)
        if 3 <= c <= 7:                                # m_(c-3) 2^36
            l, h = G(), G()
            MOV(l, m[c - 3])
            MOV(h, l)
            SHL(l, 36)
            SHR(h, 28)
            acc(S, l, h)
        if 2 <= c <= 6:                                # m_(c-2) >> 8
            x = G()
            MOV(x, m[c - 2])
            SHR(x, 8)
            acc(S, x)
        if prev is not None:                           # the carry out of S_(c-1)
            plo, phi = prev
            x = G()
            MOV(x, plo)
            SHR(x, 52)
            if c <= 5:                                 # + (m_(c-1) mod 2^8) 2^44
                y = G()
                MOV(y, plo)
                SHL(y, 56)
                SHR(y, 12)
                OR(x, y)
            SHL(phi, 12)
            ADD(x, phi)
            acc(S, x)
        if c <= 4:
            m[c] = G()
            BZHI(m[c], S[0], c52)
        else:
            tc = G()
            BZHI(tc, S[0], c52)
            t.append(tc)
        prev = S
    f.comment("t_4 = S_8 >> 52")
    plo, phi = prev
    SHR(plo, 52)
    SHL(phi, 12)
    ADD(plo, phi)
    t.append(plo)
    f.comment("d = t - p with arithmetic-shift borrows; d < 0 keeps t (CMOVS)")
    d = [G() for _ in range(5)]
    for j in range(5):
        MOV(d[j], t[j])
        if PL[j]:
            x = G()
            MOV(x, PL[j])
            SUB(d[j], x)
        if j:
            ADD(d[j], bw)
        if j < 4:
            bw = G()
            MOV(bw, d[j])
            SAR(bw, 52)
            BZHI(d[j], d[j], c52)
    TEST(d[4], d[4])
    for j in range(5):
        CMOVS(d[j], t[j])
    for j in range(5):
        MOV([rp + 8 * j] if j else [rp], d[j])


def x8_mulx_body(f, rp, ap, bp):
    """p256_mont_mult_x8 without IFMA: the eight elements one after the other through
    mulx_body (element k at byte 40 k; r_k may be a_k or b_k, which mulx_body allows), a loop
    of eight, so a batch costs eight scalar products and no transposition.  The counter and
    the a, b pointers wait in red-zone slots (Win64: a frame of three locals): the columns
    and the final subtraction keep 14 registers busy."""
    from peachpy.x86_64 import DEC, JNZ, qword
    from peachpy.x86_64.registers import rsp
    k, sa, sb = (qword[m[0]] if isinstance(m, list) else m for m in f.red_zone_slots(3))
    # the count and the pointers are public (the red zone; Win64: frame locals, which the
    # check sees as [rsp + 0] before the frame is laid out -- this body has no others)
    f.secret_independent(public=[(rsp, -8), (rsp, -16), (rsp, -24)] if f.flavour == "sysv"
                         else [(rsp, 0)])
    MOV(k, 8)
    MOV(sa, ap)
    MOV(sb, bp)
    top = f.new_label("element")
    f.bind(top)
    a, b = G(), G()
    MOV(a, sa)
    MOV(b, sb)
    mulx_body(f, rp, a, b)
    ADD(rp, 40)
    ADD(sa, 40)
    ADD(sb, 40)
    DEC(k)
    JNZ(top)


def builder(body, args, result=None, zmm32=False, square=False):
    def build(symbol, p):
        from ..x86 import function as x86
        f = x86.Function(symbol, args, result, zmm32=zmm32)
        f.secret_independent()
        with f:
            regs = f.load_args()
            if square:
                rp, ap = regs
                body(f, rp, ap, ap)
            else:
                body(f, *regs)
            f.ret()
        return f.finalize()
    return build
