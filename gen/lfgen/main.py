"""`make gen`: every kernel x every variant -> generated/, deterministically.

    /usr/bin/python3 -m lfgen gen      write generated/ (files rewritten only when they change)
    /usr/bin/python3 -m lfgen check    regenerate in memory; exit 1 if generated/ differs
    /usr/bin/python3 -m lfgen list     kernels, variants, features
    /usr/bin/python3 -m lfgen tune     search schedules per CPU (make tune; lfgen/tune)

Output (all rendered from templates/):
  generated/<arch>/<kernel>_<variant>.S   one function per file, header comment, prelude macros
  generated/include/lf_asm.h              the assembly prelude
  generated/include/lf_kernels.h          prototypes and kernel indices
  generated/include/limbforge_prefix.h    renames every external symbol under LF_PREFIX
  generated/dispatch_table.c              variants with derived feature masks, best first
  generated/fields/<field>.c              EC field kernels in C with proven bounds (lfgen/fields)
  generated/include/lf_fields.h           their prototypes
  generated/sources.mk, sources.json      file lists for builds without Python
  generated/MANIFEST.json                 what was generated from what, with sha256 of each file
No timestamps, absolute paths or dictionary-order accidents enter the output.
"""

import glob
import hashlib
import json
import os
import sys

from . import emit, schedule, symbols
from .kernel import ScheduleError
from .kernels import ALL as KERNELS
from .fields import gen as fields_gen
from .fields.ir import BoundError
from .x86 import win64

ROOT = emit.ROOT
ARCHS = ("x86_64", "aarch64")


class _VariantOut:
    """One entry of a kernel's dispatch table: a build of a variant under a schedule."""

    def __init__(self, name, symbol, features, schedule_name, mask, features_text, hint):
        self.name = name
        self.symbol = symbol
        self.features = features
        self.schedule = schedule_name
        self.mask = mask
        self.features_text = features_text
        self.hint = hint


class _KernelOut:
    def __init__(self, spec):
        self.spec = spec
        self.variants = {a: [] for a in ARCHS}
        # per arch: [(schedule ident, [entry indices best first, then ref's])]
        self.orders = {a: [] for a in ARCHS}


class Build:
    """A variant built under one schedule."""

    def __init__(self, variant, sched, symbol, values, comp, spec_name):
        self.variant = variant
        self.sched = sched
        self.symbol = symbol
        self.values = values
        self.comp = comp
        self.spec_name = spec_name

    @property
    def entry_name(self):
        n = self.variant.name
        return n if self.sched.is_generic else "%s@%s" % (n, self.sched.cpu)

    @property
    def relpath(self):
        suffix = "" if self.sched.is_generic else "__" + self.sched.ident
        return "generated/%s/%s_%s%s.S" % (self.variant.arch, self.spec_name,
                                           self.variant.name, suffix)


def _all_saved(comp):
    """the callee-saved registers a build saves anywhere: its prologue's, then those only the
    code before the frame (x86 prefix_upto) saves"""
    pre = getattr(comp, "prefix", None)
    return list(comp.saved) + [r for r in (pre.saved if pre else []) if r not in comp.saved]


def _frame_text(comp, arch):
    frame = getattr(comp, "frame", 0)
    if arch == "aarch64":
        has_slots = frame > 8 * len(comp.saved)
        local = ("; a %d-byte stack frame (%sstack slots for values that do not fit the "
                 "registers)" % (frame, "the saved registers and " if comp.saved else "")) \
            if has_slots else ""
    else:           # x86-64: `frame` is what the prologue's SUB reserves below the pushes
        local = ("; %d bytes of stack%s (SysV form: the kernel's buffers and slots)"
                 % (frame, " below them" if comp.saved else "")) if frame else ""
    pre = getattr(comp, "prefix", None)
    if pre is not None:                 # x86-64: code before the frame (Function.prefix_upto)
        local += ("; the code before the frame (%s, SysV) %s, allocates no stack%s"
                  % (pre.name, "saves " + ", ".join(pre.saved) if pre.saved
                     else "uses no callee-saved register",
                     " and parks values in the red zone below rsp" if pre.red_zone else ""))
    if not comp.saved:
        if local:
            return "no callee-saved register is used" + local
        return "no stack frame; no callee-saved register is used"
    return "saves and restores callee-saved %s" % ", ".join(comp.saved) + local


def _required_features(spec, built):
    """The features a variant requires: those of its own instructions and of every sibling
    it can jump to before its frame (size dispatch). A target must be another variant of the
    same kernel and architecture; chains are followed to the end."""
    def walk(symbol, seen):
        comp = built[symbol]
        feats = set(comp.features)
        for target in getattr(comp, "tail_targets", ()):
            if target not in built or target in seen:
                raise ValueError("%s jumps to %s, which is not another %s variant of this "
                                 "architecture (or the jumps form a cycle)"
                                 % (symbol, target, spec.name))
            feats |= walk(target, seen | {target})
        return feats
    return {s: sorted(walk(s, {s})) for s in built}


def _own_builds(variants, gvals, svals, gbuilt, cpu=None):
    """The variants that need their own build under a CPU schedule: those whose values
    differ from generic's, and (transitively) those that jump to one of them by size
    dispatch, so that a schedule's size dispatch stays within the schedule -- except, where
    the schedule's CPU is a model the tuner knows (tune/cpus.py), the variants that CPU
    cannot run (an `ifma` build under Zen 1's schedule would never be called)."""
    from .tune import cpus
    def runnable(v):
        return cpu not in cpus.MODELS or cpus.runs(cpu, gbuilt[v.name].comp.features)
    own = {v.name for v in variants
           if svals[v.name].items() != gvals[v.name].items() and runnable(v)}
    by_symbol = {b.symbol: b.variant.name for b in gbuilt.values()}
    grew = True
    while grew:
        grew = False
        for v in variants:
            if v.name not in own and runnable(v) and any(
                    by_symbol.get(t) in own for t in gbuilt[v.name].comp.tail_targets):
                own.add(v.name)
                grew = True
    return own


def build_kernel_arch(spec, mod, arch, scheds):
    """Build every variant of `mod` for `arch` under generic (scheds[0]) and, where they
    differ, under each CPU schedule.  Returns the builds, generic ones first."""
    generic = scheds[0]
    variants = [v for v in mod.VARIANTS if v.arch == arch]
    gvals = {v.name: generic.values(spec, v) for v in variants}
    gsyms = {v.name: v.symbol(spec) for v in variants}
    gbuilt = {}
    for v in variants:
        gvals[v.name].set_siblings(gsyms)
        gbuilt[v.name] = Build(v, generic, gsyms[v.name], gvals[v.name],
                               v.build(gsyms[v.name], gvals[v.name]), spec.name)
    builds = [gbuilt[v.name] for v in variants]
    for s in scheds[1:]:
        svals = {v.name: s.values(spec, v, generic) for v in variants}
        own = _own_builds(variants, gvals, svals, gbuilt, s.cpu)
        syms = {n: (sym + "__" + s.ident if n in own else sym) for n, sym in gsyms.items()}
        for v in variants:
            if v.name in own:
                svals[v.name].set_siblings(syms)
                builds.append(Build(v, s, syms[v.name], svals[v.name],
                                    v.build(syms[v.name], svals[v.name]), spec.name))
    return builds


def render_kernel_file(env, spec, b, feats, w64=None):
    """The text of one generated .S: build `b` requiring `feats`; `w64` its Win64 flavour
    (x86-64; None leaves the file ELF/Mach-O only, as the tuner's throwaway builds do)."""
    comp, arch = b.comp, b.variant.arch
    ftext = emit.features_text(feats)
    if comp.tail_targets:
        ftext += "\n *   (including %s, reached by size dispatch)" % ", ".join(comp.tail_targets)
    return emit.render(
        env, "asm/kernel.S.j2", symbol=b.symbol, spec=spec, variant=b.variant, arch=arch,
        features_text=ftext, schedule=b.sched, values=b.values.items(),
        unlisted=_unlisted_text(spec, b),
        match_text=_match_text(b.sched),
        frame_text=_frame_text(comp, arch),
        body="\n".join(w64.body if w64 else comp.lines),
        win64_text=w64.text if w64 else "",
        win64_entry="\n".join(w64.entry) if w64 else "",
        count=sum(1 for l in comp.lines
                  if l.startswith("\t") and not l.startswith("\t.cfi")
                  and not l.startswith("\t/*") and not l.startswith("\tLF_")))


def _match_text(sched):
    if sched.is_generic:
        return "any CPU without a schedule of its own (the fallback)"
    if sched.match is None:
        return "nothing: a tuning candidate (lfgen/tune), never part of the library"
    vendor, pairs = sched.match
    if sched.arch == "x86_64":
        return "%s %s" % (vendor, ", ".join(
            "family 0x%x %s" % (a, "any model" if b is None else "model 0x%x" % b)
            for a, b in pairs))
    return "MIDR " + ", ".join("implementer 0x%02x %s" % (
        a, "any part" if b is None else "part 0x%03x" % b) for a, b in pairs)


def _unlisted_text(spec, b):
    """What the header says of values the schedule file does not list for the build (a
    tuning candidate's schedule is no file: nothing)."""
    tables = getattr(b.sched, "tables", None)
    if (tables is not None and b.variant.params
            and b.variant.name not in tables.get(spec.name, {})):
        return (" (not in the file: the parameters' defaults)" if b.sched.is_generic else
                " (not in the file: generic's values)")
    return ""


def _hint(spec, variant, values):
    """The build's lf_variant.hint: variant.hint(values), 0 without one."""
    if variant.hint is None:
        return 0
    hint = variant.hint(values)
    if not isinstance(hint, int) or not 0 <= hint < 2**32:
        raise ValueError("%s.%s: hint %r is not a uint32_t" % (spec.name, variant.name, hint))
    return hint


def build_all(only=None, sched_root=schedule.ROOT):
    """Return ({relpath: text}, manifest dict)."""
    env = emit.environment()
    scheds = {a: schedule.load_all(a, sched_root) for a in ARCHS}
    for ss in scheds.values():
        for s in ss:
            s.check_against(KERNELS)
    files = {}
    manifest = {"generator": "gen/lfgen", "schedules": {}, "kernels": {}}
    for a, ss in scheds.items():
        manifest["schedules"][a] = [{"name": s.cpu, "file": s.relpath,
                                     "match": _match_text(s), "provenance": s.provenance}
                                    for s in ss]
    outs, extra_symbols = [], set()
    for mod in KERNELS:
        spec = mod.SPEC
        if only and spec.name not in only:
            continue
        kout = _KernelOut(spec)
        mk = manifest["kernels"][spec.name] = {"api": spec.api,
                                               "prototype": spec.prototype(spec.api),
                                               "variants": []}
        for arch in ARCHS:
            # build every variant first: a variant's requirements include its tail targets'
            builds = build_kernel_arch(spec, mod, arch, scheds[arch])
            built = {b.symbol: b.comp for b in builds}
            required = _required_features(spec, built)
            jumped_from = {}
            for sym, c in sorted(built.items()):
                for t in c.tail_targets:
                    jumped_from.setdefault(t, []).append(sym)
            for b in builds:
                v, symbol, values, comp, feats = (b.variant, b.symbol, b.values, b.comp,
                                                  required[b.symbol])
                if not b.sched.is_generic:
                    extra_symbols.add(symbol)
                # x86-64: the Win64 entry (and the body's Win64 form where it differs)
                w64 = win64.flavour(v, symbol, values, spec, built, feats,
                                    jumped_from.get(symbol, ())) if arch == "x86_64" else None
                files[b.relpath] = render_kernel_file(env, spec, b, feats, w64)
                kout.variants[arch].append(_VariantOut(
                    b.entry_name, symbol, feats, "%s/%s" % (arch, b.sched.cpu),
                    emit.mask_expr(feats), emit.features_text(feats),
                    _hint(spec, v, values)))
                mk["variants"].append({
                    "arch": arch, "variant": v.name, "name": b.entry_name, "symbol": symbol,
                    "file": b.relpath, "features": feats, "schedule": b.sched.relpath,
                    "values": dict(values.items()), "callee_saved": _all_saved(comp),
                    "tail_targets": comp.tail_targets})
                if w64:
                    mk["variants"][-1]["win64"] = {
                        "entry": symbol, "body": symbol + "_sysv",
                        "body_external": bool(jumped_from.get(symbol)),
                        "saved": ["rdi", "rsi"] + ["xmm%d" % i for i in w64.xmm],
                        "body_frame_instead_of_red_zone": w64.reframed}
            # the dispatch order of each schedule: its preference, its own builds
            index = {(b.variant.name, b.sched.cpu): i for i, b in enumerate(builds)}
            names = [v.name for v in mod.VARIANTS if v.arch == arch]
            ref = len(builds)
            for s in scheds[arch]:
                idx = [index.get((n, s.cpu), index.get((n, schedule.GENERIC)))
                       for n in s.variant_order(spec, names)]
                kout.orders[arch].append((s.ident, idx + [ref]))
                if not s.is_generic:
                    mk.setdefault("order", {}).setdefault(arch, {})[s.cpu] = \
                        [builds[i].entry_name for i in idx] + ["ref"]
        mk["variants"].append({"arch": "any", "variant": "ref", "name": "ref",
                               "symbol": "lf_%s_ref" % spec.name,
                               "file": "runtime/ref", "features": []})
        outs.append(kout)
    ctx = dict(kernels=outs, archs=ARCHS, arch_macro=emit.ARCH_MACRO,
               schedules={a: [dict(s=s, match=_match_text(s)) for s in scheds[a]]
                          for a in ARCHS})
    files["generated/include/lf_asm.h"] = emit.render(env, "asm/lf_asm.h.j2")
    files["generated/include/lf_kernels.h"] = emit.render(env, "c/lf_kernels.h.j2", **ctx)
    field_files, field_symbols = fields_gen.generate(env, emit.render)
    files.update(field_files)
    extra_symbols.update(field_symbols)
    files["generated/include/limbforge_prefix.h"] = emit.render(
        env, "c/limbforge_prefix.h.j2", symbols=symbols.all_symbols(KERNELS, extra_symbols))
    files["generated/dispatch_table.c"] = emit.render(env, "c/dispatch_table.c.j2", **ctx)
    asm = {a: sorted(f for f in files if f.startswith("generated/%s/" % a)) for a in ARCHS}
    c_sources = sorted(os.path.relpath(p, ROOT) for p in
                       glob.glob(os.path.join(ROOT, "runtime", "*.c")) +
                       glob.glob(os.path.join(ROOT, "runtime", "ref", "*.c")))
    c_sources.append("generated/dispatch_table.c")
    c_sources += sorted(f for f in field_files if f.endswith(".c"))
    files["generated/sources.mk"] = emit.render(env, "mk/sources.mk.j2", archs=ARCHS, asm=asm,
                                                c_sources=c_sources)
    files["generated/sources.json"] = json.dumps(_sources_json(asm, c_sources), indent=1,
                                                 sort_keys=True) + "\n"
    manifest["files"] = {f: hashlib.sha256(files[f].encode()).hexdigest()
                         for f in sorted(files)}
    files["generated/MANIFEST.json"] = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    return files, manifest


def _sources_json(asm, c_sources):
    """What a Make, CMake or Meson build needs, without Python (paths relative to the
    directory that holds generated/ and runtime/)."""
    return {
        "about": "limbforge sources for builds without the generator; paths are relative to "
                 "the directory holding generated/ and runtime/",
        "include_dirs": ["runtime/include", "runtime", "generated/include"],
        "c_sources": c_sources,
        "c_standard": "c11",
        "asm": {a: {"files": asm[a], "language": "assembler-with-cpp (.S)",
                    "flavours": ["elf", "macho"] + (["win64"] if a == "x86_64" else [])}
                for a in ARCHS},
        "flavours": {
            "elf": "Linux, BSD: -target *-linux-gnu or the native gcc/clang",
            "macho": "macOS: clang -target x86_64-apple-macos11 / arm64-apple-macos11",
            "win64": "Windows x86-64 (PE/COFF, Microsoft x64 calling convention): the same "
                     "x86_64 files; mingw-w64 gcc, clang -target x86_64-w64-mingw32 or "
                     "x86_64-pc-windows-msvc (lf_asm.h switches on _WIN32/__CYGWIN__)",
        },
        "defines": {
            "LF_PREFIX": "optional, e.g. myproj_: renames every symbol (C and assembly)",
            "LF_EXPORT_KERNELS": "optional: export the lf_<kernel>_<variant> symbols "
                                 "(hidden by default)",
        },
        "public_header": "runtime/include/limbforge.h",
    }


def _existing():
    out = set()
    for p in glob.glob(os.path.join(ROOT, "generated", "**", "*"), recursive=True):
        if os.path.isfile(p):
            out.add(os.path.relpath(p, ROOT))
    return out


def write(files):
    changed = []
    for rel, text in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old != text:
            with open(path, "w") as f:
                f.write(text)
            changed.append(rel)
    stale = sorted(_existing() - set(files))
    for rel in stale:
        os.remove(os.path.join(ROOT, rel))
    return changed, stale


def check(files):
    diffs = []
    for rel, text in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            diffs.append("missing " + rel)
            continue
        with open(path) as f:
            if f.read() != text:
                diffs.append("differs " + rel)
    for rel in sorted(_existing() - set(files)):
        diffs.append("stale " + rel)
    return diffs


def main(argv):
    try:
        return _main(argv)
    except (ScheduleError, BoundError) as e:    # a description the generator refuses
        print("lfgen: %s" % e, file=sys.stderr)
        return 1


def _main(argv):
    cmd = argv[0] if argv else "gen"
    if cmd == "gen":
        files, _ = build_all()
        changed, stale = write(files)
        print("lfgen: %d files, %d rewritten, %d stale removed"
              % (len(files), len(changed), len(stale)))
        for c in changed:
            print("  wrote", c)
        for s in stale:
            print("  removed", s)
        return 0
    if cmd == "check":
        files, _ = build_all()
        diffs = check(files)
        for d in diffs:
            print("lfgen check:", d)
        if diffs:
            print("generated/ is not what the generator produces: run `make gen` and commit")
            return 1
        print("lfgen check: generated/ matches the generator (%d files)" % len(files))
        return 0
    if cmd == "tune":
        from .tune import cli
        return cli.main(argv[1:])
    if cmd == "list":
        _, manifest = build_all()
        for k, m in sorted(manifest["kernels"].items()):
            for v in m["variants"]:
                print("%-22s %-8s %-10s %s" % (k, v["arch"], v["variant"],
                                               " ".join(v["features"]) or "-"))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
