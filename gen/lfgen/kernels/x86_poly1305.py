"""x86-64 Poly1305 building blocks in radix 2^64: the block step shared by every variant.

    h = h0 + h1 2^64 + h2 2^128  (h2 <= 4)          r = r0 + r1 2^64 (clamped), s1 = 5 r1 / 4

    h += m + pad 2^128                 ADD/ADC/ADC
    d  = h0 r0 + h1 s1                               weight 2^0
       + (h0 r1 + h1 r0 + h2 s1) 2^64                weight 2^64
       + (h2 r0) 2^128                               weight 2^128
         = d0 + d1 2^64 + d2 2^128     four MULX (RDX = h0, then h1), two IMUL by the small h2
    h  = d0 + d1 2^64 + (d2 & 3) 2^128 + 5 (d2 >> 2)  (5c = (d2 & ~3) + (d2 >> 2))

Bounds: after the addition h2 <= 4 + 1 + 1 = 6, so h2 s1 < 8 * 1.25 * 2^60 < 2^64 and the
weight-2^64 column is below 2^126; d < 2^190, so d2 < 2^62 and 5c < 2^63: no carry is lost.
After the reduction h2 <= 3 plus a carry from 5c, so h2 <= 4 again.
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, LABEL, MOV, ADD, ADC, AND, SHR, SHL, SHRD,
                            IMUL, MULX, TEST, DEC, JZ, JNZ, VZEROALL, VPXORD, rdx)
from peachpy.x86_64 import registers as _regs


class Key:
    """r0, r1 and s1 = r1 + (r1 >> 2) in registers, loaded from ctx[3..4]."""

    def __init__(self, ctx):
        self.r0, self.r1, self.s1 = (GeneralPurposeRegister64() for _ in range(3))
        MOV(self.r0, [ctx + 24])
        MOV(self.r1, [ctx + 32])
        MOV(self.s1, self.r1)
        SHR(self.s1, 2)
        ADD(self.s1, self.r1)


def load_h(ctx):
    h = [GeneralPurposeRegister64() for _ in range(3)]
    for i, r in enumerate(h):
        MOV(r, [ctx + 8 * i])
    return h


def store_h(ctx, h):
    for i, r in enumerate(h):
        MOV([ctx + 8 * i], r)


def block(h, key, m, pad):
    """h = (h + [m] + pad 2^128) * r, partially reduced (see the module docstring); m None:
    h = h * r (the powers of r)."""
    h0, h1, h2 = h
    d1, d2, t, t1 = (GeneralPurposeRegister64() for _ in range(4))
    if m is not None:
        ADD(h0, [m])
        ADC(h1, [m + 8])
        ADC(h2, pad)
    MOV(rdx, h0)
    MULX(d1, h0, key.r0)            # h0 r0
    MULX(d2, t, key.r1)             # h0 r1, weight 2^64
    ADD(d1, t)
    ADC(d2, 0)
    MOV(rdx, h1)
    MULX(t1, t, key.s1)             # h1 s1
    ADD(h0, t)
    ADC(d1, t1)
    ADC(d2, 0)
    MULX(t1, t, key.r0)             # h1 r0, weight 2^64
    ADD(d1, t)
    ADC(d2, t1)
    MOV(t, h2)
    IMUL(t, key.s1)                 # h2 s1, weight 2^64
    IMUL(h2, key.r0)                # h2 r0, weight 2^128
    ADD(d1, t)
    ADC(d2, h2)
    reduce_h2(h0, d1, d2, h2, t)
    MOV(h1, d1)


def reduce_h2(h0, h1, top, h2, t):
    """h0 + h1 2^64 + top 2^128 (top < 2^62) -> h0 + h1 2^64 + h2 2^128 with h2 <= 4:
    (top & 3) stays, 5 (top >> 2) = (top & ~3) + (top >> 2) comes back at 2^0. top and t
    are clobbered (scratch); h2 is a different register."""
    MOV(h2, top)
    AND(h2, 3)
    MOV(t, top)
    AND(t, -4)
    SHR(top, 2)
    ADD(t, top)
    ADD(h0, t)
    ADC(h1, 0)
    ADC(h2, 0)


def from_digits(h, count, bits, digit):
    """h (3 GPRs, h2 <= 4 afterwards) = sum_i s_i 2^(bits i) mod p, where s_i = digit(i) is a
    GPR (clobbered) below 2^58: the digit sums of a vector fold, taken one at a time."""
    for r in h:
        MOV(r, 0)
    top = GeneralPurposeRegister64()
    MOV(top, 0)
    words = list(h[:2]) + [top]
    for i in range(count):
        s = digit(i)
        o = bits * i
        w, sh = o // 64, o % 64
        if sh and sh + 58 > 64:             # the digit straddles two words
            hi = GeneralPurposeRegister64()
            MOV(hi, s)
            SHR(hi, 64 - sh)
            SHL(s, sh)
            _add_at(words, w, s)
            _add_at(words, w + 1, hi)
        else:
            if sh:
                SHL(s, sh)
            _add_at(words, w, s)
    t = GeneralPurposeRegister64()
    reduce_h2(h[0], h[1], top, h[2], t)


def to_digits(h, bits, count, sink):
    """The digits of h (h2 <= 4) in radix 2^bits, handed to sink(i, GPR) one at a time:
    digit i = bits [bits i, bits (i+1)) of h, the last one every bit from bits (count-1) up
    (h < 2^131 bounds it)."""
    mask = GeneralPurposeRegister64()
    MOV(mask, (1 << bits) - 1)
    for i in range(count):
        o = bits * i
        w, sh = o // 64, o % 64
        d = GeneralPurposeRegister64()
        MOV(d, h[w])
        if sh and (sh + bits > 64 or i == count - 1) and w + 1 < 3:
            SHRD(d, h[w + 1], sh)
        elif sh:
            SHR(d, sh)
        if i < count - 1:
            AND(d, mask)
        sink(i, d)


def _add_at(words, w, x):
    ADD(words[w], x)
    for k in range(w + 1, len(words)):
        ADC(words[k], 0)


def scalar_powers(key, count, store):
    """r^1 .. r^count by the scalar step; store(power, [x0, x1, x2]) emits the stores."""
    x = [GeneralPurposeRegister64() for _ in range(3)]
    MOV(x[0], key.r0)
    MOV(x[1], key.r1)
    MOV(x[2], 0)
    for power in range(1, count + 1):
        store(power, x)
        if power < count:
            block(x, key, None, None)


def finish_vector(f, ctx, h, key, m, nblocks, pad, count, bits, digit, zmm32):
    """The end of a vector variant: h = the digit sums digit(0..count-1) of the fold (radix
    2^bits, each < 2^58), then finish_scalar."""
    from_digits(h, count, bits, digit)
    finish_scalar(f, ctx, h, key, m, nblocks, pad, zmm32)


def finish_scalar(f, ctx, h, key, m, nblocks, pad, zmm32):
    """Vector registers wiped, the nblocks blocks left (fewer than the vector path takes) by
    the scalar step, h stored."""
    wipe_vectors(zmm32)
    tail = f.new_label("stored")
    TEST(nblocks, nblocks)
    JZ(tail)
    block_loop(f, h, key, m, nblocks, pad, name="tail")
    LABEL(tail)
    store_h(ctx, h)


def wipe_vectors(zmm32):
    """No key- or message-derived value stays in a vector register: VZEROALL clears
    ymm/zmm0-15 whole; with zmm32, zmm16-31 one by one (VZEROALL leaves them)."""
    VZEROALL()
    if zmm32:
        for i in range(16, 32):
            x = getattr(_regs, "xmm%d" % i)
            VPXORD(x, x, x)


def block_loop(f, h, key, m, nblocks, pad, name="blocks", mca=False):
    """`nblocks` (> 0, clobbered) blocks from m (advanced past them)."""
    loop = f.new_label(name)
    LABEL(loop)
    if mca:
        f.mca_begin("poly1305_blocks blocks=1")
    block(h, key, m, pad)
    ADD(m, 16)
    DEC(nblocks)
    JNZ(loop)
    if mca:
        f.mca_end()


def scalar_blocks(f, ctx, m, nblocks, pad):
    """The whole mulx variant: nblocks blocks one at a time."""
    TEST(nblocks, nblocks)
    JZ(f.exit_label)
    key = Key(ctx)
    h = load_h(ctx)
    block_loop(f, h, key, m, nblocks, pad, mca=True)
    store_h(ctx, h)
