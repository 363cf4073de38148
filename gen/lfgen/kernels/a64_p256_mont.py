"""AArch64 p256_mont_mult / p256_mont_square (JDK MontgomeryIntegerPolynomialP256: 5 x 52-bit
limbs, R = 2^260): "a64" (general-purpose registers only) and "neon" (the hybrid of
JDK-8355216: Advanced SIMD computes the products of the last rows while the GPRs run the
first ones).

Columns. The result is built in ten 64-bit columns c_0 .. c_9 (c_k has weight 2^(52 k)),
signed, never normalised until the end (every column stays below 2^58 in magnitude):

  products   S_k = sum_(i+j=k) a_j b_i is summed exactly as a 128-bit value (mul/umulh, then
             adds/adc), and split once per column: S_k mod 2^52 -> c_k (and), S_k >> 52 ->
             c_(k+1) (extr hi:lo, 52; S_k < 2^108). 25 products, 9 splits (the JDK splits
             every product: 25).
  reduction  p = 2^256 - 2^224 + 2^192 + 2^96 - 1 = -1 mod 2^52, so the quotient digit of row
             i is m = c_i mod 2^52 and m p needs no multiply. In column terms (weight of c_i):
                 m p = -m + m 2^(52+44) + m 2^(3*52+36) + m 2^(4*52) (2^48 - 2^16)
             -m clears the low 52 bits of c_i, which then carries c_i >> 52 (asr: floor) into
             c_(i+1); the other terms are split at 52-bit boundaries with shifts of m:
                 c_(i+1) += (m mod 2^8) << 44             c_(i+2) += m >> 8
                 c_(i+3) += (m mod 2^16) << 36            c_(i+4) += m >> 16
                 c_(i+4) += (m mod 2^4) << 48 - (m mod 2^36) << 16
                 c_(i+5) += m >> 4 - m >> 36
             (ubfiz from c_i directly for the low bits; `add/sub x, x, m, lsr #n` for the
             high ones): 14 single-cycle instructions per row, no multiply (the JDK: 10
             multiplies per row).
  final      t = c_5 .. c_9 carried to 52-bit limbs (asr chain; t < 2p), and in parallel
             d = t - p from the same columns (-p = [1, -2^44, 0, -2^36, 2^16 - 2^48] in
             signed 52-bit limbs); d's top limb is negative exactly when t < p: cmp, csel per
             limb (no branch), stp/stp/str.
  square     (a64) each cross product once against a doubled limb: S_k = sum_(j<i, i+j=k)
             (2 a_j) a_i + a_(k/2)^2 (2 a_j < 2^53, S_k < 2^108 still): 15 products for 25.

neon. The products of `neon_rows` rows (the last ones: i = 5 - neon_rows .. 4) for the four
columns 4..7 run on Advanced SIMD in radix 2^26: every 52-bit limb x is x_l + x_h 2^26 (xtn /
shrn #26 of the 64-bit lanes, BIC of bits 26-31), and a product is

    a b = ll + mid 2^26 + hh 2^52,  ll = a_l b_l, mid = a_l b_h + a_h b_l, hh = a_h b_h
    -> column k gets L = ll + (mid mod 2^26) 2^26, column k+1 gets H = hh + (mid >> 26)

Row i is one scalar limb (its halves as vector elements) times the vector of the four b limbs
that meet it in columns 4..7, B_o = (b_o, b_(o+1), b_(o+2), b_(o+3)), o = 4 - i, limbs past
b_4 zero (ext of the b halves with the b_4 halves): umull/umull2 by element, one lane per
column, so the rows accumulate in the same lanes with umlal/umlal2 (32x32-bit products, all
sums below 2^56): per row 8 multiplies for 4 products. Groups (VSeq of 2 registers: lanes
0-1 = columns 4-5, lanes 2-3 = columns 6-7): LL, MID, HH; L = LL + (MID << 38) >> 12 (shl,
usra), H = HH + MID >> 26 (usra); the column sums L_k + H_(k-1) by ext/add; five values move to
GPRs (fmov/umov) and are added to c_4 .. c_8. The GPRs do every other product, interleaved
(sched.interleave spreads the vector stream through the first `lead` per cent of the scalar
instructions that do not wait for it). For the square the vector rows are a_4 x (2a_0 .. 2a_3)
and a_3 x (2a_1, 2a_2) (half a row: lanes 0-1 only), the GPRs the nine other products.

Schedule: `alu` shifted (shifted-register add/sub, extr: fewest instructions) or plain (each
shift its own single-cycle instruction, lsl + orr-lsr for the carry: on Neoverse N1 a shifted
add or extr goes to the one multi-cycle pipe the multiplies need; llvm-mca-19 per call, mult
a64 shifted / plain: neoverse-n1 200 / 175, neoverse-v1 67 / 69, apple-m1 112 / 132);
`neon_rows` (1..3) and `lead` for the hybrid.

Constant time: straight line, no branch, addresses from the pointer arguments only
(f.secret_independent checks it at generation time).
"""

from ..a64.function import Function
from ..a64.insn import mem
from ..a64.regs import XZR
from ..kernel import Param
from ..vseq import VSeq, vs_shl, vs_usra, vs_add
from .. import sched

M52 = (1 << 52) - 1
M26 = (1 << 26) - 1

ALU = Param("shifted", ("shifted", "plain"),
            "shifted: shifted-register add/sub and extr (fewer instructions); plain: every "
            "shift its own instruction, lsl + orr-lsr for the 52-bit carry (on Neoverse a "
            "shifted add or extr takes the multi-cycle M pipe that the multiplies need)")
PARAMS = {
    "alu": ALU,
    "neon_rows": Param(2, (1, 2, 3), "rows of the 5-row Montgomery product whose products "
                       "for columns 4..7 run on Advanced SIMD (the last rows)"),
    "lead": Param(60, (30, 60, 100), "the vector stream is spread through this per cent of "
                  "the scalar instructions (front-loaded: its results arrive late)"),
}
A64_PARAMS = {"alu": ALU}
SQR_NEON_PARAMS = {"alu": ALU, "lead": PARAMS["lead"]}


class _Cols:
    """Ten columns, each a running sum: a term is added as soon as the column has a plain
    (unshifted, positive) first term; until then terms wait (few registers stay live)."""

    def __init__(self, f, plain=False):
        self.f = f
        self.plain = plain
        self.acc = [None] * 10
        self.pending = [[] for _ in range(10)]

    def _emit(self, k, reg, shift, neg):
        f = self.f
        d = f.gpr("c%d" % k)
        if shift and self.plain:
            kind, n = shift.split()
            t = f.gpr("s")
            (f.asr if kind == "asr" else f.lsr)(t, reg, int(n.lstrip("#")))
            reg, shift = t, None
        ops = [d, self.acc[k], reg] + ([shift] if shift else [])
        (f.sub if neg else f.add)(*ops)
        self.acc[k] = d

    def add(self, k, reg, shift=None, neg=False):
        if self.acc[k] is None:
            if shift is None and not neg:
                self.acc[k] = reg
                for t in self.pending[k]:
                    self._emit(k, *t)
                self.pending[k] = []
            else:
                self.pending[k].append((reg, shift, neg))
            return
        self._emit(k, reg, shift, neg)

    def value(self, k):
        if self.acc[k] is None or self.pending[k]:
            raise ValueError("column %d has no plain term" % k)
        return self.acc[k]


def _products(f, cols, pairs, plain=False):
    """For every column k with pairs[k] = [(x, y), ...]: S_k exactly (128 bits), split into
    c_k += S_k mod 2^52, c_(k+1) += S_k >> 52."""
    for k in range(9):
        if not pairs[k]:
            continue
        lo = hi = None
        for (x, y) in pairs[k]:
            ml, mh = f.gpr("pl"), f.gpr("ph")
            f.mul(ml, x, y)
            f.umulh(mh, x, y)
            if lo is None:
                lo, hi = ml, mh
            else:
                nl, nh = f.gpr("sl"), f.gpr("sh")
                f.adds(nl, lo, ml)
                f.adc(nh, hi, mh)
                lo, hi = nl, nh
        low, high = f.gpr("lo%d" % k), f.gpr("hi%d" % k)
        f.and_(low, lo, M52)
        if plain:
            t = f.gpr("t")
            f.lsl(t, hi, 12)
            f.orr(high, t, lo, "lsr #52")
        else:
            f.extr(high, hi, lo, 52)
        cols.add(k, low)
        cols.add(k + 1, high)


def _reduce_row(f, cols, i):
    """Row i's reduction: m = c_i mod 2^52, c += m p (see the module docstring)."""
    c = cols.value(i)
    m = f.gpr("m%d" % i)
    f.and_(m, c, M52)
    cols.add(i + 1, c, "asr #52")
    for k, lsb, width in ((1, 44, 8), (3, 36, 16), (4, 48, 4)):
        t = f.gpr("r")
        f.ubfiz(t, c, lsb, width)
        cols.add(i + k, t)
    t = f.gpr("r")
    f.ubfiz(t, c, 16, 36)
    cols.add(i + 4, t, neg=True)
    cols.add(i + 2, m, "lsr #8")
    cols.add(i + 4, m, "lsr #16")
    cols.add(i + 5, m, "lsr #4")
    cols.add(i + 5, m, "lsr #36", neg=True)


def _final(f, cols, rp):
    """t = c_5..c_9 in 52-bit limbs, d = t - p, r = d unless d < 0 (csel)."""
    c = [cols.value(5 + k) for k in range(5)]
    k1, k3, p4 = f.gpr("k1"), f.gpr("k3"), f.gpr("p4")
    f.mov(k1, "#%d" % -(1 << 44))
    f.mov(k3, "#%d" % -(1 << 36))
    f.mov(p4, "#0x%x" % ((1 << 48) - (1 << 16)))
    e_in = [None] * 5
    e_in[0] = f.gpr("e")
    f.add(e_in[0], c[0], 1)
    e_in[1] = f.gpr("e")
    f.add(e_in[1], c[1], k1)
    e_in[2] = c[2]
    e_in[3] = f.gpr("e")
    f.add(e_in[3], c[3], k3)
    e_in[4] = f.gpr("e")
    f.sub(e_in[4], c[4], p4)
    t, d = [None] * 5, [None] * 5
    T, E = c[0], e_in[0]
    for k in range(5):
        if k:
            nT, nE = f.gpr("T"), f.gpr("E")
            if cols.plain:
                sT, sE = f.gpr("s"), f.gpr("s")
                f.asr(sT, T, 52)
                f.asr(sE, E, 52)
                f.add(nT, c[k], sT)
                f.add(nE, e_in[k], sE)
            else:
                f.add(nT, c[k], T, "asr #52")
                f.add(nE, e_in[k], E, "asr #52")
            T, E = nT, nE
        if k < 4:
            t[k], d[k] = f.gpr("t%d" % k), f.gpr("d%d" % k)
            f.and_(t[k], T, M52)
            f.and_(d[k], E, M52)
        else:
            t[k], d[k] = T, E
    f.cmp(d[4], 0)
    r = [f.gpr("r%d" % k) for k in range(5)]
    for k in range(5):
        f.csel(r[k], t[k], d[k], "lt")
    f.stp(r[0], r[1], mem(rp, 0))
    f.stp(r[2], r[3], mem(rp, 16))
    f.str_(r[4], mem(rp, 32))


def _load5(f, ptr, name):
    x = f.gprs(5, name)
    f.ldp(x[0], x[1], mem(ptr, 0))
    f.ldp(x[2], x[3], mem(ptr, 16))
    f.ldr(x[4], mem(ptr, 32))
    return x


# ---- the vector part -----------------------------------------------------------------------

class _Halves:
    """26-bit halves of limbs 0..3 (lanes of L, H: .4s) and of limb 4 (lane 0 of L4, H4; the
    other lanes zero), from the 64-bit limbs at ptr (doubled first when `double`)."""

    def __init__(self, f, ptr, double=False):
        v = f.vregs(3, "ld")
        f.op("ldp.v", v[0].q, v[1].q, mem(ptr, 0, size=16, count=2))
        f.op("ldr.v", v[2].d, mem(ptr, 32, size=8))
        if double:
            for x in v:
                f.v_shl(x.d2, x.d2, 1)
        self.L, self.H, self.L4, self.H4 = f.vregs(4, "half")
        f.v_xtn(self.L.s2, v[0].d2)
        f.v_xtn2(self.L.s4, v[1].d2)
        f.op("bic.vi", self.L.s4, "#0xfc", "lsl #24")
        f.v_shrn(self.H.s2, v[0].d2, 26)
        f.v_shrn2(self.H.s4, v[1].d2, 26)
        f.v_xtn(self.L4.s2, v[2].d2)
        f.op("bic.vi", self.L4.s4, "#0xfc", "lsl #24")
        f.v_shrn(self.H4.s2, v[2].d2, 26)

    def window(self, f, o):
        """(low, high) .4s registers holding limbs o .. o+3 (zero past limb 4)."""
        if o == 0:
            return self.L, self.H
        lo, hi = f.vreg("wl"), f.vreg("wh")
        f.v_ext(lo.b16, self.L.b16, self.L4.b16, 4 * o)
        f.v_ext(hi.b16, self.H.b16, self.H4.b16, 4 * o)
        return lo, hi

    def elem(self, j):
        """(low, high) 32-bit element views of limb j."""
        if j == 4:
            return self.L4.lane("s", 0), self.H4.lane("s", 0)
        return self.L.lane("s", j), self.H.lane("s", j)


def _vs_mul_elem(f, dst, src, elem, first, lanes):
    """dst (VSeq of 2: lanes 0-1, 2-3) (+)= src (.4s) times a 32-bit element: umull/umlal on
    the low two lanes, umull2/umlal2 on the high two (skipped when `lanes` == 2)."""
    f.op("umull.v" if first else "umlal.v", dst[0].d2, src.s2, elem)
    if lanes == 4:
        f.op("umull2.v" if first else "umlal2.v", dst[1].d2, src.s4, elem)


def _neon_stream(f, rows, ap, bp, square):
    """The vector part: rows = [(i, o, lanes)]: limb i of a times the b window at o.
    Returns the five GPRs to add to c_4 .. c_8."""
    A = _Halves(f, ap)
    B = _Halves(f, ap, double=True) if square else _Halves(f, bp)
    LL, MID, HH = VSeq(f, 2, "ll"), VSeq(f, 2, "mid"), VSeq(f, 2, "hh")
    # rows with 2 lanes only come after a 4-lane row (the 4-lane one initialises)
    rows = sorted(rows, key=lambda r: -r[2])
    if rows[0][2] != 4:
        raise ValueError("the first vector row must cover four columns")
    for n, (i, o, lanes) in enumerate(rows):
        wl, wh = B.window(f, o)
        el, eh = A.elem(i)
        _vs_mul_elem(f, LL, wl, el, n == 0, lanes)
        _vs_mul_elem(f, MID, wl, eh, n == 0, lanes)
        _vs_mul_elem(f, MID, wh, el, False, lanes)
        _vs_mul_elem(f, HH, wh, eh, n == 0, lanes)
    T = VSeq(f, 2, "tmp")
    vs_shl(f, T, MID, imm=38)
    vs_usra(f, LL, T, imm=12)                  # L = ll + (mid mod 2^26) << 26
    vs_usra(f, HH, MID, imm=26)                # H = hh + mid >> 26
    z, s0, s1 = f.vreg("zero"), f.vreg("sh"), f.vreg("sh")
    f.v_movi(z.d2, 0)
    f.v_ext(s0.b16, z.b16, HH[0].b16, 8)       # (0, H4)
    f.v_ext(s1.b16, HH[0].b16, HH[1].b16, 8)   # (H5, H6)
    N = VSeq(f, 2, "n")
    vs_add(f, N, LL, VSeq(regs=[s0, s1]))       # (L4, L5 + H4), (L6 + H5, L7 + H6)
    return N, HH


def _neon_moves(f, N, HH):
    """The five column sums to GPRs (for c_4 .. c_8)."""
    g = f.gprs(5, "nv")
    f.v_fmov(g[0], N[0].d)
    f.v_umov(g[1], N[0].lane("d", 1))
    f.v_fmov(g[2], N[1].d)
    f.v_umov(g[3], N[1].lane("d", 1))
    f.v_umov(g[4], HH[1].lane("d", 1))         # H7
    return g


def _vector_rows(neon_rows, square):
    """[(i, o, lanes)] and the (column, j, i) products they cover."""
    if square:
        rows = [(4, 0, 4), (3, 1, 2)]           # a4 x (2a0..2a3), a3 x (2a1, 2a2)
        covered = {(4, 0), (4, 1), (4, 2), (4, 3), (3, 1), (3, 2)}   # (i, j): a_i (2a_j)
        return rows, covered
    rows, covered = [], set()
    for i in range(5 - neon_rows, 5):
        o = 4 - i
        rows.append((i, o, 4))
        for lane in range(4):
            j = o + lane
            if j <= 4:
                covered.add((i, j))            # a_i b_j, column i + j
    return rows, covered


def build(symbol, p, spec, square=False, neon=False):
    f = Function(symbol, spec.args, spec.result)
    f.secret_independent()
    rp, ap = f.arg_regs[0], f.arg_regs[1]
    bp = ap if square else f.arg_regs[2]
    plain = p.alu == "plain"
    cols = _Cols(f, plain)
    rows, covered = _vector_rows(p.neon_rows if not square else 2, square) if neon else ([], set())

    f.mca_begin("%s calls=1" % spec.name)
    with f.capture() as gpr:
        a = _load5(f, ap, "a")
        pairs = [[] for _ in range(9)]
        if square:
            dbl = f.gprs(4, "a2x")
            for j in range(4):
                f.add(dbl[j], a[j], a[j])
            for i in range(5):
                for j in range(i + 1):
                    if (i, j) in covered:
                        continue
                    pairs[i + j].append((a[i], a[i]) if i == j else (a[i], dbl[j]))
        else:
            b = _load5(f, bp, "b")
            for k in range(9):
                for i in range(5):
                    j = k - i
                    if 0 <= j <= 4 and (i, j) not in covered:
                        pairs[k].append((a[i], b[j]))
        # columns in order, each row reduced once its column is complete; the vector results
        # (columns 4..8) are needed from row 4 on
        last_gpr_row = 4 if neon else 5
        done = 0
        for k in range(9):
            one = [[] for _ in range(9)]
            one[k] = pairs[k]
            _products(f, cols, one, plain)
            if k >= 1 and done < last_gpr_row:
                _reduce_row(f, cols, done)
                done += 1
    if neon:
        with f.capture() as vec:
            N, HH = _neon_stream(f, rows, ap, bp, square)
        deps = sched.A64Deps()
        cut = max(1, len(gpr) * p.lead // 100)
        f.extend(sched.interleave(gpr[:cut], vec, deps) + gpr[cut:])
        g = _neon_moves(f, N, HH)
        for k in range(5):
            cols.add(4 + k, g[k])
        while done < 5:
            _reduce_row(f, cols, done)
            done += 1
    else:
        f.extend(gpr)
        while done < 5:
            _reduce_row(f, cols, done)
            done += 1
    _final(f, cols, rp)
    f.mca_end()
    f.ret()
    return f.finalize()


def builder(spec, square=False, neon=False):
    def b(symbol, p):
        return build(symbol, p, spec, square=square, neon=neon)
    return b


A64_DOC = ("Straight line, GPRs only: per column the exact 128-bit sum of its 52x52-bit\n"
           "products (mul/umulh, adds/adc) split once into 52-bit low part and carry\n"
           "(and, extr); reduction rows with m = c_i mod 2^52 and m p by shifts (ubfiz,\n"
           "add/sub with lsr; no multiply); final t and t - p by two asr carry chains, csel.")
NEON_DOC = ("The hybrid (JDK-8355216): the products of the last neon_rows rows for columns\n"
            "4..7 in radix 2^26 on Advanced SIMD (umull/umlal by element, VSeq groups),\n"
            "interleaved with the GPR rows of the a64 variant; five column sums moved back\n"
            "by fmov/umov.")
