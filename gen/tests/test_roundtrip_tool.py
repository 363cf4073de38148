"""tests/roundtrip.py: its normalisation accepts only genuine aliases, and the AArch64 printer
(insn.format) produces text that assembles to exactly the instructions meant -- for a wide set
of DSL forms, beyond what generated/ holds today."""

import unittest

from lfgen.a64.function import Function
from lfgen.a64.insn import mem, post, pre, Mem
from lfgen.a64.regs import XZR, WZR
from . import support


def same(arch, a, b):
    rt = support.roundtrip()

    def insn(text):
        parts = text.split(None, 1)
        ops = rt.split_operands(parts[1]) if len(parts) > 1 else []
        return rt.Insn(parts[0], ops, text)
    return rt.same_insn(arch, insn(a), insn(b))


class Normalisation(unittest.TestCase):
    def test_x86_equal(self):
        for a, b in (("movq %rdx, %rax", "mov %rdx,%rax"),
                     ("testq $1, %rax", "test $0x1,%rax"),
                     ("leaq -8(%rsi,%rax,8), %r11", "lea -0x8(%rsi,%rax,8),%r11"),
                     ("jz", "je"), ("cmovcq %rax, %rbx", "cmovb %rax,%rbx"),
                     ("shrq $1, %rax", "shr %rax"),
                     ("andq $-16, %rsp", "and $0xfffffffffffffff0,%rsp"),
                     ("andl $-16, %eax", "and $0xfffffff0,%eax"),
                     ("vpaddq 8(%rsi){1to8}, %zmm1, %zmm2{%k1}{z}",
                      "vpaddq 0x8(%rsi){1to8},%zmm1,%zmm2{%k1}{z}"),
                     ("mulxq (%rsi), %r11, %r9", "mulx (%rsi),%r11,%r9")):
            with self.subTest(a=a):
                self.assertTrue(same("x86_64", a, b))

    def test_x86_different(self):
        for a, b in (("movq %rdx, %rax", "mov %rax,%rdx"),
                     ("testq $1, %rax", "test $0x2,%rax"),
                     ("leaq 8(%rsi), %r11", "lea 0x10(%rsi),%r11"),
                     ("addq %r8, %r9", "adc %r8,%r9"),
                     ("shrq $2, %rax", "shr %rax"),
                     ("movl %eax, %eax", "mov %rax,%rax"),
                     ("mulxq (%rsi), %r11, %r9", "mulx (%rsi),%r9,%r11"),
                     ("vpaddq %zmm1, %zmm1, %zmm2{%k1}{z}", "vpaddq %zmm1,%zmm1,%zmm2{%k1}"),
                     ("jz", "jne")):
            with self.subTest(a=a):
                self.assertFalse(same("x86_64", a, b))

    def test_a64_equal(self):
        for a, b in (("orr x1, xzr, x2", "mov x1, x2"), ("subs xzr, x1, #1", "cmp x1, #0x1"),
                     ("hint #34", "bti c"), ("movz x3, #5", "mov x3, #0x5"),
                     ("movz x3, #1, lsl #16", "mov x3, #0x10000"),
                     ("madd x1, x2, x3, xzr", "mul x1, x2, x3"),
                     ("csinc x1, xzr, xzr, cc", "cset x1, cs"),
                     ("extr x1, x2, x2, #32", "ror x1, x2, #32"),
                     ("ldr x1, [x2, #-8]", "ldur x1, [x2, #-8]"),
                     ("add x1, x1, #8", "add x1, x1, #0x8"),
                     ("ldp x1, x2, [x3], #16", "ldp x1, x2, [x3], #16"),
                     ("b.hs", "b.cs"), ("tbz x2, #0", "tbz w2, #0")):
            with self.subTest(a=a):
                self.assertTrue(same("aarch64", a, b))

    def test_a64_different(self):
        for a, b in (("mov x1, x2", "mov x2, x1"), ("add x1, x1, #8", "add x1, x1, #0x10"),
                     ("ldp x1, x2, [x3, #16]", "ldp x1, x2, [x3], #16"),
                     ("ldp x1, x2, [x3, #16]!", "ldp x1, x2, [x3, #16]"),
                     ("adds x1, x2, x3", "adcs x1, x2, x3"), ("b.eq", "b.ne"),
                     ("umull v0.2d, v1.2s, v2.2s", "umull2 v0.2d, v1.4s, v2.4s"),
                     ("csinc x1, xzr, xzr, cc", "cset x1, cc")):
            with self.subTest(a=a):
                self.assertFalse(same("aarch64", a, b))


def a64_zoo():
    f = Function("lf_t_zoo", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                              ("n", "size_t"), ("m", "uint64_t")], result="uint64_t")
    rp, ap, n, m = f.arg_regs
    a, b, c, d, e = f.gprs(5, "g")
    v = f.vregs(6, "v")
    done, top = f.new_label("done"), f.new_label("top")
    f.ldp(a, b, post(ap, 16))
    f.ldp(c, d, pre(ap, 16))
    f.ldp(a, b, mem(ap, 32))
    f.ldr(e.w, mem(ap, -4))
    f.ldr(e, Mem(ap, index=n, shift=3))
    f.ldrb(e.w, mem(ap, 3))
    f.cbz(n, done)
    f.bind(top)
    f.mul(e, a, m)
    f.umulh(a, a, m)
    f.madd(b, b, m, e)
    f.umaddl(c, a.w, m.w, c)
    f.umull(d, b.w, m.w)
    f.adds(a, a, b)
    f.adcs(b, b, c)
    f.sbcs(c, c, d)
    f.adc(d, d, XZR)
    f.ngc(e, XZR)
    f.cset(e, "cs")
    f.csel(a, a, b, "ne")
    f.cinc(b, b, "cc")
    f.extr(c, c, d, 63)
    f.ror(d, d, 32)
    f.lsl(e, e, 3)
    f.lsr(e, e, 1)
    f.asr(e, e, 2)
    f.ubfx(a, a, 4, 8)
    f.bfi(b, c, 8, 16)
    f.and_(c, c, 0xff)
    f.orr(d, d, 0xff00)
    f.eor(e, e, a)
    f.mvn(a, a)
    f.neg(b, b)
    f.rev(c, c)
    f.clz(d, d)
    f.movz(e, 0x1234, "lsl #16")
    f.movk(e, 0x5678)
    f.add(a, a, b, "lsl #2")
    f.cmp(a, 5)
    f.ccmp(a, b, 0, "eq")
    f.tst(a, b)
    f.tbnz(a, 63, done)
    f.stp(a, b, mem(rp))
    f.stp(c, d, post(rp, 16))
    f.str_(e, mem(rp, -8))
    f.strh(e.w, mem(rp, 2))
    f.sub(n, n, 1)
    f.cbnz(n, top)
    f.bind(done)
    f.v_movi(v[0].b16, 0)
    f.op("ldr.v", v[1].q, mem(ap))
    f.op("ldp.v", v[2].q, v[3].q, mem(ap, 32))
    f.op("ld1.v", v[4].d2, mem(ap))
    f.v_umull(v[5].d2, v[1].s2, v[2].s2)
    f.v_umlal2(v[5].d2, v[1].s4, v[2].s4)
    f.v_add(v[0].d2, v[0].d2, v[5].d2)
    f.v_ushr(v[1].d2, v[0].d2, 26)
    f.v_shl(v[2].d2, v[1].d2, 3)
    f.v_usra(v[3].d2, v[2].d2, 5)
    f.v_sli(v[3].d2, v[1].d2, 32)
    f.v_xtn(v[4].s2, v[3].d2)
    f.v_zip1(v[5].s4, v[4].s4, v[3].s4)
    f.v_uzp2(v[0].s4, v[5].s4, v[1].s4)
    f.v_trn1(v[1].d2, v[0].d2, v[2].d2)
    f.v_ext(v[2].b16, v[1].b16, v[0].b16, 8)
    f.v_dup(v[3].d2, a)
    f.v_mov(v[4].b16, v[3].b16)
    f.v_ins(v[4].lane("d", 1), b)
    f.v_and(v[5].b16, v[4].b16, v[2].b16)
    f.op("str.v", v[5].q, mem(rp))
    f.op("stp.v", v[0].q, v[1].q, mem(rp, 32))
    f.op("st1.v", v[2].d2, mem(rp))
    r = f.gpr("r")
    f.mov(r, v[4].lane("d", 0))
    f.add(r, r, c)
    f.ret(r)
    return f.finalize()


class Alignment(unittest.TestCase):
    """Padding from an alignment directive inside a body is skipped, and the label after it
    maps to the first real instruction."""

    def text(self, arch):
        body = {"x86_64": ["\tmovq\t%rdi, %rax", "\tnop", "\t.p2align 5", ".Lt_top:",
                           "\tdecq\t%rax", "\tjnz\t.Lt_top", "\tret"],
                "aarch64": ["\tmov\tx1, x0", "\t.p2align 5", ".Lt_top:",
                            "\tsubs\tx1, x1, #1", "\tb.ne\t.Lt_top", "\tret"]}[arch]
        return support.asm_file("lf_t_align", body)

    @support.needs_gcc
    def test_x86(self):
        rt = support.roundtrip()
        with support.TempDir() as d:
            n, errors = rt.compare_text("x86_64", self.text("x86_64"), d, "align")
        self.assertEqual((n, errors), (6, []))

    @support.needs_a64_tools
    def test_a64(self):
        rt = support.roundtrip()
        with support.TempDir() as d:
            n, errors = rt.compare_text("aarch64", self.text("aarch64"), d, "align")
        self.assertEqual((n, errors), (5, []))


class A64Printer(unittest.TestCase):
    @support.needs_a64_tools
    def test_dsl_forms_assemble_to_what_they_say(self):
        rt = support.roundtrip()
        c = a64_zoo()
        text = support.asm_file(c.name, c.lines)
        with support.TempDir() as d:
            n, errors = rt.compare_text("aarch64", text, d, "zoo")
        self.assertEqual(errors, [])
        self.assertGreater(n, 70)


if __name__ == "__main__":
    unittest.main()
