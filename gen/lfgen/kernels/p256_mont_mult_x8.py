"""p256_mont_mult_x8: eight independent p256_mont_mult products in one call, for throughput:
r_k = a_k * b_k * 2^-260 mod p, k = 0..7, in the JDK's MontgomeryIntegerPolynomialP256 layout
(5 x 52-bit limbs, R = 2^260; p256_mont_mult.py has the arithmetic).

Layout: element k occupies limbs [5k, 5k + 5) of each array (element-major, eight long[5]
one after the other), so r, a, b are 40 int64_t each.

    r_k = a_k b_k 2^-260 mod p, a_k, b_k < p (limbs < 2^52); each r_k is exactly
    p256_mont_mult(a_k, b_k): limbs < 2^52, value < p.

x86-64 "ifma" (x86_p256_52.py): radix 2^52 across the 8 lanes of a zmm -- lane k = element
k: the operands are transposed into five limb registers each (two levels of VPERMT2Q over
unaligned 8-qword windows, then VPBLENDMQ/VSHUFI64X2), the 25 lo and 25 hi products issued
column by column into their own accumulators, each reduction step specialised to p (m = the
column's low 52 bits, read directly by IFMA; its carry and lo(m, 2^44) by VPMULTISHIFTQB,
hi(m, 2^44), lo/hi(m, 2^36), lo/hi(m, p4): five IFMA), then t = columns 5..9 and e = t - p
carried to 52-bit limbs side by side and the sign of e selecting t or e lane by lane,
transposed back (VPERMT2Q rows, limb 4 by VPERMQ and plain stores overwritten by the
rows).
"""

from ..kernel import KernelSpec, Variant
from . import x86_p256_52 as x

SPEC = KernelSpec(
    name="p256_mont_mult_x8",
    operation="r_k = a_k * b_k * 2^-260 mod p for k = 0..7 (eight P-256 Montgomery products,\n"
              "MontgomeryIntegerPolynomialP256.mult batched)",
    args=[("r", "int64_t *"), ("a", "const int64_t *"), ("b", "const int64_t *")],
    result=None,
    shapes="r, a, b: 40 int64_t each, eight elements of 5 limbs: element k at [5k, 5k + 5),\n"
           "limb i of an element of weight 2^(52 i); Montgomery domain, R = 2^260.",
    units="elements (always 8).",
    preconditions="every a_k, b_k: limbs in [0, 2^52), value < p. Then every r_k has limbs in\n"
                  "[0, 2^52) and value < p, equal to p256_mont_mult(a_k, b_k). r may alias a\n"
                  "and/or b (the same 40 limbs; partial overlaps are not allowed). Other inputs\n"
                  "give an unspecified result, never a fault. Constant time: no branch or\n"
                  "address depends on a or b.",
    source="OpenJDK MontgomeryIntegerPolynomialP256.mult (JDK-8329538), batched across the\n"
           "lanes of AVX-512 IFMA as in Gueron-Krasnov's and OpenSSL's RSAZ IFMA code.",
    tune_sizes=(8,),
)

VARIANTS = [
    Variant("ifma", "x86_64", x.builder(x.x8_body, SPEC.args, zmm32=True), {},
            "Lane = element: operands transposed to five limb zmm (VPERMT2Q over unaligned\n"
            "windows, VPBLENDMQ, VSHUFI64X2), 25 lo + 25 hi VPMADD52LUQ/HUQ into per-column\n"
            "accumulators, the reduction step specialised to p (m = the column itself; carry\n"
            "and lo(m, 2^44) by VPMULTISHIFTQB, five IFMA: 2^44, 2^36, p4), t = columns 5..9\n"
            "and t - p carried side by side (VPSRLQ / VPSRAQ chains), the sign of t - p selecting\n"
            "by VPTERNLOGQ, transposed back (VPERMT2Q rows; limb 4 by VPERMQ and plain stores).\n"
            "No branch."),
    Variant("mulx", "x86_64", x.builder(x.x8_mulx_body, SPEC.args), {},
            "For CPUs without IFMA: the eight products one after the other, each\n"
            "p256_mont_mult's mulx code (x86_p256_52.mulx_body: 128-bit columns by MULX and\n"
            "ADD/ADC, the reduction steps specialised to p, the final t - p chosen by CMOVS),\n"
            "a loop of eight over the element-major arrays. No branch on the data."),
]
