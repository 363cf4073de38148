"""The Win64 flavour of the x86-64 kernels: PE/COFF objects, Microsoft x64 calling convention.

One generated file serves every flavour. The kernel body is SysV code everywhere (arguments
in rdi, rsi, rdx, rcx, r8, r9; rdi, rsi and xmm6-15 scratch); lf_asm.h, keyed on the target's
predefined macros, turns it into `lf_<kernel>_<variant>_sysv` under Win64 and the file adds,
inside `#if defined(LF_WIN64)`, the exported entry `lf_<kernel>_<variant>`:

    push rsi; push rdi; sub $8+16m, rsp; save the m xmm6..15 the body writes   (prologue)
    rcx, rdx, r8, r9, [rsp+40], [rsp+48] at entry -> rdi, rsi, rdx, rcx, r8, r9
    call the body; restore; ret                       (rax/eax already holds the result)

with SEH directives (.seh_proc, .seh_pushreg, .seh_stackalloc, .seh_savexmm,
.seh_endprologue, .seh_endproc) and CFI. The xmm registers are those the body writes (from
the lowered PeachPy instructions) and those of every sibling it can jump to by size dispatch
(the sibling's body returns to this entry). The upper halves of ymm/zmm0-15 and zmm16-31 are
volatile in Win64. When the kernel needs AVX the saves are VEX-encoded (vmovaps): no SSE/AVX
transition around an AVX body; otherwise movaps (SSE2, in the base ISA).

Red zone: Windows has none (memory below rsp may be overwritten at any time: exception
dispatch, debuggers). The entry cannot lend the body one -- the red zone is below the body's
own rsp, i.e. below anything the entry could reserve -- so a body that parks values there
(x86_bi_vec) is built a second time in the "win64" form, where `Function.red_zone_slots`
returns slots of a real frame, and the file carries both forms of the lines that differ in
`#if defined(LF_WIN64)` / `#else` hunks (the rest of the body is shared text).
"""

import difflib
import textwrap

from . import function as x86

WIN64_ARGS = ("rcx", "rdx", "r8", "r9")     # arguments 5 and 6: [rsp+40], [rsp+48] at entry
SYSV_ARGS = ("rdi", "rsi", "rdx", "rcx", "r8", "r9")
SHADOW = 32                                 # the caller's home area above the return address
IF_WIN64, IF_NOT_WIN64 = "#if defined(LF_WIN64)", "#if !defined(LF_WIN64)"


class Flavour:
    """What the Win64 flavour adds to one generated x86-64 file."""

    def __init__(self, body, entry, xmm, reframed, text):
        self.body = body            # the body text (with #if hunks where the forms differ)
        self.entry = entry          # the lines inside `#if defined(LF_WIN64)` after the body
        self.xmm = xmm              # xmm ids saved by the entry
        self.reframed = reframed    # the Win64 form of the body has a frame of its own
        self.text = text            # one paragraph for the header comment


def merge(sysv, win):
    """One text for both forms of a body: shared lines once, differing runs as
    `#if defined(LF_WIN64)` win `#else` sysv `#endif` (or one-sided hunks)."""
    out = []
    sm = difflib.SequenceMatcher(None, sysv, win, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out += sysv[i1:i2]
        elif op == "insert":
            out += [IF_WIN64] + win[j1:j2] + ["#endif"]
        elif op == "delete":
            out += [IF_NOT_WIN64] + sysv[i1:i2] + ["#endif"]
        else:
            out += [IF_WIN64] + win[j1:j2] + ["#else"] + sysv[i1:i2] + ["#endif"]
    return out


def _split_prefix(lines):
    """(the code before the frame, the other lines) of a SysV body (Function.prefix_upto:
    the block between its two marker comments), so that the merged text keeps the prefix in
    one `#if !defined(LF_WIN64)` block instead of aligning it with the Win64 body."""
    first = next(i for i, l in enumerate(lines) if l.startswith("\t/* code before the frame"))
    last = next(i for i, l in enumerate(lines) if l == "\t/* end of the code before the frame */")
    return lines[first:last + 1], lines[:first] + lines[last + 1:]


def split(lines, win64):
    """The lines of one form from a merged text (the inverse of `merge`)."""
    out, keep, depth = [], True, 0
    for l in lines:
        if l in (IF_WIN64, IF_NOT_WIN64):
            if depth:
                raise ValueError("nested #if in a merged body")
            depth, keep = 1, (l == IF_WIN64) == win64
        elif l == "#else" and depth:
            keep = not keep
        elif l == "#endif" and depth:
            depth, keep = 0, True
        elif keep:
            out.append(l)
    return out


def saved_xmm(symbol, built, extra=()):
    """xmm ids the entry of `symbol` saves: written by its body or by a sibling reachable by
    size dispatch (transitively)."""
    ids, todo, seen = set(extra), [symbol], set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        ids |= set(built[s].xmm_written)
        todo += built[s].tail_targets
    return sorted(ids)


def entry_lines(symbol, nargs, xmm, vex, extern_for=()):
    """The Win64 entry of `symbol` (nargs integer/pointer arguments, xmm ids to save)."""
    if nargs > len(SYSV_ARGS):
        raise ValueError("%s: more than 6 arguments" % symbol)
    frame = 8 + 16 * len(xmm)                       # rsp 16-aligned at the call
    mov = "vmovaps" if vex else "movaps"

    def mem(off):
        return "%d(%%rsp)" % off if off else "(%rsp)"
    lines = []
    if extern_for:
        lines.append("LF_WIN64_BODY_EXTERN(%s)\t/* %s jump%s here */"
                     % (symbol, ", ".join(extern_for), "s" if len(extern_for) == 1 else ""))
    else:
        lines.append("LF_WIN64_BODY_STATIC(%s)" % symbol)
    lines.append("LF_WIN64_ENTRY(%s)" % symbol)
    for r in ("rsi", "rdi"):
        lines += ["\tpushq\t%%%s" % r, "\t.cfi_adjust_cfa_offset 8",
                  "\t.cfi_rel_offset %%%s, 0" % r, "\t.seh_pushreg %%%s" % r]
    lines += ["\tsubq\t$%d, %%rsp" % frame, "\t.cfi_adjust_cfa_offset %d" % frame,
              "\t.seh_stackalloc %d" % frame]
    # (no CFI for the xmm saves: GNU as numbers the return-address column of x86-64 COFF
    # .debug_frame 32, which is xmm15's DWARF number; SEH describes them for Windows)
    for k, i in enumerate(xmm):
        lines += ["\t%s\t%%xmm%d, %s" % (mov, i, mem(16 * k)),
                  "\t.seh_savexmm %%xmm%d, %d" % (i, 16 * k)]
    lines.append("\t.seh_endprologue")
    for k in range(nargs):
        if k < len(WIN64_ARGS):
            src = "%" + WIN64_ARGS[k]
        else:       # above our frame, the two pushes, the return address and the home area
            src = mem(frame + 16 + 8 + SHADOW + 8 * (k - len(WIN64_ARGS)))
        lines.append("\tmovq\t%s, %%%s" % (src, SYSV_ARGS[k]))
    lines.append("\tcall\tLF_BODY(%s)" % symbol)
    for k, i in enumerate(xmm):
        lines.append("\t%s\t%s, %%xmm%d" % (mov, mem(16 * k), i))
    lines += ["\taddq\t$%d, %%rsp" % frame, "\t.cfi_adjust_cfa_offset -%d" % frame]
    for r in ("rdi", "rsi"):
        lines += ["\tpopq\t%%%s" % r, "\t.cfi_adjust_cfa_offset -8", "\t.cfi_restore %%%s" % r]
    lines += ["\tret", "LF_WIN64_ENTRY_END(%s)" % symbol]
    return lines


def _ranges(ids):
    out, run = [], []
    for i in ids:
        if run and i == run[-1] + 1:
            run.append(i)
        else:
            if run:
                out.append(run)
            run = [i]
    if run:
        out.append(run)
    return ", ".join("xmm%d" % r[0] if len(r) == 1 else "xmm%d-xmm%d" % (r[0], r[-1])
                     for r in out)


def flavour(variant, symbol, values, spec, built, features, jumped_from=()):
    """The Win64 flavour of one built x86-64 variant: `built` maps the symbols of the
    kernel's x86-64 variants to their (SysV) compiled bodies; `jumped_from` lists the
    siblings that jump to this body by size dispatch (its COFF symbol is then external)."""
    comp = built[symbol]
    lines, reframed, extra = list(comp.lines), False, ()
    if comp.red_zone or comp.sysv_only:
        with x86.flavour("win64"):
            wcomp = variant.build(symbol, values)
        if wcomp.tail_targets != comp.tail_targets or wcomp.features != comp.features:
            raise ValueError("%s: the Win64 form of the body differs in more than its frame "
                             "(dispatch targets or features)" % symbol)
        pre, body = _split_prefix(comp.lines) if comp.sysv_only else ([], comp.lines)
        lines = ([IF_NOT_WIN64] + pre + ["#endif"] if pre else []) + merge(body, wcomp.lines)
        # a frame of its own: the body's red-zone slots, or (with a prefix) the small-size
        # code the Win64 form keeps in the body, whose slots become frame slots there
        reframed, extra = comp.red_zone or wcomp.frame != comp.frame, wcomp.xmm_written
    xmm = saved_xmm(symbol, built, extra)
    vex = any(f.startswith("avx") for f in features)
    entry = entry_lines(symbol, len(spec.args), xmm, vex, sorted(jumped_from))
    nargs = len(spec.args)
    srcs = list(WIN64_ARGS[:nargs]) + (["%d from the stack" % (nargs - 4)] if nargs > 4 else [])
    saves = "rdi, rsi" + (", " + _ranges(xmm) + " (written here" + (
        " or by " + ", ".join(comp.tail_targets) if comp.tail_targets else "") + ")"
        if xmm else "")
    why = []
    if reframed:
        why.append("Windows has no red zone, so the body's Win64 form keeps what the SysV form "
                   "parks below rsp in a frame of its own (the #if defined(LF_WIN64) lines)")
    if comp.sysv_only:
        why.append("the code before the frame (%s) is SysV-only: Windows' unwind tables "
                   "describe one prologue, at the entry, so under Win64 those sizes run in the "
                   "body, after its prologue" % comp.prefix.name)
    text = ("Win64 flavour (PE/COFF, Microsoft x64): the exported %s is an entry that saves "
            "%s, moves its arguments (%s) into the SysV registers and calls this body, "
            "%s_sysv%s." % (symbol, saves, ", ".join(srcs), symbol,
                            "; " + "; ".join(why) if why else ""))
    return Flavour(lines, entry, xmm, reframed, "\n".join(textwrap.wrap(text, 92)))
