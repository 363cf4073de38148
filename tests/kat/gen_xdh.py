#!/usr/bin/python3
"""Known-answer vectors for lf_x25519 / lf_x448 (RFC 7748), computed with Python integers.

Fault this is designed to catch: X25519/X448 wrong for inputs the random keys of the host's
oracles (OpenSSL, libsodium) never produce -- u of small order, u >= p, bit 255 of an
X25519 u set -- and the AArch64 suite (no OpenSSL or libsodium in the arm64 cross build)
going without an independent oracle for random keys.

    /usr/bin/python3 tests/kat/gen_xdh.py OUT.h

writes a C header (data only; struct kat_xdh in tests/kat/kat.h) for tests/test_xdh.c.
Deterministic: fixed seed, Python's Mersenne Twister, no clock.

The answers come from RFC 7748 section 5's pseudo-code on Python integers (decodeScalar,
decodeUCoordinate, the ladder with cswap, x2 z2^(p-2)); the script first checks itself
against RFC 7748 5.2 (both vectors per curve) and 6.1 / 6.2 (the Diffie-Hellman keys).
Vectors (curve, scalar, u, rc, expected out):
  - RFC 7748 5.2 and 6.1 / 6.2 (public keys from the base point, shared secrets both ways);
  - u of small order, every scalar giving all zeros and LF_XDH_EZERO: X25519 u = 0, 1, the
    two points of order 8 (libsodium's blocklist), p - 1, p, p + 1, and each with bit 255
    set; X448 u = 0, 1, p - 1, p, p + 1 (each checked here to give zero for the scalars);
  - non-canonical u: X25519 u = p + k for k = 2..18, 2^255 - 1, random u with bit 255 set;
    X448 u = p + k, 2^448 - 1, p + random below 2^224 (the answer is that of u mod p);
  - random scalars with random u and with the base point.
"""

import os
import random
import sys

SEED = 20261130
EZERO = -24          # LF_XDH_EZERO (runtime/include/limbforge.h)


class Curve:
    def __init__(self, name, p, bits, a24, nbytes, base):
        self.name, self.p, self.bits, self.a24, self.nbytes, self.base = \
            name, p, bits, a24, nbytes, base

    def decode_scalar(self, k):
        k = bytearray(k)
        if self.name == "x25519":
            k[0] &= 248
            k[31] &= 127
            k[31] |= 64
        else:
            k[0] &= 252
            k[55] |= 128
        return int.from_bytes(k, "little")

    def decode_u(self, u):
        u = bytearray(u)
        if self.name == "x25519":
            u[31] &= 127          # bits % 8 != 0: mask the unused bit
        return int.from_bytes(u, "little")

    def __call__(self, k, u):
        """RFC 7748 section 5, verbatim in Python integers."""
        p, a24 = self.p, self.a24
        k = self.decode_scalar(k)
        x1 = self.decode_u(u)
        x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
        for t in reversed(range(self.bits)):
            kt = (k >> t) & 1
            swap ^= kt
            if swap:
                x2, x3, z2, z3 = x3, x2, z3, z2
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
            x2, x3, z2, z3 = x3, x2, z3, z2
        return (x2 * pow(z2, p - 2, p) % p).to_bytes(self.nbytes, "little")


X25519 = Curve("x25519", 2**255 - 19, 255, 121665, 32, 9)
X448 = Curve("x448", 2**448 - 2**224 - 1, 448, 39081, 56, 5)
H = bytes.fromhex


def enc(c, u):
    return u.to_bytes(c.nbytes, "little")


# RFC 7748 5.2 and 6.1 / 6.2 (also in tests/test_xdh.c as literals, checked there too)
RFC52 = [
    (X25519, "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
    (X25519, "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
    (X448, "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
     "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
     "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"),
    (X448, "203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
     "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
     "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d"),
]
# (curve, alice private, alice public, bob private, bob public, shared)
RFC6 = [
    (X25519, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
     "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
     "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
     "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
     "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"),
    (X448, "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b",
     "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0",
     "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d",
     "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609",
     "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56fd2464c335543936521c24403085d59a449a5037514a879d"),
]
# libsodium's blocklist (crypto_scalarmult/curve25519/ref10): the points of order 8
ORDER8 = ["e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
          "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"]


def self_check():
    for c, k, u, out in RFC52:
        assert c(H(k), H(u)) == H(out), c.name
    for c, a, A, b, B, s in RFC6:
        base = enc(c, c.base)
        assert c(H(a), base) == H(A) and c(H(b), base) == H(B), c.name
        assert c(H(a), H(B)) == H(s) and c(H(b), H(A)) == H(s), c.name
    # the order-8 points: a clamped scalar is a multiple of 8, so the answer is zero
    for u in ORDER8:
        assert X25519(bytes(32), H(u)) == bytes(32)


def main(path):
    self_check()
    rng = random.Random(SEED)
    vecs = []      # (what, curve, scalar, u, rc, out)

    def add(what, c, k, u):
        out = c(k, u)
        rc = EZERO if out == bytes(c.nbytes) else 0
        vecs.append((what, c, k, u, rc, out))
        return out

    def rk(c):
        return bytes(rng.getrandbits(8) for _ in range(c.nbytes))

    for c, k, u, out in RFC52:
        assert add("RFC 7748 5.2", c, H(k), H(u)) == H(out)
    for c, a, A, b, B, s in RFC6:
        assert add("RFC 7748 6: Alice's public key", c, H(a), enc(c, c.base)) == H(A)
        assert add("RFC 7748 6: Bob's public key", c, H(b), enc(c, c.base)) == H(B)
        assert add("RFC 7748 6: Alice's shared secret", c, H(a), H(B)) == H(s)
        assert add("RFC 7748 6: Bob's shared secret", c, H(b), H(A)) == H(s)
    # small order: all zeros for every scalar
    p = X25519.p
    small25519 = [("0", 0), ("1", 1), ("order 8 (a)", int.from_bytes(H(ORDER8[0]), "little")),
                  ("order 8 (b)", int.from_bytes(H(ORDER8[1]), "little")), ("p-1", p - 1),
                  ("p", p), ("p+1", p + 1)]
    small25519 += [(n + " | 2^255", u | 1 << 255) for n, u in small25519]
    scalars = [bytes(32), b"\xff" * 32, rk(X25519), rk(X25519)]
    for n, u in small25519:
        for t, k in enumerate(scalars):
            out = add("small order u = %s, scalar #%d" % (n, t), X25519, k, u.to_bytes(32, "little"))
            assert out == bytes(32), n
    q = X448.p
    for n, u in [("0", 0), ("1", 1), ("p-1", q - 1), ("p", q), ("p+1", q + 1)]:
        for t, k in enumerate([bytes(56), b"\xff" * 56, rk(X448)]):
            out = add("small order u = %s, scalar #%d" % (n, t), X448, k, u.to_bytes(56, "little"))
            assert out == bytes(56), n
    # non-canonical u: the answer of u mod p (and of u without bit 255)
    for k in range(2, 19):
        add("u = p + %d" % k, X25519, rk(X25519), (p + k).to_bytes(32, "little"))
    add("u = 2^255 - 1", X25519, rk(X25519), (2**255 - 1).to_bytes(32, "little"))
    add("u = 2^256 - 1", X25519, rk(X25519), b"\xff" * 32)
    for t in range(6):
        u = rng.getrandbits(255) | 1 << 255
        add("random u with bit 255 set #%d" % t, X25519, rk(X25519), u.to_bytes(32, "little"))
    for k in (2, 3, 1000):
        add("u = p + %d" % k, X448, rk(X448), (q + k).to_bytes(56, "little"))
    add("u = 2^448 - 1", X448, rk(X448), b"\xff" * 56)
    for t in range(4):
        add("u = p + random < 2^224 #%d" % t, X448, rk(X448),
            (q + rng.getrandbits(224)).to_bytes(56, "little"))
    # random keys
    for c, n in ((X25519, 24), (X448, 12)):
        for t in range(n):
            u = enc(c, c.base) if t % 4 == 0 else enc(c, rng.randrange(c.p))
            add("random key #%d%s" % (t, ", base point" if t % 4 == 0 else ""), c, rk(c), u)

    def carr(b):
        return "{ " + ", ".join("0x%02x" % x for x in b) + " }"

    lines = ["/* Generated by tests/kat/gen_xdh.py -- do not edit. */",
             "static const struct kat_xdh kat_xdh[] = {"]
    for what, c, k, u, rc, out in vecs:
        lines.append('\t{ "%s", %d, %d,\n\t  %s,\n\t  %s,\n\t  %s },'
                     % (what, 448 if c is X448 else 25519, rc, carr(k), carr(u), carr(out)))
    lines.append("};")
    with open(path + ".tmp", "w") as fp:
        fp.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_xdh.py OUT.h")
    main(sys.argv[1])
