"""Field products with assembly variants: fe_<field>_mul and fe_<field>_square for the fields
in DISPATCHED (KERNELS.md §4; the field's description is gen/lfgen/fields/desc.py).

The operation, its bounds and its algorithm are those of the field's generated C (the `ref`,
generated/fields/<field>.c): the assembly is a statement-by-statement lowering of the same
proven program (gen/lfgen/fields/ops.py -> x86_lower.py), so every register holds a value
whose interval the generator proved, in the width it proved it for.

    c25519_r51 (p = 2^255 - 19, 5 x 51): the high products take 19 b_j (ref10/donna's
    premultiplication); the columns carry in two chains side by side (desc.py's
    carries="two chains", ops.TwoChains): 0 -> 1 -> 2 -> 3 and 2 -> 3 -> 4 -> (x 19) 0 -> 1,
    each carry entering its column after the column's products.  Against one chain through
    every column (0 -> ... -> 4 -> 0 -> 1): chained calls mul 49.2 -> 45.5 core cycles,
    square 42.1 -> 38.1; independent calls mul 36.9 -> 38.0, square 25.0 -> 26.0 (make bench,
    2026-11-30, a Sapphire-Rapids-class guest).  Two rounds of simultaneous carries instead
    cost more (square 30.0 independent, 35.3 chained: twice the SHRDs, on MULX's port 1).

The one schedule parameter, carry_shift, is how a carry leaves its 128-bit column: SHRD
(generic) or SHR/SHL/OR ("split").  On AMD Zen 5 SHRD takes two cycles at one per cycle;
the split form measured mul 47.4 -> 45.0 and square 33.7 -> 30.6 core cycles there
(independent calls, a throwaway harness beside OpenSSL's fe51 at 39.0 / 26.5, 2026-12-01);
`make tune` chooses per CPU.

Each variant module here is built by `kernel(field, op)`: SPEC and VARIANTS, like a file in
this directory.
"""

import types

from ..kernel import KernelSpec, Variant, Param
from ..fields import bounds, desc, x86_lower, a64_lower

# P-256's 5 x 52 products have negative intermediates (its terms are signed): a64_lower keeps
# them in two's complement.  P-384's 7 x 56 folds after the product: its 13 128-bit columns
# do not fit AArch64's registers, so its lowering spills (a64_lower: demand order, Belady).
DISPATCHED = [(f, op) for f in ("c25519_r51", "c448_r56", "p521_r58", "p256_r52", "p384_r56")
              for op in ("mul", "square")]
# x86-64 `mulx` only where it beats the C: the lowering (MOV RDX per product, 128-bit ADD/ADC
# columns) measured 0.82x gcc's code for the 8-limb Curve448 and 0.90-0.97x for the 9-limb
# P-521 products (finished limbs and premultiplied operands go through memory there), 1.02-1.10x
# for Curve25519 (make bench, fe drivers, 2026-11-30)
X86_FIELDS = ("c25519_r51",)


X86_PARAMS = {
    "carry_shift": Param("shrd", x86_lower.CARRY_SHIFTS,
                         "how a carry leaves its 128-bit column: one SHRD, or SHR/SHL/OR\n"
                         "(split: three one-cycle ALU instructions where SHRD takes two cycles,\n"
                         "as on AMD Zen 5)"),
}


def _build_x86(f, op, spec):
    def build(symbol, p):
        from ..x86 import function as x86
        c = bounds.contract(f)
        prog = getattr(c, op)[0]
        fn = x86.Function(symbol, spec.args, spec.result)
        fn.secret_independent()
        with fn:
            regs = fn.load_args()
            x86_lower.lower(fn, prog, dict(zip([n for n, _ in spec.args], regs)),
                            carry_shift=p.carry_shift)
            fn.ret()
        return fn.finalize()
    return build


_BUDGET = {}   # (field, op) -> the spill budget found by the first lowering (the header's
              # probe), so that the build does not search again


def _lower_a64(f, op, symbol, args):
    """(compiled, lowering) of the field's program: without spilling first; if the registers
    do not suffice, with the largest spill budget (registers the lowering may fill; its count
    is conservative, hence the start above the 28 allocatable) with which the allocation
    succeeds."""
    from ..a64.function import Function
    from ..a64.regs import GPR_ORDER
    from ..verify import AllocationError
    prog = getattr(bounds.contract(f), op)[0]
    budgets = [None] + list(range(len(GPR_ORDER) + 8, 8, -1))
    if (f.name, op) in _BUDGET:
        budgets = budgets[budgets.index(_BUDGET[(f.name, op)]):]
    for budget in budgets:
        fn = Function(symbol, args, None)
        fn.secret_independent()
        low = a64_lower.lower(fn, prog, dict(zip([n for n, _ in args], fn.arg_regs)),
                              budget=budget)
        fn.ret()
        try:
            comp = fn.finalize()
            _BUDGET[(f.name, op)] = budget
            return comp, low
        except AllocationError:
            if budget is not None and budget <= 9:
                raise


def _build_a64(f, op, spec):
    def build(symbol, p):
        return _lower_a64(f, op, symbol, spec.args)[0]
    return build


def _a64_text(f, op, spec):
    comp, low = _lower_a64(f, op, "probe", spec.args)
    text = ("The proven program of generated/fields/%s.c lowered to AArch64: MUL/UMULH\n"
            "products summed by ADDS/ADC into 128-bit columns, EXTR/AND carries\n"
            "(a64_lower.py)." % f.name)
    if low.shifted:
        text += ("\nMultiplications by +-2^k, 2^a + 2^b, +-(2^a - 2^b) (%d here) are shifts and\n"
                 "one ADDS/ADC, SUBS/SBC or NEGS/NGC, no multiply." % low.shifted)
    if low.budget is not None:
        text += ("\nThe columns need more than the 28 registers: the statements go in demand\n"
                 "order (depth first from the stored limbs, larger cone first) and the\n"
                 "lowering evicts, clean values first, the farthest next use first (Belady):\n"
                 "%d loads read again (LDR), " % low.rereads)
        if low.spills:
            text += ("%d computed value%s spilled to stack slots\n(STP/LDP), wiped before "
                     "returning." % (low.spills, "s" if low.spills > 1 else ""))
        else:
            text += "no computed value spilled."
    return text


def kernel(fname, op):
    f = desc.BY_NAME[fname]
    c = bounds.contract(f)
    sq = op == "square"
    args = [("r", "int64_t *"), ("a", "const int64_t *")] + \
        ([] if sq else [("b", "const int64_t *")])
    spec = KernelSpec(
        name="fe_%s_%s" % (fname, op),
        operation="r = %s mod p, p = %s (%s field, %s)"
                  % ("a^2" if sq else "a * b", f.modulus_text(), f.prime, fname),
        args=args,
        result=None,
        shapes="%s.\nr%s: int64_t[%d]." % (f.layout, ", a" if sq else ", a, b", f.limbs),
        units="field elements of %d limbs (not reduced: any limbs within the bounds below "
              "stand for their value mod p)." % f.limbs,
        preconditions=("%s limbs within M = (1 + %d) R (the field's MAX_ADDS lazy additions "
                       "of reduced elements):\n  %s\nThen r has limbs within\n  %s\n(R, "
                       "what products return, is in generated/fields/%s.c).  r may alias "
                       "a%s.  Other inputs: an unspecified result, never a fault.  Constant "
                       "time: straight-line code.")
                      % ("a:" if sq else "a, b:", c.max_adds, bounds.text(c.M),
                         bounds.text(getattr(c, op)[1]), fname, "" if sq else " and/or b"),
        source=f.source + ";\nthe program and its bounds: gen/lfgen/fields (ops.mul%s)."
               % (", square=True" if sq else ""),
        tune_sizes=(1,),
    )
    variants = [
        Variant("mulx", "x86_64", _build_x86(f, op, spec), X86_PARAMS,
                "The proven program of generated/fields/%s.c lowered to x86-64: MULX products\n"
                "summed by ADD/ADC into 128-bit columns, SHRD/AND carries, the premultiplied\n"
                "operands in registers%s (x86_lower.py)."
                % (fname, " or, where they do not fit, the red zone"
                          if x86_lower.parks(f) else "")),
    ] if fname in X86_FIELDS else []
    variants += [
        Variant("a64", "aarch64", _build_a64(f, op, spec), {}, _a64_text(f, op, spec)),
    ]
    return types.SimpleNamespace(SPEC=spec, VARIANTS=variants, __doc__=__doc__)


MODULES = [kernel(f, op) for f, op in DISPATCHED]


# -- four products at once: the lane-parallel IFMA program (what the X25519 ladder runs) -----

def _build_x4(f, spec, split):
    def build(symbol, p):
        from peachpy.x86_64 import YMMRegister as Y, VMOVDQU64
        from ..x86 import function as x86
        from ..fields import ops, x86_vec_lower as VL
        prog, _ = ops.mul_ifma(f, [(0, (1 << 52) - 1)] * f.limbs, split=p.split)
        fn = x86.Function(symbol, spec.args, spec.result, zmm32=True)
        fn.secret_independent()
        with fn:
            rp, ap, bp = fn.load_args()
            A = [Y() for _ in range(f.limbs)]
            for i, r in enumerate(A):
                VMOVDQU64(r, [ap + 32 * i] if i else [ap])
            B = [[bp + 32 * i] if i else [bp] for i in range(f.limbs)]   # memory operands
            out = VL.lower(prog, {"a": A, "b": B}, VL.Consts())
            for i, r in enumerate(out["r"]):
                VMOVDQU64([rp + 32 * i] if i else [rp], r)
            fn.ret()
        return fn.finalize()
    return build


def kernel_x4(fname):
    from ..kernel import Param
    from ..fields import ops
    f = desc.BY_NAME[fname]
    below = [(0, (1 << 52) - 1)] * f.limbs
    # the contract's output bound covers both implementations: the IFMA program's and the
    # scalar product's that `ref` calls
    out = ops.hull(ops.mul_ifma(f, below, split=2)[1], bounds.contract(f).mul[1])
    n = f.limbs
    spec = KernelSpec(
        name="fe_%s_mul_x4" % fname,
        operation="r_l = a_l * b_l mod p for l = 0..3, p = %s (four independent %s field\n"
                  "products, %s)" % (f.modulus_text(), f.prime, fname),
        args=[("r", "int64_t *"), ("a", "const int64_t *"), ("b", "const int64_t *")],
        result=None,
        shapes="r, a, b: int64_t[%d], limb-major: limb i of element l at [4 i + l] (four\n"
               "elements side by side, as the lanes of a YMM register); each element %d x %d-bit\n"
               "limbs, radix 2^%d, limb i of weight 2^(%d i)." % (4 * n, n, f.bits, f.bits, f.bits),
        units="groups of four field elements.",
        preconditions="every limb of a and b in [0, 2^52) (IFMA reads 52 bits; the field's\n"
                      "mul/square/carry outputs qualify).  Then every r_l has limbs within\n"
                      "  %s\nand r_l = a_l b_l mod p.  r may alias a and/or b (the same %d limbs).\n"
                      "Other inputs: an unspecified result, never a fault.  Constant time."
                      % (bounds.text(out), 4 * n),
        source=f.source + ";\nthe program: gen/lfgen/fields/ops.mul_ifma, lowered lane-wise.",
        tune_sizes=(4,),
    )
    params = {"split": Param(2, (0, 1, 2, 3), "accumulators per column and half (as in the\n"
                             "ladder kernels, kernels/xdh_ladder.py)")}
    variants = [
        Variant("ifma", "x86_64", _build_x4(f, spec, 2), params,
                "Lane l of YMM register i = limb i of element l: the proven program\n"
                "ops.mul_ifma lowered lane-wise (fields/x86_vec_lower.py): VPMADD52LUQ/HUQ\n"
                "columns, b read from memory, the high columns folded as they complete, a\n"
                "round of parallel carries."),
    ]
    return types.SimpleNamespace(SPEC=spec, VARIANTS=variants, __doc__=__doc__)


MODULES.append(kernel_x4("c25519_r51"))
