"""Field products with assembly variants: fe_<field>_mul and fe_<field>_square for the fields
in DISPATCHED (KERNELS.md §4; the field's description is gen/lfgen/fields/desc.py).

The operation, its bounds and its algorithm are those of the field's generated C (the `ref`,
generated/fields/<field>.c): the assembly is a statement-by-statement lowering of the same
proven program (gen/lfgen/fields/ops.py -> x86_lower.py), so every register holds a value
whose interval the generator proved, in the width it proved it for.

    c25519_r51 (p = 2^255 - 19, 5 x 51): the high products take 19 b_j (ref10/donna's
    premultiplication), column t starts as the carry out of column t - 1, the carry out of
    the top limb comes back times 19 into limb 0, and limb 0 is carried once more.

Each variant module here is built by `kernel(field, op)`: SPEC and VARIANTS, like a file in
this directory.
"""

import types

from ..kernel import KernelSpec, Variant
from ..fields import bounds, desc, x86_lower, a64_lower

DISPATCHED = [(f, op) for f in ("c25519_r51", "c448_r56", "p521_r58") for op in ("mul", "square")]


def _build_x86(f, op, spec):
    def build(symbol, p):
        from ..x86 import function as x86
        c = bounds.contract(f)
        prog = getattr(c, op)[0]
        fn = x86.Function(symbol, spec.args, spec.result)
        fn.secret_independent()
        with fn:
            regs = fn.load_args()
            x86_lower.lower(fn, prog, dict(zip([n for n, _ in spec.args], regs)))
            fn.ret()
        return fn.finalize()
    return build


def _build_a64(f, op, spec):
    def build(symbol, p):
        from ..a64.function import Function
        c = bounds.contract(f)
        prog = getattr(c, op)[0]
        fn = Function(symbol, spec.args, spec.result)
        fn.secret_independent()
        a64_lower.lower(fn, prog, dict(zip([n for n, _ in spec.args], fn.arg_regs)))
        fn.ret()
        return fn.finalize()
    return build


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
        Variant("mulx", "x86_64", _build_x86(f, op, spec), {},
                "The proven program of generated/fields/%s.c lowered to x86-64: MULX products\n"
                "summed by ADD/ADC into 128-bit columns, SHRD/AND carries, the premultiplied\n"
                "operands parked in the red zone (x86_lower.py)." % fname),
        Variant("a64", "aarch64", _build_a64(f, op, spec), {},
                "The proven program of generated/fields/%s.c lowered to AArch64: MUL/UMULH\n"
                "products summed by ADDS/ADC into 128-bit columns, EXTR/AND carries\n"
                "(a64_lower.py)." % fname),
    ]
    return types.SimpleNamespace(SPEC=spec, VARIANTS=variants, __doc__=__doc__)


MODULES = [kernel(f, op) for f, op in DISPATCHED]
