"""p256_mul_mont: r = a * b * 2^-256 mod p, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (NIST P-256),
four 64-bit limbs, the layout of OpenSSL's ecp_nistz256.

Montgomery reduction specialised to the shape of p (Gueron & Krasnov; OpenSSL
ecp_nistz256-x86_64 __ecp_nistz256_mul_montx, ecp_nistz256-armv8 __ecp_nistz256_mul_mont):

    p = [ p0 = 2^64 - 1, p1 = 2^32 - 1, p2 = 0, p3 = 2^64 - 2^32 + 1 ]     (limbs, low first)
    n0inv = -p^-1 mod 2^64 = 1, so the quotient digit m of a reduction step is t0 itself, and

        t + m p = t + m (2^64 - 1) + m (2^32 - 1) 2^64 + m p3 2^192
                    '- limb 0 cancels, leaving m in limb 1 -'
                = (t - t0) + (m << 32) 2^64 + (m >> 32) 2^128 + m p3 2^192

    so one step is: limb 1 += m << 32, limb 2 += m >> 32 (with carry), limbs 3:4 += m * p3
    (the one multiplication), and the window moves up a limb -- m * p takes two shifts and
    one MULX instead of a row of four products.

    x86-64 "adx" (mul): the product first, the reduction on a window of its own. Rows of
    MULX by b_0..b_3 build a b in eight limbs: row 0 is one ADD/ADC chain; for rows 1-3 the
    row's value (lo_0, hi_0 + lo_1, .., hi_3 + carry) is summed by one ADD/ADC chain and then
    added to the accumulator by a second one, its top limb becoming the accumulator's next.
    After row i the low limb i-1 is final, and reduction step i runs on a separate
    four-register window W = limbs i-1..i+2 (m = W[0]; m << 32 and m >> 32 by one MULX by
    2^32, m p3 by a second MULX; hi(m p3) + the carry becomes the window's new top, which
    cannot overflow), step 4 after row 3. The window then holds (t_lo + m p) 2^-256 <= p and
    is added to the product's limbs 4..7 (< p): t < 2p in five limbs.
    Why: on Golden Cove every carry-consuming instruction (ADC, ADCX, ADOX, SBB, CMOV, also
    SHLX/SHRX/RORX) competes for ports 0 and 6 while ADD runs on five ports, and the chained
    latency follows the count of the former more than the dependency chain of the m's. So
    the shifts and m p3 are MULX (ports 1/5), and every chain begins with an ADD: 48 of those
    instructions against 60 in the row-by-row reduction of __ecp_nistz256_mul_montx (ADCX/
    ADOX rows, whose instructions all need ports 0/6, each closing on the running top limb,
    a reduction step between rows). Measured on a Sapphire-Rapids-class guest (paired, one
    process, chained x = x b): 0.85x the time of the row-by-row kernel (53 -> 45 core cycles;
    0.89x with the other vCPU busy), the window form with ADCX/ADOX rows 0.88x; m << 32 /
    m >> 32 by SHLX/SHRX or RORX, or m p3 by SUB/SBB, were 2-15% slower. On AMD Zen 5,
    where MULX issues 1.5 per cycle and competes with the carries, the other way round: m << 32
    and m >> 32 by SHL/SHR and m p3 by SUB/SBB (schedule parameters shift32, mp3) made the
    product 1.082x and the square 1.135x faster (make tune, 2026-12-01). ADD/ADC and MULX
    only: the variant needs BMI2, not ADX (its name is the earlier kernel's).
    After the five-limb sum, t - p is computed with SUB/SBB and a borrow selects t or t - p
    by CMOVC -- the same instructions for every value.
    AArch64 "a64" (mul): the same, with mul/umulh rows added by adds/adcs chains and m p3
    = m 2^64 - m 2^32 + m computed by subs/sbc (no multiplication), csel at the end.

    p256_sqr_mont squares with each cross product once (a_i a_j, i < j: six products),
    doubles them, adds the four squares, then runs the same four reduction steps
    (x86_reduce_step) on the low half and adds the high half (p256_sqr_mont.py).
"""

from ..kernel import KernelSpec, Variant, Param

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P1 = 0x00000000FFFFFFFF
P3 = 0xFFFFFFFF00000001
assert P == (2**64 - 1) + (P1 << 64) + (P3 << 192)

SHAPES = ("r, a, b: 4 limbs of 64 bits (uint64_t[4]), little-endian limb order (index 0\n"
          "least significant), as OpenSSL's ecp_nistz256 (BN_ULONG[P256_LIMBS]).")
UNITS = ("values in the Montgomery domain with R = 2^256: x is held as x R mod p, p = 2^256 -\n"
         "2^224 + 2^192 + 2^96 - 1 (NIST P-256).")
CT = ("Constant time: straight-line code, no branch or address depends on the values (the\n"
      "generator checks it; tests/ct runs it under valgrind).")

SPEC = KernelSpec(
    name="p256_mul_mont",
    operation="r = a * b * 2^-256 mod p, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (P-256 Montgomery\n"
              "multiplication)",
    args=[("r", "uint64_t *"), ("a", "const uint64_t *"), ("b", "const uint64_t *")],
    result=None,
    shapes=SHAPES,
    units=UNITS,
    preconditions="a < p and b < p: r = a b 2^-256 mod p, fully reduced (< p). a, b in [p, 2^256)\n"
                  "(not allowed by the contract) give a value congruent to a b 2^-256 mod p\n"
                  "below 2^256, not necessarily below p; never a fault. r may alias a and/or b\n"
                  "(every input limb is read before r is written); a == b squares.\n" + CT,
    source="S. Gueron, V. Krasnov, 'Fast prime field elliptic-curve cryptography with 256-bit\n"
           "primes' (J. Cryptogr. Eng. 2015); OpenSSL crypto/ec/asm/ecp_nistz256-x86_64.pl\n"
           "(__ecp_nistz256_mul_montx) and ecp_nistz256-armv8.pl (__ecp_nistz256_mul_mont).",
    tune_sizes=(4,),
)


# How a reduction step forms its parts (x86_reduce_step), per CPU: on Golden Cove, where
# ADC/SBB/shifts by register compete for ports 0/6, the MULXs measured fastest (SHLX/SHRX or
# RORX for the shifts, or SUB/SBB for m p3, were 2-15% slower on a Sapphire-Rapids-class
# guest, 2026-11-30; the SHL/SHR by an immediate that "shift" emits was not timed there, so
# generic keeps the MULXs); the other forms take the shorter latency of one-cycle ALU
# instructions where MULX is the scarce unit (AMD Zen 5's schedule).
REDUCE_PARAMS = {
    "shift32": Param("mulx", ("mulx", "shift"),
                     "m << 32 and m >> 32 of a reduction step: one MULX by 2^32, or SHL and\n"
                     "SHR of copies of m"),
    "mp3": Param("mulx", ("mulx", "sub"),
                 "m p3 of a reduction step: one MULX by p3, or m 2^64 + m - (m << 32) by\n"
                 "SUB/SBB"),
}


def x86_add_window_final(acc, W, rp):
    """t = the product's high half acc[4..7] + the reduction window W (t < 2p in five limbs),
    then x86_final: {rp,4} = t mod p."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, XOR, ADD, ADC
    top = G()
    XOR(top.as_dword, top.as_dword)
    ADD(acc[4], W[0])
    ADC(acc[5], W[1])
    ADC(acc[6], W[2])
    ADC(acc[7], W[3])
    ADC(top, 0)
    poly3 = G()
    MOV(poly3, P3)
    x86_final([acc[4], acc[5], acc[6], acc[7], top], rp, poly3)


def x86_final(acc, rp, poly3):
    """{rp,4} = t - p if t >= p else t, t = acc[0..4] (acc[4] in {0, 1}, t < 2p): SUB/SBB, the
    borrow out of the top limb selects with CMOVC. Clobbers acc."""
    from peachpy.x86_64 import GeneralPurposeRegister64, MOV, SUB, SBB, CMOVC
    keep = [GeneralPurposeRegister64() for _ in range(4)]
    p1 = GeneralPurposeRegister64()
    MOV(p1.as_dword, P1)
    for k in range(4):
        MOV(keep[k], acc[k])
    SUB(acc[0], -1)                                 # p0 = 2^64 - 1
    SBB(acc[1], p1)
    SBB(acc[2], 0)                                  # p2 = 0
    SBB(acc[3], poly3)
    SBB(acc[4], 0)                                  # CF: t < p, keep t
    for k in range(4):
        CMOVC(acc[k], keep[k])
    for k in range(4):
        MOV([rp + 8 * k], acc[k])


def x86_reduce_step(W, t0, t1, t2, p):
    """One reduction step on the window W = [limb j .. limb j+3] with m = W[0] (limb j):
    limb j+1 += m << 32, limb j+2 += m >> 32, limb j+3 += lo(m p3), and W[0] <- hi(m p3) +
    carry, the window's new top (limb j+4; hi(m p3) < 2^64 - 2^32 + 1, so the carry cannot
    overflow it). Returns the window moved up a limb. How the two parts are formed is the
    schedule's (REDUCE_PARAMS, p): m << 32 and m >> 32 by one MULX by 2^32 (shift32 = "mulx")
    or by SHL/SHR of copies ("shift"); m p3 by one MULX (mp3 = "mulx") or as m 2^64 - (m << 32)
    + m by SUB/SBB ("sub", what the AArch64 variant does). RDX is clobbered where a MULX
    takes a constant."""
    from peachpy.x86_64 import MOV, ADD, ADC, SUB, SBB, SHL, SHR, MULX, rdx
    m = W[0]
    if p.shift32 == "mulx":
        MOV(rdx, 1 << 32)
        MULX(t1, t0, m)                             # t0 = m << 32, t1 = m >> 32 (ports 1/5)
    else:
        MOV(t0, m)
        SHL(t0, 32)
        MOV(t1, m)
        SHR(t1, 32)
    if p.mp3 == "mulx":
        MOV(rdx, P3)
        MULX(m, t2, m)                              # t2:m = m p3
    else:
        MOV(t2, m)                                  # m p3 = m 2^64 + m - (t1 2^64 + t0)
        SUB(t2, t0)
        SBB(m, t1)                                  # no borrow out: m p3 >= 0
    ADD(W[1], t0)
    ADC(W[2], t1)
    ADC(W[3], t2)
    ADC(m, 0)
    return W[1:] + W[:1]


def x86_row(acc, i, A, t):
    """acc[i..i+3] += a * rdx, acc[i+4] = the row's top: the row's value r = a b_i (five limbs:
    lo_0, hi_0 + lo_1, hi_1 + lo_2, hi_2 + lo_3, hi_3 + carry) by one ADD/ADC chain, then
    added to the accumulator by a second one. Both chains begin with ADD, which runs on any
    ALU port: 7 instructions on ports 0/6 per row, against 9 for an ADCX/ADOX pair of chains
    (every instruction of those needs ports 0/6). t: six scratch registers; t[4] becomes
    acc[i+4] (appended)."""
    from peachpy.x86_64 import ADD, ADC, MULX
    x0, x1, x2, x3, x4, y = t
    MULX(x1, x0, A[0])
    MULX(x2, y, A[1])
    ADD(x1, y)
    MULX(x3, y, A[2])
    ADC(x2, y)
    MULX(x4, y, A[3])
    ADC(x3, y)
    ADC(x4, 0)                                      # hi_3 + carry: cannot overflow
    ADD(acc[i], x0)
    ADC(acc[i + 1], x1)
    ADC(acc[i + 2], x2)
    ADC(acc[i + 3], x3)
    ADC(x4, 0)                                      # the new top limb (the partial product
    acc.append(x4)                                  # a (b_0..b_i) fits in i + 5 limbs)


def build_mul_adx(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, ADD, ADC, MULX, rdx)
    from ..x86 import function as x86
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    f.secret_independent()
    with f:
        rp, ap, bp = f.load_args()
        s_b3, = f.red_zone_slots(1)           # b_3 parked: bp is then dead in row 2, which
        b3 = G()                              # needs every other register
        MOV(b3, [bp + 24])
        MOV(s_b3, b3)
        A = [[ap + 8 * j] if j else [ap] for j in range(4)]
        acc = [G() for _ in range(5)]                 # the product, limbs 0..4 so far
        t0, t1, t2 = G(), G(), G()
        f.comment("t = a * b_0 (MULX row, one ADD/ADC chain)")
        MOV(rdx, [bp])
        MULX(acc[1], acc[0], A[0])
        MULX(acc[2], t0, A[1])
        MULX(acc[3], t1, A[2])
        ADD(acc[1], t0)
        MULX(acc[4], t0, A[3])
        ADC(acc[2], t1)
        ADC(acc[3], t0)
        ADC(acc[4], 0)
        W = acc[0:4]                                  # reduction window, limbs j..j+3
        for i in range(1, 4):
            f.comment("t += a * b_%d 2^%d (the row by ADD/ADC, then added by ADD/ADC)"
                      % (i, 64 * i))
            MOV(rdx, [bp + 8 * i] if i < 3 else s_b3)
            x86_row(acc, i, A, [G() for _ in range(6)])
            f.comment("reduction step %d: m = limb %d, final now" % (i, i - 1))
            W = x86_reduce_step(W, t0, t1, t2, p)
        f.comment("reduction step 4: m = limb 3")
        W = x86_reduce_step(W, t0, t1, t2, p)
        f.comment("t = (a b + m p) 2^-256 = product limbs 4..7 + the window; t < 2p in five "
                  "limbs; r = t - p unless that borrows (CMOVC)")
        x86_add_window_final(acc, W, rp)
        f.ret()
    return f.finalize()


def a64_final(f, acc, rp):
    """{rp,4} = t - p if t >= p else t, t = acc[0..4]: subs/sbcs, csel on the borrow."""
    from ..a64.insn import mem
    from ..a64.regs import XZR
    d = f.gprs(4, "d")
    p1, p3 = f.gpr("p1"), f.gpr("p3")
    f.mov(p1, "#0xffffffff")
    f.mov(p3, "#0xffffffff00000000")
    f.add(p3, p3, 1)
    f.adds(d[0], acc[0], 1)                         # - (2^64 - 1): + 1, C = no borrow
    f.sbcs(d[1], acc[1], p1)
    f.sbcs(d[2], acc[2], XZR)
    f.sbcs(d[3], acc[3], p3)
    f.sbcs(XZR, acc[4], XZR)                        # borrow (lo): t < p, keep t
    for k in range(4):
        f.csel(acc[k], acc[k], d[k], "lo")
    f.stp(acc[0], acc[1], mem(rp, 0))
    f.stp(acc[2], acc[3], mem(rp, 16))


def a64_reduce(f, m, lo, hi, t2, t3):
    """(t2, t3, lo, hi) for a reduction step with quotient m: lo = m << 32, hi = m >> 32 (the
    limb 1 and 2 additions), t3:t2 = m p3 = m 2^64 - m 2^32 + m."""
    f.subs(t2, m, lo)
    f.sbc(t3, m, hi)


def build_mul_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    f = Function(symbol, SPEC.args, SPEC.result)
    f.secret_independent()
    rp, ap, bp = f.arg_regs
    a = f.gprs(4, "a")
    acc = f.gprs(6, "acc")
    t = f.gprs(4, "t")
    bi = f.gpr("bi")
    f.ldp(a[0], a[1], mem(ap, 0))
    f.ldp(a[2], a[3], mem(ap, 16))
    f.ldr(bi, mem(bp, 0))
    f.comment("t = a * b_0")
    for j in range(4):
        f.mul(acc[j], a[j], bi)
        f.umulh(t[j], a[j], bi)
    f.ldr(bi, mem(bp, 8))
    f.adds(acc[1], acc[1], t[0])
    f.lsl(t[0], acc[0], 32)
    f.adcs(acc[2], acc[2], t[1])
    f.lsr(t[1], acc[0], 32)
    f.adcs(acc[3], acc[3], t[2])
    f.adc(acc[4], XZR, t[3])
    f.mov(acc[5], XZR)
    for i in range(1, 4):
        f.comment("reduction step %d (m = t0, m p3 by subs/sbc), then t += a * b_%d" % (i, i))
        a64_reduce(f, acc[0], t[0], t[1], t[2], t[3])
        f.adds(acc[0], acc[1], t[0])                # limb 1 += m << 32 (limb 0 dropped)
        f.mul(t[0], a[0], bi)
        f.adcs(acc[1], acc[2], t[1])                # limb 2 += m >> 32
        f.mul(t[1], a[1], bi)
        f.adcs(acc[2], acc[3], t[2])                # limbs 3:4 += m p3
        f.mul(t[2], a[2], bi)
        f.adcs(acc[3], acc[4], t[3])
        f.mul(t[3], a[3], bi)
        f.adc(acc[4], acc[5], XZR)
        f.adds(acc[0], acc[0], t[0])                # lo(a_j b_i)
        f.umulh(t[0], a[0], bi)
        f.adcs(acc[1], acc[1], t[1])
        f.umulh(t[1], a[1], bi)
        f.adcs(acc[2], acc[2], t[2])
        f.umulh(t[2], a[2], bi)
        f.adcs(acc[3], acc[3], t[3])
        f.umulh(t[3], a[3], bi)
        f.adc(acc[4], acc[4], XZR)
        if i < 3:
            f.ldr(bi, mem(bp, 8 * (i + 1)))
        f.adds(acc[1], acc[1], t[0])                # hi(a_j b_i)
        f.lsl(t[0], acc[0], 32)
        f.adcs(acc[2], acc[2], t[1])
        f.lsr(t[1], acc[0], 32)
        f.adcs(acc[3], acc[3], t[2])
        f.adcs(acc[4], acc[4], t[3])
        f.adc(acc[5], XZR, XZR)
    f.comment("reduction step 4")
    a64_reduce(f, acc[0], t[0], t[1], t[2], t[3])
    f.adds(acc[0], acc[1], t[0])
    f.adcs(acc[1], acc[2], t[1])
    f.adcs(acc[2], acc[3], t[2])
    f.adcs(acc[3], acc[4], t[3])
    f.adc(acc[4], acc[5], XZR)
    f.comment("t < 2p in five limbs: r = t - p unless that borrows (csel)")
    a64_final(f, acc, rp)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("adx", "x86_64", build_mul_adx, REDUCE_PARAMS,
            "Straight line: the product a b in eight limbs by MULX rows, each row's value summed\n"
            "by one ADD/ADC chain and added by a second (no ADCX/ADOX: chains that begin with\n"
            "ADD leave ports 0/6 to the carries); after each row the reduction step of the limb\n"
            "it completed runs on a separate four-limb window (m = limb 0: m << 32, m >> 32 by\n"
            "one MULX by 2^32 or SHL/SHR, m p3 by one MULX or SUB/SBB: shift32, mp3), the\n"
            "window is added to the product's high half; final t - p by SUB/SBB and CMOVC\n"
            "on the borrow (the reduction of Gueron-Krasnov / OpenSSL\n"
            "__ecp_nistz256_mul_montx). Needs BMI2 only."),
    Variant("a64", "aarch64", build_mul_a64, {},
            "Straight line: mul/umulh rows of a by b_i with adds/adcs chains; reduction steps\n"
            "with m = t0, m p3 = m 2^64 - m 2^32 + m by subs/sbc (no multiply); final t - p by\n"
            "subs/sbcs and csel (OpenSSL ecp_nistz256-armv8 __ecp_nistz256_mul_mont)."),
]
