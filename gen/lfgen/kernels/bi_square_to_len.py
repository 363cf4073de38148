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

IFMA (x86 `ifma`, len in ifma_min..ifma_max words): mpn_sqr's radix-2^52 core (x86_ifma_sqr)
with BE words in and out, as bi_multiply_to_len's ifma variant (x86_ifma_sqr.be_reverse:
52-byte blocks of 13 words counted down from the end of the array, reversed by VPERMD); other
lengths jump to the adx variant before the frame. lf_bi_square_to_len sends it every square up
to ifma_max words (its lf_variant.hint) instead of the limb path.
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
    "small": Param(10, (0, 4, 6, 8, 10), "up to this many digits: straight-line code per n, the\n"
                   "cross products in registers, every result digit stored once in place",
                   kind="size", sizes=(2, 4, 7, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25)),
    "corner": Param(16, (0, 8, 12, 16, 20, 24), "rows shorter than this: one straight-line corner",
                    kind="size", sizes=(20, 26, 34, 42, 50, 64, 80)),
}


class _NoSmall:
    """The schedule with the square core's own straight-line cases off: up to `small`
    digits small_x86 runs instead."""

    def __init__(self, p):
        self._p = p
        self.small = 0

    def __getattr__(self, name):
        return getattr(self._p, name)


IN_REGS = 4        # up to this many digits the straight-line squares keep them in registers


def small_x86(f, S, x, ln, z):
    """n' <= S digits: straight-line code per n', picked by a binary search on len, with no
    conversion pass and no reversal: the digits are rotated once into registers (up to
    IN_REGS of them; 4 digits: 22.7 -> 21.9 core cycles on AMD Zen 5) or stack slots, the cross
    products accumulate in registers (row i: MULX, ADOX lo into position i+j, ADCX hi into
    i+j+1), and every result digit is written once, rotated, at its final place in z

        result digit k (LE, 64 bits) at zd - 8k,  zd = z + 8 len - 8 + 8 (len & 1)

    (len odd: x is taken as x * 2^32, digit 0 of the square is 0 and lies past z, never
    stored). Above 4 digits the cross digits that no later row touches (positions 2i+1,
    2i+2 after row i) wait unrotated at their final places, where the final pass (double,
    add the squares: ADCX t,t / ADOX) reads them back."""
    from .x86_rows import load_digit0, size_tree
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, RORX, MULX, LEA, ADD,
                                ADC, ADCX, ADOX, XOR, AND, TEST, JNZ, JMP, LABEL, rdx)
    odd, xd, zd = G(), G(), G()
    MOV(odd, ln)
    AND(odd, 1)
    LEA(xd, [x + ln * 4 - 8])
    LEA(xd, [xd + odd * 4])                     # &d_0
    LEA(zd, [z + ln * 8 - 8])
    LEA(zd, [zd + odd * 8])                     # &result digit 0
    slots = f.red_zone_slots(S)
    d0 = G()
    load_digit0(f, d0, xd, ln, 1)

    def put(k, r):
        RORX(r, r, 32)
        MOV([zd - 8 * k], r)

    # result digit 0 = lo(d_0^2) first, while len is live (len odd: it is 0, outside z)
    MOV(rdx, d0)
    h0, l0 = G(), G()
    MULX(h0, l0, rdx)
    skip = f.new_label("s_c0")
    TEST(odd, odd)
    JNZ(skip)
    put(0, l0)
    LABEL(skip)

    def square(n):
        keep = n <= 4                           # every cross digit fits in registers
        # the digits: in registers up to IN_REGS of them, else parked in the slots
        dig = [d0] if n <= IN_REGS else slots
        if n > IN_REGS:
            MOV(slots[0], d0)
        w = {}

        def release(k):
            if not keep and k in w:
                MOV([zd - 8 * k], w.pop(k))
        if n >= 2:
            # row 0 (rdx = d_0 still): the digits as they are loaded, parked for later rows
            prev = None
            for j in range(1, n):
                l, h, d = G(), G(), G()
                RORX(d, [xd - 8 * j], 32)
                if n <= IN_REGS:
                    dig.append(d)
                else:
                    MOV(slots[j], d)
                MULX(h, l, d)
                if j == 2:
                    ADD(l, prev)
                elif j > 2:
                    ADC(l, prev)
                w[j] = l
                prev = h
            if n >= 3:
                ADC(prev, 0)
            w[n] = prev
            release(1)
            release(2)
        for i in range(1, n - 1):
            MOV(rdx, dig[i])
            t = G()
            XOR(t.as_dword, t.as_dword)         # CF = OF = 0
            for j in range(i + 1, n):
                l, h = G(), G()
                MULX(h, l, dig[j])
                ADOX(w[i + j], l)
                if j < n - 1:
                    ADCX(w[i + j + 1], h)
                else:
                    ADCX(h, t)
                    ADOX(h, t)
                    w[i + n] = h
            release(2 * i + 1)
            release(2 * i + 2)

        def cross(k):
            if k in w:
                return w.pop(k)
            r = G()
            MOV(r, [zd - 8 * k])
            return r

        # final pass: result = 2 * cross + sum d_q^2 B^(2q) (digit 0 stored above)
        if n == 1:
            put(1, h0)
            JMP(f.exit_label)
            return
        zero = G()
        if n <= 8:
            hd = h0
        else:
            hd = G()
            MOV(rdx, slots[0])
            MULX(hd, zero, rdx)                 # hi(d_0^2) again (fewer live registers)
        XOR(zero.as_dword, zero.as_dword)
        t = cross(1)
        ADCX(t, t)
        ADOX(t, hd)
        put(1, t)
        for q in range(1, n):
            h, l = G(), G()
            MOV(rdx, dig[q])
            MULX(h, l, rdx)
            t = cross(2 * q)
            ADCX(t, t)
            ADOX(t, l)
            put(2 * q, t)
            if q < n - 1:
                t = cross(2 * q + 1)
                ADCX(t, t)
                ADOX(t, h)
                put(2 * q + 1, t)
            else:
                ADCX(h, zero)                   # position 2n-1 holds no cross digit
                ADOX(h, zero)
                put(2 * q + 1, h)
        JMP(f.exit_label)

    size_tree(f, ln, 1, S, square, lambda d: 2 * d)


def build_x86(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, RORX, SHL, LEA, SUB, ADD, AND,
                                TEST, JZ, JNZ, JMP, CMP, JA, JAE, JNE, SHR, LABEL,
                                LocalVariable)
    from ..x86 import function as x86
    from . import x86_sqr
    from .x86_rows import load_digit0
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    if p.small:
        # up to `small` digits: the straight-line code runs before the frame, without the
        # rows' locals (SysV; the Win64 form keeps it in the body, below)
        def small_body(g):
            x, ln, z = g.load_args()
            TEST(ln, ln)
            JZ(g.exit_label)
            small_x86(g, p.small, x, ln, z)
            g.ret()
        f.prefix_upto((1,), 2 * p.small, small_body)
    with f:
        x, ln, z = f.load_args()
        TEST(ln, ln)
        JZ(f.exit_label)
        generic = f.new_label("generic")
        if p.small and f.flavour == "win64":
            CMP(ln, 2 * p.small)
            JA(generic)
            small_x86(f, p.small, x, ln, z)
        LABEL(generic)
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

        # convert x into little-endian digits at T[n'..2n'-1]
        t, q, pq = (GeneralPurposeRegister64() for _ in range(3))
        load_digit0(f, t, xd, ln, 1)
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
                load_digit0(f, reg, xd, ln, 1)
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

        x86_sqr.square(f, T, dig, np_, _NoSmall(p), BEDiag(), store_pos0)

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


# ifma_min at most 24: lf_bi_square_to_len sends every square from 24 words up to ifma_max
# (the hint) to this kernel, never through limb copies. AMD Zen 5 (limbforge-bench --kernel
# bi_square_to_len, 2026-12-01): at 20 words 93 core cycles against adx's straight line 86,
# from 21 words ahead (94 against 156; GMP's mpn_sqr on n/2 limbs 1.42x at 21, 1.49x at 24,
# 1.94x at 32, 4.06x at 127)
IFMA_PARAMS = {
    "ifma_min": Param(21, (16, 18, 20, 21, 22, 24),
                      "from this many words on the IFMA path (below: the adx variant, reached\n"
                      "before the frame, whose straight-line code reaches 2 small = 20 words)",
                      kind="size", sizes=(16, 18, 20, 21, 22, 24, 26)),
    "ifma_max": Param(512, (256, 512), "up to this many words the IFMA path (above: adx);\n"
                      "sizes the stack", kind="size", sizes=(256, 257, 512, 513)),
    "first": Param(8, (2, 4, 6, 8), "output blocks of the first group: straight-line code\n"
                   "(x86_ifma_sqr)", kind="size", sizes=(24, 32, 40, 48, 64, 96)),
    "blocks": Param(4, (2, 4, 6, 8), "output blocks per later group (two zmm accumulators "
                    "each)"),
    "wunroll": Param(2, (1, 2, 4), "windows per iteration of the unmasked group loop"),
}


def build_ifma(symbol, p):
    """len in ifma_min..ifma_max: mpn_sqr's IFMA core (x86_ifma_sqr) on the BE words
    directly (52-byte blocks from the end of the array down, their 13 words reversed by
    VPERMD: x86_ifma_sqr.be_reverse); other lengths jump to the adx sibling before the
    frame."""
    from ..x86 import function as x86
    from . import x86_ifma_sqr
    f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    f.tail_call_outside(1, p.ifma_min, p.ifma_max, p.sibling("adx"))
    with f:
        x, ln, z = f.load_args()
        x86_ifma_sqr.square(f, z, x, ln, x86_ifma_sqr.WordsAsLimbs(p), be=True)
        f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, IFMA_PARAMS,
            "len in ifma_min..ifma_max words: radix 2^52 by AVX-512 IFMA, mpn_sqr's core\n"
            "(x86_ifma_sqr) reading and writing the BE words directly (52-byte blocks from the\n"
            "end of the array, their 13 words reversed by VPERMD); other lengths jump to the\n"
            "adx variant before the frame.",
            hint=lambda v: v.ifma_max),
    Variant("adx", "x86_64", build_x86, X86_PARAMS,
            "BE-words as 64-bit digits (RORX 32), converted into the top half of z; the\n"
            "mpn_sqr core (MULX/ADCX/ADOX rows, doubling final pass) in place; one reversal;\n"
            "up to `small` digits straight-line code per length, run before the frame.",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("x64", "aarch64", build_a64, a64_rows.PARAMS,
            "BE-words as 64-bit digits (ror #32), converted into the top half of z; the\n"
            "mpn_sqr core (mul/umulh rows, extr-doubling final pass) in place; one reversal."),
]
