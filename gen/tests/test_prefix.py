"""Code before the frame (x86 Function.prefix_upto): small sizes run a second function,
compiled on its own, before the body's prologue. Faults caught: the size checks after the
prologue or missing; a prefix that allocates stack (the cost it exists to avoid); the prefix
left in the Win64 form (Windows unwinds one prologue, at the entry) or merged line by line
with the Win64 body; the roundtrip test comparing the prefix with the body's PeachPy stream
instead of its own."""

import unittest

from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, ADD
from peachpy.x86_64.function import LocalVariable

from lfgen.kernel import KernelSpec
from lfgen.x86 import function as xf, win64
from . import support

SPEC = KernelSpec("t_p", "t", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                               ("n", "size_t")], None, "s", "u", "p", "src")


def _small(g, pressure=2, local=False):
    rp, ap, n = g.load_args()
    regs = [G() for _ in range(pressure)]
    for k, r in enumerate(regs):
        MOV(r, [ap + 8 * k])
    if local:
        v = LocalVariable(8)
        MOV(v, regs[0])
        MOV(regs[0], v)
    for r in regs[1:]:
        ADD(regs[0], r)
    MOV([rp], regs[0])
    g.ret()


def _build(prefix=True, prefix_pressure=2, prefix_local=False):
    f = xf.Function("lf_t_p_v", SPEC.args, SPEC.result)
    if prefix:
        f.prefix_upto((2,), 8, lambda g: _small(g, prefix_pressure, prefix_local))
    with f:
        rp, ap, n = f.load_args()
        regs = [G() for _ in range(11)]                  # callee-saved registers: pushes
        for k, r in enumerate(regs):
            MOV(r, [ap + 8 * k])
        v = LocalVariable(8)                             # a frame: sub $n, %rsp
        MOV(v, regs[0])
        for r in regs[1:]:
            ADD(regs[0], r)
        ADD(regs[0], v)
        MOV([rp], regs[0])
        f.ret()
    return f.finalize()


def _code(lines):
    return [l.strip() for l in lines if l.startswith("\t") and "/*" not in l
            and not l.startswith(("\t.cfi", "\tLF_"))]


class Layout(unittest.TestCase):
    def test_prefix_runs_before_the_prologue(self):
        comp = _build()
        code = _code(comp.lines)
        self.assertEqual(code[:2], ["cmpq\t$8, %rdx", "ja\t.Llf_t_p_v_frame"])
        ret = code.index("ret")
        self.assertLess(ret, len(code) - 1)              # the prefix's own ret, then the body
        self.assertNotIn("pushq", " ".join(code[:ret]))   # two registers: no callee-saved
        self.assertFalse([l for l in code[:ret] if "%rsp" in l])
        body = code[ret + 1:]
        self.assertTrue(body[0].startswith("pushq"), body[0])
        self.assertTrue(any(l.startswith("subq") and l.endswith("%rsp") for l in body))
        self.assertIn(".Llf_t_p_v_frame:", comp.lines)
        self.assertEqual(comp.prefix.name, "lf_t_p_v_small")
        self.assertTrue(comp.sysv_only)

    def test_prefix_may_push(self):
        comp = _build(prefix_pressure=11)
        code = _code(comp.lines)
        pre = code[:code.index("ret")]
        self.assertTrue(any(l.startswith("pushq") for l in pre))
        self.assertEqual(comp.prefix.saved, [l.split("%")[1] for l in pre
                                             if l.startswith("pushq")])

    def test_stack_allocation_in_the_prefix_is_refused(self):
        with self.assertRaisesRegex(ValueError, r"allocates \d+ bytes of stack"):
            _build(prefix_local=True)

    def test_narrow_arguments_are_refused(self):
        f = xf.Function("lf_t_p_n", [("rp", "uint64_t *"), ("n", "uint32_t")], None)
        with self.assertRaisesRegex(ValueError, "compares argument n .uint32_t. as 64 bits"):
            f.prefix_upto((1,), 8, _small)

    def test_no_unwind_directives_in_the_prefix(self):
        lines = _build(prefix_pressure=11).lines
        end = lines.index("\t/* end of the code before the frame */")
        self.assertFalse([l for l in lines[:end] if l.startswith("\tLF_SEH_")])
        self.assertTrue([l for l in lines[:end] if l.startswith("\t.cfi_")])

    def test_one_prefix_per_function(self):
        f = xf.Function("lf_t_p_w", SPEC.args, SPEC.result)
        f.prefix_upto((2,), 8, _small)
        with self.assertRaisesRegex(ValueError, "one prefix"):
            f.prefix_upto((2,), 4, _small)


class Win64(unittest.TestCase):
    def test_win64_form_leaves_the_prefix_out(self):
        with xf.flavour("win64"):
            comp = _build()
        self.assertIsNone(comp.prefix)
        self.assertNotIn("ja\t.Llf_t_p_v_frame", _code(comp.lines))

    def test_merged_text_keeps_the_prefix_in_one_block(self):
        class V:
            def build(self, symbol, values):
                return _build()
        sysv = _build()
        fl = win64.flavour(V(), "lf_t_p_v", {}, SPEC, {"lf_t_p_v": sysv}, [])
        self.assertEqual(win64.split(fl.body, False), sysv.lines)
        with xf.flavour("win64"):
            self.assertEqual(win64.split(fl.body, True), _build().lines)
        first = fl.body.index("#if !defined(LF_WIN64)")
        end = fl.body.index("#endif", first)
        block = fl.body[first + 1:end]
        self.assertEqual(block[0], "\t/* code before the frame: %rdx at most 8 run "
                                   "lf_t_p_v_small */")
        self.assertEqual(block[-1], "\t/* end of the code before the frame */")
        self.assertIn("SysV-only", fl.text)


class Roundtrip(unittest.TestCase):
    def test_prefix_block_and_preamble_length(self):
        rt = support.roundtrip()
        comp = _build(prefix_pressure=11)
        text = "LF_FUNC_BEGIN(lf_t_p_v)\n%s\nLF_FUNC_END(lf_t_p_v)\n" % "\n".join(comp.lines)
        code = _code(comp.lines)
        ret = code.index("ret")
        self.assertEqual(rt._prefix_block(text), ("lf_t_p_v_small", 2, ret - 1))
        self.assertEqual(rt._preamble_length(text), ret + 1)
        plain = _build(prefix=False)
        self.assertIsNone(rt._prefix_block(
            "LF_FUNC_BEGIN(x)\n%s\nLF_FUNC_END(x)\n" % "\n".join(plain.lines)))


if __name__ == "__main__":
    unittest.main()
