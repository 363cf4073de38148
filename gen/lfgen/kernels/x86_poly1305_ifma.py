"""x86-64 Poly1305 with AVX-512 IFMA: 8 blocks per zmm in radix 2^44, `chains` zmm groups.

Radix 2^44. A 130-bit value x = x0 + x1 2^44 + x2 2^88 (digits of 44, 44, 42 bits, lazily
a little more); one qword lane of three zmm registers holds one such value. With
lo(x, y) + 2^52 hi(x, y) = x y (VPMADD52LUQ / VPMADD52HUQ add these to a lane), and
2^132 = 4 * 2^130 = 20 (mod p), the product of a and r is

    col 0:  a0 r0 + a1 (20 r2) + a2 (20 r1)             (a1 r2 and a2 r1 sit at 2^132)
    col 1:  a0 r1 + a1 r0      + a2 (20 r2)             (a2 r2 sits at 2^176 = 20 2^44)
    col 2:  a0 r2 + a1 r1      + a2 r0

each column as L_c (sum of lo) and H_c (sum of hi, weight 2^52 = 2^8 times the next
column's; H_2 sits at 2^140 = 2^10 2^130 = 5 2^10 at column 0). The shifts by constants are
IFMAs too (lo(x, 2^k) = x 2^k while that is below 2^52), so the carries cost few ports:

    L1 += lo(H0, 2^8),  L2 += lo(H1, 2^8),  L0 += lo(H2, 5 2^10)
    c2 = L2 >> 42,  a2 = L2 & M42,  L0 += lo(c2, 5)                  (2^130 = 5)
    c0 = L0 >> 44,  a0 = L0 & M44,  L1 += c0
    c1 = L1 >> 44,  a1 = L1 & M44,  a2 += c1

`Bounds` replays this on the largest values every lane can hold and refuses a schedule under
which an IFMA input reaches 2^52 or a lane sum 2^64; the loop must be a fixed point (the
digits it produces are within the bounds it assumed).

Blocks. Two 64-byte loads (blocks 0-3 and 4-7) and VPUNPCKLQDQ/VPUNPCKHQDQ give the low and
high qwords of 8 blocks in lane order b = 0, 4, 1, 5, 2, 6, 3, 7; the digits are lo & M44,
(lo >> 44 | hi << 20) & M44 and hi >> 24 | pad 2^40.

Parallel Horner (Goll-Gueron) over chunks of 8C blocks (C = `chains`): group g of a chunk
holds blocks 8g + b(l) in lane l, and

    A_g = A_g * r^(8C) + blocks of group g        (every chunk after the first)
    h   = sum over g, l of A_g[l] * r^(8C - 8g - b(l))    (after the last chunk)

The first chunk's group 0 gets h (lane 0 is block 0). Powers table in ctx[8..]: P_g = three
zmm (digits 0, 1, 2) at ctx + 64 + 192 g, lane l holding r^(8C - 8g - b(l)); P_(C-1)
(r^1 .. r^8) comes from the scalar multiply, P_g = P_(g+1) r^8. ctx[5] = LAYOUT + C when all
are there, PARTIAL + C when only P_(C-1) is (a call of fewer than 8C blocks needs no more).
After the fold the 8C products are summed over groups and lanes, turned back into radix
2^64 and partially reduced. What is left (or everything, below 8C blocks) goes by groups of
8: h added to block 0, times r^8 .. r^1 (P_(C-1)), summed back into h, one group after the
other (a latency chain, but 8 blocks per multiply); the last nblocks mod 8 blocks run
through the scalar step (x86_poly1305.block).
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, ZMMRegister, LABEL, MOV, ADD, SUB, SHL, CMP,
                            JB, JAE, JE, VMOVDQU64, VMOVQ, VPBROADCASTQ, VPUNPCKLQDQ, VPUNPCKHQDQ,
                            VPSRLQ, VPSLLQ, VPANDQ, VPORQ, VPADDQ, VPXORQ, VPTERNLOGQ, VPMADD52LUQ,
                            VPMADD52HUQ, VEXTRACTI64X4, VEXTRACTI32X4, VPSRLDQ, qword)

from .. import sched
from ..kernel import Param
from . import x86_poly1305
from .poly1305_blocks import CTX_POWERS, CTX_TABLE, TABLE_WORDS

M44 = (1 << 44) - 1
M42 = (1 << 42) - 1
LAYOUT = 0x4400          # ctx[5] = LAYOUT + chains: radix-2^44 powers for that many groups
PARTIAL = 0x4480         # ctx[5] = PARTIAL + chains: only the last group's, r^8 .. r^1
LANE_BLOCK = (0, 4, 1, 5, 2, 6, 3, 7)      # lane l holds block LANE_BLOCK[l] of its group

PARAMS = {
    "chains": Param(2, (1, 2, 3, 4),
                    "independent zmm accumulator groups of 8 blocks: 8*chains blocks per "
                    "iteration, powers r^1 .. r^(8*chains)"),
    "interleave": Param(0, (0, 1),
                        "1: the groups' instructions spread through each other in the loop "
                        "(sched.interleave); 0: one group after the other"),
    "vec_min": Param(16, (8, 16, 24, 32, 48, 64),
                     "from this many blocks on the vector path (fewer: the scalar mulx "
                     "variant, no powers table)", kind="size", sizes=(8, 12, 16, 24, 32, 48, 64)),
}


class Bounds:
    """Largest lane values through one multiply, replayed at generation time."""

    def __init__(self, what):
        self.what = what

    def check_input(self, name, v):
        if v >= 1 << 52:
            raise ValueError("%s: IFMA input %s may reach 2^%.2f (>= 2^52)"
                             % (self.what, name, v.bit_length()))

    def check_sum(self, name, v):
        if v >= 1 << 64:
            raise ValueError("%s: lane %s may reach 2^64" % (self.what, name))

    def mul(self, a, r, m=(0, 0, 0)):
        """Digit bounds of carry(a * r + m) for digit bounds a, r, m (inclusive maxima)."""
        r20 = (r[0], 20 * r[1], 20 * r[2])
        for i in range(3):
            self.check_input("a%d" % i, a[i])
            self.check_input("20 r%d" % i if i else "r0", r20[i])
        cols = [((0, 0), (1, 2, True), (2, 1, True)),
                ((0, 1), (1, 0), (2, 2, True)),
                ((0, 2), (1, 1), (2, 0))]
        L, H = [], []
        for c, terms in enumerate(cols):
            lo, hi = m[c], 0
            for t in terms:
                x, y = a[t[0]], (r20 if len(t) == 3 else r)[t[1]]
                lo += (1 << 52) - 1
                hi += (x * y) >> 52
            L.append(lo)
            H.append(hi)
        for name, v in (("H0 2^8", H[0] << 8), ("H1 2^8", H[1] << 8), ("H2 5 2^10", H[2] * 5120)):
            self.check_input(name, v)          # lo(x, 2^k) is exact only below 2^52
        L[1] += H[0] << 8
        L[2] += H[1] << 8
        L[0] += H[2] * 5120
        c2 = L[2] >> 42
        self.check_input("5 c2", 5 * c2)
        L[0] += 5 * c2
        L[1] += L[0] >> 44
        for c in range(3):
            self.check_sum("L%d" % c, L[c])
        return (M44, M44, M42 + (L[1] >> 44))


def _bounds_check(C):
    """The lane bounds of the whole kernel; raises ValueError when one cannot be proved."""
    b = Bounds("poly1305_blocks.ifma chains=%d" % C)
    msg = (M44, M44, (1 << 40) - 1 + (1 << 40))
    h44 = (M44, M44, ((1 << 64) - 1 >> 24) | (4 << 40))          # h2 <= 4
    # powers: r^1..r^8 from the scalar step (h2 <= 4), then products by r^8
    pw = (M44, M44, ((1 << 64) - 1 >> 24) | (4 << 40))
    for _ in range(C):
        pw = tuple(max(x, y) for x, y in zip(pw, b.mul(pw, pw)))
    a = tuple(x + y for x, y in zip(msg, h44))                    # first chunk, group 0
    for _ in range(8):                                            # the loop: a fixed point
        nxt = b.mul(a, pw, msg)
        if all(x <= y for x, y in zip(nxt, a)):
            break
        a = tuple(max(x, y) for x, y in zip(a, nxt))
    else:
        raise ValueError("%s: the loop's digit bounds do not settle" % b.what)
    fold = b.mul(a, pw)
    total = tuple(8 * C * x for x in fold)                        # summed over lanes, groups
    if any(x >= 1 << 58 for x in total):
        raise ValueError("%s: the folded sum does not fit the radix-2^64 conversion" % b.what)
    return a, pw, total


class _Consts:
    """Broadcast constants: the digit masks, the multipliers of the carries and (with `pad`)
    pad 2^40, the pad bit in digit 2."""

    def __init__(self, pad=None):
        t = GeneralPurposeRegister64()
        for name, value in (("m44", M44), ("m42", M42), ("c256", 1 << 8), ("c5120", 5 << 10),
                            ("c5", 5)):
            z = ZMMRegister()
            MOV(t, value)
            VPBROADCASTQ(z, t)
            setattr(self, name, z)
        if pad is not None:
            self.pad = ZMMRegister()
            MOV(t, pad)
            SHL(t, 40)
            VPBROADCASTQ(self.pad, t)


def _times20(x):
    """zmm 20 x = 16 x + 4 x."""
    y, z = ZMMRegister(), ZMMRegister()
    VPSLLQ(y, x, 4)
    VPSLLQ(z, x, 2)
    VPADDQ(y, y, z)
    return y


def _load_blocks(k, m, off):
    """Digits of the 8 blocks at [m + off] (lane order LANE_BLOCK), as three zmm."""
    d0, d1, lo, hi = (ZMMRegister() for _ in range(4))
    VMOVDQU64(d0, [m + off])
    VMOVDQU64(d1, [m + off + 64])
    VPUNPCKLQDQ(lo, d0, d1)
    VPUNPCKHQDQ(hi, d0, d1)
    x0, x1, x2 = ZMMRegister(), ZMMRegister(), ZMMRegister()
    VPANDQ(x0, lo, k.m44)
    VPSRLQ(x1, lo, 44)
    VPSLLQ(d0, hi, 20)
    VPTERNLOGQ(x1, d0, k.m44, 0xF8)     # x1 | (d0 & m44): bits 44..63, then 64..87
    VPSRLQ(x2, hi, 24)
    VPORQ(x2, x2, k.pad)
    return [x0, x1, x2]


def _mul(k, a, r, r20, acc=None):
    """a = carry(a * r + acc) in place (module docstring); acc: three zmm the lo sums start
    from (consumed), or None."""
    a0, a1, a2 = a
    L = acc if acc is not None else [None, None, None]
    for i in range(3):
        if L[i] is None:
            L[i] = ZMMRegister()
            VPXORQ(L[i], L[i], L[i])
    H = [ZMMRegister() for _ in range(3)]
    for h in H:
        VPXORQ(h, h, h)
    cols = [((a0, r[0]), (a1, r20[2]), (a2, r20[1])),
            ((a0, r[1]), (a1, r[0]), (a2, r20[2])),
            ((a0, r[2]), (a1, r[1]), (a2, r[0]))]
    for c, terms in enumerate(cols):
        for x, y in terms:
            VPMADD52LUQ(L[c], x, y)
            VPMADD52HUQ(H[c], x, y)
    VPMADD52LUQ(L[1], H[0], k.c256)
    VPMADD52LUQ(L[2], H[1], k.c256)
    VPMADD52LUQ(L[0], H[2], k.c5120)
    c = ZMMRegister()
    VPSRLQ(c, L[2], 42)
    VPANDQ(a2, L[2], k.m42)
    VPMADD52LUQ(L[0], c, k.c5)
    VPSRLQ(c, L[0], 44)
    VPANDQ(a0, L[0], k.m44)
    VPADDQ(L[1], L[1], c)
    VPSRLQ(c, L[1], 44)
    VPANDQ(a1, L[1], k.m44)
    VPADDQ(a2, a2, c)


def _slot(ctx, g, j):
    return [ctx + 8 * CTX_TABLE + 192 * g + 64 * j]


def _build_last(ctx, key, C):
    """P_(C-1) = r^8 .. r^1 in its lanes, by the scalar multiply: all the groups of 8 need."""
    k = _Consts()
    last = C - 1

    def store(power, x):
        lane = LANE_BLOCK.index(8 - power)
        for j in range(3):
            MOV([ctx + 8 * CTX_TABLE + 192 * last + 64 * j + 8 * lane], x[j])
    x86_poly1305.scalar_powers(key, 8, store)
    w = [ZMMRegister() for _ in range(3)]
    for j in range(3):
        VMOVDQU64(w[j], _slot(ctx, last, j))
    p = [ZMMRegister() for _ in range(3)]
    VPANDQ(p[0], w[0], k.m44)
    VPSRLQ(p[1], w[0], 44)
    VPSLLQ(w[0], w[1], 20)
    VPORQ(p[1], p[1], w[0])
    VPANDQ(p[1], p[1], k.m44)
    VPSRLQ(p[2], w[1], 24)
    VPSLLQ(w[2], w[2], 40)
    VPORQ(p[2], p[2], w[2])
    for j in range(3):
        VMOVDQU64(_slot(ctx, last, j), p[j])


def _build_rest(ctx, C):
    """P_g = P_(g+1) r^8 for g = C-2 .. 0 (the chunks' powers), from P_(C-1)."""
    k = _Consts()
    last = C - 1
    p = [ZMMRegister() for _ in range(3)]
    r8 = [ZMMRegister() for _ in range(3)]
    for j in range(3):
        VMOVDQU64(p[j], _slot(ctx, last, j))
        VPBROADCASTQ(r8[j], [ctx + 8 * CTX_TABLE + 192 * last + 64 * j])   # lane 0: r^8
    r8_20 = [None, _times20(r8[1]), _times20(r8[2])]
    for g in range(C - 2, -1, -1):
        _mul(k, p, r8, r8_20)
        for j in range(3):
            VMOVDQU64(_slot(ctx, g, j), p[j])


def _powers(f, ctx, key, nblocks, C):
    """The powers this call needs, built once per key: P_(C-1) alone (ctx[5] = PARTIAL + C)
    for fewer than 8C blocks, the whole table (LAYOUT + C) from 8C on; a partial table is
    completed, not rebuilt."""
    ready, partial = f.new_label("powers_ready"), f.new_label("last_ready")
    CMP(qword[ctx + 8 * CTX_POWERS], LAYOUT + C)
    JE(ready)
    if C > 1:
        CMP(qword[ctx + 8 * CTX_POWERS], PARTIAL + C)
        JE(partial)
    _build_last(ctx, key, C)
    if C > 1:
        MOV(qword[ctx + 8 * CTX_POWERS], PARTIAL + C)
        LABEL(partial)
        CMP(nblocks, 8 * C)
        JB(ready)
        _build_rest(ctx, C)
    MOV(qword[ctx + 8 * CTX_POWERS], LAYOUT + C)
    LABEL(ready)


def _hsum(z, t):
    """GPR t = the sum of the 8 lanes of zmm z (z clobbered)."""
    y = ZMMRegister()
    VEXTRACTI64X4(y.as_ymm, z, 1)
    VPADDQ(z.as_ymm, z.as_ymm, y.as_ymm)
    VEXTRACTI32X4(y.as_xmm, z.as_ymm, 1)
    VPADDQ(z.as_xmm, z.as_xmm, y.as_xmm)
    VPSRLDQ(y.as_xmm, z.as_xmm, 8)
    VPADDQ(z.as_xmm, z.as_xmm, y.as_xmm)
    VMOVQ(t, z.as_xmm)


def _add_h(A0, h):
    """h (GPRs, h2 <= 4) into lane 0 of the digit registers A0 (block 0 of a group)."""
    def add(j, d):
        x = ZMMRegister()
        VMOVQ(x.as_xmm, d)
        VPADDQ(A0[j], A0[j], x)
    x86_poly1305.to_digits(h, 44, 3, add)


def _to_h(h, A0):
    """h = the sum of the lanes of A0 (radix 2^44 digits; clobbered), partially reduced."""
    def digit(j):
        s = GeneralPurposeRegister64()
        _hsum(A0[j], s)
        return s
    x86_poly1305.from_digits(h, 3, 44, digit)


def blocks(f, ctx, m, nblocks, pad, p):
    """The ifma variant's body for nblocks >= vec_min (>= 8): chunks of 8C blocks (when
    there is one), then groups of 8, then the scalar step."""
    C = p.chains
    if p.vec_min < 8:
        raise ValueError("vec_min = %d is below one group of 8 blocks" % p.vec_min)
    if 3 * C * 8 > TABLE_WORDS:
        raise ValueError("chains = %d: the powers table would not fit ctx" % C)
    _bounds_check(C)
    key = x86_poly1305.Key(ctx)
    _powers(f, ctx, key, nblocks, C)
    h = x86_poly1305.load_h(ctx)
    k = _Consts(pad)
    groups8 = f.new_label("groups")
    CMP(nblocks, 8 * C)
    JB(groups8)

    # R = r^(8C): lane 0 of P_0 (block 0 of a chunk), broadcast
    R = [ZMMRegister() for _ in range(3)]
    for j in range(3):
        VPBROADCASTQ(R[j], [ctx + 8 * CTX_TABLE + 64 * j])
    R20 = [None, _times20(R[1]), _times20(R[2])]

    # the first chunk, h added to block 0 (lane 0 of group 0)
    A = [_load_blocks(k, m, 128 * g) for g in range(C)]
    _add_h(A[0], h)
    ADD(m, 128 * C)
    SUB(nblocks, 8 * C)

    fold = f.new_label("fold")
    loop = f.new_label("chunks")
    CMP(nblocks, 8 * C)
    JB(fold)
    LABEL(loop)
    f.mca_begin("poly1305_blocks blocks=%d" % (8 * C))
    streams = []
    for g in range(C):
        with f.capture() as insns:
            _mul(k, A[g], R, R20, acc=_load_blocks(k, m, 128 * g))
        streams.append(list(insns))
    body = streams[0]
    for g in streams[1:]:
        body = sched.interleave(body, g, sched.X86Deps()) if p.interleave else body + g
    f.extend(body)
    ADD(m, 128 * C)
    SUB(nblocks, 8 * C)
    CMP(nblocks, 8 * C)
    JAE(loop)
    f.mca_end()
    LABEL(fold)

    # fold: group g times its lanes' powers, then sum everything into lane 0
    for g in range(C):
        P = [ZMMRegister() for _ in range(3)]
        for j in range(3):
            VMOVDQU64(P[j], _slot(ctx, g, j))
        _mul(k, A[g], P, [None, _times20(P[1]), _times20(P[2])])
    for g in range(1, C):
        for j in range(3):
            VPADDQ(A[0][j], A[0][j], A[g][j])
    _to_h(h, A[0])

    # what is left (fewer than 8C blocks): groups of 8, each h + blocks times r^8 .. r^1
    # (the powers of the last group, P_(C-1)) and summed, a chain of one group at a time
    LABEL(groups8)
    tail = f.new_label("tail")
    CMP(nblocks, 8)
    JB(tail)
    P = [ZMMRegister() for _ in range(3)]
    for j in range(3):
        VMOVDQU64(P[j], _slot(ctx, C - 1, j))
    P20 = [None, _times20(P[1]), _times20(P[2])]
    group = f.new_label("group")
    LABEL(group)
    G = _load_blocks(k, m, 0)
    _add_h(G, h)
    _mul(k, G, P, P20)
    _to_h(h, G)
    ADD(m, 128)
    SUB(nblocks, 8)
    CMP(nblocks, 8)
    JAE(group)
    LABEL(tail)
    x86_poly1305.finish_scalar(f, ctx, h, key, m, nblocks, pad, zmm32=True)
