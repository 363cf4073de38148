"""x86-64 variants of the JDK's MontgomeryIntegerPolynomialP256 field (5 x 52-bit limbs, R =
2^260): p256_mont_mult / p256_mont_square ("ifma": one element in the lanes of a zmm, as the
JDK's montgomeryMultiply; "mulx": scalar) and p256_mont_mult_x8 ("ifma": eight elements, one
per lane). The arithmetic is p256_mont_mult.py's; what the variants add:

p = [M52, 2^44 - 1, 0, 2^36, 2^48 - 2^16] (limbs), so for a quotient digit m < 2^52

    m p = m (2^96 - 1) + m 2^36 2^156 + m (2^48 - 2^16) 2^208

and m (2^96 - 1) at column i is "-m at column i" (which clears the low 52 bits of column i,
m being those bits: what is left is column i >> 52, the carry into column i + 1) plus m 2^44
at column i + 1. So a reduction step is: carry column i >> 52 into column i + 1, then add
lo/hi(m, 2^44) at columns i + 1 / i + 2, lo/hi(m, 2^36) at i + 3 / i + 4 and lo/hi(m, p4)
at i + 4 / i + 5 (lo(x, y) = x y mod 2^52, hi(x, y) = x y >> 52) -- the "x8" and "mulx"
variants use this form (six 52x52 products per step instead of ten); "ifma" multiplies the
whole modulus vector, as the JDK.

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

x8 (eight elements, lane k of limb register j = limb j of one element): columns C0..C9 are
registers, each the sum of two accumulators: P_c (the lo(A_j, B_(c-j)) products, then the
carry of column c - 1) and R_c (the hi(A_j, B_(c-1-j)) products, then the reduction terms),
so that the products (which need no quotient digit) form short chains that run ahead, in
column order. Reduction step i: m = P_i + R_i (the IFMA reads its low 52 bits), P_(i+1) +=
m >> 52, then lo/hi(m, 2^44), lo/hi(m, 2^36), lo/hi(m, p4) into R_(i+1..i+5) (six IFMA): the
critical path is one IFMA and one add per step. Then t = columns 5..9 carried to 52 bits and,
in parallel, d = t - p from the same columns (lazy limbs minus p's, arithmetic-shift
borrows); r = d unless d < 0 (VPMOVQ2M of d4's sign, VPBLENDMQ).
Transposition in: limbs 0..3 by 256-bit row loads of elements k and k+4 (VINSERTI64X4),
VPUNPCK[LH]QDQ and VSHUFI64X2 -- this puts the elements in lane order 0, 1, 4, 5, 2, 3, 6, 7,
which every register shares; limb 4 by two VPERMT2Q over loads that hold two wanted qwords
each and a masked move. Out: the inverse shuffles, row stores of 256 bits (VEXTRACTI64X4 to
memory for elements 4..7) and limb 4 by merge-masked stores of two lanes (VPERMQ first).

mulx (scalar, one element): the ref's row order with the reduction step above: ten column
registers kept as a sliding window of six; a product x y splits as lo = BZHI(l, 52), hi =
SHRD(l, h, 52) of MULX's h:l; m from BZHI of the column, m 2^44 and m 2^36 by shifts (no
multiply), m p4 by one MULX. Final: t from a shift/BZHI carry chain, d = t - p with SAR
borrows, the sign of d's top limb selects t by CMOVS.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, ZMMRegister as Z, KRegister,
                            MOV, ADD, SUB, XOR, AND, LEA, NEG, SHR, SHL, SAR, SHRD, BZHI, MULX,
                            CMOVS, TEST, KMOVB, VMOVQ, VMOVDQU64, VMOVDQA64, VPBROADCASTQ,
                            VPXORQ, VPADDQ, VPSUBQ, VPANDQ, VPSRLQ, VPSRAQ, VALIGNQ,
                            VPMADD52LUQ, VPMADD52HUQ, VPCMPUQ, VPCMPEQQ, VINSERTI64X4,
                            VPUNPCKLQDQ, VPUNPCKHQDQ, VSHUFI64X2, VPERMT2Q, VPERMQ, VPMOVZXBQ,
                            VPMOVQ2M, VPBLENDMQ, VEXTRACTI64X4, rdx, zword, k5 as K5,
                            k6 as K6, k7 as K7)

M52 = (1 << 52) - 1
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
PL = [M52, (1 << 44) - 1, 0, 1 << 36, (1 << 48) - (1 << 16)]
QL = [(2**260 - P) >> (52 * j) & M52 for j in range(5)]           # 2^260 - p, 52-bit limbs
assert sum(v << (52 * j) for j, v in enumerate(PL)) == P
assert sum(v << (52 * j) for j, v in enumerate(QL)) == 2**260 - P
K44, K36, KP4 = 1 << 44, 1 << 36, PL[4]


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

# lane l of every limb register holds element ORDER[l] (the transposition's order)
ORDER = (0, 1, 4, 5, 2, 3, 6, 7)


def _bytes_idx(idx):
    """A zmm with the byte indices `idx` zero-extended into its lanes."""
    t = G()
    MOV(t, sum(v << (8 * l) for l, v in enumerate(idx)))
    x, z = Z(), Z()
    VMOVQ(x.as_xmm, t)
    VPMOVZXBQ(z, x.as_xmm)
    return z


def _transpose_in(ptr, idx4, khi):
    """Limb registers L0..L4 of the 8 elements at ptr (element k at qwords 5k..5k+4)."""
    W = []
    for k in range(4):
        w = Z()
        VMOVDQU64(w.as_ymm, [ptr + 40 * k])
        VINSERTI64X4(w, w, [ptr + 40 * (k + 4)], 1)  # [e_k l0..l3 | e_(k+4) l0..l3]
        W.append(w)
    T0, T1, T2, T3 = Z(), Z(), Z(), Z()
    VPUNPCKLQDQ(T0, W[0], W[1])                 # [e0l0 e1l0 | e0l2 e1l2 | e4l0 e5l0 | e4l2 e5l2]
    VPUNPCKHQDQ(T1, W[0], W[1])
    VPUNPCKLQDQ(T2, W[2], W[3])
    VPUNPCKHQDQ(T3, W[2], W[3])
    L = [Z() for _ in range(5)]
    VSHUFI64X2(L[0], T0, T2, 0x88)              # [e0 e1 | e4 e5 | e2 e3 | e6 e7] limb 0
    VSHUFI64X2(L[2], T0, T2, 0xDD)
    VSHUFI64X2(L[1], T1, T3, 0x88)
    VSHUFI64X2(L[3], T1, T3, 0xDD)
    # limb 4 in ORDER: qwords 4, 9, 24, 29 | 14, 19, 34, 39
    X1, X3 = Z(), Z()
    VMOVDQU64(X1, [ptr + 8 * 4])                # q4..q11: 4 at lane 0, 9 at lane 5
    VMOVDQU64(X3, [ptr + 8 * 14])               # q14..q21: 14, 19
    VPERMT2Q(X1, idx4, [ptr + 8 * 24])          # lanes 0..3: q4 q9 q24 q29
    VPERMT2Q(X3, idx4, [ptr + 8 * 32])          # lanes 4..7: q14 q19 q34 q39
    VPBLENDMQ(L[4](khi), X1, X3)
    return L


def _transpose_out(ptr, L, idx_out, kpair):
    """The inverse of _transpose_in: limb registers L0..L4 (lanes in ORDER) to 8 elements."""
    S0, S1 = Z(), Z()
    VSHUFI64X2(S0, L[0], L[2], 0x44)            # [l0: e0e1 e4e5 | l2: e0e1 e4e5]
    VSHUFI64X2(S1, L[1], L[3], 0x44)
    S2, S3 = Z(), Z()
    VSHUFI64X2(S2, L[0], L[2], 0xEE)            # e2e3 e6e6 of limbs 0, 2
    VSHUFI64X2(S3, L[1], L[3], 0xEE)
    rows = []
    for lo_, hi_ in ((S0, S1), (S2, S3)):
        for op in (VPUNPCKLQDQ, VPUNPCKHQDQ):
            u = Z()
            op(u, lo_, hi_)                     # [eAl0 eAl1 | eBl0 eBl1 | eAl2 eAl3 | eBl2 eBl3]
            VSHUFI64X2(u, u, u, 0xD8)           # [eA l0..l3 | eB l0..l3]
            rows.append(u)
    # rows: (e0, e4), (e1, e5), (e2, e6), (e3, e7)
    for k, u in enumerate(rows):
        VMOVDQU64([ptr + 40 * k], u.as_ymm)
        VEXTRACTI64X4([ptr + 40 * (k + 4)], u, 1)
    # limb 4: element e at qword 5e + 4; pairs (e, e+1) are 5 qwords apart: lanes (j, j + 5)
    V1, V2 = Z(), Z()
    VPERMQ(V1, idx_out[0], L[4])
    VPERMQ(V2, idx_out[1], L[4])
    for (e, base, reg, kk) in ((0, 4, V1, 0), (2, 13, V1, 1), (4, 22, V1, 2), (6, 32, V2, 2)):
        VMOVDQU64(zword[ptr + 8 * base](kpair[kk]), reg)


def x8_lane_perms():
    """(idx4, [idx_out1, idx_out2]) as byte lists, and the store pairs they serve."""
    idx4 = [0, 5, 8, 13, 0, 5, 10, 15]
    lane_of = {e: l for l, e in enumerate(ORDER)}
    out1 = [0] * 8
    out2 = [0] * 8
    # V1: (e0, e1) at lanes (0, 5) base 4; (e2, e3) at lanes (1, 6) base 13; (e4, e5) at
    # lanes (2, 7) base 22. V2: (e6, e7) at lanes (2, 7) base 32.
    for (e, l0) in ((0, 0), (2, 1), (4, 2)):
        out1[l0] = lane_of[e]
        out1[l0 + 5] = lane_of[e + 1]
    out2[2] = lane_of[6]
    out2[7] = lane_of[7]
    for (e, base, l0) in ((0, 4, 0), (2, 13, 1), (4, 22, 2), (6, 32, 2)):
        assert 5 * e + 4 - base == l0 and 5 * (e + 1) + 4 - base == l0 + 5
    return idx4, [out1, out2]


def x8_body(f, rp, ap, bp):
    idx4b, (o1, o2) = x8_lane_perms()
    idx4 = _bytes_idx(idx4b)
    t = G()
    khi = KRegister()
    MOV(t.as_dword, 0xF0)
    KMOVB(khi, t.as_dword)
    f.comment("transpose: limb j of the 8 elements in zmm j (lanes: elements 0 1 4 5 2 3 6 7)")
    A = _transpose_in(ap, idx4, khi)
    B = _transpose_in(bp, idx4, khi)
    k44, k36, kp4 = _bcast(K44), _bcast(K36), _bcast(KP4)
    # P[c]: the lo products of column c (and the carry of column c - 1); R[c]: its hi
    # products first, then the reduction terms of earlier quotient digits -- two chains per
    # column, so no IFMA waits on a long accumulator chain; column c = P[c] + R[c]
    P, R = [None] * 11, [None] * 11

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
                acc(R, c, VPMADD52HUQ, A[j], B[c - 1 - j])

    def column(c):
        if R[c] is None or P[c] is None:
            return P[c] if R[c] is None else R[c]
        x = Z()
        VPADDQ(x, P[c], R[c])
        return x

    products(0)
    products(1)
    for i in range(5):
        f.comment("reduction step %d: m = column %d mod 2^52 (IFMA reads the low 52 bits): "
                  "its carry, lo/hi(m, 2^44), lo/hi(m, 2^36), lo/hi(m, p4)" % (i, i))
        m = column(i)
        c = Z()
        VPSRLQ(c, m, 52)
        VPADDQ(P[i + 1], P[i + 1], c)
        acc(R, i + 1, VPMADD52LUQ, m, k44)
        acc(R, i + 2, VPMADD52HUQ, m, k44)
        acc(R, i + 3, VPMADD52LUQ, m, k36)
        acc(R, i + 4, VPMADD52HUQ, m, k36)
        acc(R, i + 4, VPMADD52LUQ, m, kp4)
        acc(R, i + 5, VPMADD52HUQ, m, kp4)
        if i + 2 <= 9:
            products(i + 2)
    for c in range(7, 10):
        products(c)
    f.comment("t = columns 5..9 carried to 52 bits and, beside it, d = t - p from the same "
              "columns with arithmetic-shift borrows")
    C = [column(c) for c in range(5, 10)]
    m52 = _bcast(M52)
    pc = [m52, _bcast(PL[1]), None, k36, kp4]
    D = []
    for j in range(5):
        d = Z()
        if pc[j] is None:
            VMOVDQA64(d, C[j])
        else:
            VPSUBQ(d, C[j], pc[j])
        D.append(d)
    T = C
    for j in range(4):
        x, y = Z(), Z()
        VPSRLQ(x, T[j], 52)
        VPSRAQ(y, D[j], 52)
        VPADDQ(T[j + 1], T[j + 1], x)
        VPADDQ(D[j + 1], D[j + 1], y)
        VPANDQ(T[j], T[j], m52)
        VPANDQ(D[j], D[j], m52)
    f.comment("d < 0 (t < p): keep t")
    ks = KRegister()
    VPMOVQ2M(ks, D[4])
    R = []
    for j in range(5):
        r = Z()
        VPBLENDMQ(r(ks), D[j], T[j])
        R.append(r)
    f.comment("transpose back and store")
    idx_out = [_bytes_idx(o1), _bytes_idx(o2)]
    kpair = []
    for l0, kk in zip(range(3), (K5, K6, K7)):     # physical: they mask stores
        MOV(t.as_dword, (1 << l0) | (1 << (l0 + 5)))
        KMOVB(kk, t.as_dword)
        kpair.append(kk)
    _transpose_out(rp, R, idx_out, kpair)


# ---- mulx: scalar ----------------------------------------------------------------------------

def mulx_body(f, rp, ap, bp):
    c52 = G()
    MOV(c52.as_dword, 52)
    col = {}

    def add(c, x):
        if c not in col:
            col[c] = G()
            MOV(col[c], x)
        else:
            ADD(col[c], x)

    h, l, x = G(), G(), G()
    for i in range(5):
        f.comment("row %d: columns += lo/hi(a_j b%d); m = column %d mod 2^52" % (i, i, i))
        MOV(rdx, [bp + 8 * i])
        for j in range(5):
            MULX(h, l, [ap + 8 * j])
            BZHI(x, l, c52)
            SHRD(l, h, 52)
            add(i + j, x)
            add(i + j + 1, l)
        ci = col.pop(i)
        m = G()
        BZHI(m, ci, c52)
        SHR(ci, 52)
        add(i + 1, ci)                          # column i - m, carried
        MOV(x, m)
        SHL(x, 44)
        BZHI(x, x, c52)
        add(i + 1, x)                           # lo(m, 2^44)
        MOV(x, m)
        SHR(x, 8)
        add(i + 2, x)                           # hi(m, 2^44)
        MOV(x, m)
        SHL(x, 36)
        BZHI(x, x, c52)
        add(i + 3, x)                           # lo(m, 2^36)
        MOV(x, m)
        SHR(x, 16)
        add(i + 4, x)                           # hi(m, 2^36)
        MOV(rdx, m)
        MOV(x, KP4)
        MULX(h, l, x)
        BZHI(x, l, c52)
        SHRD(l, h, 52)
        add(i + 4, x)
        add(i + 5, l)
    f.comment("t = columns 5..9 carried to 52 bits")
    t = [col[c] for c in range(5, 10)]
    for j in range(4):
        x = G()
        MOV(x, t[j])
        SHR(x, 52)
        ADD(t[j + 1], x)
        BZHI(t[j], t[j], c52)
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
        MOV([rp + 8 * j], d[j])


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
