"""A straight-line program over 64- and 128-bit signed integers whose every value carries a
proven interval [lo, hi] -- the substrate of the field kernels (KERNELS.md §4).

Every operation computes the interval of its result from its operands' and checks that it
fits the result's kind (i64 or i128); if it does not, it raises BoundError naming the
program, the operation and the bound.  Callers that can repair an overflow (insert a carry,
split a fold) catch the error inside `attempt()`, which rolls the program back.

    prog = Prog("c25519_r51", "mul")
    a0 = prog.load("a", 0, 0, 2**54)          # limb a[0] in [0, 2^54]
    t = prog.mul(a0, b0)                      # i128 by the bounds, [0, 2^108]

Kinds are chosen by the bounds: a result is i64 when it fits (and the program allows only
i64, `wide=False`, for the 26/28-bit representations), else i128.  The statements are
tuples (op, dst, args...) read by the emitters (c_emit.py) and by `run()`, a Python
interpreter used by the generator's self-test.
"""

I64 = (-(1 << 63), (1 << 63) - 1)
I128 = (-(1 << 127), (1 << 127) - 1)
RANGE = {"i64": I64, "i128": I128}


class BoundError(ValueError):
    """A description or an operation whose bounds cannot be proven: one line, no traceback."""


def bits(x):
    """Bits of the magnitude bound of an interval or integer, for messages: 2^57.3."""
    import math
    m = max(abs(x[0]), abs(x[1])) if isinstance(x, tuple) else abs(x)
    return "0" if m == 0 else "2^%.1f" % math.log2(m)


class Val:
    __slots__ = ("name", "kind", "lo", "hi")

    def __init__(self, name, kind, lo, hi):
        self.name, self.kind, self.lo, self.hi = name, kind, lo, hi

    @property
    def iv(self):
        return (self.lo, self.hi)

    def __repr__(self):
        return "%s:%s[%s]" % (self.name, self.kind, bits(self.iv))


class Prog:
    def __init__(self, field, what, wide=True):
        self.field = field
        self.what = what
        self.wide = wide
        self.stmts = []
        self.n = 0
        self.inputs = []           # (array, index, lo, hi)

    # -- bookkeeping ----------------------------------------------------------------------
    def _where(self):
        return "%s %s" % (self.field, self.what)

    def _new(self, op, lo, hi, args, want=None, note=""):
        kind = want
        if kind is None:
            kind = "i64" if I64[0] <= lo and hi <= I64[1] else "i128"
        if kind == "i128" and not self.wide:
            raise BoundError("%s: %s%s reaches %s, beyond int64 (this representation keeps "
                             "64-bit limbs)" % (self._where(), op, note, bits((lo, hi))))
        r = RANGE[kind]
        if lo < r[0] or hi > r[1]:
            raise BoundError("%s: %s%s reaches %s, beyond %s"
                             % (self._where(), op, note, bits((lo, hi)),
                                "int64" if kind == "i64" else "int128"))
        self.n += 1
        v = Val("t%d" % self.n, kind, lo, hi)
        self.stmts.append((op, v) + tuple(args))
        return v

    def attempt(self, fn, *a, **kw):
        """fn(*a, **kw), or None with the program unchanged if it raises BoundError."""
        mark, n = len(self.stmts), self.n
        try:
            return fn(*a, **kw)
        except BoundError:
            del self.stmts[mark:]
            self.n = n
            return None

    def live(self):
        """The statements whose value reaches a store (dead ones -- a doubled top limb no
        product needs -- dropped), in order; what the emitters print."""
        need, out = set(), []
        for st in reversed(self.stmts):
            if st[1] is None or st[1].name in need or st[0] == "load":
                out.append(st)
                need.update(x.name for x in st[2:] if isinstance(x, Val))
                if st[0] == "bytes_out":
                    need.update(x.name for x in st[4])
        return out[::-1]

    # -- operations -----------------------------------------------------------------------
    def load(self, arr, i, lo, hi):
        self.inputs.append((arr, i, lo, hi))
        return self._new("load", lo, hi, (arr, i), want="i64")

    def const(self, c):
        return self._new("const", c, c, (c,))

    def add(self, x, y, note=""):
        return self._new("add", x.lo + y.lo, x.hi + y.hi, (x, y), note=note)

    def sub(self, x, y, note=""):
        return self._new("sub", x.lo - y.hi, x.hi - y.lo, (x, y), note=note)

    def addc(self, x, c, note=""):
        return self._new("addc", x.lo + c, x.hi + c, (x, c), note=note)

    def mul(self, x, y, note=""):
        p = (x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi)
        return self._new("mul", min(p), max(p), (x, y), note=note)

    def mul52(self, x, y, half, note=""):
        """The low (half "lo": bits 0-51) or high (half "hi": bits 52-103) 52 bits of the
        product of two values in [0, 2^52) -- one VPMADD52LUQ/HUQ (AVX-512 IFMA reads only
        bits 0-51 of its operands, so the bounds must prove both below 2^52)."""
        for v in (x, y):
            if v.lo < 0 or v.hi >= 1 << 52:
                raise BoundError("%s: IFMA operand %s%s reaches %s, outside [0, 2^52)"
                                 % (self._where(), v.name, note, bits(v.iv)))
        if half == "lo":
            hi = min((1 << 52) - 1, x.hi * y.hi)
        else:
            hi = (x.hi * y.hi) >> 52
        return self._new("mul52" + half, 0, hi, (x, y), want="i64", note=note)

    def mulc(self, x, c, note=""):
        p = (x.lo * c, x.hi * c)
        return self._new("mulc", min(p), max(p), (x, c), note=note)

    def shl(self, x, k, note=""):
        return self._new("shl", x.lo << k, x.hi << k, (x, k), note=note)

    def sar(self, x, k):
        return self._new("sar", x.lo >> k, x.hi >> k, (x, k))

    def mask(self, x, k):
        """x mod 2^k (two's complement AND): [0, 2^k), or x itself when already inside."""
        if 0 <= x.lo and x.hi < (1 << k):
            return x
        return self._new("mask", 0, (1 << k) - 1, (x, k))

    def narrow(self, x):
        if x.kind == "i64":
            return x
        return self._new("narrow", x.lo, x.hi, (x,), want="i64", note=" (to int64)")

    def select(self, cond, x, y):
        """cond (a 0/1 input) ? y : x, without a branch: the result lies in the hull."""
        return self._new("select", min(x.lo, y.lo), max(x.hi, y.hi), (cond, x, y), want="i64")

    def selneg(self, s, x, y):
        """s < 0 ? x : y, without a branch (a mask from s's sign): the hull of x and y."""
        return self._new("selneg", min(x.lo, y.lo), max(x.hi, y.hi), (s, x, y))

    def assume(self, x, lo, hi, why):
        """x, with the tighter bound [lo, hi] that a value argument (not interval arithmetic)
        proves; `why` says which.  No code; run() checks it on every value."""
        if x.lo >= lo and x.hi <= hi:
            return x
        return self._new("assume", lo, hi, (x, why), want=x.kind)

    def bytes_in(self, arr, f, i):
        """Limb i of the little-endian bytes arr[0 .. f.nbytes), bits at or above 2^power
        ignored: [0, 2^bits), the top limb [0, 2^top_bits)."""
        w = f.top_bits if i == f.limbs - 1 else f.bits
        return self._new("bytes_in", 0, (1 << w) - 1, (arr, f, i), want="i64")

    def store(self, arr, i, x):
        x = self.narrow(x)
        self.stmts.append(("store", None, arr, i, x))


def run(prog, env):
    """Interpret `prog` with Python integers.  env: {array: list}; returns env updated with
    the stored limbs.  Each value is checked against its proven interval."""
    vals = {}
    out = {k: list(v) for k, v in env.items()}

    def g(x):
        return vals[x.name]

    for st in prog.stmts:
        op, dst = st[0], st[1]
        a = st[2:]
        if op == "load":
            v = out[a[0]][a[1]]
        elif op == "const":
            v = a[0]
        elif op == "add":
            v = g(a[0]) + g(a[1])
        elif op == "sub":
            v = g(a[0]) - g(a[1])
        elif op == "addc":
            v = g(a[0]) + a[1]
        elif op == "mul":
            v = g(a[0]) * g(a[1])
        elif op == "mulc":
            v = g(a[0]) * a[1]
        elif op == "mul52lo":
            v = (g(a[0]) * g(a[1])) & ((1 << 52) - 1)
        elif op == "mul52hi":
            v = (g(a[0]) * g(a[1])) >> 52
        elif op == "shl":
            v = g(a[0]) << a[1]
        elif op == "sar":
            v = g(a[0]) >> a[1]
        elif op == "mask":
            v = g(a[0]) & ((1 << a[1]) - 1)
        elif op == "narrow":
            v = g(a[0])
        elif op == "select":
            v = g(a[2]) if out[a[0]] else g(a[1])
        elif op == "selneg":
            v = g(a[1]) if g(a[0]) < 0 else g(a[2])
        elif op == "assume":
            v = g(a[0])
        elif op == "bytes_in":
            f, i = a[1], a[2]
            x = int.from_bytes(bytes(out[a[0]]), "little") & ((1 << f.power) - 1)
            v = (x >> (f.bits * i)) & ((1 << f.bits) - 1)
        elif op == "bytes_out":
            f, vs = a[1], a[2]
            x = sum(g(t) << (f.bits * i) for i, t in enumerate(vs))
            out[a[0]] = list(x.to_bytes(f.nbytes, "little"))
            continue
        elif op == "store":
            out[a[0]][a[1]] = g(a[2])
            continue
        else:
            raise AssertionError(op)
        if not dst.lo <= v <= dst.hi:
            raise AssertionError("%s %s: %s = %d outside its proven [%d, %d]"
                                 % (prog.field, prog.what, op, v, dst.lo, dst.hi))
        vals[dst.name] = v
    return out
