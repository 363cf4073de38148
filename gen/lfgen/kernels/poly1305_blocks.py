"""poly1305_blocks: the Poly1305 block function of RFC 8439 section 2.5.1, whole blocks only.

For each 16-byte block m_i (little-endian), in order:

    h = ((h + m_i + pad * 2^128) * r) mod p        p = 2^130 - 5,  pad = 1 for full blocks

The accumulator is kept in radix 2^64, only partially reduced:

    h = h0 + h1 2^64 + h2 2^128        h2 <= 4 on entry and on exit, so h < 5 * 2^128

    ctx[0]  ctx[1]  ctx[2]   ctx[3]  ctx[4]   ctx[5]         ctx[6..7]   ctx[8..135]
    h0      h1      h2       r0      r1       powers layout  zero        powers of r
                                              (0 = none)                 (layout-specific)

r = r0 + r1 2^64 is clamped (RFC 8439 2.5: r0 & 0x0ffffffc0fffffff, r1 & 0x0ffffffc0ffffffc),
so r0, r1 < 2^60 and r1 = 0 mod 4. Multiplying by r folds 2^128 * r1 = 2^130 * (r1/4) into
5 (r1/4): with s1 = r1 + (r1 >> 2) = 5 r1 / 4,

    h * r = (h0 r0 + h1 s1) + (h0 r1 + h1 r0 + h2 s1) 2^64 + (h2 r0) 2^128      (mod p)

then the bits from 2^130 up (c = d2 >> 2) come back as 5c = (d2 & ~3) + (d2 >> 2).

Vector variants keep powers of r in ctx[8..] in their own layout and name it in ctx[5]; a
variant finding another value there (0 after lf_poly1305_init, a table of another variant)
rebuilds the table before its vector loop, so whoever sets a new r must set ctx[5] = 0.
"""

from ..kernel import KernelSpec, Variant

CTX_WORDS = 136          # uint64_t words of ctx (1088 bytes; the kernels need 8-byte alignment)
CTX_POWERS = 5           # ctx word naming the layout of the powers table
CTX_TABLE = 8            # first word of the powers table
TABLE_WORDS = CTX_WORDS - CTX_TABLE

R0_CLAMP = 0x0ffffffc0fffffff
R1_CLAMP = 0x0ffffffc0ffffffc

SPEC = KernelSpec(
    name="poly1305_blocks",
    operation="h = (h + m_i + pad 2^128) r mod 2^130-5 for each block m_i (h partly reduced)",
    args=[("ctx", "uint64_t *"), ("m", "const uint8_t *"), ("nblocks", "size_t"),
          ("pad", "uint64_t")],
    result=None,
    shapes="ctx: 136 uint64_t, 8-byte aligned (64 is faster): ctx[0..2] = h0, h1, h2\n"
           "(h = h0 + h1 2^64 + h2 2^128, h2 <= 4 on entry and on exit), ctx[3..4] =\n"
           "clamped r0, r1 (r = r0 + r1 2^64), ctx[5] = the layout of the powers of r in\n"
           "ctx[8..135] (0: none), ctx[6..7] = 0. A vector variant that takes the vector\n"
           "path and finds another layout in ctx[5] writes its powers of r to ctx[8..] and\n"
           "its layout to ctx[5]; avx2 with two chains also parks its groups' digits in\n"
           "ctx[8..] during the call. m: nblocks blocks of 16 bytes, each a little-endian\n"
           "128-bit number, any alignment.",
    units="nblocks in 16-byte blocks; pad is 1 (full blocks: 2^128 added) or 0 (a final\n"
          "partial block the caller padded with 0x01 and zeros).",
    preconditions="nblocks == 0 touches no memory (m may be NULL). h2 <= 4 and r clamped on\n"
                  "entry (other values give a wrong h, never a fault); pad in {0, 1}. ctx[5]\n"
                  "must be 0 after r changes. Constant time: no branch or address depends on\n"
                  "h, r or the message, only on nblocks, pad and ctx[5] (checked at generation\n"
                  "time, gen/lfgen/consttime.py). Every vector register is cleared before\n"
                  "returning; the powers in ctx stay (the caller wipes ctx).",
    source="RFC 8439 section 2.5 (Poly1305). Radix 2^64 (mulx, a64): OpenSSL's\n"
           "poly1305-x86_64.pl and the JDK's AArch64 stub (JDK-8296411). Radix 2^44 IFMA\n"
           "(ifma): JDK-8288047 (Goll and Gueron, \"Vectorization of Poly1305 message\n"
           "authentication code\"). Radix 2^26 with 32x32-bit multiplies (avx512f, avx2,\n"
           "neon): the Goll-Gueron parallel Horner as in OpenSSL's poly1305-x86_64.pl\n"
           "AVX2 and poly1305-armv8.pl NEON code.",
    api="lf_poly1305_update",
    tune_sizes=(4, 16, 64, 1024, 65536),        # the JMH grid: 64 B, 256 B, 1 KiB, 16 KiB, 1 MiB
)


PUBLIC_LOADS = 8 * CTX_POWERS   # the one load that is not secret: the table's layout word


def _x86(body, zmm32=False, vector=False):
    """A builder for an x86-64 variant whose body is body(f, ctx, m, nblocks, pad, p)."""
    def build(symbol, p):
        from ..x86 import function as x86
        f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=zmm32)
        if vector:
            # fewer than vec_min blocks (0 included) run the scalar mulx variant, reached
            # before this function's frame: no powers table, no vector state on that path
            f.tail_call_outside(2, p.vec_min, None, p.sibling("mulx"))
        with f:
            ctx, m, nblocks, pad = f.load_args()
            f.secret_independent(public=[(ctx, PUBLIC_LOADS)])
            body(f, ctx, m, nblocks, pad, p)
            f.ret()
        return f.finalize()
    return build


def _a64(body):
    """A builder for an AArch64 variant whose body is body(f, ctx, m, nblocks, pad, p)."""
    def build(symbol, p):
        from ..a64.function import Function
        f = Function(symbol, SPEC.args, SPEC.result)
        f.secret_independent(public=[(f.arg_regs[0], PUBLIC_LOADS)])
        body(f, *f.arg_regs, p)
        f.ret()
        return f.finalize()
    return build


def _mulx(f, ctx, m, nblocks, pad, p):
    from . import x86_poly1305
    x86_poly1305.scalar_blocks(f, ctx, m, nblocks, pad)


def _ifma(f, ctx, m, nblocks, pad, p):
    from . import x86_poly1305_ifma
    x86_poly1305_ifma.blocks(f, ctx, m, nblocks, pad, p)


def _r26(zmm):
    def body(f, ctx, m, nblocks, pad, p):
        from . import x86_poly1305_r26
        x86_poly1305_r26.blocks(f, ctx, m, nblocks, pad, p, zmm)
    return body


def _neon(f, ctx, m, nblocks, pad, p):
    from . import a64_poly1305_neon
    a64_poly1305_neon.blocks(f, ctx, m, nblocks, pad, p)


def _scalar_a64(f, ctx, m, nblocks, pad, p):
    from . import a64_poly1305
    a64_poly1305.scalar_blocks(f, ctx, m, nblocks, pad, p)


def _params():
    from . import x86_poly1305_ifma, x86_poly1305_r26, a64_poly1305_neon
    return (x86_poly1305_ifma.PARAMS, x86_poly1305_r26.PARAMS_AVX512F,
            x86_poly1305_r26.PARAMS_AVX2, a64_poly1305_neon.PARAMS)


_IFMA, _AVX512F, _AVX2, _NEON = _params()

VARIANTS = [
    Variant("ifma", "x86_64", _x86(_ifma, zmm32=True, vector=True), _IFMA,
            "Radix 2^44, 8 blocks per zmm lane group, `chains` groups: parallel Horner by r^(8C)\n"
            "with VPMADD52LUQ/HUQ, lazy carries bounded at generation time, a fold by the powers\n"
            "r^(8C)..r^1 kept in ctx, then whole groups of 8 left (times r^8..r^1), then the\n"
            "last blocks by the scalar step (x86_poly1305_ifma). Fewer than vec_min blocks\n"
            "jump to the mulx variant before the frame (no powers table)."),
    Variant("avx512f", "x86_64", _x86(_r26(True), zmm32=True, vector=True), _AVX512F,
            "Radix 2^26, 8 blocks per zmm: VPMULUDQ schoolbook with 5 r folded in, carries\n"
            "in the `carry` order, parallel Horner by r^8 and a fold by r^8..r^1 kept in ctx\n"
            "(x86_poly1305_r26); for AVX-512 CPUs without IFMA. Fewer than vec_min blocks\n"
            "jump to the mulx variant before the frame."),
    Variant("avx2", "x86_64", _x86(_r26(False), vector=True), _AVX2,
            "Radix 2^26, 4 blocks per ymm: VPMULUDQ schoolbook with 5 r folded in, parallel\n"
            "Horner by r^4 and a fold by the powers kept in ctx (x86_poly1305_r26); for CPUs\n"
            "without AVX-512. Fewer than vec_min blocks jump to the mulx variant."),
    Variant("mulx", "x86_64", _x86(_mulx), {},
            "Radix 2^64, one block at a time: ADD/ADC of the block, four MULX and two IMUL\n"
            "for h*r with 5*r1/4 folded in, one partial reduction (x86_poly1305)."),
    Variant("neon", "aarch64", _a64(_neon), _NEON,
            "Radix 2^26, 4 blocks per group of .4s registers and `chains` groups: UMULL/UMLAL\n"
            "(2) by r^(4C) as vector elements, carries on .2d with USRA, UZP1 back to .4s,\n"
            "LD4 block loads; a fold by the powers kept in ctx, then whole groups of 4 left\n"
            "(times r^4..r^1), then the last blocks by the scalar step (a64_poly1305_neon).\n"
            "Below vec_min blocks, or with pad = 0, only the scalar step runs (no powers table)."),
    Variant("a64", "aarch64", _a64(_scalar_a64), {},
            "Radix 2^64, one block at a time: ldp and adds/adcs of the block, mul/umulh for\n"
            "h*r with 5*r1/4 folded in, one partial reduction (a64_poly1305)."),
]
