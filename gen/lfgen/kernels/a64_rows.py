"""AArch64 building blocks shared by the multiply kernels: digit access and mul_1/addmul_1 rows.

A *row* computes {out, len} (+)= {in, len} * m and returns the carry-out digit. AArch64 has
one carry flag, so a block of U digits runs two sequential chains (GMP's arm64 technique):

    mul  l_k, a_k, m ; umulh h_k, a_k, m                 for k < U
    adds l_0, l_0, cy ; adcs l_k, l_k, h_(k-1) ... ; adc t, h_(U-1), xzr     product chain
    adds l_0, l_0, r_0 ; adcs l_k, l_k, r_k ...   ; adc cy, t, xzr           (addmul) + out
    stp  l_0, l_1, [out] ...

Digits: digit k (0 = least significant) of an operand is at [p + stride*k]; stride -8 with
`rotate` reads java.math.BigInteger BE-words two at a time, `ror #32` turning the loaded pair
into the digit (and back before a store). Pairs use ldp/stp.

The len mod U leading digits go through straight-line segments (1, 2, 4, ... digits, chosen
by tbz on the bits of len); the len/U blocks run as a software-pipelined loop
(sched.pipeline): the loads of block i+1 are issued among the multiplies and adds of block i,
each after the last read of the register it overwrites (rotation 1) or into a second
register set (rotation 2).
"""

from ..kernel import Param
from ..a64.insn import mem
from ..a64.regs import XZR
from .. import sched

PARAMS = {
    "unroll": Param(4, (2, 4, 8), "digits per loop iteration (ldp/stp pairs)"),
    "distance": Param(1, (0, 1), "1: loads of block i+1 issued during block i (pipelined)"),
    "rotation": Param(1, (1, 2), "register sets rotated between consecutive blocks"),
}


class Digits:
    def __init__(self, base, stride=8, rotate=False, tag="mem"):
        self.base = base
        self.stride = stride
        self.rotate = rotate
        self.tag = tag

    def _pair_addr(self, k, index):
        """Address of the pair (k, k+1) and the order the two registers take in ldp/stp."""
        if self.stride > 0:
            return mem(self.base, 8 * k, tag=(self.tag, 8 * index)), False
        return mem(self.base, -8 * (k + 1), tag=(self.tag, 8 * index)), True

    def load(self, f, regs, index=0):
        """Load len(regs) consecutive digits starting at block digit 0 into regs."""
        k = 0
        while k < len(regs):
            if k + 1 < len(regs):
                addr, swap = self._pair_addr(k, index + k)
                a, b = (regs[k + 1], regs[k]) if swap else (regs[k], regs[k + 1])
                f.ldp(a, b, addr)
                k += 2
            else:
                f.ldr(regs[k], mem(self.base, self.stride * k, tag=(self.tag, 8 * (index + k))))
                k += 1
        if self.rotate:
            for r in regs:
                f.ror(r, r, 32)

    def store(self, f, regs, index=0):
        if self.rotate:
            for r in regs:
                f.ror(r, r, 32)
        k = 0
        while k < len(regs):
            if k + 1 < len(regs):
                addr, swap = self._pair_addr(k, index + k)
                a, b = (regs[k + 1], regs[k]) if swap else (regs[k], regs[k + 1])
                f.stp(a, b, addr)
                k += 2
            else:
                f.str_(regs[k], mem(self.base, self.stride * k, tag=(self.tag, 8 * (index + k))))
                k += 1

    def advance(self, f, count):
        step = self.stride * count
        if step >= 0:
            f.add(self.base, self.base, step)
        else:
            f.sub(self.base, self.base, -step)


def work(f, out, a, r, m, mode, cy, index=0):
    """Multiply the loaded digits a (and add r) -> store through `out`; carry in/out cy."""
    U = len(a)
    lo = f.gprs(U, "lo")
    hi = f.gprs(U, "hi")
    for k in range(U):
        f.mul(lo[k], a[k], m)
        f.umulh(hi[k], a[k], m)
    f.adds(lo[0], lo[0], cy)
    for k in range(1, U):
        f.adcs(lo[k], lo[k], hi[k - 1])
    if mode == "mul":
        f.adc(cy, hi[U - 1], XZR)
    else:
        t = f.gpr("t")
        f.adc(t, hi[U - 1], XZR)
        f.adds(lo[0], lo[0], r[0])
        for k in range(1, U):
            f.adcs(lo[k], lo[k], r[k])
        f.adc(cy, t, XZR)
    out.store(f, lo, index)
    out.advance(f, U)


def segment(f, out, inp, m, mode, cy, s):
    a = f.gprs(s, "a")
    inp.load(f, a)
    inp.advance(f, s)
    r = None
    if mode == "addmul":
        r = f.gprs(s, "r")
        out.load(f, r)
    work(f, out, a, r, m, mode, cy)


def row(f, out, inp, n, m, mode, p, cy, unit=("limbs", 1)):
    """Emit the row for a runtime length n (> 0; clobbered). cy holds the carry-in and
    receives the carry-out. `unit` names what a digit is for the llvm-mca region marker
    (("words", 2) for BigInteger word pairs)."""
    U = p.unroll
    shift = U.bit_length() - 1
    done = f.new_label("row_done")
    for bit in range(shift):
        skip = f.new_label("seg%d" % (1 << bit))
        f.tbz(n, bit, skip)
        segment(f, out, inp, m, mode, cy, 1 << bit)
        f.bind(skip)
    c = n
    f.lsr(c, n, shift)
    f.cbz(c, done)
    region = "%s_row %s=%d" % (mode, unit[0], U * unit[1])
    if p.distance == 0:
        top = f.new_label("row_loop")
        f.bind(top)
        f.mca_begin(region)
        segment(f, out, inp, m, mode, cy, U)
        f.subs(c, c, 1)
        f.b_ne(top)
        f.mca_end()
        f.bind(done)
        return
    # pipelined: `rin` reads the out digits ahead of the stores through `out`
    rin = None
    if mode == "addmul":
        rin = Digits(f.gpr("rin"), out.stride, out.rotate, out.tag)
        f.mov(rin.base, out.base)
    sets = sched.Rotation(p.rotation, lambda s: (f.gprs(U, "a%d_" % s),
                                                 f.gprs(U, "r%d_" % s) if rin else None))

    def load(i, s):
        a, r = sets[s]
        inp.load(f, a, index=U * i)
        inp.advance(f, U)
        if rin:
            rin.load(f, r, index=U * i)
            rin.advance(f, U)

    def step(i, s):
        a, r = sets[s]
        work(f, out, a, r, m, mode, cy, index=U * i)

    deps = sched.A64Deps()
    sched.pipeline(
        f, deps, load, step,
        enter_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
        exit_check=lambda lab: (f.sub(c, c, 1), f.cbz(c, lab)),
        loop_back=lambda lab: (f.subs(c, c, 1), f.b_ne(lab)),
        jump=lambda lab: f.b(lab), done=done, distance=1, rotation=p.rotation, name="row",
        mca=region)
    f.bind(done)


def mpn_row_kernel(spec, mode):
    """Build function of an mpn_mul_1 (mode "mul") or mpn_addmul_1 ("addmul") variant:
    (rp, ap, n, b) -> carry limb, n == 0 touching nothing."""
    def build(symbol, p):
        from ..a64.function import Function
        f = Function(symbol, spec.args, spec.result)
        rp, ap, n, b = f.arg_regs
        cy = f.gpr("cy")
        f.mov(cy, XZR)
        zero = f.new_label("n0")
        f.cbz(n, zero)
        row(f, Digits(rp), Digits(ap), n, b, mode, p, cy)
        f.bind(zero)
        f.ret(cy)
        return f.finalize()
    return build
