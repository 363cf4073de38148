"""llvm-mca-19 on generated assembly: the regions a kernel marks as its steady-state loop.

Shared by bench/mca.py (`make mca`: our AArch64 loops against gcc -O3 ref) and the schedule
tuner (lfgen/tune: candidates ranked per CPU model).  A kernel builder brackets its loop with
`f.mca_begin("name key=N ...")` / `f.mca_end()`, which print the comment lines
    /* LLVM-MCA-BEGIN name limbs=16 */ ... /* LLVM-MCA-END */
and the keys (limbs=, words=, products=, blocks=) say how much work one iteration does.  The text is
preprocessed with comments kept (cc -E -C -P) so the LF_* prelude macros are expanded, split
into labels and instructions (directives dropped), and each region is given to llvm-mca.
llvm-mca is a MODEL of the pipeline (static scheduling tables, perfect caches and branch
prediction), not a measurement.
"""
import re
import shutil
import subprocess

MARK_BEGIN = re.compile(r"/\*\s*LLVM-MCA-BEGIN\s*(.*?)\s*\*/")
MARK_END = re.compile(r"/\*\s*LLVM-MCA-END\s*\*/")
TRIPLE = {"x86_64": "x86_64", "aarch64": "aarch64"}
LLVM_MCA = "llvm-mca-19"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def statements(text):
    """Split assembly text into entries: ('label', name), ('insn', text), or markers.
    Markers (C comments) are recognised before comments are stripped."""
    out = []
    pos = 0
    marks = []
    for m in MARK_BEGIN.finditer(text):
        marks.append((m.start(), m.end(), ("begin", m.group(1))))
    for m in MARK_END.finditer(text):
        marks.append((m.start(), m.end(), ("end", "")))
    marks.sort()
    chunks = []
    for s, e, mk in marks:
        chunks.append(("text", text[pos:s]))
        chunks.append(mk)
        pos = e
    chunks.append(("text", text[pos:]))
    for kind, body in chunks:
        if kind != "text":
            out.append((kind, body))
            continue
        for line in strip_comments(body).split("\n"):
            for st in line.split(";"):
                st = st.strip()
                while st:
                    m = re.match(r"^([\w.$]+):\s*(.*)$", st)
                    if m:
                        out.append(("label", m.group(1)))
                        st = m.group(2).strip()
                        continue
                    if st.startswith(".") or st.startswith("#"):
                        break  # directive
                    out.append(("insn", re.sub(r"\s+", " ", st.replace("\t", " "), count=1)))
                    break
    return out


def mnemonic(insn):
    return insn.split(None, 1)[0].lower()


def functions(entries):
    """{symbol: entries of its body}; a symbol is a label that does not start with '.L'."""
    funcs, cur = {}, None
    for e in entries:
        if e[0] == "label" and not e[1].startswith(".L"):
            cur = e[1]
            funcs[cur] = []
            continue
        if cur is not None:
            funcs[cur].append(e)
    return funcs


def marked_regions(entries):
    regions, cur = [], None
    for e in entries:
        if e[0] == "begin":
            cur = (e[1], [])
        elif e[0] == "end":
            if cur:
                regions.append(cur)
            cur = None
        elif cur is not None and e[0] in ("insn", "label"):
            cur[1].append(e)
    return regions


def parse_keys(spec):
    name, keys = None, {}
    for tok in spec.split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            try:
                keys[k] = int(v)
            except ValueError:
                pass
        elif name is None:
            name = tok
    return name, keys


def region_text(region):
    lines = []
    for kind, body in region:
        lines.append(body + ":" if kind == "label" else "\t" + body)
    return "\n".join(lines) + "\n"


def cross_cc(arch):
    """The C compiler that preprocesses (and assembles) `arch` sources on this machine."""
    import os
    native = {"x86_64": ("x86_64", "amd64"), "aarch64": ("aarch64", "arm64")}[arch]
    return "gcc" if os.uname().machine in native else "%s-linux-gnu-gcc" % arch


def preprocess(path, arch, include_dirs, cwd=None):
    """The .S file at `path` preprocessed for `arch` with comments kept."""
    cmd = [cross_cc(arch), "-E", "-C", "-P"] + ["-I" + d for d in include_dirs] + [path]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


def regions(preprocessed):
    """[(name, {key: int}, entries)] of every marked region, in file order."""
    out = []
    for spec, region in marked_regions(statements(preprocessed)):
        name, keys = parse_keys(spec)
        out.append((name, keys, region))
    return out


def tool():
    path = shutil.which(LLVM_MCA)
    if not path:
        raise RuntimeError("%s not found: apt-get install llvm-19 (llvm-mca-14 lacks the "
                           "Neoverse models and falls back silently)" % LLVM_MCA)
    return path


def version(llvm_mca=None):
    r = subprocess.run([llvm_mca or tool(), "--version"], capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.splitlines() if "version" in l.lower()]
    return lines[0] if lines else "unknown"


def run(llvm_mca, region_file, arch, cpu, iterations=1000):
    """llvm-mca's summary of one region file: cycles_per_iter etc., or {"error": ...}."""
    r = subprocess.run([llvm_mca, "-mtriple=" + TRIPLE[arch], "-mcpu=" + cpu,
                        "-iterations=%d" % iterations, region_file],
                       capture_output=True, text=True)
    if r.returncode != 0 or "not a recognized processor" in r.stderr:
        return {"error": (r.stderr.strip().splitlines() or ["failed"])[0]}
    out = {}
    for key, pat in (("iterations", r"^Iterations:\s+(\d+)"),
                     ("total_cycles", r"^Total Cycles:\s+(\d+)"),
                     ("instructions", r"^Instructions:\s+(\d+)"),
                     ("ipc", r"^IPC:\s+([\d.]+)"),
                     ("block_rthroughput", r"^Block RThroughput:\s+([\d.]+)")):
        m = re.search(pat, r.stdout, re.M)
        out[key] = float(m.group(1)) if m else None
    if not out["iterations"] or out["total_cycles"] is None:
        return {"error": "unexpected llvm-mca output"}
    out["cycles_per_iter"] = out["total_cycles"] / out["iterations"]
    return out
