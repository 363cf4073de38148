"""Field descriptions: what a reader gives the generator (KERNELS.md §4.1, §4.3).

A field is p = 2^power - c with c small against 2^power (every prime here).  A
representation stores an element as `limbs` int64_t limbs of `bits` bits each, value =
sum limb_i 2^(bits i) mod p, little-endian limb order:

    signed=True   the JDK's IntegerPolynomial: limbs centred in [-2^(bits-1), 2^(bits-1))
                  after a carry (rounding carries), negative limbs allowed everywhere;
    signed=False  native radix: limbs in [0, 2^bits) after a carry (floor carries), kept
                  non-negative by adding a multiple of p in `sub` and `neg`.

`carries` chooses how products carry their columns: "chain" (the default: column t takes
the carry out of column t - 1 as the products form it, then the top limb folds back and
limb 0 is carried again) or "two chains" (ops.TwoChains: two chains of about half the
limbs side by side, as OpenSSL's fe51 code; native limbs, one reduction term into limb 0).

`word_carries` (native limbs) trades lazy additions for cheaper products: the budget of
lazy additions becomes the largest for which every carry out of a product's column (and
the top carry times the fold constant) fits one int64 word, as in OpenSSL's fe51 and
donna-64 (inputs of a few times 2^51), instead of the largest for which the columns fit
int128 at all.  With Curve25519's 5 x 51 that is 5 lazy additions instead of 214, and
each carry is one SHRD (or SHR/SHL/OR) into the next column (ADD, ADC $0) where a
128-bit carry also shifts and adds a high word; the x86-64 product then takes 35.9 core
cycles instead of 38.8 on AMD Zen 5, the square 26.4 instead of 29.0 (2026-12-02,
limbforge-bench).

From that the generator derives the reduction terms (2^power = c mod p, c written as
balanced base-2^bits digits, as the JDK's FieldGen buildTerms does), the carry chains,
the number of lazy additions a product accepts, and every bound (bounds.py, ops.py).
"""

P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
P384 = 2**384 - 2**128 - 2**96 + 2**32 - 1
P521 = 2**521 - 1
P25519 = 2**255 - 19
P448 = 2**448 - 2**224 - 1


class Field:
    def __init__(self, name, prime, p, power, limbs, bits, signed, source, a24=None,
                 carries="chain", word_carries=False):
        self.name = name            # C name part: lf_fe_<name>_mul
        self.prime = prime          # "P-256", "Curve25519", ...
        self.p = p
        self.power = power
        self.limbs = limbs
        self.bits = bits
        self.signed = signed
        self.source = source
        self.a24 = a24              # (A - 2) / 4 of the Montgomery curve, for the ladder
        self.carries = carries      # how products carry their columns (ops.mul): "chain" or
        #                             "two chains"
        self.word_carries = word_carries   # the budget keeps every product carry in one word
        self.c = (1 << power) - p
        if not 0 < self.c < (1 << (power - 1)):
            raise ValueError("%s: p must be 2^%d - c with 0 < c < 2^%d"
                             % (name, power, power - 1))
        if not (limbs - 1) * bits < power <= limbs * bits:
            raise ValueError("%s: %d limbs of %d bits do not cover 2^%d exactly once"
                             % (name, limbs, bits, power))
        self.top_bits = power - (limbs - 1) * bits   # bits of the top limb below 2^power
        self.nbytes = (power + 7) // 8
        self.terms = balanced_terms(self.c, bits)

    @property
    def layout(self):
        kind = ("signed (JDK IntegerPolynomial)" if self.signed else "unsigned (native radix)")
        return ("%d x %d-bit limbs, radix 2^%d, %s; int64_t[%d], limb i of weight 2^(%d i), "
                "little-endian limb order; the top limb holds %d bits below 2^%d"
                % (self.limbs, self.bits, self.bits, kind, self.limbs, self.bits,
                   self.top_bits, self.power))

    def modulus_text(self):
        parts = []
        for pw, co in self.terms:
            parts.append("%s %s" % ("-" if co > 0 else "+",
                                    ("2^%d" % pw if abs(co) == 1 else "%d*2^%d" % (abs(co), pw))
                                    if pw else str(abs(co))))
        return "2^%d %s" % (self.power, " ".join(parts))


def balanced_terms(c, b):
    """c as sum coeff * 2^pow with balanced base-2^b digits (FieldGen's buildTerms), each
    digit's trailing zeros moved into pow: [(pow, coeff)], ascending."""
    terms, i = [], 0
    while c:
        d = c & ((1 << b) - 1)
        c >>= b
        if d >= 1 << (b - 1):
            d -= 1 << b
            c += 1
        if d:
            tz = (abs(d) & -abs(d)).bit_length() - 1
            terms.append((i * b + tz, d >> tz))
        i += 1
    return terms


J = "OpenJDK sun.security.util.math.intpoly (FieldGen, JDK-8295010)"
FIELDS = [
    Field("p256_r26", "P-256", P256, 256, 10, 26, True, J + ": IntegerPolynomialP256"),
    Field("p256_r52", "P-256", P256, 256, 5, 52, False, "FIPS 186-5 / SEC 2 P-256, native"),
    Field("p384_r28", "P-384", P384, 384, 14, 28, True, J + ": IntegerPolynomialP384"),
    Field("p384_r56", "P-384", P384, 384, 7, 56, False, "FIPS 186-5 / SEC 2 P-384, native"),
    Field("p521_r28", "P-521", P521, 521, 19, 28, True, J + ": IntegerPolynomialP521"),
    Field("p521_r58", "P-521", P521, 521, 9, 58, False, "FIPS 186-5 P-521, native"),
    Field("c25519_r26", "Curve25519", P25519, 255, 10, 26, True,
          J + ": IntegerPolynomial25519 (FieldGen's 10 x 26)", a24=121665),
    Field("c25519_r51", "Curve25519", P25519, 255, 5, 51, False,
          "RFC 7748 §5; the 5 x 51 layout of ref10/donna-64 and the JDK's current "
          "IntegerPolynomial25519", a24=121665, carries="two chains", word_carries=True),
    Field("c448_r28", "Curve448", P448, 448, 16, 28, True, J + ": IntegerPolynomial448",
          a24=39081),
    Field("c448_r56", "Curve448", P448, 448, 8, 56, False,
          "RFC 7748 §5; the 8 x 56 layout of OpenSSL's curve448 arch_64", a24=39081),
    Field("c448_r50", "Curve448", P448, 448, 9, 50, False,
          "RFC 7748 §5; 9 x 50 bits so that every limb, with headroom, fits the 52-bit\n"
          "operands of AVX-512 IFMA (the lane-parallel X448 ladder)", a24=39081),
]

BY_NAME = {f.name: f for f in FIELDS}
