"""p256_mont_mult: r = a * b * 2^-260 mod p in the JDK's MontgomeryIntegerPolynomialP256 layout
(KERNELS.md §3.1-3.2): five limbs of 52 bits, R = 2^260, p = 2^256 - 2^224 + 2^192 + 2^96 - 1.

    a = a0 + a1 2^52 + a2 2^104 + a3 2^156 + a4 2^208        limbs in [0, 2^52), value < p

Word-by-word Montgomery, 5 rows. p = -1 mod 2^52, so -p^-1 = 1 mod 2^52 and the quotient digit
of row i is the low 52 bits of the running low column itself (Gueron-Krasnov, Fig. 5):

    row i:  c_(i+j) += lo(a_j b_i), c_(i+j+1) += hi(a_j b_i)      j = 0..4
            m = c_i mod 2^52
            c_(i+j) += lo(m p_j), c_(i+j+1) += hi(m p_j)          (c_i becomes 0 mod 2^52)
            c_(i+1) += c_i >> 52
    lo(x y) = x y mod 2^52, hi(x y) = floor(x y / 2^52), x, y < 2^52
    after 5 rows: t = c5 .. c9 carried to 52-bit limbs (t < 2p), r = t - p if that is >= 0,
    else t, chosen by a mask (no branch).

    p in 52-bit limbs: [2^52-1, 2^44-1, 0, 2^36, 2^48-2^16]

Bounds: t = (a b + M p) / 2^260 with M < 2^260 and a, b < p, so t < (p^2 + 2^260 p) / 2^260
< 2p; a column gathers fewer than 17 terms below 2^52, so no 64-bit lane or register
overflows. p's shape makes a reduction step cheaper (m (2^96 - 1) at column i is "carry
column i >> 52 into column i + 1" plus m 2^44 at column i + 1): x86_p256_52.py.

Variants (x86_p256_52.py): "ifma" -- the JDK's AVX-512 montgomeryMultiply, A and p in the
lanes of a zmm, one broadcast b_i per row, the final carries and the choice by mask
registers; "mulx" (first on x86-64) -- scalar product scanning, 128-bit MULX columns, the
specialised reduction terms entering later columns as shifts.
"""

from ..kernel import KernelSpec, Variant
from . import x86_p256_52 as x, a64_p256_mont as _a64

SPEC = KernelSpec(
    name="p256_mont_mult",
    operation="r = a * b * 2^-260 mod p (P-256, MontgomeryIntegerPolynomialP256.mult)",
    args=[("r", "int64_t *"), ("a", "const int64_t *"), ("b", "const int64_t *")],
    result=None,
    shapes="r, a, b: 5 limbs of 52 bits in int64_t, little-endian limb order (limb i has\n"
           "weight 2^(52 i)), the JDK's long[5]; Montgomery domain, R = 2^260.",
    units="limbs of 52 bits.",
    preconditions="a, b: limbs in [0, 2^52), value < p (the JDK reduces before every mult:\n"
                  "MAX_ADDS = 0). Then r has limbs in [0, 2^52) and value < p, fully reduced.\n"
                  "r may alias a and/or b. Limbs outside [0, 2^52) or values >= p give an\n"
                  "unspecified result, never a fault. Constant time: no branch or address\n"
                  "depends on a or b.",
    source="OpenJDK sun.security.util.math.intpoly.MontgomeryIntegerPolynomialP256.mult\n"
           "(JDK-8329538, JDK-8350459); Gueron & Krasnov, 'Fast prime field elliptic curve\n"
           "cryptography with 256-bit primes' (2014), Fig. 5.",
    tune_sizes=(5,),                # the bench times one element of 5 limbs
)

IFMA_ALGO = ("One element in lanes 0..4 of a zmm (the JDK's montgomeryMultiply): per row b_i\n"
             "broadcast, lo/hi(A, b_i) by VPMADD52LUQ/HUQ into fresh registers, the quotient\n"
             "digit N = lane 0 of Acc + lo(A, b_i) broadcast, lo/hi(p, N), the cleared lane's\n"
             "carry by a masked add, Acc shifted down a lane (VALIGNQ) plus the hi sums; then t\n"
             "and t + 2^260 - p carried to 52-bit lanes by generate/propagate mask arithmetic\n"
             "(KMOVB, LEA, XOR), the carry out of lane 4 selects t - p by a masked move; masked\n"
             "load and store of the 5 limbs. No branch.")
MULX_ALGO = ("Product scanning: the columns sum a_i b_(c-i) as 128-bit MULX sums (ADD/ADC),\n"
             "each formed just before the carry chain reaches it; the digit m_c = BZHI 52 of\n"
             "the column, its reduction terms by shifts (m 2^44, m 2^36) and one MULX (m p4)\n"
             "into later columns, the carry and m 2^44's low piece from the column's own words;\n"
             "t - p with SAR borrows, CMOVS on the sign. No branch. First choice on x86-64\n"
             "(chained products: lower latency than the zmm code).")

VARIANTS = [
    Variant("mulx", "x86_64", x.builder(x.mulx_body, SPEC.args), {}, MULX_ALGO),
    Variant("ifma", "x86_64", x.builder(x.ifma_body, SPEC.args), {}, IFMA_ALGO),
    Variant("neon", "aarch64", _a64.builder(SPEC, neon=True), _a64.PARAMS, _a64.NEON_DOC),
    Variant("a64", "aarch64", _a64.builder(SPEC), _a64.A64_PARAMS, _a64.A64_DOC),
]
