"""CPU feature derivation (lfgen/features.py): the LF_CPU_* list comes from limbforge.h, x86
extension names map onto it, anything unknown stops generation (fail closed), and kernels get
the features of the instructions they actually emit."""

import re
import unittest

from peachpy.x86_64 import (GeneralPurposeRegister64 as G, ZMMRegister, YMMRegister,
                            XMMRegister, KRegister, MOV, ADD, MULX, ADCX, VPADDQ, VPMADD52LUQ,
                            VMOVDQU64, PSHUFB, VPXOR, MOVDQU, rdx)

from lfgen import features
from lfgen.a64.function import Function as A64Function
from lfgen.x86 import function as xf
from lfgen import vseq


class Header(unittest.TestCase):
    def header_defines(self):
        out = {}
        with open(features.HEADER) as f:
            for line in f:
                if re.match(r"\s*#\s*define\s+LF_CPU_\w+\s+\(UINT64_C", line):
                    macro = line.split()[1]
                    bit = int(re.search(r"<<\s*(\d+)", line).group(1))
                    token = re.search(r'/\*\s*"([^"]+)"', line)
                    out[macro] = (bit, token.group(1) if token else None)
        return out

    def test_every_define_is_parsed(self):
        raw = self.header_defines()
        self.assertGreater(len(raw), 10)
        known = features.load()
        self.assertEqual(len(known), len(raw), "a LF_CPU_* line the parser does not read")
        for token, (macro, bit) in known.items():
            self.assertEqual(raw[macro], (bit, token))

    def test_bits_and_tokens_unique(self):
        known = features.load()
        bits = [b for _, b in known.values()]
        self.assertEqual(len(bits), len(set(bits)))
        macros = [m for m, _ in known.values()]
        self.assertEqual(len(macros), len(set(macros)))
        for token, (macro, _) in known.items():
            self.assertEqual(macro, "LF_CPU_" + token.upper())

    def test_empty_header_fails(self):
        import tempfile, os
        with tempfile.NamedTemporaryFile("w", suffix=".h", delete=False) as t:
            t.write("/* nothing */\n")
        try:
            with self.assertRaises(features.FeatureError):
                features.load(t.name)
        finally:
            os.unlink(t.name)

    def test_macros_and_mask_expressions(self):
        from lfgen import emit
        self.assertEqual(features.macros(["adx", "bmi2"]), ["LF_CPU_ADX", "LF_CPU_BMI2"])
        # every generated variant also requires LF_CPU_ASM (LIMBFORGE_CPU=none -> ref)
        self.assertEqual(emit.mask_expr([]), "LF_CPU_ASM")
        self.assertEqual(emit.mask_expr(["adx", "bmi2"]), "LF_CPU_ASM | LF_CPU_ADX | LF_CPU_BMI2")


class X86Mapping(unittest.TestCase):
    def test_every_mapped_token_exists(self):
        known = features.load()
        for ext, token in features.X86_EXTENSION.items():
            with self.subTest(ext=ext):
                if ext == "AVX512VBMI2":
                    continue        # no PeachPy instruction carries it; kept for the header
                self.assertIn(token, known)

    def test_every_target_extension_is_baseline_mapped_or_refused(self):
        for e in xf.TARGET.extensions:
            name = e.name
            if name in features.X86_BASELINE or name in features.X86_EXTENSION:
                features.x86_tokens([name])
            else:
                with self.subTest(ext=name), self.assertRaises(features.FeatureError):
                    features.x86_tokens([name])

    def test_known_names(self):
        self.assertEqual(features.x86_tokens(["CMOV", "SSE2"]), [])
        self.assertEqual(features.x86_tokens(["BMI2", "ADX", "BMI2"]), ["adx", "bmi2"])
        self.assertEqual(features.x86_tokens(["AVX512F", "AVX512IFMA", "AVX512VL"]),
                         ["avx512f", "avx512ifma", "avx512vl"])

    def test_unknown_fails_closed(self):
        for name in ("SSSE3", "AVX512_4FMAPS", "XOP", "made-up"):
            with self.subTest(ext=name), self.assertRaisesRegex(features.FeatureError,
                                                                "no LF_CPU_\\* bit"):
                features.x86_tokens([name])

    def test_a64_tokens(self):
        self.assertEqual(features.a64_tokens(["asimd", "asimd"]), ["asimd"])
        with self.assertRaises(features.FeatureError):
            features.a64_tokens(["sme"])


def x86_features(name, body, args=(("rp", "uint64_t *"), ("ap", "const uint64_t *"))):
    f = xf.Function(name, list(args))
    with f:
        regs = f.load_args()
        body(*regs)
        f.ret()
    return f.finalize().features


class Derivation(unittest.TestCase):
    def test_base_instructions(self):
        def body(rp, ap):
            t = G()
            MOV(t, [ap])
            ADD(t, 1)
            MOV([rp], t)
        self.assertEqual(x86_features("lf_t_f0", body), [])

    def test_bmi2_adx(self):
        def body(rp, ap):
            lo, hi = G(), G()
            MOV(rdx, [ap])
            MULX(hi, lo, [ap + 8])
            self.assertEqual(features.x86_tokens({e.name for e in
                                                  MULX(hi, lo, [ap]).isa_extensions}), ["bmi2"])
            ADCX(lo, hi)
            MOV([rp], lo)
        self.assertEqual(x86_features("lf_t_f1", body), ["adx", "bmi2"])

    def test_avx512_instruction_derives_avx512f(self):
        def body(rp, ap):
            z = ZMMRegister()
            VMOVDQU64(z, [ap])
            VPADDQ(z, z, z)
            VMOVDQU64([rp], z)
        feats = x86_features("lf_t_f2", body)
        self.assertIn("avx512f", feats)
        self.assertNotIn("avx512vl", feats)

    def test_ifma_and_vl(self):
        def body(rp, ap):
            z, y, k = ZMMRegister(), YMMRegister(), KRegister()
            VMOVDQU64(z, [ap])
            VPMADD52LUQ(z, z, z)
            VMOVDQU64(y, [ap])
            VPADDQ(y, y, y)                      # VEX ymm: AVX2
            VPADDQ(y(k), y, y)                   # EVEX ymm with a mask: AVX512VL
            VMOVDQU64([rp], z)
        feats = x86_features("lf_t_f3", body)
        for t in ("avx512f", "avx512ifma", "avx512vl", "avx2"):
            self.assertIn(t, feats)

    def test_instruction_without_a_bit_stops_generation(self):
        def body(rp, ap):
            x = XMMRegister()
            MOVDQU(x, [ap])
            PSHUFB(x, x)                         # SSSE3: no LF_CPU_* bit, not baseline
            MOVDQU([rp], x)
        with self.assertRaisesRegex(features.FeatureError, "SSSE3"):
            x86_features("lf_t_f4", body)

    def test_a64_features_from_instructions(self):
        f = A64Function("lf_t_fa", [("p", "uint64_t *")])
        f.ret()
        self.assertEqual(f.finalize().features, [])
        f = A64Function("lf_t_fb", [("p", "uint64_t *")])
        a, d = vseq.VSeq(f, 2, "a"), vseq.VSeq(f, 2, "d")
        for r in a:
            f.v_movi(r.b16, 1)
        vseq.vs_add(f, d, a, a)
        f.ret()
        self.assertEqual(f.finalize().features, ["asimd"])


if __name__ == "__main__":
    unittest.main()
