"""The Win64 flavour (lfgen/x86/win64.py and the Win64 parts of lfgen/x86/function.py): the
body's prologue description (LF_SEH_*), the frame shape Windows can unwind, the xmm6-15 a
body writes, the red zone (kept in SysV form, a real frame in the Win64 form, refused there
otherwise), the entry shim (argument moves, stack-argument offsets, alignment, saves) and the
one-text merge of both forms of a body. Assembling and running the result: tests/flavours.py."""

import re
import unittest

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV,
                            VPXORQ, VPADDQ, xmm7, zmm20, zmm9)
from peachpy.x86_64.registers import rsp

from lfgen.kernel import KernelSpec
from lfgen.x86 import function as xf, win64

SPEC = KernelSpec("t_w", "t", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                               ("n", "size_t")], "uint64_t", "s", "u", "p", "src")
SPEC6 = KernelSpec("t_w6", "t", [("a", "uint64_t *"), ("b", "size_t"), ("c", "uint64_t *"),
                                 ("d", "size_t"), ("e", "size_t"), ("f", "uint32_t")],
                   "uint32_t", "s", "u", "p", "src")


def _build(pressure=False, red_zone=False, raw_red_zone=False, vector=False):
    f = xf.Function("lf_t_w_v", SPEC.args, SPEC.result)
    with f:
        rp, ap, n = f.load_args()
        regs = [G() for _ in range(11 if pressure else 1)]
        for r in regs:
            MOV(r, [ap])
        if red_zone:
            slot, = f.red_zone_slots(1)
            MOV(slot, regs[0])
            MOV(regs[0], slot)
        if raw_red_zone:
            MOV([rsp - 8], regs[0])
        if vector:
            VPXORQ(xmm7, xmm7, xmm7)                 # written: saved by the entry
            VPXORQ(zmm20, zmm20, zmm20)              # zmm16-31 are volatile in Win64
            VPADDQ(zmm9, zmm9, [ap])                 # written
        for r in regs:
            MOV([rp], r)
        f.ret(regs[0])
    return f.finalize()


def _code(lines):
    return [l.strip() for l in lines if l.startswith("\t") and "/*" not in l]


class BodyPrologue(unittest.TestCase):
    def test_seh_lines_follow_the_prologue(self):
        body = _code(_build(pressure=True).lines)
        pushes = [i for i, l in enumerate(body) if l.startswith("pushq")]
        self.assertTrue(pushes)
        for i in pushes:       # push, its two CFI lines, then the SEH line
            self.assertEqual(body[i + 3], "LF_SEH_PUSHREG(%s)" % body[i].split("\t")[1])
        end = body.index("LF_SEH_ENDPROLOGUE")
        self.assertEqual(end, pushes[-1] + 4)
        self.assertFalse(any(l.startswith("push") for l in body[end:]))

    def test_leaf_ends_its_prologue_at_once(self):
        self.assertEqual(_code(_build().lines)[0], "LF_SEH_ENDPROLOGUE")

    def test_vzeroupper_before_the_epilogue(self):
        body = _code(_build(pressure=True, vector=True).lines)
        ret = body.index("ret")
        pops = [i for i, l in enumerate(body) if l.startswith("popq")]
        self.assertTrue(pops)
        self.assertLess(max(i for i, l in enumerate(body) if l == "vzeroupper"), pops[0])
        self.assertTrue(all(l.startswith(("popq", ".cfi")) for l in body[pops[0]:ret]))

    def test_xmm_written(self):
        self.assertEqual(_build(vector=True).xmm_written, [7, 9])
        self.assertEqual(_build().xmm_written, [])


class RedZone(unittest.TestCase):
    def test_sysv_form_uses_the_red_zone(self):
        c = _build(red_zone=True)
        self.assertTrue(c.red_zone)
        self.assertTrue(any(re.search(r"-8\(%rsp\)", l) for l in c.lines))
        self.assertEqual(c.frame, 0)

    def test_win64_form_has_a_frame(self):
        with xf.flavour("win64"):
            c = _build(red_zone=True)
        self.assertFalse(c.red_zone)
        self.assertGreaterEqual(c.frame, 8)
        body = _code(c.lines)
        self.assertIn("LF_SEH_STACKALLOC(%d)" % c.frame, body)
        self.assertFalse(any(re.search(r"-\d+\(%rsp\)", l) for l in body))

    def test_memory_below_rsp_is_refused_in_the_win64_form(self):
        with xf.flavour("win64"):
            with self.assertRaisesRegex(ValueError, "no red zone"):
                _build(raw_red_zone=True)


class Entry(unittest.TestCase):
    def test_three_arguments_no_xmm(self):
        lines = win64.entry_lines("lf_t_w_v", 3, [], False)
        code = _code(lines)
        self.assertEqual(lines[:2], ["LF_WIN64_BODY_STATIC(lf_t_w_v)", "LF_WIN64_ENTRY(lf_t_w_v)"])
        self.assertIn("subq\t$8, %rsp", code)             # rsp 16-aligned at the call
        moves = [l for l in code if l.startswith("movq")]
        self.assertEqual(moves, ["movq\t%rcx, %rdi", "movq\t%rdx, %rsi", "movq\t%r8, %rdx"])
        self.assertEqual(code[code.index("call\tLF_BODY(lf_t_w_v)") + 1], "addq\t$8, %rsp")
        self.assertEqual(code[-1], "ret")

    def test_stack_arguments_and_xmm_saves(self):
        lines = win64.entry_lines("lf_t_w6_v", 6, [6, 9, 15], True, ["lf_t_w6_x"])
        code = _code(lines)
        self.assertTrue(lines[0].startswith("LF_WIN64_BODY_EXTERN(lf_t_w6_v)"))
        frame = 8 + 3 * 16
        self.assertIn("subq\t$%d, %%rsp" % frame, code)
        # at entry: [rsp+40], [rsp+48]; now below two pushes and the frame
        self.assertIn("movq\t%d(%%rsp), %%r8" % (frame + 16 + 40), code)
        self.assertIn("movq\t%d(%%rsp), %%r9" % (frame + 16 + 48), code)
        for k, i in enumerate([6, 9, 15]):
            off = "%d(%%rsp)" % (16 * k) if k else "(%rsp)"
            self.assertIn("vmovaps\t%%xmm%d, %s" % (i, off), code)
            self.assertIn(".seh_savexmm %%xmm%d, %d" % (i, 16 * k), code)
        self.assertEqual(code.index(".seh_endprologue"),
                         max(i for i, l in enumerate(code) if l.startswith(".seh_savexmm")) + 1)
        self.assertIn("movaps\t%xmm6, (%rsp)", _code(win64.entry_lines("x", 6, [6], False)))

    def test_saved_xmm_follows_dispatch_targets(self):
        class C:
            def __init__(self, xmm, targets=()):
                self.xmm_written, self.tail_targets = xmm, list(targets)
        built = {"a": C([8], ["b"]), "b": C([6, 7], ["c"]), "c": C([15])}
        self.assertEqual(win64.saved_xmm("a", built), [6, 7, 8, 15])
        self.assertEqual(win64.saved_xmm("c", built), [15])


class Merge(unittest.TestCase):
    def test_round_trip(self):
        a = ["x", "y1", "z", "w", "v"]
        b = ["x", "y2", "z", "new", "w"]
        m = win64.merge(a, b)
        self.assertEqual(win64.split(m, False), a)
        self.assertEqual(win64.split(m, True), b)
        self.assertEqual(m.count("#endif"), 3)
        self.assertEqual(win64.merge(a, a), a)


if __name__ == "__main__":
    unittest.main()
