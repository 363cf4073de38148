"""Candidates made real: built through the normal generator, checked, modelled, timed.

A candidate is a variant's build under values that no schedule file holds yet.  The runner
  - builds it with the variant's own build function (a candidate the builder rejects -- out
    of registers, an invalid combination -- is recorded with the builder's message),
  - writes its .S with the same template as generated/ (symbol lf_<k>_<v>__t<N>) and a
    dispatch table listing the incumbent and the candidates, into build/tune/<arch>-<cpu>/
    batch-<N>/, and links them with the library's other objects and the bench harness
    (`make tune-batch`, gen/tune.mk),
  - checks every candidate against ref (`limbforge-bench --check`: sizes 0..40 and around
    every power of two to 513, random, all-ones and zero operands; under qemu on AArch64),
  - models it (llvm-mca-19 on its marked loop regions, lfgen/mca.py) for a given -mcpu,
  - times it against the incumbent (`limbforge-bench --baseline <incumbent>`: round-robin in
    one process, paired ratios per round, medians and quartiles -> noise.py).
"""

import json
import math
import os
import signal
import subprocess

from .. import emit, main as gen, mca, schedule
from ..kernel import Values


class Candidate:
    def __init__(self, values):
        self.values = dict(values)
        self.build = None          # main.Build once built
        self.error = None          # why it could not be built
        self.features = None
        self.path = None           # its .S in the batch directory


class _TuneSchedule:
    """What a candidate's header names as its schedule: no file, matches no CPU."""
    is_generic = False
    match = None
    cpu = "tune"
    ident = "tune"
    relpath = "(none: a candidate of make tune)"
    provenance = {"method": "lfgen/tune candidate", "date": "-"}


class Runner:
    def __init__(self, arch, work, log, quick=False):
        self.arch = arch
        self.work = work
        self.log = log
        self.quick = quick
        self.env = emit.environment()
        self.generic = {a: schedule.load(a) for a in gen.ARCHS}
        self.seq = 0
        self.batches = 0
        self._generic_builds = {}
        self.llvm_mca = None
        self.drivers = None             # the bench's driver names (runnable() reads them)

    # ---- make ----------------------------------------------------------------------------
    def make(self, target, check=True, timeout=None, **variables):
        cmd = ["make", "--no-print-directory", "-s", "ARCH=" + self.arch]
        cmd += ["%s=%s" % kv for kv in sorted(variables.items())] + [target]
        # a session of its own: on a timeout the whole group (make and the program it runs)
        # is killed, not only make
        p = subprocess.Popen(cmd, cwd=gen.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise
        r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
        if check and r.returncode != 0:
            raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd), r.stdout[-3000:],
                                                     r.stderr[-3000:]))
        return r

    def prepare(self):
        """The library objects and the bench harness every throwaway build links."""
        self.make("tune-prep")

    def runnable(self):
        """{kernel: set of variant names} this machine runs (qemu for a cross arch)."""
        out = {}
        for line in self.make("tune-list").stdout.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1] == "driver:":
                out[parts[0]] = {p for p in parts[2:] if p not in ("ref", "+", "GMP", "peer")}
        self.drivers = set(out)
        return out

    def chain_driver(self, kernel):
        """The bench's chained driver of a kernel (`<kernel>_chain`: each call's output is the
        next call's input, so it times latency), or None.  Where there is one, every timing
        runs it beside the kernel's own driver and its rows count as sizes of their own
        ("chained 5"): a candidate that buys throughput with latency regresses there."""
        if self.drivers is None:
            self.runnable()
        name = kernel + "_chain"
        return name if name in self.drivers else None

    def sizes_key(self, kernel, sizes):
        """What a timing's state key says of its sizes (and of a chained driver)."""
        return "sizes=" + ",".join(str(s) for s in sizes) + \
            (";chained" if self.chain_driver(kernel) else "")

    # ---- building --------------------------------------------------------------------------
    def generic_builds(self, mod):
        """{variant name: Build} of the kernel's generic builds (what generated/ holds)."""
        name = mod.SPEC.name
        if name not in self._generic_builds:
            builds = gen.build_kernel_arch(mod.SPEC, mod, self.arch, [self.generic[self.arch]])
            self._generic_builds[name] = {b.variant.name: b for b in builds}
        return self._generic_builds[name]

    def build(self, mod, variant, cands, siblings, tag="t"):
        """Build each candidate; size dispatch jumps to `siblings` (variant -> symbol)."""
        spec = mod.SPEC
        for c in cands:
            if c.build or c.error:
                continue
            self.seq += 1
            sym = "lf_%s_%s__%s%d" % (spec.name, variant.name, tag, self.seq)
            try:
                vals = Values(variant.params, c.values, "candidate %s.%s" % (spec.name,
                                                                            variant.name))
                vals.set_siblings(siblings)
                comp = variant.build(sym, vals)
            except Exception as e:                   # the builder's verdict on this point
                c.error = ("%s: %s" % (type(e).__name__, e)).splitlines()[0][:200]
                continue
            c.build = gen.Build(variant, _TuneSchedule(), sym, vals, comp, spec.name)
        return cands

    def batch(self, mod, entries, extra=()):
        """Write and link one throwaway build.  `entries`: [(name, Build)] -- the kernel's
        dispatch entries (the bench contenders), generic builds included by symbol only;
        `extra`: further Builds that entries jump to (current best siblings).  Returns the
        batch directory."""
        spec = mod.SPEC
        self.batches += 1
        d = os.path.join(self.work, "batch-%04d" % self.batches)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        generic = self.generic_builds(mod)
        generic_syms = {b.symbol for b in generic.values()}
        built = {b.symbol: b.comp for b in generic.values()}
        for _, b in entries:
            built[b.symbol] = b.comp
        for b in extra:
            built[b.symbol] = b.comp
        required = gen._required_features(spec, built)
        decls = []
        new = [b for _, b in entries if b.symbol not in generic_syms] + list(extra)
        for b in new:
            text = gen.render_kernel_file(self.env, spec, b, required[b.symbol])
            path = os.path.join(d, "%s.S" % b.symbol[3:])
            with open(path, "w") as f:
                f.write(text)
            decls.append("%s;" % spec.prototype(b.symbol))
        kouts = []
        for m in _kernels():
            k = gen._KernelOut(m.SPEC)
            for a in gen.ARCHS:
                if m is mod and a == self.arch:
                    for name, b in entries:
                        feats = required[b.symbol]
                        k.variants[a].append(gen._VariantOut(
                            name, b.symbol, feats, "%s/tune" % a, emit.mask_expr(feats),
                            emit.features_text(feats), gen._hint(spec, b.variant, b.values)))
                k.orders[a].append(("generic", list(range(len(k.variants[a]) + 1))))
            kouts.append(k)
        text = emit.render(self.env, "c/dispatch_table.c.j2", kernels=kouts, archs=gen.ARCHS,
                           arch_macro=emit.ARCH_MACRO,
                           schedules={a: [dict(s=self.generic[a], match="")]
                                      for a in gen.ARCHS},
                           extra_decls="\n".join(decls))
        with open(os.path.join(d, "dispatch_table.c"), "w") as f:
            f.write(text)
        self.make("tune-batch", TUNE_DIR=os.path.relpath(d, gen.ROOT))
        paths = {b.symbol: os.path.join(d, "%s.S" % b.symbol[3:]) for b in new}
        return d, paths

    def source(self, mod, b):
        """The .S of one build for modelling (rendered only; generic builds are the files in
        generated/)."""
        if b.symbol in {g.symbol for g in self.generic_builds(mod).values()}:
            return os.path.join(gen.ROOT, b.relpath)
        d = os.path.join(self.work, "sources")
        os.makedirs(d, exist_ok=True)
        feats = sorted(b.comp.features)
        path = os.path.join(d, "%s.S" % b.symbol[3:])
        with open(path, "w") as f:
            f.write(gen.render_kernel_file(self.env, mod.SPEC, b, feats))
        return path

    def run(self, d, args, timeout=None):
        try:
            return self.make("tune-run", check=False, timeout=timeout,
                             TUNE_DIR=os.path.relpath(d, gen.ROOT), TUNE_RUN_ARGS=" ".join(args))
        except subprocess.TimeoutExpired as e:
            return subprocess.CompletedProcess(e.cmd, None, e.stdout or "", e.stderr or "")

    # ---- checking ----------------------------------------------------------------------------
    def check(self, d, kernel, names):
        """{name: None if it agrees with ref, else the first failure} for the entries.  A
        run that dies (a candidate that crashes or hangs) is repeated per candidate to
        find which."""
        out = {}
        for i in range(0, len(names), 32):
            out.update(self._check_run(d, kernel, names[i:i + 32]))
        return out

    def _check_run(self, d, kernel, names):
        js = os.path.join(d, "check.json")
        if os.path.exists(js):
            os.remove(js)
        r = self.run(d, ["--check", "--kernel", kernel, "--variant", ",".join(names),
                         "--json", os.path.relpath(js, gen.ROOT)], timeout=120)
        if r.returncode not in (0, 1) or not os.path.exists(js):
            if len(names) > 1:
                out = {}
                for n in names:
                    out.update(self._check_run(d, kernel, [n]))
                return out
            how = "timed out" if r.returncode is None else "exit status %d" % r.returncode
            return {names[0]: "crashed (%s): %s" % (how, (r.stderr or r.stdout or "")
                                                    .strip().splitlines()[-1:])}
        with open(js) as f:
            res = json.load(f)["results"]
        os.remove(js)
        got = {x["variant"]: x for x in res}
        return {n: ("not checked" if got.get(n) is None else None if got[n]["ok"] else
                    "mismatch %s" % json.dumps(got[n]["first_failure"])) for n in names}

    # ---- timing ------------------------------------------------------------------------------
    def time(self, d, kernel, baseline, names, sizes):
        """({name: [(size, median, p25, p75, n)]}, {name: {size: cycles per call}}): paired
        ratios baseline/name per size, and the median core cycles of every contender; with
        a chained driver (chain_driver) also its rows, as sizes "chained <size>"."""
        js = os.path.join(d, "time.json")
        chain = self.chain_driver(kernel)
        args = ["--kernel", ",".join([kernel] + ([chain] if chain else [])),
                "--variant", ",".join([baseline] + list(names)),
                "--sizes", ",".join(str(s) for s in sizes), "--baseline", baseline,
                "--no-gmp", "--json", os.path.relpath(js, gen.ROOT)]
        args += ["--repeats", "31", "--batch-us", "5"] if self.quick else \
                ["--repeats", "101", "--batch-us", "10"]
        r = self.run(d, args)
        if r.returncode != 0 or not os.path.exists(js):
            raise RuntimeError("timing run failed (%d):\n%s%s" % (r.returncode,
                                                                  r.stdout[-2000:],
                                                                  r.stderr[-2000:]))
        with open(js) as f:
            rows = json.load(f)["rows"]
        out = {n: [] for n in names}
        cycles = {n: {} for n in [baseline] + list(names)}
        for row in rows:
            if row["kernel"] not in (kernel, chain) or row["variant"] not in cycles:
                continue
            size = row["size"] if row["kernel"] == kernel else "chained %d" % row["size"]
            cycles[row["variant"]][size] = row["cycles_per_call"]["median"]
            if row["variant"] in out:
                b = row["ratio_vs_base"]
                out[row["variant"]].append((size, b["paired_median"], b["paired_p25"],
                                            b["paired_p75"], b["n"]))
        os.remove(js)
        return out, cycles

    # ---- modelling ---------------------------------------------------------------------------
    def model(self, path, cpus):
        """{cpu: figures} of llvm-mca on the marked loops of one .S: per region cycles per
        unit of work (the marker's limbs=/words=/products=/blocks= count); `metric` is their
        geometric mean, `main` the figure of the region doing the most work per iteration
        (how variants of one kernel are compared)."""
        if self.llvm_mca is None:
            self.llvm_mca = mca.tool()
        pre = mca.preprocess(os.path.relpath(path, gen.ROOT), self.arch, ["generated/include"],
                             cwd=gen.ROOT)
        regs = mca.regions(pre)
        out = {}
        for cpu in cpus:
            figs = []
            for i, (name, keys, entries) in enumerate(regs):
                units = next((keys[k] for k in ("limbs", "words", "products", "blocks") if k in keys),
                             None)
                rdir = os.path.join(self.work, "regions")
                os.makedirs(rdir, exist_ok=True)
                rfile = os.path.join(rdir, "%s.r%d.s" % (os.path.basename(path)[:-2], i))
                with open(rfile, "w") as f:
                    f.write(mca.region_text(entries))
                res = mca.run(self.llvm_mca, rfile, self.arch, cpu)
                if "error" in res or not units:
                    figs = res.get("error", "region %s has no unit count" % name)
                    break
                figs.append({"region": name, "units": units,
                             "cycles_per_iter": res["cycles_per_iter"],
                             "cycles_per_unit": res["cycles_per_iter"] / units})
            if isinstance(figs, str) or not figs:
                out[cpu] = {"error": figs or "no marked loop region"}
                continue
            gm = math.exp(sum(math.log(f["cycles_per_unit"]) for f in figs) / len(figs))
            top = max(f["units"] for f in figs)
            main = [f["cycles_per_unit"] for f in figs if f["units"] == top]
            out[cpu] = {"metric": gm,
                        "main": math.exp(sum(math.log(x) for x in main) / len(main)),
                        "regions": figs}
        return out

    def mca_version(self):
        return mca.version(self.llvm_mca or mca.tool())


def _kernels():
    from ..kernels import ALL
    return ALL
