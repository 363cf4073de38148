"""bi_square_to_len: java.math.BigInteger.implSquareToLen on BE-words (KERNELS.md §1.3).

    z[0..2len) = x[0..len)^2, both BE-words (index 0 most significant)

The words are squared as n' = ceil(len/2) 64-bit digits with the squaring core of mpn_sqr
(x86_sqr / a64_sqr: each cross product once, then double and add the squares), in place in
z, with no scratch memory:

    digit q of x = words (len-2q-2, len-2q-1): one 64-bit load rotated by 32. With len odd,
    x is taken as x * 2^32 (a zero word appended below): d_0 = x[len-1] << 32 (a 32-bit
    load, so nothing is read past x), the square gains a zero low digit that is never
    stored, and the digit array T is based one digit below z (T = z - 8).

    z (as 64-bit digits, T positions):
      [ T1 .. T(n'-1) | T(n') .. T(2n'-1) ]   before the rows: the digits of x, converted
                        d_0 ....... d_(n'-1)    (row i overwrites d_i only with its carry,
                                                 after the last read of d_i)
      [ 0? | 2*T + d^2, little-endian      ]   after the final pass (digits re-read from x)
      [ BE-words                          ]   after one in-place reversal of the 2*len words
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import a64_rows

SPEC = KernelSpec(
    name="bi_square_to_len",
    operation="z = x^2 (BigInteger.implSquareToLen)",
    args=[("x", "const uint32_t *"), ("len", "size_t"), ("z", "uint32_t *")],
    result=None,
    shapes="BE-words (uint32_t, index 0 most significant): x has len words, z has 2*len.",
    units="lengths in 32-bit words.",
    preconditions="z need not be initialised and must not overlap x. len == 0 touches no\n"
                  "memory (x, z may be NULL). Correct for every len; tuned for 1..127 words.",
    source="OpenJDK java.math.BigInteger.implSquareToLen; HotSpot squareToLen stubs\n"
           "(MacroAssembler::square_to_len on x86-64, JDK-8186915 on AArch64).",
    tune_sizes=(32, 64, 127),
)


X86_PARAMS = {
    "unroll": Param(8, (2, 4, 8, 16), "digits per iteration of the addmul_1 rows"),
    "ahead": Param(1, (0, 1, 2), "MULX of digit k+ahead issued among the adds of digit k"),
    "small": Param(8, (0, 4, 6, 8, 10, 12), "up to this many digits: straight-line code per n",
                   kind="size", sizes=(2, 4, 7, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25)),
    "corner": Param(16, (0, 8, 12, 16, 20, 24), "rows shorter than this: one straight-line corner",
                    kind="size", sizes=(20, 26, 34, 42, 50, 64, 80)),
}


def build_x86(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, RORX, SHL, LEA, SUB, ADD, AND,
                                TEST, JZ, JNZ, JMP, CMP, JAE, JNE, SHR, LABEL,
                                LocalVariable)
    from ..x86 import function as x86
    from . import x86_sqr
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    with f:
        x, ln, z = f.load_args()
        TEST(ln, ln)
        JZ(f.exit_label)
        np_, odd, T, xd, dig = (GeneralPurposeRegister64() for _ in range(5))
        LEA(np_, [ln + 1])
        SHR(np_, 1)                             # n' = ceil(len/2)
        MOV(odd, ln)
        AND(odd, 1)
        MOV(T, z)
        SHL(odd, 3)
        SUB(T, odd)                             # T = z - 8*odd
        LEA(xd, [x + ln * 4 - 8])
        SHR(odd, 1)
        ADD(xd, odd)                            # xd = &digit 0 (x + 4*len - 8 + 4*odd)
        LEA(dig, [T + np_ * 8])
        # x86-64 has too few registers to keep len, &digit 0 and z live through the rows:
        # they wait on the stack until the final pass and the reversal reload them.
        s_ln, s_xd, s_z = LocalVariable(8), LocalVariable(8), LocalVariable(8)
        MOV(s_ln, ln)
        MOV(s_xd, xd)
        MOV(s_z, z)

        def load_d0(reg, xd, ln):
            even, done = f.new_label("d0_even"), f.new_label("d0_done")
            TEST(ln, 1)
            JZ(even)
            MOV(reg.as_dword, [xd])
            SHL(reg, 32)
            JMP(done)
            LABEL(even)
            RORX(reg, [xd], 32)
            LABEL(done)

        # convert x into little-endian digits at T[n'..2n'-1]
        t, q, pq = (GeneralPurposeRegister64() for _ in range(3))
        load_d0(t, xd, ln)
        MOV([dig], t)
        conv, conv_done = f.new_label("conv"), f.new_label("conv_done")
        MOV(q, 1)
        LEA(pq, [xd - 8])
        LABEL(conv)
        CMP(q, np_)
        JAE(conv_done)
        RORX(t, [pq], 32)
        MOV([dig + q * 8], t)
        SUB(pq, 8)
        ADD(q, 1)
        JMP(conv)
        LABEL(conv_done)

        class BEDiag:
            """Final-pass digits re-read from x (flag-free after the first)."""

            def __init__(self):
                self.p = GeneralPurposeRegister64()

            def first(self, reg):
                xd, ln = GeneralPurposeRegister64(), GeneralPurposeRegister64()
                MOV(xd, s_xd)
                MOV(ln, s_ln)
                load_d0(reg, xd, ln)
                LEA(self.p, [xd - 8])

            def next(self, reg):
                RORX(reg, [self.p], 32)
                LEA(self.p, [self.p - 8])

        def store_pos0(lo):
            skip = f.new_label("pos0")
            TEST(s_ln, 1)
            JNZ(skip)                           # odd: T[0] lies below z and is 0
            MOV([T], lo)
            LABEL(skip)

        x86_sqr.square(f, T, dig, np_, p, BEDiag(), store_pos0)

        # reverse the 2*len words of z in place: LE digits -> BE-words
        lo_p, hi_p, a, b = (GeneralPurposeRegister64() for _ in range(4))
        MOV(lo_p, s_z)
        MOV(hi_p, s_ln)
        LEA(hi_p, [lo_p + hi_p * 8 - 8])
        rev, rev_done = f.new_label("rev"), f.new_label("rev_done")
        LABEL(rev)
        CMP(lo_p, hi_p)
        JAE(rev_done)
        RORX(a, [lo_p], 32)
        RORX(b, [hi_p], 32)
        MOV([lo_p], b)
        MOV([hi_p], a)
        ADD(lo_p, 8)
        SUB(hi_p, 8)
        JMP(rev)
        LABEL(rev_done)
        mid = f.new_label("mid")
        JNE(mid)                                # lo_p == hi_p: the middle digit (len odd)
        RORX(a, [lo_p], 32)
        MOV([lo_p], a)
        LABEL(mid)
        f.ret()
    return f.finalize()


def build_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from . import a64_sqr
    f = Function(symbol, SPEC.args, SPEC.result)
    x, ln, z = f.arg_regs
    done = f.new_label("done")
    f.cbz(ln, done)
    np_, odd, T, xd, dig = f.gpr("np"), f.gpr("odd"), f.gpr("T"), f.gpr("xd"), f.gpr("dig")
    f.add(np_, ln, 1)
    f.lsr(np_, np_, 1)                          # n' = ceil(len/2)
    f.and_(odd, ln, 1)
    f.sub(T, z, odd, "lsl #3")                  # T = z - 8*odd
    f.add(xd, x, ln, "lsl #2")
    f.sub(xd, xd, 8)
    f.add(xd, xd, odd, "lsl #2")                # &digit 0
    f.add(dig, T, np_, "lsl #3")
    # len, &digit 0 and z wait on the stack while the rows need every register
    s_ln, s_xd, s_z = f.local("len"), f.local("xd"), f.local("z")
    f.spill(ln, s_ln)
    f.spill(xd, s_xd)
    f.spill(z, s_z)

    def load_d0(reg, xd, ln):
        # odd: x[len-1] << 32 with a 32-bit load; even: the rotated pair
        e, d = f.new_label("d0_even"), f.new_label("d0_done")
        f.tbz(ln, 0, e)
        f.ldr(reg.w, mem(xd, size=4))
        f.lsl(reg, reg, 32)
        f.b(d)
        f.bind(e)
        f.ldr(reg, mem(xd))
        f.ror(reg, reg, 32)
        f.bind(d)

    t, pq, pd, c = f.gpr("t"), f.gpr("pq"), f.gpr("pd"), f.gpr("c")
    load_d0(t, xd, ln)
    f.str_(t, mem(dig))
    f.sub(pq, xd, 8)
    f.add(pd, dig, 8)
    f.sub(c, np_, 1)
    conv, conv_done = f.new_label("conv"), f.new_label("conv_done")
    f.cbz(c, conv_done)
    f.bind(conv)
    f.ldr(t, mem(pq))
    f.ror(t, t, 32)
    f.str_(t, mem(pd))
    f.sub(pq, pq, 8)
    f.add(pd, pd, 8)
    f.subs(c, c, 1)
    f.b_ne(conv)
    f.bind(conv_done)

    class BEDiag:
        def __init__(self):
            self.p = f.gpr("dp")

        def first(self, reg):
            xd, ln = f.gpr("xd"), f.gpr("len")
            f.reload(xd, s_xd)
            f.reload(ln, s_ln)
            load_d0(reg, xd, ln)
            f.sub(self.p, xd, 8)

        def next(self, reg):
            f.ldr(reg, mem(self.p))
            f.ror(reg, reg, 32)
            f.sub(self.p, self.p, 8)

    def store_pos0(lo):
        skip = f.new_label("pos0")
        ln = f.gpr("len")
        f.reload(ln, s_ln)
        f.tbnz(ln, 0, skip)                     # odd: T[0] lies below z and is 0
        f.str_(lo, mem(T))
        f.bind(skip)

    a64_sqr.square(f, T, dig, np_, p, BEDiag(), store_pos0, unit=("words", 2))

    # reverse the 2*len words of z in place
    lo_p, hi_p, a, b = f.gpr("lo_p"), f.gpr("hi_p"), f.gpr("a"), f.gpr("b")
    f.reload(lo_p, s_z)
    f.reload(hi_p, s_ln)
    f.add(hi_p, lo_p, hi_p, "lsl #3")
    f.sub(hi_p, hi_p, 8)
    rev, rev_done, mid = f.new_label("rev"), f.new_label("rev_done"), f.new_label("mid")
    f.bind(rev)
    f.cmp(lo_p, hi_p)
    f.b_hs(rev_done)
    f.ldr(a, mem(lo_p))
    f.ldr(b, mem(hi_p))
    f.ror(a, a, 32)
    f.ror(b, b, 32)
    f.str_(b, mem(lo_p))
    f.str_(a, mem(hi_p))
    f.add(lo_p, lo_p, 8)
    f.sub(hi_p, hi_p, 8)
    f.b(rev)
    f.bind(rev_done)
    f.b_ne(mid)                                 # lo_p == hi_p: the middle digit (len odd)
    f.ldr(a, mem(lo_p))
    f.ror(a, a, 32)
    f.str_(a, mem(lo_p))
    f.bind(mid)
    f.bind(done)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("adx", "x86_64", build_x86, X86_PARAMS,
            "BE-words as 64-bit digits (RORX 32), converted into the top half of z; the\n"
            "mpn_sqr core (MULX/ADCX/ADOX rows, doubling final pass) in place; one reversal.",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("x64", "aarch64", build_a64, a64_rows.PARAMS,
            "BE-words as 64-bit digits (ror #32), converted into the top half of z; the\n"
            "mpn_sqr core (mul/umulh rows, extr-doubling final pass) in place; one reversal."),
]
