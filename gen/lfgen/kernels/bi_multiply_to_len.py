"""bi_multiply_to_len: java.math.BigInteger.implMultiplyToLen on BE-words (KERNELS.md §1.2).

    z[0..xlen+ylen) = x[0..xlen) * y[0..ylen), all BE-words (index 0 most significant)
"""

from ..kernel import KernelSpec

SPEC = KernelSpec(
    name="bi_multiply_to_len",
    operation="z = x * y (BigInteger.implMultiplyToLen)",
    args=[("x", "const uint32_t *"), ("xlen", "size_t"), ("y", "const uint32_t *"),
          ("ylen", "size_t"), ("z", "uint32_t *")],
    result=None,
    shapes="BE-words (uint32_t, index 0 most significant): x has xlen words, y ylen, z\n"
           "xlen+ylen.",
    units="lengths in 32-bit words.",
    preconditions="z need not be initialised and must not overlap x or y; x == y is allowed.\n"
                  "xlen == 0 or ylen == 0: z[0..xlen+ylen) is zeroed (x, y may be NULL when\n"
                  "their length is 0).",
    source="OpenJDK java.math.BigInteger.implMultiplyToLen; HotSpot multiply_to_len stubs\n"
           "(MacroAssembler::multiply_to_len on x86-64, stubGenerator_aarch64).",
    tune_sizes=(8, 32, 64, 127),
)

VARIANTS = []
