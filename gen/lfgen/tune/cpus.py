"""CPU models the tuner knows: their llvm-mca name, what identifies them at run time (the
[match] of their schedule file) and, on x86-64, the features the model's CPU has (a variant
is modelled only on CPUs that can run it).

Identifications: x86-64 CPUID vendor and display family/model (Intel SDM vol. 2, CPUID;
AMD APM vol. 3, Fn0000_0001); AArch64 MIDR_EL1 implementer/part (Arm Technical Reference
Manuals; Linux arch/arm64/include/asm/cputype.h for Cavium, Broadcom and Apple).  The native
CPU is identified from /proc/cpuinfo and named by LLVM (`llc-19 --version`: Host CPU)."""

import re
import subprocess

X86_BASE = ("bmi1", "bmi2", "adx", "avx", "avx2", "fma", "movbe")
AVX512 = ("avx512f", "avx512dq", "avx512bw", "avx512vl")
AVX512_ICL = AVX512 + ("avx512ifma", "avx512vbmi", "avx512vbmi2")

# name: (arch, [match pairs], vendor, features)
MODELS = {
    "haswell": ("x86_64", [[6, 0x3c], [6, 0x3f], [6, 0x45], [6, 0x46]], "GenuineIntel",
                ("bmi1", "bmi2", "avx", "avx2", "fma", "movbe")),
    "skylake": ("x86_64", [[6, 0x4e], [6, 0x5e], [6, 0x8e], [6, 0x9e]], "GenuineIntel",
                X86_BASE),
    "skylake-avx512": ("x86_64", [[6, 0x55]], "GenuineIntel", X86_BASE + AVX512),
    "icelake-server": ("x86_64", [[6, 0x6a], [6, 0x6c]], "GenuineIntel", X86_BASE + AVX512_ICL),
    "sapphirerapids": ("x86_64", [[6, 0x8f], [6, 0xcf]], "GenuineIntel",
                       X86_BASE + AVX512_ICL + ("avxifma",)),
    # Zen 1 / Zen+ (EPYC 7001, Ryzen 1000/2000): not among the models `CPU=generic` weighs
    "znver1": ("x86_64", [[0x17, 0x01], [0x17, 0x08], [0x17, 0x11], [0x17, 0x18]],
               "AuthenticAMD", X86_BASE),
    "znver3": ("x86_64", [[0x19, 0x01], [0x19, 0x08], [0x19, 0x21], [0x19, 0x50]],
               "AuthenticAMD", X86_BASE),
    "znver4": ("x86_64", [[0x19, 0x10], [0x19, 0x11], [0x19, 0x18], [0x19, 0x61],
                          [0x19, 0x74], [0x19, 0x75], [0x19, 0x78], [0x19, 0xa0]],
               "AuthenticAMD", X86_BASE + AVX512_ICL),
    "znver5": ("x86_64", [[0x1a]], "AuthenticAMD", X86_BASE + AVX512_ICL),
    "cortex-a72": ("aarch64", [[0x41, 0xd08]], None, ()),
    "neoverse-n1": ("aarch64", [[0x41, 0xd0c]], None, ()),
    "neoverse-v1": ("aarch64", [[0x41, 0xd40]], None, ()),
    # Cavium ThunderX2 and its Broadcom Vulcan ancestor
    "thunderx2t99": ("aarch64", [[0x43, 0x0af], [0x42, 0x516]], None, ()),
    # Apple M1: Icestorm/Firestorm, M1 Pro and M1 Max cores (LLVM's apple-m1 = apple-a14)
    "apple-m1": ("aarch64", [[0x61, 0x022], [0x61, 0x023], [0x61, 0x024], [0x61, 0x025],
                             [0x61, 0x028], [0x61, 0x029]], None, ()),
}

# the models `CPU=generic` takes the worst case over, and `make tune ARCH=<arch>` tunes
DEFAULT_MODELS = {
    "x86_64": ["haswell", "skylake", "skylake-avx512", "icelake-server", "sapphirerapids",
               "znver3", "znver4", "znver5"],
    "aarch64": ["cortex-a72", "neoverse-n1", "neoverse-v1", "thunderx2t99", "apple-m1"],
}


def models(arch):
    return [m for m in DEFAULT_MODELS[arch]]


def runs(model, features):
    """Can the model's CPU run a variant that requires `features` (LF feature names)?"""
    arch, _, _, feats = MODELS[model]
    if arch == "aarch64":
        return True
    return set(features) - {"asm"} <= set(feats)


def match_table(model):
    """The [match] table of a model's schedule file."""
    arch, pairs, vendor, _ = MODELS[model]
    return ({"vendor": vendor, "family_model": pairs} if arch == "x86_64"
            else {"implementer_part": pairs})


class Host:
    """This machine: its identification (what its schedule's [match] lists) and LLVM's name
    for it (the llvm-mca model used to prune candidates before timing)."""

    def __init__(self, arch, match, description, llvm_name, flags=()):
        self.arch = arch
        self.match = match
        self.description = description
        self.llvm_name = llvm_name
        self.flags = set(flags)

    def describe(self):
        return "%s (LLVM: %s)" % (self.description, self.llvm_name or "unknown")


def parse_cpuinfo(text):
    """The first processor of /proc/cpuinfo as a Host (x86-64 or AArch64 Linux)."""
    fields = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        k, _, v = line.partition(":")
        fields.setdefault(k.strip(), v.strip())
    if "vendor_id" in fields:
        vendor, family = fields["vendor_id"], int(fields.get("cpu family", "0"))
        model, stepping = int(fields.get("model", "0")), int(fields.get("stepping", "0"))
        return Host("x86_64", {"vendor": vendor, "family_model": [[family, model]]},
                    "%s family 0x%x model 0x%x stepping %d (%s)"
                    % (vendor, family, model, stepping, fields.get("model name", "")),
                    None, fields.get("flags", "").split())
    if "CPU implementer" in fields:
        impl, part = int(fields["CPU implementer"], 0), int(fields.get("CPU part", "0"), 0)
        return Host("aarch64", {"implementer_part": [[impl, part]]},
                    "MIDR implementer 0x%02x part 0x%03x variant %s revision %s"
                    % (impl, part, fields.get("CPU variant", "?"),
                       fields.get("CPU revision", "?")),
                    None, fields.get("Features", "").split())
    raise ValueError("/proc/cpuinfo: neither an x86-64 nor an AArch64 identification")


def llvm_host_name(llc="llc-19"):
    try:
        r = subprocess.run([llc, "--version"], capture_output=True, text=True)
    except OSError:
        return None
    m = re.search(r"Host CPU:\s*(\S+)", r.stdout)
    return m.group(1) if m else None


def host():
    with open("/proc/cpuinfo") as f:
        h = parse_cpuinfo(f.read())
    h.llvm_name = llvm_host_name()
    return h
