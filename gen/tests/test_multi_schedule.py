"""Several schedules in one build (main.build_kernel_arch, the dispatch table): a CPU schedule
gets its own build of a variant exactly where its values differ from generic's or where the
variant jumps by size dispatch to such a build, and the dispatch order of each schedule
points at the right builds; a schedule named after a CPU model the tuner knows gets no build
of a variant that CPU cannot run.

Faults this is designed to catch: a CPU schedule silently using generic's build (or a
duplicate of it); a tuned variant whose size dispatch leaves its schedule (jumping to
generic's sibling); an [order] that the table does not follow; a tuned symbol that the prefix
header does not rename or the manifest does not list; a build whose lf_variant.hint is not its
Variant.hint of its values (the API would choose its sizes for another build); dead builds:
an `ifma` copy under a schedule for a CPU without IFMA (Zen 1)."""

import json
import os
import shutil
import unittest

from lfgen import main, schedule
from . import support

T1 = """[provenance]
cpu = "t1"
method = "unit test"
date = "2026-11-30"
figures = "none"

[match]
vendor = "GenuineIntel"
family_model = [[6, 0x01]]

[order]
bi_mul_add = ["adx"]

[mpn_sqr.adx]
small = 6

[bi_multiply_to_len.adx]
small = 7
"""

T2 = """[provenance]
cpu = "t2"
method = "unit test"
date = "2026-11-30"
figures = "none"

[match]
implementer_part = [[0x41, 0xd0c]]

[mpn_addmul_1.a64]
unroll = 2
"""


class MultiSchedule(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = support.TempDir()
        root = cls.tmp.__enter__()
        for arch in ("x86_64", "aarch64"):
            os.makedirs(os.path.join(root, arch))
            shutil.copy(os.path.join(schedule.ROOT, arch, "generic.toml"),
                        os.path.join(root, arch, "generic.toml"))
        with open(os.path.join(root, "x86_64", "t1.toml"), "w") as f:
            f.write(T1)
        with open(os.path.join(root, "aarch64", "t2.toml"), "w") as f:
            f.write(T2)
        cls.files, cls.manifest = main.build_all(
            only={"mpn_sqr", "bi_mul_add", "mpn_addmul_1", "bi_multiply_to_len"},
            sched_root=root)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def tuned(self, suffix):
        return sorted(f for f in self.files if f.endswith(suffix + ".S"))

    def test_own_builds_exactly_where_needed(self):
        # mpn_sqr.adx and bi_multiply_to_len.adx differ; each kernel's ifma jumps to its adx,
        # so it follows; bi_mul_add only reorders
        self.assertEqual(self.tuned("__t1"), ["generated/x86_64/bi_multiply_to_len_adx__t1.S",
                                              "generated/x86_64/bi_multiply_to_len_ifma__t1.S",
                                              "generated/x86_64/mpn_sqr_adx__t1.S",
                                              "generated/x86_64/mpn_sqr_ifma__t1.S"])
        self.assertEqual(self.tuned("__t2"), ["generated/aarch64/mpn_addmul_1_a64__t2.S"])

    def test_size_dispatch_stays_in_the_schedule(self):
        ifma = self.files["generated/x86_64/mpn_sqr_ifma__t1.S"]
        self.assertIn("LF_BODY(lf_mpn_sqr_adx__t1)", ifma)
        self.assertNotIn("LF_BODY(lf_mpn_sqr_adx)", ifma)
        self.assertIn("LF_BODY(lf_mpn_sqr_adx)", self.files["generated/x86_64/mpn_sqr_ifma.S"])

    def test_headers_state_values_and_cpus(self):
        adx = self.files["generated/x86_64/mpn_sqr_adx__t1.S"]
        self.assertIn("small = 6", adx)
        self.assertIn("used on: GenuineIntel family 0x6 model 0x1", adx)

    def test_dispatch_orders(self):
        t = self.files["generated/dispatch_table.c"]
        # x86-64 bi_mul_add: avx512 0, mulx 1, adx 2, ref 3; t1 puts adx first
        self.assertIn("lf_bi_mul_add_order_t1[] = { 2, 0, 1, 3, LF_ORDER_END }", t)
        self.assertIn("lf_bi_mul_add_order_generic[] = { 0, 1, 2, 3, LF_ORDER_END }", t)
        # mpn_sqr: ifma 0, adx 1, ifma@t1 2, adx@t1 3, ref 4
        self.assertIn('{ "ifma@t1", (lf_fnptr)lf_mpn_sqr_ifma__t1,', t)
        self.assertIn("lf_mpn_sqr_order_t1[] = { 2, 3, 4, LF_ORDER_END }", t)
        # aarch64 mpn_addmul_1: a64 0, a64@t2 1, ref 2
        self.assertIn("lf_mpn_addmul_1_order_t2[] = { 1, 2, LF_ORDER_END }", t)
        self.assertIn('{ "t1", "gen/schedules/x86_64/t1.toml", "GenuineIntel",', t)
        self.assertIn("{ 0x41, 0xd0c },", t)

    def test_api_hints(self):
        # bi_multiply_to_len adx's hint is 2 small words: generic's 12, t1's 14; none for a64
        # and ref
        t = self.files["generated/dispatch_table.c"]
        self.assertIn('{ "adx", (lf_fnptr)lf_bi_multiply_to_len_adx, LF_CPU_ASM | LF_CPU_ADX | '
                      'LF_CPU_BMI2, "x86_64/generic", 12 },', t)
        self.assertIn('"x86_64/t1", 14 },', t)
        self.assertIn('{ "a64", (lf_fnptr)lf_bi_multiply_to_len_a64, LF_CPU_ASM, '
                      '"aarch64/generic", 0 },', t)
        self.assertIn('{ "ref", (lf_fnptr)lf_bi_multiply_to_len_ref, 0, "portable C", 0 },', t)
        # variants without a hint: 0 in every build
        self.assertIn('"x86_64/t1", 0 },', t)

    def test_prefix_header_and_manifest(self):
        prefix = self.files["generated/include/limbforge_prefix.h"]
        for sym in ("lf_mpn_sqr_adx__t1", "lf_mpn_sqr_ifma__t1", "lf_mpn_addmul_1_a64__t2"):
            self.assertIn(sym, prefix)
        m = json.loads(self.files["generated/MANIFEST.json"])
        names = {v["name"]: v for v in m["kernels"]["mpn_sqr"]["variants"]}
        self.assertEqual(names["adx@t1"]["values"]["small"], 6)
        self.assertEqual(names["adx@t1"]["schedule"], "gen/schedules/x86_64/t1.toml")
        self.assertEqual(m["kernels"]["bi_mul_add"]["order"]["x86_64"]["t1"],
                         ["adx", "avx512", "mulx", "ref"])
        self.assertEqual([s["name"] for s in m["schedules"]["aarch64"]], ["generic", "t2"])


ZEN1 = """[provenance]
cpu = "znver1"
method = "unit test"
date = "2026-12-01"
figures = "none"

[match]
vendor = "AuthenticAMD"
family_model = [[0x17, 0x01]]

[mpn_sqr.adx]
small = 6
"""


class ScheduleOfACpuWithoutIfma(unittest.TestCase):
    def test_no_build_it_cannot_run(self):
        # mpn_sqr.ifma jumps to adx by size dispatch, which would give it a build of its own
        # under znver1 (as under t1 above); Zen 1 has no AVX-512, so it keeps generic's
        with support.TempDir() as root:
            for arch in ("x86_64", "aarch64"):
                os.makedirs(os.path.join(root, arch))
                shutil.copy(os.path.join(schedule.ROOT, arch, "generic.toml"),
                            os.path.join(root, arch, "generic.toml"))
            with open(os.path.join(root, "x86_64", "znver1.toml"), "w") as f:
                f.write(ZEN1)
            files, _ = main.build_all(only={"mpn_sqr"}, sched_root=root)
        self.assertEqual(sorted(f for f in files if f.endswith("__znver1.S")),
                         ["generated/x86_64/mpn_sqr_adx__znver1.S"])
        t = files["generated/dispatch_table.c"]
        # ifma 0, adx 1, adx@znver1 2, ref 3: the generic ifma stays first (never runnable there)
        self.assertIn("lf_mpn_sqr_order_znver1[] = { 0, 2, 3, LF_ORDER_END }", t)


if __name__ == "__main__":
    unittest.main()
