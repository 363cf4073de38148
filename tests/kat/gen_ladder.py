#!/usr/bin/python3
"""Known-answer vectors for the ladder kernels x25519_ladder / x448_ladder and the four-lane
product fe_c25519_r51_mul_x4, computed with Python integers.

Fault this is designed to catch: a ladder kernel and the GMP ladder of the Check suite
(tests/harness/xdh.c) agreeing on a wrong answer.  The ladder below is RFC 7748 section 5
written out on Python integers (the conditional swap as a plain `if`, no limbs, no carries);
it is checked here against the RFC's section 5.2 vectors and its first iterated value
before any vector is written.  Nothing of the kernels' lanes, radix or products is used.

    /usr/bin/python3 tests/kat/gen_ladder.py OUT.h

writes a C header (data only; the types are in tests/kat/kat.h) with, per curve:
  - the RFC 7748 5.2 vectors (scalar, u, output), and the values after 1 and 1000 iterations
    of 5.2's iterated test (the 1000 from the RFC's text, not recomputed here);
  - ladder vectors: k (32 / 56 bytes, clamped), u as the kernel takes it (5 x 51 / 9 x 50-bit
    limbs, each limb up to 2^bits inclusive: the contract's input bound), and the ladder's
    projective (x2 : z2) and affine x2 / z2 (0 when z2 = 0) mod p in canonical digits.  u:
    0, 1, the base point, p - 1, p, p + 1, values in [p, 2^bits*limbs), limbs at the top of
    the bound (all, alternating, only the top, only limb 0), the points of small order
    (X25519: order 1, 2, 4 and the two of order 8; X448: 0, 1, p - 1 -- checked here to be
    small: 8 u resp. 4 u has z = 0), random; scalars: the smallest and largest clamped,
    alternating bits, 2^bits-1 + 2^low, random;
and for fe_c25519_r51_mul_x4 groups of four products, limb-major ([4 i + l]), operands with
limbs in [0, 2^52) (edges: 0, 1, p - 1, p, 2^255 - 1, every limb 2^52 - 1, every limb 2^51,
alternating, only the top / only limb 0 at 2^52 - 1, random below p, random limbs), every
pair of edges once across the lanes, then random groups; the answer a b mod p in canonical
digits; with the output bound the kernel states (the generator's own number, as in its .S
header).  Deterministic: fixed seed, Python's Mersenne Twister, no clock.
"""

import os
import random
import sys

SEED = 20261130 + 7748
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

rng = random.Random(SEED)

CURVES = [
    dict(name="x25519", p=2**255 - 19, a24=121665, bits=255, nbytes=32, limbs=5, radix=51,
         base=9,
         rfc=[("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
               "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
               "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
              ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
               "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
               "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957")],
         iter1="422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
         iter1000="684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51",
         # u of the points of order 8 (ref: the small-order lists of libsodium / Bernstein)
         small=[325606250916557431795983626356110631294008115727848805560023387167927233504,
                39382357235489614581723060781553021112529911719440698176882885853963445705823],
         small_mul=8),
    dict(name="x448", p=2**448 - 2**224 - 1, a24=39081, bits=448, nbytes=56, limbs=9, radix=50,
         base=5,
         rfc=[("3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121"
               "700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
               "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9"
               "814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
               "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239f"
               "e14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"),
              ("203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c5"
               "38345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
               "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b"
               "165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
               "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7"
               "ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d")],
         iter1="3f482c8a9f19b01e6c46ee9711d9dc14fd4bf67af30765c2ae2b846a4d23a8cd"
               "0db897086239492caf350b51f833868b9bc2b3bca9cf4113",
         iter1000="aa3b4749d55b9daf1e5b00288826c467274ce3ebbdd5c17b975e09d4af6c67cf"
                  "10d087202db88286e2b79fceea3ec353ef54faa26e219f38",
         small=[], small_mul=4),
]


def ladder(c, k, u):
    """RFC 7748 section 5: (x2, z2) mod p for the scalar k (an integer; bits bits-1 .. 0)."""
    p, a24 = c["p"], c["a24"]
    x1 = u % p
    x2, z2, x3, z3 = 1, 0, x1, 1
    swap = 0
    for t in reversed(range(c["bits"])):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3 = x3, x2
            z2, z3 = z3, z2
        swap = kt
        A = (x2 + z2) % p
        AA = A * A % p
        B = (x2 - z2) % p
        BB = B * B % p
        E = (AA - BB) % p
        C = (x3 + z3) % p
        D = (x3 - z3) % p
        DA = D * A % p
        CB = C * B % p
        x3 = (DA + CB) ** 2 % p
        z3 = x1 * (DA - CB) ** 2 % p
        x2 = AA * BB % p
        z2 = E * (AA + a24 * E) % p
    if swap:
        x2, x3 = x3, x2
        z2, z3 = z3, z2
    return x2, z2


def affine(c, x2, z2):
    p = c["p"]
    return x2 * pow(z2, p - 2, p) % p


def clamp(c, kb):
    k = bytearray(kb)
    if c["name"] == "x25519":
        k[0] &= 248
        k[31] &= 127
        k[31] |= 64
    else:
        k[0] &= 252
        k[55] |= 128
    return bytes(k)


def xdh(c, kb, ub):
    """the whole X25519 / X448 function on bytes (decodeUCoordinate masks X25519's bit 255)"""
    u = int.from_bytes(ub, "little")
    if c["name"] == "x25519":
        u &= (1 << 255) - 1
    k = int.from_bytes(clamp(c, kb), "little")
    return affine(c, *ladder(c, k, u)).to_bytes(c["nbytes"], "little")


def selfcheck(c):
    for k, u, out in c["rfc"]:
        got = xdh(c, bytes.fromhex(k), bytes.fromhex(u))
        assert got.hex() == out, "%s: the Python ladder misses RFC 7748 5.2" % c["name"]
    base = c["base"].to_bytes(c["nbytes"], "little")
    assert xdh(c, base, base).hex() == c["iter1"], "%s: iterated x1" % c["name"]
    for u in c["small"] + [0, 1, c["p"] - 1]:
        assert ladder(c, c["small_mul"], u)[1] == 0, "%s: %d is not of small order" % (
            c["name"], u)


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


def ladder_vectors(c, L, B):
    p, n, r = c["p"], c["limbs"], c["radix"]
    top = 1 << r                        # the contract's input bound: limbs in [0, 2^radix]
    nb = c["nbytes"]

    def d(v):
        return digits(v, n, r)

    us = [("u = 0", d(0)), ("u = 1", d(1)), ("u = 2", d(2)),
          ("u = %d (base point)" % c["base"], d(c["base"])), ("u = p - 1", d(p - 1)),
          ("u = p", d(p)), ("u = p + 1", d(p + 1)), ("u = p + 2", d(p + 2)),
          ("u = 2^%d - 1" % (n * r), [(1 << r) - 1] * n),
          ("u in [p, 2^%d)" % (n * r), d(p + rng.randrange((1 << (n * r)) - p))),
          ("every limb 2^%d" % r, [top] * n),
          ("limbs alternating 0 and 2^%d" % r, [top if i % 2 else 0 for i in range(n)]),
          ("only the top limb, 2^%d" % r, [0] * (n - 1) + [top]),
          ("only limb 0, 2^%d" % r, [top] + [0] * (n - 1)),
          ("every limb 2^%d - 1, limb 0 2^%d" % (r, r), [top] + [top - 1] * (n - 1))]
    for i, s in enumerate(c["small"]):
        us.append(("u of order 8 (#%d)" % (i + 1), d(s)))
        if s + p < 1 << (n * r):
            us.append(("u of order 8 (#%d) + p" % (i + 1), d(s + p)))
    us.append(("random limbs in [0, 2^%d]" % r, [rng.randint(0, top) for _ in range(n)]))
    us.append(("random below p", d(rng.randrange(p))))

    def kb(v):
        return clamp(c, v.to_bytes(nb, "little"))

    ks = [("k clamped from zeros", kb(0)), ("k clamped from ones", kb((1 << (8 * nb)) - 1)),
          ("k alternating bits", kb(int.from_bytes(b"\x55" * nb, "little"))),
          ("k alternating bits (other phase)", kb(int.from_bytes(b"\xaa" * nb, "little"))),
          ("k random", kb(rng.getrandbits(8 * nb)))]
    vecs = []

    def add(what, k, u):
        x2, z2 = ladder(c, int.from_bytes(k, "little"), value(u, r))
        vecs.append((what, B.add(k), L.add(u), L.add(d(x2)), L.add(d(z2)),
                     L.add(d(affine(c, x2, z2)))))

    for k, u, out in c["rfc"]:
        kk = clamp(c, bytes.fromhex(k))
        uv = int.from_bytes(bytes.fromhex(u), "little")
        if c["name"] == "x25519":
            uv &= (1 << 255) - 1
        add("%s: RFC 7748 5.2" % c["name"], kk, d(uv))
        assert vecs[-1][5] is not None
    for nu, u in us:
        for nk, k in ks:
            add("%s: %s, %s" % (c["name"], nu, nk), k, u)
    for i in range(40):
        k = kb(rng.getrandbits(8 * nb))
        u = [rng.randint(0, top) for _ in range(n)] if i % 2 else d(rng.randrange(p))
        add("%s: random" % c["name"], k, u)
    return vecs


def x4_vectors(L):
    sys.path.insert(0, os.path.join(ROOT, "gen"))
    from lfgen.fields import desc, ops
    f = desc.BY_NAME["c25519_r51"]
    below = [(0, (1 << 52) - 1)] * f.limbs
    _, out = ops.mul_ifma(f, below, split=2)   # what the kernel's .S header states
    p, n, bits = f.p, f.limbs, f.bits
    assert p == 2**255 - 19 and n == 5 and bits == 51
    t52 = (1 << 52) - 1

    def d(v):
        return digits(v, n, bits)

    edges = [("0", d(0)), ("1", d(1)), ("p-1", d(p - 1)), ("p", d(p)),
             ("2^255-1", d(2**255 - 1)), ("every limb 2^52-1", [t52] * n),
             ("every limb 2^51", [1 << 51] * n),
             ("limbs alternating 0 and 2^52-1", [t52 if i % 2 else 0 for i in range(n)]),
             ("only the top limb 2^52-1", [0] * (n - 1) + [t52]),
             ("only limb 0 2^52-1", [t52] + [0] * (n - 1)),
             ("random below p", d(rng.randrange(p))),
             ("random limbs below 2^52", [rng.randrange(1 << 52) for _ in range(n)])]
    pairs = [(ea, eb) for ea in edges for eb in edges]
    while len(pairs) % 4:
        pairs.append((edges[5], edges[5]))
    groups = [(" | ".join("%s * %s" % (a[0], b[0]) for a, b in pairs[i:i + 4]),
               [a[1] for a, _ in pairs[i:i + 4]], [b[1] for _, b in pairs[i:i + 4]])
              for i in range(0, len(pairs), 4)]
    for i in range(32):
        ea = [[rng.randrange(1 << 52) for _ in range(n)] for _ in range(4)]
        eb = [[rng.randrange(1 << 52) for _ in range(n)] for _ in range(4)]
        if i % 4 == 0:
            eb = ea
        groups.append(("random groups" + (", a == b" if i % 4 == 0 else ""), ea, eb))
    vecs = []
    for what, ea, eb in groups:
        r = [d(value(x, bits) * value(y, bits) % p) for x, y in zip(ea, eb)]

        def lm(es):
            return [es[l][i] for i in range(n) for l in range(4)]   # [4 i + l]
        vecs.append((what, int(ea is eb), L.add(lm(ea)), L.add(lm(eb)), L.add(lm(r))))
    return out, vecs


def emit(fo):
    L, B = Pool(), Pool()
    per = []
    for c in CURVES:
        selfcheck(c)
        per.append((c, ladder_vectors(c, L, B)))
    x4_out, x4 = x4_vectors(L)
    w = fo.write
    w("/* Generated by tests/kat/gen_ladder.py (seed %d) -- do not edit. */\n" % SEED)
    w("/* Answers computed with Python integers (RFC 7748 section 5); types in "
      "tests/kat/kat.h. */\n\n")
    w("static const int64_t kat_lad_limbs[%d] = {\n" % len(L.items))
    for i in range(0, len(L.items), 4):
        w("\t" + " ".join("INT64_C(%d)," % x for x in L.items[i:i + 4]) + "\n")
    w("};\n\nstatic const uint8_t kat_lad_bytes[%d] = {\n" % len(B.items))
    for i in range(0, len(B.items), 16):
        w("\t" + " ".join("0x%02x," % x for x in B.items[i:i + 16]) + "\n")
    w("};\n\nstatic const struct kat_lad kat_lad[] = {\n")
    first = 0
    for c, vecs in per:
        c["first"] = first
        c["count"] = len(vecs)
        for what, k, u, x2, z2, a in vecs:
            w('\t{ "%s", %d, %d, %d, %d, %d },\n' % (what, k, u, x2, z2, a))
        first += len(vecs)
    w("};\n\nstatic const struct kat_lad_curve kat_lad_curves[] = {\n")

    def cb(h):
        return "{ " + ", ".join("0x%02x" % x for x in bytes.fromhex(h)) + " }"

    for c, _ in per:
        w('\t{ "%s", %d, %d, %d, %d, "%x", %d, %d, %d,\n' % (
            c["name"], c["limbs"], c["radix"], c["bits"], c["nbytes"], c["p"], c["a24"],
            c["first"], c["count"]))
        w("\t  { %s },\n" % ", ".join("{ %s, %s, %s }" % (cb(k), cb(u), cb(o))
                                     for k, u, o in c["rfc"]))
        w("\t  %s,\n\t  %s },\n" % (cb(c["iter1"]), cb(c["iter1000"])))
    w("};\n\n/* fe_c25519_r51_mul_x4: the output bound its .S header states, per limb */\n")
    w("static const int64_t kat_x4_out[5][2] = { %s };\n\n" % ", ".join(
        "{ INT64_C(%d), INT64_C(%d) }" % lh for lh in x4_out))
    w("static const struct kat_x4 kat_x4[] = {\n")
    for what, same, a, b, r in x4:
        w('\t{ "%s", %d, %d, %d, %d },\n' % (what, same, a, b, r))
    w("};\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_ladder.py OUT.h")
    with open(sys.argv[1] + ".tmp", "w") as f:
        emit(f)
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
