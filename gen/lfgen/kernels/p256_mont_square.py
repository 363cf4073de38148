"""p256_mont_square: r = a^2 * 2^-260 mod p, the JDK's MontgomeryIntegerPolynomialP256.square
(which is mult(a, a, r)); same layout and reduction as p256_mont_mult."""

from ..kernel import KernelSpec, Variant

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
    tune_sizes=(1,),
)

VARIANTS = []

from . import a64_p256_mont as _a64  # noqa: E402

VARIANTS += [
    Variant("neon", "aarch64", _a64.builder(SPEC, square=True, neon=True), _a64.SQR_NEON_PARAMS,
            _a64.NEON_DOC + "\nSquare: a4 x (2a0..2a3) and a3 x (2a1, 2a2) on Advanced SIMD, the nine\n"
            "other products (cross products once, against a doubled limb) on the GPRs."),
    Variant("a64", "aarch64", _a64.builder(SPEC, square=True), _a64.A64_PARAMS,
            _a64.A64_DOC + "\n"
            "Square: each cross product once, against a doubled limb (15 products)."),
]
