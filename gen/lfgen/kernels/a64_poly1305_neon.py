"""AArch64 Poly1305 with Advanced SIMD in radix 2^26: 4 blocks per group of .4s registers,
`chains` groups per iteration. The arithmetic and its bounds are in poly1305_r26.

Digits. A_j (.4s) holds digit j of four accumulators, lane l = block l of the group. A
product digit is a pair of .2d accumulators: lanes 0-1 by UMULL/UMLAL on .2s, lanes 2-3 by
UMULL2/UMLAL2 on .4s:

    D_k.lo = sum over terms(k) of  a_i.2s * m     D_k.hi = ... a_i.4s (upper half) * m

where m is r_j / 5 r_j as a vector element (the loop: r^(4C), the same for every lane,
`umlal d.2d, a.2s, R.s[j]`) or as a vector (the fold: a power per lane). Carries run on the
.2d halves (USRA adds d >> 26 to the next digit; the chain of poly1305_r26.CARRIES), UZP1
narrows the two halves back into one .4s, and the next blocks' digits are added there. A
digit is masked to 26 bits on the .2d halves only when the chain touches it again after
carrying from it; otherwise one BIC on the narrowed .4s does it for both halves.

Blocks. LD4 {w0, w1, w2, w3}.4s, [m], #64 de-interleaves four blocks into their 32-bit
words (four consecutive registers, pinned); the digits are w0 & M, (w0 >> 26 | w1 << 6) & M,
(w1 >> 20 | w2 << 12) & M, (w2 >> 14 | w3 << 18) & M (USHR then SLI, the mask a BIC
immediate) and w3 >> 8 | 2^24 (ORR immediate: the vector path is for pad = 1; calls with
pad = 0 run the scalar loop).

Parallel Horner over chunks of 4C blocks as in the x86 variants, then groups of 4 (as the
ifma variant does with 8); the table in ctx[8..]
(ctx[5] = LAYOUT + C), byte offsets from ctx + 64:
    0: r0 r1 r2 r3 of r^(4C)   16: r4   32: 5r1 5r2 5r3 5r4        (.4s, the loop's multiplier)
    48 + 144 g + 16 j: digit j (j < 5) of the powers of group g, lane l: r^(4C - 4g - l)
    48 + 144 g + 80 + 16 (j-1): 5 times digit j (j = 1..4)
Powers come from the scalar step (a64_poly1305.block), converted to digits in GPRs.
Every vector register is cleared before returning (key powers, message digits).
"""

from ..a64.insn import mem, post
from ..a64.regs import XZR
from ..kernel import Param
from ..vseq import VSeq
from . import a64_poly1305, poly1305_r26 as r26
from .poly1305_blocks import CTX_POWERS, CTX_TABLE

LAYOUT = 0x2700
TABLE = 8 * CTX_TABLE            # byte offset of the table in ctx

PARAMS = {
    "chains": Param(3, (1, 2, 3), "independent groups of 4 blocks: 4*chains blocks per iteration"),
    "vec_min": Param(16, (4, 8, 12, 16, 24, 32, 64),
                     "from this many blocks on the vector path (fewer: the scalar loop, no "
                     "powers table)", kind="size", sizes=(4, 8, 12, 16, 24, 32, 64)),
    "carry": r26.carry_param(),
}


def _group(g):
    return TABLE + 48 + 144 * g


def _gpr_digits(f, x, sink):
    """The five 26-bit digits of x = x0 + x1 2^64 + x2 2^128 (x2 <= 4) as GPRs, to sink."""
    x0, x1, x2 = x
    d = f.gpr("d")
    f.ubfx(d, x0, 0, 26)
    sink(0, d)
    d = f.gpr("d")
    f.ubfx(d, x0, 26, 26)
    sink(1, d)
    d = f.gpr("d")
    f.extr(d, x1, x0, 52)
    f.and_(d, d, r26.M26)
    sink(2, d)
    d = f.gpr("d")
    f.ubfx(d, x1, 14, 26)
    sink(3, d)
    d = f.gpr("d")
    f.extr(d, x2, x1, 40)
    sink(4, d)


def _build_table(f, ctx, key, C):
    """r^1 .. r^(4C) by the scalar step, stored as 32-bit digits (and 5 times them)."""
    x = f.gprs(3, "x")
    f.mov(x[0], key.r0)
    f.mov(x[1], key.r1)
    f.mov(x[2], XZR)
    for power in range(1, 4 * C + 1):
        b = 4 * C - power
        g, lane = b // 4, b % 4

        def store(j, d, g=g, lane=lane, power=power):
            f.str_(d.w, mem(ctx, _group(g) + 16 * j + 4 * lane, size=4, tag=("ctx", 0)))
            if power == 4 * C:
                f.str_(d.w, mem(ctx, TABLE + (16 if j == 4 else 4 * j), size=4,
                                tag=("ctx", 0)))
            if j:
                s = f.gpr("s")
                f.add(s, d, d, "lsl #2")
                f.str_(s.w, mem(ctx, _group(g) + 80 + 16 * (j - 1) + 4 * lane, size=4,
                                tag=("ctx", 0)))
                if power == 4 * C:
                    f.str_(s.w, mem(ctx, TABLE + 32 + 4 * (j - 1), size=4, tag=("ctx", 0)))
        _gpr_digits(f, x, store)
        if power < 4 * C:
            a64_poly1305.block(f, x, key)
    t = f.gpr("t")
    f.mov(t, LAYOUT + C)
    f.str_(t, mem(ctx, 8 * CTX_POWERS, tag=("ctx", 8 * CTX_POWERS)))


class _Consts:
    """The 2^26 - 1 mask of the .2d halves (the .4s masks and the pad bit are immediates)."""

    def __init__(self, f):
        t = f.gpr("t")
        self.m2d = f.vreg("k")
        f.mov(t, r26.M26)
        f.v_dup(self.m2d.d2, t)


def _mask26(f, v):
    """v.4s &= 2^26 - 1 (BIC of bits 26-31)."""
    f.op("bic.vi", v.s4, "#0xfc", "lsl #24")


def _load_blocks(f, k, m, sink):
    """Digits of the 4 blocks at m (m advanced by 64), pad 2^128 in each, to sink(j, .4s)."""
    w = VSeq(f, 4, "w", base=0)
    f.op("ld4.v", w[0].s4, w[1].s4, w[2].s4, w[3].s4, post(m, 64, tag=("m", 0)))
    d = f.vreg("m")
    f.v_mov(d.b16, w[0].b16)
    _mask26(f, d)
    sink(0, d)
    for j, sh in ((1, 26), (2, 20), (3, 14)):
        d = f.vreg("m")
        f.v_ushr(d.s4, w[j - 1].s4, sh)
        f.v_sli(d.s4, w[j].s4, 32 - sh)
        _mask26(f, d)
        sink(j, d)
    d = f.vreg("m")
    f.v_ushr(d.s4, w[3].s4, 8)
    f.op("orr.vi", d.s4, "#1", "lsl #24")
    sink(4, d)


def _mul(f, k, a, mult, add=None):
    """a = carry(a * r) (+ the digits add(sink) produces), in place; mult(w, j, half) gives
    the multiplier operand of digit j of r (w 'r') or 5 r (w 's') for half 'lo' / 'hi'."""
    D = {}
    for half, first, more, src in (("lo", "umull.v", "umlal.v", "s2"),
                                   ("hi", "umull2.v", "umlal2.v", "s4")):
        for kk in range(5):
            d = f.vreg("d")
            for n, (i, w, j) in enumerate(r26.terms(kk)):
                a_view = a[i].s2 if src == "s2" else a[i].s4
                f.op(first if n == 0 else more, d.d2, a_view, mult(w, j, half))
            D[half, kk] = d
    steps = r26.CARRIES[k.carry]
    for n, (s, t) in enumerate(steps):
        # a digit carried from and then touched again (a carry out or in) drops its carried
        # bits now; otherwise the one AND on the narrowed .4s below does it
        again = any(s in step for step in steps[n + 1:])
        for half in ("lo", "hi"):
            ds, dt = D[half, s], D[half, t]
            if s == 4:
                c = f.vreg("c")
                f.v_ushr(c.d2, ds.d2, 26)
                f.v_add(dt.d2, dt.d2, c.d2)
                f.v_shl(c.d2, c.d2, 2)
                f.v_add(dt.d2, dt.d2, c.d2)
            else:
                f.v_usra(dt.d2, ds.d2, 26)
            if again:
                f.v_and(ds.b16, ds.b16, k.m2d.b16)
    # narrowed to 32 bits; a digit whose last event was a carry out still holds the carried
    # bits 26-31 (one BIC on the .4s clears them for both halves); one whose last event was
    # a carry in is already a lazy digit (masked before, plus the carry)
    for j in range(5):
        f.v_uzp1(a[j].s4, D["lo", j].s4, D["hi", j].s4)
        last = max(n for n, step in enumerate(steps) if j in step)
        if steps[last][0] == j:
            _mask26(f, a[j])
    if add is not None:
        def sink(j, d):
            f.v_add(a[j].s4, a[j].s4, d.s4)
        add(sink)


def _add_h(f, h, A0):
    """h (GPRs, h2 <= 4) into lane 0 (block 0) of the digit registers A0."""
    def add(j, d):
        v = f.vreg("h")
        f.v_fmov(v.s, d.w)
        f.v_add(A0[j].s4, A0[j].s4, v.s4)
    _gpr_digits(f, h, add)


def _load_group(f, k, m):
    A = [None] * 5

    def put(j, d):
        A[j] = d
    _load_blocks(f, k, m, put)
    return A


def _fold(f, k, tb, g, A):
    """A = carry(A times the per-lane powers of group g)."""
    P = f.vregs(9, "P")
    for i in range(9):
        f.op("ldr.v", P[i].q, mem(tb, _group(g) - TABLE + 16 * i, size=16,
                                   tag=("ctx", _group(g) + 16 * i)))

    def mult(w, j, half):
        v = P[j] if w == "r" else P[4 + j]
        return v.s2 if half == "lo" else v.s4
    _mul(f, k, A, mult)


def _to_h(f, h, A0):
    """h = the sum of the four lanes of A0, partially reduced."""
    s = f.gprs(5, "s")
    for j in range(5):
        v = f.vreg("v")
        f.v_addv(v.s, A0[j].s4)
        f.v_fmov(s[j].w, v.s)
    _from_digits(f, h, s)


def blocks(f, ctx, m, nblocks, pad, p):
    """The neon variant: from vec_min blocks on (and pad = 1), chunks of 4C blocks when there
    is one, then groups of 4 (h added to block 0, times r^4 .. r^1, summed back: a chain of
    one group at a time), then the scalar step for the last nblocks mod 4."""
    C = p.chains
    what = "poly1305_blocks.neon chains=%d" % C
    if p.vec_min < 4:
        raise ValueError("%s: vec_min = %d is below one group of 4 blocks" % (what, p.vec_min))
    if 48 + 144 * C > 8 * (136 - CTX_TABLE):
        raise ValueError("%s: the powers table would not fit ctx" % what)
    r26.kernel_bounds(what, 4 * C, p.carry)
    done, scalar, store = f.new_label("done"), f.new_label("scalar"), f.new_label("store")
    f.cbz(nblocks, done)
    key = a64_poly1305.Key(f, ctx)
    h = a64_poly1305.load_h(f, ctx)
    f.cmp(nblocks, p.vec_min)
    f.b_lo(scalar)
    f.cbz(pad, scalar)                   # the vector code adds 2^128 to every block

    have = f.new_label("have_powers")
    t, lay = f.gpr("t"), f.gpr("layout")
    f.ldr(t, mem(ctx, 8 * CTX_POWERS, tag=("ctx", 8 * CTX_POWERS)))
    f.mov(lay, LAYOUT + C)
    f.cmp(t, lay)
    f.b_eq(have)
    _build_table(f, ctx, key, C)
    f.bind(have)
    k = _Consts(f)
    k.carry = p.carry
    tb = f.gpr("tb")
    f.add(tb, ctx, TABLE)
    chunk = 4 * C
    groups = f.new_label("groups")
    f.cmp(nblocks, chunk)
    f.b_lo(groups)

    R = f.vregs(3, "R")
    for i in range(3):
        f.op("ldr.v", R[i].q, mem(tb, 16 * i, size=16, tag=("ctx", TABLE + 16 * i)))

    def loop_mult(w, j, half):
        if w == "r":
            return R[0].lane("s", j) if j < 4 else R[1].lane("s", 0)
        return R[2].lane("s", j - 1)

    A = [_load_group(f, k, m) for g in range(C)]
    _add_h(f, h, A[0])
    f.sub(nblocks, nblocks, chunk)

    fold, loop = f.new_label("fold"), f.new_label("chunks")
    f.cmp(nblocks, chunk)
    f.b_lo(fold)
    f.bind(loop)
    f.mca_begin("poly1305_blocks blocks=%d" % chunk)
    for g in range(C):
        _mul(f, k, A[g], loop_mult, add=lambda sink: _load_blocks(f, k, m, sink))
    f.sub(nblocks, nblocks, chunk)
    f.cmp(nblocks, chunk)
    f.b_hs(loop)
    f.mca_end()
    f.bind(fold)
    for g in range(C):
        _fold(f, k, tb, g, A[g])
        if g:
            for j in range(5):
                f.v_add(A[0][j].s4, A[0][j].s4, A[g][j].s4)
    _to_h(f, h, A[0])

    f.bind(groups)
    tail = f.new_label("tail")
    f.cmp(nblocks, 4)
    f.b_lo(tail)
    group = f.new_label("group")
    f.bind(group)
    G = _load_group(f, k, m)
    _add_h(f, h, G)
    _fold(f, k, tb, C - 1, G)
    _to_h(f, h, G)
    f.sub(nblocks, nblocks, 4)
    f.cmp(nblocks, 4)
    f.b_hs(group)
    f.bind(tail)
    _wipe(f)
    f.cbz(nblocks, store)
    f.bind(scalar)
    a64_poly1305.block_loop(f, h, key, m, nblocks, pad, name="tail")
    f.bind(store)
    a64_poly1305.store_h(f, ctx, h)
    f.bind(done)


def _from_digits(f, h, s):
    """h (h2 <= 4) = s0 + s1 2^26 + s2 2^52 + s3 2^78 + s4 2^104 mod p, each s_j < 2^32."""
    t, u, v, top = f.gprs(4, "t")
    f.add(t, s[0], s[1], "lsl #26")
    f.adds(h[0], t, s[2], "lsl #52")
    f.lsr(u, s[2], 12)
    f.add(u, u, s[3], "lsl #14")
    f.lsl(v, s[4], 40)
    f.adcs(h[1], u, v)
    f.lsr(top, s[4], 24)
    f.adc(top, top, XZR)
    a64_poly1305.reduce_h2(f, h, top, t)


def _wipe(f):
    """Every vector register cleared: key powers and message digits must not outlive the
    call (the epilogue then restores the callee-saved d8-d15)."""
    for v in VSeq(f, 32, "z", base=0):
        f.v_movi(v.d2, 0)
