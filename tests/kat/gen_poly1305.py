#!/usr/bin/python3
"""Known-answer vectors for Poly1305 (RFC 8439 section 2.5), computed with Python integers.

Fault this is designed to catch: a kernel, the runtime's Poly1305 API and the C oracles
(OpenSSL, libsodium, GMP) agreeing on a wrong answer, or no C oracle being there at all (the
AArch64 suite runs under qemu without OpenSSL and libsodium): these answers come from the RFC
and from a second, unrelated arithmetic, Python's integers applied to the definitions below.

    /usr/bin/python3 tests/kat/gen_poly1305.py OUT.h

writes a C header (data only; the types are in tests/kat/kat.h) that tests/test_poly1305.c
compiles in.  The output is a pure function of this file: a fixed seed, Python's Mersenne
Twister (getrandbits is stable across Python 3 versions), no clock, no hash order.  Running
it twice gives the same bytes; `make test` regenerates it into build/<arch>/tests/kat/, like
gen_vectors.py's header.

What is computed (nothing here transcribes a limbforge kernel):
  poly1305(key, msg)   RFC 8439 2.5.1: r = key[0..16) LE & 0x0ffffffc0ffffffc0ffffffc0fffffff,
                       s = key[16..32) LE; for each 16-byte chunk c of msg (the last one may be
                       shorter): acc = (acc + LE(c) + 2^(8 len(c))) * r mod 2^130-5;
                       tag = (acc + s) mod 2^128, 16 bytes LE.
  blocks(h, r, m, pad) the kernel contract (gen/lfgen/kernels/poly1305_blocks.py) as values:
                       for each 16-byte block, h = (h + LE(block) + pad 2^128) * r mod p;
                       the answer is the canonical h mod p (the kernel may hold any
                       representative with h2 <= 4; the test reduces before comparing).
  jdk(acc, r, in)      com.sun.crypto.provider.Poly1305.processMultipleBlocks on
                       IntegerPolynomial1305 limbs (5 x 26 bits): a model of the Java classes
                       (encode with the 0x01 high byte at limb 4 bit 24, setSum limb by limb,
                       mult's nine column sums and carryReduce with Java's signed 64-bit
                       arithmetic, checked for overflow) -- and, separately, the same with
                       plain integers mod p.  The two must agree mod p (asserted here); the
                       vector records the input limbs, the Java model's output limbs and the
                       canonical value mod p.

The RFC 8439 vectors (section 2.5.2 and Appendix A.3 #1-#11; A.3 = the JDK's Poly1305KAT)
carry the RFC's tags; this file asserts that its Python Poly1305 reproduces each of them.
"""

import random
import sys

SEED = 20261130
P = (1 << 130) - 5
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
CLAMP = 0x0ffffffc0ffffffc0ffffffc0fffffff
M26 = (1 << 26) - 1

rng = random.Random(SEED)


# ---- Poly1305 from the definition -------------------------------------------------------------
def le(b):
    return int.from_bytes(bytes(b), "little")


def poly1305(key, msg):
    r = le(key[:16]) & CLAMP
    s = le(key[16:32])
    acc = 0
    for i in range(0, len(msg), 16):
        c = msg[i:i + 16]
        acc = (acc + le(c) + (1 << (8 * len(c)))) * r % P
    return ((acc + s) & M128).to_bytes(16, "little")


def blocks(h, r, m, pad):
    assert len(m) % 16 == 0
    for i in range(0, len(m), 16):
        h = (h + le(m[i:i + 16]) + (pad << 128)) * r % P
    return h % P


# ---- the JDK's IntegerPolynomial1305, modelled with Java long arithmetic ------------------------
def jlong(x):
    """Java's 64-bit two's complement wrap; the model asserts it never wraps."""
    w = ((x + (1 << 63)) & M64) - (1 << 63)
    assert w == x, "Java long overflow in the model"
    return w


def j_encode16(block, high_byte):
    low = le(block[:8])
    high = le(block[8:16])
    return [low & M26, (low >> 26) & M26, (low >> 52) + ((high & 0x3fff) << 12),
            (high >> 14) & M26, (high >> 40) + (high_byte << 24)]


def j_carry(r):
    # IntegerPolynomial.carry(limbs, 0, 4) with IntegerPolynomial1305.carryValue(x) = x >> 26
    for i in range(4):
        c = r[i] >> 26
        r[i] = jlong(r[i] - (c << 26))
        r[i + 1] = jlong(r[i + 1] + c)
    return r


def j_mult(a, b):
    c = [0] * 9
    for i in range(5):
        for j in range(5):
            c[i + j] = jlong(c[i + j] + jlong(a[i] * b[j]))
    r = [0] * 5
    r[2] = jlong(c[2] + jlong(c[7] * 5))
    c3 = jlong(c[3] + jlong(c[8] * 5))
    carry3 = c3 >> 26
    r[3] = jlong(c3 - (carry3 << 26))
    c4 = jlong(c[4] + carry3)
    carry4 = c4 >> 26
    r[4] = jlong(c4 - (carry4 << 26))
    c5 = jlong(c[5] + carry4)
    r[0] = jlong(c[0] + jlong(c5 * 5))
    r[1] = jlong(c[1] + jlong(c[6] * 5))
    return j_carry(r)


def j_process_multiple_blocks(acc, r, data):
    """processMultipleBlocks: while length >= 16: n.setValue(block, 0x01); a.setSum(n);
    a.setProduct(r) (numAdds 1 <= maxAdds 1: no reduce before the product)."""
    a = list(acc)
    for i in range(0, len(data) - len(data) % 16, 16):
        n = j_encode16(data[i:i + 16], 1)
        a = [jlong(x + y) for x, y in zip(a, n)]
        a = j_mult(a, r)
    return a


def limbs_value(l):
    return sum(x << (26 * i) for i, x in enumerate(l))


def to_limbs26(v):
    """canonical 5x26 limbs of v < 2^130"""
    return [(v >> (26 * i)) & M26 for i in range(5)]


def words3(v):
    return [(v >> (64 * i)) & M64 for i in range(3)]


# ---- pools and records ---------------------------------------------------------------------------
BYTES = bytearray()


def add_bytes(b):
    off = len(BYTES)
    BYTES.extend(b)
    return off


def rbytes(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def clamp_key_r(r):
    return r & CLAMP


RFC = [
    ("RFC 8439 2.5.2",
     "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     b"Cryptographic Forum Research Group".hex(),
     "a8061dc1305136c6c22b8baf0c0127a9"),
    ("RFC 8439 A.3 #1: all-zero key, 64 zero bytes",
     "00" * 32, "00" * 64, "00" * 16),
    ("RFC 8439 A.3 #2: r = 0 (tag = s)",
     "00" * 16 + "36e5f6b5c5e06070f0efca96227a863e",
     "416e79207375626d697373696f6e20746f20746865204945544620696e74656e"
     "6465642062792074686520436f6e7472696275746f7220666f72207075626c69"
     "636174696f6e20617320616c6c206f722070617274206f6620616e2049455446"
     "20496e7465726e65742d4472616674206f722052464320616e6420616e792073"
     "746174656d656e74206d6164652077697468696e2074686520636f6e74657874"
     "206f6620616e204945544620616374697669747920697320636f6e7369646572"
     "656420616e20224945544620436f6e747269627574696f6e222e205375636820"
     "73746174656d656e747320696e636c756465206f72616c2073746174656d656e"
     "747320696e20494554462073657373696f6e732c2061732077656c6c20617320"
     "7772697474656e20616e6420656c656374726f6e696320636f6d6d756e696361"
     "74696f6e73206d61646520617420616e792074696d65206f7220706c6163652c"
     "207768696368206172652061646472657373656420746f",
     "36e5f6b5c5e06070f0efca96227a863e"),
    ("RFC 8439 A.3 #3: s = 0",
     "36e5f6b5c5e06070f0efca96227a863e" + "00" * 16,
     None,   # the message of #2
     "f3477e7cd95417af89a6b8794c310cf0"),
    ("RFC 8439 A.3 #4: Jabberwocky",
     "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f"
     "7665730a446964206779726520616e642067696d626c6520696e207468652077"
     "6162653a0a416c6c206d696d737920776572652074686520626f726f676f7665"
     "732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
     "4541669a7eaaee61e708dc7cbcc5eb62"),
    ("RFC 8439 A.3 #5: partially reduced result not fully reduced",
     "02" + "00" * 31, "ff" * 16, "03" + "00" * 15),
    ("RFC 8439 A.3 #6: h + s overflows 2^128",
     "02" + "00" * 15 + "ff" * 16, "02" + "00" * 15, "03" + "00" * 15),
    ("RFC 8439 A.3 #7: all-ones limb with a carry from the lower limb",
     "01" + "00" * 31,
     "ff" * 16 + "f0" + "ff" * 15 + "11" + "00" * 15, "05" + "00" * 15),
    ("RFC 8439 A.3 #8: polynomial part exactly 2^130-5",
     "01" + "00" * 31,
     "ff" * 16 + "fb" + "fe" * 15 + "01" * 16, "00" * 16),
    ("RFC 8439 A.3 #9: polynomial part exactly 2^130-6",
     "02" + "00" * 31, "fd" + "ff" * 15, "fa" + "ff" * 15),
    ("RFC 8439 A.3 #10: 5*H+L reduction, 131-bit intermediate",
     "01" + "00" * 7 + "04" + "00" * 23,
     "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
     "0000000000000000000000000000000001000000000000000000000000000000",
     "14000000000000005500000000000000"),
    ("RFC 8439 A.3 #11: 5*H+L reduction, 131-bit final value",
     "01" + "00" * 7 + "04" + "00" * 23,
     "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
     "00000000000000000000000000000000",
     "13000000000000000000000000000000"),
]

macs = []      # (what, key_off, msg_off, len, tag)


def add_mac(what, key, msg, tag=None):
    t = poly1305(key, msg)
    if tag is not None:
        assert t == tag, "%s: Python Poly1305 %s != RFC tag %s" % (what, t.hex(), tag.hex())
    macs.append((what, add_bytes(key), add_bytes(msg), len(msg), t))


msg2 = None
for what, key, msg, tag in RFC:
    if msg is None:
        msg = msg2
    if msg2 is None and "#2" in what:
        msg2 = msg
    add_mac(what, bytes.fromhex(key), bytes.fromhex(msg), bytes.fromhex(tag))
N_RFC = len(macs)

MAXR = (CLAMP).to_bytes(16, "little")          # the largest clamped r
for n in list(range(0, 40)) + [47, 48, 49, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511,
                               512, 513, 1023, 1024, 1025, 2047, 2048, 2049]:
    add_mac("random key and message", rbytes(32), rbytes(n))
for n in [0, 1, 15, 16, 17, 31, 32, 33, 64, 255, 256, 257, 1024, 1040]:
    add_mac("max r, s all ones, all-0xff message", MAXR + b"\xff" * 16, b"\xff" * n)
    add_mac("max r, s = 0, all-0xff message", MAXR + b"\x00" * 16, b"\xff" * n)
for rv in (0, 1, 2, 4, 5):
    for n in [0, 1, 16, 17, 100, 257]:
        add_mac("r = %d, random s and message" % rv, rv.to_bytes(16, "little") + rbytes(16),
                rbytes(n))
        add_mac("r = %d, s all ones, all-0xff message" % rv,
                rv.to_bytes(16, "little") + b"\xff" * 16, b"\xff" * n)
for n in [16, 32, 48, 256, 512]:
    add_mac("unclamped key bits all set", b"\xff" * 32, rbytes(n))
    add_mac("key 0x80 bytes, message 0x80 bytes", b"\x80" * 32, b"\x80" * n)


# block-function vectors: (what, h_in words, r words, msg_off, nblocks, pad, want words)
blk = []
EDGE_H = [0, 1, P - 1, P, P + 1, P + 4, (1 << 128) - 1, 1 << 128, (1 << 130) - 1, 1 << 130,
          (4 << 128) + M128]                  # the last = 5 * 2^128 - 1, the largest allowed h
EDGE_R = [0, 1, 2, 4, CLAMP, CLAMP & ~0xffff, 0x0ffffffc0ffffffc << 64, 0x0fffffff]
for nb in [1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129]:
    for kind in ("random", "edges", "ones"):
        if kind == "random":
            h = rng.getrandbits(128) + (rng.randrange(5) << 128)
            r = rng.getrandbits(128) & CLAMP
            m = rbytes(16 * nb)
        elif kind == "edges":
            h = rng.choice(EDGE_H)
            r = rng.choice(EDGE_R)
            m = b"".join(rng.choice([b"\xff" * 16, b"\x00" * 16, rbytes(16),
                                     b"\xff" * 8 + b"\x00" * 8, b"\xfb" + b"\xff" * 15])
                         for _ in range(nb))
        else:
            h = (4 << 128) + M128
            r = CLAMP
            m = b"\xff" * (16 * nb)
        for pad in (1, 0):
            assert h < 5 << 128
            blk.append(("%s, pad %d" % (kind, pad), words3(h), [r & M64, r >> 64],
                        add_bytes(m), nb, pad, words3(blocks(h, r, m, pad))))


# JDK processMultipleBlocks vectors: (what, acc_in[5], r[5], msg_off, len, java_out[5] or None,
# want words)
jdk = []


def add_jdk(what, acc, r26, data, java_range=True):
    """java_range: the limbs are ones Java's longs can carry (else only the integer answer:
    limbforge's contract is exact for any non-negative limbs, Java's arithmetic is not)"""
    v = limbs_value(acc)
    r = limbs_value(r26)
    want = blocks(v % P, r, data[:len(data) - len(data) % 16], 1) if len(data) >= 16 else v % P
    java = None
    if java_range:
        java = j_process_multiple_blocks(acc, r26, data)
        assert limbs_value(java) % P == want, "JDK model and integer arithmetic disagree"
    jdk.append((what, acc, r26, add_bytes(data), len(data), java, words3(want)))


def jdk_state(r26):
    """an accumulator as Java leaves it: the product of a random element and r (carry()'d:
    limbs 0-3 in [0, 2^26), limb 4 the rest)"""
    return j_mult(to_limbs26(rng.getrandbits(130) % P), r26)


for n in [1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64, 65, 100]:
    r26 = to_limbs26(rng.getrandbits(128) & CLAMP)
    add_jdk("Java-produced accumulator, random r", jdk_state(r26), r26, rbytes(16 * n))
    add_jdk("limbs 0-3 = 2^26-1, limb 4 = 2^26 + small", [M26] * 4 + [(1 << 26) + rng.getrandbits(20)],
            r26, rbytes(16 * n))
    add_jdk("limb 4 up to 2^28 (sum of two elements)", [rng.getrandbits(26) for _ in range(4)]
            + [rng.getrandbits(28)], to_limbs26(CLAMP), b"\xff" * (16 * n))
    add_jdk("limbs 0-3 up to 2^27 (after setSum)", [rng.getrandbits(27) for _ in range(4)]
            + [rng.getrandbits(27)], r26, rbytes(16 * n))
    add_jdk("max clamped r, all-0xff blocks, acc all limbs 2^26-1",
            [M26] * 5, to_limbs26(CLAMP), b"\xff" * (16 * n))
for n in [1, 2, 16, 33]:
    r26 = to_limbs26(rng.getrandbits(128) & CLAMP)
    # beyond the JDK's ranges, still exact by limbforge's contract (any limbs < 2^63)
    add_jdk("large limbs (< 2^40; beyond Java's range), exact",
            [rng.getrandbits(40) for _ in range(5)], r26, rbytes(16 * n), java_range=False)
    add_jdk("limbs up to 2^63-1 (beyond Java's range), exact",
            [M64 >> 1, rng.getrandbits(63), M64 >> 1, rng.getrandbits(63), M64 >> 1], r26,
            rbytes(16 * n), java_range=False)
    add_jdk("r = 0", jdk_state(r26), [0] * 5, rbytes(16 * n))
    add_jdk("r = 1", jdk_state(r26), [1, 0, 0, 0, 0], rbytes(16 * n))
    add_jdk("acc = 0", [0] * 5, r26, rbytes(16 * n))
    add_jdk("trailing bytes ignored (len % 16 != 0)", jdk_state(r26), r26,
            rbytes(16 * n + 1 + rng.randrange(15)))
add_jdk("len < 16: nothing", [M26] * 4 + [(1 << 26) + 5], to_limbs26(CLAMP), rbytes(15))


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(out):
    p = out.write
    p("/* Generated by tests/kat/gen_poly1305.py (seed %d) -- do not edit. */\n" % SEED)
    p("/* Answers computed with Python integers and the RFC 8439 tags; types in "
      "tests/kat/kat.h. */\n\n")
    p("#define KAT_P1305_NRFC %d\n\n" % N_RFC)
    p("static const uint8_t kat_p1305_bytes[%d] = {\n" % max(1, len(BYTES)))
    for i in range(0, len(BYTES), 16):
        p("\t" + " ".join("0x%02x," % x for x in BYTES[i:i + 16]) + "\n")
    p("};\n\nstatic const struct kat_p1305_mac kat_p1305_mac[] = {\n")
    for what, k, m, n, tag in macs:
        p("\t{ %s, %d, %d, %d, { %s } },\n" % (c_str(what), k, m, n,
                                               ", ".join("0x%02x" % x for x in tag)))
    p("};\n\nstatic const struct kat_p1305_blocks kat_p1305_blocks[] = {\n")
    for what, h, r, m, nb, pad, want in blk:
        p("\t{ %s, { %s }, { %s }, %d, %d, %d, { %s } },\n" % (
            c_str(what), ", ".join("UINT64_C(0x%016x)" % x for x in h),
            ", ".join("UINT64_C(0x%016x)" % x for x in r), m, nb, pad,
            ", ".join("UINT64_C(0x%016x)" % x for x in want)))
    p("};\n\nstatic const struct kat_p1305_jdk kat_p1305_jdk[] = {\n")
    for what, acc, r26, m, n, java, want in jdk:
        p("\t{ %s,\n\t  { %s },\n\t  { %s }, %d, %d, %d,\n\t  { %s },\n\t  { %s } },\n" % (
            c_str(what), ", ".join("INT64_C(%d)" % x for x in acc),
            ", ".join("INT64_C(%d)" % x for x in r26), m, n, java is not None,
            ", ".join("INT64_C(%d)" % x for x in (java or [0] * 5)),
            ", ".join("UINT64_C(0x%016x)" % x for x in want)))
    p("};\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_poly1305.py OUT.h")
    with open(sys.argv[1] + ".tmp", "w") as f:
        emit(f)
    import os
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
