"""The AArch64 kernel builder: virtual registers in, allocated and framed assembly out.

    f = Function("lf_mpn_mul_1_a64", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                                      ("n", "size_t"), ("b", "uint64_t")], result="uint64_t")
    rp, ap, n, b = f.arg_regs
    lo, hi = f.gpr("lo"), f.gpr("hi")
    f.ldr(lo, post(ap, 8)); f.umulh(hi, lo, b); ...
    f.ret(carry)
    out = f.finalize()          # passes: liveness -> allocation -> verification -> frame -> text

Passes run in `finalize`:
  1. allocation (`regalloc.allocate`) and its independent check (`verify.check_bindings`);
  2. frame synthesis: callee-saved registers the allocation used (x19-x28, d8-d15) are saved
     and restored with stp/ldp pairs, with matching CFI;
  3. text: identity moves (x to x; never `mov wN, wN`, which zero-extends) and branches to
     the next instruction dropped, one `ret` at the end;
  4. feature derivation: the union of the HWCAP features of every emitted instruction.
"""

import contextlib

from .. import consttime
from ..verify import check_bindings
from .insn import Insn, Imm, Label, Mem, SPEC
from .regs import GPR, VEC, Reg, View, Zero, Local, SP, CALLEE_SAVED_GPR, CALLEE_SAVED_VEC
from . import regalloc


class Compiled:
    def __init__(self, name, lines, features, saved, frame, stream, phys, arg_names):
        self.name = name
        self.lines = lines
        self.features = features
        self.saved = saved
        self.frame = frame
        self.stream = stream
        self.phys = phys
        self.arg_names = arg_names
        self.tail_targets = []      # (size dispatch to siblings: x86-64 builder only so far)

    @property
    def text(self):
        return "\n".join(self.lines) + "\n"

    def instruction_count(self):
        return sum(1 for n in self.stream if n.pseudo is None)

    def mnemonics(self):
        return [n.mnem for n in self.stream if n.pseudo is None]


class Function(consttime.Checked):
    MAX_ARGS = 8

    def __init__(self, name, args, result=None):
        if len(args) > self.MAX_ARGS:
            raise ValueError("more than 8 register arguments are not supported")
        self.name = name
        self.result = result
        self._vid = 0
        self.stream = []
        self._sinks = []
        self._labels = set()
        self._bound = set()
        self.arg_names = [a for a, _ in args]
        self.arg_types = [t for _, t in args]
        self.arg_regs = [self._new(GPR, a, pin=i) for i, (a, _) in enumerate(args)]
        self.args = dict(zip(self.arg_names, self.arg_regs))
        entry = Insn(None, [], pseudo="entry")
        entry.implicit_defs = list(self.arg_regs)
        self.stream.append(entry)
        self._result_reg = self._new(GPR, "result", pin=0) if result else None
        self._exit = self.new_label("exit")
        self._locals = []
        self._finalized = False

    # registers ---------------------------------------------------------------------------
    def _new(self, cls, name, pin=None):
        self._vid += 1
        return Reg(cls, self._vid, name, pin)

    def gpr(self, name="t"):
        return self._new(GPR, name)

    def gprs(self, count, name="t"):
        return [self._new(GPR, "%s%d" % (name, i)) for i in range(count)]

    def vreg(self, name="v"):
        return self._new(VEC, name)

    def vregs(self, count, name="v"):
        return [self._new(VEC, "%s%d" % (name, i)) for i in range(count)]

    def local(self, name="slot"):
        """An 8-byte stack slot for a value that would not fit in registers: address it
        as mem(SP, slot). The frame pass places the slots above the callee-saved area."""
        slot = Local(len(self._locals), name)
        self._locals.append(slot)
        return slot

    def spill(self, reg, slot):
        from .insn import mem
        self.op("str", reg, mem(SP, slot))

    def reload(self, reg, slot):
        from .insn import mem
        self.op("ldr", reg, mem(SP, slot))

    # emission ----------------------------------------------------------------------------
    def _emit(self, insn):
        (self._sinks[-1] if self._sinks else self.stream).append(insn)
        return insn

    @contextlib.contextmanager
    def capture(self):
        """Collect the instructions emitted inside the block into a list instead of the
        function (the scheduling primitives reorder such lists, then `extend` them)."""
        buf = []
        self._sinks.append(buf)
        try:
            yield buf
        finally:
            self._sinks.pop()

    def extend(self, insns):
        for i in insns:
            self._emit(i)

    @staticmethod
    def _operand(op):
        if isinstance(op, Reg):
            if op.cls != GPR:
                raise TypeError("vector register %r needs an arrangement (.d2, .s4, .q, ...)" % op)
            return op.x
        if isinstance(op, bool):
            raise TypeError("boolean operand")
        if isinstance(op, (int, str)):
            return Imm(op)
        if isinstance(op, (View, Zero, Imm, Label, Mem)):
            return op
        raise TypeError("unsupported operand %r" % (op,))

    def op(self, mnem, *ops):
        return self._emit(Insn(mnem, [self._operand(o) for o in ops]))

    def __getattr__(self, attr):
        # f.umulh(...) -> "umulh"; f.b_ne(...) -> "b.ne"; f.v_umull(...) -> "umull.v";
        # f.and_(...) -> "and"
        if attr.startswith("__"):
            raise AttributeError(attr)
        mnem = attr.rstrip("_")
        if mnem.startswith("v_"):
            mnem = mnem[2:] + ".v"
        elif mnem.startswith("b_"):
            mnem = "b." + mnem[2:]
        if mnem not in SPEC:
            raise AttributeError("no AArch64 instruction %r in insn.SPEC" % mnem)
        return lambda *ops: self.op(mnem, *ops)

    def new_label(self, name):
        base = ".L%s_%s" % (self.name, name)
        label, k = base, 1
        while label in self._labels:
            k += 1
            label = "%s%d" % (base, k)
        self._labels.add(label)
        return Label(label)

    def bind(self, label):
        if label.name in self._bound:
            raise ValueError("label %s bound twice" % label.name)
        self._bound.add(label.name)
        self._emit(Insn(None, [], pseudo="label", text=label.name))

    def comment(self, text):
        for line in text.splitlines():
            self._emit(Insn(None, [], pseudo="comment", text=line))

    def mca_begin(self, name):
        self._emit(Insn(None, [], pseudo="marker", text="/* LLVM-MCA-BEGIN %s */" % name))

    def mca_end(self):
        self._emit(Insn(None, [], pseudo="marker", text="/* LLVM-MCA-END */"))

    def ret(self, value=None):
        """Return `value` (a register, or xzr) from anywhere: moves it to x0 and jumps to the
        single exit, where the epilogue restores callee-saved registers."""
        if (value is None) != (self._result_reg is None):
            raise ValueError("ret value must match the declared result type")
        if value is not None:
            self.op("mov", self._result_reg, value)
        self.op("b", self._exit)

    # passes ------------------------------------------------------------------------------
    def finalize(self):
        if self.public_loads is not None:
            consttime.check([_CtNode(n, self.public_loads) for n in self.stream], self.name,
                            secret=[r.vid for r in self.secret_args])
        if self._finalized:
            raise RuntimeError("finalize() called twice")
        self._finalized = True
        if self._sinks:
            raise RuntimeError("finalize() inside capture()")
        self.bind(self._exit)
        exit_insn = Insn(None, [], pseudo="exit")
        if self._result_reg is not None:
            exit_insn.implicit_uses = [self._result_reg]
        self.stream.append(exit_insn)
        ret = Insn("ret", [])
        self.stream.append(ret)
        for n in self.stream:
            if n.pseudo is None and n.is_branch and n.target not in self._bound:
                raise ValueError("branch to unbound label %s" % n.target)

        phys = regalloc.allocate(self.stream)
        regs = {}
        for n in self.stream:
            for r in list(n.uses()) + list(n.defs()):
                regs[r.vid] = r

        def is_copy(node):
            pair = regalloc._move_pair(node)
            return (pair[0].vid, pair[1].vid) if pair else None

        check_bindings(self.stream, lambda r: (r.cls, phys[r.vid]), is_copy=is_copy)

        used_gpr = sorted({phys[r.vid] for n in self.stream for r in n.defs()
                           if r.cls == GPR and phys[r.vid] in CALLEE_SAVED_GPR})
        used_vec = sorted({phys[r.vid] for n in self.stream for r in n.defs()
                           if r.cls == VEC and phys[r.vid] in CALLEE_SAVED_VEC})
        saves = [("x%d" % p) for p in used_gpr] + [("d%d" % p) for p in used_vec]
        for k, slot in enumerate(self._locals):
            slot.offset = 8 * len(saves) + 8 * k
        frame = (8 * (len(saves) + len(self._locals)) + 15) // 16 * 16
        prologue, epilogue = self._frame(saves, frame)

        kept = []
        for i, n in enumerate(self.stream):
            if n.pseudo in ("entry", "exit") or (n.pseudo is None and n.is_ret):
                continue
            if n.pseudo is None and n.is_branch and not n.is_conditional \
                    and self._falls_to(i, n.target):
                continue
            if n.pseudo is None and n.mnem in ("mov", "mov.v") and len(n.ops) == 2:
                d, s = n.ops
                # only x-to-x (and same-arrangement vector) moves are no-ops: `mov wN, wN`
                # clears the upper half of xN and must stay
                if (isinstance(d, View) and isinstance(s, View) and d.shape == s.shape
                        and d.shape != "w" and phys[d.reg.vid] == phys[s.reg.vid]):
                    continue
            kept.append(n)
        targets = {n.target for n in kept if n.pseudo is None and n.is_branch}
        body = []
        for n in kept:
            if n.pseudo == "label" and n.text == self._exit.name and n.text not in targets:
                continue
            text = n.format(phys)
            if text is not None:
                body.append(text)
        lines = prologue + body + epilogue + ["\tret"]
        feats = set()
        for n in self.stream:
            if n.pseudo is None:
                feats |= n.features()
        return Compiled(self.name, lines, sorted(feats), saves, frame, self.stream, phys,
                        self.arg_names)

    def _falls_to(self, j, label):
        for m in self.stream[j + 1:]:
            if m.pseudo in ("comment", "marker"):
                continue
            return m.pseudo == "label" and m.text == label
        return False

    @staticmethod
    def _frame(saves, frame):
        if not saves and not frame:
            return [], []
        if not saves:
            return (["\tsub\tsp, sp, #%d" % frame, "\t.cfi_def_cfa_offset %d" % frame],
                    ["\tadd\tsp, sp, #%d" % frame, "\t.cfi_def_cfa_offset 0"])
        pro, epi = [], []
        pairs = [saves[i:i + 2] for i in range(0, len(saves), 2)]
        for k, pair in enumerate(pairs):
            off = 16 * k
            if len(pair) == 2:
                if k == 0:
                    pro.append("\tstp\t%s, %s, [sp, #-%d]!" % (pair[0], pair[1], frame))
                    pro.append("\t.cfi_def_cfa_offset %d" % frame)
                else:
                    pro.append("\tstp\t%s, %s, [sp, #%d]" % (pair[0], pair[1], off))
            else:
                if k == 0:
                    pro.append("\tstr\t%s, [sp, #-%d]!" % (pair[0], frame))
                    pro.append("\t.cfi_def_cfa_offset %d" % frame)
                else:
                    pro.append("\tstr\t%s, [sp, #%d]" % (pair[0], off))
            for j, r in enumerate(pair):
                pro.append("\t.cfi_offset %s, %d" % (_dwarf_name(r), off + 8 * j - frame))
        for k in range(len(pairs) - 1, -1, -1):
            pair, off = pairs[k], 16 * k
            op = "ldp\t%s, %s" % tuple(pair) if len(pair) == 2 else "ldr\t%s" % pair[0]
            if k == 0:
                epi.append("\t%s, [sp], #%d" % (op, frame))
            else:
                epi.append("\t%s, [sp, #%d]" % (op, off))
            for r in pair:
                epi.append("\t.cfi_restore %s" % _dwarf_name(r))
            if k == 0:
                epi.append("\t.cfi_def_cfa_offset 0")
        return pro, epi


class _CtNode(consttime.Node):
    """An instruction of the stream as consttime.check sees it (registers keyed by vid)."""

    def __init__(self, n, public):
        self.n = n
        self.label = n.pseudo == "label"
        m = n.memory() if n.pseudo is None else None
        self.load = n.pseudo is None and n.is_load
        self.public = self.load and m is not None and m.index is None and any(
            m.base is r and m.off == d for r, d in public)
        self._addr = [r.vid for r in m.regs_used()] if m is not None else []
        self._wb = [m.base.vid] if m is not None and m.writeback else []
        self._uses = [r.vid for r in n.uses()]
        self._defs = [r.vid for r in n.defs() if r.vid not in self._wb]
        self.cond = n.pseudo is None and n.is_conditional
        self.reads_flags = n.pseudo is None and n.reads_flags
        self.writes_flags = n.pseudo is None and n.writes_flags
        self._branch = self._uses if self.cond else []

    def __str__(self):
        return repr(self.n)


def _dwarf_name(reg):
    # GNU as accepts x19 / d8 in CFI directives; DWARF numbers: x0-x30 = 0-30, v0-v31 = 64-95
    return reg if reg.startswith("x") else str(64 + int(reg[1:]))
