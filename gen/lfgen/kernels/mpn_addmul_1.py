"""mpn_addmul_1: {rp, n} += {ap, n} * b, returning the carry-out limb (GMP semantics).

    rp:  r0   r1   r2  ...  r(n-1)        limbs, little-endian (index 0 least significant)
    ap:  a0   a1   a2  ...  a(n-1)
         a_k * b = hi_k:lo_k
    rp_k <- lo_k + hi_(k-1) + r_k + carries      carry-out = hi_(n-1) + final carries

x86-64 "adx": two carry chains -- CF adds hi_(k-1) to lo_k (ADCX), OF adds r_k (ADOX) -- so
MULX, ADCX, ADOX and the store are the only work per limb. "mulx": BMI2 only, both carries
folded into hi per limb. AArch64 "a64": mul/umulh with ldp/stp pairs; the single carry flag
forces two sequential adds/adcs chains per pair, the loads of the next pair are issued among
the multiplies of this one.
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import x86_rows, a64_rows

SPEC = KernelSpec(
    name="mpn_addmul_1",
    operation="{rp,n} += {ap,n} * b; returns the carry-out limb",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("n", "size_t"), ("b", "uint64_t")],
    result="uint64_t",
    shapes="rp, ap: n limbs of 64 bits, little-endian limb order (index 0 least significant).\n"
           "b: one limb.",
    units="lengths in limbs; the return value is the limb that does not fit in {rp,n}.",
    preconditions="n == 0 returns 0 and touches no memory (rp, ap may be NULL). rp == ap\n"
                  "(in place) is allowed; any other overlap of {rp,n} and {ap,n} gives an\n"
                  "undefined result.",
    source="GMP mpn_addmul_1 (GMP manual, Low-level Functions); the x86-64 two-chain form\n"
           "follows Intel's ADX white paper (Ozturk et al., 2012) as used by GMP/OpenSSL.",
    tune_sizes=(16, 32, 64, 128, 256),
)

PARAMS = {
    "unroll": Param(8, (2, 4, 8, 16), "limbs per loop iteration"),
    "ahead": Param(1, (0, 1, 2, 3), "MULX of limb k+ahead issued among the adds of limb k"),
}



VARIANTS = [
    Variant("adx", "x86_64", x86_rows.mpn_row_kernel(SPEC, "addmul", "adx"),
            dict(PARAMS, short=x86_rows.SHORT),
            "Rows of MULX with ADCX/ADOX carry chains; up to `short` limbs straight-line code\n"
            "per n, otherwise n mod unroll leading limbs in straight-line segments of 1, 2, 4,\n"
            "... limbs, then n/unroll unrolled iterations.",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("mulx", "x86_64", x86_rows.mpn_row_kernel(SPEC, "addmul", "adc"),
            dict(PARAMS, short=x86_rows.SHORT),
            "MULX with ADD/ADC, both carries folded into the high half per limb (no ADX); up\n"
            "to `short` limbs straight-line code per n."),
    Variant("a64", "aarch64", a64_rows.mpn_row_kernel(SPEC, "addmul"), a64_rows.PARAMS,
            "Pairs of limbs: ldp, mul/umulh, adds/adcs product chain then adds/adcs into rp,\n"
            "stp; loads of the next pair interleaved with the multiplies of this one."),
]
