"""Formulas over field elements -- the Montgomery ladder step and the inversion chain --
compiled to C calls of one field's kernels, with a carry inserted exactly where an operand's
bound would break the contract of the kernel it enters (JDK-8295010's "reduce if required",
decided at generation time instead of counted at run time).

Every element carries its per-limb bound; `mul`, `sqr`, `add`, `sub`, `mul_small` check
their operands against bounds.Contract and, where an operand is outside, emit
`fe_carry(x, x)` first (recorded in `inserted`, printed in the generated header).  A
formula whose operand is outside even what `carry` accepts fails generation.
"""

from . import ops
from .ir import BoundError, bits


class E:
    def __init__(self, name, bound, const=False):
        self.name, self.bound, self.const = name, list(bound), const


class Formula:
    def __init__(self, f, c, what):
        self.f, self.c, self.what = f, c, what
        self.lines = []
        self.temps = []
        self.inserted = []

    def param(self, name, bound, const=False):
        return E(name, bound, const)

    def tmp(self, bound=None):
        e = E("t%d" % len(self.temps), bound or self.c.R)
        self.temps.append(e.name)
        return e

    def _fit(self, e, bound, op):
        if ops.within(e.bound, bound):
            return e
        if e.const or not ops.within(e.bound, self.c.L):
            raise BoundError("%s %s: operand %s of %s reaches %s, outside what %s and carry "
                             "accept" % (self.f.name, self.what, e.name, op,
                                         bits((0, max(max(abs(l), abs(h)) for l, h in e.bound))),
                                         op))
        self.lines.append("fe_carry(%s, %s);" % (e.name, e.name))
        self.inserted.append("%s before %s" % (e.name, op))
        e.bound = list(self.c.carry[1])
        if not ops.within(e.bound, bound):
            raise BoundError("%s %s: %s still outside %s's bound after a carry"
                             % (self.f.name, self.what, e.name, op))
        return e

    # products go through the pointers the formula's caller passes (the dispatched kernels
    # where the field has assembly), the rest are the static C functions of the same file
    CALL = {"mul": "mul", "square": "sqr"}

    def _emit(self, op, dst, *args):
        self.lines.append("%s(%s);" % (self.CALL.get(op, "fe_" + op),
                                       ", ".join([dst.name] + [str(getattr(a, "name", a))
                                                               for a in args])))
        return dst

    def mul(self, a, b, dst=None):
        self._fit(a, self.c.M, "mul")
        self._fit(b, self.c.M, "mul")
        d = dst or self.tmp()
        d.bound = list(self.c.mul[1])
        return self._emit("mul", d, a, b)

    def sqr(self, a, dst=None):
        self._fit(a, self.c.M, "square")
        d = dst or self.tmp()
        d.bound = list(self.c.square[1])
        return self._emit("square", d, a)

    def mul_small(self, a, k, dst=None):
        self._fit(a, self.c.M, "mul_small")
        d = dst or self.tmp()
        d.bound = list(self.c.mul_small[1])
        return self._emit("mul_small", d, a)

    def add(self, a, b, dst=None):
        self._fit(a, self.c.add_in, "add")
        self._fit(b, self.c.add_in, "add")
        d = dst or self.tmp()
        d.bound = [(x[0] + y[0], x[1] + y[1]) for x, y in zip(a.bound, b.bound)]
        return self._emit("add", d, a, b)

    def sub(self, a, b, dst=None):
        self._fit(a, self.c.sub_in[0], "sub")
        self._fit(b, self.c.sub_in[1], "sub")
        d = dst or self.tmp()
        kp = self.c.kp or [0] * self.f.limbs
        d.bound = [(x[0] + k - y[1], x[1] + k - y[0]) for x, y, k in zip(a.bound, b.bound, kp)]
        return self._emit("sub", d, a, b)

    def copy(self, dst, src):
        self.lines.append("memcpy(%s, %s, sizeof(int64_t) * %d);" % (dst.name, src.name,
                                                                       self.f.limbs))
        dst.bound = list(src.bound)
        return dst

    def sqr_n(self, a, n, dst=None):
        d = self.sqr(a, dst)
        if n > 1:
            self.lines.append("for (int i = 1; i < %d; i++)" % n)
            self.lines.append("\tsqr(%s, %s);" % (d.name, d.name))
        return d


def ladder_step(f, c):
    """RFC 7748 §5, one step of the Montgomery ladder on (x2 : z2), (x3 : z3), x1 = u:
    A = x2 + z2, AA = A^2, B = x2 - z2, BB = B^2, E = AA - BB, C = x3 + z3, D = x3 - z3,
    DA = D A, CB = C B, x3 = (DA + CB)^2, z3 = x1 (DA - CB)^2, x2 = AA BB,
    z2 = E (AA + a24 E)."""
    F = Formula(f, c, "ladder_step")
    x2, z2, x3, z3 = (F.param(n, c.R) for n in ("x2", "z2", "x3", "z3"))
    x1 = F.param("x1", c.R, const=True)
    A = F.add(x2, z2)
    AA = F.sqr(A)
    B = F.sub(x2, z2)
    BB = F.sqr(B)
    Ee = F.sub(AA, BB)
    C = F.add(x3, z3)
    D = F.sub(x3, z3)
    DA = F.mul(D, A)
    CB = F.mul(C, B)
    F.sqr(F.add(DA, CB), dst=x3)
    F.mul(x1, F.sqr(F.sub(DA, CB)), dst=z3)
    F.mul(AA, BB, dst=x2)
    F.mul(Ee, F.add(AA, F.mul_small(Ee, f.a24)), dst=z2)
    for e in (x2, z2, x3, z3):
        if not ops.within(e.bound, c.R):
            raise BoundError("%s ladder_step: %s leaves R" % (f.name, e.name))
    return F


def invert(f, c):
    """r = a^(p-2) = 1/a (0 for a = 0), by Fermat: the exponent's runs of ones from
    x_k = a^(2^k - 1) (x_2k = x_k^(2^k) x_k, x_k+1 = x_k^2 a), squarings between runs.
    The exponent is public: the sequence of operations does not depend on a."""
    F = Formula(f, c, "invert")
    a = F.param("a", c.R, const=True)
    e = f.p - 2
    s = bin(e)[2:]
    runs = []
    for ch in s:
        if runs and runs[-1][0] == ch:
            runs[-1][1] += 1
        else:
            runs.append([ch, 1])
    memo = {1: a}

    def get(k):
        if k in memo:
            return memo[k]
        if k % 2 == 0:
            h = get(k // 2)
            t = F.sqr_n(h, k // 2)
            memo[k] = F.mul(t, h, dst=t)
        else:
            h = get(k - 1)
            t = F.sqr(h)
            memo[k] = F.mul(t, a, dst=t)
        return memo[k]

    assert runs[0][0] == "1"
    acc = F.tmp()
    F.copy(acc, get(runs[0][1]))
    for ch, n in runs[1:]:
        F.sqr_n(acc, n, dst=acc)
        if ch == "1":
            F.mul(acc, get(n), dst=acc)
    F.result = acc
    return F
