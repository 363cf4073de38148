"""Every external symbol of the library, for symbol prefixing (LF_PREFIX).

The runtime's declarations are read from its headers -- functions and variables declared with
LF_API (public) or LF_INTERNAL (hidden) in runtime/include/limbforge.h, runtime/lf_dispatch.h,
runtime/lf_xdh.h and runtime/lf_karatsuba.h
-- and the kernels' from the kernel list (each variant and each `ref`). The generated
limbforge_prefix.h renames all of them when LF_PREFIX is defined, so the C side follows the same
prefix as the assembly (LF_SYM in lf_asm.h) and two prefixed copies link into one program.
"""

import os
import re

RUNTIME = os.path.join(os.path.dirname(__file__), "..", "..", "runtime")
HEADERS = ("include/limbforge.h", "lf_dispatch.h", "lf_xdh.h", "lf_karatsuba.h")

# `LF_API uint64_t lf_cpu_features(void);`, `LF_INTERNAL extern const struct lf_kernel
# lf_kernel_table[LF_K_COUNT];`, `LF_INTERNAL extern void (*lf_dispatch_test_pause)(...)`
_DECL = re.compile(r"\b(?:LF_API|LF_INTERNAL)\b([^;{]*?)(?:;|\{)", re.S)
_NAME = re.compile(r"\(\s*\*\s*(lf_\w+)\s*\)|\b(lf_\w+)\s*[\(\[]")


def runtime_symbols(root=RUNTIME):
    out = set()
    for rel in HEADERS:
        with open(os.path.join(root, rel)) as f:
            # preprocessor lines (`#define LF_INTERNAL ...`) and comments are not declarations
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
            text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
        for decl in _DECL.findall(text):
            m = _NAME.search(decl)
            if m:
                out.add(m.group(1) or m.group(2))
    if not out:
        raise ValueError("no LF_API/LF_INTERNAL declarations found in %s" % (HEADERS,))
    return out


def kernel_symbols(kernels):
    out = set()
    for mod in kernels:
        spec = mod.SPEC
        out.add(spec.api)
        out.add("lf_%s_ref" % spec.name)
        for v in mod.VARIANTS:
            out.add(v.symbol(spec))
    return out


def all_symbols(kernels, extra=(), root=RUNTIME):
    """`extra`: further kernel symbols (the builds of CPU schedules, lf_<k>_<v>__<cpu>)."""
    return sorted(runtime_symbols(root) | kernel_symbols(kernels) | set(extra))
