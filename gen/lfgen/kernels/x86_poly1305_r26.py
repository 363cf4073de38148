"""x86-64 Poly1305 in radix 2^26 with VPMULUDQ: AVX2 (4 blocks per ymm) and AVX-512F (8 per
zmm), `chains` groups of W blocks per iteration. The arithmetic and its bounds are in
poly1305_r26; this module is the x86 emission.

Blocks. Two loads (W/2 blocks each) and VPUNPCKLQDQ/VPUNPCKHQDQ give the low and high qwords
of W blocks, lane l holding block l // 2 + (l % 2) W/2 (ymm: 0, 2, 1, 3; zmm: 0, 4, 1, 5, ...).

Parallel Horner as in the IFMA variant (x86_poly1305_ifma), chunks of W C blocks:
    A_g = carry(A_g * r^(WC)) + blocks of group g          (every chunk after the first)
    h   = sum over g, l of carry(A_g * powers_g)[l]          (after the last chunk)
Powers table in ctx[8..] (ctx[5] = LAYOUT + 16 W + C): row g*5 + j (W qwords at
ctx + 64 + 8 W row) = digit j of the powers of group g, lane l holding r^(WC - (Wg + b(l)));
rows 5C .. 5C+4 = r^(WC) broadcast, rows 5C+5 .. 5C+8 = 5 r^(WC) digits 1..4 broadcast (the
loop's multipliers as memory operands, AVX2 having no embedded broadcast; with one AVX2 chain
the four most used ones in registers), row 5C+9 = 2^26 - 1,
row 5C+10 = pad 2^24 (written on every call). The powers come from
the scalar step (x86_poly1305.scalar_powers), W C of them.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, XMMRegister, YMMRegister, ZMMRegister, LABEL,
                            MOV, ADD, SUB, CMP, JB, JAE, JE, SHL, qword, VMOVQ, VPBROADCASTQ,
                            VPUNPCKLQDQ, VPUNPCKHQDQ, VPSRLQ, VPSLLQ, VPMULUDQ, VPADDQ, VPAND,
                            VPOR, VPANDQ, VPORQ, VPTERNLOGQ, VMOVDQU, VMOVDQA, VMOVDQU64,
                            VMOVDQA64, VEXTRACTI128, VPSRLDQ, VSHUFI64X2, VPSHUFD)

from ..kernel import Param
from . import x86_poly1305, poly1305_r26 as r26
from .poly1305_blocks import CTX_POWERS, CTX_TABLE, TABLE_WORDS

LAYOUT = 0x2600

PARAMS_AVX2 = {
    "chains": Param(1, (1, 2), "independent ymm groups of 4 blocks per iteration (with 2, "
                                "the groups' digits wait in ctx rows between their steps)"),
    "vec_min": Param(32, (4, 8, 12, 16, 24, 32, 64),
                     "from this many blocks on the vector path (fewer: the scalar mulx "
                     "variant, no powers table)", kind="size", sizes=(4, 8, 12, 16, 24, 32, 64)),
    "carry": r26.carry_param(),
}
PARAMS_AVX512F = {
    "chains": Param(1, (1,), "independent zmm groups of 8 blocks (the table has room for one)"),
    "vec_min": Param(16, (8, 16, 24, 32, 64),
                     "from this many blocks on the vector path (fewer: the scalar mulx "
                     "variant, no powers table)", kind="size", sizes=(8, 12, 16, 24, 32, 64)),
    "carry": r26.carry_param(),
}


class _Isa:
    def __init__(self, zmm):
        self.zmm = zmm
        self.W = 8 if zmm else 4
        self.reg = ZMMRegister if zmm else YMMRegister
        self.AND = VPANDQ if zmm else VPAND
        self.OR = VPORQ if zmm else VPOR
        self.LOADU = VMOVDQU64 if zmm else VMOVDQU       # ctx needs only 8-byte alignment
        self.MOVA = VMOVDQA64 if zmm else VMOVDQA

    def lane_block(self, l):
        return l // 2 + (l % 2) * (self.W // 2)

    def broadcast_gpr(self, value_reg):
        v = self.reg()
        if self.zmm:
            VPBROADCASTQ(v, value_reg)
        else:
            x = XMMRegister()
            VMOVQ(x, value_reg)
            VPBROADCASTQ(v, x)
        return v


def _row(isa, ctx, row, lane=0):
    return [ctx + 8 * CTX_TABLE + 8 * isa.W * row + 8 * lane]


def _digits(isa, k, lo, hi, pad, sink):
    """The five radix-2^26 digits of the blocks whose low/high qwords are lo, hi, handed to
    sink(j, register) one at a time (so that at most one is live)."""
    M = k.m26
    d = isa.reg()
    isa.AND(d, lo, M)
    sink(0, d)
    d = isa.reg()
    VPSRLQ(d, lo, 26)
    isa.AND(d, d, M)
    sink(1, d)
    d, t = isa.reg(), isa.reg()
    VPSRLQ(d, lo, 52)
    VPSLLQ(t, hi, 12)
    if isa.zmm:
        VPTERNLOGQ(d, t, M, 0xA8)            # (d | t) & M
    else:
        VPOR(d, d, t)
        VPAND(d, d, M)
    sink(2, d)
    d = isa.reg()
    VPSRLQ(d, hi, 14)
    isa.AND(d, d, M)
    sink(3, d)
    d = isa.reg()
    VPSRLQ(d, hi, 40)
    if pad is not None:
        isa.OR(d, d, pad)
    sink(4, d)


def _load_blocks(isa, k, m, off, sink):
    half = 16 * isa.W // 2
    a, b, lo, hi = (isa.reg() for _ in range(4))
    isa.LOADU(a, [m + off])
    isa.LOADU(b, [m + off + half])
    VPUNPCKLQDQ(lo, a, b)
    VPUNPCKHQDQ(hi, a, b)
    _digits(isa, k, lo, hi, k.pad, sink)


def _into(dst, src=None):
    """A sink: dst[j] = digit (src None) or src[j] + digit."""
    def sink(j, d):
        if src is None:
            dst[j] = d
        else:
            VPADDQ(dst[j], src[j], d)
    return sink


def _mul(isa, k, a, R, S, add=None):
    """a = carry(a * r) + the digits `add(sink)` produces (none: add None), in place; R[j],
    S[j]: operands (registers or memory) for the digits of r and 5 r (S[0] unused)."""
    d = []
    for kk in range(5):
        dk = isa.reg()
        for n, (i, w, j) in enumerate(r26.terms(kk)):
            src = (R if w == "r" else S)[j]
            if n == 0:
                VPMULUDQ(dk, a[i], src)
            else:
                t = isa.reg()
                VPMULUDQ(t, a[i], src)
                VPADDQ(dk, dk, t)
        d.append(dk)
    for src, dst in r26.CARRIES[k.carry]:
        c = isa.reg()
        VPSRLQ(c, d[src], 26)
        isa.AND(d[src], d[src], k.m26)
        if src == 4:
            t = isa.reg()
            VPSLLQ(t, c, 2)
            VPADDQ(c, c, t)
        VPADDQ(d[dst], d[dst], c)
    if add is not None:
        add(_into(a, d))                     # a = d + the next blocks' digits
    else:
        for i in range(5):
            isa.MOVA(a[i], d[i])


class _Consts:
    """M26 and pad 2^24 broadcast, as table rows 5C+9 and 5C+10 (memory operands: AVX2 has
    16 registers, the digits of two groups and a product take them all; blocks() loads them
    into registers for one AVX2 chain); the pad row is written on every call."""

    def __init__(self, isa, ctx, C, pad=None):
        self.m26 = _row(isa, ctx, 5 * C + 9)
        self.pad = self.pad_reg = None
        if pad is not None:
            t = GeneralPurposeRegister64()
            MOV(t, pad)
            SHL(t, 24)
            self.pad_reg = isa.broadcast_gpr(t)       # blocks() keeps it for one AVX2 chain
            isa.LOADU(_row(isa, ctx, 5 * C + 10), self.pad_reg)
            self.pad = _row(isa, ctx, 5 * C + 10)


def _build_table(isa, ctx, key, C):
    W = isa.W

    def store(power, x):
        b = W * C - power                       # block of the chunk this power multiplies
        g, lane = b // W, [isa.lane_block(l) for l in range(W)].index(b % W)
        for j in range(3):
            MOV(_row(isa, ctx, 5 * g + j, lane), x[j])
    x86_poly1305.scalar_powers(key, W * C, store)
    t = GeneralPurposeRegister64()
    MOV(t, r26.M26)
    isa.LOADU(_row(isa, ctx, 5 * C + 9), isa.broadcast_gpr(t))
    k = _Consts(isa, ctx, C)
    for g in range(C):
        w = [isa.reg() for _ in range(3)]
        for j in range(3):
            isa.LOADU(w[j], _row(isa, ctx, 5 * g + j))
        d = [None] * 5
        _digits(isa, k, w[0], w[1], None, _into(d))
        VPSLLQ(w[2], w[2], 24)
        isa.OR(d[4], d[4], w[2])
        for j in range(5):
            isa.LOADU(_row(isa, ctx, 5 * g + j), d[j])
    for j in range(5):
        v = isa.reg()
        VPBROADCASTQ(v, qword[_row(isa, ctx, j)[0]])       # lane 0 of group 0: r^(WC)
        isa.LOADU(_row(isa, ctx, 5 * C + j), v)
        if j:
            t = isa.reg()
            VPSLLQ(t, v, 2)
            VPADDQ(v, v, t)
            isa.LOADU(_row(isa, ctx, 5 * C + 4 + j), v)
    MOV(qword[ctx + 8 * CTX_POWERS], LAYOUT + 16 * W + C)


def _hsum(isa, v, t):
    """GPR t = the sum of the lanes of v (clobbered); zmm with AVX-512F instructions only."""
    if isa.zmm:
        y = ZMMRegister()
        VSHUFI64X2(y, v, v, 0x4E)            # 256-bit halves swapped
        VPADDQ(v, v, y)
        VSHUFI64X2(y, v, v, 0xB1)            # 128-bit pairs swapped
        VPADDQ(v, v, y)
        VPSHUFD(y, v, 0x4E)                  # qwords swapped in each 128 bits
        VPADDQ(v, v, y)
        VMOVQ(t, v.as_xmm)
    else:
        x = XMMRegister()
        VEXTRACTI128(x, v, 1)
        VPADDQ(v.as_xmm, v.as_xmm, x)
        VPSRLDQ(x, v.as_xmm, 8)
        VPADDQ(v.as_xmm, v.as_xmm, x)
        VMOVQ(t, v.as_xmm)


def blocks(f, ctx, m, nblocks, pad, p, zmm):
    """The variant's body for nblocks >= vec_min (>= W chains). With AVX2 and more than one
    chain the groups' digits are parked in ctx rows between their steps (16 ymm registers
    hold one group's digits and products, not two): each group's step loads its digits,
    multiplies, adds the next blocks and stores them back, so the groups' chains overlap."""
    isa = _Isa(zmm)
    W, C = isa.W, p.chains
    park = not zmm and C > 1
    what = "poly1305_blocks.%s chains=%d" % ("avx512f" if zmm else "avx2", C)
    if p.vec_min < W * C:
        raise ValueError("%s: vec_min = %d is below one chunk of %d blocks"
                         % (what, p.vec_min, W * C))
    if W * (5 * C + 11 + (5 * C if park else 0)) > TABLE_WORDS:
        raise ValueError("%s: the powers table would not fit ctx" % what)
    r26.kernel_bounds(what, W * C, p.carry)
    key = x86_poly1305.Key(ctx)
    have = f.new_label("have_powers")
    CMP(qword[ctx + 8 * CTX_POWERS], LAYOUT + 16 * W + C)
    JE(have)
    _build_table(isa, ctx, key, C)
    LABEL(have)
    h = x86_poly1305.load_h(ctx)
    k = _Consts(isa, ctx, C, pad)
    k.carry = p.carry
    R = [_row(isa, ctx, 5 * C + j) for j in range(5)]
    S = [None] + [_row(isa, ctx, 5 * C + 4 + j) for j in range(1, 5)]
    # AVX2 with one chain leaves six ymm free in the loop: the mask, the pad and the four
    # most used multipliers (r^4 digits 0, 1, 2 and 5 r^4 digit 4: 16 of the 25 products)
    # there instead of memory operands; the rows again after the loop, for the fold. AMD Zen
    # 3 (2026-12-07; the znver3 build before and after in one process, alternating, median
    # of 201-301 paired ratios per process, 3-5 processes a size): 1.00-1.11x at 32 blocks,
    # 1.03-1.08x at 64, 1.00-1.08x at 256, 1.00-1.13x at 1024, 1.00-1.02x at 4096,
    # 1.02-1.04x at 16384, never below 1;
    # llvm-mca-19 -mcpu=znver3 on the loop 32.4 -> 24.8 cycles per 4 blocks (40 loads -> 14)
    rows = (k.m26, k.pad)
    if not zmm and not park:
        k.m26 = isa.reg()
        isa.LOADU(k.m26, rows[0])
        if rows[1] is not None:
            k.pad = k.pad_reg                   # the broadcast, not a reload of its row
        for ops, j in ((R, 0), (R, 1), (S, 4), (R, 2)):
            x = isa.reg()
            isa.LOADU(x, ops[j])
            ops[j] = x

    def parked(g, j):                         # the row holding digit j of group g
        return _row(isa, ctx, 5 * C + 11 + 5 * g + j)

    def unpark(g):
        A = [isa.reg() for _ in range(5)]
        for j in range(5):
            isa.LOADU(A[j], parked(g, j))
        return A

    def put(g, A):
        for j in range(5):
            isa.LOADU(parked(g, j), A[j])

    chunk = W * C
    A = []
    for g in range(C):
        A.append([None] * 5)
        _load_blocks(isa, k, m, 16 * W * g, _into(A[g]))
        if g == 0:
            def add_h(j, d):                  # h into lane 0 of group 0 (block 0)
                x = isa.reg()
                VMOVQ(x.as_xmm, d)
                VPADDQ(A[0][j], A[0][j], x)
            x86_poly1305.to_digits(h, 26, 5, add_h)
        if park:
            put(g, A[g])
    ADD(m, 16 * chunk)
    SUB(nblocks, chunk)

    fold = f.new_label("fold")
    loop = f.new_label("chunks")
    CMP(nblocks, chunk)
    JB(fold)
    LABEL(loop)
    f.mca_begin("poly1305_blocks blocks=%d" % chunk)
    for g in range(C):
        Ag = unpark(g) if park else A[g]
        _mul(isa, k, Ag, R, S,
             add=lambda sink, off=16 * W * g: _load_blocks(isa, k, m, off, sink))
        if park:
            put(g, Ag)
    ADD(m, 16 * chunk)
    SUB(nblocks, chunk)
    CMP(nblocks, chunk)
    JAE(loop)
    f.mca_end()
    LABEL(fold)
    k.m26, k.pad = rows

    for g in range(C):
        if park:
            # P from its rows as memory operands, 5 P into this group's parking rows (free
            # once its digits are loaded); the sum over the groups goes through group 0's
            Ag = unpark(g)
            P = [_row(isa, ctx, 5 * g + j) for j in range(5)]
            P5 = [None]
            for j in range(1, 5):
                t, u = isa.reg(), isa.reg()
                isa.LOADU(t, P[j])
                VPSLLQ(u, t, 2)
                VPADDQ(t, t, u)
                isa.LOADU(parked(g, j), t)
                P5.append(parked(g, j))
            _mul(isa, k, Ag, P, P5)
            if g:
                for j in range(5):
                    VPADDQ(Ag[j], Ag[j], parked(0, j))
            if g < C - 1:
                put(0, Ag)
            total = Ag
            continue
        P = [isa.reg() for _ in range(5)]
        for j in range(5):
            isa.LOADU(P[j], _row(isa, ctx, 5 * g + j))
        P5 = [None]
        for j in range(1, 5):
            t = isa.reg()
            VPSLLQ(t, P[j], 2)
            VPADDQ(t, t, P[j])
            P5.append(t)
        _mul(isa, k, A[g], P, P5)
        if g:
            for j in range(5):
                VPADDQ(A[0][j], A[0][j], A[g][j])
        total = A[0]

    def digit(j):
        s = GeneralPurposeRegister64()
        _hsum(isa, total[j], s)
        return s
    x86_poly1305.finish_vector(f, ctx, h, key, m, nblocks, pad, 5, 26, digit, zmm)
