#!/usr/bin/python3
"""Known-answer vectors for lf_p256_ecdh (P-256 ECDH), computed with Python integers.

Fault this is designed to catch: lf_p256_ecdh and the suite's other oracles (GMP mpz affine
arithmetic in tests/test_ecdh.c, OpenSSL EVP_PKEY_derive on the host) agreeing on a wrong
answer, and the AArch64 suite (no OpenSSL in the arm64 cross build) going without a second
independent oracle.  The answers here come from affine point arithmetic on Python integers
straight from the curve equation (SEC 2 2.4.2 / FIPS 186-4 D.1.2.3 constants), nothing shaped
like the Jacobian, windowed, Montgomery-form code under test; the generator checks itself
against RFC 5903 section 8.1 (its ECDH test vector for the 256-bit group) first.

    /usr/bin/python3 tests/kat/gen_ecdh.py OUT.h

writes a C header (data only; struct kat_ecdh in tests/kat/kat.h) that tests/test_ecdh.c
compiles in.  Deterministic: fixed seed, Python's Mersenne Twister, no clock.

Vectors (scalar, point, expected return code, expected x):
  - RFC 5903 8.1, both directions;
  - edge scalars 1, 2, 3, 4..33, n-1 .. n-33, 2^k and 2^k - 1 and 2^k + 1 for k = 1..255,
    runs of ones and zeros (0xff..00.., 0x00..ff.., 0xf0f0.., 0xaa.., 0x5555..), scalars
    whose Booth digits are all +16 or all -16 or alternate +-16 where representable, each with
    the generator G and with a fixed random point (the powers of two with one of them in turn), some also with -G and a point of small x;
  - random scalars with random points (k, j G);
  - invalid inputs with their LF_P256_E* code and an all-zero x: prefixes 0x00, 0x02, 0x03,
    0x05, 0x06, 0x07, 0xff; X or Y in {p, p + 1, 2^256 - 1}; X = Y = 0; points off the curve
    (y + 1, x + 1, (1, 1), (0, 1)); scalars 0, n, n + 1, n + 30, 2^256 - 1 on a valid point;
    a bad point together with a bad scalar (the point's code).
The header also counts, over the valid vectors, the cases of the fixed-window ladder
(5-bit Booth digits, as runtime/p256_ecdh.c documents) that need care: an addition into the
point at infinity (O + dP), an addition of O (digit 0), and the doubling case Q = dP at an
addition (which the ladder's proof says never happens for 0 < k < n; the generator asserts it
on every vector).
"""

import random
import sys

SEED = 20261130
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
A = P - 3
B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b
GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296
GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5
G = (GX, GY)

# error codes (runtime/include/limbforge.h)
OK, EENCODING, ERANGE, EINFINITY, ECURVE, ESCALAR = 0, -16, -17, -18, -19, -20

rng = random.Random(SEED)


def on_curve(pt):
    x, y = pt
    return (y * y - (x * x * x + A * x + B)) % P == 0


def add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def mul(k, pt):
    r = None
    for bit in bin(k)[2:] if k else "":
        r = add(r, r)
        if bit == "1":
            r = add(r, pt)
    return r


def neg(pt):
    return (pt[0], (P - pt[1]) % P)


def booth_digits(k):
    """The 52 Booth digits of runtime/p256_ecdh.c (window j: bits 5j-1 .. 5j+4)."""
    out = []
    for j in range(52):
        w = ((k << 1) >> (5 * j)) & 0x3f
        out.append(((w + 1) >> 1) - 32 * (w >> 5))
    assert sum(d << (5 * j) for j, d in enumerate(out)) == k
    return out


def ladder_cases(k, pt, counts):
    """Follow the ladder on multiples of pt (as integers mod n) and count its special cases."""
    d = booth_digits(k)
    m = d[51]                    # the accumulator is m pt
    for j in range(50, -1, -1):
        m *= 32
        dj = d[j]
        if m % N == 0 and dj != 0:
            counts["o_plus_p"] += 1
        if dj == 0:
            counts["plus_o"] += 1
        if m % N != 0 and dj != 0 and (m - dj) % N == 0:
            counts["doubling"] += 1
        if m % N != 0 and dj != 0 and (m + dj) % N == 0:
            counts["p_minus_p"] += 1
        m += dj
    assert m == k


def enc(pt, prefix=4):
    return bytes([prefix]) + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def enc_raw(x, y, prefix=4):
    return bytes([prefix]) + (x % 2**256).to_bytes(32, "big") + (y % 2**256).to_bytes(32, "big")


vectors = []          # (what, scalar bytes, point bytes, rc, x bytes)
counts = {"o_plus_p": 0, "plus_o": 0, "doubling": 0, "p_minus_p": 0}


def valid(what, k, pt):
    assert 0 < k < N and on_curve(pt)
    r = mul(k, pt)
    ladder_cases(k, pt, counts)
    vectors.append((what, k.to_bytes(32, "big"), enc(pt), OK, r[0].to_bytes(32, "big")))


def invalid(what, kbytes, ptbytes, rc):
    vectors.append((what, kbytes, ptbytes, rc, bytes(32)))


def self_check():
    # RFC 5903 section 8.1 (256-bit random ECP group)
    i = 0xC88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433
    gix = 0xDAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180
    giy = 0x5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3
    r = 0xC6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53
    grx = 0xD12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63
    gry = 0x56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB
    girx = 0xD6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE
    assert on_curve(G) and mul(N, G) is None
    assert mul(i, G) == (gix, giy) and mul(r, G) == (grx, gry)
    assert mul(i, (grx, gry))[0] == girx and mul(r, (gix, giy))[0] == girx
    return i, r, (gix, giy), (grx, gry)


def main(path):
    i, r, gi, gr = self_check()
    valid("RFC 5903 8.1: i * g^r", i, gr)
    valid("RFC 5903 8.1: r * g^i", r, gi)

    Q = mul(rng.randrange(1, N), G)          # a fixed random point
    small = None                              # a point with a small x
    for x in range(1, 100):
        rhs = (x ** 3 + A * x + B) % P
        y = pow(rhs, (P + 1) // 4, P)         # p = 3 mod 4
        if y * y % P == rhs:
            small = (x, y)
            break
    assert small and on_curve(small)
    peers = [("G", G), ("random point", Q)]

    edge = [(str(k), k) for k in range(1, 34)]
    edge += [("n-%d" % m, N - m) for m in range(1, 34)]
    for k in range(1, 256):
        edge.append(("2^%d" % k, 1 << k))
        edge.append(("2^%d-1" % k, (1 << k) - 1))
        if k % 8 == 5:
            edge.append(("2^%d+1" % k, (1 << k) + 1))
    pats = {
        "ff..ff00..00": int("f" * 32 + "0" * 32, 16),
        "00..00ff..ff": int("0" * 32 + "f" * 32, 16),
        "f0f0..": int("f0" * 32, 16),
        "0f0f..": int("0f" * 32, 16),
        "aaaa..": int("aa" * 32, 16),
        "5555..": int("55" * 32, 16),
        "ffff..fe (mod n)": (2**256 - 2) % N,
        "top bit, rest 0": 1 << 255,
        "2^256-1 mod n": (2**256 - 1) % N,
        "7fff..": 2**255 - 1,
        "runs of 17 ones and 13 zeros": sum(((1 << 17) - 1) << (30 * t) for t in range(8)),
        "Booth digits all +16": sum(16 << (5 * j) for j in range(51)),
        "Booth digits all -16 (+ top)": (1 << 255) - sum(16 << (5 * j) for j in range(51)),
        "Booth digits alternating +-16": sum((16 if j % 2 else -16) << (5 * j)
                                             for j in range(51)) + (1 << 254),
        "(n-1)/2": (N - 1) // 2,
        "(n+1)/2": (N + 1) // 2,
        "n-2^128": N - 2**128,
    }
    edge += list(pats.items())
    for t, (name, k) in enumerate(edge):
        k %= N
        # the powers of two (a long run) alternate the peer; the others take both
        for pname, pt in (peers if not name.startswith("2^") else [peers[t % 2]]):
            valid("scalar %s, %s" % (name, pname), k, pt)
    for k in (1, 2, 3, N - 1, N - 2, 2**128, pats["aaaa.."]):
        valid("scalar %#x, -G" % k, k, neg(G))
        valid("scalar %#x, point with x = %d" % (k, small[0]), k, small)
    for t in range(64):
        k = rng.randrange(1, N)
        j = rng.randrange(1, N)
        valid("random %d" % t, k, mul(j, G))

    kgood = rng.randrange(1, N).to_bytes(32, "big")
    goodpt = enc(Q)
    for pre in (0x00, 0x02, 0x03, 0x05, 0x06, 0x07, 0xff):
        invalid("prefix %#04x" % pre, kgood, bytes([pre]) + goodpt[1:], EENCODING)
    for v, vn in ((P, "p"), (P + 1, "p+1"), (2**256 - 1, "2^256-1")):
        invalid("X = %s" % vn, kgood, enc_raw(v, Q[1]), ERANGE)
        invalid("Y = %s" % vn, kgood, enc_raw(Q[0], v), ERANGE)
    invalid("X = Y = 0", kgood, enc_raw(0, 0), EINFINITY)
    for what, x, y in (("Y + 1", Q[0], (Q[1] + 1) % P), ("X + 1", (Q[0] + 1) % P, Q[1]),
                       ("(1, 1)", 1, 1), ("(0, 1)", 0, 1), ("G with Y = 0", GX, 0)):
        assert not on_curve((x, y))
        invalid("off the curve: %s" % what, kgood, enc_raw(x, y), ECURVE)
    for k, kn in ((0, "0"), (N, "n"), (N + 1, "n+1"), (N + 30, "n+30"), (2**256 - 1, "2^256-1")):
        invalid("scalar %s" % kn, k.to_bytes(32, "big"), goodpt, ESCALAR)
        invalid("scalar %s, G" % kn, k.to_bytes(32, "big"), enc(G), ESCALAR)
    invalid("scalar 0 and prefix 0x02", bytes(32), b"\x02" + goodpt[1:], EENCODING)
    invalid("scalar n and X = p", N.to_bytes(32, "big"), enc_raw(P, Q[1]), ERANGE)
    invalid("scalar 0 and off the curve", bytes(32), enc_raw(1, 1), ECURVE)

    assert counts["doubling"] == 0 and counts["p_minus_p"] == 0
    assert counts["o_plus_p"] > 0 and counts["plus_o"] > 0

    def carr(b):
        return "{ " + ", ".join("0x%02x" % c for c in b) + " }"

    with open(path, "w") as f:
        f.write("/* Generated by tests/kat/gen_ecdh.py -- do not edit. */\n")
        f.write("#define KAT_ECDH_O_PLUS_P %d   /* additions into O (leading zero digits) */\n"
                % counts["o_plus_p"])
        f.write("#define KAT_ECDH_PLUS_O %d     /* additions of O (digit 0) */\n"
                % counts["plus_o"])
        f.write("#define KAT_ECDH_DOUBLING %d   /* Q = dP at an addition: never, for 0<k<n */\n"
                % counts["doubling"])
        f.write("static const struct kat_ecdh kat_ecdh[] = {\n")
        for what, kb, pb, rc, xb in vectors:
            f.write("\t{ \"%s\", %s,\n\t  %s,\n\t  %d, %s },\n"
                    % (what, carr(kb), carr(pb), rc, carr(xb)))
        f.write("};\n")


if __name__ == "__main__":
    main(sys.argv[1])
