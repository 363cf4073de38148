"""mpn_mul: {rp, an+bn} = {ap, an} * {bp, bn} (GMP semantics, schoolbook by rows).

Operand scanning, one row per limb of b:

    row 0      rp[0 .. an-1]  = ap * b_0          mul_1 row,    carry -> rp[an]
    row j      rp[j .. j+an-1] += ap * b_j        addmul_1 row, carry -> rp[j+an]   j = 1..bn-1

    rp:  [ r0  r1  ...  r(an-1) | r(an) ... r(an+bn-1) ]
          \\____ row 0 _________/ cy
              \\____ row 1 _________/ cy
                   ...

Each row is the software-pipelined row of mpn_mul_1 / mpn_addmul_1 (x86_rows: MULX with the
ADCX/ADOX carry chains; a64_rows: ldp, mul/umulh, two adds/adcs chains, stp, the loads of
the next block issued among the multiplies of this one); the long operand is the row, so
rows are as long as possible and the row loop runs bn times.

Small products (x86 `small`, 8 limbs): an <= small runs straight-line code per (an, bn)
before the frame (Function.prefix_upto; x86_rows.straight_product, as bi_multiply_to_len's
short path): the window of rp limbs under accumulation in registers, every limb stored
once, no loop control. On AMD Zen 5 (2026-12-01) 1..8 limbs went from 0.92-1.6x GMP's
mpn_mul to 1.5-1.8x (5 limbs: 49 -> 29 core cycles).
"""

from ..kernel import KernelSpec, Variant, Param, ADX_CHAINS
from . import a64_rows, x86_ifma_mul
from .mpn_addmul_1 import PARAMS as ROW_PARAMS

X86_PARAMS = dict(ROW_PARAMS, small=Param(
    8, (0, 4, 6, 8), "both operands of at most this many limbs: straight-line code per\n"
    "(an, bn) before the frame (x86_rows.straight_product); 0: every size through the rows",
    kind="size", sizes=(1, 2, 3, 4, 5, 6, 7, 8, 9)))

SPEC = KernelSpec(
    name="mpn_mul",
    operation="{rp,an+bn} = {ap,an} * {bp,bn}",
    args=[("rp", "uint64_t *"), ("ap", "const uint64_t *"), ("an", "size_t"),
          ("bp", "const uint64_t *"), ("bn", "size_t")],
    result=None,
    shapes="ap: an limbs, bp: bn limbs, rp: an+bn limbs; 64-bit limbs, little-endian limb\n"
           "order (index 0 least significant).",
    units="lengths in limbs.",
    preconditions="an >= bn. bn == 0 touches no memory (every pointer may be NULL). {rp,an+bn}\n"
                  "must not overlap {ap,an} or {bp,bn} (undefined result otherwise); ap == bp\n"
                  "(squaring through mul) is allowed. rp need not be initialised.",
    source="GMP mpn_mul / mpn_mul_basecase (GMP manual, Low-level Functions); the rows of\n"
           "BigInteger.implMultiplyToLen (HotSpot multiply_to_len).",
    tune_sizes=(4, 8, 16, 32, 64),
)


def small_x86(f, S):
    """an <= S limbs: one straight-line block per (an, bn), reached by a binary search on an,
    then bn in 1..an (x86_rows.straight_product: b's limbs the multipliers, a the row, each
    limb of rp stored once). bn == 0 and an == 0 return at once."""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, MULX, TEST, JZ, rdx
    from .x86_rows import size_tree, straight_product, Digits
    rp, ap, an, bp, bn = f.load_args()
    TEST(bn, bn)
    JZ(f.exit_label)
    TEST(an, an)                                # (an < bn, outside the contract: no read
    JZ(f.exit_label)                            # of ap[0] when an is 0)
    MOV(rdx, [bp])
    h0, lo = G(), G()
    MULX(h0, lo, [ap])
    MOV([rp], lo)

    def leaf(na, nb):
        straight_product(f, nb, na, Digits(bp), Digits(ap), Digits(rp), [ap], h0, None)

    limbs = lambda d: d                        # noqa: E731
    size_tree(f, an, 1, S, lambda na: size_tree(f, bn, 1, na, lambda nb: leaf(na, nb), limbs),
              limbs)
    f.ret()


def build_x86(symbol, p):
    from peachpy.x86_64 import GeneralPurposeRegister64, MOV, XOR, TEST, JZ, JNZ, LEA, DEC, rdx
    from ..x86 import function as x86
    from . import x86_rows
    from .x86_rows import Digits
    f = x86.Function(symbol, SPEC.args, SPEC.result)
    if p.small:
        # small products before the frame: straight-line code, no loop control (its pushes
        # are its own: six registers for the 8-limb window, one more than the rows')
        f.prefix_upto((2,), p.small, lambda g: small_x86(g, p.small))
    with f:
        rp, ap, an, bp, bn = f.load_args()
        TEST(bn, bn)
        JZ(f.exit_label)
        cy, o, a, ln = (GeneralPurposeRegister64() for _ in range(4))
        # row 0: rp[0..an) = ap * b_0, carry -> rp[an]
        XOR(cy.as_dword, cy.as_dword)
        MOV(o, rp)
        MOV(a, ap)
        MOV(ln, an)
        MOV(rdx, [bp])
        x86_rows.row(f, Digits(o), Digits(a), ln, "mul", "adx", p.unroll, p.ahead, cy)
        MOV([o], cy)
        DEC(bn)
        JZ(f.exit_label)
        top = f.new_label("rows")
        f.bind(top)
        LEA(rp, [rp + 8])
        LEA(bp, [bp + 8])
        XOR(cy.as_dword, cy.as_dword)
        MOV(o, rp)
        MOV(a, ap)
        MOV(ln, an)
        MOV(rdx, [bp])
        x86_rows.row(f, Digits(o), Digits(a), ln, "addmul", "adx", p.unroll, p.ahead, cy)
        MOV([o], cy)
        DEC(bn)
        JNZ(top)
        f.ret()
    return f.finalize()


def build_ifma(symbol, p):
    from ..x86 import function as x86
    f = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    # bn < ifma_min (bn == 0 included) or an > ifma_max runs the scalar adx variant, reached
    # before this function's frame is built: no register saves on that path
    f.tail_call_outside(4, p.ifma_min, None, p.sibling("adx"))
    f.tail_call_outside(2, None, p.ifma_max, p.sibling("adx"))
    with f:
        rp, ap, an, bp, bn = f.load_args()
        x86_ifma_mul.multiply(f, rp, ap, an, bp, bn, p)
        f.ret()
    return f.finalize()


def build_a64(symbol, p):
    from ..a64.function import Function
    from ..a64.insn import mem
    from ..a64.regs import XZR
    from .a64_rows import Digits
    f = Function(symbol, SPEC.args, SPEC.result)
    rp, ap, an, bp, bn = f.arg_regs
    done = f.new_label("bn0")
    f.cbz(bn, done)
    cy, o, a, ln, m = f.gpr("cy"), f.gpr("o"), f.gpr("a"), f.gpr("ln"), f.gpr("m")
    top = f.new_label("rows")

    def row(mode):
        # rp[j .. j+an) (+)= ap * b_j, carry -> rp[j+an]
        f.ldr(m, mem(bp, 0, tag=("bp", 0)))
        f.add(bp, bp, 8)
        f.mov(cy, XZR)
        f.mov(o, rp)
        f.mov(a, ap)
        f.mov(ln, an)
        a64_rows.row(f, Digits(o, tag="rp"), Digits(a, tag="ap"), ln, m, mode, p, cy)
        f.str_(cy, mem(o, 0, tag=("rp", 0)))

    row("mul")
    f.subs(bn, bn, 1)
    f.b_eq(done)
    f.bind(top)
    f.add(rp, rp, 8)
    row("addmul")
    f.subs(bn, bn, 1)
    f.b_ne(top)
    f.bind(done)
    f.ret()
    return f.finalize()


VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, x86_ifma_mul.PARAMS,
            "Radix 2^52: windows of 8 digits of a times broadcast digits of b by AVX-512 IFMA\n"
            "into zmm accumulators, groups of output blocks (ramp in, loop, ramp out),\n"
            "normalised and packed back to 64-bit limbs (x86_ifma_mul); bn < ifma_min or\n"
            "an > ifma_max jump to the adx variant before the frame."),
    Variant("adx", "x86_64", build_x86, X86_PARAMS,
            "One MULX/ADCX/ADOX row per limb of b (x86_rows): a mul_1 row, then addmul_1\n"
            "rows into the partial product, each row's carry stored above it; both operands\n"
            "of at most `small` limbs: straight-line code per (an, bn), run before the frame.",
            unmodelled={"ahead": ADX_CHAINS}),
    Variant("a64", "aarch64", build_a64, a64_rows.PARAMS,
            "One software-pipelined mul/umulh row per limb of b (a64_rows), ldp/stp pairs."),
]
