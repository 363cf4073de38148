"""Schedule files (lfgen/schedule.py, kernel.Values): a stale or wrong schedule stops generation
-- unknown kernel, variant or parameter, a value outside the Param's choices, missing
provenance, a [pinned] entry without a reason or naming no parameter -- and the checked-in
schedules load and match the kernels."""

import os
import types
import unittest

from lfgen import schedule
from lfgen.kernel import KernelSpec, Variant, Param, Values
from . import support

PROVENANCE = """[provenance]
cpu = "%s"
method = "unit test"
date = "2026-11-29"
figures = "none"
"""


def fake_kernels():
    spec = KernelSpec(name="k1", operation="op", args=[("p", "uint64_t *")], result=None,
                      shapes="", units="", preconditions="", source="")
    params = {"unroll": Param(4, (2, 4, 8), "u"), "ahead": Param(1, (0, 1), "a")}
    mod = types.SimpleNamespace(SPEC=spec, VARIANTS=[
        Variant("fast", "x86_64", None, params), Variant("a64", "aarch64", None, params)])
    return [mod]


class Files(unittest.TestCase):
    def write(self, root, arch, cpu, text):
        d = os.path.join(root, arch)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, cpu + ".toml"), "w") as f:
            f.write(text)

    def load(self, body, arch="x86_64", cpu="generic", provenance=True):
        with support.TempDir() as root:
            self.write(root, arch, cpu, (PROVENANCE % cpu if provenance else "") + body)
            return schedule.load(arch, cpu, root=root)

    def test_good_file(self):
        s = self.load("[k1.fast]\nunroll = 8\n")
        k = fake_kernels()
        s.check_against(k)
        v = s.values(k[0].SPEC, k[0].VARIANTS[0])
        self.assertEqual((v.unroll, v.ahead), (8, 1))       # ahead: the default
        self.assertEqual(v.items(), [("ahead", 1), ("unroll", 8)])
        self.assertEqual(s.provenance["method"], "unit test")

    def test_unknown_kernel(self):
        s = self.load("[nosuch.fast]\nunroll = 8\n")
        with self.assertRaisesRegex(ValueError, r"\[nosuch\] is no kernel"):
            s.check_against(fake_kernels())

    def test_unknown_variant(self):
        s = self.load("[k1.slow]\nunroll = 8\n")
        with self.assertRaisesRegex(ValueError, "k1.slow"):
            s.check_against(fake_kernels())

    def test_variant_of_the_other_arch(self):
        s = self.load("[k1.a64]\nunroll = 8\n")         # an aarch64 variant in x86_64/
        with self.assertRaises(ValueError):
            s.check_against(fake_kernels())

    def test_unknown_parameter(self):
        s = self.load("[k1.fast]\nunrol = 8\n")
        k = fake_kernels()
        s.check_against(k)
        with self.assertRaisesRegex(ValueError, r"unknown schedule parameter\(s\) \['unrol'\]"):
            s.values(k[0].SPEC, k[0].VARIANTS[0])

    def test_value_outside_choices(self):
        k = fake_kernels()
        for body in ("[k1.fast]\nunroll = 16\n", "[k1.fast]\nahead = 2\n",
                     "[k1.fast]\nunroll = \"4\"\n"):
            s = self.load(body)
            with self.subTest(body=body), self.assertRaisesRegex(ValueError, "is not one of"):
                s.values(k[0].SPEC, k[0].VARIANTS[0])

    def test_provenance_required(self):
        with self.assertRaisesRegex(ValueError, r"\[provenance\] lacks"):
            self.load("[k1.fast]\nunroll = 8\n", provenance=False)
        for field in schedule.REQUIRED_PROVENANCE:
            text = "\n".join(l for l in (PROVENANCE % "generic").split("\n")
                             if not l.startswith(field + " "))
            with self.subTest(missing=field), self.assertRaisesRegex(ValueError, field):
                self.load(text + "\n[k1.fast]\nunroll = 8\n", provenance=False)

    MATCH_X86 = '[match]\nvendor = "GenuineIntel"\nfamily_model = [[6, 0xcf], [6]]\n'

    def test_cpu_schedule_match(self):
        s = self.load(self.MATCH_X86, cpu="spr")
        self.assertEqual(s.match, ("GenuineIntel", [(6, 0xcf), (6, None)]))
        self.assertEqual(s.ident, "spr")
        s = self.load('[match]\nimplementer_part = [[0x41, 0xd0c]]\n', arch="aarch64",
                      cpu="neoverse-n1")
        self.assertEqual((s.match, s.ident), ((None, [(0x41, 0xd0c)]), "neoverse_n1"))
        bad = {"no [match]": "", "generic with [match]": None,
               "wrong key": '[match]\nimplementer_part = [[0x41, 0xd0c]]\n',
               "short vendor": '[match]\nvendor = "Intel"\nfamily_model = [[6]]\n',
               "empty list": '[match]\nvendor = "GenuineIntel"\nfamily_model = []\n',
               "triple": '[match]\nvendor = "GenuineIntel"\nfamily_model = [[6, 1, 2]]\n'}
        for what, body in bad.items():
            with self.subTest(what), self.assertRaises(ValueError):
                if body is None:
                    self.load(self.MATCH_X86)
                else:
                    self.load(body, cpu="spr")
        for name in ("Spr", "9x", "a_b"):
            with self.subTest(name=name), self.assertRaises(ValueError):
                self.load(self.MATCH_X86, cpu=name)

    def test_cpu_values_fall_back_to_generic(self):
        k = fake_kernels()
        g = self.load("[k1.fast]\nunroll = 8\nahead = 0\n")
        s = self.load(self.MATCH_X86 + "[k1.fast]\nahead = 1\n", cpu="spr")
        v = s.values(k[0].SPEC, k[0].VARIANTS[0], g)
        self.assertEqual((v.unroll, v.ahead), (8, 1))

    def test_order(self):
        k = fake_kernels()
        k[0].VARIANTS.append(Variant("slow", "x86_64", None, {}))
        s = self.load(self.MATCH_X86 + '[order]\nk1 = ["slow"]\n', cpu="spr")
        s.check_against(k)
        self.assertEqual(s.variant_order(k[0].SPEC, ["fast", "slow"]), ["slow", "fast"])
        for body in ('[order]\nk1 = ["slow", "slow"]\n', '[order]\nk1 = ["a64"]\n',
                     '[order]\nk9 = ["fast"]\n'):
            s = self.load(self.MATCH_X86 + body, cpu="spr")
            with self.subTest(body=body), self.assertRaises(ValueError):
                s.check_against(k)
        s = self.load(self.MATCH_X86 + '[order]\nk1 = ["a64"]\n', cpu="spr")
        with self.assertRaisesRegex(ValueError, r"\[order\] k1 names no x86_64 variant a64 "
                                                r"\(have: fast, slow\)"):
            s.check_against(k)

    def test_pinned(self):
        k = fake_kernels()
        s = self.load(self.MATCH_X86 + '[pinned."k1.fast"]\nunroll = "measured by hand"\n'
                      '[k1.fast]\nunroll = 8\n', cpu="spr")
        s.check_against(k)
        self.assertEqual(s.pinned, {"k1.fast": {"unroll": "measured by hand"}})
        self.assertNotIn("pinned", s.tables)
        for body in ('[pinned."k1.slow"]\nunroll = "x"\n', '[pinned."k9.fast"]\nunroll = "x"\n',
                     '[pinned."k1.a64"]\nunroll = "x"\n', '[pinned."k1.fast"]\nsmall = "x"\n',
                     '[pinned."k1.fast"]\nahead = "x"\n'):                 # not listed
            s = self.load(self.MATCH_X86 + body, cpu="spr")
            with self.subTest(body=body), self.assertRaises(ValueError):
                s.check_against(k)
        for body in ('[pinned."k1.fast"]\nunroll = ""\n', '[pinned."k1.fast"]\nunroll = 8\n',
                     '[pinned]\n"k1.fast" = "x"\n'):
            with self.subTest(body=body), self.assertRaisesRegex(ValueError, "reason"):
                self.load(self.MATCH_X86 + body, cpu="spr")

    def test_values_of_another_type_are_refused(self):
        k = fake_kernels()
        for body in ("[k1.fast]\nunroll = 8.0\n", "[k1.fast]\nahead = true\n"):
            s = self.load(body)
            with self.subTest(body=body), self.assertRaisesRegex(ValueError, "is not one of"):
                s.values(k[0].SPEC, k[0].VARIANTS[0])
        with self.assertRaisesRegex(ValueError, "integer pairs"):
            self.load('[match]\nvendor = "GenuineIntel"\nfamily_model = [[true, 0x61]]\n',
                      cpu="spr")
        with self.assertRaisesRegex(ValueError, r"\[order\] k1 must be a list"):
            self.load(self.MATCH_X86 + '[order]\nk1 = "fast"\n', cpu="spr")
        with self.assertRaisesRegex(ValueError, "k1 holds"):
            self.load("[k1]\nfast = 3\n").check_against(k)

    def test_not_toml_names_the_file(self):
        with self.assertRaisesRegex(ValueError, r"^gen/schedules/x86_64/spr.toml: not TOML"):
            self.load("[match\n", cpu="spr")

    def test_two_files_may_not_claim_one_cpu(self):
        with support.TempDir() as root:
            self.write(root, "x86_64", "generic", PROVENANCE % "generic")
            self.write(root, "x86_64", "a", PROVENANCE % "a" + self.MATCH_X86)
            self.write(root, "x86_64", "b", PROVENANCE % "b" +
                       '[match]\nvendor = "GenuineIntel"\nfamily_model = [[6, 0x8f]]\n')
            with self.assertRaisesRegex(ValueError, r"both match GenuineIntel \[0x6, 0x8f\]$"):
                schedule.load_all("x86_64", root)       # a's [6] covers b's model
            self.write(root, "x86_64", "a", PROVENANCE % "a" +
                       '[match]\nvendor = "GenuineIntel"\nfamily_model = [[6, 0xcf]]\n')
            self.assertEqual([s.cpu for s in schedule.load_all("x86_64", root)],
                             ["generic", "a", "b"])

    def test_param_default_must_be_a_choice(self):
        with self.assertRaises(ValueError):
            Param(3, (2, 4), "bad default")

    def test_values_attribute_access(self):
        v = Values({"u": Param(2, (2, 4), "")}, {}, "here")
        self.assertEqual(v.u, 2)
        with self.assertRaises(AttributeError):
            v.nope


class CheckedIn(unittest.TestCase):
    def test_every_arch_has_a_generic_schedule_matching_the_kernels(self):
        from lfgen.kernels import ALL
        for arch in ("x86_64", "aarch64"):
            with self.subTest(arch=arch):
                self.assertIn("generic", schedule.available(arch))
                for cpu in schedule.available(arch):
                    s = schedule.load(arch, cpu)
                    s.check_against(ALL)
                    for mod in ALL:
                        for v in mod.VARIANTS:
                            if v.arch == arch:
                                s.values(mod.SPEC, v)


if __name__ == "__main__":
    unittest.main()
