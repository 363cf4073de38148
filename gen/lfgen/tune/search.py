"""The search: for one CPU, every variant of every kernel, from generic's values.

native (this host, by timing):
  1. loop parameters -- every combination is built; where there are more than `top` (8),
     llvm-mca with LLVM's model of the host ranks them and only the `top` best by the model
     go on; those are checked against ref and timed against the incumbent at the kernel's
     typical sizes (bench harness, one process).  (The model only ranks candidates of one
     variant: it treats EFLAGS as one register, so ADCX/ADOX chains look serial to it and
     its absolute figures for the adx variants are pessimistic);
     the best that wins beyond noise (noise.py) is timed again against the incumbent in a
     fresh process and taken only if it wins again (best-of-k is optimistic; the second run
     is not), and again in a second one (between processes this machine varies more than
     within one): it must win on the whole in all three runs, and no size may regress in
     two of them (noise.confirmed);
  2. size parameters -- one at a time, in the order the kernel declares them: each other
     choice from the current values, checked, timed at that parameter's own sizes, the
     winner confirmed as above;
  3. variant order -- each runnable variant (at its tuned values) timed against the one
     generic puts first; one that wins beyond noise, confirmed, goes first;
  4. the figure -- generic's choice at generic's values against the tuned choice at its
     values, at all the sizes used above, in one fresh process.
model (a CPU we do not have, by llvm-mca): loop parameters only -- the lowest modelled cycles
  per unit of work, taken when at least `tie` (2%) below the incumbent's and the candidate
  passes the check (qemu on AArch64); size parameters keep generic's values (no model sees
  them); on AArch64 the variant order by the modelled cost of each variant's main loop.
generic (the fallback schedule, by llvm-mca over every model of the architecture): the
  candidate whose worst case over the models -- its cycles per unit divided by the best
  candidate's on that model -- is lowest (least regret), again `tie` below the incumbent's.

Where the bench has a chained driver for a kernel (`<kernel>_chain`, each call's output the
next call's input: the P-256 and field products), every timing runs it beside the kernel's own
driver and its rows count as sizes of their own ("chained 5"), so a candidate that buys
throughput of independent calls with latency regresses there and is not taken (on Zen 4 the
IFMA `p256_mont_mult`, 1.05x the mulx code on independent calls, takes 1.9x its time chained).

Every step's result is stored in the State under a key naming kernel, variant, step,
incumbent and candidate, so a rerun replays the decisions and measures only what is missing.
"""

import math
import time

from . import noise, space
from .cpus import runs
from .runner import Candidate
from ..kernel import ScheduleError


# modelled figures this close are the same to us (llvm-mca's cycle counts are coarse)
EQUIVALENT = 0.005


class OutOfBudget(Exception):
    pass


class Tuner:
    def __init__(self, runner, state, arch, mode, cpus, log, budget=None, top=8,
                 min_gain=noise.MIN_GAIN, tie=0.02, clock=time.monotonic, pins=None):
        if mode not in ("native", "model", "generic"):
            raise ValueError("mode %r" % mode)
        self.r = runner
        self.state = state
        self.arch = arch
        self.mode = mode
        self.cpus = list(cpus)          # model: [cpu]; generic: all models; native: [llvm host]
        self.log = log
        self.top = top
        self.min_gain = min_gain
        self.tie = tie
        self.clock = clock
        # the budget runs from the first measurement: replaying what an earlier run measured
        # (rebuilding its candidates) does not eat into it
        self.budget = budget
        self.deadline = None
        self.records = {}               # kernel -> {"variants": {...}, "order": ..., "figure"}
        # {(kernel, variant): ({param: value}, {param: reason})}: values set by hand in the
        # file being rewritten ([pinned]); the search starts from them and never moves them
        self.pins = dict(pins or {})
        self.ctx = "generic"
        self.counts = {"candidates": 0, "rejected_build": 0, "rejected_check": 0,
                       "modelled": 0, "timed": 0, "measured_now": 0}
        self._runnable = None

    # ---- budget and caching ----------------------------------------------------------------
    def _spend(self):
        if not self.budget:
            return
        if self.deadline is None:
            self.deadline = self.clock() + self.budget
        elif self.clock() > self.deadline:
            raise OutOfBudget()

    def _cached(self, key, compute):
        r = self.state.get(key)
        if r is None:
            self._spend()
            r = compute()
            self.counts["measured_now"] += 1
            self.state.put(key, r)
        return r

    def runnable(self, kernel):
        if self._runnable is None:
            self._runnable = self.r.runnable()
        return self._runnable.get(kernel, set())

    # ---- the kernel ----------------------------------------------------------------------------
    def tune_kernel(self, mod):
        spec = mod.SPEC
        generic = self.r.generic_builds(mod)
        variants = [v for v in mod.VARIANTS if v.arch == self.arch]
        gorder = self.r.generic[self.arch].variant_order(spec, [v.name for v in variants])
        jumps = {n: [t[len("lf_%s_" % spec.name):] for t in generic[n].comp.tail_targets]
                 for n in generic}
        rec = self.records[spec.name] = {"variants": {}, "order": list(gorder),
                                         "generic_order": list(gorder), "figure": None}
        best = {}                        # variant -> Candidate of its current best values
        for v in space.targets_first(variants, jumps):
            if self.mode == "native" and v.name not in self.runnable(spec.name):
                self.log("%s.%s: not runnable here, keeps generic's values" % (spec.name,
                                                                               v.name))
                rec["variants"][v.name] = {"skipped": "not runnable on this machine",
                                           "generic": self._values(generic[v.name]),
                                           "final": self._values(generic[v.name]),
                                           "phases": []}
                continue
            best[v.name] = self.tune_variant(mod, v, generic, best, rec["variants"])
        if self.mode == "native":
            self.order_native(mod, variants, gorder, generic, best, rec)
            self.figure_native(mod, gorder, generic, best, rec)
        elif self.arch == "aarch64":
            self.order_model(mod, variants, gorder, generic, best, rec)
        else:
            rec["order_note"] = ("variant order not modelled on x86-64: the variants use "
                                 "different ISA extensions, whose costs (frequency licences, "
                                 "unit power-up) llvm-mca does not model")
        return rec

    @staticmethod
    def _values(build):
        return dict(build.values.items())

    def _context(self, generic, best, skip):
        """The other variants' tuned values (what size dispatch may reach), as text for the
        keys of measurements that depend on them (symbols differ from run to run)."""
        return ";".join("%s{%s}" % (n, space.key(c.values)) for n, c in sorted(best.items())
                        if n != skip and c.values != self._values(generic[n])) or "generic"

    def _siblings(self, mod, generic, best, skip):
        """Size-dispatch targets: each other variant's current best build."""
        sib, extra = {}, []
        for n, b in generic.items():
            c = best.get(n)
            if n != skip and c is not None and c.build is not None and c.values != \
                    self._values(b):
                sib[n] = c.build.symbol
                extra.append(c.build)
            else:
                sib[n] = b.symbol
        return sib, extra

    # ---- one variant ---------------------------------------------------------------------------
    def tune_variant(self, mod, v, generic, best, recs):
        spec = mod.SPEC
        name = "%s.%s" % (spec.name, v.name)
        base = self._values(generic[v.name])
        sib, extra = self._siblings(mod, generic, best, v.name)
        self.ctx = self._context(generic, best, v.name)
        # the incumbent: generic's build itself -- except when tuning generic, where the
        # search starts from the kernel's defaults of the parameters it searches, so that a
        # second run finds the same file (and says the same of it) as the first
        cur = Candidate(base)
        cur.build = generic[v.name]
        by_model = self.mode != "native"
        if self.mode == "generic":
            start = dict(base, **{p: v.params[p].default
                                  for p in space.loop_params(v, by_model)})
            if start != base:
                c0 = Candidate(start)
                self.r.build(mod, v, [c0], sib)
                if c0.build:
                    cur, base = c0, start
        rec = recs[v.name] = {"generic": base, "phases": [], "final": base}
        pinned, reasons = self.pins.get((spec.name, v.name), ({}, {}))
        if pinned:
            start = dict(base, **pinned)
            rec["pinned"] = dict(reasons)
            if start != base:
                # from generic's values with the pins; if that point does not build, the
                # first point of the loop space around it (pins kept) that does
                tries = [Candidate(start)] + [
                    Candidate(x) for x in space.loop_space(v, start, by_model)[1:]
                    if all(x[p] == val for p, val in pinned.items())]
                self.r.build(mod, v, tries[:1], sib)
                if not tries[0].build:
                    self.r.build(mod, v, tries[1:], sib)
                built = [c for c in tries if c.build]
                if not built:
                    raise ScheduleError("%s: the pinned values %s build with none of its loop "
                                        "parameters' values (%s)"
                                        % (name, space.key(pinned), tries[0].error))
                cur = built[0]
            self.log("%s: %s pinned" % (name, ", ".join("%s = %s" % kv
                                                         for kv in sorted(pinned.items()))))
        start = cur.values
        cands = [Candidate(x) for x in space.loop_space(v, start, by_model)[1:]
                 if all(x[p] == start[p] for p in pinned)]
        if by_model and v.unmodelled:
            rec["unmodelled"] = dict(v.unmodelled)
            self.log("%s: %s kept (%s)" % (name, ", ".join(sorted(v.unmodelled)),
                                          "; ".join(sorted(set(v.unmodelled.values())))))
        if cands:
            self.log("%s: %d loop candidates (%s)" % (name, len(cands) + 1,
                                                     ", ".join(space.loop_params(v, by_model))))
            cur = self.loop_phase(mod, v, cur, cands, sib, extra, rec)
        if self.mode == "native":
            for p in space.size_params(v):
                if p in pinned:
                    continue
                cands = [Candidate(x) for x in space.moves(v, cur.values, p)]
                self.log("%s: size parameter %s = %s, trying %s" % (
                    name, p, cur.values[p], ", ".join(str(c.values[p]) for c in cands)))
                cur = self.timed_step(mod, v, cur, cands, sib, extra, rec, "size " + p,
                                      space.sizes_for(spec, v, p))
        rec["final"] = dict(cur.values)
        if cur.values != base:
            self.log("%s: %s" % (name, ", ".join("%s %s -> %s" % (k, base[k], cur.values[k])
                                                  for k in sorted(base)
                                                  if base[k] != cur.values[k])))
        else:
            self.log("%s: generic's values stay" % name)
        return cur

    def _build(self, mod, v, cands, sib, rec_phase):
        self.r.build(mod, v, cands, sib)
        for c in cands:
            self.counts["candidates"] += 1
            if c.error:
                self.counts["rejected_build"] += 1
                rec_phase["candidates"].append({"values": c.values, "status": "does not build",
                                                "detail": c.error})
        return [c for c in cands if c.build]

    def _key(self, mod, v, step, *parts):
        return "|".join(["%s.%s" % (mod.SPEC.name, v.name), step] +
                        [p if isinstance(p, str) else space.key(p) for p in parts])

    def _model(self, mod, v, c, cpus):
        """{cpu: figures} of candidate c (cached per candidate and cpu)."""
        out = {}
        for cpu in cpus:
            def compute(cpu=cpu):
                if c.path is None:
                    c.path = self.r.source(mod, c.build)
                return self.r.model(c.path, [cpu])[cpu]
            out[cpu] = self._cached(self._key(mod, v, "model " + cpu, c.values), compute)
            self.counts["modelled"] += 1
        return out

    def _check(self, mod, v, cands, sib, extra):
        """{key: None or failure} of every candidate, checked in one build when needed."""
        sibkey = self.ctx
        res, todo = {}, []
        for c in cands:
            k = self._key(mod, v, "check", c.values, sibkey)
            r = self.state.get(k)
            if r is None:
                todo.append(c)
            else:
                res[space.key(c.values)] = r["failure"]
        if todo:
            self._spend()
            names = ["%s#%d" % (v.name, i) for i in range(len(todo))]
            d, paths = self.r.batch(mod, list(zip(names, [c.build for c in todo])), extra)
            got = self.r.check(d, mod.SPEC.name, names)
            for n, c in zip(names, todo):
                c.path = paths.get(c.build.symbol, c.path)
                self.state.put(self._key(mod, v, "check", c.values, sibkey),
                               {"failure": got[n]})
                res[space.key(c.values)] = got[n]
                self.counts["measured_now"] += 1
        for c in cands:
            if res[space.key(c.values)]:
                self.counts["rejected_check"] += 1
        return res

    def _time(self, mod, v, cur, cands, sib, extra, sizes, step):
        """{key: Estimate} of each candidate against `cur` at `sizes` (cached)."""
        spec = mod.SPEC
        sk = self.r.sizes_key(spec.name, sizes)
        res, todo = {}, []
        for c in cands:
            k = self._key(mod, v, step, cur.values, c.values, sk, self.ctx)
            r = self.state.get(k)
            if r is None:
                todo.append(c)
            else:
                res[space.key(c.values)] = (noise.Estimate.from_dict(r["estimate"]),
                                            r["cycles"], r["base_cycles"])
        if todo:
            self._spend()
            base_name = v.name if cur.build.symbol == v.symbol(spec) else v.name + "#cur"
            names = ["%s#%d" % (v.name, i) for i in range(len(todo))]
            entries = [(base_name, cur.build)] + list(zip(names, [c.build for c in todo]))
            d, _ = self.r.batch(mod, entries, extra)
            ratios, cycles = self.r.time(d, spec.name, base_name, names, sizes)
            for n, c in zip(names, todo):
                est = noise.combine(ratios[n])
                cyc = {str(s): x for s, x in cycles[n].items()}
                bcyc = {str(s): x for s, x in cycles[base_name].items()}
                self.state.put(self._key(mod, v, step, cur.values, c.values, sk, self.ctx),
                               {"estimate": est.as_dict(), "cycles": cyc, "base_cycles": bcyc})
                res[space.key(c.values)] = (est, cyc, bcyc)
                self.counts["measured_now"] += 1
        self.counts["timed"] += len(cands)
        return res

    def timed_step(self, mod, v, cur, cands, sib, extra, rec, phase, sizes):
        """Check and time `cands` against `cur`; return the new current best."""
        ph = {"phase": phase, "sizes": list(sizes), "incumbent": dict(cur.values),
              "candidates": [], "winner": None}
        rec["phases"].append(ph)
        ok = self._build(mod, v, cands, sib, ph)
        if not ok:
            return cur
        failures = self._check(mod, v, ok, sib, extra)
        good = []
        for c in ok:
            f = failures[space.key(c.values)]
            if f:
                ph["candidates"].append({"values": c.values, "status": "wrong result",
                                         "detail": f})
            else:
                good.append(c)
        if not good:
            return cur
        est = self._time(mod, v, cur, good, sib, extra, sizes, "time")
        for c in good:
            e = est[space.key(c.values)][0]
            ph["candidates"].append({"values": c.values, "status": e.verdict(self.min_gain),
                                     "estimate": e.as_dict(),
                                     "model": getattr(c, "model", None)})
        win = noise.best({space.key(c.values): est[space.key(c.values)][0] for c in good},
                         self.min_gain)
        if win is None:
            self.log("  %s: no candidate beats the incumbent beyond noise (best %s)" % (
                phase, max((est[space.key(c.values)][0] for c in good),
                           key=lambda e: e.ratio)))
            return cur
        w = next(c for c in good if space.key(c.values) == win)
        confs = [self._time(mod, v, cur, [w], sib, extra, sizes, "confirm%d" % i)[win][0]
                 for i in range(self.CONFIRM_RUNS)]
        conf = min(confs, key=lambda e: e.low)
        ph["confirm"] = conf.as_dict()
        ph["confirm_runs"] = [e.as_dict() for e in confs]
        self.log("  %s: %s wins %s; again, in fresh processes: %s" % (
            phase, win, est[win][0], ", ".join(map(str, confs))))
        ok, why = noise.confirmed([est[win][0]] + confs, self.min_gain)
        if not ok:
            self.log("  %s: not confirmed (%s); the incumbent stays" % (phase, why))
            return cur
        ph["winner"] = dict(w.values)
        return w

    def loop_phase(self, mod, v, cur, cands, sib, extra, rec):
        if self.mode == "native":
            ok = self._build(mod, v, cands, sib, {"candidates": []})
            ranked = ok
            if self.cpus and len(ok) > self.top:     # prune by LLVM's model of this host
                figs = {}
                for c in ok + [cur]:
                    c.model = self._model(mod, v, c, self.cpus)[self.cpus[0]]
                    figs[space.key(c.values)] = c.model.get("metric")
                ranked = sorted(ok, key=lambda c: (figs[space.key(c.values)] is None,
                                                   figs[space.key(c.values)] or 0,
                                                   space.key(c.values)))
                self.log("  model %s: incumbent %s, best %s" % (
                    self.cpus[0], _fmt(figs[space.key(cur.values)]),
                    ", ".join("%s %s" % (space.key(c.values), _fmt(figs[space.key(c.values)]))
                              for c in ranked[:self.top])))
            chosen = [Candidate(c.values) for c in ranked[:self.top]]
            for c, o in zip(chosen, ranked):
                c.build, c.model = o.build, getattr(o, "model", None)
            pruned = len(ok) - len(chosen)
            nxt = self.timed_step(mod, v, cur, chosen, sib, extra, rec,
                                  "loop", space.sizes_for(mod.SPEC, v))
            rec["phases"][-1]["pruned_by_model"] = pruned
            rec["phases"][-1]["model_cpu"] = self.cpus[0] if self.cpus else None
            rec["phases"][-1]["not_built"] = [{"values": c.values, "detail": c.error}
                                              for c in cands if c.error]
            return nxt
        return self.model_step(mod, v, cur, cands, sib, extra, rec)

    def model_step(self, mod, v, cur, cands, sib, extra, rec):
        ph = {"phase": "loop (model)", "cpus": list(self.cpus), "incumbent": dict(cur.values),
              "candidates": [], "winner": None}
        rec["phases"].append(ph)
        ok = self._build(mod, v, cands, sib, ph)
        feats = cur.build.comp.features
        cpus = [m for m in self.cpus if runs(m, feats)] if self.mode == "generic" \
            else list(self.cpus)
        if not cpus:
            ph["note"] = "no model of this architecture runs the variant"
            return cur
        figs = {}
        for c in [cur] + ok:
            figs[space.key(c.values)] = self._model(mod, v, c, cpus)
        score = self._scores(figs, cpus, "metric")
        for c in ok:
            k = space.key(c.values)
            ph["candidates"].append({"values": c.values, "status": "modelled",
                                     "model": figs[k], "score": score.get(k)})
        ph["incumbent_model"] = figs[space.key(cur.values)]
        ph["incumbent_score"] = score.get(space.key(cur.values))
        inc = score.get(space.key(cur.values))
        order = sorted((s, k) for k, s in score.items() if s is not None)
        if order:
            # within EQUIVALENT of the best the model cannot tell candidates apart: prefer
            # the one that changes fewest of the incumbent's values
            changes = {k: sum(1 for p, x in c.values.items() if cur.values.get(p) != x)
                       for c in ok for k in [space.key(c.values)]}
            changes[space.key(cur.values)] = 0
            near = [t for t in order if t[0] <= order[0][0] * (1 + EQUIVALENT)]
            order = sorted(near, key=lambda t: (changes[t[1]], t)) + order[len(near):]
        for s, k in order:
            if inc is not None and s > inc * (1 - self.tie):
                break
            c = next(c for c in ok if space.key(c.values) == k)
            fail = self._check(mod, v, [c], sib, extra)[k]
            if fail:
                ph["candidates"].append({"values": c.values, "status": "wrong result",
                                         "detail": fail})
                continue
            ph["winner"] = dict(c.values)
            self.log("  %s: %s modelled %s vs incumbent %s" % (
                ",".join(cpus), k, _fmt(s), _fmt(inc)))
            return c
        self.log("  %s: nothing modelled %d%% better than the incumbent (%s)" % (
            ",".join(cpus), round(100 * self.tie), _fmt(inc)))
        return cur

    def _scores(self, figs, cpus, field):
        """model mode: the candidate's cycles per unit; generic mode: its worst ratio to the
        best candidate over the models (least regret).  None where a model failed."""
        if self.mode != "generic":
            cpu = cpus[0]
            return {k: f[cpu].get(field) for k, f in figs.items()}
        best = {}
        for cpu in cpus:
            vals = [f[cpu].get(field) for f in figs.values() if f[cpu].get(field)]
            best[cpu] = min(vals) if vals else None
        out = {}
        for k, f in figs.items():
            rel = [f[cpu][field] / best[cpu] for cpu in cpus if best[cpu] and
                   f[cpu].get(field)]
            out[k] = max(rel) if len(rel) == len([c for c in cpus if best[c]]) and rel \
                else None
        return out

    # ---- variant order -------------------------------------------------------------------------
    def order_model(self, mod, variants, gorder, generic, best, rec):
        spec = mod.SPEC
        figs = {}
        for v in variants:
            c = best[v.name]
            figs[v.name] = self._model(mod, v, c, self.cpus)
        score = self._scores(figs, self.cpus, "main")
        rec["order_model"] = {n: {"score": score[n], "model": figs[n]} for n in figs}
        first = gorder[0]
        cands = sorted((s, n) for n, s in score.items() if s is not None)
        if cands and score.get(first) is not None and cands[0][1] != first and \
                cands[0][0] < score[first] * (1 - self.tie):
            rec["order"] = [cands[0][1]] + [n for n in gorder if n != cands[0][1]]
            self.log("%s: %s first (modelled main loop %s vs %s's %s)" % (
                spec.name, cands[0][1], _fmt(cands[0][0]), first, _fmt(score[first])))

    def order_native(self, mod, variants, gorder, generic, best, rec):
        spec = mod.SPEC
        run = [n for n in gorder if n in best]
        if len(run) < 2:
            return
        first = run[0]
        ph = {"phase": "order", "first": first, "sizes": list(spec.tune_sizes),
              "candidates": []}
        rec["order_phase"] = ph
        est, _ = self._time_variants(mod, best[first], first, [(n, best[n]) for n in run[1:]],
                                  generic, best, spec.tune_sizes, "order")
        for n in run[1:]:
            ph["candidates"].append({"variant": n, "estimate": est[n].as_dict(),
                                     "status": est[n].verdict(self.min_gain)})
        win = noise.best(est, self.min_gain)
        if win is None:
            return
        confs = [self._time_variants(mod, best[first], first, [(win, best[win])], generic,
                                     best, spec.tune_sizes, "order-confirm%d" % i)[0][win]
                 for i in range(self.CONFIRM_RUNS)]
        conf = min(confs, key=lambda e: e.low)
        ph["confirm"] = conf.as_dict()
        if noise.confirmed([est[win]] + confs, self.min_gain)[0]:
            rec["order"] = [win] + [n for n in gorder if n != win]
            self.log("%s: %s first (%s over %s, confirmed %s)" % (spec.name, win, est[win],
                                                                  first, conf))

    def _time_variants(self, mod, base_c, base_name, others, generic, best, sizes, step):
        """({name: estimate against base}, {name: {size: core cycles per call}}) of other
        variants' builds against one variant's build (cached); the base's cycles are under
        the name None (a variant may be timed against its own generic build)."""
        spec = mod.SPEC
        sk = self.r.sizes_key(spec.name, sizes)
        tag = lambda n, c: "%s{%s}" % (n, space.key(c.values))     # noqa: E731
        res, cyc, todo = {}, {}, []
        for n, c in others:
            k = "%s|%s|%s|%s|%s|%s" % (spec.name, step, tag(base_name, base_c), tag(n, c), sk,
                                       self._context(generic, best, None))
            r = self.state.get(k)
            if r is None or "cycles" not in r:
                todo.append((n, c, k))
            else:
                res[n] = noise.Estimate.from_dict(r["estimate"])
                cyc[n], cyc[None] = r["cycles"], r["base_cycles"]
        if todo:
            self._spend()
            sib, extra = self._siblings(mod, generic, best, None)
            entries = [("%s#b" % base_name, base_c.build)] + \
                      [("%s#o" % n, c.build) for n, c, _ in todo]
            extra = [b for b in extra if b.symbol not in {e[1].symbol for e in entries}]
            d, _ = self.r.batch(mod, entries, extra)
            ratios, cycles = self.r.time(d, spec.name, "%s#b" % base_name,
                                         ["%s#o" % n for n, _, _ in todo], sizes)
            bcyc = {str(s): x for s, x in cycles["%s#b" % base_name].items()}
            for n, c, k in todo:
                res[n] = noise.combine(ratios["%s#o" % n])
                cyc[n] = {str(s): x for s, x in cycles["%s#o" % n].items()}
                cyc[None] = bcyc
                self.state.put(k, {"estimate": res[n].as_dict(), "cycles": cyc[n],
                                   "base_cycles": bcyc})
                self.counts["measured_now"] += 1
        return res, cyc

    # ---- the figure ----------------------------------------------------------------------------
    FIGURE_RUNS = 3
    # a winner of the first timing run must win again in this many fresh processes: between
    # processes this shared machine varies more than within one (AVX-512 power state, other
    # guests), and best-of-k is optimistic
    CONFIRM_RUNS = 2

    def _final(self, mod, name, generic, best):
        """The build the schedule will hold for variant `name`: its tuned values, its size
        dispatch into the other variants' tuned builds (as the generator builds it)."""
        v = next(v for v in mod.VARIANTS if v.arch == self.arch and v.name == name)
        c = best[name]
        sib, _ = self._siblings(mod, generic, best, name)
        moved = any(sib[w] != generic[w].symbol for w in sib if w != name and
                    generic[w].symbol in generic[name].comp.tail_targets)
        if c.values == self._values(generic[name]) and not moved:
            return c, False
        f = Candidate(c.values)
        self.r.build(mod, v, [f], sib, tag="f")
        if f.error:
            raise RuntimeError("%s.%s: the final build fails: %s" % (mod.SPEC.name, name,
                                                                     f.error))
        return f, True

    def figure_native(self, mod, gorder, generic, best, rec):
        """Generic's choice against the tuned choice, each as the library will build it, at
        every size used for the kernel; FIGURE_RUNS fresh processes, the median kept."""
        spec = mod.SPEC
        runnable = [n for n in gorder if n in best]
        if not runnable:
            return
        g = next(n for n in gorder if n in best)
        t = next(n for n in rec["order"] if n in best)
        gc = Candidate(self._values(generic[g]))
        gc.build = generic[g]
        tc, rebuilt = self._final(mod, t, generic, best)
        sizes = set(spec.tune_sizes)
        for n in runnable:
            for ph in rec["variants"][n]["phases"]:
                sizes |= set(ph.get("sizes", ()))
        sizes = sorted(sizes)
        rec["figure_sizes"] = sizes
        if g == t and not rebuilt:
            rec["figure"] = None
            rec["figure_note"] = "the schedule keeps generic's choice and values"
            return
        timed = [self._time_variants(mod, gc, g, [(t, tc)], generic, best, sizes,
                                     "figure%d" % i) for i in range(self.FIGURE_RUNS)]
        runs = [e[t] for e, _ in timed]
        mid = sorted(range(len(runs)), key=lambda i: runs[i].ratio)[len(runs) // 2]
        est, cyc = runs[mid], timed[mid][1]
        # core cycles per unit of length (limb, word) at the typical sizes, geometric mean,
        # from the same (median) run as the ratio
        rec["figure_cycles"] = {
            "generic": _per_unit(cyc[None], spec.tune_sizes),
            "tuned": _per_unit(cyc[t], spec.tune_sizes)}
        typ = [x for x in est.sizes if x[0] in spec.tune_sizes]
        if not typ:
            raise ValueError("%s: the bench timed sizes %s, none of the spec's tune_sizes %s "
                             "(a driver of one fixed size: make tune_sizes that size)"
                             % (spec.name, [x[0] for x in est.sizes], list(spec.tune_sizes)))
        typical = noise.combine(typ)
        rec["figure"] = est.as_dict()
        rec["figure_typical"] = typical.as_dict()
        rec["figure_worst"] = list(est.worst())
        rec["figure_runs"] = [e.as_dict() for e in runs]
        rec["figure_from"] = {"generic": "%s {%s}" % (g, space.key(gc.values)),
                              "tuned": "%s {%s}%s" % (t, space.key(tc.values),
                                                      " with the tuned size-dispatch targets"
                                                      if rebuilt and tc.values == gc.values
                                                      else "")}
        self.log("%s: tuned %s vs generic %s: %s at the typical sizes %s; %s over all %d "
                 "sizes (runs: %s); worst size %s: %.3f" % (
                     spec.name, rec["figure_from"]["tuned"], g, typical,
                     ",".join(str(x) for x in spec.tune_sizes), est, len(sizes),
                     ", ".join("%.3f" % e.ratio for e in runs), *est.worst()))


def _per_unit(cycles, sizes):
    """Geometric mean over `sizes` of core cycles per call / size ({str(size): cycles})."""
    xs = [cycles[str(n)] / n for n in sizes if n and cycles.get(str(n))]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _fmt(x):
    return "-" if x is None else "%.3f" % x
