"""bi_mul_add: java.math.BigInteger.implMulAdd on BE-words (KERNELS.md §1.4).

    out:  ... [ w(top-len+1) ... w(top) ] ...  (offset words) |end      top = out_len-offset-1
    in:       [ i(0)        ...  i(len-1) ]                    BE-words, index 0 most significant
    window <- window + in * k (low len words), return the carry-out word
"""

from ..kernel import KernelSpec

SPEC = KernelSpec(
    name="bi_mul_add",
    operation="window of out += in * k (BigInteger.implMulAdd); returns the carry-out word",
    args=[("out", "uint32_t *"), ("out_len", "size_t"), ("in", "const uint32_t *"),
          ("offset", "size_t"), ("len", "size_t"), ("k", "uint32_t")],
    result="uint32_t",
    shapes="BE-words (uint32_t, index 0 most significant). The len-word window of out is\n"
           "out[top-len+1 .. top] with top = out_len - offset - 1; in has len words.",
    units="lengths and offset in 32-bit words; k and the result are words.",
    preconditions="offset < out_len and len <= out_len - offset (Java's implMulAddCheck).\n"
                  "len == 0 returns 0 and touches no memory. in may be the window itself;\n"
                  "other overlaps are undefined. The upper 32 bits of the k register are\n"
                  "ignored.",
    source="OpenJDK java.math.BigInteger.implMulAdd; HotSpot mulAdd stubs\n"
           "(JDK-8186915 on AArch64, MacroAssembler::mul_add on x86-64).",
)

VARIANTS = []
