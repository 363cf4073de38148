"""mpn_sqr: {rp, 2n} = {ap, n}^2 (GMP semantics).

Squaring computes each cross product once:

    a^2 = sum_i a_i^2 B^(2i) + 2 * sum_(i<j) a_i a_j B^(i+j)          B = 2^64

    1. triangle  T = sum_(i<j) a_i a_j B^(i+j): row 0 is a mul_1 of a_1..a_(n-1) by a_0 into
       rp[1..n]; row i (1 <= i <= n-2) an addmul_1 of a_(i+1)..a_(n-1) by a_i into
       rp[2i+1 .. i+n], its carry stored at rp[i+n]; rp[0] = rp[2n-1] = 0;
    2. final pass: (rp[2q], rp[2q+1]) = 2*(rp[2q], rp[2q+1]) + a_q^2 + carries, q = 0..n-1.

       rp:  [0][ T1 ][ T2 ] ... [T(2n-2)][0]      after the rows
            [ lo(a0^2) | hi(a0^2) ] [ lo(a1^2) | hi(a1^2) ] ...    added to 2T
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import a64_rows, x86_ifma_sqr

SPEC = KernelSpec(
    name="mpn_sqr",
    operation="{rp,2n} = {ap,n}^2",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("n", "size_t")],
    result=None,
    shapes="ap: n limbs, rp: 2n limbs; 64-bit limbs, little-endian limb order.",
    units="lengths in limbs.",
    preconditions="n == 0 touches no memory (rp, ap may be NULL). {rp,2n} must not overlap\n"
                  "{ap,n} (undefined result otherwise).",
    source="GMP mpn_sqr (GMP manual, Low-level Functions); the triangle-and-double method\n"
           "of GMP's sqr_basecase (and BigInteger.squareToLen).",
    tune_sizes=(16, 32, 64, 128),
)



PARAMS = {
    "unroll": Param(8, (2, 4, 8, 16), "limbs per iteration of the addmul_1 rows"),
    "ahead": Param(1, (0, 1, 2, 3), "MULX of limb k+ahead issued among the adds of limb k"),
    "small": Param(8, (0, 4, 6, 8, 9, 10, 12, 16), "up to this many limbs: straight-line code per n",
                   kind="size", sizes=range(1, 18)),
    "corner": Param(16, (0, 8, 12, 16, 20, 24), "rows shorter than this: one straight-line corner",
                    kind="size", sizes=(10, 13, 17, 21, 25, 32, 40)),
}


def build_x86(symbol, p):
    from peachpy.x86_64 import TEST, JZ
    from ..x86 import function as x86
    from . import x86_sqr
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    with f:
        rp, ap, n = f.load_args()
        TEST(n, n)
        JZ(f.exit_label)
        x86_sqr.square(f, rp, ap, n, p, diag=x86_sqr.PlainDiag(ap))
        f.ret()
    return f.finalize()


def build_ifma(symbol, p):
    from ..x86 import function as x86
    from . import x86_ifma_sqr
    f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    # n outside [ifma_min, ifma_max] (n == 0 included) runs the scalar adx variant, reached
    # before this function's frame is built: no register saves, no vzeroupper on that path
    f.tail_call_outside(2, p.ifma_min, p.ifma_max, p.sibling("adx"))
    with f:
        rp, ap, n = f.load_args()
        x86_ifma_sqr.square(f, rp, ap, n, p)
        f.ret()
    return f.finalize()


def build_a64(symbol, p):
    from ..a64.function import Function
    from . import a64_sqr
    f = Function(symbol, SPEC.args, SPEC.result)
    rp, ap, n = f.arg_regs
    done = f.new_label("n0")
    f.cbz(n, done)
    a64_sqr.square(f, rp, ap, n, p, diag=a64_sqr.plain_diag(f, ap))
    f.bind(done)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, x86_ifma_sqr.PARAMS,
            "Radix 2^52: the triangle by AVX-512 IFMA into zmm accumulators (a window of 8\n"
            "digits times broadcast digits), doubled, plus the squares, normalised and packed\n"
            "back to 64-bit limbs (x86_ifma_sqr); other sizes jump to the adx variant before\n"
            "the frame."),
    Variant("adx", "x86_64", build_x86, PARAMS,
            "Triangle by MULX/ADCX/ADOX rows (x86_rows), then one pass doubling on the CF\n"
            "chain and adding the squares on the OF chain (x86_sqr).",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("a64", "aarch64", build_a64, a64_rows.PARAMS,
            "Triangle by software-pipelined mul/umulh rows (a64_rows), then one pass of\n"
            "extr-doubling with adds/adcs of the squares (a64_sqr)."),
]
