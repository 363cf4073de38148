#!/usr/bin/python3
"""mca.py -- llvm-mca-19 estimates of the AArch64 steady-state loops: ours vs gcc -O3 `ref`.

Cycles per limb (mpn_*), word (bi_mul_add), word product (bi_square_to_len) or byte
(poly1305_blocks: markers blocks=N, 16 N bytes per iteration).

    make mca                                   (= /usr/bin/python3 bench/mca.py)
    make mca MCA_ARGS="--kernel mpn_addmul_1 --cpu neoverse-n1 -v"
    /usr/bin/python3 bench/mca.py --help

llvm-mca is a MODEL of the pipeline (static scheduling tables, perfect caches and branch
prediction, no renaming limits beyond the model), not a measurement; use it to compare loops
on cores we do not have, not as a benchmark.

What it does, for every AArch64 variant of every kernel (generated/MANIFEST.json, else the
files generated/aarch64/<kernel>_<variant>.S) and for the five -mcpu models (cortex-a72,
neoverse-n1, neoverse-v1, thunderx2t99, apple-m1 -- llvm-mca-19 explicitly: llvm-mca-14 has no
Neoverse models; LLVM's apple-m1 is an alias of apple-a14 and uses the Cyclone model):

 1. Our loop.  The .S is preprocessed with comments kept (aarch64-linux-gnu-gcc -E -C -P), and
    the region between the comment lines  /* LLVM-MCA-BEGIN name [key=N ...] */  and
    /* LLVM-MCA-END */  is taken (several regions per file are reported separately).  A file
    without markers falls back to the hot loop rule below.
 2. The baseline.  runtime/ref/*.c compiled with `aarch64-linux-gnu-gcc -O3 -S` (include paths
    as in the Makefile); in lf_<kernel>_ref the hot loop rule picks the loop.  For
    bi_square_to_len that is the mulAdd loop inlined in implSquareToLen; for mpn_sqr the
    addmul_1 row loop.
    Hot loop rule: a loop is a label plus the last backward branch to it (b, b.cond, cbz, cbnz,
    tbz, tbnz); take the innermost loops (no other loop inside) that contain a multiply, prefer
    one nested in an outer loop (it runs O(n^2) times), then the most multiplies, then the
    longest.
 3. Each region goes to `llvm-mca-19 -mtriple=aarch64 -mcpu=X -iterations=1000` and
    cycles per iteration = Total Cycles / Iterations.
 4. Units per iteration -- explicit rule, the same for ours and ref:
      marker keys win:  limbs=N (64-bit limbs), words=N (32-bit words), products=N (32x32-bit
      word products, squaring kernels), blocks=N (16-byte Poly1305 blocks: the unit of
      poly1305_* is the byte, 16 N bytes per iteration, so cycles/byte = cycles / (16 N));
      otherwise count the multiplies in the region:
        mpn_* kernels (unit: limb)          limbs = number of umulh (one per 64-bit limb);
        bi_mul_add (unit: word)             words = 2 x umulh if the loop has umulh (a 64-bit
                                            limb holds two words, k is 32 bits), else the
                                            number of 32-bit multiplies (umaddl, umull, smaddl,
                                            smull, madd, mul, msub, umsubl);
        bi_square_to_len (unit: product)    32x32-bit word products = 4 x umulh if the loop has
                                            umulh (a 64x64 product is four word products), else
                                            the number of 32-bit multiplies.  Markers count
                                            the row: limbs=N -> 4N; words=N -> 2N when the loop
                                            multiplies by a 64-bit limb (has umulh: two
                                            multiplier words), else N.
        p256_mont_* (unit: call)            one whole call (one Montgomery multiplication of
                                            5 x 52-bit limbs): our kernels are straight line
                                            and mark the whole body, calls=1 (prologue /
                                            epilogue and ret outside the markers); ref (no
                                            markers) is the whole function with its loop
                                            body written out as many times as it runs
                                            (CALL_TRIPS: the 5 rows), a tail call to another
                                            ref (square -> mult) followed: units = 1.
        poly1305_* (unit: byte)             bytes = 16 x umulh / 4: the radix-2^64 block step
                                            (ref, scalar variants) makes four 64x64->128-bit
                                            products per 16-byte block (h0 r0, h1 5r1/4,
                                            h0 r1, h1 r0; the products by the small h2 need
                                            no umulh).  Markers: limbs=/words= are not
                                            Poly1305 units; blocks=N -> 16 N.
    cycles per unit = cycles per iteration / units per iteration; speedup = ref / ours.

Writes bench/results/mca-aarch64.json (every figure, the rule, the versions) and keeps the
extracted regions in build/mca/ for inspection (-v prints them).
"""
import argparse
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "gen"))
from lfgen import mca as core                                        # noqa: E402
from lfgen.mca import (functions, marked_regions, mnemonic, parse_keys,   # noqa: E402,F401
                       region_text, statements)
MODELS = ["cortex-a72", "neoverse-n1", "neoverse-v1", "thunderx2t99", "apple-m1"]
INCLUDES = ["-Iruntime/include", "-Iruntime", "-Iruntime/ref", "-Igenerated/include",
            "-D_GNU_SOURCE"]
MULS = {"mul", "umulh", "smulh", "umull", "smull", "umaddl", "smaddl", "madd", "msub",
        "umsubl", "smsubl", "mneg", "umnegl", "smnegl"}
BRANCH = re.compile(r"^(b|b\.\w+|b(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)|"
                    r"cbz|cbnz|tbz|tbnz)$")
TIE = 0.02  # speedups within 2% of 1 are reported as ties
# straight-line kernels measured per call: kernel -> trip count of the ref's one loop
CALL_TRIPS = {"p256_mont_mult": 5, "p256_mont_square": 5}
PRODUCT_KERNELS = {"bi_square_to_len", "bi_multiply_to_len", "bi_montgomery_multiply",
                   "bi_montgomery_square"}


def unit_of(kernel):
    if kernel in CALL_TRIPS:
        return "call"
    if kernel in PRODUCT_KERNELS:
        return "product"
    if kernel.startswith("poly1305"):
        return "byte"
    return "limb" if kernel.startswith("mpn_") else "word"


# ---- parsing assembly ---------------------------------------------------------------------

def loops(body):
    """(start, end) index pairs: label at start, last backward branch to it at end."""
    labels = {e[1]: i for i, e in enumerate(body) if e[0] == "label"}
    found = {}
    for i, e in enumerate(body):
        if e[0] != "insn" or not BRANCH.match(mnemonic(e[1])):
            continue
        target = e[1].split(",")[-1].split()[-1].strip()
        j = labels.get(target)
        if j is not None and j < i:
            found[j] = max(found.get(j, i), i)
    return sorted(found.items())


def call_region(funcs, kernel):
    """The whole call of lf_<kernel>_ref (unit "call"): a tail call `b lf_X_ref` is followed;
    the one loop is written out CALL_TRIPS[kernel] times (llvm-mca runs the text straight)."""
    body, head = funcs.get("lf_%s_ref" % kernel), []
    for _ in range(4):
        if body is None:
            return None
        insns = [e for e in body if e[0] == "insn"]
        last = insns[-1][1] if insns else ""
        if mnemonic(last) == "b" and last.split()[-1] in funcs:     # tail call: follow it
            head += insns[:-1]
            body = funcs[last.split()[-1]]
            continue
        break
    ls = loops(body)
    if len(ls) > 1:
        return None
    if ls:
        (j, i), = ls
        body = body[:j] + body[j:i + 1] * CALL_TRIPS[kernel] + body[i + 1:]
    return head + [e for e in body if e[0] != "label" or not ls]


def hot_loop(body):
    """The hot loop rule (module docstring); returns the region entries or None."""
    ls = loops(body)
    best = None
    for (j, i) in ls:
        inner = any((j2, i2) != (j, i) and j <= j2 and i2 <= i for (j2, i2) in ls)
        if inner:
            continue
        region = body[j:i + 1]
        nmul = sum(1 for e in region if e[0] == "insn" and mnemonic(e[1]) in MULS)
        if nmul == 0:
            continue
        nested = any((j0, i0) != (j, i) and j0 <= j and i <= i0 for (j0, i0) in ls)
        key = (nested, nmul, i - j)
        if best is None or key > best[0]:
            best = (key, region)
    return best[1] if best else None


def units(kernel, region, marker_keys):
    """Units per iteration and the rule used (module docstring, step 4)."""
    u = unit_of(kernel)
    keys = marker_keys or {}
    if u == "call":
        if "calls" in keys:
            return keys["calls"], "marker calls=%d" % keys["calls"]
        return 1, "whole call, loop x %d" % CALL_TRIPS[kernel]
    if u == "byte":
        if "blocks" in keys:
            return 16 * keys["blocks"], "marker blocks=%d x 16 bytes" % keys["blocks"]
        umulh = sum(1 for e in region if e[0] == "insn" and mnemonic(e[1]) == "umulh")
        return 4 * umulh, "%d umulh / 4 per block x 16 bytes" % umulh
    if u == "product":
        if "products" in keys:
            return keys["products"], "marker products=%d" % keys["products"]
        wide = any(e[0] == "insn" and mnemonic(e[1]) == "umulh" for e in region)
        if "limbs" in keys:
            return 4 * keys["limbs"], "marker limbs=%d x 4" % keys["limbs"]
        if "words" in keys:
            f = 2 if wide else 1
            return f * keys["words"], "marker words=%d x %d" % (keys["words"], f)
    elif u == "word":
        if "words" in keys:
            return keys["words"], "marker words=%d" % keys["words"]
        if "limbs" in keys:
            return 2 * keys["limbs"], "marker limbs=%d x 2" % keys["limbs"]
    else:
        if "limbs" in keys:
            return keys["limbs"], "marker limbs=%d" % keys["limbs"]
    mn = [mnemonic(e[1]) for e in region if e[0] == "insn"]
    umulh = mn.count("umulh")
    n32 = sum(1 for m in mn if m in MULS and m not in ("umulh", "smulh"))
    if u == "limb":
        return umulh, "%d umulh" % umulh
    if umulh:
        f = 4 if u == "product" else 2
        return f * umulh, "%d umulh x %d" % (umulh, f)
    return n32, "%d 32-bit multiplies" % n32


# ---- tools ---------------------------------------------------------------------------------

def tool(name, hint):
    path = shutil.which(name)
    if not path:
        sys.exit("mca.py: %s not found; %s" % (name, hint))
    return path


def run(cmd, **kw):
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("mca.py: %s failed:\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout, r.stderr


def mca(llvm_mca, region_file, cpu, iterations):
    return core.run(llvm_mca, region_file, "aarch64", cpu, iterations)


# ---- main ----------------------------------------------------------------------------------

def aarch64_variants():
    """[(kernel, variant, file)] from MANIFEST.json, else from the file names."""
    out = []
    man = os.path.join(ROOT, "generated", "MANIFEST.json")
    if os.path.exists(man):
        with open(man) as f:
            m = json.load(f)
        for k, kd in sorted(m.get("kernels", {}).items()):
            for v in kd.get("variants", []):
                if v.get("arch") == "aarch64":
                    out.append((k, v.get("name", v["variant"]), v["file"]))
        if out:
            return out
    for path in sorted(glob.glob(os.path.join(ROOT, "generated", "aarch64", "*.S"))):
        stem = os.path.basename(path)[:-2]
        k, _, v = stem.rpartition("_")
        out.append((k, v, os.path.relpath(path, ROOT)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", action="append", help="only these kernels (repeatable, or a,b)")
    ap.add_argument("--cpu", action="append", help="only these -mcpu models (repeatable, or a,b)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "mca-aarch64.json"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mca"),
                    help="where the extracted regions are kept")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the extracted loops")
    a = ap.parse_args()
    kernels = {x for k in (a.kernel or []) for x in k.split(",")}
    models = [x for c in (a.cpu or []) for x in c.split(",")] or MODELS
    partial = bool(kernels or a.cpu)

    llvm_mca = tool("llvm-mca-19", "apt-get install llvm-19 (llvm-mca-14 lacks Neoverse models)")
    cc = "gcc" if os.uname().machine in ("aarch64", "arm64") else "aarch64-linux-gnu-gcc"
    tool(cc, "apt-get install gcc-aarch64-linux-gnu")
    os.makedirs(a.work, exist_ok=True)

    # the baseline: gcc -O3 ref loops
    ref_entries = []
    for src in sorted(glob.glob(os.path.join(ROOT, "runtime", "ref", "*.c"))):
        rel = os.path.relpath(src, ROOT)
        asm = os.path.join(a.work, os.path.basename(src)[:-2] + ".O3.s")
        run([cc, "-O3", "-S"] + INCLUDES + ["-o", asm, rel])
        with open(asm) as f:
            ref_entries += statements(f.read())
    ref_funcs = functions(ref_entries)
    ref_kernels = sorted(k[3:-4] for k in ref_funcs if k.startswith("lf_") and k.endswith("_ref"))
    gcc_version = run([cc, "-dumpfullversion"])[0].strip()
    mca_version = run([llvm_mca, "--version"])[0].strip().splitlines()[0]

    def wanted(k):
        return not kernels or k in kernels

    # regions: (kernel, variant, region name, source, entries, units, rule)
    jobs = []
    refs = {}
    for k in ref_kernels:
        if not wanted(k):
            continue
        if unit_of(k) == "call":
            region = call_region(ref_funcs, k)
        else:
            region = hot_loop(ref_funcs["lf_%s_ref" % k])
        if region is None:
            refs[k] = None
            continue
        n, rule = units(k, region, None)
        refs[k] = ("ref", "gcc -O3 whole call" if unit_of(k) == "call" else "gcc -O3 hot loop",
                   region, n, rule)
    ours = []
    for k, v, path in aarch64_variants():
        if not wanted(k):
            continue
        pre = run([cc, "-E", "-C", "-P", "-Igenerated/include", path])[0]
        entries = statements(pre)
        regs = marked_regions(entries)
        if regs:
            for spec, region in regs:
                name, keys = parse_keys(spec)
                n, rule = units(k, region, keys)
                ours.append((k, v, name or v, "marker", region, n, rule))
        else:
            body = functions(entries).get("lf_%s_%s" % (k, v), entries)
            region = hot_loop(body)
            if region is None:
                print("# %s.%s: no marker and no loop with a multiply found" % (k, v))
                continue
            n, rule = units(k, region, None)
            ours.append((k, v, v, "fallback: hot loop rule", region, n, rule))

    def measure(tag, region):
        path = os.path.join(a.work, tag + ".s")
        with open(path, "w") as f:
            f.write(region_text(region))
        return path, {m: mca(llvm_mca, path, m, a.iterations) for m in models}

    ref_res = {}
    for k, r in refs.items():
        if r:
            path, res = measure("ref_" + k, r[2])
            ref_res[k] = (path, res)
            if a.verbose:
                print("## ref %s (%s; %d %s/iter: %s)\n%s" % (k, r[1], r[3], unit_of(k), r[4],
                                                             region_text(r[2])))
    rows = []
    for (k, v, name, source, region, n, rule) in ours:
        path, res = measure("%s_%s_%s" % (k, v, name), region)
        if a.verbose:
            print("## %s.%s region %s (%s; %d %s/iter: %s)\n%s" % (
                k, v, name, source, n, unit_of(k), rule, region_text(region)))
        for m in models:
            o = res[m]
            row = {"kernel": k, "variant": v, "region": name, "source": source, "model": m,
                   "unit": unit_of(k), "ours_units_per_iter": n, "ours_unit_rule": rule,
                   "ours": o, "ours_file": os.path.relpath(path, ROOT)}
            if "error" not in o and n:
                row["ours_cycles_per_unit"] = o["cycles_per_iter"] / n
            r = refs.get(k)
            if r and k in ref_res:
                ro = ref_res[k][1][m]
                row.update({"ref_units_per_iter": r[3], "ref_unit_rule": r[4], "ref": ro,
                            "ref_file": os.path.relpath(ref_res[k][0], ROOT)})
                if "error" not in ro and r[3]:
                    row["ref_cycles_per_unit"] = ro["cycles_per_iter"] / r[3]
            if "ours_cycles_per_unit" in row and "ref_cycles_per_unit" in row:
                row["speedup"] = row["ref_cycles_per_unit"] / row["ours_cycles_per_unit"]
            rows.append(row)
    # kernels with a ref but no AArch64 variant yet: ref-only rows
    with_ours = {r["kernel"] for r in rows}
    for k in sorted(ref_res):
        if k in with_ours:
            continue
        for m in models:
            ro = ref_res[k][1][m]
            r = refs[k]
            row = {"kernel": k, "variant": None, "region": None, "source": None, "model": m,
                   "unit": unit_of(k), "ref_units_per_iter": r[3], "ref_unit_rule": r[4],
                   "ref": ro, "ref_file": os.path.relpath(ref_res[k][0], ROOT)}
            if "error" not in ro and r[3]:
                row["ref_cycles_per_unit"] = ro["cycles_per_iter"] / r[3]
            rows.append(row)

    # ---- the table
    print("# llvm-mca estimates (%s, -iterations=%d) of AArch64 steady-state loops; ref = %s -O3"
          % (mca_version, a.iterations, cc))
    print("# NOTE: llvm-mca is a MODEL (scheduling tables, ideal caches and branches), not a "
          "measurement.")
    print("# cycles/unit = (Total Cycles / Iterations) / units per iteration; unit: limb "
          "(mpn_*), word (bi_mul_add),\n#   product = 32x32-bit word product (bi_square_to_len),"
          " byte (poly1305_*: 16 x blocks=N per iteration),\n#   call (p256_mont_*: one whole call);\n#   speedup = ref / ours.  Rules: "
          "bench/mca.py --help")
    hdr = "%-18s %-8s %-14s %-13s %9s %9s %8s   %s" % (
        "kernel", "variant", "region", "model", "ours c/u", "ref c/u", "speedup", "units/iter")
    print(hdr)
    print("-" * len(hdr))
    last = None
    for r in rows:
        key = (r["kernel"], r["variant"], r["region"])
        if last is not None and key != last:
            print()
        last = key
        o = "%9.3f" % r["ours_cycles_per_unit"] if "ours_cycles_per_unit" in r else "%9s" % (
            "err" if r.get("ours", {}).get("error") else "-")
        f = "%9.3f" % r["ref_cycles_per_unit"] if "ref_cycles_per_unit" in r else "%9s" % "-"
        s = "%7.2fx" % r["speedup"] if "speedup" in r else "%8s" % "-"
        uinfo = []
        if r.get("ours_unit_rule"):
            uinfo.append("ours %d %s (%s)" % (r["ours_units_per_iter"], r["unit"],
                                              r["ours_unit_rule"]))
        if r.get("ref_unit_rule"):
            uinfo.append("ref %d (%s)" % (r["ref_units_per_iter"], r["ref_unit_rule"]))
        print("%-18s %-8s %-14s %-13s %s %s %s   %s" % (
            r["kernel"], r["variant"] or "(none)", (r["region"] or "-")[:14], r["model"], o, f, s,
            "; ".join(uinfo)))
    print()
    verdict = {}
    for r in rows:
        if r["variant"] is None:
            continue
        key = "%s.%s/%s" % (r["kernel"], r["variant"], r["region"])
        sp = r.get("speedup", 0)
        verdict.setdefault(key, []).append((r["model"], sp))
    print("# verdict (ahead: speedup >= %.2f; tie: within %d%%):" % (1 + TIE, round(TIE * 100)))
    for key, v in verdict.items():
        ahead = [m for m, sp in v if sp >= 1 + TIE]
        tie = [m for m, sp in v if 1 - TIE < sp < 1 + TIE]
        behind = [m for m, sp in v if sp <= 1 - TIE]
        print("#   %-38s ahead on %d of %d%s%s" % (
            key, len(ahead), len(v), "; tie: " + ",".join(tie) if tie else "",
            "; BEHIND: " + ",".join(behind) if behind else ""))
    missing = sorted(k for k in ref_res if k not in with_ours)
    if missing:
        print("# no AArch64 variant yet (ref only): %s" % ", ".join(missing))
    fallback = sorted({"%s.%s" % (r["kernel"], r["variant"]) for r in rows
                       if r["source"] and r["source"].startswith("fallback")})
    if fallback:
        print("# no LLVM-MCA markers, loop found by the hot loop rule: %s" % ", ".join(fallback))

    doc = {"schema": "limbforge-mca/1",
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "note": "llvm-mca is a model, not a measurement",
           "llvm_mca": mca_version, "ref_compiler": "%s %s -O3" % (cc, gcc_version),
           "iterations": a.iterations, "models": models, "partial": partial,
           "unit_rule": __doc__.split(" 4. ")[1].split("\nWrites")[0].strip(),
           "rows": rows}
    out = a.json
    if partial and out == ap.get_default("json"):
        out = os.path.join(a.work, "mca-aarch64.partial.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    try:            # llvm-mca is deterministic: keep the file (and its date) if nothing changed
        with open(out) as f:
            old = json.load(f)
        old["date"] = doc["date"]
        unchanged = old == json.loads(json.dumps(doc))
    except (OSError, ValueError, KeyError):
        unchanged = False
    if unchanged:
        print("json: %s (figures unchanged, file kept)" % os.path.relpath(out, ROOT))
        return 0
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print("json: %s" % os.path.relpath(out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
