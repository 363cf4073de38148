"""tests/objcheck.py can fail: hand-made objects with a missing note, a missing landing pad, a
lying CFI directive or a missing .size are rejected; frames synthesised by our builders pass
(including AArch64 d8-d15 saves)."""

import os
import unittest

from . import support, a64_progs as P


def objcheck():
    import sys
    d = os.path.join(support.ROOT, "tests")
    if d not in sys.path:
        sys.path.insert(0, d)
    import objcheck as oc
    return oc


GOOD_X86 = """#include "lf_asm.h"
LF_FUNC_BEGIN(lf_t_obj)
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	movq	%rdi, %rbx
	movq	%rbx, %rax
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
LF_FUNC_END(lf_t_obj)
LF_ASM_NOTES
"""


class ObjCheck(unittest.TestCase):
    def check(self, arch, text, **kw):
        oc = objcheck()
        cc = "gcc" if arch == "x86_64" else support.A64_CC
        with support.TempDir() as d:
            src, obj = os.path.join(d, "t.S"), os.path.join(d, "t.o")
            with open(src, "w") as f:
                f.write(text)
            rc, so, se = support.run([cc, "-c", "-I" + support.INCLUDE] +
                                     list(kw.pop("flags", [])) + [src, "-o", obj])
            self.assertEqual(rc, 0, se)
            return oc.check_object(arch, obj, **kw)

    @support.needs_gcc
    def test_good_x86(self):
        self.assertEqual(self.check("x86_64", GOOD_X86, expect_symbol="lf_t_obj"), [])

    @support.needs_gcc
    def test_hidden_expected(self):
        # kernels are hidden unless LF_EXPORT_KERNELS: an exported one is reported
        errs = self.check("x86_64", GOOD_X86, hidden=True, flags=["-DLF_EXPORT_KERNELS"])
        self.assertTrue([e for e in errs if "hidden" in e], errs)
        self.assertEqual(self.check("x86_64", GOOD_X86, hidden=True), [])

    @support.needs_gcc
    def test_missing_notes(self):
        errs = self.check("x86_64", GOOD_X86.replace("LF_ASM_NOTES\n", ""))
        self.assertTrue([e for e in errs if "GNU-stack" in e], errs)
        self.assertTrue([e for e in errs if "property" in e], errs)

    @support.needs_gcc
    def test_missing_landing_pad(self):
        text = GOOD_X86.replace("LF_FUNC_BEGIN(lf_t_obj)",
                                ".text; .globl lf_t_obj; .type lf_t_obj, @function; "
                                "lf_t_obj: .cfi_startproc")
        errs = self.check("x86_64", text)
        self.assertTrue([e for e in errs if "not endbr64" in e], errs)

    @support.needs_gcc
    def test_cfi_that_does_not_match_the_stack(self):
        text = GOOD_X86.replace("\t.cfi_adjust_cfa_offset 8\n", "", 1)
        errs = self.check("x86_64", text)
        self.assertTrue([e for e in errs if "the CFA is" in e], errs)
        text = GOOD_X86.replace("\t.cfi_rel_offset %rbx, 0\n", "\t.cfi_rel_offset %rbx, 8\n")
        errs = self.check("x86_64", text)
        self.assertTrue([e for e in errs if "rule for rbx" in e], errs)

    @support.needs_gcc
    def test_missing_size_and_type(self):
        errs = self.check("x86_64", GOOD_X86.replace("LF_FUNC_END(lf_t_obj)", ".cfi_endproc"))
        self.assertTrue([e for e in errs if "size 0" in e], errs)
        errs = self.check("x86_64", GOOD_X86 + "\t.globl lf_t_data\nlf_t_data: nop\n")
        self.assertTrue([e for e in errs if "not FUNC" in e], errs)

    @support.needs_a64_tools
    def test_a64_frames_from_the_builder(self):
        for name, (f, _) in (("lf_t_g24", P.gpr_pressure(24, "lf_t_g24")),
                             ("lf_t_v30", P.vec_pressure(30, "lf_t_v30"))):
            c = f.finalize()
            self.assertTrue(c.saved)
            with self.subTest(name=name):
                self.assertEqual(self.check("aarch64", support.asm_file(name, c.lines),
                                            expect_symbol=name), [])

    @support.needs_a64_tools
    def test_a64_wrong_cfi(self):
        c = P.gpr_pressure(24, "lf_t_g24b")[0].finalize()
        lines = [l for l in c.lines if not l.startswith("\t.cfi_def_cfa_offset")]
        errs = self.check("aarch64", support.asm_file(c.name, lines))
        self.assertTrue([e for e in errs if "the CFA is" in e], errs)
        lines = [l.replace(".cfi_offset x21, -", ".cfi_offset x21, -8") for l in c.lines]
        errs = self.check("aarch64", support.asm_file(c.name, lines))
        self.assertTrue([e for e in errs if "rule for x21" in e], errs)

    @support.needs_a64_tools
    def test_a64_missing_bti(self):
        text = support.asm_file("lf_t_nobti", ["\tret"]).replace(
            "LF_FUNC_BEGIN(lf_t_nobti)",
            ".text; .globl lf_t_nobti; .type lf_t_nobti, %function; lf_t_nobti: "
            ".cfi_startproc")
        errs = self.check("aarch64", text)
        self.assertTrue([e for e in errs if "not bti c" in e], errs)


if __name__ == "__main__":
    unittest.main()
