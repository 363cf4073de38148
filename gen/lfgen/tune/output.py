"""What a tuning run leaves: gen/schedules/<arch>/<cpu>.toml and bench/results/tune-<arch>-<cpu>
.md + .png.

The schedule file lists only where the CPU differs from generic (a CPU file falls back to
generic's values, schedule.py); its [provenance] says what was measured, how, when and with
which tools, the figure for the winner and for generic, and how many candidates were tried.
Python's tomllib only reads TOML; the writer here covers what a schedule holds (strings,
integers, booleans, lists of them, one level of [table] and [kernel.variant])."""

import datetime
import json
import os

from . import space

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError("no TOML for %r" % (v,))


def toml_text(header, tables):
    """`tables`: [(name, {key: value}, comment or None)] in order."""
    out = [l if l.startswith("#") else "# " + l for l in header]
    for name, kv, comment in tables:
        out.append("")
        if comment:
            out += ["# " + l for l in comment.splitlines()]
        out.append("[%s]" % name)
        for k, v in kv.items():
            out.append("%s = %s" % (k, _toml_value(v)))
    return "\n".join(out) + "\n"


def _hex_pairs(pairs):
    return "[" + ", ".join("[" + ", ".join("0x%x" % x for x in p) + "]" for p in pairs) + "]"


def schedule_text(arch, cpu, match, provenance, records, defaults=None, pins=None):
    """The schedule file's text.  `records`: Tuner.records.  A CPU's file lists the values
    that differ from generic's; generic's own file (`defaults` given: {"k.v": {param:
    default}}) those that differ from the kernels' defaults.  `pins` (Tuner.pins, from the
    file's [pinned]) are written back as they came, their values always listed."""
    tables = [("provenance", provenance, None)]
    if match is not None:
        m = dict(match)
        tables.append(("match", m, "the CPUs this schedule is for (runtime/schedule.c)"))
    order = {k: r["order"] for k, r in records.items() if r["order"] != r["generic_order"]}
    if order:
        tables.append(("order", order, "variants in this CPU's order of preference"))
    pins = pins or {}
    for (kname, vname), (_, reasons) in sorted(pins.items()):
        tables.append(('pinned."%s.%s"' % (kname, vname), dict(sorted(reasons.items())),
                       "set by hand: `make tune` keeps these values (in [%s.%s]) and searches "
                       "the others around them" % (kname, vname)))
    for kname, r in records.items():
        for vname, vr in r["variants"].items():
            ref = vr["generic"] if defaults is None else defaults["%s.%s" % (kname, vname)]
            pinned = pins.get((kname, vname), ({}, {}))[0]
            diff = {k: v for k, v in sorted(vr["final"].items())
                    if ref.get(k) != v or k in pinned}
            if diff:
                tables.append(("%s.%s" % (kname, vname), diff, _variant_comment(vr)))
    text = toml_text(["Schedule for %s (%s), written by `make tune` (gen/lfgen/tune); "
                      "regenerate with it rather than by hand." % (cpu, arch),
                      "Values not listed here take generic's (gen/schedules/%s/generic.toml)."
                      % arch if cpu != "generic" else
                      "Values not listed take the kernel's defaults."], tables)
    # integers of the [match] table in hex, as the manuals write them
    if match is not None:
        for key in ("family_model", "implementer_part"):
            if key in match:
                text = text.replace("%s = %s" % (key, _toml_value(match[key])),
                                    "%s = %s" % (key, _hex_pairs(match[key])))
    return text


def _variant_comment(vr):
    lines = []
    for ph in vr.get("phases", []):
        if ph.get("winner"):
            fig = ("timed, then in fresh processes %s the incumbent" % _confirms(ph)) \
                if ph.get("confirm") else "modelled"
            moved = {k: v for k, v in ph["winner"].items() if ph["incumbent"].get(k) != v}
            lines.append("%s: %s (%s)" % (ph["phase"], space.key(moved), fig))
    if vr.get("pinned"):
        lines.append("pinned: %s ([pinned])" % ", ".join(sorted(vr["pinned"])))
    return "\n".join(lines) or None


# ---- the report ----------------------------------------------------------------------------

def _est(d):
    return "%.3f [%.3f, %.3f]" % (d["ratio"], d["low"], d["high"]) if d else "-"


def _confirms(ph):
    """The confirmation runs of a phase's winner: '1.118x, 1.117x'."""
    runs = ph.get("confirm_runs") or [ph["confirm"]]
    return ", ".join("%.3fx" % e["ratio"] for e in runs)


COUNT_KEYS = ("candidates", "rejected_build", "rejected_check", "modelled", "timed")


def candidates_text(counts):
    return ("%d candidates: %d refused by the builder, %d wrong against ref; %d llvm-mca "
            "runs, %d timed" % tuple(counts.get(k, 0) for k in COUNT_KEYS))


def report_text(arch, cpu, mode, meta, records, counts, complete):
    L = ["# `make tune`: %s, %s" % (arch, cpu), ""]
    for k, v in meta.items():
        L.append("- **%s**: %s" % (k, v))
    L.append("- **candidates**: %s" % candidates_text(counts))
    if not complete:
        L.append("- **INCOMPLETE**: the budget ran out; run `make tune` again to resume")
    L.append("")
    if mode == "native":
        L += ["Timing: paired ratios incumbent/candidate per round (> 1: the candidate is "
              "faster), geometric mean over the sizes, with the notch interval (noise.py). "
              "A candidate wins when the interval is above 1 and the figure >= 1.01; a winner "
              "must win again in two fresh processes, with no size more than 2% slower in two "
              "of the three runs (noise.confirmed).", ""]
    else:
        L += ["llvm-mca-19 cycles per unit of work (limb, word or digit product) of each "
              "marked loop region, geometric mean over the regions -- a MODEL, not a "
              "measurement.%s" % (" Score: the worst ratio over the models to the best "
                                  "candidate on that model (least regret)." if mode == "generic"
                                  else ""), ""]
    for kname, r in records.items():
        L.append("## %s" % kname)
        L.append("")
        if r.get("figure"):
            f = r["figure"]
            L.append("**Figure**: tuned %s against generic %s: **%s** at the kernel's typical "
                     "sizes (%s); %s over every size tuned (%s); worst size %s: %.3f (median "
                     "of %d runs in fresh processes)"
                     % (r["figure_from"]["tuned"], r["figure_from"]["generic"],
                        _est(r["figure_typical"]),
                        ", ".join(str(x[0]) for x in r["figure_typical"]["sizes"]), _est(f),
                        ", ".join(str(s) for s in r.get("figure_sizes", [])),
                        r["figure_worst"][0], r["figure_worst"][1], len(r["figure_runs"])))
            if cycles_text(r):
                L.append("")
                L.append("Core cycles per unit of length at the typical sizes (geometric mean, "
                         "the median run): %s." % cycles_text(r))
            L.append("")
            L.append("| size | ratio generic/tuned | p25 | p75 |")
            L.append("|---:|---:|---:|---:|")
            for s, med, p25, p75, n in f["sizes"]:
                L.append("| %s | %.3f | %.3f | %.3f |" % (s, med, p25, p75))
            L.append("")
        elif r.get("figure_note"):
            L += ["**Figure**: %s." % r["figure_note"], ""]
        if r["order"] != r["generic_order"]:
            L += ["**Variant order**: %s (generic: %s)" % (", ".join(r["order"]),
                                                          ", ".join(r["generic_order"])), ""]
        if r.get("order_model"):
            L.append("Variant order by the modelled main loop (cycles per unit%s):" %
                     (", worst-case ratio" if mode == "generic" else ""))
            L.append("")
            for n, o in r["order_model"].items():
                L.append("- %s: %s" % (n, "-" if o["score"] is None else "%.3f" % o["score"]))
            L.append("")
        if r.get("order_note"):
            L += ["Variant order: %s." % r["order_note"], ""]
        if r.get("order_phase"):
            ph = r["order_phase"]
            L.append("Variant order, timed against %s: %s" % (ph["first"], "; ".join(
                "%s %s %s" % (c["variant"], _est(c["estimate"]), c["status"])
                for c in ph["candidates"])))
            L.append("")
        for vname, vr in r["variants"].items():
            L.append("### %s.%s" % (kname, vname))
            L.append("")
            if vr.get("skipped"):
                L += ["Skipped: %s." % vr["skipped"], ""]
                continue
            changed = {k: v for k, v in vr["final"].items() if vr["generic"].get(k) != v}
            L.append("Generic: `%s`; tuned: `%s`" % (space.key(vr["generic"]),
                                                      space.key(changed) or "same as generic"))
            L.append("")
            for ph in vr["phases"]:
                L.append("**%s**%s%s" % (ph["phase"], (" at sizes %s" % ", ".join(
                    str(s) for s in ph["sizes"])) if ph.get("sizes") else "",
                    (", model %s" % ", ".join(ph["cpus"])) if ph.get("cpus") else ""))
                if ph.get("pruned_by_model"):
                    L.append("(%d candidates pruned by llvm-mca -mcpu=%s before timing)"
                             % (ph["pruned_by_model"], ph["model_cpu"]))
                L.append("")
                L.append("| candidate | status | figure |")
                L.append("|---|---|---|")
                if "incumbent_score" in ph:
                    L.append("| `%s` (incumbent) | | %s |" % (
                        space.key(ph["incumbent"]), _num(ph["incumbent_score"])))
                for c in ph["candidates"]:
                    fig = (_est(c["estimate"]) if c.get("estimate") else
                           _num(c.get("score")) if "score" in c else c.get("detail", ""))
                    L.append("| `%s` | %s | %s |" % (space.key(c["values"]), c["status"], fig))
                for nb in ph.get("not_built", []):
                    L.append("| `%s` | does not build | %s |" % (space.key(nb["values"]),
                                                               nb["detail"]))
                if ph.get("winner"):
                    L.append("")
                    L.append("Winner: `%s`%s" % (space.key(ph["winner"]), (
                        ", again in fresh processes: %s" % _confirms(ph))
                        if ph.get("confirm") else ""))
                L.append("")
    return "\n".join(L) + "\n"


def cycles_text(r):
    """'generic 1.452, tuned 1.300' from a native record's figure_cycles, or ''."""
    c = r.get("figure_cycles") or {}
    if c.get("generic") is None or c.get("tuned") is None:
        return ""
    return "generic %.3f, tuned %.3f" % (c["generic"], c["tuned"])


def summary_text(arch, results):
    """One table over several CPUs tuned in one run: per kernel the variant each CPU runs
    first and its modelled main-loop cost, per variant the values that differ from generic.
    For bi_mul_add on AArch64 this is the JDK-8186915 question -- 32-bit multiplies (w32:
    umaddl per word; w64: umaddl pairs on a 64-bit carry chain) or 64-bit ones (x64: mul/umulh
    on word pairs) -- answered per CPU."""
    cpus_ = [r[0] for r in results]
    L = ["# `make tune` over %s models (%s)" % (arch, ", ".join(cpus_)), "",
         "llvm-mca-19 models, not measurements.  Per kernel: the variant each CPU's schedule "
         "runs first, and each variant's modelled main-loop cost (core cycles per unit of "
         "work: limb, word or digit product) at its tuned values; `*` marks the first.", ""]
    kernels = []
    for _, _, rec in results:
        for k in rec:
            if k not in kernels:
                kernels.append(k)
    for k in kernels:
        L += ["## %s" % k, "", "| variant | " + " | ".join(cpus_) + " |",
              "|---|" + "---:|" * len(cpus_)]
        variants = []
        for _, _, rec in results:
            for v in rec.get(k, {}).get("variants", {}):
                if v not in variants:
                    variants.append(v)
        for v in variants:
            cells = []
            for _, _, rec in results:
                r = rec.get(k, {})
                om = r.get("order_model", {}).get(v)
                first = r.get("order", [None])[0] == v
                cells.append(("%.3f" % om["score"] if om and om["score"] else "-") +
                             ("*" if first else ""))
            L.append("| %s | %s |" % (v, " | ".join(cells)))
        L.append("")
        for v in variants:
            tuned = []
            for name, _, rec in results:
                vr = rec.get(k, {}).get("variants", {}).get(v)
                if vr:
                    diff = {p: x for p, x in vr["final"].items() if vr["generic"].get(p) != x}
                    if diff:
                        tuned.append("%s: `%s`" % (name, space.key(diff)))
            L.append("- %s.%s values: %s" % (k, v, "; ".join(tuned) or "generic's on every "
                                                                        "model"))
        L += _answer(k, variants, results)
        L.append("")
    return "\n".join(L) + "\n"


def _answer(kname, variants, results):
    """The kernel's design question (KernelSpec.question), answered per CPU by the variant
    its schedule runs first, with the modelled cost beside the best of the others."""
    from ..kernels import ALL
    spec = next((m.SPEC for m in ALL if m.SPEC.name == kname), None)
    if spec is None or not spec.question:
        return []
    title, labels = spec.question
    L = ["", "**%s** Per CPU, by model:" % title, ""]
    for name, _, rec in results:
        r = rec.get(kname, {})
        first = r.get("order", [None])[0]
        cost = {v: (r.get("order_model", {}).get(v) or {}).get("score") for v in variants}
        others = sorted((c, v) for v, c in cost.items() if v != first and c)
        L.append("- %s: **%s** -- %s%s" % (
            name, first, labels.get(first, "?"),
            " (%.3f against %s %.3f)" % (cost[first], others[0][1], others[0][0])
            if cost.get(first) and others else ""))
    return L


def _num(x):
    return "-" if x is None else "%.3f" % x


def plot(path, arch, cpu, mode, records):
    """One panel per tuned variant: each candidate's figure, the winner highlighted."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    panels = []
    for kname, r in records.items():
        for vname, vr in r["variants"].items():
            pts = []
            for ph in vr.get("phases", []):
                for c in ph["candidates"]:
                    if c.get("estimate"):
                        y = c["estimate"]["ratio"]
                    elif c.get("score") is not None:
                        y = 1.0 / c["score"] if mode == "generic" else None
                        if mode != "generic":
                            mm = next(iter(c["model"].values()))
                            inc = next(iter(ph["incumbent_model"].values()))
                            y = (inc["metric"] / mm["metric"]) if mm.get("metric") and \
                                inc.get("metric") else None
                    else:
                        continue
                    if y:
                        pts.append((ph["phase"], space.key(c["values"]), y,
                                    ph.get("winner") == c["values"]))
            if pts:
                panels.append(("%s.%s" % (kname, vname), pts))
    if not panels:
        return False
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 2.2 * len(panels) + 0.6),
                             squeeze=False)
    for ax, (title, pts) in zip(axes[:, 0], panels):
        xs = range(len(pts))
        ax.bar(xs, [p[2] for p in pts], color=["tab:red" if p[3] else "tab:blue" for p in pts])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("x incumbent" if mode == "native" else "modelled x", fontsize=8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(["%s\n%s" % (p[0], p[1].replace(",", "\n")) for p in pts],
                           fontsize=5)
    fig.suptitle("make tune %s %s (%s): candidates against the incumbent (> 1 better; red: "
                 "taken)" % (arch, cpu, "timed" if mode == "native" else "llvm-mca model"),
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def today():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
