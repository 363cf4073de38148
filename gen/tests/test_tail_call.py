"""Size dispatch before the frame (x86 Function.tail_call_outside) and the feature rule that
comes with it: a variant requires what every sibling it can jump to requires. Faults caught:
a variant dispatched on a CPU that lacks its tail target's features; a jump to a symbol that
is not a sibling (or a cycle); a wide function jumping out without vzeroupper; a size check
placed after the prologue (where a tail jump would skip the epilogue)."""

import unittest

from lfgen import main
from lfgen.kernel import KernelSpec

SPEC = KernelSpec("t_sqr", "t", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                                 ("n", "size_t")], None, "s", "u", "p", "src")


class _C:
    def __init__(self, features, tail_targets=()):
        self.features = list(features)
        self.tail_targets = list(tail_targets)


class RequiredFeatures(unittest.TestCase):
    def test_target_features_are_added(self):
        built = {"a": _C(["avx512f", "avx512ifma"], ["b"]), "b": _C(["adx", "bmi2"])}
        req = main._required_features(SPEC, built)
        self.assertEqual(req["a"], ["adx", "avx512f", "avx512ifma", "bmi2"])
        self.assertEqual(req["b"], ["adx", "bmi2"])

    def test_chains_are_followed(self):
        built = {"a": _C(["x"], ["b"]), "b": _C(["y"], ["c"]), "c": _C(["z"])}
        self.assertEqual(main._required_features(SPEC, built)["a"], ["x", "y", "z"])

    def test_unknown_target_and_cycles_stop_generation(self):
        with self.assertRaisesRegex(ValueError, "not another t_sqr variant"):
            main._required_features(SPEC, {"a": _C([], ["elsewhere"])})
        with self.assertRaisesRegex(ValueError, "cycle"):
            main._required_features(SPEC, {"a": _C([], ["b"]), "b": _C([], ["a"])})


def _build(wide):
    from peachpy.x86_64 import GeneralPurposeRegister64, ZMMRegister, MOV, VPXORQ
    from lfgen.x86 import function as x86
    f = x86.Function("lf_t_sqr_v", SPEC.args, None)
    f.tail_call_outside(2, 10, 256, "lf_t_sqr_w")
    with f:
        rp, ap, n = f.load_args()
        regs = [GeneralPurposeRegister64() for _ in range(11)]    # forces a prologue
        for r in regs:
            MOV(r, [ap])
        for r in regs:
            MOV([rp], r)
        if wide:
            z = ZMMRegister()
            VPXORQ(z, z, z)
        f.ret()
    return f.finalize()


class Preamble(unittest.TestCase):
    def test_checks_come_before_the_prologue(self):
        lines = _build(False).lines
        body = [l.strip() for l in lines if l.startswith("\t") and "/*" not in l]
        self.assertEqual(body[:4], ["cmpq\t$10, %rdx", "jb\tLF_BODY(lf_t_sqr_w)",
                                    "cmpq\t$256, %rdx", "ja\tLF_BODY(lf_t_sqr_w)"])
        self.assertTrue(body[4].startswith("pushq"), body[4])
        self.assertEqual(_build(False).tail_targets, ["lf_t_sqr_w"])

    def test_wide_function_clears_upper_state_before_jumping(self):
        body = [l.strip() for l in _build(True).lines if l.startswith("\t") and "/*" not in l]
        self.assertEqual(body[0], "vzeroupper")
        self.assertNotIn("vzeroupper", [l.strip() for l in _build(False).lines])


if __name__ == "__main__":
    unittest.main()
