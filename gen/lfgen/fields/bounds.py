"""The contract of a field's kernels, derived from its description and proven by building
every program (ops.py) under it:

    R         reduced bound: the hull of what mul, square, carry and decode return, a fixed
              point (R is what products accept with no addition, and products return R)
    max_adds  the largest A such that products accept operands in (1 + A) R: every column,
              fold and carry of mul and square stays inside int64 (26/28-bit layouts) or
              int128 (native), searched by bisection up to MAX_ADDS_CAP -- and such that
              `add` can build (1 + A) R (its operands within half of L); for a field
              described with word_carries, also such that every carry of the products
              (each `sar` and `mulc` result) fits one int64 word
    M         (1 + max_adds) R, the bound mul and square accept
    L         what add, sub's minuend, carry, carry_reduce and encode accept: |limb| <= 2^62
              (native layouts: [0, 2^62])
    S         native layouts: what sub subtracts and neg negates, 2 R (a sum of two reduced)
    kp        native layouts only: the multiple of p that sub and neg add, with every limb at
              least S's, so that a + kp - b >= 0 limb by limb for any b within S

A description that cannot be made safe (no A >= 0, or R not a fixed point in a few rounds)
fails generation with ops' BoundError naming the operation and the bound.
"""

from . import ops
from .ir import BoundError

MAX_ADDS_CAP = 1 << 12


class Contract:
    pass


def _products(f, R, A):
    M = ops.scale(R, A + 1)
    pm, om = ops.mul(f, M)
    ps, os_ = ops.mul(f, M, square=True)
    return M, (pm, om), (ps, os_)


_CACHE = {}


def contract(f):
    """derive(f), once per field per run (the kernels and the C files share it)."""
    if f.name not in _CACHE:
        c = derive(f)
        if f.a24:
            c.mul_small = mul_small(f, c, f.a24)
        _CACHE[f.name] = c
    return _CACHE[f.name]


def text(b):
    """[(lo, hi)] per limb -> 'limbs 0-3 [0, 0x7ffff]; limb 4 [...]' (exact, grouped)."""
    out, i = [], 0
    while i < len(b):
        j = i
        while j + 1 < len(b) and b[j + 1] == b[i]:
            j += 1
        lo, hi = b[i]
        rng = "[%s, %s]" % (_num(lo), _num(hi))
        out.append(("limb %d %s" % (i, rng)) if i == j else ("limbs %d-%d %s" % (i, j, rng)))
        i = j + 1
    return "; ".join(out)


def _num(x):
    return str(x) if abs(x) < 1 << 16 else "%s0x%x" % ("-" if x < 0 else "", abs(x))


def derive(f):
    base = ops.centred(f) if f.signed else ops.digits(f)
    L = ops.add_input(f)
    _, out_carry = ops.carry(f, L)
    _, out_dec = ops.decode(f)
    R = ops.hull(base, out_carry, out_dec)

    def safe(A, R):
        try:
            _, (pm, om), (ps, os_) = _products(f, R, A)
        except BoundError:
            return None
        if f.word_carries and not (word_carries(pm) and word_carries(ps)):
            return None
        return ops.hull(R, om, os_)

    for _ in range(6):
        if safe(0, R) is None:
            _products(f, R, 0)               # raises the BoundError that says why
        lo, hi = 0, MAX_ADDS_CAP             # largest A with safe(A): bisection
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if safe(mid, R) is not None:
                lo = mid
            else:
                hi = mid - 1
        Rn = safe(lo, R)
        if Rn == R:
            break
        R = Rn
    else:
        raise BoundError("%s: the reduced bound is not a fixed point after 6 rounds" % f.name)
    # and no more than `add` can build: summing 1 + A reduced elements takes an operand of
    # ceil((1 + A) / 2) R at best, which must be within add's input bound (half of L)
    add_in = [(a // 2, b // 2) for a, b in L]
    while lo and not ops.within(ops.scale(R, -(-(lo + 1) // 2)), add_in):
        lo -= 1
    c = Contract()
    c.R, c.max_adds, c.L = R, lo, L
    c.M, c.mul, c.square = _products(f, R, lo)
    c.carry = ops.carry(f, L)
    if not ops.within(c.carry[1], R):
        raise BoundError("%s carry: output outside R" % f.name)
    c.kp = None
    if not f.signed:
        S = ops.scale(R, 2)                  # what sub subtracts: a sum of two reduced
        c.kp, c.kp_exp = ops.multiple_of_p(f, [hi for _, hi in S])
        # the minuend may be anything in L less the room kp takes
        a_in = [(0, ops.I62 - k) for k in c.kp]
        c.sub = ops.sub(f, a_in, S, c.kp)
        c.neg = ops.neg(f, S, c.kp)
        c.sub_in = (a_in, S)
        c.neg_in = S
    else:
        half = [(-ops.I62 // 2, ops.I62 // 2)] * f.limbs
        c.sub = ops.sub(f, half, half, None)
        c.neg = ops.neg(f, half, None)
        c.sub_in = (half, half)
        c.neg_in = half
    c.add = ops.add(f, [(lo // 2, hi // 2) for lo, hi in L])
    c.add_in = [(lo // 2, hi // 2) for lo, hi in L]
    # carry_reduce = carry then canon, encode = carry_reduce then pack: each half proven on
    # the bound the previous one returns
    c.canon = ops.canon(f, c.carry[1])
    c.carry_reduce = (None, c.canon[1])
    c.pack = ops.pack(f, c.canon[1])
    c.decode = ops.decode(f)
    c.conditional_swap = ops.cswap(f)
    c.conditional_assign = ops.cassign(f)
    return c


def word_carries(prog):
    """Whether every carry of a product program is one int64 word: its `sar` results (the
    carries) and `mulc` results (the folded top carry, and the premultiplied operands)."""
    return all(st[1].kind == "i64" for st in prog.stmts if st[0] in ("sar", "mulc"))


def mul_small(f, c, k):
    """The a24 product under the contract: a within M; its output bound is its own (a
    formula carries it where a later operation needs less)."""
    return ops.mul_small(f, c.M, k)
