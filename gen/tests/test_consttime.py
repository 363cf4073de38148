"""Secret independence at generation time (lfgen.consttime, TESTING.md 11). Faults caught: a
branch on a loaded (secret) value, directly or through the flags of an arithmetic result or
around a loop; an address computed from a secret (a table lookup); a post-indexed pointer
wrongly tainted by the data it loads; a declared public load (Poly1305's ctx[5]) refused.
Every Poly1305 variant is built with the check on, so the kernels themselves are covered by
`make gen`; here each rule is shown to fire."""

import unittest

from peachpy.x86_64 import (GeneralPurposeRegister64, MOV, ADD, CMP, TEST, JZ, JNZ, LABEL, Label,
                            SHR, DEC)

from lfgen.a64.function import Function as A64Function
from lfgen.a64.insn import mem, post
from lfgen.consttime import SecretDependence
from lfgen.kernels import poly1305_blocks
from lfgen.x86 import function as x86

ARGS = [("ctx", "uint64_t *"), ("m", "const uint8_t *"), ("n", "size_t")]


def _x86(body):
    f = x86.Function("t_ct", ARGS)
    with f:
        ctx, m, n = f.load_args()
        f.secret_independent(public=[(ctx, 40)])
        body(f, ctx, m, n)
        f.ret()
    return f.finalize()


class X86(unittest.TestCase):
    def test_branch_on_loaded_value_is_refused(self):
        def body(f, ctx, m, n):
            t = GeneralPurposeRegister64()
            MOV(t, [m])
            TEST(t, t)
            JZ(f.exit_label)
        with self.assertRaisesRegex(SecretDependence, "branch"):
            _x86(body)

    def test_flags_of_arithmetic_on_secret_are_secret(self):
        def body(f, ctx, m, n):
            t = GeneralPurposeRegister64()
            MOV(t, n)
            ADD(t, [m])                     # t = n + secret
            CMP(t, 5)
            JZ(f.exit_label)
        with self.assertRaisesRegex(SecretDependence, "branch"):
            _x86(body)

    def test_secret_address_is_refused(self):
        def body(f, ctx, m, n):
            t = GeneralPurposeRegister64()
            MOV(t, [m])
            SHR(t, 60)
            MOV(t, [ctx + t * 8])           # a table lookup by a secret index
            MOV([ctx], t)
        with self.assertRaisesRegex(SecretDependence, "address"):
            _x86(body)

    def test_taint_carried_around_a_loop(self):
        def body(f, ctx, m, n):
            t, u = GeneralPurposeRegister64(), GeneralPurposeRegister64()
            MOV(u, 0)
            loop = Label("loop")
            LABEL(loop)
            TEST(u, u)                      # u is secret from the second iteration on
            JNZ(f.exit_label)
            MOV(t, [m])
            MOV(u, t)
            DEC(n)
            JNZ(loop)
        with self.assertRaisesRegex(SecretDependence, "branch"):
            _x86(body)

    def test_public_load_and_counters_pass(self):
        def body(f, ctx, m, n):
            s = GeneralPurposeRegister64()
            CMP([ctx + 40], 7)              # declared public
            JZ(f.exit_label)
            loop = Label("loop")
            LABEL(loop)
            MOV(s, [m])
            ADD([ctx], s)
            ADD(m, 8)
            DEC(n)
            JNZ(loop)
        _x86(body)


def _a64(body):
    f = A64Function("t_ct", ARGS)
    ctx, m, n = f.arg_regs
    f.secret_independent(public=[(ctx, 40)])
    body(f, ctx, m, n)
    f.ret()
    return f.finalize()


class A64(unittest.TestCase):
    def test_cbz_on_loaded_value_is_refused(self):
        def body(f, ctx, m, n):
            t = f.gpr()
            f.ldr(t, mem(m))
            done = f.new_label("done")
            f.cbz(t, done)
            f.bind(done)
        with self.assertRaisesRegex(SecretDependence, "branch"):
            _a64(body)

    def test_post_index_pointer_stays_public(self):
        def body(f, ctx, m, n):
            a, b, acc = f.gpr(), f.gpr(), f.gpr()
            f.mov(acc, 0)
            loop = f.new_label("loop")
            f.bind(loop)
            f.ldp(a, b, post(m, 16))        # m advances: public, a and b are secret
            f.add(acc, acc, a)
            f.ldr(a, mem(m))                # addressed by the advanced m: allowed
            f.add(acc, acc, a)
            f.subs(n, n, 1)
            f.b_ne(loop)
            f.str_(acc, mem(ctx))
        _a64(body)

    def test_secret_address_is_refused(self):
        def body(f, ctx, m, n):
            t = f.gpr()
            f.ldr(t, mem(m))
            f.ldr(t, mem(ctx, index=t, shift=3))
            f.str_(t, mem(ctx))
        with self.assertRaisesRegex(SecretDependence, "address"):
            _a64(body)


class Poly1305(unittest.TestCase):
    def test_every_variant_is_checked(self):
        """The builders turn the check on: a variant without it would pass unseen."""
        import inspect
        for v in poly1305_blocks.VARIANTS:
            src = inspect.getsource(v.build)
            self.assertIn("secret_independent", src, v.name)


if __name__ == "__main__":
    unittest.main()
