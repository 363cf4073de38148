"""AArch64 Poly1305 in radix 2^64, one block at a time (the JDK-8296411 design).

    h = h0 + h1 2^64 + h2 2^128  (h2 <= 4)          r = r0 + r1 2^64 (clamped), s1 = 5 r1 / 4

    h += m + pad 2^128                 ldp, adds/adcs/adc
    d  = (h0 r0 + h1 s1) + (h0 r1 + h1 r0 + h2 s1) 2^64 + (h2 r0) 2^128
                                       mul/umulh for the four full products, mul by the small h2
    h  = d0 + d1 2^64 + (d2 & 3) 2^128 + 5 (d2 >> 2)  (5c = (d2 & ~3) + (d2 >> 2))

Bounds as in x86_poly1305: h2 <= 6 after the addition, d2 < 2^62, h2 <= 4 after the reduction.
The two low-half products of the weight-2^64 column and the high halves are summed in a carry
chain each (adds/adcs, AArch64 has one carry flag).
"""

from ..a64.insn import mem, post
from ..a64.regs import XZR


class Key:
    """r0, r1 and s1 = r1 + (r1 >> 2) in registers, loaded from ctx[3..4]."""

    def __init__(self, f, ctx):
        self.r0, self.r1, self.s1 = f.gprs(3, "r")
        f.ldp(self.r0, self.r1, mem(ctx, 24, tag=("ctx", 24)))
        f.add(self.s1, self.r1, self.r1, "lsr #2")


def load_h(f, ctx):
    h = f.gprs(3, "h")
    f.ldp(h[0], h[1], mem(ctx, 0, tag=("ctx", 0)))
    f.ldr(h[2], mem(ctx, 16, tag=("ctx", 16)))
    return h


def store_h(f, ctx, h):
    f.stp(h[0], h[1], mem(ctx, 0, tag=("ctx", 0)))
    f.str_(h[2], mem(ctx, 16, tag=("ctx", 16)))


def block(f, h, key, m=None, pad=None):
    """h = (h + [m], post-incremented by 16, + pad 2^128) * r, partially reduced; m None:
    h = h * r (the powers of r)."""
    h0, h1, h2 = h
    r0, r1, s1 = key.r0, key.r1, key.s1
    lo0, hi0, lo1, hi1, t, u = f.gprs(6, "t")
    if m is not None:
        m0, m1 = f.gprs(2, "m")
        f.ldp(m0, m1, post(m, 16, tag=("m", 0)))
        f.adds(h0, h0, m0)
        f.adcs(h1, h1, m1)
        f.adc(h2, h2, pad)
    # weight 2^0: h0 r0 + h1 s1 = lo0 + hi0 2^64
    f.mul(lo0, h0, r0)
    f.umulh(hi0, h0, r0)
    f.mul(t, h1, s1)
    f.umulh(u, h1, s1)
    f.adds(lo0, lo0, t)
    f.adc(hi0, hi0, u)
    # weight 2^64: h0 r1 + h1 r0 + h2 s1 = lo1 + hi1 2^64
    f.mul(lo1, h0, r1)
    f.umulh(hi1, h0, r1)
    f.mul(t, h1, r0)
    f.umulh(u, h1, r0)
    f.adds(lo1, lo1, t)
    f.adc(hi1, hi1, u)
    f.mul(t, h2, s1)
    f.adds(lo1, lo1, t)
    f.adc(hi1, hi1, XZR)
    f.mul(t, h2, r0)                # weight 2^128
    f.adds(h1, lo1, hi0)
    f.adc(hi1, hi1, t)              # d2
    reduce_h2(f, h, hi1, t, low=lo0)


def reduce_h2(f, h, top, t, low=None):
    """low (default h0) + h1 2^64 + top 2^128 (top < 2^62) -> h with h2 <= 4: (top & 3)
    stays, 5 (top >> 2) = (top & ~3) + (top >> 2) comes back at 2^0. t: scratch."""
    h0, h1, h2 = h
    f.and_(h2, top, 3)
    f.and_(t, top, -4)
    f.add(t, t, top, "lsr #2")
    f.adds(h0, h0 if low is None else low, t)
    f.adcs(h1, h1, XZR)
    f.adc(h2, h2, XZR)


def block_loop(f, h, key, m, nblocks, pad, name="blocks", mca=False):
    """nblocks (> 0, clobbered) blocks from m (advanced past them)."""
    loop = f.new_label(name)
    f.bind(loop)
    if mca:
        f.mca_begin("poly1305_blocks blocks=1")
    block(f, h, key, m, pad)
    f.sub(nblocks, nblocks, 1)
    f.cbnz(nblocks, loop)
    if mca:
        f.mca_end()


def scalar_blocks(f, ctx, m, nblocks, pad, p):
    """The whole a64 variant: nblocks blocks one at a time."""
    done = f.new_label("done")
    f.cbz(nblocks, done)
    key = Key(f, ctx)
    h = load_h(f, ctx)
    block_loop(f, h, key, m, nblocks, pad, mca=True)
    store_h(f, ctx, h)
    f.bind(done)
