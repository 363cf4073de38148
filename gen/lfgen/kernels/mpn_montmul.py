"""mpn_montmul: {rp, n} = a * b * R^-1 mod N, R = 2^(64 n) (Montgomery multiplication, REDC).

With B = 2^64, N odd, n0inv = -N^-1 mod B and a, b < N, the coarsely integrated operand
scanning form (CIOS, Koc-Acar-Kaliski 1996) keeps an accumulator t of n limbs plus a top bit:

    t = 0
    for i = 0 .. n-1:
        t = t + a * b_i                           row of a, carry into the top limbs
        m = t_0 * n0inv mod B                     so that t + m N = 0 mod B
        t = (t + m * N) / B                       row of N, shifted down one limb as it is stored
    (t < 2N throughout)
    t >= N ? t - N : t                            one constant-time conditional subtraction

    t (in rp):  [ t0  t1  ...  t(n-1) ] top        top in {0, 1} between iterations
    a * b_i:    [ lo0 ........ lo(n-1)] cy         row i of a: t += a b_i
    m * N:      [ 0   ..............  ] cy         row i of N, limb 0 known to cancel:
    stored:     [ t1' ... t(n-1)'  t(n)' ]            only hi(m N_0) and (t0 != 0) are
                                                       needed; t_k lands in t_(k-1)

The final subtraction computes the borrow of t - N first (no store), then subtracts N & mask
with mask = -(top or no borrow): the same instructions and addresses for every value.
"""

from ..kernel import KernelSpec, Variant, ADX_CHAINS
from .mpn_addmul_1 import PARAMS as X86_PARAMS
from . import x86_ifma_mont

SPEC = KernelSpec(
    name="mpn_montmul",
    operation="{rp,n} = {ap,n} * {bp,n} * 2^(-64 n) mod {np,n} (Montgomery multiplication)",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("bp", "const uint64_t *"),
          ("np", "const uint64_t *"), ("n0inv", "uint64_t"), ("n", "size_t")],
    result=None,
    shapes="rp, ap, bp, np: n limbs of 64 bits, little-endian limb order (index 0 least\n"
           "significant). n0inv: one limb.",
    units="lengths in limbs; R = 2^(64 n).",
    preconditions="N = {np,n} odd, n0inv = -N^-1 mod 2^64, {ap,n} < N and {bp,n} < N: then\n"
                  "{rp,n} = a b R^-1 mod N, fully reduced (< N). Inputs >= N (but < R) give a\n"
                  "congruent result below R, not necessarily below N. A wrong n0inv or an even\n"
                  "N gives a meaningless result, never a fault. {rp,n} must not overlap {ap,n},\n"
                  "{bp,n} or {np,n} (rp is the accumulator; the public lf_mpn_montmul also\n"
                  "allows rp == ap or rp == bp); ap == bp (squaring) is allowed. n == 0 touches\n"
                  "no memory. Constant time: no branch or address depends on a, b or N.",
    source="Koc, Acar, Kaliski, 'Analyzing and comparing Montgomery multiplication\n"
           "algorithms' (IEEE Micro 1996), CIOS; OpenSSL bn_mul_mont / GMP mpn_redc_1;\n"
           "BigInteger.implMontgomeryMultiply (HotSpot SharedRuntime::montgomery_multiply).",
    tune_sizes=(8, 16, 32, 48, 64),
)


def final_subtract(f, rp, t, np, n, top):
    """{rp,n} = t + top R minus N if that is >= N, else t (top in {0, 1}; clobbered), in
    constant time: the borrow of t - N first (flags only: DEC and LEA keep CF), then
    rp = t - (N & mask), mask = -(top or no borrow). rp may be t. np and n may be memory."""
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, XOR, SBB, NEG, AND, NOT, SAR,
                                CLC, LEA, DEC, JNZ)
    o, a, ln, x, y, bw = (GeneralPurposeRegister64() for _ in range(6))
    CLC()
    MOV(o, t)
    MOV(a, np)
    MOV(ln, n)
    scan = f.new_label("borrow")
    f.bind(scan)
    MOV(x, [o])
    SBB(x, [a])
    LEA(o, [o + 8])
    LEA(a, [a + 8])
    DEC(ln)
    JNZ(scan)
    SBB(top, 0)                                     # 1, 0: subtract; -1: keep
    SAR(top, 63)
    NOT(top)                                        # mask
    XOR(bw.as_dword, bw.as_dword)
    MOV(o, t)
    MOV(a, np)
    MOV(ln, n)
    if rp is t:
        r = o
    else:
        r = GeneralPurposeRegister64()
        MOV(r, rp)
    sub = f.new_label("subtract")
    f.bind(sub)
    MOV(x, [a])
    AND(x, top)
    MOV(y, [o])
    NEG(bw)                                         # CF = borrow in
    SBB(y, x)
    SBB(bw, bw)                                     # -borrow out
    MOV([r], y)
    LEA(o, [o + 8])
    if r is not o:
        LEA(r, [r + 8])
    LEA(a, [a + 8])
    DEC(ln)
    JNZ(sub)


def build_adx(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, XOR, IMUL, MULX, ADD, ADC, CMP,
                                LEA, DEC, TEST, JZ, JE, JNZ, rdx)
    from ..x86 import function as x86
    from . import x86_rows
    from .x86_rows import Digits

    class Shifted(Digits):
        """The accumulator as read and written by the row of N: digit k is read at t_k and
        stored one limb down, at t_(k-1)."""
        def store(self, k, reg):
            MOV([self.base + 8 * k - 8], reg)

    f = x86.Function(symbol, SPEC.args, SPEC.result)
    with f:
        rp, ap, bp, np, n0inv, n = f.load_args()
        TEST(n, n)
        JZ(f.exit_label)
        # parked while the rows need every register
        s_n0inv, s_n, s_end, s_ap, s_np, s_top2 = f.red_zone_slots(6)
        MOV(s_n0inv, n0inv)
        MOV(s_n, n)
        MOV(s_ap, ap)
        MOV(s_np, np)
        LEA(n, [bp + n * 8])
        MOV(s_end, n)                                   # bp + 8 n: end of b
        top, top2, cy, o, a, ln = (GeneralPurposeRegister64() for _ in range(6))
        XOR(top.as_dword, top.as_dword)
        loop = f.new_label("outer")
        final = f.new_label("final")
        for i0 in (True, False):
            if not i0:
                f.bind(loop)
            # t (+)= a * b_i; top2:top += carry
            MOV(rdx, [bp])
            XOR(cy.as_dword, cy.as_dword)
            MOV(o, rp)
            MOV(a, s_ap)
            MOV(ln, s_n)
            x86_rows.row(f, Digits(o), Digits(a), ln, "mul" if i0 else "addmul", "adx",
                         p.unroll, p.ahead, cy, region="mul_a" if i0 else "addmul_a")
            XOR(top2.as_dword, top2.as_dword)
            ADD(top, cy)
            ADC(top2, 0)
            MOV(s_top2, top2)
            # m = t0 * n0inv; limb 0 of t + m N is 0: carry = hi(m N_0) + (t0 != 0)
            MOV(rdx, [rp])
            IMUL(rdx, s_n0inv)
            lo0 = GeneralPurposeRegister64()
            MOV(a, s_np)
            MULX(cy, lo0, [a])
            ADD(lo0, [rp])
            ADC(cy, 0)
            LEA(o, [rp + 8])
            LEA(a, [a + 8])
            MOV(ln, s_n)
            DEC(ln)
            x86_rows.row(f, Shifted(o), Digits(a), ln, "addmul", "adx", p.unroll, p.ahead,
                         cy, region="addmul_n")
            # t_(n-1) = top + carry, top = top2 + carry-out
            ADD(cy, top)
            MOV([o - 8], cy)
            MOV(top, s_top2)                            # (MOV keeps CF)
            ADC(top, 0)
            LEA(bp, [bp + 8])
            CMP(bp, s_end)
            if i0:
                JE(final)
            else:
                JNZ(loop)
        f.bind(final)
        final_subtract(f, rp, rp, s_np, s_n, top)
        f.ret()
    return f.finalize()


def build_ifma(symbol, p):
    from ..x86 import function as x86
    from . import x86_ifma_mont
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    # n outside [ifma_min, ifma_max] (n == 0 included) runs the adx variant, reached before
    # this function's frame is built
    f.tail_call_outside(5, p.ifma_min, p.ifma_max, p.sibling("adx"))
    with f:
        rp, ap, bp, np, n0inv, n = f.load_args()
        x86_ifma_mont.montmul(f, rp, ap, bp, np, n0inv, n, p)
        f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, x86_ifma_mont.PARAMS,
            "Radix 2^52 almost Montgomery multiplication (x86_ifma_mont): b shifted by\n"
            "52D - 64n bits, one digit of b per iteration into V zmm accumulators with\n"
            "VPMADD52LUQ/HUQ and a one-digit VALIGNQ shift, digit 0 exact in a scalar; packed\n"
            "back to limbs, constant-time final subtraction. Other sizes jump to adx.\n"),
    Variant("adx", "x86_64", build_adx, X86_PARAMS,
            "CIOS: per limb b_i one MULX/ADCX/ADOX row of a into the accumulator (rp), then\n"
            "m = t0 n0inv and one row of N stored a limb lower (x86_rows); constant-time\n"
            "final subtraction.",
            unmodelled={"ahead": ADX_CHAINS}),
]
