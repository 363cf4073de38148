#!/usr/bin/python3
"""Known-answer vectors for the limbforge kernels, computed with Python integers.

Fault this is designed to catch: a kernel and the GMP oracle agreeing on a wrong answer
(e.g. the harness driving GMP or mpz wrongly, or a misread JDK contract) -- these answers come
from a second, unrelated arithmetic: Python's integers applied to the definitions below.

    /usr/bin/python3 tests/kat/gen_vectors.py OUT.h

writes a C header (data only; the types are in tests/kat/kat.h) that tests/test_kat.c
compiles in.  The output is a pure function of this file: a fixed seed, Python's
Mersenne Twister (getrandbits is stable across Python 3 versions), no clock, no hash order.
Running it twice gives the same bytes; `make test` regenerates it into build/<arch>/kat/.

The answers are computed from the definitions, with Python's arbitrary-precision integers
(nothing here transcribes a limbforge kernel or the Java loops):
  mpn_mul_1        {r,n} = a*b mod 2^(64n),          ret = a*b >> 64n
  mpn_addmul_1     {r,n} = (r + a*b) mod 2^(64n),    ret = (r + a*b) >> 64n
  mpn_sqr          {r,2n} = a*a
  bi_mul_add       window W = out[out_len-offset-len .. out_len-offset-1] (BE words),
                   S = W + in*k; window = S mod 2^(32 len), ret = S >> 32 len
                   (in place: `in` is the window itself)
  bi_square_to_len {z,2len} = x*x (BE words)
  mpn_mul          {r,an+bn} = a*b (an >= bn >= 1)
  mpn_montmul      {r,n} = a*b*pow(2^(64n), -1, N) % N, a, b < N, N odd;
                   n0inv = -pow(N, -1, 2^64) % 2^64
  bi_multiply_to_len {z,xlen+ylen} = x*y (BE words; "same": y is x)
  p256_mul_mont    {r,4} = a*b*pow(2^256, -1, P) % P, P = 2^256 - 2^224 + 2^192 + 2^96 - 1,
                   a, b < P ("sqr": b is a, the vector also serves p256_sqr_mont)
  conditional_assign  a = b if set else a, n limbs
  p256_mont_mult   {r,5} = a*b*pow(2^260, -1, P) % P in 52-bit limbs, a, b < P ("sqr": b is
                   a, also a p256_mont_square vector; p256_mont_mult_x8 runs them 8 at a
                   time, vector i in lane i mod 8)
"""

import random
import sys

SEED = 20261129
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
EDGE64 = [0, 1, 2, 1 << 31, M32, 1 << 32, 1 << 63, M64 - 1, M64]
EDGE32 = [0, 1, 2, (1 << 31) - 1, 1 << 31, M32 - 1, M32, 1 << 16, (1 << 16) - 1]

rng = random.Random(SEED)


def le_limbs(v, n):
    return [(v >> (64 * i)) & M64 for i in range(n)]


def le_value(limbs):
    return sum(x << (64 * i) for i, x in enumerate(limbs))


def be_words(v, n):
    return [(v >> (32 * (n - 1 - i))) & M32 for i in range(n)]


def be_value(words):
    v = 0
    for w in words:
        v = (v << 32) | w
    return v


def limbs(n, pat):
    if pat == "random":
        return [rng.getrandbits(64) for _ in range(n)]
    if pat == "ones":
        return [M64] * n
    if pat == "lattice":
        return [rng.choice(EDGE64 + [rng.getrandbits(64)]) for _ in range(n)]
    if pat == "topbit":
        return [0] * (n - 1) + [1 << 63] if n else []
    if pat == "7f":
        return [M64] * (n - 1) + [M64 >> 1] if n else []
    raise ValueError(pat)


def words(n, pat):
    if pat == "random":
        return [rng.getrandbits(32) for _ in range(n)]
    if pat == "ones":
        return [M32] * n
    if pat == "lattice":
        return [rng.choice(EDGE32 + [rng.getrandbits(32)]) for _ in range(n)]
    if pat == "topbit":
        return [1 << 31] + [0] * (n - 1) if n else []
    raise ValueError(pat)


class Pool:
    def __init__(self):
        self.items = []

    def add(self, seq):
        off = len(self.items)
        self.items.extend(seq)
        return off


L = Pool()  # uint64_t
W = Pool()  # uint32_t
SMALL = list(range(0, 41))
BIG = [64, 65, 127, 128, 129, 130, 256, 513]

mul1 = []
for addmul in (0, 1):
    for n in SMALL + BIG:
        for pat in (["random", "ones", "lattice", "topbit"] if n <= 40 else ["random", "ones"]):
            a = limbs(n, pat)
            r = limbs(n, "ones" if pat == "ones" else "random")
            b = {"random": rng.getrandbits(64), "ones": M64, "topbit": M64,
                 "lattice": rng.choice(EDGE64)}[pat]
            s = le_value(a) * b + (le_value(r) if addmul else 0)
            mul1.append((pat, addmul, n, b, L.add(a), L.add(r), L.add(le_limbs(s, n)),
                         s >> (64 * n)))

sqr = []
for n in SMALL + BIG:
    for pat in (["random", "ones", "lattice", "7f"] if n <= 40 else ["random", "ones"]):
        a = limbs(n, pat)
        sqr.append((pat, n, L.add(a), L.add(le_limbs(le_value(a) ** 2, 2 * n))))

mul_add = []
for ln in SMALL + BIG:
    configs = [("random", ln + 2, 0, 0), ("ones", ln + 2, 2, 0), ("lattice", ln, 0, 0),
               ("random", ln + 3, 1, 1)]
    if ln > 40:
        configs = configs[:2] + configs[3:]
    for pat, out_len, offset, inplace in configs:
        if offset >= out_len:  # precondition offset < out_len (len 0 only)
            continue
        out = words(out_len, pat)
        start = out_len - offset - ln
        if inplace:
            inw = out[start:start + ln]
        else:
            inw = words(ln, pat)
        k = {"random": rng.getrandbits(32), "ones": M32, "lattice": rng.choice(EDGE32)}[pat]
        s = be_value(out[start:start + ln]) + be_value(inw) * k
        res = list(out)
        res[start:start + ln] = be_words(s, ln)
        mul_add.append((pat + (" in place" if inplace else ""), out_len, offset, ln, k,
                        inplace, W.add(out), W.add(inw), W.add(res), s >> (32 * ln)))

square = []
for ln in SMALL[1:] + BIG:
    for pat in (["random", "ones", "lattice", "topbit"] if ln <= 40 else ["random", "ones"]):
        x = words(ln, pat)
        square.append((pat, ln, W.add(x), W.add(be_words(be_value(x) ** 2, 2 * ln))))

# appended after the vectors above so that their random draws stay the same
mul = []
MUL_PAIRS = [(a, b) for a in range(1, 13) for b in range(1, a + 1)] + \
    [(17, 17), (40, 40), (40, 1), (64, 17), (127, 1), (129, 128), (300, 79)]
for an, bn in MUL_PAIRS:
    for pat in (["random", "ones"] if an <= 12 or an == bn else ["random"]):
        a = limbs(an, pat)
        b = limbs(bn, pat)
        mul.append((pat, an, bn, L.add(a), L.add(b),
                    L.add(le_limbs(le_value(a) * le_value(b), an + bn))))

montmul = []
for n in list(range(1, 18)) + [31, 32, 33, 48, 63, 64, 65, 128]:
    R = 1 << (64 * n)
    for kind in ("random N", "all-ones N, a = b = N-1", "N = 2^(64n) - small",
                 "N = 1 mod 2^32"):
        if kind == "random N":
            N = rng.getrandbits(64 * n) | 1 | (1 << (64 * n - 1 - rng.randrange(8)))
        elif kind.startswith("all-ones"):
            N = R - 1
        elif kind.startswith("N = 2^"):
            N = R - 2 * rng.randrange(1, 5000) - 1
        else:
            N = (rng.getrandbits(64 * n) | (1 << (64 * n - 1))) & ~((1 << 32) - 1) | 1
        if kind.startswith("all-ones"):
            a = b = N - 1
        else:
            a = rng.getrandbits(64 * n) % N
            b = rng.getrandbits(64 * n) % N
        r = a * b * pow(R, -1, N) % N
        n0inv = -pow(N, -1, 1 << 64) % (1 << 64)
        montmul.append((kind, n, n0inv, L.add(le_limbs(N, n)), L.add(le_limbs(a, n)),
                        L.add(le_limbs(b, n)), L.add(le_limbs(r, n))))

mtl = []
MTL_PAIRS = [(x, y) for x in range(1, 13) for y in range(1, 13)] + \
    [(1, 127), (127, 1), (79, 300), (300, 79), (40, 40)]
for xl, yl in MTL_PAIRS:
    for pat in (["random", "ones"] if xl <= 12 else ["random"]):
        x = words(xl, pat)
        same = pat == "random" and xl == yl and xl % 3 == 0
        y = x if same else words(yl, pat)
        mtl.append((pat + (", x == y" if same else ""), xl, yl, int(same), W.add(x),
                    W.add(y), W.add(be_words(be_value(x) * be_value(y), xl + yl))))

P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_R = 2**256 % P256
P256_EDGES = [("0", 0), ("1", 1), ("2", 2), ("p-1", P256 - 1), ("p-2", P256 - 2),
              ("R mod p", P256_R), ("R^2 mod p", P256_R * P256_R % P256),
              ("2^192-1", 2**192 - 1), ("2^256-2^224-1", 2**256 - 2**224 - 1),
              ("2^255", 2**255), ("(p-1)/2", (P256 - 1) // 2)]
p256 = []
for na, va in P256_EDGES:
    for nb, vb in P256_EDGES:
        p256.append(("a = %s, b = %s" % (na, nb), int(va == vb), L.add(le_limbs(va, 4)),
                     L.add(le_limbs(vb, 4)),
                     L.add(le_limbs(va * vb * pow(2**256, -1, P256) % P256, 4))))
for i in range(64):
    va = rng.getrandbits(256) % P256
    vb = va if i % 4 == 0 else rng.getrandbits(256) % P256
    p256.append(("random" + (", sqr" if i % 4 == 0 else ""), int(va == vb),
                 L.add(le_limbs(va, 4)), L.add(le_limbs(vb, 4)),
                 L.add(le_limbs(va * vb * pow(2**256, -1, P256) % P256, 4))))

assign = []
for n in (1, 5, 10, 14, 16, 19, 33):
    for setv in (0, 1):
        a = [rng.getrandbits(64) for _ in range(n)]
        b = [rng.getrandbits(64) for _ in range(n)]
        assign.append(("n = %d, set = %d" % (n, setv), setv, n, L.add(a), L.add(b),
                       L.add(b if setv else a)))

M52 = 2**52 - 1
P256M_R = 2**260


def limbs52(v):
    return [(v >> (52 * j)) & M52 for j in range(5)]


P256M_EDGES = [("0", 0), ("1", 1), ("2", 2), ("p-1", P256 - 1), ("p-2", P256 - 2),
               ("2^256 mod p", 2**256 % P256), ("oneMont", 2**260 % P256),
               ("h = 2^520 mod p", 2**520 % P256),
               ("limbs 0..3 all ones", sum(M52 << (52 * j) for j in range(4)) +
                ((2**48 - 2**16 - 1) << 208)),
               ("2^255", 2**255), ("(p-1)/2", (P256 - 1) // 2)]
p256m = []
for na, va in P256M_EDGES:
    for nb, vb in P256M_EDGES:
        assert va < P256 and vb < P256
        p256m.append(("a = %s, b = %s" % (na, nb), int(va == vb), L.add(limbs52(va)),
                      L.add(limbs52(vb)),
                      L.add(limbs52(va * vb * pow(P256M_R, -1, P256) % P256))))
for i in range(79):
    va = rng.getrandbits(256) % P256
    vb = va if i % 4 == 0 else rng.getrandbits(256) % P256
    p256m.append(("random" + (", sqr" if i % 4 == 0 else ""), int(va == vb),
                  L.add(limbs52(va)), L.add(limbs52(vb)),
                  L.add(limbs52(va * vb * pow(P256M_R, -1, P256) % P256))))
assert len(p256m) % 8 == 0


def emit(out):
    p = out.write
    p("/* Generated by tests/kat/gen_vectors.py (seed %d) -- do not edit. */\n" % SEED)
    p("/* Answers computed with Python integers; types in tests/kat/kat.h. */\n\n")
    p("static const uint64_t kat_limbs[%d] = {\n" % max(1, len(L.items)))
    for i in range(0, len(L.items), 4):
        p("\t" + " ".join("UINT64_C(0x%016x)," % x for x in L.items[i:i + 4]) + "\n")
    p("};\n\nstatic const uint32_t kat_words[%d] = {\n" % max(1, len(W.items)))
    for i in range(0, len(W.items), 8):
        p("\t" + " ".join("0x%08xu," % x for x in W.items[i:i + 8]) + "\n")
    p("};\n\nstatic const struct kat_mul1 kat_mul1[] = {\n")
    for pat, addmul, n, b, a, r, ro, ret in mul1:
        p('\t{ "%s", %d, %d, UINT64_C(0x%016x), %d, %d, %d, UINT64_C(0x%016x) },\n'
          % (pat, addmul, n, b, a, r, ro, ret))
    p("};\n\nstatic const struct kat_sqr kat_sqr[] = {\n")
    for pat, n, a, r in sqr:
        p('\t{ "%s", %d, %d, %d },\n' % (pat, n, a, r))
    p("};\n\nstatic const struct kat_mul_add kat_mul_add[] = {\n")
    for pat, out_len, offset, ln, k, inplace, o, i, res, ret in mul_add:
        p('\t{ "%s", %d, %d, %d, 0x%08xu, %d, %d, %d, %d, 0x%08xu },\n'
          % (pat, out_len, offset, ln, k, inplace, o, i, res, ret))
    p("};\n\nstatic const struct kat_square kat_square[] = {\n")
    for pat, ln, x, z in square:
        p('\t{ "%s", %d, %d, %d },\n' % (pat, ln, x, z))
    p("};\n\nstatic const struct kat_mul kat_mul[] = {\n")
    for pat, an, bn, a, b, r in mul:
        p('\t{ "%s", %d, %d, %d, %d, %d },\n' % (pat, an, bn, a, b, r))
    p("};\n\nstatic const struct kat_montmul kat_montmul[] = {\n")
    for kind, n, n0inv, N, a, b, r in montmul:
        p('\t{ "%s", %d, UINT64_C(0x%016x), %d, %d, %d, %d },\n' % (kind, n, n0inv, N, a, b, r))
    p("};\n\nstatic const struct kat_mtl kat_mtl[] = {\n")
    for pat, xl, yl, same, x, y, z in mtl:
        p('\t{ "%s", %d, %d, %d, %d, %d, %d },\n' % (pat, xl, yl, same, x, y, z))
    p("};\n\nstatic const struct kat_p256 kat_p256[] = {\n")
    for what, sq, a, b, r in p256:
        p('\t{ "%s", %d, %d, %d, %d },\n' % (what, sq, a, b, r))
    p("};\n\nstatic const struct kat_assign kat_assign[] = {\n")
    for what, setv, n, a, b, r in assign:
        p('\t{ "%s", %d, %d, %d, %d, %d },\n' % (what, setv, n, a, b, r))
    p("};\n\nstatic const struct kat_p256 kat_p256m[] = {\n")
    for what, sq, a, b, r in p256m:
        p('\t{ "%s", %d, %d, %d, %d },\n' % (what, sq, a, b, r))
    p("};\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_vectors.py OUT.h")
    with open(sys.argv[1] + ".tmp", "w") as f:
        emit(f)
    import os
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
