#!/usr/bin/python3
"""Known-answer vectors and the stated contract of the dispatched EC field products
(fe_<field>_mul, fe_<field>_square; the list is tests/fe_kernels.h), computed with Python
integers.

Fault this is designed to catch: a field product and the GMP oracle of the Check suite
(tests/harness/fe.c) agreeing on a wrong answer -- the answers here are (a * b) mod p on
Python integers, p written out below from its definition, nothing of the kernels' column
sums, premultiplied operands or carry chains.

    /usr/bin/python3 tests/kat/gen_fe.py OUT.h

writes a C header (data only; the types are in tests/kat/kat.h) with, per field:
  - p (hex), the radix and the bounds the kernels state (generated/fields/<field>.c and each
    .S header): M, the limbs mul/square accept, and the limbs each returns -- taken from the
    generator's contract (gen/lfgen/fields/bounds.py), the same numbers those headers print;
  - vectors: every pair of edge elements (0, 1, 2, p-1, p-2, p, p+1, 2^power-1, (p-1)/2,
    2^(power-1), every limb at the top of M, at the top of M minus one, alternating 0 / top
    of M, only the top limb at the top of M, the lowest limb only, random below p, random
    limbs within M) and random pairs (a == b in a quarter: square vectors too); the answer is
    the fully reduced a * b mod p in canonical digits (each below 2^bits, the top one holding
    the rest).
Deterministic: fixed seed, Python's Mersenne Twister, no clock.
"""

import os
import random
import re
import sys

SEED = 20261130
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# p of each field from its definition (the field name's prefix)
PRIMES = {
    "c25519": 2**255 - 19,
    "c448": 2**448 - 2**224 - 1,
    "p256": 2**256 - 2**224 + 2**192 + 2**96 - 1,
    "p384": 2**384 - 2**128 - 2**96 + 2**32 - 1,
    "p521": 2**521 - 1,
}

rng = random.Random(SEED)


def kernels():
    """(field, limbs, op) from the X(...) lines of tests/fe_kernels.h."""
    with open(os.path.join(ROOT, "tests", "fe_kernels.h")) as f:
        text = f.read()
    out = re.findall(r"^\s*X\((\w+),\s*(\d+),\s*(mul|square)\)", text, re.M)
    if not out:
        sys.exit("gen_fe.py: no X(field, limbs, op) lines in tests/fe_kernels.h")
    return [(f, int(n), op) for f, n, op in out]


def contract(field):
    """(limbs, bits, power, M, mul out, square out) as the generator states them."""
    sys.path.insert(0, os.path.join(ROOT, "gen"))
    from lfgen.fields import bounds, desc
    f = desc.BY_NAME[field]
    c = bounds.contract(f)
    return f, c


def digits(v, n, bits):
    """canonical digits: n - 1 of `bits` bits, the top one holding the rest"""
    out = [(v >> (bits * i)) & ((1 << bits) - 1) for i in range(n - 1)]
    return out + [v >> (bits * (n - 1))]


def value(limbs, bits):
    return sum(x << (bits * i) for i, x in enumerate(limbs))


class Pool:
    def __init__(self):
        self.items = []

    def add(self, seq):
        off = len(self.items)
        self.items.extend(seq)
        return off


def field_data(field, limbs, L):
    prefix = field.split("_")[0]
    p = PRIMES[prefix]
    f, c = contract(field)
    assert f.limbs == limbs, "%s: tests/fe_kernels.h says %d limbs, the description %d" % (
        field, limbs, f.limbs)
    assert f.p == p, "%s: the description's p differs from the definition" % field
    bits, power = f.bits, f.power
    M = c.M
    top = [hi for _, hi in M]

    def rnd_below_p():
        return digits(rng.getrandbits(power) % p, limbs, bits)

    def rnd_in_M():
        return [rng.randint(lo, hi) for lo, hi in M]

    edges = [
        ("0", digits(0, limbs, bits)), ("1", digits(1, limbs, bits)),
        ("2", digits(2, limbs, bits)), ("p-1", digits(p - 1, limbs, bits)),
        ("p-2", digits(p - 2, limbs, bits)), ("p", digits(p, limbs, bits)),
        ("p+1", digits(p + 1, limbs, bits)),
        ("2^%d-1" % power, digits(2**power - 1, limbs, bits)),
        ("(p-1)/2", digits((p - 1) // 2, limbs, bits)),
        ("2^%d" % (power - 1), digits(2**(power - 1), limbs, bits)),
        ("every limb at the top of M", list(top)),
        ("every limb at the top of M minus 1", [h - 1 for h in top]),
        ("limbs alternating 0 and the top of M", [h if i % 2 else 0 for i, h in enumerate(top)]),
        ("only the top limb, at the top of M", [0] * (limbs - 1) + [top[-1]]),
        ("only limb 0, at the top of M", [top[0]] + [0] * (limbs - 1)),
        ("random below p", rnd_below_p()),
        ("random limbs within M", rnd_in_M()),
    ]
    for name, x in edges:
        assert all(lo <= v <= hi for v, (lo, hi) in zip(x, M)), "%s: edge %s outside M" % (
            field, name)
    vecs = []
    for na, a in edges:
        for nb, b in edges:
            r = digits(value(a, bits) * value(b, bits) % p, limbs, bits)
            vecs.append(("%s: a = %s, b = %s" % (field, na, nb), int(na == nb), L.add(a),
                         L.add(b), L.add(r)))
    for i in range(48):
        a = rnd_below_p() if i % 2 else rnd_in_M()
        b = a if i % 4 == 0 else (rnd_in_M() if i % 3 else rnd_below_p())
        r = digits(value(a, bits) * value(b, bits) % p, limbs, bits)
        vecs.append(("%s: random%s" % (field, ", a == b" if a is b else ""), int(a is b),
                     L.add(a), L.add(b), L.add(r)))
    return dict(field=field, limbs=limbs, bits=bits, power=power, p=p, M=M, mul=c.mul[1],
                square=c.square[1], vecs=vecs)


def emit(out):
    L = Pool()
    fields = []
    for field, limbs, _ in kernels():
        if field not in [d["field"] for d in fields]:
            fields.append(field_data(field, limbs, L))
    p = out.write
    p("/* Generated by tests/kat/gen_fe.py (seed %d) -- do not edit. */\n" % SEED)
    p("/* Answers computed with Python integers; bounds as the generator states them; types "
      "in tests/kat/kat.h. */\n\n")
    p("static const int64_t kat_fe_limbs[%d] = {\n" % max(1, len(L.items)))
    for i in range(0, len(L.items), 4):
        p("\t" + " ".join("INT64_C(%d)," % x for x in L.items[i:i + 4]) + "\n")
    p("};\n\nstatic const struct kat_fe kat_fe[] = {\n")
    first = 0
    for d in fields:
        d["first"] = first
        for what, sq, a, b, r in d["vecs"]:
            p('\t{ "%s", %d, %d, %d, %d },\n' % (what, sq, a, b, r))
        first += len(d["vecs"])
    p("};\n\nstatic const struct kat_fe_field kat_fe_fields[] = {\n")

    def bnd(b):
        return "{ " + ", ".join("{ INT64_C(%d), INT64_C(%d) }" % lh for lh in b) + " }"

    for d in fields:
        p('\t{ "%s", %d, %d, %d, "%x",\n\t  %s,\n\t  %s,\n\t  %s,\n\t  %d, %d },\n'
          % (d["field"], d["limbs"], d["bits"], d["power"], d["p"], bnd(d["M"]),
             bnd(d["mul"]), bnd(d["square"]), d["first"], len(d["vecs"])))
    p("};\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_fe.py OUT.h")
    with open(sys.argv[1] + ".tmp", "w") as f:
        emit(f)
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
