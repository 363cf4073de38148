"""bi_square_to_len: java.math.BigInteger.implSquareToLen on BE-words (KERNELS.md §1.3).

    z[0..2len) = x[0..len)^2, both BE-words (index 0 most significant)
"""

from ..kernel import KernelSpec

SPEC = KernelSpec(
    name="bi_square_to_len",
    operation="z = x^2 (BigInteger.implSquareToLen)",
    args=[("x", "const uint32_t *"), ("len", "size_t"), ("z", "uint32_t *")],
    result=None,
    shapes="BE-words (uint32_t, index 0 most significant): x has len words, z has 2*len.",
    units="lengths in 32-bit words.",
    preconditions="z need not be initialised and must not overlap x. len == 0 writes\n"
                  "nothing. Correct for every len; tuned for 1..127 words.",
    source="OpenJDK java.math.BigInteger.implSquareToLen; HotSpot squareToLen stubs\n"
           "(MacroAssembler::square_to_len on x86-64, JDK-8186915 on AArch64).",
)

VARIANTS = []
