#!/usr/bin/python3
"""Known-answer vectors for the generated EC field kernels (generated/fields/*.c), computed
with Python integers.

Fault this is designed to catch: a field kernel whose answer is wrong, or right but outside
the bound its header documents (so that the next kernel, which relies on that bound, may
overflow), for inputs at the very edge of the contract -- the corners of M for mul/square,
of L for carry/carry_reduce/encode, of A for add, of the sub/neg inputs -- where a missing
carry or a split fold shows; and the lazy-addition budget MAX_ADDS (a sum of MAX_ADDS + 1
reduced elements multiplied) being claimed larger than what the code survives.

    /usr/bin/python3 tests/kat/gen_fields.py OUT.h

writes a C header (data only; the types are in tests/kat/kat.h) that tests/test_fields.c
compiles in.  Deterministic: fixed seed, Python's Mersenne Twister, no clock.

Independence: the expected values are Python integers from p and the limb layout
(value = sum limb_i 2^(bits i)): a b mod p, a^(p-2) mod p, the RFC 7748 ladder step on
integers mod p, ...  Only the *bounds* (R, M, L, A, the sub/neg inputs and every output
bound) are taken from the generator (gen/lfgen/fields/bounds.py): they are the contract
under test.  Neither the generator's IR interpreter (ir.run) nor the generated C computes
anything here.

Per field, cases of each op (counts printed in the header):
  mul, square    edge values (0, 1, 2, p-1, p, p+1, p-2, (p-1)/2, 2^power-1, 2^(bits k)
                 and 2^(bits k)-1) as digits and (signed layouts) balanced digits; corners
                 of M (all lo, all hi, alternating, random corners, one limb hi), random
                 limbs inside M, a == b
  add            corners of A, random inside A, edge values, a == b
  sub, neg       corners of the inputs (a hi / b lo and a lo / b hi, ...), random, a == b
  carry, carry_reduce, encode
                 edge values as digits (values in [p, 2^power) among them), corners of L,
                 L corners moved to a value = 0, 1, p-1 mod p (the final subtraction lands
                 exactly on p), random inside L
  decode         edge values, all-0xff bytes, values >= p, bits above 2^power set, random
                 (the expected value is the exact integer, bits >= 2^power dropped)
  invert         0 (-> 0), 1, p-1, 2, p (-> 0), random, corners of R
  mul_small      (curves) corners of M, edge values, random
  ladder_step    (curves) RFC 7748 5's step on random reduced elements, corners of R, the
                 ladder's first state (1 : 0), (u : 1), zeros
  chain          MAX_ADDS additions: acc = e0, then acc = acc + e1 MAX_ADDS times, for both
                 operands; then mul, square (and mul_small) of the sums; e0, e1 at the hi
                 corner of R (the sum is then exactly the hi corner of M), the lo corner,
                 mixed, random reduced
"""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "gen"))

from lfgen.fields import bounds, desc  # noqa: E402  (bounds only: the contract under test)

SEED = 20261130
OPS = ["mul", "square", "add", "sub", "neg", "carry", "carry_reduce", "encode", "decode",
       "invert", "mul_small", "ladder_step", "chain"]
# bound slots, in the order of enum kat_fld_bound (tests/kat/kat.h)
BOUNDS = ["R", "M", "L", "A", "SUB_A", "SUB_B", "NEG", "OUT_MUL", "OUT_SQUARE", "OUT_ADD",
          "OUT_SUB", "OUT_NEG", "OUT_CARRY", "OUT_CARRY_REDUCE", "OUT_DECODE", "OUT_MUL_SMALL"]
N_RANDOM = 12


class FieldCases:
    def __init__(self, f, rng):
        self.f, self.rng = f, rng
        self.c = bounds.derive(f)
        c = self.c
        self.b = {"R": c.R, "M": c.M, "L": c.L, "A": c.add_in, "SUB_A": c.sub_in[0],
                  "SUB_B": c.sub_in[1], "NEG": c.neg_in, "OUT_MUL": c.mul[1],
                  "OUT_SQUARE": c.square[1], "OUT_ADD": c.add[1], "OUT_SUB": c.sub[1],
                  "OUT_NEG": c.neg[1], "OUT_CARRY": c.carry[1],
                  "OUT_CARRY_REDUCE": c.carry_reduce[1], "OUT_DECODE": c.decode[1],
                  "OUT_MUL_SMALL": (bounds.mul_small(f, c, f.a24)[1] if f.a24
                                    else [(0, 0)] * f.limbs)}
        self.cases = []     # (op, what, [input limbs or bytes], [expected ints], flag)

    # -- representations -----------------------------------------------------------------
    def val(self, limbs):
        return sum(x << (self.f.bits * i) for i, x in enumerate(limbs))

    def digits(self, v):
        f = self.f
        assert 0 <= v < 1 << (f.bits * f.limbs)
        return [(v >> (f.bits * i)) & ((1 << f.bits) - 1) for i in range(f.limbs - 1)] + \
            [v >> (f.bits * (f.limbs - 1))]

    def balanced(self, v):
        f, out = self.f, []
        for _ in range(f.limbs - 1):
            d = v & ((1 << f.bits) - 1)
            if d >= 1 << (f.bits - 1):
                d -= 1 << f.bits
            out.append(d)
            v = (v - d) >> f.bits
        return out + [v]

    def reps(self, v):
        """The digit form of v, and for signed layouts its balanced form."""
        out = [self.digits(v)]
        if self.f.signed:
            out.append(self.balanced(v))
        return out

    def within(self, limbs, bound):
        return all(lo <= x <= hi for x, (lo, hi) in zip(limbs, self.b[bound]))

    def edge_values(self):
        f, p = self.f, self.f.p
        vs = [0, 1, 2, p - 1, p - 2, p, p + 1, (p - 1) // 2, (1 << f.power) - 1,
              (1 << f.power) - 2, p + f.c - 1 if p + f.c - 1 < 1 << f.power else p]
        for k in range(1, f.limbs):
            vs += [1 << (f.bits * k), (1 << (f.bits * k)) - 1]
        return [v for v in vs if 0 <= v < 1 << f.power]

    def edge_reps(self, bound):
        out = []
        for v in self.edge_values():
            for r in self.reps(v):
                if self.within(r, bound):
                    out.append(("value %s" % self.vname(v), r))
        return out

    def vname(self, v):
        f, p = self.f, self.f.p
        names = {0: "0", 1: "1", 2: "2", p - 1: "p-1", p - 2: "p-2", p: "p", p + 1: "p+1",
                 (p - 1) // 2: "(p-1)/2", (1 << f.power) - 1: "2^%d-1" % f.power,
                 (1 << f.power) - 2: "2^%d-2" % f.power}
        if v in names:
            return names[v]
        for k in range(1, f.limbs):
            if v == 1 << (f.bits * k):
                return "2^%d" % (f.bits * k)
            if v == (1 << (f.bits * k)) - 1:
                return "2^%d-1" % (f.bits * k)
        return "p+%d" % (v - p) if v > p else hex(v)

    def corners(self, bound, n_random=4):
        bd = self.b[bound]
        n = self.f.limbs
        out = [("all lo of %s" % bound, [lo for lo, _ in bd]),
               ("all hi of %s" % bound, [hi for _, hi in bd]),
               ("alternating hi/lo of %s" % bound,
                [bd[i][i % 2] for i in range(n)]),
               ("alternating lo/hi of %s" % bound,
                [bd[i][1 - i % 2] for i in range(n)]),
               ("top limb hi of %s, rest 0" % bound,
                [0] * (n - 1) + [bd[-1][1]]),
               ("limb 0 hi of %s, rest 0" % bound, [bd[0][1]] + [0] * (n - 1))]
        for t in range(n_random):
            out.append(("random corner of %s" % bound,
                        [bd[i][self.rng.getrandbits(1)] for i in range(n)]))
        for what, l in out:
            assert self.within(l, bound), what
        return out

    def rand_in(self, bound, biased=False):
        bd, r = self.b[bound], self.rng
        out = []
        for lo, hi in bd:
            k = r.randrange(6) if biased else 5
            out.append([lo, hi, 0 if lo <= 0 <= hi else lo, lo + 1 if lo < hi else lo,
                        hi - 1 if lo < hi else hi, r.randint(lo, hi)][k])
        return out

    def rand_reduced(self):
        """A random value mod p in the digit (or balanced) form, inside R."""
        while True:
            r = self.reps(self.rng.randrange(self.f.p))[-1]
            if self.within(r, "R"):
                return r

    def add(self, op, what, ins, want, flag=0):
        self.cases.append((op, what, ins, want, flag))

    # -- the expected values -------------------------------------------------------------
    def m(self, x):
        return x % self.f.p

    def ladder(self, x2, z2, x3, z3, x1):
        """RFC 7748 section 5, one step (the loop body after the conditional swap)."""
        p, a24 = self.f.p, self.f.a24
        A = (x2 + z2) % p
        AA = A * A % p
        B = (x2 - z2) % p
        BB = B * B % p
        E = (AA - BB) % p
        C = (x3 + z3) % p
        D = (x3 - z3) % p
        DA = D * A % p
        CB = C * B % p
        return [AA * BB % p, E * (AA + a24 * E) % p,        # x2, z2
                (DA + CB) ** 2 % p, x1 * (DA - CB) ** 2 % p]  # x3, z3

    # -- the cases -----------------------------------------------------------------------
    def build(self):
        f, p, v = self.f, self.f.p, self.val
        rnd = self.rng
        # mul, square, mul_small: inside M
        ins = self.edge_reps("M") + self.corners("M") + \
            [("random in M", self.rand_in("M", biased=t % 2)) for t in range(N_RANDOM)]
        for t, (wa, a) in enumerate(ins):
            wb, b = ins[(t * 7 + 3) % len(ins)]
            self.add("mul", "%s x %s" % (wa, wb), [a, b], [self.m(v(a) * v(b))])
            self.add("square", wa, [a], [self.m(v(a) ** 2)])
            if f.a24:
                self.add("mul_small", wa, [a], [self.m(v(a) * f.a24)])
        hi = [h for _, h in self.b["M"]]
        lo = [l for l, _ in self.b["M"]]
        for wa, a, wb, b in (("hi", hi, "hi", hi), ("lo", lo, "lo", lo), ("hi", hi, "lo", lo)):
            self.add("mul", "corner %s of M x corner %s of M" % (wa, wb), [a, b],
                     [self.m(v(a) * v(b))])
        for t in range(4):
            a = self.rand_in("M", biased=True)
            self.add("mul", "a == b, random in M", [a, a], [self.m(v(a) ** 2)])
        # add: inside A
        ins = self.edge_reps("A") + self.corners("A") + \
            [("random in A", self.rand_in("A", biased=t % 2)) for t in range(N_RANDOM)]
        for t, (wa, a) in enumerate(ins):
            wb, b = ins[(t * 5 + 1) % len(ins)]
            self.add("add", "%s + %s" % (wa, wb), [a, b], [self.m(v(a) + v(b))])
        for t in range(3):
            a = self.rand_in("A", biased=True)
            self.add("add", "a == b, random in A", [a, a], [self.m(2 * v(a))])
        # sub, neg
        sa, sb = self.corners("SUB_A"), self.corners("SUB_B")
        ins = [(wa, a, wb, b) for (wa, a), (wb, b) in zip(sa, sb)]
        ins += [(wa, a, wb, b) for (wa, a), (wb, b) in zip(sa, reversed(sb))]
        ins += [("random in SUB_A", self.rand_in("SUB_A", biased=t % 2),
                 "random in SUB_B", self.rand_in("SUB_B", biased=t % 3 == 0))
                for t in range(N_RANDOM)]
        ins += [(wa, a, wb, b) for (wa, a) in self.edge_reps("SUB_A")[:8]
                for (wb, b) in self.edge_reps("SUB_B")[3:5]]
        for wa, a, wb, b in ins:
            self.add("sub", "%s - %s" % (wa, wb), [a, b], [self.m(v(a) - v(b))])
        for wa, a in self.edge_reps("SUB_B")[:6]:
            if self.within(a, "SUB_A"):
                self.add("sub", "a == b, %s" % wa, [a, a], [0])
        ins = self.edge_reps("NEG") + self.corners("NEG") + \
            [("random in NEG", self.rand_in("NEG", biased=t % 2)) for t in range(N_RANDOM)]
        for wa, a in ins:
            self.add("neg", wa, [a], [self.m(-v(a))])
        # carry, carry_reduce, encode: inside L
        ins = self.edge_reps("L") + self.corners("L") + \
            [("random in L", self.rand_in("L", biased=t % 2)) for t in range(N_RANDOM)]
        # corners of L moved to a value = t mod p (the final subtraction lands on p)
        L = self.b["L"]
        for target, tn in ((0, "0"), (1, "1"), (p - 1, "p-1")):
            for side in (0, 1):
                if side == 0:                       # lo corner: add the digits of delta
                    base, sign = [lo for lo, _ in L], 1
                else:                               # hi corner: subtract them
                    base, sign = [hi for _, hi in L], -1
                delta = (target - v(base)) % p if sign > 0 else (v(base) - target) % p
                d = self.digits(delta)
                l = [x + sign * y for x, y in zip(base, d)]
                assert self.within(l, "L") and self.m(v(l)) == target
                ins.append(("%s corner of L moved to %s mod p" % ("lo" if side == 0 else "hi",
                                                                  tn), l))
        for wa, a in ins:
            self.add("carry", wa, [a], [self.m(v(a))])
            self.add("carry_reduce", wa, [a], [self.m(v(a))])
            self.add("encode", wa, [a], [self.m(v(a))])
        # decode: bytes; the expected value is exact (bits >= 2^power dropped)
        nb, top = f.nbytes, (1 << f.power) - 1
        bvals = [("value %s" % self.vname(x), x) for x in self.edge_values()]
        bvals += [("all 0xff bytes", (1 << (8 * nb)) - 1),
                  ("2^power | p (bits above 2^power set)", (1 << (8 * nb)) - 1 - top + p)
                  if 8 * nb > f.power else ("p", p),
                  ("all 0x80 bytes", int.from_bytes(b"\x80" * nb, "little")),
                  ("all 0x7f bytes", int.from_bytes(b"\x7f" * nb, "little"))]
        bvals += [("random bytes", rnd.getrandbits(8 * nb)) for _ in range(N_RANDOM)]
        for what, x in bvals:
            self.add("decode", what, [x.to_bytes(nb, "little")], [x & top])
        # invert: inside R
        ins = self.edge_reps("R") + [("random reduced", self.rand_reduced())
                                     for _ in range(6)] + self.corners("R", 2)
        for wa, a in ins:
            x = self.m(v(a))
            self.add("invert", wa, [a], [pow(x, p - 2, p)])
        # the ladder step (curves): x2, z2, x3, z3, x1 inside R
        if f.a24:
            R = self.b["R"]
            his, los = [h for _, h in R], [l for l, _ in R]
            zero, one = self.digits(0), self.digits(1)
            steps = [("first step: (1 : 0), (u : 1)", [one, zero, None, one, None]),
                     ("all hi of R", [his] * 5), ("all lo of R", [los] * 5),
                     ("x2 = z2 = 0", [zero, zero, None, None, None]),
                     ("x3 = z3, hi/lo mixed", [his, los, his, his, his])]
            steps += [("random reduced", [None] * 5) for _ in range(8)]
            for what, xs in steps:
                xs = [x if x is not None else self.rand_reduced() for x in xs]
                if what.startswith("first"):
                    xs[4] = xs[2]                   # x3 = x1 = u
                ws = self.ladder(*[v(x) for x in xs])
                self.add("ladder_step", what, xs, ws)
        # chains of MAX_ADDS additions then products
        R = self.b["R"]
        his, los = [h for _, h in R], [l for l, _ in R]
        ma = self.c.max_adds
        chains = [("hi corner of R", his, his, his, his, 1),
                  ("lo corner of R", los, los, los, los, 2),
                  ("hi and lo corners of R", his, los, los, his, 0)]
        chains += [("random reduced", self.rand_reduced(), self.rand_reduced(),
                    self.rand_reduced(), self.rand_reduced(), 0) for _ in range(4)]
        for what, e0, e1, g0, g1, flag in chains:
            A = v(e0) + ma * v(e1)
            B = v(g0) + ma * v(g1)
            want = [self.m(A * B), self.m(A * A)] + ([self.m(A * f.a24)] if f.a24 else [])
            self.add("chain", "%d additions, %s" % (ma, what), [e0, e1, g0, g1], want, flag)
        return self


def c_i64(x):
    assert -(1 << 63) <= x < 1 << 63
    if -(1 << 31) < x < 1 << 31:
        return str(x)
    return "INT64_C(%d)" % x if x >= 0 else "(-INT64_C(%d))" % -x


def main(path):
    rng = random.Random(SEED)
    fields = [FieldCases(f, rng).build() for f in desc.FIELDS]
    limbs, bytes_ = [], []

    seen = {}

    def put_limbs(l):                 # pooled: equal operands share one copy
        key = ("l", tuple(l))
        if key not in seen:
            seen[key] = len(limbs)
            limbs.extend(l)
        return seen[key]

    def put_bytes(b):
        key = ("b", bytes(b))
        if key not in seen:
            seen[key] = len(bytes_)
            bytes_.extend(b)
        return seen[key]

    out = ["/* Generated by tests/kat/gen_fields.py -- do not edit. */",
           "#define KAT_FLD_NFIELDS %d" % len(fields)]
    frows, crows = [], []
    for fi, fc in enumerate(fields):
        f, c = fc.f, fc.c
        boffs = []
        for name in BOUNDS:
            flat = []
            for lo, hi in fc.b[name]:
                flat += [lo, hi]
            boffs.append(put_limbs(flat))
        kp = put_limbs(c.kp if c.kp else [0] * f.limbs)
        poff = put_bytes(f.p.to_bytes(f.nbytes, "little"))
        frows.append('\t{ "%s", %d, %d, %d, %d, %d, %d, %d, %d, %d, { %s } },'
                     % (f.name, f.limbs, f.bits, f.power, f.nbytes, int(f.signed),
                        int(f.bits > 32), c.max_adds, f.a24 or 0, poff,
                        ", ".join(str(o) for o in boffs)))
        counts = {}
        for op, what, ins, want, flag in fc.cases:
            counts[op] = counts.get(op, 0) + 1
            ioffs = [put_bytes(x) if isinstance(x, bytes) else put_limbs(x) for x in ins]
            woffs = [put_bytes(w.to_bytes(f.nbytes, "little")) for w in want]
            crows.append('\t{ %d, KAT_FLD_%s, %d, "%s", { %s }, { %s } },'
                         % (fi, op.upper(), flag, what.replace('"', "'"),
                            ", ".join(str(o) for o in ioffs) or "0",
                            ", ".join(str(o) for o in woffs)))
        out.append("/* %s: %s; kp at %d */" % (f.name, ", ".join("%s %d" % (o, counts.get(o, 0))
                                                                for o in OPS), kp))
    out.append("static const int64_t kat_fld_limbs[] = {")
    for i in range(0, len(limbs), 4):
        out.append("\t" + ", ".join(c_i64(x) for x in limbs[i:i + 4]) + ",")
    out.append("};")
    out.append("static const uint8_t kat_fld_bytes[] = {")
    for i in range(0, len(bytes_), 16):
        out.append("\t" + ", ".join("0x%02x" % x for x in bytes_[i:i + 16]) + ",")
    out.append("};")
    out.append("static const struct kat_fld_field kat_fld_fields[] = {")
    out += frows
    out.append("};")
    out.append("static const struct kat_fld_case kat_fld_cases[] = {")
    out += crows
    out.append("};")
    with open(path + ".tmp", "w") as fp:
        fp.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_fields.py OUT.h")
    main(sys.argv[1])
