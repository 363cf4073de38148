"""Schedules as data: gen/schedules/<arch>/<cpu>.toml, read with tomllib.

    [provenance]                       # who measured it, how, when, and the figure
    cpu = "generic"
    method = "..."
    date = "2026-11-29"
    figures = "..."

    [mpn_addmul_1.adx]                 # <kernel>.<variant>: values of the variant's Params
    unroll = 8

A value not given falls back to the Param default; an unknown kernel, variant or parameter
stops generation, so a stale schedule file cannot silently stop applying.
"""

import os
import tomllib

from .kernel import Values

ROOT = os.path.join(os.path.dirname(__file__), "..", "schedules")
REQUIRED_PROVENANCE = ("cpu", "method", "date", "figures")


class Schedule:
    def __init__(self, arch, cpu, data, path):
        self.arch = arch
        self.cpu = cpu
        self.path = path
        self.provenance = data.get("provenance", {})
        missing = [k for k in REQUIRED_PROVENANCE if k not in self.provenance]
        if missing:
            raise ValueError("%s: provenance lacks %s" % (path, ", ".join(missing)))
        self.tables = {k: v for k, v in data.items() if k != "provenance"}

    def values(self, spec, variant):
        table = self.tables.get(spec.name, {}).get(variant.name, {})
        return Values(variant.params, table,
                      "%s [%s.%s]" % (self.relpath, spec.name, variant.name))

    @property
    def relpath(self):
        return "gen/schedules/%s/%s.toml" % (self.arch, self.cpu)

    def check_against(self, kernels):
        """Every table must name an existing kernel and variant of this arch."""
        known = {(k.SPEC.name, v.name) for k in kernels for v in k.VARIANTS
                 if v.arch == self.arch}
        for kname, variants in self.tables.items():
            for vname in variants:
                if (kname, vname) not in known:
                    raise ValueError("%s: no %s variant %s.%s" % (self.relpath, self.arch,
                                                                  kname, vname))


def load(arch, cpu="generic", root=ROOT):
    path = os.path.join(root, arch, cpu + ".toml")
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return Schedule(arch, cpu, data, path)


def available(arch, root=ROOT):
    d = os.path.join(root, arch)
    return sorted(f[:-5] for f in os.listdir(d) if f.endswith(".toml"))
