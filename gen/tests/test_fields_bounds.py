"""The field generator refuses what it cannot prove.  Fault caught: a field description whose
products overflow int64 columns (10 x 31-bit limbs, KERNELS.md 4.3's "bounds logic") being
generated anyway -- C that silently wraps -- or refused with a traceback or a message that does
not say which operation broke which bound; and `lfgen` letting a BoundError escape as a
traceback instead of one `lfgen: ...` line."""

import os
import subprocess
import sys
import unittest

from lfgen.fields import bounds, desc
from lfgen.fields.ir import BoundError
from . import support
from .test_x86_fe64 import key      # a register's identity, virtual or physical

# 10 signed 31-bit limbs over 2^300 - 153: a column of 10 products of 2^30 x 2^30 reaches
# 2^63, one bit past int64 (the JDK's FieldGen picked limb sizes by hand to avoid exactly this)
BAD = ("bad_r31", "test", 2**300 - 153, 300, 10, 31, True, "gen/tests/test_fields_bounds.py")


class UnsafeDescription(unittest.TestCase):
    def test_derive_refuses_with_the_operation_and_the_bound(self):
        f = desc.Field(*BAD)
        with self.assertRaises(BoundError) as cm:
            bounds.derive(f)
        msg = str(cm.exception)
        self.assertNotIn("\n", msg)
        self.assertIn("bad_r31 mul", msg)          # the field and the operation
        self.assertIn("beyond int64", msg)         # the bound it breaks
        self.assertRegex(msg, r"reaches 2\^6[3-9]")

    def test_unsigned_31_bit_limbs_refused_too(self):
        f = desc.Field(*(BAD[:6] + (False,) + BAD[7:]))
        with self.assertRaisesRegex(BoundError, r"bad_r31 mul: .* beyond int64"):
            bounds.derive(f)

    def test_the_shipped_fields_pass(self):
        for f in desc.FIELDS:
            c = bounds.derive(f)
            self.assertGreaterEqual(c.max_adds, 0, f.name)

    def test_lfgen_prints_one_line_without_a_traceback(self):
        # lfgen check with the bad field as the only one and no kernels (fast, writes nothing)
        code = ("import functools, sys\n"
                "from lfgen import main\n"
                "from lfgen.fields import desc, gen\n"
                "gen.FIELDS[:] = [desc.Field(*%r)]\n"
                "main.build_all = functools.partial(main.build_all, only={'-'})\n"
                "sys.exit(main.main(['check']))\n" % (BAD,))
        env = dict(os.environ, PYTHONPATH=os.path.join(support.ROOT, "gen"))
        p = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], r"^lfgen: bad_r31 mul: .*beyond int64")


def _carry_depth(prog):
    """The most carries (sar) on any path through the program's data flow."""
    depth = {}
    for st in prog.live():
        d = st[1]
        if d is None:
            continue
        ins = [depth.get(x.name, 0) for x in st[2:] if hasattr(x, "name")]
        depth[d.name] = max(ins, default=0) + (st[0] == "sar")
    return max(depth.values())


class CarrySchedule(unittest.TestCase):
    """Fault caught: Curve25519's products losing their two side-by-side carry chains
    (ops.TwoChains) -- one chain through every column again, the latency a chained square
    pays (42 core cycles against OpenSSL's 36) -- or the schedule accepted for a field whose
    fold it does not handle (it folds one term, into limb 0)."""

    def test_curve25519_products_carry_in_two_short_chains(self):
        c = bounds.derive(desc.BY_NAME["c25519_r51"])
        for what, (prog, _) in (("mul", c.mul), ("square", c.square)):
            # B: 0 -> 1 -> 2 -> 3; A: 2 -> 3 -> 4 -> 0 -> 1 (one chain: 0 -> ... -> 4 -> 0 -> 1)
            self.assertLessEqual(_carry_depth(prog), 4, what)

    def test_one_chain_is_longer(self):
        f = desc.BY_NAME["c25519_r51"]
        g = desc.Field(f.name, f.prime, f.p, f.power, f.limbs, f.bits, f.signed, f.source,
                       carries="chain")
        self.assertGreaterEqual(_carry_depth(bounds.derive(g).square[0]), 6)

    def test_two_chains_refused_where_the_fold_has_two_terms(self):
        f = desc.BY_NAME["c448_r56"]
        g = desc.Field(f.name, f.prime, f.p, f.power, f.limbs, f.bits, f.signed, f.source,
                       carries="two chains")
        with self.assertRaisesRegex(BoundError, r"c448_r56: carries='two chains' needs"):
            bounds.derive(g)


def _path_from(prog, arr, i):
    """The most statements on any data-flow path from the load of arr[i] to a store."""
    depth, best = {}, 0
    for st in prog.live():
        op, d = st[0], st[1]
        if op == "load":
            if (st[2], st[3]) == (arr, i):
                depth[d.name] = 0
            continue
        ins = [depth[x.name] for x in st[2:] if hasattr(x, "name") and x.name in depth]
        if not ins:
            continue
        if d is None:
            best = max(best, max(ins))
        else:
            depth[d.name] = max(ins) + 1
    return best


class WordCarries(unittest.TestCase):
    """Fault caught: Curve25519 5 x 51 (described with word_carries) given a lazy-addition
    budget whose product carries need two words -- the 128-bit carries that made our product
    3 cycles slower than OpenSSL's fe51 -- or one smaller than the largest that keeps them in
    one word; and the generator ignoring the option (the int128 budget, 214)."""

    def test_curve25519_carries_fit_one_word_and_the_budget_is_the_largest(self):
        # the statements themselves, not bounds.word_carries (which is under test)
        def wide(prog):
            return [st[1].name for st in prog.stmts
                    if st[0] in ("sar", "mulc") and st[1].kind != "i64"]
        f = desc.BY_NAME["c25519_r51"]
        c = bounds.derive(f)
        for what, (prog, _) in (("mul", c.mul), ("square", c.square)):
            self.assertEqual(wide(prog), [], what)
            self.assertTrue(any(st[0] == "mulc" and st[2].name.startswith("t") and
                                any(st[2] is s[1] for s in prog.stmts if s[0] == "sar")
                                for st in prog.stmts), what + ": no folded carry found")
        _, (pm, _), (ps, _) = bounds._products(f, c.R, c.max_adds + 1)
        self.assertTrue(wide(pm) or wide(ps))

    def test_without_the_option_the_budget_is_the_int128_one(self):
        f = desc.BY_NAME["c25519_r51"]
        g = desc.Field(f.name, f.prime, f.p, f.power, f.limbs, f.bits, f.signed, f.source,
                       carries=f.carries)
        c, w = bounds.derive(f), bounds.derive(g)
        self.assertGreater(w.max_adds, 10 * c.max_adds)
        self.assertFalse(bounds.word_carries(w.mul[0]))

    def test_the_low_limbs_enter_each_column_last(self):
        # the previous product's last limbs are 0 and 1 (the fold, then limb 0's carry): in a
        # chained use their products are added last, a shorter path from a[0] than from a[4]
        c = bounds.derive(desc.BY_NAME["c25519_r51"])
        for what, (prog, _) in (("mul", c.mul), ("square", c.square)):
            self.assertLess(_path_from(prog, "a", 0), _path_from(prog, "a", 4), what)


class LeaTimes(unittest.TestCase):
    """Fault caught: a constant multiplied by LEA steps that do not make it (x86_lower.lea_steps;
    the fold of Curve25519's top carry by 19 is two LEAs), or LEAs emitted with the wrong
    base or index (Lowering._lea_times: [t + t * k] would make 27 x for 19)."""

    def test_emitted_leas_multiply(self):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV
        from lfgen.fields import x86_lower
        from lfgen.x86 import function as x86
        tried = 0
        for c in range(2, 80):
            steps = x86_lower.lea_steps(c)
            if steps is None:
                continue
            f = x86.Function("probe", [("p", "int64_t *")], None)
            with f:
                f.load_args()
                x, r = G(), G()
                MOV(x, 1)
                x86_lower.Lowering._lea_times(r, x, steps)
                f.ret()
            for xv in (1, 3, 2**51 - 1, 2**60 + 7, 2**64 - 1):
                regs = {key(x): xv}
                for ins in f.pp._instructions:
                    if ins.name != "LEA":
                        continue
                    d, m = ins.operands
                    a = m.address
                    v = a.displacement
                    v += regs[key(a.base)] if a.base is not None else 0
                    v += regs[key(a.index)] * a.scale if a.index is not None else 0
                    regs[key(d)] = v % 2**64
                self.assertEqual(regs[key(r)], c * xv % 2**64, (c, xv))
            tried += 1
        self.assertGreaterEqual(tried, 10)

    def test_steps_make_the_constant(self):
        from lfgen.fields import x86_lower
        seen = 0
        for c in range(2, 200):
            st = x86_lower.lea_steps(c)
            if st is None:
                continue
            d, k = st
            self.assertIn(d, (3, 5, 9))
            self.assertEqual(c, d if k is None else 1 + k * d, c)
            seen += 1
        self.assertEqual(x86_lower.lea_steps(19), (9, 2))
        self.assertIsNone(x86_lower.lea_steps(38))
        self.assertGreaterEqual(seen, 10)
