#!/usr/bin/python3
"""Every generated file assembled for every flavour it claims, and the objects checked.

Flavours (generated/sources.json lists them per architecture; lf_asm.h picks one from the
target's predefined macros, the files are the same):
  elf-x86_64     gcc                                     (objcheck.py checks these in depth)
  elf-aarch64    aarch64-linux-gnu-gcc
  macho-x86_64   clang -target x86_64-apple-macos11
  macho-arm64    clang -target arm64-apple-macos11
  win64-gas      x86_64-w64-mingw32-gcc (GNU as)         PE/COFF, Microsoft x64 convention
  win64-clang    clang -target x86_64-w64-mingw32
  win64-msvc     clang -target x86_64-pc-windows-msvc
Each file must assemble without a diagnostic. Per object (llvm-readobj-19, objdump):
  - ELF: exactly one defined global, lf_<file>, FUNC, hidden; the undefined symbols are the
    variants it jumps to by size dispatch; .note.GNU-stack, .note.gnu.property, .eh_frame;
    nothing of COFF (.pdata, .xdata, .drectve) and no _sysv symbol.
  - Mach-O: exactly one defined external, _lf_<file>, private extern, in __text; undefined:
    the dispatch targets; an unwind section (__eh_frame or __compact_unwind); no notes.
  - COFF (x86-64): the entry lf_<file> (external function) and the SysV body lf_<file>_sysv
    (function; static, or external exactly when a sibling jumps to it); undefined: the
    _sysv bodies it jumps to; .text, .xdata, .pdata, .debug_frame and nothing of ELF
    (.note*, .eh_frame); .pdata has one entry for the body and one for the entry, each
    covering the function, and its unwind codes are exactly what the disassembled prologue
    does (pushes, stack allocation, xmm saves, prologue size); every other instruction leaves
    rsp alone except the epilogue, which must be the canonical [add $n, %rsp] pops ret that
    Windows' unwinder recognises, undoing the codes in reverse; the entry saves every one of
    xmm6-xmm15 that its body or a sibling body it can reach writes (read off the
    disassembly), moves rcx, rdx, r8, r9 and the stack arguments (at the offsets its frame
    implies) into rdi, rsi, rdx, rcx, r8, r9 and calls its own body; .debug_frame has one
    FDE per function with the return address at [CFA-8] throughout.
  - win64-gas also: the body as the Win64 flavour assembles it (the `#if defined(LF_WIN64)`
    lines) compared instruction by instruction with the generator's text (roundtrip.py);
    -DLF_PREFIX renames entry and body, -DLF_EXPORT_KERNELS exports exactly the entry from a
    DLL (mingw-w64 ld), the default exports nothing.
Then, when mingw-w64 gcc and wine64 are installed, tests/flavours/win64_kat.exe is built
from generated/ + runtime/ and run under wine (known answers, Microsoft x64 ABI, SEH
unwinding at every instruction; see win64_kat.c).

    /usr/bin/python3 tests/flavours.py [--build DIR] [--no-wine] [-v]
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = os.path.join(ROOT, "generated", "include")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roundtrip  # noqa: E402

HOST = os.uname().machine.replace("arm64", "aarch64")
A64_CC = "gcc" if HOST == "aarch64" else "aarch64-linux-gnu-gcc"
X86_CC = "gcc" if HOST == "x86_64" else "x86_64-linux-gnu-gcc"
READOBJ = "llvm-readobj-19"
DWARFDUMP = "llvm-dwarfdump-19"
MINGW_CC = "x86_64-w64-mingw32-gcc"
MINGW_OBJDUMP = "x86_64-w64-mingw32-objdump"
MINGW_OBJCOPY = "x86_64-w64-mingw32-objcopy"

# name: (directory under generated/, compiler command, object format)
FLAVOURS = {
    "elf-x86_64": ("x86_64", [X86_CC], "elf"),
    "elf-aarch64": ("aarch64", [A64_CC], "elf"),
    "macho-x86_64": ("x86_64", ["clang", "-target", "x86_64-apple-macos11"], "macho"),
    "macho-arm64": ("aarch64", ["clang", "-target", "arm64-apple-macos11"], "macho"),
    "win64-gas": ("x86_64", [MINGW_CC], "coff"),
    "win64-clang": ("x86_64", ["clang", "-target", "x86_64-w64-mingw32"], "coff"),
    "win64-msvc": ("x86_64", ["clang", "-target", "x86_64-pc-windows-msvc"], "coff"),
}
SOURCES_JSON_NAME = {"elf": "elf", "macho": "macho", "coff": "win64"}


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def out(cmd):
    rc, so, se = run(cmd)
    if rc:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), se.strip()))
    return so


def assemble(cc, src, obj, defines=()):
    rc, so, se = run(cc + ["-I" + INCLUDE] + list(defines) + ["-c", src, "-o", obj])
    if rc or se.strip():
        return ["%s: %s %s\n%s" % (os.path.relpath(src, ROOT), " ".join(cc),
                                   " ".join(defines), se.strip())]
    return []


# -- llvm-readobj ----------------------------------------------------------------------------

def readobj_blocks(text, head):
    """`head {` ... `}` blocks of llvm-readobj output as dicts (key: value lines, bare words
    in a set under "words", nested lists flattened into "words")."""
    blocks, cur, depth = [], None, 0
    for line in text.split("\n"):
        t = line.strip()
        if cur is None:
            if t == head + " {":
                cur, depth = {"words": set()}, 1
            continue
        o = re.match(r"^(.*?)\s*[\[{](\s*\(.*\))?$", t)     # `Other [ (0x2)`, `Foo {`
        if o:
            depth += 1
            if o.group(1):
                cur["words"].add(o.group(1))
            continue
        if t in ("}", "]"):
            depth -= 1
            if depth == 0:
                blocks.append(cur)
                cur = None
            continue
        m = re.match(r"^([\w ]+?):\s*(.*)$", t)
        if m and depth == 1 and m.group(1) not in cur:
            cur[m.group(1)] = m.group(2)
        else:
            cur["words"].add(t.split(" (")[0])
    return blocks


def symbols(obj):
    syms = []
    for b in readobj_blocks(out([READOBJ, "--symbols", obj]), "Symbol"):
        b["name"] = re.sub(r"\s*\(\d+\)$", "", b.get("Name", "")).strip()
        syms.append(b)
    return syms


def section_names(obj):
    names = []
    for b in readobj_blocks(out([READOBJ, "--sections", obj]), "Section"):
        names.append(re.sub(r" \(.*\)$", "", b.get("Name", "")).strip())
    return names


# -- the manifest: what each file should contain ---------------------------------------------

def expectations():
    """{relpath: {"symbol", "targets", "jumped_from", "nargs", "arch"}} from MANIFEST.json."""
    man = json.load(open(os.path.join(ROOT, "generated", "MANIFEST.json")))
    exp = {}
    for k in man["kernels"].values():
        nargs = len([a for a in k["prototype"].split("(", 1)[1].rstrip(")").split(",")
                     if a.strip() and a.strip() != "void"])
        for v in k["variants"]:
            if v["arch"] in ("x86_64", "aarch64"):
                exp[v["file"]] = {"symbol": v["symbol"], "targets": v["tail_targets"],
                                  "nargs": nargs, "arch": v["arch"], "jumped_from": [],
                                  "win64": v.get("win64")}
    for rel, e in exp.items():
        for t in e["targets"]:
            for rel2, e2 in exp.items():
                if e2["symbol"] == t and e2["arch"] == e["arch"]:
                    e2["jumped_from"].append(e["symbol"])
    return exp


# -- ELF and Mach-O --------------------------------------------------------------------------

def check_elf(obj, e):
    errors = []
    syms = symbols(obj)
    defined = [s for s in syms if s.get("Binding", "").startswith(("Global", "Weak"))
               and not s.get("Section", "").startswith("Undefined")]
    undefined = sorted(s["name"] for s in syms if s.get("Section", "").startswith("Undefined")
                       and s["name"])
    if [s["name"] for s in defined] != [e["symbol"]]:
        errors.append("defines %s, expected exactly %s" % ([s["name"] for s in defined],
                                                           e["symbol"]))
    for s in defined:
        if not s.get("Type", "").startswith("Function") or "STV_HIDDEN" not in s["words"]:
            errors.append("%s: type %s, other %s (want a hidden function)"
                          % (s["name"], s.get("Type"), sorted(s["words"])))
    if undefined != sorted(e["targets"]):
        errors.append("undefined symbols %s, expected the dispatch targets %s"
                      % (undefined, sorted(e["targets"])))
    secs = section_names(obj)
    for need in (".note.GNU-stack", ".note.gnu.property", ".eh_frame"):
        if need not in secs:
            errors.append("no %s section" % need)
    bad = [s for s in secs if s in (".pdata", ".xdata", ".drectve", ".debug_frame")]
    if bad or any(s["name"].endswith("_sysv") for s in syms):
        errors.append("COFF/Win64 artefacts in an ELF object: %s" % (
            bad or [s["name"] for s in syms if s["name"].endswith("_sysv")]))
    return errors


def check_macho(obj, e):
    errors = []
    syms = symbols(obj)
    ext = [s for s in syms if "Extern" in s["words"]]
    defined = [s for s in ext if not s.get("Type", "").startswith("Undef")]
    undefined = sorted(s["name"] for s in ext if s.get("Type", "").startswith("Undef"))
    want = "_" + e["symbol"]
    if [s["name"] for s in defined] != [want]:
        errors.append("defines %s, expected exactly %s" % ([s["name"] for s in defined], want))
    for s in defined:
        if "PrivateExtern" not in s["words"] or not s.get("Section", "").startswith("__text"):
            errors.append("%s: %s in %s (want private extern in __text)"
                          % (s["name"], sorted(s["words"]), s.get("Section")))
    if undefined != sorted("_" + t for t in e["targets"]):
        errors.append("undefined symbols %s, expected the dispatch targets" % undefined)
    secs = section_names(obj)
    if "__text" not in secs or not ({"__eh_frame", "__compact_unwind"} & set(secs)):
        errors.append("sections %s: want __text and an unwind section" % secs)
    if [s for s in secs if "note" in s or s in (".pdata", ".xdata")]:
        errors.append("foreign sections in a Mach-O object: %s" % secs)
    return errors


# -- COFF (Win64) ----------------------------------------------------------------------------

def coff_functions(obj):
    """{symbol: [(addr, size, mnemonic, operands)]} from the disassembly (trailing padding
    dropped), plus {address of a call/jump: the symbol it reaches} (its relocation, or the
    function objdump names when the assembler resolved it)."""
    text = out([MINGW_OBJDUMP, "-d", "-r", "-w", obj])
    funcs, cur, relocs, last = {}, None, {}, None
    for line in text.split("\n"):
        h = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if h:
            cur = h.group(2)
            funcs[cur] = []
            continue
        rel = re.search(r"\t[0-9a-f]+: IMAGE_REL_AMD64_\w+\t(\S+)$", line)   # (-w: same line)
        if rel:
            line = line[:rel.start()]
        m = re.match(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*?)\s*$", line)
        if m and rel is not None:
            relocs[int(m.group(1), 16)] = rel.group(1)
        if m and cur is not None:
            ops = re.sub(r"\s*#.*$", "", m.group(4))
            t = re.search(r"\s*<([^>+]*)(\+0x[0-9a-f]+)?>$", ops)
            if t:                           # a branch: objdump names its target
                ops = ops[:t.start()]
                if not t.group(2) and rel is None:
                    relocs[int(m.group(1), 16)] = t.group(1)
            last = (int(m.group(1), 16), len(m.group(2).split()), m.group(3), ops)
            funcs[cur].append(last)
            continue
        r = re.match(r"^\s*([0-9a-f]+): (IMAGE_REL_AMD64_\w+)\s+(\S+)$", line)
        if r and last is not None:
            relocs[last[0]] = r.group(3)         # a relocation wins over the annotation
    for name, insns in funcs.items():
        while insns and roundtrip.is_padding(roundtrip.Insn(
                insns[-1][2], [o.strip() for o in insns[-1][3].split(",") if o.strip()], "")):
            insns.pop()
    return funcs, relocs


def unwind_entries(obj, values):
    """[(start, end, prolog_size, [codes])] from llvm-readobj --unwind; symbol+offset
    addresses resolved with `values` ({name: address}; section names count as 0)."""
    def addr(s):
        m = re.match(r"^(\S+?)(?: \+0x([0-9A-Fa-f]+))? \(", s)
        base = values.get(m.group(1), 0)
        return base + (int(m.group(2), 16) if m.group(2) else 0)
    entries = []
    for b in readobj_blocks(out([READOBJ, "--unwind", obj]), "RuntimeFunction"):
        codes = []
        for w in b["words"]:
            m = re.match(r"^0x([0-9A-F]+): (\w+) (.*)$", w)
            if m:
                codes.append((int(m.group(1), 16), m.group(2), m.group(3)))
        prolog = [int(w.split(":")[1]) for w in b["words"] if w.startswith("PrologSize:")]
        entries.append((addr(b["StartAddress"]), addr(b["EndAddress"]),
                        prolog[0] if prolog else -1, sorted(codes)))
    return entries


_XMM = re.compile(r"^%[xyz]mm(\d+)$")


def _ops(s):
    return [o.strip() for o in re.split(r",(?![^(]*\))", s)] if s else []


def expected_codes(insns, start, prolog):
    """Unwind codes implied by the instructions inside the prologue."""
    codes = []
    for addr, size, mnem, ops in insns:
        if addr - start >= prolog:
            break
        o, end = _ops(ops), addr + size - start
        if mnem.startswith("push"):
            codes.append((end, "PUSH_NONVOL", "reg=" + o[0].lstrip("%").upper()))
        elif mnem.startswith("sub") and o[-1] == "%rsp" and o[0].startswith("$"):
            n = int(o[0][1:], 0)
            codes.append((end, "ALLOC_SMALL" if n <= 128 else "ALLOC_LARGE", "size=%d" % n))
        elif mnem in ("movaps", "vmovaps", "movdqa", "vmovdqa") and _XMM.match(o[0]) \
                and o[1].endswith("(%rsp)"):
            off = o[1][:-len("(%rsp)")] or "0"
            codes.append((end, "SAVE_XMM128", "reg=XMM%s, offset=%#x" % (
                _XMM.match(o[0]).group(1), int(off, 0))))
    return sorted(codes)


def moves_rsp(mnem, ops):
    o = _ops(ops)
    return mnem.startswith(("push", "pop", "call", "ret")) or \
        (o and o[-1] == "%rsp" and not mnem.startswith(("cmp", "test")))


def check_unwind(name, insns, entry):
    """The unwind entry of one function against its disassembly."""
    errors = []
    start, end, prolog, codes = entry
    if not insns:
        return ["%s: no instructions" % name]
    if start != insns[0][0] or end < insns[-1][0] + insns[-1][1]:
        errors.append("%s: .pdata covers [%#x, %#x), the function is [%#x, %#x)"
                      % (name, start, end, insns[0][0], insns[-1][0] + insns[-1][1]))
    want = expected_codes(insns, start, prolog)
    got = list(codes)                   # llvm-readobj: `0x16: ALLOC_SMALL size=24`
    if want != got:
        errors.append("%s: unwind codes %s, the prologue does %s" % (name, got, want))
    # the canonical epilogue: [add $n, %rsp] pop... ret, undoing the codes in reverse
    if insns[-1][2] != "ret":
        errors.append("%s: does not end in ret" % name)
        return errors
    k = len(insns) - 1
    pops = []
    while k - 1 >= 0 and insns[k - 1][2].startswith("pop"):
        k -= 1
        pops.insert(0, insns[k][3].lstrip("%").upper())
    alloc = None
    if k - 1 >= 0 and insns[k - 1][2].startswith("add") and _ops(insns[k - 1][3])[-1] == "%rsp":
        k -= 1
        alloc = int(_ops(insns[k][3])[0][1:], 0)
    pushes = [a[len("reg="):] for _, op, a in want if op == "PUSH_NONVOL"]   # in order
    allocs = [int(a[len("size="):]) for _, op, a in want if op.startswith("ALLOC")]
    if pops != pushes[::-1]:
        errors.append("%s: epilogue pops %s, the prologue pushed %s" % (name, pops, pushes))
    if (alloc or 0) != sum(allocs):
        errors.append("%s: epilogue releases %s bytes, the prologue allocated %s"
                      % (name, alloc, sum(allocs)))
    for addr, size, mnem, ops in insns:
        if prolog <= addr - start and addr < insns[k][0] and moves_rsp(mnem, ops) and \
                not mnem.startswith("call"):
            errors.append("%s: `%s %s` at +%#x moves rsp outside the prologue and the "
                          "epilogue" % (name, mnem, ops, addr - start))
    return errors


def written_xmm(insns):
    """xmm ids 6..15 that instructions write (AT&T: the last operand is the destination)."""
    ids = set()
    for _, _, mnem, ops in insns:
        o = _ops(ops)
        if mnem == "vzeroall":
            ids |= set(range(6, 16))
        if o:
            m = _XMM.match(re.sub(r"\{[^}]*\}", "", o[-1]))
            if m and 6 <= int(m.group(1)) <= 15:
                ids.add(int(m.group(1)))
    return ids


def saved_xmm(entry):
    return {int(re.search(r"XMM(\d+)", a).group(1)) for _, op, a in entry[3]
            if op == "SAVE_XMM128"}


def check_entry_moves(name, body, insns, entry, nargs, relocs):
    """After the prologue: the argument moves, then the call of the body."""
    errors = []
    prolog = entry[2]
    after = [x for x in insns if x[0] - entry[0] >= prolog]
    frame = sum(int(a[len("size="):]) for _, op, a in entry[3] if op.startswith("ALLOC"))
    pushes = len([1 for _, op, _ in entry[3] if op == "PUSH_NONVOL"])
    win = ["%rcx", "%rdx", "%r8", "%r9"] + ["%#x(%%rsp)" % (frame + 8 * pushes + 8 + 32 + 8 * i)
                                            for i in range(2)]
    sysv = ["%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9"]
    want = ["mov %s,%s" % (win[i], sysv[i]) for i in range(nargs)]
    got = ["%s %s" % (m, o) for _, _, m, o in after[:nargs]]
    if got != want:
        errors.append("%s: argument moves %s, expected %s" % (name, got, want))
    call = after[nargs] if len(after) > nargs else None
    if call is None or call[2] != "call":
        errors.append("%s: no call after the argument moves (%s)" % (name, call))
    elif relocs.get(call[0]) != body:
        errors.append("%s: calls %s, not its body %s" % (name, relocs.get(call[0]), body))
    return errors


def check_coff(obj, e, written_by):
    """written_by: {body symbol: xmm ids its disassembly writes} (all files of the flavour)."""
    errors = []
    sym, body = e["symbol"], e["symbol"] + "_sysv"
    syms = symbols(obj)
    values = {s["name"]: int(s.get("Value", "0"), 0) for s in syms}
    by = {s["name"]: s for s in syms}
    ext_defined = sorted(s["name"] for s in syms if s.get("StorageClass", "").startswith(
        "External") and not s.get("Section", "").startswith("IMAGE_SYM_UNDEFINED"))
    undefined = sorted(s["name"] for s in syms if s.get("Section", "").startswith(
        "IMAGE_SYM_UNDEFINED"))
    want_ext = sorted([sym] + ([body] if e["jumped_from"] else []))
    if ext_defined != want_ext:
        errors.append("external symbols %s, expected %s" % (ext_defined, want_ext))
    for name, cls in ((sym, "External"), (body, "External" if e["jumped_from"] else "Static")):
        s = by.get(name)
        if s is None:
            errors.append("no symbol %s" % name)
        elif not s.get("ComplexType", "").startswith("Function") or \
                not s.get("StorageClass", "").startswith(cls):
            errors.append("%s: %s, %s (want a %s function)" % (
                name, s.get("ComplexType"), s.get("StorageClass"), cls.lower()))
    if undefined != sorted(t + "_sysv" for t in e["targets"]):
        errors.append("undefined symbols %s, expected the dispatch targets' bodies" % undefined)
    secs = section_names(obj)
    for need in (".text", ".xdata", ".pdata", ".debug_frame"):
        if need not in secs:
            errors.append("no %s section" % need)
    bad = [s for s in secs if s.startswith(".note") or s in (".eh_frame", ".drectve")]
    if bad:
        errors.append("foreign sections: %s" % bad)
    funcs, relocs = coff_functions(obj)
    entries = unwind_entries(obj, values)
    starts = {x[0]: x for x in entries}
    if len(entries) != 2:
        errors.append("%d .pdata entries, expected 2 (body and entry)" % len(entries))
    for name in (body, sym):
        if name not in funcs or name not in values:
            errors.append("%s missing from the disassembly" % name)
            continue
        ent = starts.get(values[name])
        if ent is None:
            errors.append("%s has no .pdata entry" % name)
            continue
        errors += check_unwind(name, funcs[name], ent)
    if errors:
        return errors
    ent = starts[values[sym]]
    need = set(written_by.get(body, set()))
    todo = list(e["targets"])
    while todo:
        t = todo.pop()
        need |= written_by.get(t + "_sysv", set())
    missing = need - saved_xmm(ent)
    if missing:
        errors.append("%s does not save xmm %s, which its body (or a dispatch target) writes"
                      % (sym, sorted(missing)))
    errors += check_entry_moves(sym, body, funcs[sym], ent, e["nargs"], relocs)
    errors += check_debug_frame(obj, [(values[n], funcs[n]) for n in (body, sym)])
    return errors


def check_debug_frame(obj, functions):
    """The CFI of a COFF object (in .debug_frame, for debuggers): one FDE per function,
    covering it, and the return address at [CFA-8] in every row (GNU as numbers the
    return-address column 32 on x86-64 COFF, DWARF's xmm15: nothing may describe xmm15)."""
    errors = []
    text = out([DWARFDUMP, "--debug-frame", obj])
    fdes = [(int(a, 16), int(b, 16)) for a, b in
            re.findall(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.\.([0-9a-f]+)", text)]
    want = [(start, insns[-1][0] + insns[-1][1]) for start, insns in functions]
    if sorted(fdes) != sorted(want):
        errors.append(".debug_frame FDEs %s, the functions are %s"
                      % (["%#x..%#x" % f for f in fdes], ["%#x..%#x" % f for f in want]))
    for row in re.findall(r"^\s+0x[0-9a-f]+: CFA=.*$", text, re.M):
        ra = re.findall(r"\b(?:RIP|XMM15)=(\S+?),?(?:\s|$)", row)
        if ra != ["[CFA-8]"]:
            errors.append(".debug_frame row `%s`: the return address is not at [CFA-8]"
                          % row.strip())
            break
    return errors


def check_coff_knobs(src, e, tmp):
    """-DLF_PREFIX and -DLF_EXPORT_KERNELS in the Win64 flavour (GNU as and clang)."""
    errors = []
    sym = e["symbol"]
    for cc in ([MINGW_CC], ["clang", "-target", "x86_64-w64-mingw32"]):
        tag = os.path.basename(cc[-1])
        obj = os.path.join(tmp, "pfx-%s-%s.obj" % (tag, sym))
        errs = assemble(cc, src, obj, ["-DLF_PREFIX=pfx_"])
        if errs:
            return errs
        names = {s["name"] for s in symbols(obj)}
        for want in ("pfx_" + sym, "pfx_" + sym + "_sysv") + tuple(
                "pfx_%s_sysv" % t for t in e["targets"]):
            if want not in names:
                errors.append("-DLF_PREFIX=pfx_ (%s): no %s" % (tag, want))
        if {sym, sym + "_sysv"} & names:
            errors.append("-DLF_PREFIX=pfx_ (%s): unprefixed symbols remain" % tag)
        obj = os.path.join(tmp, "exp-%s-%s.obj" % (tag, sym))
        errs = assemble(cc, src, obj, ["-DLF_EXPORT_KERNELS"])
        if errs:
            return errs
        raw = obj + ".drectve"
        out([MINGW_OBJCOPY, "--dump-section", ".drectve=" + raw, obj, os.devnull])
        directives = open(raw, "rb").read().rstrip(b"\0").decode().split()
        if directives != ["-export:" + sym]:
            errors.append("-DLF_EXPORT_KERNELS (%s): .drectve holds %s, expected -export:%s"
                          % (tag, directives, sym))
    return errors


def check_dll_exports(objs, entries, tmp):
    """Link the Win64 objects into DLLs with mingw-w64: with -DLF_EXPORT_KERNELS the export
    table is exactly the entries; by default (with one explicit export elsewhere, as a real
    library has) no kernel symbol is exported."""
    errors = []
    for what, objlist, want in (("-DLF_EXPORT_KERNELS", objs["export"], sorted(entries)),
                                ("default", objs["default"], [])):
        stub = os.path.join(tmp, "dllstub-%s.c" % what.strip("-"))
        with open(stub, "w") as f:
            f.write("__declspec(dllexport) int lf_dll_stub(void) { return 0; }\n"
                    "int DllMainCRTStartup(void *a, unsigned b, void *c) "
                    "{ (void)a; (void)b; (void)c; return 1; }\n")
        dll = os.path.join(tmp, "k-%s.dll" % what.strip("-"))
        rc, so, se = run([MINGW_CC, "-shared", "-nostdlib", "-o", dll, stub] + objlist +
                         ["-Wl,-e,DllMainCRTStartup"])
        if rc:
            errors.append("DLL link (%s) failed: %s" % (what, se.strip()))
            continue
        dump = out([MINGW_OBJDUMP, "-p", dll])
        table = dump.split("[Ordinal/Name Pointer] Table", 1)
        names = re.findall(r"^\s*\[\s*\d+\] (\S+)$", table[1].split("\n\n")[0], re.M) \
            if len(table) == 2 else []
        if "lf_dll_stub" not in names:
            errors.append("DLL (%s): the export table cannot be read:\n%s" % (what, dump))
        got = sorted(n for n in names if n != "lf_dll_stub")
        if got != want:
            errors.append("DLL (%s) exports %s, expected %s" % (what, got, want))
    return errors


# -- the wine run ----------------------------------------------------------------------------

def wine_binary():
    for w in (shutil.which("wine64"), "/usr/lib/wine/wine64", shutil.which("wine")):
        if w and os.path.exists(w):
            return w
    return None


def build_and_run_wine(build, verbose):
    exe = os.path.join(build, "win64_kat.exe")
    srcs = sorted([os.path.join("runtime", f) for f in os.listdir(os.path.join(ROOT, "runtime"))
                   if f.endswith(".c")] +
                  [os.path.join("runtime", "ref", f) for f in
                   os.listdir(os.path.join(ROOT, "runtime", "ref")) if f.endswith(".c")] +
                  ["generated/dispatch_table.c"] +
                  [os.path.join("generated", "fields", f) for f in       # runtime/xdh.c's
                   os.listdir(os.path.join(ROOT, "generated", "fields")) if f.endswith(".c")] +
                  [os.path.join("generated", "x86_64", f) for f in
                   os.listdir(os.path.join(ROOT, "generated", "x86_64")) if f.endswith(".S")] +
                  ["tests/flavours/win64_call.S", "tests/flavours/win64_kat.c"])
    cmd = [MINGW_CC, "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror",
           "-Iruntime/include", "-Iruntime", "-Iruntime/ref", "-Igenerated/include",
           "-Itests/flavours", "-o", exe] + srcs
    rc, so, se = run(cmd, cwd=ROOT)
    if rc:
        return ["building %s failed:\n%s" % (exe, se)], None
    wine = wine_binary()
    if wine is None:
        return [], "wine64 not installed: %s built, not run" % os.path.relpath(exe, ROOT)
    env = dict(os.environ, WINEPREFIX=os.path.join(build, "wineprefix"), WINEDEBUG="-all",
               WINEDLLOVERRIDES="mscoree,mshtml=")
    try:
        p = subprocess.run([wine, exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env, timeout=240)
    except subprocess.TimeoutExpired:
        return ["wine %s timed out" % exe], None
    lines = p.stdout.replace("\r\n", "\n").rstrip("\n")
    if p.returncode != 0:
        return ["win64_kat.exe under wine: exit %d\n%s\n%s" % (p.returncode, lines,
                                                              p.stderr[-2000:])], None
    # the example consumer's known answers, built the way README's Windows paragraph says
    kat = os.path.join(build, "consumer_kat.exe")
    rc, so, se = run([MINGW_CC, "-O2", "-std=c11", "-Iruntime/include",
                      "-Iruntime", "-Igenerated/include", "tests/consumer/kat.c"] +
                     [x for x in srcs if not x.startswith("tests/")] + ["-o", kat], cwd=ROOT)
    if rc:
        return ["building %s failed:\n%s" % (kat, se)], None
    p = subprocess.run([wine, kat], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env, timeout=120)
    if p.returncode != 0:
        return ["consumer_kat.exe under wine: exit %d\n%s" % (p.returncode, p.stdout)], None
    ok = len(re.findall(r" ok\r?$", p.stdout, re.M))
    lines += "\nwin64: tests/consumer/kat.c built with mingw-w64 from generated/ + runtime/: " \
        "%d known answers ok under wine" % ok
    return [], lines if verbose else "\n".join(lines.split("\n")[-2:])


# -- driver ----------------------------------------------------------------------------------

def have(cmd):
    return shutil.which(cmd[0]) is not None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "flavours"))
    ap.add_argument("--no-wine", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    os.makedirs(args.build, exist_ok=True)
    exp = expectations()
    sj = json.load(open(os.path.join(ROOT, "generated", "sources.json")))
    errors, skipped = [], []
    if not have([READOBJ]):
        print("flavours: %s is needed (llvm-19)" % READOBJ)
        return 1
    # 1. assemble everything, in parallel
    jobs = []
    for fl, (arch, cc, fmt) in FLAVOURS.items():
        if not have(cc):
            skipped.append("%s (%s not installed)" % (fl, cc[0]))
            continue
        claimed = sj["asm"][arch].get("flavours", [])
        if SOURCES_JSON_NAME[fmt] not in claimed:
            errors.append("sources.json does not claim %s for %s" % (fmt, arch))
        d = os.path.join(args.build, fl)
        os.makedirs(d, exist_ok=True)
        for rel in sj["asm"][arch]["files"]:
            jobs.append((fl, rel, os.path.join(d, os.path.basename(rel)[:-2] +
                                               (".obj" if fmt == "coff" else ".o"))))
    missing = sorted(set(exp) - {rel for _, rel, _ in jobs})
    if missing and not skipped:
        errors.append("generated files not in sources.json: %s" % missing)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda j: assemble(FLAVOURS[j[0]][1],
                                                 os.path.join(ROOT, j[1]), j[2]), jobs))
    for errs in results:
        errors += errs
    if errors:
        for e in errors:
            print("flavours FAIL:", e)
        return 1
    # 2. per-object checks; COFF first collects what every body writes
    written = {}
    for fl, rel, obj in jobs:
        if FLAVOURS[fl][2] == "coff":
            funcs, _ = coff_functions(obj)
            body = exp[rel]["symbol"] + "_sysv"
            written.setdefault(fl, {})[body] = written_xmm(funcs.get(body, []))

    def check(job):
        fl, rel, obj = job
        fmt, e = FLAVOURS[fl][2], exp[rel]
        try:
            errs = {"elf": check_elf, "macho": check_macho}[fmt](obj, e) if fmt != "coff" \
                else check_coff(obj, e, written[fl])
        except Exception as ex:       # a tool failure is a test failure
            errs = ["%s: %s" % (type(ex).__name__, ex)]
        return ["%s %s: %s" % (fl, os.path.basename(rel), x) for x in errs]

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for errs in ex.map(check, jobs):
            errors += errs
    counts = {}
    for fl, _, _ in jobs:
        counts[fl] = counts.get(fl, 0) + 1
    # 3. Win64 extras: the Win64 text round trip, prefix/export knobs, DLL exports
    win_files = [rel for rel in sj["asm"]["x86_64"]["files"]]
    n_rt = 0
    if have([MINGW_CC]):
        with tempfile.TemporaryDirectory(prefix="lf-flavours-") as tmp:
            for rel in win_files:
                text = open(os.path.join(ROOT, rel)).read()
                n, errs = roundtrip.compare_text("x86_64", text, tmp,
                                                 "w64_" + os.path.basename(rel)[:-2],
                                                 win64=True)
                n_rt += n
                errors += ["win64 round trip: %s" % x for x in errs]
                errors += ["%s: %s" % (rel, x) for x in
                           check_coff_knobs(os.path.join(ROOT, rel), exp[rel], tmp)]
            objs = {"export": [], "default": []}
            for rel in win_files:
                for kind, defs in (("export", ["-DLF_EXPORT_KERNELS"]), ("default", [])):
                    o = os.path.join(tmp, "%s-%s.obj" % (kind, os.path.basename(rel)[:-2]))
                    errors += assemble([MINGW_CC], os.path.join(ROOT, rel), o, defs)
                    objs[kind].append(o)
            errors += check_dll_exports(objs, [exp[r]["symbol"] for r in win_files], tmp)
    for fl in FLAVOURS:
        if fl in counts:
            bad = any(e.startswith(fl + " ") for e in errors)
            print("flavours %-13s %2d files assembled; symbols, sections%s: %s" % (
                fl, counts[fl], ", SEH unwind codes vs prologue/epilogue, entry shim"
                if FLAVOURS[fl][2] == "coff" else "", "FAILED" if bad else "ok"))
    if n_rt:
        bad = [e for e in errors if not e.startswith(tuple(FLAVOURS))]
        print("flavours win64-gas     %d instructions of the Win64 bodies == generator text; "
              "LF_PREFIX, LF_EXPORT_KERNELS, DLL exports: %s" % (n_rt,
                                                                 "FAILED" if bad else "ok"))
    # 4. run the Win64 flavour
    if not args.no_wine and not errors:
        if have([MINGW_CC]):
            errs, msg = build_and_run_wine(args.build, args.verbose)
            errors += errs
            if msg:
                print(msg)
        else:
            skipped.append("the wine run (%s not installed)" % MINGW_CC)
    for s in skipped:
        print("flavours SKIPPED:", s)
    for e in errors:
        print("flavours FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
