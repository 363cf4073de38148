"""Poly1305 in radix 2^26 for 32x32->64-bit vector multipliers (x86 VPMULUDQ, NEON UMULL):
the arithmetic and its bounds, shared by the x86-64 (AVX2, AVX-512F) and AArch64 (NEON)
emitters.

A 130-bit value is five digits of 26 bits, x = sum_i x_i 2^(26 i), one 64-bit lane each.
2^130 = 5 (mod p) folds the upper half of the schoolbook product back with s_j = 5 r_j:

    d_k = sum_(i <= k) a_i r_(k-i) + sum_(i > k) a_i s_(k-i+5)          k = 0 .. 4
    e.g. d0 = a0 r0 + a1 s4 + a2 s3 + a3 s2 + a4 s1,   d4 = a0 r4 + a1 r3 + ... + a4 r0

25 multiplies and 20 additions. Carries (c = d >> 26, d &= 2^26 - 1, next += c), a schedule
choice:
    "interleaved"  d0 -> d1, d3 -> d4;  d1 -> d2, d4 -> d0 (times 5);  d2 -> d3, d0 -> d1;
                   d3 -> d4       (7 steps in two chains, as in OpenSSL's AVX2 code)
    "serial"       d0 -> d1 -> d2 -> d3 -> d4 -> d0 (times 5) -> d1       (6 steps, one chain)

`carry_bounds` replays this on the largest values and checks that every multiplier input is
below 2^32 and every lane sum below 2^64. Blocks become digits as
lo & M, lo >> 26 & M, (lo >> 52 | hi << 12) & M, hi >> 14 & M, hi >> 40 | pad 2^24.
"""

M26 = (1 << 26) - 1


def terms(k):
    """The products of digit k: [(i, 'r' or 's', j)]."""
    out = []
    for i in range(5):
        j = k - i
        out.append((i, "r", j) if j >= 0 else (i, "s", j + 5))
    return out


CARRIES = {
    "interleaved": [(0, 1), (3, 4), (1, 2), (4, 0), (2, 3), (0, 1), (3, 4)],
    "serial": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 1)],
}


def carry_param():
    from ..kernel import Param
    return Param("serial", ("serial", "interleaved"),
                 "carry order after a product: one chain of 6 steps (fewer instructions) or "
                 "two interleaved chains of 7 (shorter latency)")


class BoundsError(ValueError):
    pass


def _check(what, name, v, limit):
    if v >= 1 << limit:
        raise BoundsError("%s: %s may reach 2^%d (the limit is 2^%d)"
                          % (what, name, v.bit_length(), limit))


def mul_bounds(what, a, r, m=(0,) * 5, carry="serial"):
    """Digit bounds of carry(a * r) + m, for digit maxima a, r (m: added after the carry)."""
    s = [5 * x for x in r]
    for i in range(5):
        _check(what, "a%d" % i, a[i], 32)
        _check(what, "s%d" % i, s[i], 32)
    d = []
    for k in range(5):
        d.append(sum(a[i] * (r if w == "r" else s)[j] for i, w, j in terms(k)))
        _check(what, "d%d" % k, d[-1], 64)
    for src, dst in CARRIES[carry]:
        c = d[src] >> 26
        d[src] = M26
        d[dst] += 5 * c if dst == 0 and src == 4 else c
        _check(what, "d%d" % dst, d[dst], 64)
    out = tuple(x + y for x, y in zip(d, m))
    for i, v in enumerate(out):
        _check(what, "digit %d after the carries" % i, v, 32)
    return out


def kernel_bounds(what, chunks, carry="serial"):
    """Bounds through the kernel: powers from the scalar step (h2 <= 4), the first chunk with
    h added, the loop (a fixed point), the fold; `chunks` lanes summed at the end."""
    top = ((1 << 64) - 1 >> 40) | (4 << 24)          # h1 >> 40 | h2 << 24
    power = (M26, M26, M26, M26, top)
    msg = (M26, M26, M26, M26, (1 << 24) - 1 + (1 << 24))
    a = tuple(x + y for x, y in zip(msg, power))     # message + h (same digit shapes)
    for _ in range(8):
        nxt = mul_bounds(what, a, power, msg, carry)
        if all(x <= y for x, y in zip(nxt, a)):
            break
        a = tuple(max(x, y) for x, y in zip(a, nxt))
    else:
        raise BoundsError("%s: the loop's digit bounds do not settle" % what)
    fold = mul_bounds(what, a, power, carry=carry)
    total = [chunks * x for x in fold]
    for i, v in enumerate(total):
        _check(what, "folded digit %d" % i, v, 58)
    return a, total
