"""Shared helpers of the generator unit tests: small functions built with the DSLs, the
toolchain (assemble, link, run under qemu), and a wrapper that turns a compiled function into a
.S file with the real prelude (generated/include/lf_asm.h)."""

import os
import shutil
import subprocess
import tempfile
import unittest

from lfgen import emit

ROOT = emit.ROOT
INCLUDE = os.path.join(ROOT, "generated", "include")

A64_CC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"


def have(*tools):
    return all(shutil.which(t) for t in tools)


needs_a64_tools = unittest.skipUnless(have(A64_CC), "aarch64-linux-gnu-gcc not installed")
needs_qemu = unittest.skipUnless(have(A64_CC, QEMU), "aarch64 cross gcc or qemu-aarch64 missing")
needs_gcc = unittest.skipUnless(have("gcc"), "gcc not installed")


def asm_file(symbol, lines):
    """A .S text in the shape of generated/<arch>/*.S for the compiled lines of `symbol`."""
    return ('#include "lf_asm.h"\n\nLF_FUNC_BEGIN(%s)\n%s\nLF_FUNC_END(%s)\n\nLF_ASM_NOTES\n'
            % (symbol, "\n".join(lines), symbol))


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="lfgen-test-")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)
        return False


def assemble(testcase, cc, sources, out, extra=()):
    """Compile/assemble/link `sources` ({name: text}) with `cc` into `out`; fail the test with
    the compiler's message when it does not build."""
    d = os.path.dirname(out)
    paths = []
    for name, text in sources.items():
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(text)
        paths.append(p)
    rc, so, se = run([cc, "-I" + INCLUDE] + list(extra) + paths + ["-o", out])
    if rc != 0:
        testcase.fail("%s failed:\n%s\n%s\n--- sources ---\n%s" % (
            cc, so, se, "\n".join("// %s\n%s" % kv for kv in sources.items())))
    return out


def a64_insn_lines(compiled):
    """The instruction lines of an AArch64 compiled function (no CFI, labels, comments)."""
    return [l.strip() for l in compiled.lines
            if l.startswith("\t") and not l.startswith("\t.") and not l.startswith("\t/*")]


# A trampoline that fills the AAPCS64 callee-saved registers (x19-x28, d8-d15) with canaries,
# calls fn(a, b) and counts the canaries that did not survive into *bad.
#   uint64_t lf_t_call(uint64_t (*fn)(uint64_t, uint64_t), uint64_t a, uint64_t b,
#                      uint64_t *bad)
A64_TRAMPOLINE = """
	.text
	.p2align 4
	.globl	lf_t_call
	.type	lf_t_call, %function
lf_t_call:
	stp	x29, x30, [sp, #-176]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	str	x3, [sp, #160]
""" + "".join("\tmovz\tx%d, #0x5a%02x\n" % (r, r) for r in range(19, 29)) + \
    "".join("\tmovz\tx9, #0x6b%02x\n\tfmov\td%d, x9\n" % (r, r) for r in range(8, 16)) + """
	mov	x9, x0
	mov	x0, x1
	mov	x1, x2
	blr	x9
	mov	x10, xzr
""" + "".join("\tmovz\tx11, #0x5a%02x\n\tcmp\tx%d, x11\n\tcinc\tx10, x10, ne\n" % (r, r)
              for r in range(19, 29)) + \
    "".join("\tfmov\tx12, d%d\n\tmovz\tx11, #0x6b%02x\n\tcmp\tx12, x11\n\tcinc\tx10, x10, ne\n"
            % (r, r) for r in range(8, 16)) + """
	ldr	x3, [sp, #160]
	str	x10, [x3]
	ldp	d14, d15, [sp, #144]
	ldp	d12, d13, [sp, #128]
	ldp	d10, d11, [sp, #112]
	ldp	d8, d9, [sp, #96]
	ldp	x27, x28, [sp, #80]
	ldp	x25, x26, [sp, #64]
	ldp	x23, x24, [sp, #48]
	ldp	x21, x22, [sp, #32]
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #176
	ret
	.size	lf_t_call, .-lf_t_call
	.section .note.GNU-stack, "", %progbits
"""


def run_a64(testcase, sources):
    """Build `sources` ({file name: text}; .c, .S) as one static AArch64 program, run it under
    qemu-aarch64 and return its stdout; the test fails on a build error or a non-zero exit."""
    with TempDir() as d:
        exe = assemble(testcase, A64_CC, sources, os.path.join(d, "prog"),
                       extra=("-static", "-O1"))
        rc, so, se = run([QEMU, exe], timeout=60)
    if rc != 0:
        testcase.fail("qemu-aarch64 run failed (exit %d):\n%s\n%s" % (rc, so, se))
    return so


def run_host(testcase, sources):
    """Build `sources` with the host gcc into one program, run it, return its stdout."""
    with TempDir() as d:
        exe = assemble(testcase, "gcc", sources, os.path.join(d, "prog"), extra=("-O1",))
        rc, so, se = run([exe], timeout=60)
    if rc != 0:
        testcase.fail("program failed (exit %d):\n%s\n%s" % (rc, so, se))
    return so


def roundtrip():
    """tests/roundtrip.py as a module (the assembler/disassembler comparison)."""
    import sys
    d = os.path.join(ROOT, "tests")
    if d not in sys.path:
        sys.path.insert(0, d)
    import roundtrip as rt
    return rt


def x86_finalize_with_code(f):
    """finalize() an lfgen.x86.function.Function and also return PeachPy's encoding of it."""
    captured = {}
    orig = f._verify

    def grab(abif):
        captured["abif"] = abif
        return orig(abif)

    f._verify = grab
    c = f.finalize()
    return c, captured["abif"].encode().code_section.content
