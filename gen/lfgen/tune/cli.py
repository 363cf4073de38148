"""`python3 -m lfgen tune` (make tune): the command line, progress, budget and outputs.

    --arch x86_64|aarch64        default: this machine's
    --cpu native                 this host, by timing (only for the host's architecture)
    --cpu NAME[,NAME...]         CPU models (cpus.py), by llvm-mca-19; "models": all of the
                                 architecture's; "generic": the fallback schedule
    --kernel K[,K...]            only these kernels (the schedule file keeps the others')
    --budget SECONDS             stop measuring after this long (0: no limit); rerun resumes
    --fresh                      forget earlier measurements of this arch/cpu
    --quick                      shorter timing runs (31 rounds of 5 us batches)
    --top N                      loop candidates kept by the model for timing (default 8)
    exit status 0: every schedule (or "generic is what the model prefers") written; 3: the
    budget ran out before the search ended (nothing written; run again to resume); 4: a model
    run met a schedule measured on the CPU itself (nothing written for it)
    --check-space                no tuning: build every schedule one parameter away from
                                 generic's (each other choice of each parameter) for every
                                 variant and check each against ref (make test-space)
"""

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import time
import tomllib

from .. import main as gen, mca, schedule
from ..kernels import ALL as KERNELS
from . import cpus as cpumod, output, search
from .runner import Runner
from .state import State

ROOT = gen.ROOT
# exit status of a run that published nothing (it says why): the budget ran out (run again
# to resume), or a model run met a schedule measured on the CPU itself
INCOMPLETE = 3
REFUSED = 4


SOURCES = {
    "kernels": ["gen/lfgen/kernels/*.py", "gen/lfgen/kernel.py", "gen/lfgen/sched.py"],
    "x86_64 builder": ["gen/lfgen/x86/*.py"],
    "aarch64 builder": ["gen/lfgen/a64/*.py"],
    "templates": ["templates/asm/*"],
    "bench harness": ["bench/*.c", "bench/*.h"],
}


def _source_hashes(arch):
    """{what: hash} of what the measurements depend on: the kernels, this arch's builder,
    the templates, the bench harness, and generic's values (not its provenance, which every
    run rewrites)."""
    out = {}
    for what, pats in SOURCES.items():
        if what.endswith("builder") and not what.startswith(arch):
            continue
        h = hashlib.sha256()
        for pat in pats:
            for p in sorted(glob.glob(os.path.join(ROOT, pat))):
                with open(p, "rb") as f:
                    h.update(os.path.relpath(p, ROOT).encode() + b"\0" + f.read())
        out[what] = h.hexdigest()[:16]
    g = schedule.load(arch)
    out["generic values"] = hashlib.sha256(json.dumps(
        [g.tables, g.order], sort_keys=True).encode()).hexdigest()[:16]
    return out


def _tool_version(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def main(argv):
    ap = argparse.ArgumentParser(prog="lfgen tune", description=__doc__.split("\n")[0])
    host_arch = os.uname().machine.replace("arm64", "aarch64")
    ap.add_argument("--arch", default=host_arch, choices=gen.ARCHS)
    ap.add_argument("--cpu", default=None)
    ap.add_argument("--kernel", action="append", default=[])
    ap.add_argument("--budget", type=float, default=1800)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--check-space", action="store_true")
    a = ap.parse_args(argv)
    if a.check_space:
        return check_space(a)
    cpu = a.cpu or ("native" if a.arch == host_arch else "models")
    names = cpumod.models(a.arch) if cpu == "models" else cpu.split(",")
    for name in names:                  # every name checked before anything runs
        if name == "native" and a.arch != host_arch:
            sys.exit("lfgen tune: CPU=native times this host; it cannot tune %s here "
                     "(name a model: %s)" % (a.arch, ", ".join(cpumod.models(a.arch))))
        if name not in ("native", "generic") and (
                name not in cpumod.MODELS or cpumod.MODELS[name][0] != a.arch):
            sys.exit("lfgen tune: no %s model %r (have: %sgeneric, models, %s)" % (
                a.arch, name, "native, " if a.arch == host_arch else "",
                ", ".join(cpumod.models(a.arch))))
    kernels = {k for x in a.kernel for k in x.split(",") if k}
    unknown = kernels - {m.SPEC.name for m in KERNELS}
    if unknown:
        sys.exit("lfgen tune: no kernel %s (have: %s)" % (
            ", ".join(sorted(unknown)), ", ".join(m.SPEC.name for m in KERNELS)))
    try:
        results = [tune_one(a, name, kernels, host_arch) for name in names]
    except KeyboardInterrupt:
        print("\nlfgen tune: interrupted; what was measured is kept in build/tune/ -- the "
              "same command resumes (TUNE_ARGS=--fresh starts over)", file=sys.stderr)
        return 130
    status = max(r[3] for r in results)
    results = [r[:3] for r in results]
    if len(results) > 1 and status == 0:
        path = os.path.join(ROOT, "bench", "results", "tune-%s-models.md" % a.arch)
        with open(path, "w") as f:
            f.write(output.summary_text(a.arch, results))
        print("summary: %s" % os.path.relpath(path, ROOT))
    return status


def tune_one(a, cpu, kernels, host_arch):
    t0 = time.monotonic()

    def log(msg):
        print("[%6.1fs] %s" % (time.monotonic() - t0, msg), flush=True)

    if cpu == "native":
        host = cpumod.host()
        mode, match = "native", host.match
        name = host.llvm_name or "native"
        model_cpus = [host.llvm_name] if host.llvm_name else []
        ident = host.describe()
    elif cpu == "generic":
        mode, match, name = "generic", None, "generic"
        model_cpus = cpumod.models(a.arch)
        ident = "the fallback for CPUs without a schedule: worst case over %s" % \
            ", ".join(model_cpus)
    else:
        mode, match, name, model_cpus = "model", cpumod.match_table(cpu), cpu, [cpu]
        ident = "llvm-mca model %s; identified at run time by %s" % (cpu, "; ".join(
            "%s = %s" % (k, v if isinstance(v, str) else "[%s]" % ", ".join(
                "[%s]" % ", ".join("%#x" % x for x in pair) for pair in v))
            for k, v in match.items()))
    work = os.path.join(ROOT, "build", "tune", "%s-%s" % (a.arch, name))
    meta = dict({"arch": a.arch, "cpu": name, "mode": mode, "quick": a.quick},
                **_source_hashes(a.arch))
    spath = os.path.join(work, "state-%s%s.json" % (mode, "-quick" if a.quick else ""))
    if a.fresh and os.path.exists(spath):
        os.remove(spath)
    state = State(spath, meta)
    if state.discarded:
        log("starting over: %s" % state.discarded)
    log("tuning %s for %s (%s): %s; %d earlier results in %s" % (
        a.arch, name, mode, ident, len(state), os.path.relpath(state.path, ROOT)))
    runner = Runner(a.arch, work, log, quick=a.quick)
    log("building the library objects and the bench harness (make tune-prep)")
    runner.prepare()
    tuner = search.Tuner(runner, state, a.arch, mode, model_cpus, log,
                         budget=a.budget or None, top=a.top, pins=_pins(a.arch, name, log))
    complete = True
    mods = [m for m in KERNELS if not kernels or m.SPEC.name in kernels]
    def account(kname, before, k0):
        """This kernel's share of the counts and the time (kept with its record)."""
        rec = tuner.records.get(kname)
        if rec is not None:
            rec["counts"] = {k: tuner.counts[k] - before[k] for k in tuner.counts}
            rec["seconds"] = time.monotonic() - k0

    try:
        for mod in mods:
            log("== %s" % mod.SPEC.name)
            before, k0 = dict(tuner.counts), time.monotonic()
            try:
                tuner.tune_kernel(mod)
            finally:
                account(mod.SPEC.name, before, k0)
    except search.OutOfBudget:
        complete = False
        log("budget of %.0f s reached; measurements kept in %s -- run again to resume"
            % (a.budget, os.path.relpath(state.path, ROOT)))
    elapsed = time.monotonic() - t0
    log("%d steps measured now, %d taken from earlier runs" % (
        tuner.counts["measured_now"], state.reused))
    status = write_outputs(a, name, mode, match, ident, tuner, runner, complete, elapsed, mods)
    return name, mode, tuner.records, status


def _pins(arch, name, log):
    """The values the schedule file being rewritten pins ([pinned]): {(kernel, variant):
    ({param: value}, {param: reason})}, kept by the search and written back."""
    path = os.path.join(schedule.ROOT, arch, name + ".toml")
    if not os.path.exists(path):
        return {}
    s = schedule.load(arch, name)
    s.check_against(KERNELS)                    # a pin of no kernel or parameter: one line
    g = s if s.is_generic else schedule.load(arch)
    pins = {}
    for kv, reasons in s.pinned.items():
        kname, _, vname = kv.partition(".")
        mod = next(m for m in KERNELS if m.SPEC.name == kname)
        v = next(x for x in mod.VARIANTS if x.arch == arch and x.name == vname)
        values = s.values(mod.SPEC, v, None if s.is_generic else g)
        pins[(kname, vname)] = ({p: getattr(values, p) for p in reasons}, dict(reasons))
        log("%s.%s: %s pinned by %s" % (kname, vname, ", ".join(
            "%s = %s" % (p, getattr(values, p)) for p in reasons), s.relpath))
    return pins


def _figures(mode, records):
    parts = []
    for k, r in records.items():
        if mode == "native":
            if r.get("figure"):
                f, t = r["figure"], r["figure_typical"]
                cyc = output.cycles_text(r)
                parts.append("%s %.3fx generic [%.3f, %.3f] at the typical sizes%s, %.3fx over "
                             "all %d tuned sizes, worst size %s %.3fx (%s vs %s)" % (
                                 k, t["ratio"], t["low"], t["high"],
                                 " (core cycles per unit: %s)" % cyc if cyc else "", f["ratio"],
                                 len(f["sizes"]), r["figure_worst"][0], r["figure_worst"][1],
                                 r["figure_from"]["tuned"], r["figure_from"]["generic"]))
            else:
                parts.append("%s 1.000x (generic kept)" % k)
            continue
        for vn, vr in r["variants"].items():
            for ph in vr.get("phases", []):
                if "incumbent_score" not in ph:
                    continue
                win = next((c for c in ph["candidates"] if c["values"] == ph.get("winner")),
                           None)
                unit = "worst-case ratio" if mode == "generic" else "cycles/unit"
                base = "kernel defaults" if mode == "generic" else "generic"
                parts.append("%s.%s %s: %s %s, tuned %s" % (
                    k, vn, unit, base, output._num(ph["incumbent_score"]),
                    output._num(win["score"]) if win else "= " + base))
        if r["order"] != r["generic_order"]:
            parts.append("%s order %s" % (k, ",".join(r["order"])))
    return "; ".join(parts)


def _earlier(path, mode, tuned):
    """{kernel: record} of the earlier run's JSON for the kernels this run did not tune (a
    run limited to some kernels keeps the others' records, figures and counts)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        old = json.load(f)
    if old.get("mode") != mode:
        return {}
    return {k: r for k, r in old.get("records", {}).items() if k not in tuned}


def write_outputs(a, name, mode, match, ident, tuner, runner, complete, elapsed, mods):
    path = os.path.join(schedule.ROOT, a.arch, name + ".toml")
    rdir = os.path.join(ROOT, "bench", "results")
    stem = os.path.join(rdir, "tune-%s-%s" % (a.arch, name))
    tuned = [m.SPEC.name for m in mods]
    records = dict(_earlier(stem + ".json", mode, tuned) if complete else {})
    records.update(tuner.records)
    order = [m.SPEC.name for m in KERNELS]
    records = {k: records[k] for k in sorted(records, key=order.index)}
    if mode == "generic":
        for m in mods:
            r = records.get(m.SPEC.name)
            if r:
                r["generic_order"] = [v.name for v in m.VARIANTS if v.arch == a.arch]
    # what this run may publish: a complete search; a model never replaces a measurement
    measured = False
    if mode == "model" and os.path.exists(path):
        with open(path, "rb") as f:
            measured = tomllib.load(f).get("provenance", {}).get(
                "method", "").startswith("make tune CPU=native")
    publish = complete and not measured
    # a resumed run may take every model figure from the state file: llvm-mca was still used
    mca_v = runner.mca_version() if runner.llvm_mca or mode != "native" or \
        tuner.counts.get("modelled") else "not used"
    cc = mca.cross_cc(a.arch)
    methods = {
        "native": "make tune CPU=native: loop parameters pruned by llvm-mca (-mcpu=%s) when "
                  "more than %d, then checked against ref and timed against the incumbent "
                  "with limbforge-bench (round-robin, paired ratios, notch rule, a winner "
                  "must win again in %d fresh processes); size parameters one at a time, "
                  "timed at their own sizes; variant order timed%s"
                  % (",".join(tuner.cpus) or "none", tuner.top, tuner.CONFIRM_RUNS,
                     " (--quick: 31 rounds of 5 us batches)" if a.quick else ""),
        "model": "make tune CPU=%s: llvm-mca model of the marked loops, lowest cycles per "
                 "unit of work taken when >= %d%% below generic's and correct against ref; "
                 "size parameters keep generic's values (pinned ones their pins)"
                 % (name, round(100 * tuner.tie)),
        "generic": "make tune CPU=generic: llvm-mca over %s, the candidate with the least "
                   "worst-case ratio to each model's best taken when >= %d%% below the "
                   "incumbent's; size parameters keep the kernels' defaults or earlier values"
                   % (", ".join(tuner.cpus), round(100 * tuner.tie)),
    }
    counts = {k: sum(r.get("counts", {}).get(k, 0) for r in records.values())
              for k in output.COUNT_KEYS}
    seconds = sum(r.get("seconds", 0) for r in records.values())
    prov = {"cpu": name, "method": methods[mode], "date": output.today(),
            "figures": _figures(mode, records) or "none",
            "identification": ident,
            "tools": "%s; %s; limbforge-bench" % (mca_v, _tool_version([cc, "--version"])),
            "candidates": output.candidates_text(counts),
            "kernels": ", ".join(records),
            "complete": complete,
            "seconds": int(seconds if publish else elapsed)}
    if not publish:                     # the report goes beside the state, not into results
        stem = os.path.join(ROOT, "build", "tune", "%s-%s" % (a.arch, name), "report-" + mode)
    os.makedirs(os.path.dirname(stem), exist_ok=True)
    meta = {"identification": ident, "method": prov["method"], "date": prov["date"],
            "tools": prov["tools"], "kernels": prov["kernels"],
            "seconds": "%d%s" % (int(seconds if publish else elapsed),
                                 " over the runs that measured these kernels"
                                 if publish and len(records) > len(mods) else
                                 " (budget: %s s of measuring)" % (int(a.budget) or "none"))}
    with open(stem + ".md", "w") as f:
        f.write(output.report_text(a.arch, name, mode, meta, records, counts, complete))
    with open(stem + ".json", "w") as f:
        json.dump({"arch": a.arch, "cpu": name, "mode": mode, "provenance": prov,
                   "records": records}, f, indent=1)
        f.write("\n")
    png = output.plot(stem + ".png", a.arch, name, mode, records)
    if not png and os.path.exists(stem + ".png"):
        os.remove(stem + ".png")        # never a picture of another run beside the report
    print("report: %s%s" % (os.path.relpath(stem + ".md", ROOT),
                            " and .json, .png" if png else " and .json"))
    if not complete:
        print("schedule not written: the search is incomplete (run make tune again)")
        return INCOMPLETE
    if measured:
        print("%s holds a schedule measured on a %s host; a model does not replace a "
              "measurement (remove the file to force it); the model's report is in %s"
              % (os.path.relpath(path, ROOT), name, os.path.relpath(stem + ".md", ROOT)))
        return REFUSED
    _merge_untuned(path, records, mods)
    _apply_pins(records, tuner.pins)
    defaults = None
    if mode == "generic":
        defaults = {"%s.%s" % (m.SPEC.name, v.name): {k: p.default for k, p in v.params.items()}
                    for m in KERNELS for v in m.VARIANTS if v.arch == a.arch}
    differs = any(r["order"] != r["generic_order"] or any(
        vr["final"] != vr["generic"] for vr in r["variants"].values())
        for r in records.values())
    if mode == "model" and not differs and not tuner.pins:
        print("%s: generic is already what the model prefers; no schedule file written" % name)
        if os.path.exists(path):
            os.remove(path)
            print("removed the earlier %s" % os.path.relpath(path, ROOT))
        return 0
    text = output.schedule_text(a.arch, name, match, prov, records, defaults, tuner.pins)
    tomllib.loads(text)                          # what we write must read back
    with open(path, "w") as f:
        f.write(text)
    print("schedule: %s (generated/ is regenerated next; run `make test` before committing)"
          % os.path.relpath(path, ROOT))
    return 0


def _apply_pins(records, pins):
    """The pinned values in every record the file is written from: those of kernels this run
    did not tune (records of an earlier run's report, which may predate the pin) and of
    variants it could not run here (their records hold generic's values)."""
    for (kname, vname), (values, reasons) in pins.items():
        rec = records.setdefault(kname, {"variants": {}, "order": [], "generic_order": []})
        vr = rec["variants"].setdefault(vname, {"generic": {}, "final": {}, "phases": []})
        vr["final"] = dict(vr["final"], **values)
        vr["pinned"] = dict(reasons)


def _merge_untuned(path, records, mods):
    """A run limited to some kernels keeps what the file holds for the others."""
    if not os.path.exists(path):
        return
    with open(path, "rb") as f:
        old = tomllib.load(f)
    tuned = {m.SPEC.name for m in mods}
    for k, tables in old.items():
        if k in ("provenance", "match", "pinned") or k in tuned:     # pinned: Tuner.pins
            continue
        if k == "order":
            for kn, order in tables.items():
                if kn not in tuned:
                    records.setdefault(kn, {"variants": {}, "generic_order": [],
                                            "order": order})["order"] = order
            continue
        rec = records.setdefault(k, {"variants": {}, "order": [], "generic_order": []})
        for vn, vals in tables.items():
            if vn not in rec["variants"]:      # a record from the report's JSON is whole
                rec["variants"][vn] = {"generic": {}, "final": dict(vals), "phases": []}


def check_space(a):
    """Every single-parameter move from generic's values, built and checked against ref:
    the points the tuner reaches first must all be correct (a builder may refuse a point,
    e.g. out of registers; that is reported, not a failure)."""
    from .runner import Candidate
    from . import space
    t0 = time.monotonic()
    work = os.path.join(ROOT, "build", "tune", "%s-space" % a.arch)
    runner = Runner(a.arch, work, print, quick=True)
    runner.prepare()
    kernels = {k for x in a.kernel for k in x.split(",") if k}
    bad = refused = checked = 0
    for mod in KERNELS:
        if kernels and mod.SPEC.name not in kernels:
            continue
        generic = runner.generic_builds(mod)
        sib = {n: b.symbol for n, b in generic.items()}
        for v in [v for v in mod.VARIANTS if v.arch == a.arch]:
            base = dict(generic[v.name].values.items())
            cands = [Candidate(m) for p in sorted(v.params) for m in space.moves(v, base, p)]
            runner.build(mod, v, cands, sib)
            for c in cands:
                if c.error:
                    refused += 1
                    print("  %s.%s {%s}: the builder refuses: %s" % (
                        mod.SPEC.name, v.name, space.key(c.values), c.error))
            ok = [c for c in cands if c.build]
            for i in range(0, len(ok), 32):
                part = ok[i:i + 32]
                names = ["%s#%d" % (v.name, i + j) for j in range(len(part))]
                d, _ = runner.batch(mod, list(zip(names, [c.build for c in part])))
                res = runner.check(d, mod.SPEC.name, names)
                for n, c in zip(names, part):
                    checked += 1
                    if res[n]:
                        bad += 1
                        print("FAIL %s.%s {%s}: %s" % (mod.SPEC.name, v.name,
                                                       space.key(c.values), res[n]))
            print("%s.%s: %d schedules one move from generic checked against ref" % (
                mod.SPEC.name, v.name, len(ok)))
    print("check-space %s: %d checked, %d refused by the builder, %d wrong (%.0f s)" % (
        a.arch, checked, refused, bad, time.monotonic() - t0))
    return 1 if bad else 0
