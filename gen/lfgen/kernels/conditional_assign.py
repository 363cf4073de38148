"""conditional_assign: a = set ? b : a over n 64-bit limbs, in constant time (the JDK's
IntegerPolynomial.conditionalAssign, the intrinsic of generate_intpoly_assign).

    mask = -set                               (all ones or all zeros)
    a_i ^= (a_i ^ b_i) & mask                 for every i: every limb of a and b is read and
                                              every limb of a written, whatever set is

Only n decides which code runs (a public length: 5, 10, 14, 16, 19 for the JDK's fields); set
reaches nothing but the mask (the generator taints it and refuses a branch or an address that
depends on it):

    x86-64 "avx2": the mask broadcast to a ymm; n/8 iterations of two ymm blocks (VPXOR with b
        from memory, VPAND, VPXOR, store), then 4 (ymm), 2 (xmm) and 1 (GPR) limbs by the low
        bits of n: n = 5 is 4 + 1, 10 is 8 + 2, 14 is 8 + 4 + 2, 16 is 8 + 8, 19 is 16 + 2 + 1.
    x86-64 "sse2": the same with xmm blocks (n/4 iterations of two, then 2 and 1), baseline
        x86-64 for CPUs without AVX2.
    Both x86-64 variants: n below the schedule's gpr_below (public) runs one limb per
        iteration in GPRs instead, no vector setup (AMD Zen 5: 8; n = 5 14.6 -> 11.3 core
        cycles, the C loop 12.1; a vector store forwarded to the next call's load is slow there).
    AArch64 "a64": `cmp set, #0` once, then csel per limb on ldp/stp pairs (n/4 iterations of
        two pairs, then 2 and 1); loop control by sub/cbnz and tbz, which keep NZCV.
"""

from ..kernel import KernelSpec, Variant, Param

SPEC = KernelSpec(
    name="conditional_assign",
    operation="a = set ? b : a over n limbs, constant time (JDK IntegerPolynomial.conditionalAssign)",
    args=[("set", "int"), ("a", "int64_t *"), ("b", "const int64_t *"), ("n", "size_t")],
    result=None,
    shapes="a, b: n 64-bit limbs (int64_t, as the JDK's long[] limbs; the limbs are only\n"
           "copied, so any layout and signedness). set: 0 or 1.",
    units="n in limbs.",
    preconditions="set must be 0 or 1 (the JDK's contract: another value gives an undefined\n"
                  "mixture of a and b, never a fault; only the low 32 bits of the argument are\n"
                  "read). Every limb of a and b is read and every limb of a written, for either\n"
                  "value of set; b is not modified. n == 0 touches no memory (NULL allowed).\n"
                  "a == b is allowed (a unchanged); other overlaps give an undefined result.\n"
                  "Constant time: no branch or address depends on set or on the limbs (the\n"
                  "generator checks it; tests/ct runs it under valgrind); n is public.",
    source="OpenJDK sun.security.util.math.intpoly.IntegerPolynomial.conditionalAssign and its\n"
           "x86-64 stub (StubGenerator::generate_intpoly_assign, JDK-8329538).",
    tune_sizes=(5, 10, 14, 16, 19),
)


def _x86(width):
    """width 4: ymm blocks (AVX2); 2: xmm blocks (SSE2)."""

    def build(symbol, p):
        from peachpy.x86_64 import (GeneralPurposeRegister64 as G, XMMRegister, YMMRegister,
                                    MOV, NEG, XOR, AND, TEST, SHR, SUB, ADD, CMP, JZ, JNZ,
                                    JAE, JMP,
                                    VMOVQ, VPBROADCASTQ, VMOVDQU, VPXOR, VPAND,
                                    MOVQ, PUNPCKLQDQ, MOVDQU, PXOR, PAND)
        from ..x86 import function as x86
        f = x86.Function(symbol, SPEC.args, SPEC.result)
        with f:
            set_, a, b, n = f.load_args()
            f.secret_independent(secret=[set_])
            m = G()
            MOV(m.as_dword, set_.as_dword)              # low 32 bits only (int)
            NEG(m)                                      # mask: 0 or all ones
            done = f.new_label("done")
            if p.gpr_below:
                f.comment("n < %d (public): one limb at a time in GPRs, no vector setup"
                          % p.gpr_below)
                vector = f.new_label("vector")
                CMP(n, p.gpr_below)
                JAE(vector)
                TEST(n, n)
                JZ(done)
                one = f.new_label("gpr")
                f.bind(one)
                x = G()
                MOV(x, [b])
                XOR(x, [a])
                AND(x, m)
                XOR([a], x)
                ADD(a, 8)
                ADD(b, 8)
                SUB(n, 1)
                JNZ(one)
                JMP(done)
                f.bind(vector)
            if width == 4:
                vm = YMMRegister()
                VMOVQ(vm.as_xmm, m)
                VPBROADCASTQ(vm, vm.as_xmm)
            else:
                vm = XMMRegister()
                MOVQ(vm, m)
                PUNPCKLQDQ(vm, vm)

            def block(off, w):
                """limbs [off, off + w) of a and b (w = width or 2: a vector; 1: a GPR)."""
                if w == 1:
                    x = G()
                    MOV(x, [b + off])
                    XOR(x, [a + off])
                    AND(x, m)
                    XOR([a + off], x)
                    return
                if width == 4:
                    R = YMMRegister if w == 4 else XMMRegister
                    va, vt = R(), R()
                    mask = vm if w == 4 else vm.as_xmm
                    VMOVDQU(va, [a + off])
                    VPXOR(vt, va, [b + off])
                    VPAND(vt, vt, mask)
                    VPXOR(va, va, vt)
                    VMOVDQU([a + off], va)
                else:
                    va, vt = XMMRegister(), XMMRegister()
                    MOVDQU(va, [a + off])
                    MOVDQU(vt, [b + off])
                    PXOR(vt, va)
                    PAND(vt, vm)
                    PXOR(va, vt)
                    MOVDQU([a + off], va)

            step = 2 * width                            # limbs per loop iteration
            cnt = G()
            MOV(cnt, n)
            SHR(cnt, step.bit_length() - 1)
            tail = f.new_label("tail")
            JZ(tail)
            loop = f.new_label("loop")
            f.bind(loop)
            block(0, width)
            block(8 * width, width)
            ADD(a, 8 * step)
            ADD(b, 8 * step)
            SUB(cnt, 1)
            JNZ(loop)
            f.bind(tail)
            w = width
            while w >= 1:
                skip = f.new_label("no%d" % w)
                TEST(n, w)
                JZ(skip)
                block(0, w)
                if w > 1:
                    ADD(a, 8 * w)
                    ADD(b, 8 * w)
                f.bind(skip)
                w //= 2
            f.bind(done)
            f.ret()
        return f.finalize()
    return build


def build_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem, post
    f = Function(symbol, SPEC.args, SPEC.result)
    set_, a, b, n = f.arg_regs
    f.secret_independent(secret=[set_])
    pa, pb, cnt = f.gpr("pa"), f.gpr("pb"), f.gpr("cnt")
    x = f.gprs(4, "x")
    y = f.gprs(4, "y")
    f.mov(pa, a)
    f.mov(pb, b)
    f.cmp(set_.w, 0)                                    # ne: take b (NZCV kept from here on)

    f.lsr(cnt, n, 2)
    tail = f.new_label("tail")
    f.cbz(cnt, tail)
    loop = f.new_label("loop")
    f.bind(loop)
    f.ldp(x[0], x[1], mem(pa, 0))
    f.ldp(x[2], x[3], mem(pa, 16))
    f.ldp(y[0], y[1], post(pb, 32))
    f.ldp(y[2], y[3], mem(pb, -16))
    for k in range(4):
        f.csel(x[k], y[k], x[k], "ne")
    f.stp(x[2], x[3], mem(pa, 16))
    f.stp(x[0], x[1], post(pa, 32))
    f.sub(cnt, cnt, 1)
    f.cbnz(cnt, loop)
    f.bind(tail)
    no2, no1 = f.new_label("no2"), f.new_label("no1")
    f.tbz(n, 1, no2)
    f.ldp(x[0], x[1], mem(pa, 0))
    f.ldp(y[0], y[1], post(pb, 16))
    f.csel(x[0], y[0], x[0], "ne")
    f.csel(x[1], y[1], x[1], "ne")
    f.stp(x[0], x[1], post(pa, 16))
    f.bind(no2)
    f.tbz(n, 0, no1)
    f.ldr(x[0], mem(pa, 0))
    f.ldr(y[0], mem(pb, 0))
    f.csel(x[0], y[0], x[0], "ne")
    f.str_(x[0], mem(pa, 0))
    f.bind(no1)
    f.ret()
    return f.finalize()


# Short arrays (the P-256 field's 5 limbs) in GPRs where that is faster than the vector
# setup and a vector store forwarded to the next call's load (per CPU: make tune).
X86_PARAMS = {
    "gpr_below": Param(0, (0, 6, 8), "n below this (public): one limb per iteration in\n"
                       "GPRs (MOV, XOR, AND, XOR to memory) instead of the vector blocks; 0: never",
                       kind="size", sizes=(5, 7, 10)),
}

VARIANTS = [
    Variant("avx2", "x86_64", _x86(4), X86_PARAMS,
            "mask = -set broadcast to a ymm; two ymm blocks (VPXOR with b, VPAND mask, VPXOR,\n"
            "store) per iteration, then 4, 2, 1 limbs by the bits of n (ymm, xmm, GPR); n below\n"
            "gpr_below one limb at a time in GPRs."),
    Variant("sse2", "x86_64", _x86(2), X86_PARAMS,
            "mask = -set in an xmm; two xmm blocks (PXOR, PAND, PXOR) per iteration, then 2 and\n"
            "1 limbs by the bits of n; n below gpr_below one limb at a time in GPRs."),
    Variant("a64", "aarch64", build_a64, {},
            "cmp set, #0 once; per limb csel ne on ldp/stp pairs, four limbs per iteration, then\n"
            "2 and 1 by tbz on n (sub/cbnz/tbz keep NZCV)."),
]
