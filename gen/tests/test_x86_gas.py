"""The x86-64 GAS printer (lfgen/x86/gas.py) and the text passes of lfgen/x86/function.py:
ZMM and mask registers, {%k}{z} masking, {1toN} broadcasts, memory forms, labels; identity
moves dropped (64-bit only); CFI after push/pop; vzeroupper when YMM/ZMM state was touched;
the single-RETURN rule. Printed AVX-512 code is assembled and checked against objdump and
against PeachPy's own encoder."""

import unittest

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, ZMMRegister, YMMRegister,
                            XMMRegister, KRegister, MOV, ADD, SUB, MULX, XOR, TEST, JZ, JMP, LABEL,
                            Label, RETURN, VPADDQ, VMOVDQU64, VPMADD52LUQ, VPMADD52HUQ, KMOVW,
                            VPBROADCASTQ, VPANDQ, VPSRLQ, MOVDQU, PADDQ, VPXOR, rdx, rax, rbx,
                            rcx, rsi, rdi, zmm1, zmm2, zmm31, ymm3, k1, k7, qword, dword,
                            zword)
from peachpy.x86_64.operand import check_operand
from peachpy.x86_64.pseudo import LABEL as LABEL_INSN

from lfgen.x86 import function as xf, gas
from . import support


def op(x):
    return gas.operand(check_operand(x), "lf_f")


class Operands(unittest.TestCase):
    def test_registers(self):
        self.assertEqual(op(zmm1), "%zmm1")
        self.assertEqual(op(zmm31), "%zmm31")
        self.assertEqual(op(ymm3), "%ymm3")
        self.assertEqual(op(k7), "%k7")
        self.assertEqual(op(rax), "%rax")
        self.assertEqual(op(rax.as_dword), "%eax")

    def test_masking(self):
        self.assertEqual(op(zmm1(k1)), "%zmm1{%k1}")
        self.assertEqual(op(zmm1(k1.z)), "%zmm1{%k1}{z}")
        self.assertEqual(op(ymm3(k7.z)), "%ymm3{%k7}{z}")

    def test_memory(self):
        self.assertEqual(op([rsi]), "(%rsi)")
        self.assertEqual(op([rsi + 8]), "8(%rsi)")
        self.assertEqual(op([rsi - 8]), "-8(%rsi)")
        self.assertEqual(op([rsi + rax * 8 + 16]), "16(%rsi,%rax,8)")
        self.assertEqual(op([rsi + rax * 1]), "(%rsi,%rax,1)")
        self.assertEqual(op([rax * 8 + 16]), "16(,%rax,8)")
        self.assertEqual(op(zword[rdi + 64]), "64(%rdi)")

    def test_broadcast_and_masked_memory(self):
        self.assertEqual(op(qword.to8[rsi + 8]), "8(%rsi){1to8}")
        self.assertEqual(op(dword.to16[rsi]), "(%rsi){1to16}")
        self.assertEqual(op(zword[rdi](k1)), "(%rdi){%k1}")

    def test_immediates_and_labels(self):
        self.assertEqual(op(5), "$5")
        self.assertEqual(op(-1), "$-1")
        self.assertEqual(gas.operand(Label("top"), "lf_f"), ".Llf_f_top")
        self.assertEqual(gas.label_name("lf_f", "a.b"), ".Llf_f_a_b")

    def test_refuses_what_it_cannot_print(self):
        with self.assertRaises(gas.GasError):
            gas.operand(True, "f")
        with self.assertRaises(gas.GasError):
            gas.operand(object(), "f")
        f = xf.Function("lf_t_virt", [])
        f.pp.attach()
        try:
            v = G()
        finally:
            f.pp.detach()
        with self.assertRaisesRegex(gas.GasError, "not bound"):
            gas.operand(v, "f")

    def test_instruction_operand_order(self):
        self.assertEqual(gas.instruction(VPADDQ(zmm1(k1.z), zmm2, [rsi]), "f"),
                         "\tvpaddq\t(%rsi), %zmm2, %zmm1{%k1}{z}")
        self.assertEqual(gas.instruction(MULX(rbx, rcx, [rsi + 8]), "f"),
                         "\tmulxq\t8(%rsi), %rcx, %rbx")
        self.assertEqual(gas.instruction(LABEL_INSN(Label("x")), "lf_g"), ".Llf_g_x:")


def avx512_function(name):
    f = xf.Function(name, [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                           ("n", "size_t")])
    with f:
        rp, ap, n = f.load_args()
        a, b, acc, lo = ZMMRegister(), ZMMRegister(), ZMMRegister(), ZMMRegister()
        k, y = KRegister(), YMMRegister()
        skip = Label("skip")
        VMOVDQU64(a, [ap])
        VPBROADCASTQ(b, [ap + 8])
        VPANDQ(acc, a, qword.to8[ap + 16])
        VPMADD52LUQ(acc, a, b)
        VPMADD52HUQ(acc, a, qword.to8[ap + 24])
        KMOVW(k, n.as_dword)
        VPADDQ(lo(k.z), acc, [ap + 64])
        VPADDQ(lo(k), lo, acc)
        VPSRLQ(lo, lo, 52)
        TEST(n, n)
        JZ(skip)
        KMOVW(k1, n.as_dword)                   # masks of memory operands: physical only
        VMOVDQU64(zword[rp](k1), lo)
        LABEL(skip)
        VMOVDQU64(y, [ap + 128])
        VPADDQ(y, y, y)
        VMOVDQU64([rp + 64], y)
        VMOVDQU64([rp + n * 8 + 128], acc)
        f.ret()
    return f


class AssembledText(unittest.TestCase):
    """AVX-512 forms do not occur in generated/ yet: print them, assemble, compare."""

    @support.needs_gcc
    def test_avx512_round_trip_and_peachpy_encoding(self):
        rt = support.roundtrip()
        c, code = support.x86_finalize_with_code(avx512_function("lf_t_avx512"))
        text = support.asm_file(c.name, c.lines)
        with support.TempDir() as d:
            n, errors = rt.compare_text("x86_64", text, d, "avx512")
            self.assertEqual(errors, [])
            self.assertGreater(n, 15)
            m, errors, notes = rt.compare_peachpy(code, text, d, "avx512")
            self.assertEqual(errors, [])
            self.assertGreater(m, 12)
        for frag in ("{1to8}", "{%k", "}{z}", "%zmm", "%ymm", "kmovw"):
            self.assertIn(frag, text)

    @support.needs_gcc
    def test_peachpy_check_catches_a_printer_that_swaps_operands(self):
        rt = support.roundtrip()
        f = xf.Function("lf_t_swap", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                                      ("b", "uint64_t")])
        with f:
            rp, ap, b = f.load_args()
            lo, hi = G(), G()
            MOV(rdx, b)
            MULX(hi, lo, [ap])
            MOV([rp], lo)
            MOV([rp + 8], hi)
            f.ret()
        c, code = support.x86_finalize_with_code(f)
        text = support.asm_file(c.name, c.lines)
        line = [l for l in c.lines if "mulx" in l][0]
        src, r1, r2 = [x.strip() for x in line.split("\t")[2].split(",")]
        bad = text.replace(line, "\tmulxq\t%s, %s, %s" % (src, r2, r1))
        self.assertNotEqual(bad, text)
        with support.TempDir() as d:
            self.assertEqual(rt.compare_peachpy(code, text, d, "ok")[1], [])
            self.assertNotEqual(rt.compare_peachpy(code, bad, d, "bad")[1], [])


class MaskedMemory(unittest.TestCase):
    def test_virtual_mask_on_a_memory_operand_fails_closed(self):
        # PeachPy neither tracks nor binds the mask of a memory operand: a virtual one must
        # stop generation instead of printing garbage
        f = xf.Function("lf_t_vmask", [("rp", "uint64_t *"), ("n", "size_t")])
        with f:
            rp, n = f.load_args()
            z, k = ZMMRegister(), KRegister()
            VMOVDQU64(z, [rp + 64])
            KMOVW(k, n.as_dword)
            VMOVDQU64(zword[rp](k), z)
            f.ret()
        with self.assertRaisesRegex(gas.GasError, "not bound"):
            f.finalize()


class IdentityMoves(unittest.TestCase):
    def test_64bit_self_move_dropped_32bit_kept(self):
        f = xf.Function("lf_t_idmov", [("a", "uint64_t"), ("b", "uint32_t")], "uint64_t")
        with f:
            a, b = f.load_args()
            MOV(rcx, rcx)                         # physical self-move: no effect, dropped
            MOV(b.as_dword, b.as_dword)           # zero-extends the upper half: kept
            t = G()
            MOV(t, a)                             # coalesced by PeachPy -> identity, dropped
            ADD(t, b)
            f.ret(t)
        c = f.finalize()
        self.assertNotIn("\tmovq\t%rcx, %rcx", c.lines)
        for l in c.lines:
            parts = l.split("\t")
            if len(parts) == 3 and parts[1] == "movq":
                s, d = parts[2].split(", ")
                self.assertNotEqual(s, d, l)
        self.assertIn("\tmovl\t%esi, %esi", c.lines)


class CFI(unittest.TestCase):
    def pressure(self, name, k):
        f = xf.Function(name, [("p", "const uint64_t *")], "uint64_t")
        with f:
            p, = f.load_args()
            vals = [G() for _ in range(k)]
            for i, v in enumerate(vals):
                MOV(v, [p + 8 * i])
            for v in vals[1:]:
                ADD(vals[0], v)
            f.ret(vals[0])
        return f.finalize()

    def test_push_pop_cfi(self):
        c = self.pressure("lf_t_cfi", 12)
        self.assertTrue(c.saved)
        lines = c.lines
        pushes = [i for i, l in enumerate(lines) if l.startswith("\tpushq\t")]
        pops = [i for i, l in enumerate(lines) if l.startswith("\tpopq\t")]
        self.assertEqual(len(pushes), len(c.saved))
        self.assertEqual(len(pops), len(c.saved))
        for i in pushes:
            reg = lines[i].split("\t")[2]
            self.assertEqual(lines[i + 1], "\t.cfi_adjust_cfa_offset 8")
            self.assertEqual(lines[i + 2], "\t.cfi_rel_offset %s, 0" % reg)
        for i in pops:
            reg = lines[i].split("\t")[2]
            self.assertEqual(lines[i + 1], "\t.cfi_adjust_cfa_offset -8")
            self.assertEqual(lines[i + 2], "\t.cfi_restore %s" % reg)
        self.assertEqual([lines[i].split("\t")[2] for i in pops],
                         list(reversed([lines[i].split("\t")[2] for i in pushes])))
        self.assertEqual(["%" + s for s in c.saved], [lines[i].split("\t")[2] for i in pushes])
        self.assertEqual(lines[-1], "\tret")

    def test_no_frame_no_cfi(self):
        c = self.pressure("lf_t_nocfi", 3)
        self.assertEqual(c.saved, [])
        self.assertFalse([l for l in c.lines if ".cfi" in l or "push" in l])

    @support.needs_gcc
    def test_cfa_matches_pushes_in_the_object(self):
        import sys, os
        sys.path.insert(0, os.path.join(support.ROOT, "tests"))
        import objcheck
        c = self.pressure("lf_t_cfiobj", 14)
        with support.TempDir() as d:
            src = os.path.join(d, "t.S")
            obj = os.path.join(d, "t.o")
            with open(src, "w") as fh:
                fh.write(support.asm_file(c.name, c.lines))
            rc, so, se = support.run(["gcc", "-c", "-I" + support.INCLUDE, src, "-o", obj])
            self.assertEqual(rc, 0, se)
            errors = objcheck.check_object("x86_64", obj)
        self.assertEqual(errors, [])


class VZeroUpper(unittest.TestCase):
    def build(self, name, body):
        f = xf.Function(name, [("rp", "uint64_t *"), ("ap", "const uint64_t *")])
        with f:
            rp, ap = f.load_args()
            body(rp, ap)
            f.ret()
        return f.finalize()

    def vz(self, c):
        return [i for i, l in enumerate(c.lines) if l.strip() == "vzeroupper"]

    def test_ymm(self):
        def body(rp, ap):
            y = YMMRegister()
            from peachpy.x86_64 import VMOVDQU
            VMOVDQU(y, [ap])
            VPADDQ(y, y, y)
            VMOVDQU([rp], y)
        c = self.build("lf_t_vzy", body)
        self.assertEqual(self.vz(c), [len(c.lines) - 2])

    def test_zmm(self):
        def body(rp, ap):
            z = ZMMRegister()
            VMOVDQU64(z, [ap])
            VPADDQ(z, z, z)
            VMOVDQU64([rp], z)
        c = self.build("lf_t_vzz", body)
        self.assertEqual(self.vz(c), [len(c.lines) - 2])
        self.assertIn("avx512f", c.features)

    def test_xmm_and_gpr_only(self):
        def sse(rp, ap):
            x = XMMRegister()
            MOVDQU(x, [ap])
            PADDQ(x, x)
            MOVDQU([rp], x)

        def gpr(rp, ap):
            t = G()
            MOV(t, [ap])
            MOV([rp], t)
        self.assertEqual(self.vz(self.build("lf_t_vzx", sse)), [])
        self.assertEqual(self.vz(self.build("lf_t_vzg", gpr)), [])

    def test_pops_do_not_separate_it_from_ret(self):
        # callee-saved registers in use and ZMM state touched: vzeroupper still precedes ret
        def body(rp, ap):
            vals = [G() for _ in range(12)]
            for i, v in enumerate(vals):
                MOV(v, [ap + 8 * i])
            for v in vals[1:]:
                ADD(vals[0], v)
            z = ZMMRegister()
            VMOVDQU64(z, [ap])
            VMOVDQU64([rp], z)
            MOV([rp], vals[0])
        c = self.build("lf_t_vzp", body)
        self.assertTrue(c.saved)
        vz = self.vz(c)
        self.assertEqual(len(vz), 1)
        self.assertFalse([l for l in c.lines[vz[0]:] if "zmm" in l or "ymm" in l])


class SingleReturn(unittest.TestCase):
    def test_two_returns(self):
        f = xf.Function("lf_t_ret2", [("a", "uint64_t")], "uint64_t")
        with f:
            a, = f.load_args()
            RETURN(a)
            f.ret(a)
        with self.assertRaisesRegex(ValueError, "exactly one RETURN"):
            f.finalize()

    def test_return_not_last(self):
        f = xf.Function("lf_t_ret3", [("a", "uint64_t")], "uint64_t")
        with f:
            a, = f.load_args()
            top, skip = Label("top"), Label("s")
            LABEL(top)
            TEST(a, a)
            JZ(skip)
            RETURN(a)
            LABEL(skip)
            ADD(a, 1)
            JMP(top)                              # the only RETURN is not the last insn
        with self.assertRaisesRegex(ValueError, "exactly one RETURN"):
            f.finalize()

    def test_early_exit_through_exit_label(self):
        f = xf.Function("lf_t_ret1", [("a", "uint64_t")], "uint64_t")
        with f:
            a, = f.load_args()
            r = G()
            XOR(r.as_dword, r.as_dword)
            TEST(a, a)
            JZ(f.exit_label)
            MOV(r, a)
            ADD(r, 1)
            f.ret(r)
        c = f.finalize()
        self.assertEqual(sum(1 for l in c.lines if l.strip() == "ret"), 1)
        self.assertIn(".Llf_t_ret1_exit:", c.lines)


if __name__ == "__main__":
    unittest.main()
