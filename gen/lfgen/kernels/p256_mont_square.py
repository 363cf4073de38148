"""p256_mont_square: r = a^2 * 2^-260 mod p, the JDK's MontgomeryIntegerPolynomialP256.square
(which is mult(a, a, r)); same layout and reduction as p256_mont_mult.

    r = a^2 2^-260 mod p, a < p. The x86-64 variants run p256_mont_mult's code with b read
    from a's limbs (the JDK's square is mult(a, a); the five reduction steps dominate a 5-limb
    product, and IFMA computes whole rows anyway). The AArch64 variants (a64_p256_mont) form
    each cross product once against a doubled limb: 15 products instead of 25.
"""

from ..kernel import KernelSpec, Variant
from . import x86_p256_52 as x, a64_p256_mont as _a64
from .p256_mont_mult import IFMA_ALGO, MULX_ALGO

SPEC = KernelSpec(
    name="p256_mont_square",
    operation="r = a^2 * 2^-260 mod p (P-256, MontgomeryIntegerPolynomialP256.square)",
    args=[("r", "int64_t *"), ("a", "const int64_t *")],
    result=None,
    shapes="r, a: 5 limbs of 52 bits in int64_t, little-endian limb order, Montgomery\n"
           "domain, R = 2^260.",
    units="limbs of 52 bits.",
    preconditions="a: limbs in [0, 2^52), value < p. Then r has limbs in [0, 2^52), value < p.\n"
                  "r may alias a. Constant time in a.",
    source="OpenJDK MontgomeryIntegerPolynomialP256.square (= mult(a, a, r)).",
    tune_sizes=(5,),                # the bench times one element of 5 limbs
)

VARIANTS = [
    Variant("mulx", "x86_64", x.builder(x.mulx_body, SPEC.args, square=True), {},
            "p256_mont_mult's mulx code with b = a (the cross products once, against a\n"
            "doubled limb: 15 MULX). " + MULX_ALGO),
    Variant("ifma", "x86_64", x.builder(x.ifma_body, SPEC.args, square=True), {},
            "p256_mont_mult's ifma code with b = a. " + IFMA_ALGO),
    Variant("neon", "aarch64", _a64.builder(SPEC, square=True, neon=True), _a64.SQR_NEON_PARAMS,
            _a64.NEON_DOC + "\nSquare: a4 x (2a0..2a3) and a3 x (2a1, 2a2) on Advanced SIMD, the nine\n"
            "other products (cross products once, against a doubled limb) on the GPRs."),
    Variant("a64", "aarch64", _a64.builder(SPEC, square=True), _a64.A64_PARAMS,
            _a64.A64_DOC + "\n"
            "Square: each cross product once, against a doubled limb (15 products)."),
]
