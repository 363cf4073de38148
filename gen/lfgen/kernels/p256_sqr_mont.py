"""p256_sqr_mont: r = a^2 * 2^-256 mod p (P-256), four 64-bit limbs (see p256_mul_mont.py for
the reduction specialised to p).

Squaring computes each cross product once (OpenSSL __ecp_nistz256_sqr_montx / armv8
__ecp_nistz256_sqr_mont):

    cross    c = a0 a1 B + a0 a2 B^2 + (a0 a3 + a1 a2) B^3 + a1 a3 B^4 + a2 a3 B^5   (6 products)
    square   s = 2 c + a0^2 + a1^2 B^2 + a2^2 B^4 + a3^2 B^6                        (8 limbs)
    reduce   four reduction steps on the low half s0..s3 (m = s0, then the window's low limb;
             each: limb 1 += m << 32, limb 2 += m >> 32, limbs 3:4 += m p3), the four limbs
             they leave added to the high half s4..s7, t < 2p in five limbs; on x86-64
             m << 32 and m >> 32 come from one MULX by 2^32 or SHL/SHR, m p3 from a MULX or
             SUB/SBB, as the schedule says (p256_mul_mont.x86_reduce_step)
    final    r = t - p unless that borrows (CMOVC / csel)

On x86-64 the cross products are summed by ADD/ADC chains (the row a0 (a1, a2, a3); the row
a1 (a2, a3) summed, then added at B^3; a2 a3 added at B^5), then the doubling (ADCX x, x) and
the squares (ADOX) run as two carry chains interleaved limb by limb. Chains that begin with
ADD (five ports) leave ports 0/6 to the carry-consuming instructions, which bound the
latency on Golden Cove (p256_mul_mont.py): 44 of those against 54 in __ecp_nistz256_sqr_montx
(ADCX/ADOX cross rows, SHLX/SHRX in the reduction). make bench on a Sapphire-Rapids-class
guest, chained x = x^2: 37.3 core cycles per call, against 39.8 with the doubling and the
squares as two ADD/ADC chains one after the other (42 such instructions, but a chain twice
as deep) and 40.0 with the OpenSSL schedule's ADCX/ADOX cross rows (shifts by MULX);
independent calls 35.0, 34.0 and 30.0: the latency is what the ECDH ladder pays, and
lf_p256_ecdh measured the same with either of the first two (1.13-1.14x OpenSSL's EVP
derive).
On AArch64 the doubling is one adds/adcs chain and the squares a second one after it.
"""

from ..kernel import KernelSpec, Variant
from . import p256_mul_mont as mm

SPEC = KernelSpec(
    name="p256_sqr_mont",
    operation="r = a^2 * 2^-256 mod p, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (P-256 Montgomery\n"
              "squaring)",
    args=[("r", "uint64_t *"), ("a", "const uint64_t *")],
    result=None,
    shapes="r, a: 4 limbs of 64 bits (uint64_t[4]), little-endian limb order (index 0 least\n"
           "significant), as OpenSSL's ecp_nistz256 (BN_ULONG[P256_LIMBS]).",
    units=mm.UNITS,
    preconditions="a < p: r = a^2 2^-256 mod p, fully reduced (< p). a in [p, 2^256) (not allowed\n"
                  "by the contract) gives a value congruent mod p below 2^256, not necessarily\n"
                  "below p; never a fault. r may alias a (a is read before r is written).\n" +
                  mm.CT,
    source="OpenSSL crypto/ec/asm/ecp_nistz256-x86_64.pl (__ecp_nistz256_sqr_montx) and\n"
           "ecp_nistz256-armv8.pl (__ecp_nistz256_sqr_mont); Gueron & Krasnov (2015).",
    tune_sizes=(4,),
)


def build_sqr_adx(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, XOR, ADD, ADC, ADCX, ADOX,
                                MULX, rdx)
    from ..x86 import function as x86
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    f.secret_independent()
    with f:
        rp, ap = f.load_args()
        acc = [G() for _ in range(8)]
        a1, a2, a3 = G(), G(), G()
        t0, t1, t4 = G(), G(), G()
        MOV(rdx, [ap])
        MOV(a1, [ap + 8])
        MOV(a2, [ap + 16])
        MOV(a3, [ap + 24])
        f.comment("cross products a_i a_j, i < j, into acc1..acc6: ADD/ADC chains")
        MULX(acc[2], acc[1], a1)                    # a0 a1
        MULX(acc[3], t0, a2)                        # a0 a2
        ADD(acc[2], t0)
        MULX(acc[4], t1, a3)                        # a0 a3
        MOV(rdx, a1)
        ADC(acc[3], t1)
        ADC(acc[4], 0)                              # cannot overflow
        MULX(t1, t0, a2)                            # a1 a2: the row a1 (a2 + a3 B) ...
        MULX(acc[5], t4, a3)                        # a1 a3
        ADD(t1, t4)
        ADC(acc[5], 0)                              # cannot overflow
        ADD(acc[3], t0)                             # ... added at B^3
        ADC(acc[4], t1)
        ADC(acc[5], 0)                              # the cross sum so far is below B^6
        MOV(rdx, a2)
        MULX(acc[6], t4, a3)                        # a2 a3
        ADD(acc[5], t4)
        ADC(acc[6], 0)
        f.comment("doubled (ADCX x, x) while the squares are added (ADOX), limb by limb")
        XOR(acc[7].as_dword, acc[7].as_dword)       # CF = OF = 0
        MOV(rdx, [ap])
        MULX(t1, acc[0], rdx)                       # a0^2
        ADCX(acc[1], acc[1])
        ADOX(acc[1], t1)
        for k, ak in ((1, a1), (2, a2), (3, a3)):
            MOV(rdx, ak)
            MULX(t1, t0, rdx)                       # a_k^2
            ADCX(acc[2 * k], acc[2 * k])
            ADOX(acc[2 * k], t0)
            ADCX(acc[2 * k + 1], acc[2 * k + 1])
            ADOX(acc[2 * k + 1], t1)
        W = acc[0:4]
        for i in range(4):
            f.comment("reduction step %d: m = limb 0 of the window" % (i + 1))
            W = mm.x86_reduce_step(W, t0, t1, t4, p)
        f.comment("+ the high half; t < 2p in five limbs; r = t - p unless that borrows")
        mm.x86_add_window_final(acc, W, rp)
        f.ret()
    return f.finalize()


def build_sqr_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    f = Function(symbol, SPEC.args, SPEC.result)
    f.secret_independent()
    rp, ap = f.arg_regs
    a = f.gprs(4, "a")
    acc = f.gprs(8, "acc")
    t = f.gprs(4, "t")
    f.ldp(a[0], a[1], mem(ap, 0))
    f.ldp(a[2], a[3], mem(ap, 16))
    f.comment("cross products a_i a_j, i < j, into acc1..acc6")
    f.mul(acc[1], a[1], a[0])
    f.umulh(t[1], a[1], a[0])
    f.mul(acc[2], a[2], a[0])
    f.umulh(t[2], a[2], a[0])
    f.mul(acc[3], a[3], a[0])
    f.umulh(acc[4], a[3], a[0])
    f.adds(acc[2], acc[2], t[1])
    f.mul(t[0], a[2], a[1])
    f.umulh(t[1], a[2], a[1])
    f.adcs(acc[3], acc[3], t[2])
    f.mul(t[2], a[3], a[1])
    f.umulh(t[3], a[3], a[1])
    f.adc(acc[4], acc[4], XZR)                      # cannot overflow
    f.mul(acc[5], a[3], a[2])
    f.umulh(acc[6], a[3], a[2])
    f.adds(t[1], t[1], t[2])
    f.mul(acc[0], a[0], a[0])
    f.adc(t[2], t[3], XZR)                          # cannot overflow
    f.adds(acc[3], acc[3], t[0])
    f.umulh(a[0], a[0], a[0])
    f.adcs(acc[4], acc[4], t[1])
    f.mul(t[1], a[1], a[1])
    f.adcs(acc[5], acc[5], t[2])
    f.umulh(a[1], a[1], a[1])
    f.adc(acc[6], acc[6], XZR)                      # cannot overflow
    f.comment("doubled, then the squares added")
    f.adds(acc[1], acc[1], acc[1])
    f.mul(t[2], a[2], a[2])
    f.adcs(acc[2], acc[2], acc[2])
    f.umulh(a[2], a[2], a[2])
    f.adcs(acc[3], acc[3], acc[3])
    f.mul(t[3], a[3], a[3])
    f.adcs(acc[4], acc[4], acc[4])
    f.umulh(a[3], a[3], a[3])
    f.adcs(acc[5], acc[5], acc[5])
    f.adcs(acc[6], acc[6], acc[6])
    f.adc(acc[7], XZR, XZR)
    f.adds(acc[1], acc[1], a[0])
    f.adcs(acc[2], acc[2], t[1])
    f.adcs(acc[3], acc[3], a[1])
    f.adcs(acc[4], acc[4], t[2])
    f.adcs(acc[5], acc[5], a[2])
    f.lsl(t[0], acc[0], 32)
    f.adcs(acc[6], acc[6], t[3])
    f.lsr(t[1], acc[0], 32)
    f.adc(acc[7], acc[7], a[3])
    for i in range(4):
        f.comment("reduction step %d: m = acc0, m p3 by subs/sbc" % (i + 1))
        mm.a64_reduce(f, acc[0], t[0], t[1], t[2], t[3])
        f.adds(acc[0], acc[1], t[0])
        f.adcs(acc[1], acc[2], t[1])
        if i < 3:
            f.lsl(t[0], acc[0], 32)
        f.adcs(acc[2], acc[3], t[2])
        if i < 3:
            f.lsr(t[1], acc[0], 32)
        f.adc(acc[3], t[3], XZR)                    # cannot overflow
    f.comment("+ the high half; t < 2p in five limbs")
    f.adds(acc[0], acc[0], acc[4])
    f.adcs(acc[1], acc[1], acc[5])
    f.adcs(acc[2], acc[2], acc[6])
    f.adcs(acc[3], acc[3], acc[7])
    f.adc(acc[4], XZR, XZR)
    mm.a64_final(f, acc[0:5], rp)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("adx", "x86_64", build_sqr_adx, mm.REDUCE_PARAMS,
            "Straight line: six cross products (MULX) summed by ADD/ADC chains, doubled by an\n"
            "ADCX x, x chain while the four squares are added by an ADOX chain, limb by limb;\n"
            "four reduction steps specialised to p on the low half (a MULX by 2^32 or SHL/SHR,\n"
            "a MULX by p3 or SUB/SBB: shift32, mp3), the high half added; final t - p by\n"
            "SUB/SBB and CMOVC (after OpenSSL __ecp_nistz256_sqr_montx)."),
    Variant("a64", "aarch64", build_sqr_a64, {},
            "Straight line: six cross products (mul/umulh), doubled by adds/adcs, the squares\n"
            "added; four reduction steps (m p3 by subs/sbc), the high half added; final t - p\n"
            "by subs/sbcs and csel (OpenSSL ecp_nistz256-armv8 __ecp_nistz256_sqr_mont)."),
]
