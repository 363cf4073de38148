"""mpn_mul_1: {rp, n} = {ap, n} * b, returning the high limb (GMP semantics).

    a_k * b = hi_k:lo_k          rp_k <- lo_k + hi_(k-1) + carry        return hi_(n-1) + carry

One carry chain (ADD/ADC after MULX on x86-64, adds/adcs after mul/umulh on AArch64).
"""

from ..kernel import KernelSpec, Variant, Param
from . import x86_rows, a64_rows

SPEC = KernelSpec(
    name="mpn_mul_1",
    operation="{rp,n} = {ap,n} * b; returns the high limb",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("n", "size_t"), ("b", "uint64_t")],
    result="uint64_t",
    shapes="rp, ap: n limbs of 64 bits, little-endian limb order (index 0 least significant).\n"
           "b: one limb.",
    units="lengths in limbs; the return value is the limb above {rp,n}.",
    preconditions="n == 0 returns 0 and touches no memory (rp, ap may be NULL). rp == ap (in\n"
                  "place) is allowed; any other overlap gives an undefined result.",
    source="GMP mpn_mul_1 (GMP manual, Low-level Functions).",
    tune_sizes=(16, 32, 64, 128, 256),
)

PARAMS = {
    "unroll": Param(8, (2, 4, 8, 16), "limbs per loop iteration"),
    "ahead": Param(1, (0, 1, 2, 3), "MULX of limb k+ahead issued among the adds of limb k"),
}



VARIANTS = [
    Variant("mulx", "x86_64", x86_rows.mpn_row_kernel(SPEC, "mul", "adc"),
            dict(PARAMS, short=x86_rows.SHORT),
            "MULX with one ADD/ADC chain; up to `short` limbs straight-line code per n,\n"
            "otherwise n mod unroll leading limbs in segments of 1, 2, 4, ... limbs, then\n"
            "n/unroll unrolled iterations."),
    Variant("a64", "aarch64", a64_rows.mpn_row_kernel(SPEC, "mul"), a64_rows.PARAMS,
            "Pairs of limbs: ldp, mul/umulh, one adds/adcs chain, stp; the loads of the next\n"
            "pair are issued among the multiplies of this one."),
]
