#!/usr/bin/python3
"""Assembler round trip of the generated kernels (TESTING.md item 12).

For every generated/<arch>/*.S:
  1. assemble it (gcc -c -Igenerated/include; aarch64-linux-gnu-gcc for AArch64), disassemble
     the object with objdump and compare, instruction by instruction, with the instructions the
     generator printed: mnemonic and operands after normalisation (immediates to integers,
     AT&T size suffixes, condition-code spellings, the aliases objdump prefers: `mov` for
     `orr`, `cmp` for `subs xzr`, `bti c` for `hint #34`, ...); branch targets are compared by
     label (the address objdump shows must be the address of the instruction that follows
     the label in the generator's text);
  2. x86-64 only: re-run the generator in memory, encode every x86-64 function with PeachPy
     (ABIFunction.encode) and check that objdump of PeachPy's bytes and objdump of gas's bytes
     agree on every non-branch instruction -- an independent check of our GAS printer against
     PeachPy's encoder (operand order, register names, masks, broadcasts, displacements).

    /usr/bin/python3 tests/roundtrip.py [--arch x86_64|aarch64] [--no-peachpy] [-v] [FILE.S ...]

Prints a summary (files, instructions compared) and exits 1 on any mismatch.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = os.path.join(ROOT, "generated", "include")

TOOLS = {
    "x86_64": {"cc": "gcc", "objdump": "objdump", "pad": ("endbr64", []), "bfd": "i386:x86-64"},
    "aarch64": {"cc": "aarch64-linux-gnu-gcc", "objdump": "aarch64-linux-gnu-objdump",
                "pad": ("bti", ["c"]), "bfd": "aarch64"},
}
if os.uname().machine in ("aarch64", "arm64"):
    TOOLS["aarch64"].update(cc="gcc", objdump="objdump")
# the Win64 flavour of the x86-64 files (PE/COFF; tests/flavours.py uses it)
WIN64_TOOLS = {"cc": "x86_64-w64-mingw32-gcc", "objdump": "x86_64-w64-mingw32-objdump"}


class Insn:
    def __init__(self, mnem, ops, text, addr=None, size=None, target=None):
        self.mnem = mnem
        self.ops = ops            # operand strings
        self.text = text
        self.addr = addr
        self.size = size
        self.target = target      # branch target: label name (generator) or address (objdump)

    def __repr__(self):
        return self.text


def split_operands(s):
    """Split at top-level commas (not inside (), [] or {})."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


# -- branches ------------------------------------------------------------------------------

X86_COND = {"z": "e", "nz": "ne", "c": "b", "nae": "b", "nc": "ae", "nb": "ae", "na": "be",
            "nbe": "a", "pe": "p", "po": "np", "nge": "l", "nl": "ge", "ng": "le", "nle": "g"}


def is_branch(arch, mnem):
    if arch == "x86_64":
        return mnem.startswith("j") or mnem in ("call", "callq", "loop")
    return mnem in ("b", "bl", "cbz", "cbnz", "tbz", "tbnz") or mnem.startswith("b.")


# -- parsing the generator's text ----------------------------------------------------------

def flavour_lines(body, win64=False):
    """The lines of a body as one flavour assembles them: `#if defined(LF_WIN64)` hunks
    (where the Win64 form of a body differs, gen/lfgen/x86/win64.py) kept for Win64 only,
    `#if !defined(LF_WIN64)` and `#else` branches for the others."""
    out, keep, depth = [], True, 0
    for line in body.split("\n"):
        t = line.strip()
        if t in ("#if defined(LF_WIN64)", "#if !defined(LF_WIN64)"):
            if depth:
                raise ValueError("nested #if in a function body")
            depth, keep = 1, (t == "#if defined(LF_WIN64)") == win64
        elif t == "#else" and depth:
            keep = not keep
        elif t == "#endif" and depth:
            depth, keep = 0, True
        elif t.startswith("#"):
            raise ValueError("unexpected preprocessor line in a function body: %s" % t)
        elif keep:
            out.append(line)
    if depth:
        raise ValueError("unterminated #if in a function body")
    return "\n".join(out)


def parse_generated(text, arch, win64=False):
    """The function body between LF_FUNC_BEGIN(...) and LF_FUNC_END(...): instructions (with
    the prelude's landing pad first) and {label: index of the next instruction}. `win64`:
    the body as the Win64 flavour assembles it (x86-64)."""
    m = re.search(r"^LF_FUNC_BEGIN\((\w+)\)\n(.*?)^LF_FUNC_END\(\1\)", text, re.M | re.S)
    if not m:
        raise ValueError("no LF_FUNC_BEGIN/LF_FUNC_END pair")
    symbol, body = m.group(1), m.group(2)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    body = flavour_lines(body, win64)
    pad, pad_ops = TOOLS[arch]["pad"]
    insns = [Insn(pad, list(pad_ops), "<landing pad from lf_asm.h>")]
    labels = {}
    aligns = set()          # indices preceded by an alignment directive (padding allowed)
    for line in body.split("\n"):
        line = line.split("//")[0].strip() if arch == "aarch64" else line.strip()
        if not line:
            continue
        if re.match(r"^[.\w]+:$", line):
            labels[line[:-1]] = len(insns)
            continue
        if re.match(r"^LF_SEH_[A-Z]+(\(.*\))?$", line):
            continue                    # Windows unwind directives (empty outside Win64)
        if line.startswith("."):
            if line.startswith((".p2align", ".balign", ".align")):
                aligns.add(len(insns))
                continue
            if line.startswith(".cfi_"):
                continue
            raise ValueError("unexpected directive in a function body: %s" % line)
        parts = line.split(None, 1)
        mnem = parts[0].lower()
        ops = split_operands(parts[1]) if len(parts) > 1 else []
        ins = Insn(mnem, ops, line)
        if is_branch(arch, mnem) and ops:
            ins.target = ops[-1]
            ins.ops = ops[:-1]
        insns.append(ins)
    return symbol, insns, labels, aligns


def is_padding(ins):
    """A nop that an alignment directive may have put in (objdump's spellings)."""
    if ins.mnem in ("nop", "nopw", "nopl", "cs", "data16"):
        return True
    return ins.mnem == "xchg" and ins.ops == ["%ax", "%ax"]


# -- objdump -------------------------------------------------------------------------------

_LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)(?:\s+(.*?))?\s*$")


def parse_objdump(out, arch, symbol=None):
    """[(Insn)] of `symbol` (or of every function) from `objdump -d -w` output."""
    insns, cur = [], None
    for line in out.split("\n"):
        h = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if h:
            cur = h.group(1)
            continue
        m = _LINE.match(line)
        if not m or (symbol is not None and cur != symbol):
            continue
        addr, raw, mnem, ops = int(m.group(1), 16), m.group(2), m.group(3), m.group(4) or ""
        ops = re.sub(r"\s*(#|//).*$", "", ops) if arch == "x86_64" else \
            re.sub(r"\s*//.*$", "", ops)
        size = len(raw.split()) if arch == "x86_64" else 4
        mnem = mnem.lower()
        ins = Insn(mnem, [], line.strip(), addr, size)
        ops = split_operands(ops)
        if is_branch(arch, mnem) and ops:
            t = re.match(r"^(0x)?([0-9a-f]+)( <.*>)?$", ops[-1])
            if t:
                ins.target = int(t.group(2), 16)
                ops = ops[:-1]
        ins.ops = ops
        insns.append(ins)
    return insns


def objdump(arch, obj, binary=False, tool=None):
    cmd = [tool or TOOLS[arch]["objdump"], "-d", "-w"]
    if binary:
        cmd = [TOOLS[arch]["objdump"], "-D", "-w", "-b", "binary", "-m", TOOLS[arch]["bfd"]]
    p = subprocess.run(cmd + [obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise RuntimeError("objdump failed: %s" % p.stderr)
    return p.stdout


def relocs(arch, obj, _cache={}, tool=None):
    """[(offset, symbol)] of the object's relocations (objdump -r)."""
    if obj not in _cache:
        out = subprocess.run([tool or TOOLS[arch]["objdump"], "-r", "-w", obj],
                             stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True).stdout
        rel = []
        for line in out.splitlines():
            m = re.match(r"^([0-9a-f]{8,16})\s+\S+\s+([A-Za-z_.][\w.]*)", line)
            if m:
                rel.append((int(m.group(1), 16), m.group(2)))
        _cache[obj] = rel
    return _cache[obj]


def assemble(arch, src, obj, cc=None):
    p = subprocess.run([cc or TOOLS[arch]["cc"], "-c", "-I" + INCLUDE, src, "-o", obj],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise RuntimeError("assembling %s failed:\n%s" % (src, p.stderr))
    if p.stderr.strip():
        raise RuntimeError("assembler warnings for %s:\n%s" % (src, p.stderr))


def symbol_size(arch, obj, symbol):
    tool = "readelf" if arch == "x86_64" or TOOLS[arch]["cc"] == "gcc" else \
        "aarch64-linux-gnu-readelf"
    out = subprocess.run([tool, "-sW", obj], stdout=subprocess.PIPE, text=True).stdout
    for line in out.split("\n"):
        f = line.split()
        if len(f) >= 8 and f[7] == symbol:
            return int(f[1], 16), int(f[2], 0)
    raise RuntimeError("no symbol %s in %s" % (symbol, obj))


# -- normalisation -------------------------------------------------------------------------

def _int(s):
    s = s.strip()
    neg = s.startswith("-")
    v = int(s[1:] if neg else s, 0)
    return -v if neg else v


def norm_x86_operand(op):
    op = op.strip().replace(" ", "")
    if op.startswith("$"):
        try:
            return ("imm", _int(op[1:]))
        except ValueError:
            return op
    m = re.match(r"^(-?(?:0x[0-9a-f]+|\d+))?\(([^)]*)\)(.*)$", op)
    if m:
        return ("mem", _int(m.group(1)) if m.group(1) else 0, m.group(2), m.group(3))
    return op.lower()


def norm_x86_mnem(m):
    m = m.lower()
    for pre in ("cmov", "set", "j"):
        if m.startswith(pre):
            cc = m[len(pre):]
            suffix = ""
            if pre == "cmov" and cc[-1:] in "wlq" and cc[:-1] in X86_COND.values() | X86_COND.keys():
                cc, suffix = cc[:-1], cc[-1]
            if cc in X86_COND:
                return pre + X86_COND[cc] + suffix
    # `movq $imm64, %r` (an immediate that needs 64 bits) is printed by objdump as movabs
    return {"cqo": "cqto", "cdqe": "cltq", "cwde": "cwtl", "cdq": "cltd",
            "movabs": "movq"}.get(m, m)


def mnem_eq_x86(a, b):
    a, b = norm_x86_mnem(a), norm_x86_mnem(b)
    return a == b or (a[:-1] == b and a[-1] in "bwlq") or (b[:-1] == a and b[-1] in "bwlq")


def imm_eq(a, b):
    if a == b or (a - b) % (1 << 64) == 0:
        return True
    # objdump shows an imm8/imm32 sign-extended to the operand size (e.g. $0xfffffff0)
    return (a - b) % (1 << 32) == 0 and max(a, b) < (1 << 32)


def operands_eq(x, y):
    if isinstance(x, tuple) and isinstance(y, tuple) and x[0] == y[0] == "imm":
        return imm_eq(x[1], y[1])
    return x == y


_SHIFT1 = ("shl", "shr", "sar", "sal", "rol", "ror", "rcl", "rcr")


def x86_ops(ins):
    ops = [norm_x86_operand(o) for o in ins.ops]
    # `shrq $1, %rax` assembles to the shift-by-one form that objdump prints as `shr %rax`
    if any(norm_x86_mnem(ins.mnem).startswith(s) for s in _SHIFT1) and len(ops) == 2 \
            and ops[0] == ("imm", 1):
        ops = ops[1:]
    return ops


A64_INV = {"eq": "ne", "ne": "eq", "cs": "cc", "cc": "cs", "mi": "pl", "pl": "mi", "vs": "vc",
           "vc": "vs", "hi": "ls", "ls": "hi", "ge": "lt", "lt": "ge", "gt": "le", "le": "gt"}
A64_COND = {"hs": "cs", "lo": "cc"}
_ZR = ("xzr", "wzr")


def norm_a64_operand(op):
    op = op.strip()
    if op.startswith("#"):
        try:
            return ("imm", _int(op[1:]))
        except ValueError:
            return op.lower()
    if op.startswith("["):
        inner, rest = op[1:op.index("]")], op[op.index("]") + 1:]
        parts = tuple(norm_a64_operand(p) for p in split_operands(inner))
        return ("mem", parts, rest.strip())
    if op.startswith("{"):
        return ("list", tuple(norm_a64_operand(p) for p in split_operands(op[1:-1])))
    m = re.match(r"^(lsl|lsr|asr|ror|msl|uxt[bhwx]|sxt[bhwx])\s*(#\S+)?$", op, re.I)
    if m:
        return ("shift", m.group(1).lower(), _int(m.group(2)[1:]) if m.group(2) else None)
    op = op.lower()
    return A64_COND.get(op, op)


def a64_canonical(mnem, ops):
    """Rewrite an instruction into the alias objdump prints (applied to both sides)."""
    m, o = mnem.lower(), list(ops)
    if m.startswith("b.") and m[2:] in A64_COND:
        m = "b." + A64_COND[m[2:]]
    if m == "hint" and o == [("imm", 34)]:
        return "bti", ["c"]
    if m in ("tbz", "tbnz") and o and isinstance(o[0], str) and o[0].startswith("w"):
        o[0] = "x" + o[0][1:]
    if m == "orr" and len(o) == 3 and o[1] in _ZR:
        return "mov", [o[0], o[2]]
    if m == "orr" and len(o) == 3 and o[1] == o[2] and isinstance(o[0], str) \
            and o[0].startswith("v"):
        return "mov", [o[0], o[1]]
    if m in ("subs", "adds", "ands") and len(o) >= 3 and o[0] in _ZR:
        return {"subs": "cmp", "adds": "cmn", "ands": "tst"}[m], o[1:]
    if m == "sub" and len(o) == 3 and o[1] in _ZR:
        return "neg", [o[0], o[2]]
    if m == "subs" and len(o) == 3 and o[1] in _ZR:
        return "negs", [o[0], o[2]]
    if m in ("sbc", "sbcs") and len(o) == 3 and o[1] in _ZR:
        return {"sbc": "ngc", "sbcs": "ngcs"}[m], [o[0], o[2]]
    if m == "orn" and len(o) == 3 and o[1] in _ZR:
        return "mvn", [o[0], o[2]]
    if m in ("madd", "msub", "umaddl", "smaddl", "umsubl", "smsubl") and len(o) == 4 \
            and o[3] in _ZR:
        return {"madd": "mul", "msub": "mneg", "umaddl": "umull", "smaddl": "smull",
                "umsubl": "umnegl", "smsubl": "smnegl"}[m], o[:3]
    if m in ("movz", "movn") and len(o) in (2, 3) and isinstance(o[1], tuple) \
            and o[1][0] == "imm":
        v = o[1][1] << (o[2][2] if len(o) == 3 else 0)
        if m == "movn":
            v = ~v
        return "mov", [o[0], ("imm", v)]
    if m == "csinc" and len(o) == 4 and o[1] in _ZR and o[2] in _ZR:
        return "cset", [o[0], A64_INV[o[3]]]
    if m == "csinv" and len(o) == 4 and o[1] in _ZR and o[2] in _ZR:
        return "csetm", [o[0], A64_INV[o[3]]]
    if m == "csinc" and len(o) == 4 and o[1] == o[2]:
        return "cinc", [o[0], o[1], A64_INV[o[3]]]
    if m == "extr" and len(o) == 4 and o[1] == o[2]:
        return "ror", [o[0], o[1], o[3]]
    if m in ("ldur", "stur", "ldurb", "sturb", "ldurh", "sturh", "ldursw", "ldursb",
             "ldursh"):
        # gas picks the unscaled form for negative or unaligned offsets of ldr/str
        return m.replace("ur", "r", 1), o
    if m == "umov" and len(o) == 2:
        return "mov", o
    if m == "ins":
        return "mov", o
    return m, o


_VPCMP = re.compile(r"^vpcmp(u?)([bwdq])$")
_VPCMP_PRED = ("eq", "lt", "le", "false", "neq", "nlt", "nle", "true")


def x86_canonical(mnem, ops):
    """objdump prints `vpcmpuq $5, a, b, %k` as the predicate form `vpcmpnltuq a, b, %k`."""
    m = _VPCMP.match(mnem)
    if m and ops and isinstance(ops[0], tuple) and ops[0][0] == "imm" and 0 <= ops[0][1] < 8:
        return "vpcmp%s%s%s" % (_VPCMP_PRED[ops[0][1]], m.group(1), m.group(2)), ops[1:]
    return mnem, ops


def normalise(arch, ins):
    if arch == "x86_64":
        return x86_canonical(norm_x86_mnem(ins.mnem), x86_ops(ins))
    return a64_canonical(ins.mnem, [norm_a64_operand(o) for o in ins.ops])


def same_insn(arch, g, o):
    gm, go = normalise(arch, g)
    om, oo = normalise(arch, o)
    if arch == "x86_64":
        if not mnem_eq_x86(gm, om):
            return False
    elif gm != om:
        return False
    return len(go) == len(oo) and all(operands_eq(a, b) for a, b in zip(go, oo))


# -- 1. generator text vs the assembler ----------------------------------------------------

def compare_text(arch, text, workdir, name="kernel", win64=False):
    """Assemble `text` (a generated .S) and compare with objdump. Returns (count, errors).
    win64: the x86-64 body as the Win64 flavour assembles it (mingw-w64 gas; the body is
    lf_..._sysv there, and COFF has no symbol sizes: it ends where the entry begins)."""
    symbol, gen, labels, aligns = parse_generated(text, arch, win64)
    src = os.path.join(workdir, name + ".S")
    obj = os.path.join(workdir, name + (".obj" if win64 else ".o"))
    with open(src, "w") as f:
        f.write(text)
    tools = WIN64_TOOLS if win64 else TOOLS[arch]
    suffix = "_sysv" if win64 else ""
    assemble(arch, src, obj, tools["cc"])
    dis = parse_objdump(objdump(arch, obj, tool=tools["objdump"]), arch, symbol + suffix)
    if win64:
        while dis and is_padding(dis[-1]):           # alignment of the entry that follows
            dis.pop()
        start = dis[0].addr if dis else 0
        size = dis[-1].addr + dis[-1].size - start if dis else 0
    else:
        start, size = symbol_size(arch, obj, symbol)
    dis = [d for d in dis if start <= d.addr < start + size]
    # drop the padding that alignment directives inserted (only where the text aligns)
    kept, j = [], 0
    for i in range(len(gen) + 1):
        while i in aligns and j < len(dis) and is_padding(dis[j]) and \
                (i == len(gen) or not is_padding(gen[i])):
            j += 1
        if i < len(gen) and j < len(dis):
            kept.append(dis[j])
            j += 1
    kept += dis[j:]
    dis = kept
    errors = []
    if len(gen) != len(dis):
        errors.append("%s: %d instructions printed, %d disassembled" % (name, len(gen),
                                                                         len(dis)))
    addr_of = [d.addr for d in dis] + [start + size]
    for i, (g, d) in enumerate(zip(gen, dis)):
        if not same_insn(arch, g, d):
            errors.append("%s: instruction %d: generator `%s`, objdump `%s`" % (
                name, i, g.text, d.text))
            if len(errors) > 10:
                break
            continue
        if g.target is not None and g.target.startswith("LF_BODY("):
            # a tail jump to a sibling variant (size dispatch): a relocation against it
            sym = g.target[len("LF_BODY("):-1] + suffix
            nxt = addr_of[i + 1]
            if not any(r[1] == sym and d.addr <= r[0] < nxt
                       for r in relocs(arch, obj, tool=tools["objdump"])):
                errors.append("%s: instruction %d `%s` has no relocation against %s"
                              % (name, i, g.text, sym))
        elif g.target is not None:
            if g.target not in labels:
                errors.append("%s: branch to unknown label %s" % (name, g.target))
            elif d.target != addr_of[labels[g.target]]:
                errors.append("%s: instruction %d `%s` branches to %#x, label %s is at %#x"
                              % (name, i, g.text, d.target or -1, g.target,
                                 addr_of[labels[g.target]]))
        elif d.target is not None:
            errors.append("%s: objdump sees a branch at %d: %s" % (name, i, d.text))
    return len(gen), errors


# -- 2. PeachPy's encoder vs gas (x86-64) --------------------------------------------------

_GPR64 = re.compile(r"^%r(ax|bx|cx|dx|si|di|bp|sp|8|9|1[0-5])$")


def _is_identity_move(ins):
    """`mov %rX, %rX` (64-bit), which the printer drops; a 32-bit `mov %eX, %eX` is kept:
    it zero-extends."""
    ops = x86_ops(ins)
    return norm_x86_mnem(ins.mnem) in ("mov", "movq") and len(ops) == 2 and ops[0] == ops[1] \
        and isinstance(ops[0], str) and bool(_GPR64.match(ops[0]))


def compare_peachpy(code, text, workdir, name="kernel", codes=None):
    """code: PeachPy's encoded bytes of the function whose GAS text is `text` (codes: every
    function's, for the code before the frame). Compare the non-branch instructions of both
    disassemblies. Returns (count, errors, notes)."""
    pp = _pp_insns(code, workdir, name)
    symbol = parse_generated(text, "x86_64")[0]
    src = os.path.join(workdir, name + ".pp.S")
    obj = os.path.join(workdir, name + ".pp.o")
    with open(src, "w") as f:
        f.write(text)
    assemble("x86_64", src, obj)
    gas = parse_objdump(objdump("x86_64", obj), "x86_64", symbol)
    if gas and gas[0].mnem == "endbr64":
        gas = gas[1:]                              # landing pad of the prelude
    pre = _preamble_length(text)
    count, errors, notes = 0, [], []
    prefix = _prefix_block(text)
    if prefix:                                     # the code before the frame: a function
        pname, first, n = prefix                   # of its own (Function.prefix_upto)
        if pname not in (codes or {}):
            errors.append("%s: no PeachPy function %s for the code before the frame"
                          % (name, pname))
        else:
            ppre = _pp_insns(codes[pname], workdir, name + "_prefix")
            c, e, nt = _compare_streams(ppre, gas[first:first + n], pname)
            count, errors, notes = count + c, errors + e, notes + nt
    if pre:                                        # size dispatch and code before the frame:
        gas = gas[pre:]                            # not in the body's PeachPy stream
    c, e, nt = _compare_streams(pp, gas, name)
    return count + c, errors + e, notes + nt


def _pp_insns(code, workdir, name):
    """objdump's instructions of PeachPy's bytes `code`"""
    binpath = os.path.join(workdir, name + ".pp.bin")
    with open(binpath, "wb") as f:
        f.write(bytes(code))
    return parse_objdump(objdump("x86_64", binpath, binary=True), "x86_64")


def _compare_streams(pp, gas, name):
    """Compare PeachPy's and gas's instructions of one function (branches, padding and the
    identity moves PeachPy leaves out); returns (count, errors, notes)."""
    pp = [x for x in pp if not is_branch("x86_64", x.mnem) and not _is_identity_move(x)
          and not is_padding(x)]
    gas = [x for x in gas if not is_branch("x86_64", x.mnem) and not is_padding(x)]
    errors, notes, i, j, count = [], [], 0, 0, 0
    while i < len(pp) and j < len(gas):
        a, b = pp[i], gas[j]
        if b.mnem == "vzeroupper" and a.mnem != "vzeroupper":
            notes.append("%s: vzeroupper inserted by the printer before ret" % name)
            j += 1
            continue
        if not same_insn("x86_64", a, b) and _peachpy_broadcast_disp(a.text, b.text):
            notes.append("%s: PeachPy's own encoder scales the disp8 of an embedded-broadcast "
                         "operand by the vector width, not the element size (`%s` vs gas "
                         "`%s`); the generated file is assembled by gas, which is right"
                         % (name, a.text.split("\t")[-1], b.text.split("\t")[-1]))
        elif not same_insn("x86_64", a, b) and _peachpy_vex_high(a.text, b.text):
            notes.append("%s: PeachPy's own encoder uses VEX for an xmm/ymm register 16-31, "
                         "which only EVEX can name, and drops the register's bit 4 (`%s` vs "
                         "gas `%s`); gas is right" % (name, a.text.split("\t")[-1],
                                                      b.text.split("\t")[-1]))
        elif not same_insn("x86_64", a, b) and _peachpy_cmp_mask(a.text, b.text):
            notes.append("%s: PeachPy's own encoder writes the destination mask register of "
                         "a compare into EVEX.aaa (`%s` vs gas `%s`); gas is right"
                         % (name, a.text.split("\t")[-1], b.text.split("\t")[-1]))
        elif not same_insn("x86_64", a, b):
            errors.append("%s: PeachPy encodes `%s`, gas assembled `%s`" % (name, a.text,
                                                                            b.text))
            if len(errors) > 10:
                break
        count += 1
        i += 1
        j += 1
    if not errors and (i < len(pp) or j < len(gas)):
        errors.append("%s: %d PeachPy vs %d gas instructions left over" % (
            name, len(pp) - i, len(gas) - j))
    return count, errors, notes


_BCAST = re.compile(r"(-?0x[0-9a-f]+)?(\(%[a-z0-9]+(?:,%[a-z0-9]+,\d)?\))\{1to(\d+)\}")


def _peachpy_broadcast_disp(pp_text, gas_text):
    """True when two disassemblies differ only in the displacement of an embedded-broadcast
    memory operand and PeachPy's equals gas's divided by the lane count: Debian's PeachPy
    compresses EVEX disp8 by the vector length instead of the element size for {1toN}."""
    a, b = _BCAST.search(pp_text), _BCAST.search(gas_text)
    if not a or not b or a.group(2) != b.group(2) or a.group(3) != b.group(3):
        return False
    lanes = int(a.group(3))
    da, db = int(a.group(1) or "0", 16), int(b.group(1) or "0", 16)
    strip = lambda t, m: (t[:m.start()] + t[m.end():]).split("\t")[-1]
    return da * lanes == db and da != db and strip(pp_text, a) == strip(gas_text, b)


def _is_insn_line(line):
    """A line of a function body that is an instruction (not a label, directive, macro such
    as LF_SEH_PUSHREG, comment or preprocessor line)"""
    return line.startswith("\t") and not line.lstrip().startswith(("/*", ".", "LF_"))


def _sysv_body(text):
    """The SysV lines of the function body in `text` (the #if defined(LF_WIN64) hunks out)"""
    m = re.search(r"^LF_FUNC_BEGIN\((\w+)\)\n(.*?)^LF_FUNC_END\(\1\)", text, re.M | re.S)
    return flavour_lines(m.group(2), False).split("\n") if m else []


def _preamble_length(text):
    """Instructions the x86 builder prints before the body's PeachPy code: the size dispatch
    (Function.tail_call_outside, between its two marker comments) and the code before the
    frame (Function.prefix_upto, up to its end marker)."""
    count, end = 0, 0
    for line in _sysv_body(text):
        if "end of size dispatch" in line or "end of the code before the frame" in line:
            end = count
        elif _is_insn_line(line):
            count += 1
    return end


def _prefix_block(text):
    """(function name, index of its first instruction, instruction count) of the code before
    the frame (Function.prefix_upto) in the SysV body, or None"""
    count, name, first = 0, None, None
    for line in _sysv_body(text):
        m = re.match(r"^\t/\* (\w+) \*/$", line)
        if "code before the frame:" in line:
            name = line.split(" run ")[-1].split()[0]
        elif name and first is None and m and m.group(1) == name:
            first = count
        elif "end of the code before the frame" in line:
            return name, first, count - first
        elif _is_insn_line(line):
            count += 1
    return None


def _peachpy_vex_high(pp_text, gas_text):
    """True for Debian's PeachPy encoding an AVX-512VL instruction on xmm/ymm16-31 with a VEX
    prefix (c4/c5), which can only name registers 0-15: gas's EVEX instruction (62) with every
    register number >= 16 lowered by 16 is PeachPy's."""
    pa, pb = pp_text.split("\t"), gas_text.split("\t")
    if len(pa) < 3 or len(pb) < 3:
        return False
    if pa[1].split()[0] not in ("c4", "c5") or pb[1].split()[0] != "62":
        return False
    low = re.sub(r"%([xyz])mm(\d+)",
                 lambda m: "%%%smm%d" % (m.group(1), int(m.group(2)) % 16), pb[2].strip())
    return low != pb[2].strip() and low == pa[2].strip()


def _peachpy_cmp_mask(pp_text, gas_text):
    """True for Debian's PeachPy encoding VPCMP*/VPTEST* into %kN with EVEX.aaa = N: the same
    instruction as gas's unmasked one but for a `{%kN}` write mask naming the destination.
    (`VPCMPUQ(k5, zmm14, zmm8, 5)` encodes as 62 d3 8d 4d ..., gas's 62 d3 8d 48 ...)"""
    m = re.search(r"(%k\d)\{(%k\d)\}\s*$", pp_text)
    if not m or m.group(1) != m.group(2):
        return False
    ins = lambda t: t.split("\t")[-1].strip()
    return ins(pp_text)[:m.start() - len(pp_text)] + m.group(1) == ins(gas_text) or \
        ins(pp_text).replace("{%s}" % m.group(2), "") == ins(gas_text)


def peachpy_functions():
    """Run the generator in memory, capturing each x86-64 function's PeachPy ABIFunction.
    Returns ({relpath: text}, {symbol: encoded bytes})."""
    sys.path.insert(0, os.path.join(ROOT, "gen"))
    from lfgen.x86 import function as xf
    from lfgen import main
    captured = {}
    orig = xf.Function._verify

    def _verify(self, abif):
        if self.flavour == "sysv":        # (not the Win64 form of a red-zone body)
            captured[self.name] = abif
        return orig(self, abif)

    xf.Function._verify = _verify
    try:
        files, _ = main.build_all()
    finally:
        xf.Function._verify = orig
    return files, {s: _encode(a) for s, a in captured.items()}


def _encode(abif):
    """PeachPy's bytes for a function. Its whole-function branch layout is coarser than gas's:
    in a long function (mpn_sqr_ifma) it can fail to place a JRCXZ, which has only a rel8
    form, that gas places fine. Branches are left out of the comparison, so for such a
    function each JRCXZ is encoded as a JNZ to the same label (rel32 available); every other
    instruction keeps its own encoding."""
    try:
        return abif.encode().code_section.content
    except ValueError:
        from peachpy.x86_64.generic import JRCXZ, JNZ
        abif._instructions = [JNZ(x.operands[0]) if isinstance(x, JRCXZ) else x
                              for x in abif._instructions]
        for x in abif._instructions:
            if isinstance(x, JNZ):
                x.encodings = x._filter_encodings()
        return abif.encode().code_section.content


# -- driver --------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", choices=sorted(TOOLS), action="append")
    ap.add_argument("--no-peachpy", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args(argv)
    archs = args.arch or sorted(TOOLS)
    jobs = []
    if args.files:
        for p in args.files:
            arch = "aarch64" if "/aarch64/" in os.path.abspath(p) else "x86_64"
            jobs.append((arch, p))
    else:
        for arch in archs:
            d = os.path.join(ROOT, "generated", arch)
            for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if n.endswith(".S"):
                    jobs.append((arch, os.path.join(d, n)))
    errors, counts = [], {a: [0, 0] for a in TOOLS}
    with tempfile.TemporaryDirectory(prefix="lf-roundtrip-") as tmp:
        def one(job):
            arch, path = job
            name = "%s_%s" % (arch, os.path.basename(path)[:-2])
            with open(path) as f:
                text = f.read()
            try:
                return arch, path, compare_text(arch, text, tmp, name)
            except Exception as e:          # a tool failure is a test failure
                return arch, path, (0, ["%s: %s" % (path, e)])

        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            for arch, path, (n, errs) in ex.map(one, jobs):
                counts[arch][0] += 1
                counts[arch][1] += n
                errors += errs
                if args.verbose:
                    print("  %-50s %5d instructions%s" % (os.path.relpath(path, ROOT), n,
                                                          "" if not errs else "  MISMATCH"))
        pp_count, pp_files, notes = 0, 0, []
        if "x86_64" in archs and not args.no_peachpy and not args.files:
            files, codes = peachpy_functions()
            for rel, text in sorted(files.items()):
                if not (rel.startswith("generated/x86_64/") and rel.endswith(".S")):
                    continue
                on_disk = os.path.join(ROOT, rel)
                if not os.path.exists(on_disk) or open(on_disk).read() != text:
                    errors.append("%s differs from what the generator produces now "
                                  "(run `make gen`)" % rel)
                symbol = parse_generated(text, "x86_64")[0]
                n, errs, nts = compare_peachpy(codes[symbol], text, tmp,
                                               os.path.basename(rel)[:-2], codes)
                pp_files += 1
                pp_count += n
                errors += errs
                notes += nts
    for arch in archs:
        print("roundtrip %-8s %3d files, %6d instructions compared with objdump"
              % (arch, counts[arch][0], counts[arch][1]))
    if "x86_64" in archs and not args.no_peachpy and not args.files:
        kinds = {}
        for n in notes:
            k = ("vzeroupper added by the printer" if "vzeroupper" in n else
                 "PeachPy broadcast disp8 bug" if "broadcast" in n else
                 "PeachPy compare-mask bug" if "EVEX.aaa" in n else
                 "PeachPy VEX for xmm/ymm16-31 bug" if "only EVEX" in n else "other")
            kinds[k] = kinds.get(k, 0) + 1
        print("roundtrip x86_64   %3d files, %6d non-branch instructions: PeachPy encoder "
              "== gas (%s)" % (pp_files, pp_count, ", ".join(
                  "%d %s" % (v, k) for k, v in sorted(kinds.items())) or "no notes"))
    if sum(c[0] for c in counts.values()) == 0:
        errors.append("no generated .S files found")
    for e in errors:
        print("roundtrip FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
