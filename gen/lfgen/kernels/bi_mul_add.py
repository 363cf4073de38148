"""bi_mul_add: java.math.BigInteger.implMulAdd on BE-words (KERNELS.md §1.4).

    out:  ... [ w(top-len+1) ... w(top) ] ...  (offset words) |end      top = out_len-offset-1
    in:       [ i(0)        ...  i(len-1) ]                    BE-words, index 0 most significant
    window <- window + in * k (low len words), return the carry-out word
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import a64_rows, x86_bi_vec

SPEC = KernelSpec(
    name="bi_mul_add",
    operation="window of out += in * k (BigInteger.implMulAdd); returns the carry-out word",
    args=[("out", "uint32_t *"), ("out_len", "size_t"), ("in", "const uint32_t *"),
          ("offset", "size_t"), ("len", "size_t"), ("k", "uint32_t")],
    result="uint32_t",
    shapes="BE-words (uint32_t, index 0 most significant). The len-word window of out is\n"
           "out[top-len+1 .. top] with top = out_len - offset - 1; in has len words.",
    units="lengths and offset in 32-bit words; k and the result are words.",
    preconditions="offset < out_len and len <= out_len - offset (Java's implMulAddCheck).\n"
                  "len == 0 returns 0 and touches no memory (out_len and offset unused, out\n"
                  "and in may be NULL). in may be the window itself;\n"
                  "other overlaps are undefined. The upper 32 bits of the k register are\n"
                  "ignored.",
    source="OpenJDK java.math.BigInteger.implMulAdd; HotSpot mulAdd stubs\n"
           "(JDK-8186915 on AArch64, MacroAssembler::mul_add on x86-64).",
    tune_sizes=(32, 64, 127, 256),
    question=("JDK-8186915 (AArch64 mulAdd): 32-bit or 64-bit multiplies?", {
        "w32": "32-bit multiplies, one umaddl per word, 32-bit carry steps (the JDK design)",
        "w64": "32-bit multiplies (umaddl) summed on a 64-bit carry chain",
        "x64": "64-bit multiplies (mul/umulh on word pairs)",
    }),
)



# Word addressing: the window's least significant word is out[top], top = out_len-offset-1;
# 64-bit digit j of the window is the word pair (top-2j-1, top-2j), i.e. the qword at
# out + 4*(top-2j-1): digits run downwards in memory (stride -8) and are rotated by 32.
# With len odd, the most significant word (in[0], out[top-len+1]) is one 32-bit step at the
# end, where the carry digit is < 2^32 because k < 2^32.

X86_PARAMS = {
    "unroll": Param(8, (2, 4, 8, 16), "64-bit digits (word pairs) per loop iteration"),
    "ahead": Param(1, (0, 1, 2), "MULX of digit j+ahead issued among the adds of digit j"),
}

ADX_PARAMS = dict(X86_PARAMS, short_to_mulx=Param(
    16, (0, 8, 12, 16, 20), "below this many words jump to the mulx variant before the frame",
    kind="size", sizes=(2, 4, 7, 8, 11, 12, 15, 16, 19, 20, 24)), small=Param(
    0, (0, 7, 11, 15), "up to this many words: straight-line MULX/ADCX/ADOX code per digit\n"
    "count before the frame (SysV; needs short_to_mulx 0)",
    kind="size", sizes=(1, 2, 3, 4, 6, 8, 10, 12, 15, 16)))

W32_PARAMS = {
    "unroll": Param(4, (1, 2, 4, 8), "words per loop iteration"),
    "distance": Param(1, (0, 1), "1: loads of block i+1 issued during block i (pipelined)"),
}


MULX_PARAMS = dict(X86_PARAMS, small=Param(
    15, (0, 7, 11, 15), "up to this many words: straight-line code per digit count",
    kind="size", sizes=(1, 2, 3, 4, 6, 8, 10, 12, 15, 16)))


def _top_word_x86(o, i, carry, cy):
    """The odd top word at o = [out qword] + 4, i = [in qword] + 4: cy = (in*k + out + carry)
    >> 32 with the low half stored back (k in rdx, < 2^32: the sum stays below 2^64)."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, IMUL, ADD, SHR, rdx
    w, t = G(), G()
    MOV(w.as_dword, o)
    MOV(t.as_dword, i)
    IMUL(t, rdx)
    ADD(t, w)
    if carry is not None:
        ADD(t, carry)
    MOV(o, t.as_dword)
    MOV(cy, t)
    SHR(cy, 32)


def _small_x86(f, S, ob, ib, ln, cy, adx=False):
    """len <= S words: a binary search on len picks straight-line code for its nd = len/2
    digits (no loop control, no skip blocks; digit 0 adds no carry-in), then the odd top
    word, if any, with one 64-bit IMUL (k < 2^32). Without ADX each digit folds its two
    carries by ADD/ADC (two dependent instructions a digit on the carry path); with ADX
    lo_j + hi_(j-1) runs on the CF chain (ADCX) and + out_j on the OF chain (ADOX), one
    instruction a digit on each, both carries folded into the last hi: the window's carry
    digit, < 2^32 since k < 2^32, so the top word's in*k + out + carry fits 64 bits."""
    from .x86_rows import size_tree
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, RORX, MULX, ADD, ADC,
                                ADCX, ADOX, XOR, TEST, JZ, JMP)

    def digits(nd):
        prev = None
        if adx and nd:
            zero = G()
            XOR(zero.as_dword, zero.as_dword)   # clears CF and OF
        for j in range(nd):
            a, o, lo, hi = G(), G(), G(), G()
            RORX(a, [ib - 8 * j], 32)
            MULX(hi, lo, a)
            RORX(o, [ob - 8 * j], 32)
            if adx:
                if prev is not None:
                    ADCX(lo, prev)
                ADOX(lo, o)
            else:
                ADD(lo, o)
                ADC(hi, 0)
                if prev is not None:
                    ADD(lo, prev)
                    ADC(hi, 0)
            RORX(lo, lo, 32)
            MOV([ob - 8 * j], lo)
            prev = hi
        if adx and nd:
            ADCX(prev, zero)
            ADOX(prev, zero)
        even = f.new_label("s_even%d" % nd)
        if nd:                                  # nd == 0: len == 1
            TEST(ln, 1)
            JZ(even)
        _top_word_x86([ob - 8 * nd + 4], [ib - 8 * nd + 4], prev, cy)
        JMP(f.exit_label)
        if nd:
            f.bind(even)
            MOV(cy, prev)
            JMP(f.exit_label)

    size_tree(f, ln, 0, S // 2, digits, lambda d: 2 * d + 1)


def _enter_x86(f):
    """Arguments in, cy = 0, len == 0 returns 0, rdx = k, the digit-0 qword addresses:
    (ln, cy, ob, ib)."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, XOR, TEST, JZ, SUB, LEA, rdx
    out, out_len, inp, offset, ln, k = f.load_args()
    cy = G()
    XOR(cy.as_dword, cy.as_dword)
    TEST(ln, ln)
    JZ(f.exit_label)
    MOV(rdx.as_dword, k.as_dword)              # zero-extends: k's upper half ignored
    ob, ib = G(), G()
    SUB(out_len, offset)
    LEA(ob, [out + out_len * 4 - 8])          # qword of digit 0: out + 4*(top-1)
    LEA(ib, [inp + ln * 4 - 8])               # in + 4*(len-2)
    return ln, cy, ob, ib


def build_x86(chains):
    def build(symbol, p):
        # short windows: with short_to_mulx they jump to the BMI2 (mulx) variant before the
        # frame (faster than adx's row below ~16 words on the development host); with adx's
        # own straight-line code (small, short_to_mulx 0) they run that before the frame
        short = getattr(p, "short_to_mulx", 0)
        from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, TEST, JZ, SHR, CMP, JA,
                                    Label, LABEL)
        from ..x86 import function as x86
        from .x86_rows import Digits, row
        f = x86.Function(symbol, SPEC.args, SPEC.result)
        if short:
            f.tail_call_outside(4, short, None, p.sibling("mulx"))
        adx_small = getattr(p, "small", 0) if chains == "adx" else 0
        if adx_small:
            if short:
                raise ValueError("bi_mul_add adx: small needs short_to_mulx 0")

            def small_body(g):
                # up to adx_small words before the frame (SysV; the Win64 form runs the row)
                ln, cy, ob, ib = _enter_x86(g)
                _small_x86(g, adx_small, ob, ib, ln, cy, adx=True)
                g.ret(cy.as_dword)
            f.prefix_upto((4,), adx_small, small_body)
        with f:
            ln, cy, ob, ib = _enter_x86(f)
            small = getattr(p, "small", 0) if chains != "adx" else 0
            if small:
                generic = Label("generic")
                CMP(ln, small)
                JA(generic)
                _small_x86(f, small, ob, ib, ln, cy)
                LABEL(generic)
            nd = GeneralPurposeRegister64()
            MOV(nd, ln)
            SHR(nd, 1)
            skip = Label("digits_done")
            JZ(skip)
            row(f, Digits(ob, -8, True), Digits(ib, -8, True), nd, "addmul", chains,
                p.unroll, p.ahead, cy, ("words", 2))
            LABEL(skip)
            TEST(ln, 1)
            JZ(f.exit_label)
            # top word: in[0]*k + out[top-len+1] + cy; the word is at digit base + 4
            _top_word_x86([ob + 4], [ib + 4], cy, cy)
            f.ret(cy.as_dword)
        return f.finalize()
    return build


def build_x64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    from .a64_rows import Digits, row
    f = Function(symbol, SPEC.args, SPEC.result)
    out, out_len, inp, offset, ln, k = f.arg_regs
    cy, kk, ob, ib, nd = f.gpr("cy"), f.gpr("k"), f.gpr("ob"), f.gpr("ib"), f.gpr("nd")
    f.mov(cy, XZR)
    done = f.new_label("done")
    f.cbz(ln, done)
    f.mov(kk.w, k.w)                           # zero-extends: k's upper half ignored
    f.sub(ob, out_len, offset)
    f.add(ob, out, ob, "lsl #2")
    f.sub(ob, ob, 8)                           # qword of digit 0
    f.add(ib, inp, ln, "lsl #2")
    f.sub(ib, ib, 8)
    f.lsr(nd, ln, 1)
    digits_done = f.new_label("digits_done")
    f.cbz(nd, digits_done)
    row(f, Digits(ob, -8, True), Digits(ib, -8, True), nd, kk, "addmul", p, cy,
        unit=("words", 2))
    f.bind(digits_done)
    f.tbz(ln, 0, done)
    w, t = f.gpr("w"), f.gpr("t")
    f.ldr(w.w, mem(ob, 4))
    f.ldr(t.w, mem(ib, 4))
    f.umaddl(t, t.w, kk.w, w)
    f.add(t, t, cy)
    f.str_(t.w, mem(ob, 4))
    f.lsr(cy, t, 32)
    f.bind(done)
    f.ret(cy)
    return f.finalize()


def build_w32(symbol, p):
    """The seed design: one 32-bit word per step, umaddl off the carry chain, add + lsr on it.

        p_j = in_j * k + out_j          (umaddl, independent of the carry)
        t_j = p_j + carry ; out_j = low(t_j) ; carry = t_j >> 32
    """
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    from .. import sched
    f = Function(symbol, SPEC.args, SPEC.result)
    out, out_len, inp, offset, ln, k = f.arg_regs
    cy, ob, ib = f.gpr("cy"), f.gpr("ob"), f.gpr("ib")
    U = p.unroll
    f.mov(cy, XZR)
    done = f.new_label("done")
    f.cbz(ln, done)
    f.sub(ob, out_len, offset)
    f.add(ob, out, ob, "lsl #2")
    f.sub(ob, ob, 4)                           # &out[top]
    f.add(ib, inp, ln, "lsl #2")
    f.sub(ib, ib, 4)                           # &in[len-1]

    def loads(n, iw, ow, index):
        for j in range(n):
            f.ldr(iw[j].w, mem(ib, -4 * j, tag=("in", 4 * (index + j)), size=4))
            f.ldr(ow[j].w, mem(ob, -4 * j, tag=("out", 4 * (index + j)), size=4))
        f.sub(ib, ib, 4 * n)

    def work(n, iw, ow, obase, index):
        for j in range(n):
            t = f.gpr("t")
            f.umaddl(t, iw[j].w, k.w, ow[j])
            f.add(t, t, cy)
            f.str_(t.w, mem(obase, -4 * j, tag=("out", 4 * (index + j)), size=4))
            f.lsr(cy, t, 32)
        f.sub(obase, obase, 4 * n)

    shift = U.bit_length() - 1
    for bit in range(shift):
        skip = f.new_label("seg%d" % (1 << bit))
        f.tbz(ln, bit, skip)
        n = 1 << bit
        iw, ow = f.gprs(n, "i"), f.gprs(n, "o")
        loads(n, iw, ow, 0)
        work(n, iw, ow, ob, 0)
        f.bind(skip)
    c = f.gpr("c")
    f.lsr(c, ln, shift)
    f.cbz(c, done)
    if p.distance == 0:
        top = f.new_label("loop")
        iw, ow = f.gprs(U, "i"), f.gprs(U, "o")
        f.bind(top)
        f.mca_begin("words words=%d" % U)
        loads(U, iw, ow, 0)
        work(U, iw, ow, ob, 0)
        f.subs(c, c, 1)
        f.b_ne(top)
        f.mca_end()
    else:
        # the out words of block i+1 are read through `ol` ahead of the stores through ob
        ol = f.gpr("ol")
        f.mov(ol, ob)
        iw, ow = f.gprs(U, "i"), f.gprs(U, "o")

        def load(i, s):
            for j in range(U):
                f.ldr(iw[j].w, mem(ib, -4 * j, tag=("in", 4 * (U * i + j)), size=4))
                f.ldr(ow[j].w, mem(ol, -4 * j, tag=("out", 4 * (U * i + j)), size=4))
            f.sub(ib, ib, 4 * U)
            f.sub(ol, ol, 4 * U)

        sched.pipeline(
            f, sched.A64Deps(), load, lambda i, s: work(U, iw, ow, ob, U * i),
            enter_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
            exit_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
            loop_back=lambda lab: (f.subs(c, c, 1), f.b_ne(lab)),
            jump=lambda lab: f.b(lab), done=done, distance=1, rotation=1, name="words",
            mca="words words=%d" % U)
    f.bind(done)
    f.ret(cy)
    return f.finalize()


def build_w64(symbol, p):
    """32-bit products, 64-bit carry chain: one chain step per word pair.

        ldp  w_h, w_l, [in pair]       ldp v_h, v_l, [out pair]      (BE: h more significant)
        p_l = in_l * k + out_l ; p_h = in_h * k + out_h              (umaddl, < 2^64 each)
        D   = p_l + (p_h << 32)  (adds ... lsl #32)  carry-out c1
        D  += cy  (adds)  ;  cy = (p_h >> 32) + c1 + c2              (two adc)
        stp  D>>32, D (as w registers)

    No umulh (slow on Neoverse-N1) and no rotation; the carry chain advances two words per
    two dependent instructions instead of the seed design's add + lsr per word."""
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    from .. import sched
    f = Function(symbol, SPEC.args, SPEC.result)
    out, out_len, inp, offset, ln, k = f.arg_regs
    cy, ob, ib = f.gpr("cy"), f.gpr("ob"), f.gpr("ib")
    U = p.unroll
    f.mov(cy, XZR)
    done = f.new_label("done")
    f.cbz(ln, done)
    f.sub(ob, out_len, offset)
    f.add(ob, out, ob, "lsl #2")
    f.sub(ob, ob, 8)                           # &out[top-1]: the least significant pair
    f.add(ib, inp, ln, "lsl #2")
    f.sub(ib, ib, 8)                           # &in[len-2]

    def load(n, base_i, base_o, regs, index):
        ih, il, oh, ol = regs
        for j in range(n):
            f.ldp(ih[j].w, il[j].w, mem(base_i, -8 * j, tag=("in", 8 * (index + j)), size=4))
            f.ldp(oh[j].w, ol[j].w, mem(base_o, -8 * j, tag=("out", 8 * (index + j)), size=4))
        f.sub(base_i, base_i, 8 * n)
        f.sub(base_o, base_o, 8 * n)

    def work(n, regs, index):
        ih, il, oh, ol = regs
        for j in range(n):
            pl, ph, d, t = f.gpr("pl"), f.gpr("ph"), f.gpr("d"), f.gpr("t")
            f.umaddl(pl, il[j].w, k.w, ol[j])
            f.umaddl(ph, ih[j].w, k.w, oh[j])
            f.adds(d, pl, ph, "lsl #32")
            f.lsr(t, ph, 32)
            f.adc(t, t, XZR)
            f.adds(d, d, cy)
            f.adc(cy, t, XZR)
            f.lsr(t, d, 32)
            f.stp(t.w, d.w, mem(ob, -8 * j, tag=("out", 8 * (index + j)), size=4))
        f.sub(ob, ob, 8 * n)

    def fresh(n):
        return (f.gprs(n, "ih"), f.gprs(n, "il"), f.gprs(n, "oh"), f.gprs(n, "ol"))

    npairs = f.gpr("np")
    f.lsr(npairs, ln, 1)
    shift = U.bit_length() - 1
    for bit in range(shift):
        skip = f.new_label("seg%d" % (1 << bit))
        f.tbz(npairs, bit, skip)
        n = 1 << bit
        regs = fresh(n)
        load(n, ib, ob, regs, 0)
        f.add(ob, ob, 8 * n)                   # the stores walk from the same start
        work(n, regs, 0)
        f.bind(skip)
    c = f.gpr("c")
    pairs_done = f.new_label("pairs_done")
    f.lsr(c, npairs, shift)
    f.cbz(c, pairs_done)
    region = "pairs words=%d" % (2 * U)
    if p.distance == 0:
        top = f.new_label("loop")
        regs = fresh(U)
        f.bind(top)
        f.mca_begin(region)
        load(U, ib, ob, regs, 0)
        f.add(ob, ob, 8 * U)
        work(U, regs, 0)
        f.subs(c, c, 1)
        f.b_ne(top)
        f.mca_end()
    else:
        ol_ = f.gpr("ol")                      # out pairs are read ahead through ol
        f.mov(ol_, ob)
        regs = fresh(U)
        sched.pipeline(
            f, sched.A64Deps(), lambda i, s: load(U, ib, ol_, regs, U * i),
            lambda i, s: work(U, regs, U * i),
            enter_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
            exit_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
            loop_back=lambda lab: (f.subs(c, c, 1), f.b_ne(lab)),
            jump=lambda lab: f.b(lab), done=pairs_done, distance=1, rotation=1, name="pairs",
            mca=region)
    f.bind(pairs_done)
    # odd len: the most significant word, in[0] and out[top-len+1], at ob + 4 / ib + 4
    f.tbz(ln, 0, done)
    w, t = f.gpr("w"), f.gpr("t")
    f.ldr(w.w, mem(ob, 4, size=4))
    f.ldr(t.w, mem(ib, 4, size=4))
    f.umaddl(t, t.w, k.w, w)
    f.add(t, t, cy)
    f.str_(t.w, mem(ob, 4, size=4))
    f.lsr(cy, t, 32)
    f.bind(done)
    f.ret(cy)
    return f.finalize()


W64_PARAMS = {
    "unroll": Param(4, (1, 2, 4), "word pairs per loop iteration"),
    "distance": Param(1, (0, 1), "1: loads of block i+1 issued during block i (pipelined)"),
}

VARIANTS = [
    Variant("avx512", "x86_64", x86_bi_vec.build, x86_bi_vec.PARAMS,
            "16 BE-words per zmm block (x86_bi_vec): VPMULUDQ products of the even and odd\n"
            "words plus the window, one VPERMT2D lines the even products' halves up with the\n"
            "odd ones into 64-bit digit sums, lane carries move up one lane by VALIGNQ; a block\n"
            "where a carry meets an all-ones digit is finished exactly by generate/propagate\n"
            "masks. Tails (len mod 16) up to scalar_tail words and windows below vec_min by\n"
            "the adx row, longer tails by one masked block.",
            unmodelled={"row_ahead": ADX_CHAINS}),
    Variant("mulx", "x86_64", build_x86("adc"), MULX_PARAMS,
            "As adx with both carries folded per digit by ADD/ADC (BMI2 only); up to `small`\n"
            "words straight-line code per digit count. Ahead of adx's row\n"
            "on the development host at every length: the RORX word rotations, not the\n"
            "carry chains, hold ports 0 and 6 there, and ADD/ADC need no flag setup. On AMD\n"
            "Zen 5 adx's own straight-line code (small) is ahead at 4..15 words, its row at\n"
            "16..31."),
    Variant("adx", "x86_64", build_x86("adx"), ADX_PARAMS,
            "Word pairs as 64-bit digits (RORX 32 on load and store), an addmul_1 row of\n"
            "MULX/ADCX/ADOX (x86_rows) walking down memory; an odd top word last. Up to\n"
            "`small` words straight-line code per digit count before the frame, lo_j +\n"
            "hi_(j-1) on the CF chain and + out_j on the OF chain (one carry instruction a\n"
            "digit on each, where mulx has two dependent ones).",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("w64", "aarch64", build_w64, W64_PARAMS,
            "32-bit umaddl products summed on a 64-bit carry chain (adds with lsl #32),\n"
            "two words per chain step, no umulh; loads of the next block ahead."),
    Variant("x64", "aarch64", build_x64, a64_rows.PARAMS,
            "Word pairs as 64-bit digits (ror #32), mul/umulh addmul_1 row (a64_rows,\n"
            "software-pipelined); an odd top word last with umaddl."),
    Variant("w32", "aarch64", build_w32, W32_PARAMS,
            "The JDK-8186915 design: 32-bit words, umaddl off the carry chain, add + lsr on\n"
            "it; loads of the next block issued during this one."),
]
