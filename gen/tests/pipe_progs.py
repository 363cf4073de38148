"""Tiny software-pipelined kernels built with sched.pipeline, for structural and run tests.

    void f(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t m)     n >= distance
        rp[i] = ap[i] * m + 3          for i < n

load(i, s) is one post-indexed load of ap[i] into register set s; work(i, s) multiplies,
adds and stores through rp. The caller's counter holds n; enter_check subtracts `distance`."""

from lfgen import sched
from lfgen.a64.function import Function
from lfgen.a64.insn import post

ARGS = [("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("n", "size_t"), ("m", "uint64_t")]


def a64(name, distance, rotation, trace=None):
    f = Function(name, ARGS)
    rp, ap, n, m = f.arg_regs
    sets = sched.Rotation(rotation, lambda s: f.gpr("a%d" % s))
    done = f.new_label("done")

    def load(i, s):
        if trace is not None:
            trace.append(("load", i, s))
        f.ldr(sets[s], post(ap, 8))

    def work(i, s):
        if trace is not None:
            trace.append(("work", i, s))
        t = f.gpr("t")
        f.mul(t, sets[s], m)
        f.add(t, t, 3)
        f.str_(t, post(rp, 8))

    epis = sched.pipeline(
        f, sched.A64Deps(), load, work,
        enter_check=lambda lab: (f.sub(n, n, distance), f.cbz(n, lab)),
        exit_check=lambda lab: (f.sub(n, n, 1), f.cbz(n, lab)),
        loop_back=lambda lab: (f.subs(n, n, 1), f.b_ne(lab)),
        jump=lambda lab: f.b(lab), done=done, distance=distance, rotation=rotation,
        name="pipe")
    f.bind(done)
    f.ret()
    return f, epis


class X86Shim:
    """What sched.pipeline needs from a builder (new_label, bind, capture, extend) on top of
    lfgen.x86.function.Function, which has no label helpers of its own."""

    def __init__(self, f):
        self.f = f
        self.n = 0

    def new_label(self, name):
        from peachpy.x86_64 import Label
        self.n += 1
        return Label("%s_%d" % (name, self.n))

    def bind(self, label):
        from peachpy.x86_64 import LABEL
        LABEL(label)

    def capture(self):
        return self.f.capture()

    def extend(self, insns):
        self.f.extend(insns)


def x86(name, distance, rotation):
    from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, IMUL, ADD, SUB, DEC, LEA, JZ,
                                JNZ, JMP, Label, LABEL)
    from lfgen.x86 import function as xf
    f = xf.Function(name, ARGS)
    shim = X86Shim(f)
    with f:
        rp, ap, n, m = f.load_args()
        sets = sched.Rotation(rotation, lambda s: GeneralPurposeRegister64())
        done = Label("done")

        def load(i, s):
            MOV(sets[s], [ap])
            LEA(ap, [ap + 8])

        def work(i, s):
            t = GeneralPurposeRegister64()
            MOV(t, sets[s])
            IMUL(t, m)
            ADD(t, 3)
            MOV([rp], t)
            LEA(rp, [rp + 8])

        sched.pipeline(
            shim, sched.X86Deps(), load, work,
            enter_check=lambda lab: (SUB(n, distance), JZ(lab)),
            exit_check=lambda lab: (DEC(n), JZ(lab)),
            loop_back=lambda lab: (DEC(n), JNZ(lab)),
            jump=lambda lab: JMP(lab), done=done, distance=distance, rotation=rotation,
            name="pipe")
        LABEL(done)
        f.ret()
    return f


HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
%(protos)s
typedef void (*fn_t)(uint64_t *, const uint64_t *, size_t, uint64_t);
static int check(const char *name, fn_t fn, size_t dist) {
    uint64_t a[64], r[65];
    int bad = 0;
    for (size_t n = dist; n <= 40; n++) {
        for (size_t i = 0; i < 64; i++) a[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ n;
        memset(r, 0xa5, sizeof r);
        fn(r, a, n, 0x1234567);
        for (size_t i = 0; i < n; i++)
            if (r[i] != a[i] * 0x1234567 + 3) { bad++; break; }
        if (r[n] != 0xa5a5a5a5a5a5a5a5ull) bad++;
    }
    printf("%%s %%s\n", name, bad ? "FAIL" : "ok");
    return bad;
}
int main(void) {
    int bad = 0;
%(calls)s
    return bad != 0;
}
"""


def harness(variants):
    """variants: [(symbol, distance)] -> C main that checks each for n = distance .. 40."""
    protos = "\n".join("void %s(uint64_t *, const uint64_t *, size_t, uint64_t);" % s
                       for s, _ in variants)
    calls = "\n".join('    bad += check("%s", %s, %d);' % (s, s, d) for s, d in variants)
    return HARNESS % {"protos": protos, "calls": calls}
