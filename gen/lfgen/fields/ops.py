"""The field operations as proven straight-line programs (ir.Prog), built from a Field.

Bounds are per limb: an element's bound is a list of intervals [(lo, hi)] * limbs.

    R  reduced     what mul, square, carry and decode return (derived as a fixed point)
    M  mul input   (1 + max_adds) R: the largest budget of lazy additions of reduced values
                   a product accepts without any intermediate leaving int64/int128, found by
                   the generator (not chosen by hand, unlike FieldGen's maxAdds)
    L  add input   |limb| <= 2^62 (native: [0, 2^62]): add/sub/carry/carry_reduce accept it

Product (schoolbook columns), reduction of column k >= limbs (weight 2^(bits k) >= 2^power)
by 2^power = c mod p, c's balanced terms (desc.balanced_terms); each fold is checked:

    unsplit   col[j] += coeff x 2^s                       if that stays inside int64/int128,
    split     col[j] += coeff (x mod 2^(bits-s)) 2^s,     else (FieldGen's split reduce),
              col[j+1] += coeff (x >> (bits-s))
    carry     the target column is carried first         if even the split overflows,

and a BoundError names the operation otherwise.  Then a carry chain (rounding carries for
the signed JDK layout, floor carries for native limbs), the top limb split at 2^power and
folded again, and a second chain that carries only the limbs still wider than 2^bits.
A field described with carries="two chains" (Curve25519 5 x 51) carries its product
columns in two chains side by side instead (TwoChains): about half the latency, the same
carries.
"""

from .ir import Prog, BoundError, bits

I62 = 1 << 62


# -- bounds helpers ------------------------------------------------------------------------
def hull(*bs):
    return [(min(x[i][0] for x in bs), max(x[i][1] for x in bs)) for i in range(len(bs[0]))]


def scale(b, k):
    return [(lo * k, hi * k) for lo, hi in b]


def within(b, outer):
    return all(o[0] <= x[0] and x[1] <= o[1] for x, o in zip(b, outer))


def digits(f):
    """Canonical digit bounds: [0, 2^bits) per limb, the top limb [0, 2^top_bits)."""
    return [(0, (1 << f.bits) - 1)] * (f.limbs - 1) + [(0, (1 << f.top_bits) - 1)]


def centred(f):
    h = 1 << (f.bits - 1)
    return [(-h, h - 1)] * f.limbs


def add_input(f):
    return [(0 if not f.signed else -I62, I62)] * f.limbs


def limbs_of(x, f):
    return [(x >> (f.bits * i)) & ((1 << f.bits) - 1) for i in range(f.limbs - 1)] + \
        [x >> (f.bits * (f.limbs - 1))]


def multiple_of_p(f, need, top_room=0):
    """A limb vector L of some k*p with L_i >= need_i for every limb (so that x + L - y stays
    non-negative for y_i <= need_i): digits of k p, each low limb raised by 2^bits borrowed
    from the next.  The smallest such k = 2^e."""
    for e in range(1, 256):
        d = limbs_of(f.p << e, f)
        beta = [0] * f.limbs
        for i in range(f.limbs - 1):
            lack = need[i] - d[i] + beta[i - 1] if i else need[i] - d[i]
            beta[i] = max(0, -(-lack // (1 << f.bits)))
        L = [d[i] + (beta[i] << f.bits) - (beta[i - 1] if i else 0) for i in range(f.limbs)]
        if L[-1] >= need[-1] + top_room and all(L[i] >= need[i] for i in range(f.limbs)):
            assert sum(v << (f.bits * i) for i, v in enumerate(L)) == f.p << e
            return L, e
    raise BoundError("%s: no multiple of p covers limbs of %s" % (f.name, bits((0, max(need)))))


# -- building blocks -----------------------------------------------------------------------
class Cols:
    """Column accumulators at limb positions (None = empty) inside a program."""

    def __init__(self, prog, f, size):
        self.prog, self.f, self.c = prog, f, [None] * size

    def add_at(self, j, v, note=""):
        while j >= len(self.c):
            self.c.append(None)
        self.c[j] = v if self.c[j] is None else self.prog.add(self.c[j], v, note=note)

    def carry(self, i, width=None, force=False, floor=False):
        """Carry column i into i+1 (rounding for signed layouts, floor for native); a no-op
        (nothing emitted) when the bounds prove the carry is 0 and `force` is not set."""
        p, f, x = self.prog, self.f, self.c[i]
        w = width or f.bits
        if x is None:
            return None
        if f.signed and not floor:
            h = 1 << (w - 1)
            if -h <= x.lo and x.hi < h and not force:
                return None
            y = p.addc(x, h)
            t = p.sar(y, w)
            self.c[i] = p.addc(p.mask(y, w), -h)
        else:
            if 0 <= x.lo and x.hi < (1 << w) and not force:
                return None
            t = p.sar(x, w)
            self.c[i] = p.mask(x, w)
        return t

    def fold(self, x, e, note, terms=None):
        """Add x * 2^e (e >= power) back as x * c * 2^(e - power), term by term (c's terms,
        or the subset `terms`)."""
        f, p = self.f, self.prog
        for pw, co in (f.terms if terms is None else terms):
            w = e - f.power + pw
            j, s = divmod(w, f.bits)
            what = "%s: fold of %s into limb %d" % (note, "2^%d" % e, j)
            if p.attempt(self._fold_unsplit, x, co, j, s, what) is not None:
                continue
            if s and p.attempt(self._fold_split, x, co, j, s, what) is not None:
                continue
            if p.attempt(self._fold_after_carry, x, co, j, s, what) is not None:
                continue
            # say why, from the plainest form
            self._fold_after_carry(x, co, j, s, what)

    def _fold_unsplit(self, x, co, j, s, what):
        p = self.prog
        v = p.mulc(x, co, note=" (" + what + ")") if co != 1 else x
        if s:
            v = p.shl(v, s, note=" (" + what + ")")
        self.add_at(j, v, note=" (" + what + ")")
        return True

    def _fold_split(self, x, co, j, s, what):
        p, b = self.prog, self.f.bits
        lo = p.shl(p.mask(x, b - s), s)
        hi = p.sar(x, b - s)
        for pos, v in ((j, lo), (j + 1, hi)):
            self.add_at(pos, p.mulc(v, co, note=" (" + what + ")") if co != 1 else v,
                        note=" (" + what + ")")
        return True

    def _fold_after_carry(self, x, co, j, s, what):
        for pos in (j, j + 1):
            if pos < len(self.c) and self.c[pos] is not None and pos + 1 < len(self.c):
                t = self.carry(pos, force=False)
                if t is not None:
                    self.add_at(pos + 1, t)
        if s:
            return self._fold_split(x, co, j, s, what)
        return self._fold_unsplit(x, co, j, s, what)


def fold_high(prog, f, cols, what):
    """Fold the columns at or above 2^power into the limbs, from the top down (a fold may
    land at k again); leaves cols.c[0 .. limbs)."""
    n, b = f.limbs, f.bits
    for k in range(len(cols.c) - 1, n - 1, -1):
        guard = 0
        while cols.c[k] is not None:
            x, cols.c[k] = cols.c[k], None
            cols.fold(x, k * b, "%s column %d" % (what, k))
            guard += 1
            if guard > 8:
                raise BoundError("%s %s: column %d does not shrink" % (f.name, what, k))
    del cols.c[n:]


def parallel_round(prog, f, cols, what):
    """One round of simultaneous carries on cols.c[0 .. limbs): each limb keeps its low bits
    and passes the rest to the next at once, the top limb's folded back by the terms."""
    n = f.limbs
    hs = []
    for i, x in enumerate(cols.c):
        w = f.top_bits if i == n - 1 else f.bits
        hs.append(prog.sar(x, w))
        cols.c[i] = prog.mask(x, w)
    for i in range(n - 1):
        cols.add_at(i + 1, hs[i])
    cols.fold(hs[n - 1], f.power, "%s top limb" % what)
    del cols.c[n:]


def reduce_columns(prog, f, cols, what):
    """Columns 0..len-1 of any size -> limbs 0..limbs-1 with the final chains; returns Vals."""
    n = f.limbs
    fold_high(prog, f, cols, what)                  # 1.
    # 2. native limbs with negative terms (P-256, P-384): + k p so every column is >= 0
    if not f.signed and min(x.lo for x in cols.c) < 0:
        kp, _ = multiple_of_p(f, [max(0, -x.lo) for x in cols.c])
        for i in range(n):
            cols.c[i] = prog.addc(cols.c[i], kp[i], note=" (+ k p)")
    # 3. carry chain, top split at 2^power, fold, then carry only what is still too wide
    return settle(prog, f, cols, what)


def settle(prog, f, cols, what, first=0):
    """Rounds of carries on cols.c[0 .. limbs): round 0 (from `first` = 0) carries every limb
    into the next and the top limb, split at 2^power, back by the terms; later rounds carry
    only the limbs still too wide (_loose).  Returns the limbs as i64 Vals."""
    n = f.limbs
    for rnd in range(first, 4):
        for i in range(n - 1):
            if rnd == 0 or _loose(f, cols.c[i]):
                t = cols.carry(i)
                if t is not None:
                    cols.add_at(i + 1, t)
        if rnd and not _loose(f, cols.c[n - 1], top=True):
            break
        t = cols.carry(n - 1, width=f.top_bits, force=(rnd == 0 and f.top_bits < f.bits))
        if t is None:
            break
        if f.signed or all(co > 0 for _, co in f.terms):
            cols.fold(t, f.power, "%s top limb" % what)
        else:                              # t >= 0 times c's non-negative digits
            for i, d in enumerate(limbs_of(f.c, f)):
                if d:
                    cols.add_at(i, prog.mulc(t, d) if d != 1 else t,
                                note=" (%s top limb: fold into limb %d)" % (what, i))
        del cols.c[n:]
    else:
        raise BoundError("%s %s: the top limb does not settle in 4 rounds" % (f.name, what))
    return [prog.narrow(v) for v in cols.c]


class TwoChains:
    """The carries of a product as two chains side by side (OpenSSL's fe51 reduce): chain B
    carries column 0 into 1, ..., s-1 into s = limbs // 2; chain A starts at column s, whose
    low bits it keeps before B's carry arrives, and carries s into s+1, ..., the top column
    back by the single term into limb 0, then limb 0 into 1, while B carries what it added
    into limb s on into s+1.  Each chain is about half the limbs long, where one chain
    through every column (_carry_in, then the top fold and limb 0 again) is all of them and
    two more; the instructions are the same carries.  Each carry enters its column after
    that column's products, so the products never wait for a chain."""

    def __init__(self, f, cols):
        self.f, self.cols, self.s = f, cols, f.limbs // 2

    @staticmethod
    def check(f, F):
        """Refuse a field this schedule does not cover (it folds one term, into limb 0, and
        is written for the premultiplied products)."""
        if (len(f.terms) != 1 or f.terms[0][0] != 0 or f.signed or f.limbs < 4 or F is None
                or _half_pairs(f, F)):
            raise BoundError("%s: carries='two chains' needs native limbs (at least 4), one "
                             "reduction term into limb 0 (not %s) and products that fold by "
                             "premultiplied operands" % (f.name, f.terms))

    def _carry(self, i):
        n = self.f.limbs
        t = self.cols.carry(i, width=self.f.top_bits if i == n - 1 else None)
        if t is None:
            return
        if i == n - 1:
            self.cols.fold(t, self.f.power, "top limb")
        else:
            self.cols.add_at(i + 1, t, note=" (carry into limb %d)" % (i + 1))

    def column(self, t):
        """Column t's products are summed."""
        s, n = self.s, self.f.limbs
        if 1 <= t < s:
            self._carry(t - 1)                          # B
        elif t == s + 1:
            self._carry(s)                              # A starts
            self._carry(s - 1)                          # B reaches limb s
        elif t > s + 1:
            self._carry(t - 1)                          # A
        if t == n - 1:
            self._carry(n - 1)                          # A: the top column folds into limb 0
            self._carry(s)                              # B: limb s into s + 1
            self._carry(0)                              # A: limb 0 into 1

    def finish(self, what):
        return settle(self.cols.prog, self.f, self.cols, what, first=1)


def _loose(f, x, top=False):
    """Wider than the slack a reduced limb may keep: 2^(bits+1) native, 2^bits signed."""
    w = f.top_bits if top else f.bits
    if f.signed:
        return not (-(1 << w) <= x.lo and x.hi < (1 << w))
    return not (0 <= x.lo and x.hi < (1 << (w + 1)))


def load(prog, f, arr, bound):
    return [prog.load(arr, i, lo, hi) for i, (lo, hi) in enumerate(bound)]


def store(prog, arr, vals):
    for i, v in enumerate(vals):
        prog.store(arr, i, v)
    return [(v.lo, v.hi) for v in vals]


# -- the operations: each returns (prog, output bound) --------------------------------------
PREMUL_MAX = 1 << 8


def fold_matrix(f):
    """For a native layout whose terms all fold onto limb boundaries with small factors:
    {k: {t: coeff}} for k = limbs .. 2 limbs - 2, the product columns above 2^power written
    as sums of columns t < limbs (2^(bits k) = sum coeff 2^(bits t) mod p), every coeff
    positive and below PREMUL_MAX.  Curve25519 5 x 51: {5: {0: 19}, ...}; Curve448 8 x 56:
    {14: {2: 1, 6: 2}, ...}.  None where a fold lands inside a limb with a large shift (P-256
    and P-384 native, whose terms sit 20 and 24 bits into a limb) or a term is negative: those
    fold the columns after the product instead."""
    if f.signed:
        return None
    n, b = f.limbs, f.bits
    out = {}
    for k in range(n, 2 * n - 1):
        vec = {k: 1}
        while max(vec) >= n:
            pos = max(vec)
            c = vec.pop(pos)
            for pw, co in f.terms:
                j, sh = divmod(pos * b - f.power + pw, b)
                vec[j] = vec.get(j, 0) + c * (co << sh)
        if any(c <= 0 or c >= PREMUL_MAX for c in vec.values()):
            return None
        out[k] = dict(sorted(vec.items()))
    return out


def _carry_in(cols, t):
    """Column t, its products summed, takes the carry out of column t - 1 (the first chain,
    interleaved with the products: one 128-bit column live at a time, and the products of
    column t do not wait for the chain)."""
    if t:
        c = cols.carry(t - 1)
        if c is not None:
            cols.add_at(t, c, note=" (carry into column %d)" % t)


def mul(f, ib, square=False):
    prog = Prog(f.name, "square" if square else "mul", wide=f.bits > 32)
    a = load(prog, f, "a", ib)
    bb = a if square else load(prog, f, "b", ib)
    n = f.limbs
    F = fold_matrix(f)
    if f.carries not in ("chain", "two chains"):
        raise BoundError("%s: unknown carry schedule %r" % (f.name, f.carries))
    if f.carries == "two chains":
        TwoChains.check(f, F)
    if F is not None and _half_pairs(f, F):
        return _mul_pairs(prog, f, a, bb, F, square)
    if F is not None:
        # fold before multiplying: a product whose column is at or above 2^power takes a
        # premultiplied operand (ref10 / donna's 19 b_j; Curve448's 2 b_j) and lands in the
        # low column directly, so no column above the limbs is ever formed
        cols = Cols(prog, f, n)
        chains = TwoChains(f, cols) if f.carries == "two chains" else None
        times = _premultiplied(prog)
        a2 = [prog.shl(x, 1) for x in a[:-1]] if square else None
        # each column adds its a_0 product last, a_1's before it, ...: a product's last
        # limbs are 0 and 1 (the top fold, then limb 0's carry), so where one product feeds
        # the next (a ladder, a chained benchmark) those inputs arrive last and now pass one
        # ADD/ADC before their column's carry instead of four (Curve25519 on AMD Zen 5:
        # chained mul 38.3 -> 36.0 core cycles, the same work)
        for t in range(n):
            for i in reversed(range(n)):
                for j in range(i if square else 0, n):
                    k = i + j
                    c = 1 if k == t else F.get(k, {}).get(t)
                    if not c:
                        continue
                    x = a[i] if (not square or i == j) else a2[i]
                    cols.add_at(t, prog.mul(x, times(j, c, bb[j])), note=" (column %d)" % t)
            if chains:
                chains.column(t)
            else:
                _carry_in(cols, t)
        out = chains.finish(prog.what) if chains else reduce_columns(prog, f, cols, prog.what)
        return prog, store(prog, "r", out)
    cols = Cols(prog, f, 2 * n - 1)
    if square:
        a2 = [prog.shl(x, 1) for x in a[:-1]]
        for i in range(n):
            cols.add_at(2 * i, prog.mul(a[i], a[i]))
            for j in range(i + 1, n):
                cols.add_at(i + j, prog.mul(a2[i], a[j]), note=" (column %d)" % (i + j))
    else:
        for k in range(2 * n - 1):
            for i in range(max(0, k - n + 1), min(k, n - 1) + 1):
                cols.add_at(k, prog.mul(a[i], bb[k - i]), note=" (column %d)" % k)
    out = reduce_columns(prog, f, cols, prog.what)
    return prog, store(prog, "r", out)


def _premultiplied(prog):
    """times(j, c, v): v (operand limb j) times the fold coefficient c, made once per (j, c)
    (c = 1: v itself)."""
    pre = {}

    def times(j, c, v):
        if c == 1:
            return v
        if (j, c) not in pre:
            pre[(j, c)] = prog.narrow(prog.mulc(v, c, note=" (limb %d times %d)" % (j, c)))
        return pre[(j, c)]
    return times


def _half_pairs(f, F):
    """Curve448's shape (2^448 = 2^224 + 1 in 8 x 56): an even limb count whose every fold of
    a column k lands on limbs congruent to k mod limbs/2 -- so limbs s and s + limbs/2 take
    their products from the same columns, and the two halves carry side by side."""
    h = f.limbs // 2
    return (f.limbs % 2 == 0 and f.power == f.limbs * f.bits and
            all(t % h == k % h for k, v in F.items() for t in v))


def _mul_pairs(prog, f, a, bb, F, square):
    """Product by limb pairs (s, s + h), h = limbs/2, s = 0 .. h-1: the products of columns
    s+3h, s+2h, s+h, s go straight into the limbs they fold onto (F: a column-8 product into
    limbs 0 and 4, one product used twice; a column-12 product into limb 0, and once more
    with a premultiplied 2 a_j into limb 4 -- 40 products for a Curve448 square, 70 for a
    product), so no column above the limbs is formed and a pair keeps two accumulators live;
    the carry out of each limb of the pair enters the next pair last, so the products of a
    pair never wait for it: two carry chains of h steps side by side (the structure of
    OpenSSL's curve448 arch_64 gf_mul), the top limb's carry folded back and the limbs it
    lands on settled by one more round."""
    n, h = f.limbs, f.limbs // 2
    a2 = [prog.shl(x, 1) for x in a[:-1]] if square else None
    cols = Cols(prog, f, n)
    pending, times = {}, _premultiplied(prog)
    for s in range(h):
        for k in reversed(range(s, 2 * n - 1, h)):
            for i in range(n):
                for j in range(i if square else 0, n):
                    if i + j != k:
                        continue
                    x = a[i] if (not square or i == j) else a2[i]
                    prods = {}
                    for t, c in (F[k].items() if k >= n else ((k, 1),)):
                        if c not in prods:
                            prods[c] = prog.mul(x, times(j, c, bb[j]), note=" (column %d)" % k)
                        cols.add_at(t, prods[c], note=" (column %d into limb %d)" % (k, t))
        for t in (s, s + h):
            if t in pending:
                cols.add_at(t, pending.pop(t), note=" (carry into limb %d)" % t)
        for t in (s, s + h):
            c = cols.carry(t, width=f.top_bits if t == n - 1 else None)
            if c is None:
                continue
            if t < n - 1:
                if t + 1 == h:
                    cols.add_at(h, c, note=" (carry into limb %d)" % h)
                else:
                    pending[t + 1] = c
            else:
                cols.fold(c, f.power, "%s top limb" % prog.what)
    out = settle(prog, f, cols, prog.what, first=1)
    return prog, store(prog, "r", out)


def carry(f, ib):
    prog = Prog(f.name, "carry", wide=f.bits > 32)
    cols = Cols(prog, f, f.limbs)
    cols.c = load(prog, f, "a", ib)
    out = reduce_columns(prog, f, cols, "carry")
    return prog, store(prog, "r", out)


def add(f, ib):
    prog = Prog(f.name, "add", wide=False)
    a, b = load(prog, f, "a", ib), load(prog, f, "b", ib)
    return prog, store(prog, "r", [prog.add(x, y) for x, y in zip(a, b)])


def sub(f, ib, sb, kp):
    """a - b (signed layouts) or a + kp - b (native: kp a multiple of p with kp_i >= b_i)."""
    prog = Prog(f.name, "sub", wide=False)
    a, b = load(prog, f, "a", ib), load(prog, f, "b", sb)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if kp:
            x = prog.addc(x, kp[i])
        out.append(prog.sub(x, y))
    return prog, store(prog, "r", out)


def neg(f, ib, kp):
    prog = Prog(f.name, "neg", wide=False)
    a = load(prog, f, "a", ib)
    out = []
    for i, x in enumerate(a):
        out.append(prog.sub(prog.const(kp[i] if kp else 0), x))
    return prog, store(prog, "r", out)


def canonical(prog, f, vals):
    """Weakly reduced limbs (what carry returns) -> the canonical digits of value mod p,
    constant time."""
    n, b = f.limbs, f.bits
    lows = [v.lo for v in vals]
    if min(lows) < 0:                       # make every limb non-negative: + k p
        kp, _ = multiple_of_p(f, [max(0, -lo) for lo in lows])
        vals = [prog.addc(v, kp[i]) for i, v in enumerate(vals)]
    cdig = limbs_of(f.c, f)
    cols = Cols(prog, f, n)
    cols.c = list(vals)
    for rnd in range(6):
        for i in range(n - 1):
            t = cols.carry(i, floor=True)
            if t is not None:
                cols.add_at(i + 1, t)
        top = cols.c[n - 1]
        if sum(v.hi << (b * i) for i, v in enumerate(cols.c)) < 2 * f.p:
            break
        t = prog.sar(top, f.top_bits)
        cols.c[n - 1] = prog.mask(top, f.top_bits)
        for i, d in enumerate(cdig):        # + t * c with c's non-negative digits
            if d:
                cols.add_at(i, prog.mulc(t, d) if d != 1 else t)
    else:
        raise BoundError("%s carry_reduce: value not below 2p after 6 rounds" % f.name)
    vmax = sum(v.hi << (b * i) for i, v in enumerate(cols.c))
    if vmax >= 2 * f.p or min(v.lo for v in cols.c) < 0:
        raise BoundError("%s carry_reduce: cannot prove 0 <= value < 2p (max %s)"
                         % (f.name, bits((0, vmax))))
    v = [prog.narrow(x) for x in cols.c]
    # d = v - p with floor borrows; keep v where d < 0
    pd = limbs_of(f.p, f)
    d, t = [], None
    for i in range(n):
        x = prog.addc(v[i], -pd[i])
        if t is not None:
            x = prog.add(x, t)
        if i < n - 1:
            t = prog.sar(x, b)
            x = prog.mask(x, b)
        d.append(x)
    out = [prog.selneg(d[n - 1], v[i], d[i]) for i in range(n)]
    # in range: both candidates are digits when chosen; the hull says no more than that
    why = "v < 2p, so the one chosen of v and v - p is in [0, p): canonical digits"
    out = [prog.assume(x, 0, (1 << (f.top_bits if i == n - 1 else b)) - 1, why)
           for i, x in enumerate(out)]
    return out


def canon(f, ib):
    """The second half of carry_reduce (the first is carry): limbs within carry's output
    bound `ib` -> canonical digits."""
    prog = Prog(f.name, "canon", wide=f.bits > 32)
    return prog, store(prog, "r", canonical(prog, f, load(prog, f, "a", ib)))


def pack(f, ib):
    """The second half of encode (the first is carry_reduce): canonical digits -> bytes."""
    prog = Prog(f.name, "pack", wide=False)
    prog.stmts.append(("bytes_out", None, "out", f, load(prog, f, "a", ib)))
    return prog, None


def decode(f):
    prog = Prog(f.name, "decode", wide=False)
    v = [prog.bytes_in("in", f, i) for i in range(f.limbs)]
    if f.signed:                            # centre the digits as the JDK's setValue+reduce
        cols = Cols(prog, f, f.limbs)
        cols.c = v
        for i in range(f.limbs - 1):
            t = cols.carry(i)
            if t is not None:
                cols.add_at(i + 1, t)
        v = cols.c
    return prog, store(prog, "r", v)


def cswap(f):
    prog = Prog(f.name, "conditional_swap", wide=False)
    full = [(-(1 << 63), (1 << 63) - 1)] * f.limbs
    a, b = load(prog, f, "a", full), load(prog, f, "b", full)
    ra = [prog.select("swap", x, y) for x, y in zip(a, b)]
    rb = [prog.select("swap", y, x) for x, y in zip(a, b)]
    store(prog, "a", ra)
    store(prog, "b", rb)
    return prog, None


def cassign(f):
    prog = Prog(f.name, "conditional_assign", wide=False)
    full = [(-(1 << 63), (1 << 63) - 1)] * f.limbs
    a, b = load(prog, f, "a", full), load(prog, f, "b", full)
    store(prog, "a", [prog.select("set", x, y) for x, y in zip(a, b)])
    return prog, None


def mul_small(f, ib, k):
    """r = a * k for a small constant k (the ladder's a24): one column per limb, reduced."""
    prog = Prog(f.name, "mul_small", wide=f.bits > 32)
    a = load(prog, f, "a", ib)
    cols = Cols(prog, f, f.limbs)
    cols.c = [prog.mulc(x, k, note=" (limb %d times %d)" % (i, k)) for i, x in enumerate(a)]
    out = reduce_columns(prog, f, cols, "mul_small")
    return prog, store(prog, "r", out)


def mul_ifma(f, ib, split=1, reduce="parallel", order="up"):
    """r = a b mod p with 52-bit multiplier halves (AVX-512 IFMA), every value in 64 bits:
    column C_k = 2^(52 - bits) sum hi52(a_i b_j) over i + j = k - 1 (the high half lands
    52 bits up: one limb and 52 - bits bits) + sum lo52(a_i b_j) over i + j = k, then the
    columns above 2^power folded and the chains of reduce_columns.  `split`: the accumulators
    each column's halves are spread over (a schedule choice: latency against instructions;
    0: the low halves accumulate onto the doubled high sum, one chain);
    `reduce`: "parallel" rounds of simultaneous carries (latency) or reduce_columns' "chain"
    (limbs closer to 2^bits).
    `order` (with "parallel"): "up" forms the columns from 0, folding each column above
    2^power as it completes (what a fold lands on above 2^power, already folded, folds
    again: Curve448's 2^224 term, columns 14..17 landing on 9..13, costs a second split fold
    each); "down" forms them from the top column, so every fold lands on a column not yet
    formed -- each column folds once, and a column's chains start from what the folds left
    in it (no zeroed accumulator, no add; a fold landing 52 - bits bits or more into a
    column enters its high-half chain, whose shift completes the fold's): fewer
    instructions, the same sums.
    The operands must be proven below 2^52 (IFMA reads 52 bits), and so must the result be
    for it to enter the next product: the caller checks that against its contract."""
    if f.signed or f.bits > 52:
        raise BoundError("%s: IFMA products need native limbs of at most 52 bits" % f.name)
    prog = Prog(f.name, "mul_ifma", wide=False)
    a, b = load(prog, f, "a", ib), load(prog, f, "b", ib)
    n, sh = f.limbs, 52 - f.bits
    cols = Cols(prog, f, 2 * n)
    pairs = [[(i, k - i) for i in range(max(0, k - n + 1), min(k, n - 1) + 1)]
             for k in range(2 * n - 1)] + [[]]
    def chains(terms, half, k, start=None):
        """sum of the halves over `terms` (and `start`, the first chain's initial value), as
        `split` interleaved accumulators added at the end: IFMA's latency is paid once per
        chain, not once per product."""
        accs = [start] + [None] * (max(split, 1) - 1)
        for m, (i, j) in enumerate(terms):
            x = prog.mul52(a[i], b[j], half, note=" (column %d)" % k)
            c = m % max(split, 1)
            accs[c] = x if accs[c] is None else prog.add(accs[c], x, note=" (column %d)" % k)
        out = None
        for x in accs:
            if x is not None:
                out = x if out is None else prog.add(out, x, note=" (column %d)" % k)
        return out

    if order not in ("up", "down") or (order == "down" and (reduce == "chain" or split == 0)):
        raise BoundError("%s mul_ifma: order %r needs reduce='parallel' and split >= 1"
                         % (f.name, order))
    # order "down": a fold term landing s >= 52 - bits bits into column j goes in shifted by
    # s - (52 - bits) only, added to what starts column j's high-half chain, whose shift by
    # 52 - bits completes it; where that overflows it splits at bits + 52 - bits - s bits, the
    # high part landing 52 - bits bits into column j + 1, so it too goes into that column's
    # high-half chain (Curve448: 2^448 = 1 + 2^224, x 2^(50 (k - 9) + 2) goes in as x, and
    # x 2^(50 (k - 5) + 26) as (x mod 2^26) 2^24 and x >> 26 -- no fold shift by 2)
    quarter = [None] * (2 * n)

    def seed(x, j, s, k):
        note = " (mul_ifma column %d: fold into limb %d)" % (k, j)
        v = prog.shl(x, s - sh, note=note) if s > sh else x
        quarter[j] = v if quarter[j] is None else prog.add(quarter[j], v, note=note)
        return True

    def seed_split(x, j, s, k):
        t = f.bits + sh - s
        seed(prog.mask(x, t), j, s, k)
        seed(prog.sar(x, t), j + 1, sh, k)
        return True

    def fold_down(x, k):
        rest = []
        for pw, co in f.terms:
            j, s = divmod(k * f.bits - f.power + pw, f.bits)
            if sh and s >= sh and co == 1 and j + 1 < k:
                if prog.attempt(seed, x, j, s, k) is not None:
                    continue
                if prog.attempt(seed_split, x, j, s, k) is not None:
                    continue
            rest.append((pw, co))
        cols.fold(x, k * f.bits, "mul_ifma column %d" % k, terms=rest)

    for k in (range(2 * n) if order == "up" else range(2 * n - 1, -1, -1)):
        # the high halves of column k - 1's products, doubled (when bits = 51), plus the low
        # halves of column k
        h = chains(pairs[k - 1] if k else [], "hi", k, start=quarter[k])
        if h is not None and sh:
            h = prog.shl(h, sh)
        if order == "down":
            # what the folds of the columns above left here starts the low halves' chain
            lo = chains(pairs[k], "lo", k, start=cols.c[k])
            cols.c[k] = h if lo is None else lo if h is None else prog.add(lo, h)
        elif split == 0:
            # one chain: the low halves accumulate onto the doubled high sum (fewest
            # instructions, longest latency)
            acc = h
            for i, j in pairs[k]:
                x = prog.mul52(a[i], b[j], "lo", note=" (column %d)" % k)
                acc = x if acc is None else prog.add(acc, x, note=" (column %d)" % k)
            cols.c[k] = acc
        else:
            lo = chains(pairs[k], "lo", k)
            cols.c[k] = h if lo is None else lo if h is None else prog.add(h, lo)
        if order == "down":
            # complete (every fold onto it came from a column above): folds once, onto
            # columns below, not yet formed
            if k >= n:
                x, cols.c[k] = cols.c[k], None
                fold_down(x, k)
        elif reduce != "chain":
            # a complete column at or above 2^power folds at once (and what lands on a
            # position already folded folds again): fewer 64-bit columns live at a time
            while any(cols.c[q] is not None for q in range(n, k + 1)):
                q = max(q for q in range(n, k + 1) if cols.c[q] is not None)
                x, cols.c[q] = cols.c[q], None
                cols.fold(x, q * f.bits, "mul_ifma column %d" % q)
    if reduce == "chain":
        out = reduce_columns(prog, f, cols, "mul_ifma")
    else:
        # the high columns folded, then rounds of parallel carries until every limb is
        # proven below 2^52 (what the next product needs): one round is a few instructions of
        # latency where a chain is one carry per limb after another
        fold_high(prog, f, cols, "mul_ifma")
        for _ in range(3):
            parallel_round(prog, f, cols, "mul_ifma")
            if all(0 <= x.lo and x.hi < 1 << 52 for x in cols.c):
                break
        else:
            raise BoundError("%s mul_ifma: limbs not below 2^52 after 3 rounds" % f.name)
        out = cols.c
    return prog, store(prog, "r", out)


def carry_parallel(f, ib):
    """One round of simultaneous carries: every limb keeps its low bits and passes the rest
    to the next at once (the top limb's folded back by the terms) -- a latency of one step
    instead of a chain, leaving limbs a few units above 2^bits."""
    prog = Prog(f.name, "carry_parallel", wide=False)
    cols = Cols(prog, f, f.limbs)
    cols.c = load(prog, f, "a", ib)
    parallel_round(prog, f, cols, "carry_parallel")
    return prog, store(prog, "r", cols.c)
