#!/usr/bin/python3
"""Object hygiene of the generated kernels (TESTING.md item 10), checked with readelf/objdump.

For every object built from generated/<arch>/*.S (build/<arch>/obj/..., as `make ARCH=<arch>
lib` builds them):
  - .note.GNU-stack is present and not executable;
  - .note.gnu.property carries X86_FEATURE_1_AND = IBT, SHSTK (x86-64) or
    AARCH64_FEATURE_1_AND = BTI, PAC (AArch64);
  - the object exports exactly one symbol, lf_<file name>, of type FUNC, non-zero size, hidden
    (kernels are hidden unless LF_EXPORT_KERNELS), whose first instruction is endbr64 / bti c;
  - .eh_frame has an FDE covering exactly [symbol, symbol + size), and at every instruction the
    CFA of the unwind table equals the stack depth simulated from the disassembly (push/pop,
    stp/ldp with writeback, sub/add of the stack pointer); every callee-saved register stored
    by the prologue has the matching c-N rule from the next instruction on, and is restored
    ("u") after the epilogue reloads it.
Then the library objects of each architecture (generated kernels + runtime, from
generated/sources.mk) are linked into a throw-away shared object with -nostdlib and
`-z cet-report=error` (x86-64) or `-z force-bti` [+ `-z bti-report=error` when the linker has
it] (AArch64): the link must succeed without a single warning, and the output must still carry
the property (IBT, SHSTK / BTI, PAC) and a non-executable GNU_STACK.

    /usr/bin/python3 tests/objcheck.py [--arch x86_64|aarch64] [--build DIR] [-v]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HOST = os.uname().machine.replace("arm64", "aarch64")


def tool(arch, name):
    name = {"cc": "gcc"}.get(name, name)
    if arch == HOST:
        return name
    return "aarch64-linux-gnu-" + name


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def out(cmd):
    rc, so, se = run(cmd)
    if rc:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), se))
    return so


ARCH = {
    "x86_64": {"note": "x86 feature: IBT, SHSTK", "pad": "endbr64", "sp": "rsp", "init": 8,
               "callee": {"rbx", "rbp", "r12", "r13", "r14", "r15"}},
    "aarch64": {"note": "AArch64 feature: BTI, PAC", "pad": "bti c", "sp": "sp", "init": 0,
                "callee": {"x%d" % i for i in range(19, 31)} | {"d%d" % i for i in range(8, 16)}},
}


# -- readelf parsing -----------------------------------------------------------------------

def sections(arch, obj):
    secs = {}
    for line in out([tool(arch, "readelf"), "-SW", obj]).split("\n"):
        m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s*(\S*)\s+\d+\s+\d+"
                     r"\s+\d+\s*$", line)
        if m:
            secs[m.group(1)] = {"type": m.group(2), "flags": m.group(3)}
    return secs


def symbols(arch, obj):
    syms = []
    for line in out([tool(arch, "readelf"), "-sW", obj]).split("\n"):
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[0][:-1].isdigit():
            syms.append({"value": int(f[1], 16), "size": int(f[2], 0), "type": f[3],
                         "bind": f[4], "vis": f[5], "ndx": f[6], "name": f[7]})
    return syms


def fdes(arch, obj):
    """[(start, end, rows)] with rows = [(loc, cfa_reg, cfa_off, {reg: rule})]."""
    text = out([tool(arch, "readelf"), "--debug-dump=frames-interp", obj])
    result, cur, cols, cies, fde_cie = [], None, [], {}, {}
    for line in text.split("\n"):
        m = re.match(r"^[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ FDE cie=([0-9a-f]+) "
                     r"pc=([0-9a-f]+)\.\.([0-9a-f]+)", line)
        if m:
            cur = (int(m.group(2), 16), int(m.group(3), 16), [])
            result.append(cur)
            fde_cie[id(cur)] = m.group(1)
            continue
        m = re.match(r"^([0-9a-f]+) [0-9a-f]+ [0-9a-f]+ CIE", line)
        if m:
            cur = (None, None, [])
            cies[m.group(1)] = cur
            continue
        if cur is None:
            continue
        if line.strip().startswith("LOC"):
            cols = line.split()[2:]
            continue
        f = line.split()
        if len(f) >= 2 and re.match(r"^[0-9a-f]{8,}$", f[0]):
            cm = re.match(r"^(\w+)\+(-?\d+)$", f[1])
            rules = dict(zip(cols, f[2:]))
            cur[2].append((int(f[0], 16), cm.group(1) if cm else f[1],
                           int(cm.group(2)) if cm else None, rules))
    for fde in result:
        if not fde[2]:                  # no CFA instructions: the CIE's initial state holds
            cie = cies.get(fde_cie[id(fde)])
            if cie and cie[2]:
                _, reg, off, rules = cie[2][0]
                fde[2].append((fde[0], reg, off, rules))
    return result


def disassemble(arch, obj, start, end):
    insns = []
    for line in out([tool(arch, "objdump"), "-d", "-w", "--no-show-raw-insn", obj]).split("\n"):
        m = re.match(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*?)\s*$", line)
        if m:
            a = int(m.group(1), 16)
            if start <= a < end:
                ops = re.sub(r"\s*(//|#\s).*$", "", m.group(3)) if arch == "aarch64" else \
                    re.sub(r"\s*#.*$", "", m.group(3))
                insns.append((a, m.group(2), ops))
    return insns


# -- the stack-depth simulation ------------------------------------------------------------

def _imm(s):
    s = s.strip().lstrip("$#")
    neg = s.startswith("-")
    v = int(s.lstrip("-"), 0)
    return -v if neg else v


def stack_effect(arch, mnem, ops):
    """(delta of the CFA offset, [(reg, offset from the new sp)] stored, [regs] reloaded), or
    raise ValueError for a write to the stack pointer that the simulation cannot follow."""
    if arch == "x86_64":
        o = [x.strip() for x in re.split(r",(?![^(]*\))", ops)] if ops else []
        if mnem.startswith("push"):
            return 8, [(o[0].lstrip("%"), 0)], []
        if mnem.startswith("pop"):
            return -8, [], [o[0].lstrip("%")]
        if o and o[-1] == "%rsp":
            if mnem.startswith("sub") and o[0].startswith("$"):
                return _imm(o[0]), [], []
            if mnem.startswith("add") and o[0].startswith("$"):
                return -_imm(o[0]), [], []
            if mnem.startswith("lea"):
                m = re.match(r"^(-?0x[0-9a-f]+|-?\d+)?\(%rsp\)$", o[0])
                if m:
                    return -_imm(m.group(1) or "0"), [], []
            if not mnem.startswith(("cmp", "test")):
                raise ValueError("unsupported write to %%rsp: %s %s" % (mnem, ops))
        return 0, [], []
    o = [x.strip() for x in re.split(r",(?![^\[]*\])", ops)] if ops else []
    mem = next((x for x in o if x.startswith("[sp")), None)
    if mem is not None and mnem in ("stp", "str", "ldp", "ldr"):
        regs = [x for x in o if not x.startswith("[") and not x.startswith("#")]
        m = re.match(r"^\[sp(?:, #(-?(?:0x)?[0-9a-f]+))?\](!?)$", mem)
        off = _imm(m.group(1)) if m and m.group(1) else 0
        pre = bool(m and m.group(2))
        post = [x for x in o if x.startswith("#")]
        if mnem in ("stp", "str"):
            if pre:
                return -off, [(r, 8 * i) for i, r in enumerate(regs)], []
            return 0, [(r, off + 8 * i) for i, r in enumerate(regs)], []
        if post:
            return -_imm(post[0]), [], regs
        return 0, [], regs
    if o and o[0] == "sp":
        if mnem == "sub" and len(o) == 3 and o[1] == "sp" and o[2].startswith("#"):
            return _imm(o[2]), [], []
        if mnem == "add" and len(o) == 3 and o[1] == "sp" and o[2].startswith("#"):
            return -_imm(o[2]), [], []
        raise ValueError("unsupported write to sp: %s %s" % (mnem, ops))
    return 0, [], []


def _row_at(rows, addr):
    best = None
    for r in rows:
        if r[0] <= addr:
            best = r
    return best


def _rule_name(arch, reg):
    if arch == "aarch64" and reg.startswith("d"):
        return "v" + reg[1:]
    return reg


def _frame_bounds(arch, insns):
    """(index of the first instruction after the prologue's saves, index of the first
    instruction of the epilogue's restores): register rules are checked only there, so a
    callee-saved register spilled to a stack local in the body is not mistaken for a save."""
    def effect(i):
        try:
            return stack_effect(arch, insns[i][1], insns[i][2])
        except ValueError:
            return 0, [], []
    lo = 1 if insns and ("%s %s" % insns[0][1:]).strip() == ARCH[arch]["pad"] else 0
    while lo < len(insns):
        delta, stored, _ = effect(lo)
        if not stored and delta <= 0:
            break
        lo += 1
    hi = len(insns) - 1                       # the ret
    while hi - 1 >= lo:
        delta, _, reloaded = effect(hi - 1)
        if not reloaded and delta >= 0:
            break
        hi -= 1
    return lo, hi


def check_cfi(arch, obj, sym, rows, insns):
    errors = []
    a = ARCH[arch]
    depth = a["init"]
    pending = []        # (address of the next instruction, reg, expected rule)
    if arch == "x86_64":
        # the x86 builder pushes and pops only to save and restore (gen/lfgen/x86/function.py
        # allows no other stack move), so every push is a save and every pop a restore: that
        # also covers a second prologue, that of the code before the frame (prefix_upto)
        pro_end, epi_start = len(insns), 0
    else:
        pro_end, epi_start = _frame_bounds(arch, insns)
    for k, (addr, mnem, ops) in enumerate(insns):
        row = _row_at(rows, addr)
        if row is None:
            errors.append("%s: no CFI row at %#x" % (sym, addr))
            break
        if row[1] != a["sp"] or row[2] != depth:
            errors.append("%s: at %#x (%s %s) the CFA is %s+%s, the stack depth is %s+%d"
                          % (sym, addr, mnem, ops, row[1], row[2], a["sp"], depth))
            break
        for reg, rule in [(r, x) for n, r, x in pending if n == addr]:
            got = row[3].get(_rule_name(arch, reg))
            if got != rule:
                errors.append("%s: at %#x the rule for %s is %s, expected %s"
                              % (sym, addr, reg, got, rule))
        pending = [p for p in pending if p[0] != addr]
        try:
            delta, stored, reloaded = stack_effect(arch, mnem, ops)
        except ValueError as e:
            errors.append("%s: %s" % (sym, e))
            break
        depth += delta
        nxt = insns[k + 1][0] if k + 1 < len(insns) else None
        if nxt is not None:
            for reg, off in (stored if k < pro_end else []):
                if reg in a["callee"]:
                    pending.append((nxt, reg, "c-%d" % (depth - off)))
            for reg in (reloaded if k >= epi_start else []):
                if reg in a["callee"]:
                    pending.append((nxt, reg, "u"))
    if not errors and depth != a["init"]:
        errors.append("%s: stack depth %d at the end, expected %d" % (sym, depth, a["init"]))
    return errors


# -- per object ----------------------------------------------------------------------------

def check_object(arch, obj, hidden=None, expect_symbol=None):
    errors = []
    a = ARCH[arch]
    secs = sections(arch, obj)
    gs = secs.get(".note.GNU-stack")
    if gs is None:
        errors.append("%s: no .note.GNU-stack section" % obj)
    elif "X" in gs["flags"]:
        errors.append("%s: .note.GNU-stack is executable (flags %s)" % (obj, gs["flags"]))
    if ".note.gnu.property" not in secs:
        errors.append("%s: no .note.gnu.property section" % obj)
    notes = out([tool(arch, "readelf"), "-nW", obj])
    props = re.findall(r"Properties:\s*(.*)", notes)
    if props != [a["note"]]:
        errors.append("%s: GNU property %r, expected %r" % (obj, props, a["note"]))
    exported = [s for s in symbols(arch, obj) if s["bind"] in ("GLOBAL", "WEAK")
                and s["ndx"] != "UND"]
    if expect_symbol is not None and [s["name"] for s in exported] != [expect_symbol]:
        errors.append("%s: exports %s, expected exactly %s" % (
            obj, [s["name"] for s in exported], expect_symbol))
    frames = fdes(arch, obj)
    for s in exported:
        name = s["name"]
        if s["type"] != "FUNC":
            errors.append("%s: %s has type %s, not FUNC" % (obj, name, s["type"]))
            continue
        if s["size"] <= 0:
            errors.append("%s: %s has size 0" % (obj, name))
            continue
        if hidden is True and s["vis"] != "HIDDEN":
            errors.append("%s: %s is %s, kernels are hidden unless LF_EXPORT_KERNELS"
                          % (obj, name, s["vis"]))
        start, end = s["value"], s["value"] + s["size"]
        insns = disassemble(arch, obj, start, end)
        first = ("%s %s" % (insns[0][1], insns[0][2])).strip() if insns else None
        if first != a["pad"]:
            errors.append("%s: %s starts with %r, not %s" % (obj, name, first, a["pad"]))
        cover = [f for f in frames if f[0] == start and f[1] == end]
        if len(cover) != 1:
            errors.append("%s: %s [%#x, %#x) has %d FDEs covering it exactly (FDEs: %s)"
                          % (obj, name, start, end, len(cover),
                             ["%#x..%#x" % (f[0], f[1]) for f in frames]))
            continue
        errors += ["%s: %s" % (obj, e) for e in check_cfi(arch, obj, name, cover[0][2],
                                                          insns)]
    if not exported:
        errors.append("%s: exports no function" % obj)
    return errors


# -- the library link ----------------------------------------------------------------------

def library_objects(arch, build):
    text = open(os.path.join(ROOT, "generated", "sources.mk")).read()
    objs = []
    for var in ("LF_ASM_%s" % arch, "LF_C_SOURCES"):
        m = re.search(r"^%s :=((?:.*\\\n)*.*)$" % var, text, re.M)
        if not m:
            raise RuntimeError("generated/sources.mk has no %s" % var)
        for src in re.findall(r"\$\(LIMBFORGE_DIR\)/(\S+)", m.group(1)):
            objs.append(os.path.join(build, "obj", src + ".o"))
    return objs


def linker_has(arch, option):
    rc, so, se = run([tool(arch, "ld"), "--help"])
    return option in so


def check_link(arch, objs, verbose=False):
    errors = []
    with tempfile.TemporaryDirectory(prefix="lf-objcheck-") as d:
        so = os.path.join(d, "liblftest.so")
        strict = ["-Wl,-z,cet-report=error"] if arch == "x86_64" else ["-Wl,-z,force-bti"]
        if arch == "aarch64" and linker_has(arch, "bti-report"):
            strict.append("-Wl,-z,bti-report=error")
        for flags, what in ((strict, "strict"), ([], "plain")):
            cmd = [tool(arch, "cc"), "-shared", "-nostdlib", "-Wl,-z,noexecstack"] + flags + \
                ["-o", so] + objs
            rc, o, e = run(cmd)
            if verbose:
                print("  link (%s): %s" % (what, " ".join(flags) or "no extra flags"))
            if rc != 0 or e.strip():
                errors.append("%s link with %s: exit %d\n%s" % (arch, " ".join(flags) or
                                                                  "default flags", rc, e))
                continue
            props = re.findall(r"Properties:\s*(.*)", out([tool(arch, "readelf"), "-nW", so]))
            if ARCH[arch]["note"] not in props:
                errors.append("%s: the %s-linked shared object lost the property (%s)"
                              % (arch, what, props))
            stack = [l for l in out([tool(arch, "readelf"), "-lW", so]).split("\n")
                     if "GNU_STACK" in l]
            if not stack or "E" in stack[0].split()[-2]:
                errors.append("%s: GNU_STACK of the shared object: %s" % (arch, stack))
    return errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", choices=sorted(ARCH), action="append")
    ap.add_argument("--build", help="build directory (default build/<arch>)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    errors = []
    for arch in args.arch or sorted(ARCH):
        build = args.build or os.path.join(ROOT, "build", arch)
        gdir = os.path.join(ROOT, "generated", arch)
        sources = sorted(f for f in os.listdir(gdir) if f.endswith(".S"))
        nfunc = 0
        for src in sources:
            obj = os.path.join(build, "obj", "generated", arch, src + ".o")
            if not os.path.exists(obj):
                errors.append("%s missing: run `make ARCH=%s lib`" % (obj, arch))
                continue
            if os.path.getmtime(obj) < os.path.getmtime(os.path.join(gdir, src)):
                errors.append("%s is older than its source: run `make ARCH=%s lib`"
                              % (obj, arch))
                continue
            errs = check_object(arch, obj, hidden=True, expect_symbol="lf_" + src[:-2])
            nfunc += 1
            errors += errs
            if args.verbose:
                print("  %-60s %s" % (os.path.relpath(obj, ROOT), "FAIL" if errs else "ok"))
        objs = library_objects(arch, build)
        missing = [o for o in objs if not os.path.exists(o)]
        if missing:
            errors.append("library objects missing (run `make ARCH=%s lib`): %s"
                          % (arch, missing))
        else:
            errors += check_link(arch, objs, args.verbose)
        print("objcheck %-8s %3d kernel objects (GNU-stack, property note, FUNC symbol, "
              "landing pad, FDE + CFA per instruction); %d library objects linked"
              % (arch, nfunc, len(objs)))
    for e in errors:
        print("objcheck FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
