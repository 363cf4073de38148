"""The symbol list behind limbforge_prefix.h. Fault caught: a runtime function or table added
with LF_API/LF_INTERNAL, or a kernel variant, that the prefix header would not rename (two
prefixed copies would then clash at link time)."""

import os
import tempfile
import unittest

from lfgen import symbols
from lfgen.kernels import ALL


class RuntimeSymbols(unittest.TestCase):
    def test_public_and_internal_declarations_are_found(self):
        found = symbols.runtime_symbols()
        for name in ("lf_cpu_features", "lf_cpu_mask", "lf_impl", "lf_impl_list",
                     "lf_impl_force", "lf_mpn_sqr", "lf_bi_mul_add", "lf_dispatch_slot",
                     "lf_dispatch_resolve",
                     "lf_kernel_table", "lf_feature_names", "lf_dispatch_test_pause",
                     "lf_x25519", "lf_xdh_ladder", "lf_mpn_mul_kara"):
            self.assertIn(name, found)
        # static inline in lf_dispatch.h: no symbol to rename
        for not_a_symbol in ("lf_fnptr", "lf_kernel_id", "lf_variant", "lf_kernel",
                             "lf_dispatch_get"):
            self.assertNotIn(not_a_symbol, found)

    def test_a_new_declaration_is_picked_up(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "include"))
            with open(os.path.join(d, "include", "limbforge.h"), "w") as f:
                f.write("#define LF_API x\nLF_API int lf_new_thing(void);\n"
                        "/* LF_API int lf_in_a_comment(void); */\n")
            with open(os.path.join(d, "lf_dispatch.h"), "w") as f:
                f.write("LF_INTERNAL extern const int lf_new_table[4];\n"
                        "LF_INTERNAL extern void (*lf_new_hook)(int);\n")
            with open(os.path.join(d, "lf_xdh.h"), "w") as f:
                f.write("LF_INTERNAL void lf_new_ladder(int64_t *x);\n")
            with open(os.path.join(d, "lf_karatsuba.h"), "w") as f:
                f.write("LF_INTERNAL void lf_new_split(uint64_t *r, size_t n);\n")
            self.assertEqual(symbols.runtime_symbols(d),
                             {"lf_new_thing", "lf_new_table", "lf_new_hook", "lf_new_ladder",
                              "lf_new_split"})

    def test_every_variant_and_ref(self):
        names = symbols.all_symbols(ALL)
        for mod in ALL:
            self.assertIn("lf_%s_ref" % mod.SPEC.name, names)
            for v in mod.VARIANTS:
                self.assertIn(v.symbol(mod.SPEC), names)


if __name__ == "__main__":
    unittest.main()
