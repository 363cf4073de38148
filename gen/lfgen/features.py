"""CPU features: the LF_CPU_* bits of runtime/include/limbforge.h, read from that header.

The header is the single source of the feature list (bit, macro, LIMBFORGE_CPU token). The
generator maps what each emitted instruction needs onto these bits; an instruction whose ISA
extension has no bit here stops generation (fail closed: the dispatcher must never be able to
run an instruction that no feature bit guards).
"""

import os
import re

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "include", "limbforge.h")

_DEFINE = re.compile(r'#define\s+(LF_CPU_\w+)\s+\(UINT64_C\(1\)\s*<<\s*(\d+)\)\s*/\*\s*"(\w+)"')

# PeachPy ISA extension names that every x86-64 CPU has (no feature bit needed).
X86_BASELINE = {"CMOV", "SSE", "SSE2", "RDTSC", "CPUID", "MMX", "FXSAVE"}
# PeachPy ISA extension name -> LIMBFORGE_CPU token.
X86_EXTENSION = {
    "BMI": "bmi1", "BMI2": "bmi2", "ADX": "adx", "AVX": "avx", "AVX2": "avx2", "FMA3": "fma",
    "AVX512F": "avx512f", "AVX512DQ": "avx512dq", "AVX512BW": "avx512bw",
    "AVX512VL": "avx512vl", "AVX512IFMA": "avx512ifma", "AVX512VBMI": "avx512vbmi",
    "AVX512VBMI2": "avx512vbmi2", "MOVBE": "movbe",
}


class FeatureError(Exception):
    pass


def load(header=HEADER):
    """token -> (macro, bit) for every LF_CPU_* in the header."""
    with open(header) as f:
        text = f.read()
    out = {}
    for macro, bit, token in _DEFINE.findall(text):
        out[token] = (macro, int(bit))
    if not out:
        raise FeatureError("no LF_CPU_* definitions found in %s" % header)
    return out


def x86_tokens(extension_names):
    """Map PeachPy extension names to sorted LIMBFORGE_CPU tokens, failing on unknown ones."""
    known = load()
    out = set()
    for name in extension_names:
        if name in X86_BASELINE:
            continue
        token = X86_EXTENSION.get(name)
        if token is None or token not in known:
            raise FeatureError("instruction set extension %s has no LF_CPU_* bit; add one to "
                               "limbforge.h and lfgen/features.py before emitting it" % name)
        out.add(token)
    return sorted(out)


def a64_tokens(names):
    known = load()
    for n in names:
        if n not in known:
            raise FeatureError("AArch64 feature %s has no LF_CPU_* bit" % n)
    return sorted(set(names))


def macros(tokens):
    known = load()
    return [known[t][0] for t in tokens]
