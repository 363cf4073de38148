"""The wide fields' invert kernels (Bernstein-Yang divsteps, runtime/lf_safegcd.h) run a fixed
number of batches of 60 half-delta divsteps.  Fault caught: too few batches.  Random inputs
cannot show it -- Curve448's need far fewer divsteps than the bound of 1033 -- so this test
reads the constants from the checked-in generated/fields/<field>.c and checks them against
the bound recomputed here from the modulus (P. Wuille, safegcd-bounds, half-delta divsteps:
floor((3787 log2(M) + 2166) / 1644) for 0 <= g <= f <= M, M >= 4257874; here M < 2^d), along
with p's signed-62 limbs, p^-1 mod 2^62 and the room for the range (-2p, 2p) with a sign.
That the batch runs the half-delta divstep (not the paper's, whose bound is 25% higher) is
tests/test_fields.c's test_fe_divsteps."""

import os
import re
import unittest

from lfgen.fields import desc, safegcd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def invert_body(name):
    with open(os.path.join(ROOT, "generated", "fields", name + ".c")) as fh:
        text = fh.read()
    m = re.search(r"static inline void fe_invert\(.*?\n\}", text, re.S)
    return m and m.group(0)


class DivstepConstants(unittest.TestCase):
    def test_every_wide_field_inverts_by_divsteps_with_enough_batches(self):
        wide = [f for f in desc.FIELDS if f.bits > 32]
        self.assertTrue(wide)
        for f in wide:
            body = invert_body(f.name)
            self.assertIsNotNone(body, f.name)
            call = re.search(r"lf_sg_inverse\((\d+), (\d+), s, p62, UINT64_C\(0x([0-9a-f]+)\)\)",
                             body)
            self.assertIsNotNone(call, f.name)
            n62, batches, pinv = int(call.group(1)), int(call.group(2)), int(call.group(3), 16)
            limbs = [int(x, 16) for x in re.findall(r"(?<!U)INT64_C\(0x([0-9a-f]+)\)", body)]
            d = f.p.bit_length()
            self.assertGreaterEqual(60 * batches, (3787 * d + 2166) // 1644, f.name)
            self.assertEqual(len(limbs), n62, f.name)
            self.assertEqual(sum(l << (62 * i) for i, l in enumerate(limbs)), f.p, f.name)
            self.assertTrue(all(0 <= l < 1 << 62 for l in limbs), f.name)
            self.assertEqual(pinv * f.p % (1 << 62), 1, f.name)
            self.assertGreaterEqual(62 * n62, f.p.bit_length() + 2, f.name)   # +-2p, sign
            self.assertIn("lf_sg_from_digits(%d, s, %d, %d, t)" % (n62, f.limbs, f.bits), body)
            self.assertIn("lf_sg_to_digits(%d, %d, r, %d, s)" % (f.limbs, f.bits, n62), body)

    def test_p256_ecdh_inverts_with_enough_batches(self):
        # runtime/p256_ecdh.c's Z^-2 (hand-written, p < 2^256): the same bound
        with open(os.path.join(ROOT, "runtime", "p256_ecdh.c")) as fh:
            calls = re.findall(r"lf_sg_inverse\((\d+), (\d+), s, p62,", fh.read())
        self.assertEqual(len(calls), 1)
        n62, batches = int(calls[0][0]), int(calls[0][1])
        self.assertEqual(n62, 5)
        self.assertGreaterEqual(60 * batches, (3787 * 256 + 2166) // 1644)

    def test_the_header_holds_as_many_limbs_as_the_generator_allows(self):
        with open(os.path.join(ROOT, "runtime", "lf_safegcd.h")) as fh:
            m = re.search(r"#define LF_SG_MAX (\d+)", fh.read())
        self.assertEqual(int(m.group(1)), safegcd.LF_SG_MAX)

    def test_refuses_what_divsteps_cannot_invert_by_this_code(self):
        even = desc.Field("even_r52", "test", 2**256 - 2, 256, 5, 52, False, "test")
        with self.assertRaisesRegex(ValueError, "even_r52: divsteps need an odd p"):
            safegcd.constants(even)
        big = desc.Field("big_r58", "test", 2**607 - 1, 607, 11, 58, False, "test")
        with self.assertRaisesRegex(ValueError, "big_r58: 10 signed-62 limbs needed"):
            safegcd.constants(big)


if __name__ == "__main__":
    unittest.main()
