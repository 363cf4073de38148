"""Schedules as data: gen/schedules/<arch>/<cpu>.toml, read with tomllib.

    [provenance]                       # who measured it, how, when, and the figure
    cpu = "generic"
    method = "..."
    date = "2026-11-29"
    figures = "..."

    [mpn_addmul_1.adx]                 # <kernel>.<variant>: values of the variant's Params
    unroll = 8

    [match]                            # not in generic.toml: the CPUs this schedule is for
    vendor = "GenuineIntel"            #   x86-64: CPUID vendor and [family, model] pairs
    family_model = [[6, 0xcf]]         #   (display family/model; [family] alone: any model)
    implementer_part = [[0x41, 0xd0c]] #   AArch64: MIDR_EL1 implementer and part ([impl]: any)

    [order]                            # optional: variants of a kernel in this CPU's order of
    bi_mul_add = ["w32", "w64"]        #   preference (unlisted ones follow in generic order)

    [pinned."bi_multiply_to_len.adx"]  # optional: values set by hand that `make tune` keeps
    small = "why: what was measured"   #   (the value itself stays in [kernel.variant])

In `generic.toml` a value not given falls back to the Param default; in a CPU's file it falls
back to generic's value, so a CPU file lists only where that CPU differs (and its pinned
values: a pin's value must be listed in the same file, and `make tune` keeps it only when it
rewrites that file).  An unknown kernel, variant or parameter stops generation, so a stale
schedule file cannot silently stop applying.

Every schedule of an architecture is generated into the same build: a variant whose values
(or whose size-dispatch targets) differ from generic's gets its own function
lf_<kernel>_<variant>__<cpu> in generated/<arch>/<kernel>_<variant>__<cpu>.S, and the runtime
picks the schedule whose [match] fits the CPU it runs on (generic otherwise).
"""

import os
import re
import tomllib

from .kernel import ScheduleError, Values

ROOT = os.path.join(os.path.dirname(__file__), "..", "schedules")
REQUIRED_PROVENANCE = ("cpu", "method", "date", "figures")
GENERIC = "generic"
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
MATCH_KEYS = {"x86_64": ("vendor", "family_model"), "aarch64": ("implementer_part",)}


def relpath(arch, cpu):
    return "gen/schedules/%s/%s.toml" % (arch, cpu)


def ident(cpu):
    """The C identifier part of a schedule name: neoverse-n1 -> neoverse_n1."""
    return cpu.replace("-", "_")


class Schedule:
    def __init__(self, arch, cpu, data):
        self.arch = arch
        self.cpu = cpu
        for k in ("provenance", "match", "order", "pinned"):
            if k in data and not isinstance(data[k], dict):
                raise ScheduleError("%s: %s must be a table ([%s])" % (self.relpath, k, k))
        self.provenance = data.get("provenance", {})
        missing = [k for k in REQUIRED_PROVENANCE if k not in self.provenance]
        if missing:
            raise ScheduleError("%s: [provenance] lacks %s (it needs %s)" % (
                self.relpath, ", ".join(missing), ", ".join(REQUIRED_PROVENANCE)))
        if not _NAME.match(cpu):
            raise ScheduleError("%s: schedule name %r: lower-case letters, digits and '-' only"
                                % (self.relpath, cpu))
        if self.provenance.get("cpu") != cpu:
            raise ScheduleError("%s: provenance.cpu is %r, the file is named %r"
                                % (self.relpath, self.provenance.get("cpu"), cpu))
        self.match = self._match(data.get("match"))
        self.order = data.get("order", {})
        for kname, pref in self.order.items():
            if not (isinstance(pref, list) and all(isinstance(n, str) for n in pref)):
                raise ScheduleError('%s: [order] %s must be a list of variant names, e.g. '
                                    '["adx", "mulx"]' % (self.relpath, kname))
        self.pinned = data.get("pinned", {})
        for kv, params in self.pinned.items():
            if not (isinstance(params, dict) and params and
                    all(isinstance(w, str) and w.strip() for w in params.values())):
                raise ScheduleError('%s: [pinned."%s"] must give each pinned parameter a '
                                    'reason, e.g. [pinned."mpn_sqr.adx"] small = "measured '
                                    '..." (the kernel.variant key in quotes)'
                                    % (self.relpath, kv))
        self.tables = {k: v for k, v in data.items()
                       if k not in ("provenance", "match", "order", "pinned")}

    @property
    def is_generic(self):
        return self.cpu == GENERIC

    @property
    def ident(self):
        return ident(self.cpu)

    def _match(self, m):
        """The [match] table as (vendor, [(a, b)]) with b None for "any"."""
        if self.is_generic:
            if m is not None:
                raise ScheduleError("%s: generic matches every CPU; it has no [match]"
                                    % self.relpath)
            return None
        if not isinstance(m, dict):
            raise ScheduleError("%s: a CPU schedule needs a [match] table" % self.relpath)
        keys = MATCH_KEYS[self.arch]
        unknown = set(m) - set(keys)
        if unknown:
            raise ScheduleError("%s: [match] keys for %s are %s, not %s"
                                % (self.relpath, self.arch, ", ".join(keys),
                                   ", ".join(sorted(unknown))))
        pairs = m.get(keys[-1])
        if not pairs or not all(isinstance(p, list) and 1 <= len(p) <= 2 and
                                all(type(x) is int and 0 <= x < 0xffff for x in p)
                                for p in pairs):
            raise ScheduleError("%s: [match] %s must be a non-empty list of [a, b] or [a] "
                                "integer pairs" % (self.relpath, keys[-1]))
        vendor = m.get("vendor")
        if self.arch == "x86_64" and not (isinstance(vendor, str) and len(vendor) == 12):
            raise ScheduleError("%s: [match] vendor must be the 12-character CPUID vendor string"
                                % self.relpath)
        return vendor, [(p[0], p[1] if len(p) == 2 else None) for p in pairs]

    def values(self, spec, variant, base=None):
        """The variant's values: this file's, else `base`'s (generic), else the defaults."""
        table = dict(base.tables.get(spec.name, {}).get(variant.name, {})) if base else {}
        table.update(self.tables.get(spec.name, {}).get(variant.name, {}))
        return Values(variant.params, table,
                      "%s [%s.%s]" % (self.relpath, spec.name, variant.name))

    def variant_order(self, spec, names):
        """`names` (the kernel's variants of this arch, generic order) in this CPU's order."""
        pref = self.order.get(spec.name, [])
        unknown = [n for n in pref if n not in names]
        if unknown:
            raise ScheduleError("%s: [order] %s names no %s variant %s (have: %s)"
                                % (self.relpath, spec.name, self.arch, ", ".join(unknown),
                                ", ".join(names)))
        if len(set(pref)) != len(pref):
            raise ScheduleError("%s: [order] %s = %r: each of %s at most once"
                                % (self.relpath, spec.name, pref, ", ".join(names)))
        return list(pref) + [n for n in names if n not in pref]

    @property
    def relpath(self):
        """How messages and headers name the file."""
        return relpath(self.arch, self.cpu)

    def check_against(self, kernels):
        """Every table must name an existing kernel and variant of this arch."""
        known = {(k.SPEC.name, v.name) for k in kernels for v in k.VARIANTS
                 if v.arch == self.arch}
        for k in kernels:
            self.variant_order(k.SPEC, [v.name for v in k.VARIANTS if v.arch == self.arch])
        for kname in self.order:
            if kname not in {k.SPEC.name for k in kernels}:
                raise ScheduleError("%s: [order] names no kernel %s" % (self.relpath, kname))
        params = {(k.SPEC.name, v.name): v.params for k in kernels for v in k.VARIANTS
                  if v.arch == self.arch}
        for kv, pins in self.pinned.items():
            kname, _, vname = kv.partition(".")
            if (kname, vname) not in params:
                raise ScheduleError('%s: [pinned."%s"] names no %s variant'
                                    % (self.relpath, kv, self.arch))
            for p in pins:
                if p not in params[(kname, vname)]:
                    raise ScheduleError('%s: [pinned."%s"] %s is no parameter of it'
                                        % (self.relpath, kv, p))
                if p not in self.tables.get(kname, {}).get(vname, {}):
                    raise ScheduleError('%s: [pinned."%s"] %s: the value is not listed in '
                                        '[%s]' % (self.relpath, kv, p, kv))
        knames = [k.SPEC.name for k in kernels]
        for kname, variants in self.tables.items():
            if kname in knames and not (isinstance(variants, dict) and all(
                    isinstance(t, dict) for t in variants.values())):
                raise ScheduleError("%s: %s holds [%s.<variant>] tables of values, nothing else"
                                    % (self.relpath, kname, kname))
            if kname not in knames:
                raise ScheduleError("%s: [%s] is no kernel (tables are provenance, match, order "
                                    "and [kernel.variant] of %s)" % (self.relpath, kname,
                                                                  ", ".join(knames)))
            for vname in variants:
                if (kname, vname) not in known:
                    raise ScheduleError("%s: no %s variant %s.%s" % (self.relpath, self.arch,
                                                                  kname, vname))


def load(arch, cpu=GENERIC, root=ROOT):
    path = os.path.join(root, arch, cpu + ".toml")
    with open(path, "rb") as f:
        try:
            data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise ScheduleError("%s: not TOML: %s" % (relpath(arch, cpu), e))
    return Schedule(arch, cpu, data)


def available(arch, root=ROOT):
    """Schedule names of `arch`, generic first, then sorted."""
    d = os.path.join(root, arch)
    names = sorted(f[:-5] for f in os.listdir(d) if f.endswith(".toml"))
    return sorted(names, key=lambda n: (n != GENERIC, n))


def load_all(arch, root=ROOT):
    """Every schedule of `arch`, generic first; two files may not claim the same CPU."""
    scheds = [load(arch, c, root) for c in available(arch, root)]
    if not scheds or not scheds[0].is_generic:
        raise ScheduleError("gen/schedules/%s has no generic.toml" % arch)
    seen = {}
    for s in scheds[1:]:
        vendor, pairs = s.match
        for a, b in pairs:
            for (v2, a2, b2), other in seen.items():
                if other != s.relpath and v2 == vendor and a2 == a and (
                        b is None or b2 is None or b == b2):
                    raise ScheduleError("%s and %s both match %s" % (
                        other, s.relpath, " ".join(
                            ([vendor] if vendor else []) +
                            ["[%s]" % ", ".join("%#x" % x for x in (a, b) if x is not None)])))
            seen[(vendor, a, b)] = s.relpath
    return scheds
