"""AArch64 instructions as data: operand roles, flag effects, memory effects, required features.

Every mnemonic the DSL accepts is listed in `SPEC` with a role string, one letter per operand:

    D  register written            U  register read           X  register read and written
    M  memory operand (its base is read; written back for pre/post-index)
    I  immediate, shift, extend or condition (no register)     L  branch target label

and a set of effects: `fr`/`fw` (NZCV read/written), `load`/`store`, `branch`/`cbranch`/`ret`,
and `feat` (the HWCAP features the instruction needs; base A64 needs none). Liveness, the
allocator, the dependency checker of the scheduling primitives and the feature derivation all
read this table, so an instruction cannot be emitted without saying what it touches.
"""

from .regs import View, Reg, Zero, GPR, StackPointer, Local

# role string, effects
_ALU3 = ("DUU", set())
_ALU3S = ("DUU", {"fw"})
_ALU3C = ("DUU", {"fr"})
_ALU3CS = ("DUU", {"fr", "fw"})
_ALU2 = ("DU", set())

SPEC = {
    # integer arithmetic
    "add": ("DUU", set()), "sub": ("DUU", set()),
    "adds": _ALU3S, "subs": _ALU3S,
    "adc": _ALU3C, "sbc": _ALU3C, "adcs": _ALU3CS, "sbcs": _ALU3CS,
    "ngc": ("DU", {"fr"}), "ngcs": ("DU", {"fr", "fw"}),
    "mul": _ALU3, "umulh": _ALU3, "smulh": _ALU3, "mneg": _ALU3,
    "umull": _ALU3, "smull": _ALU3,
    "madd": ("DUUU", set()), "msub": ("DUUU", set()),
    "umaddl": ("DUUU", set()), "umsubl": ("DUUU", set()), "smaddl": ("DUUU", set()),
    "udiv": _ALU3,
    # logic and shifts
    "and": _ALU3, "orr": _ALU3, "eor": _ALU3, "bic": _ALU3, "orn": _ALU3, "eon": _ALU3,
    "ands": _ALU3S, "bics": _ALU3S,
    "lsl": _ALU3, "lsr": _ALU3, "asr": _ALU3, "ror": _ALU3,
    "extr": ("DUUI", set()),
    "ubfx": ("DUII", set()), "sbfx": ("DUII", set()), "bfi": ("XUII", set()), "bfxil": ("XUII", set()),
    "ubfiz": ("DUII", set()),
    "mov": _ALU2, "mvn": _ALU2, "neg": _ALU2, "negs": ("DU", {"fw"}),
    "rev": _ALU2, "rev32": _ALU2, "clz": _ALU2, "uxtw": _ALU2, "sxtw": _ALU2,
    "movz": ("DI", set()), "movn": ("DI", set()), "movk": ("XI", set()),
    # comparisons and conditional selects
    "cmp": ("UU", {"fw"}), "cmn": ("UU", {"fw"}), "tst": ("UU", {"fw"}),
    "ccmp": ("UUII", {"fr", "fw"}),
    "csel": ("DUUI", {"fr"}), "csinc": ("DUUI", {"fr"}), "csinv": ("DUUI", {"fr"}),
    "csneg": ("DUUI", {"fr"}), "cset": ("DI", {"fr"}), "csetm": ("DI", {"fr"}),
    "cinc": ("DUI", {"fr"}),
    # memory
    "ldr": ("DM", {"load"}), "ldrb": ("DM", {"load"}), "ldrh": ("DM", {"load"}),
    "ldrsw": ("DM", {"load"}), "ldur": ("DM", {"load"}),
    "ldp": ("DDM", {"load"}), "ldnp": ("DDM", {"load"}),
    "str": ("UM", {"store"}), "strb": ("UM", {"store"}), "strh": ("UM", {"store"}),
    "stur": ("UM", {"store"}), "stp": ("UUM", {"store"}), "stnp": ("UUM", {"store"}),
    "prfm": ("IM", {"load"}),
    # control flow
    "b": ("L", {"branch"}), "cbz": ("UL", {"cbranch"}), "cbnz": ("UL", {"cbranch"}),
    "tbz": ("UIL", {"cbranch"}), "tbnz": ("UIL", {"cbranch"}),
    "ret": ("", {"ret"}),
    # Advanced SIMD (VSeq element-wise emitters build on these)
    "umull.v": ("DUU", {"feat:asimd"}), "umull2.v": ("DUU", {"feat:asimd"}),
    "umlal.v": ("XUU", {"feat:asimd"}), "umlal2.v": ("XUU", {"feat:asimd"}),
    "add.v": ("DUU", {"feat:asimd"}), "sub.v": ("DUU", {"feat:asimd"}),
    "and.v": ("DUU", {"feat:asimd"}), "orr.v": ("DUU", {"feat:asimd"}),
    "eor.v": ("DUU", {"feat:asimd"}), "bic.v": ("DUU", {"feat:asimd"}),
    "ushr.v": ("DUI", {"feat:asimd"}), "sshr.v": ("DUI", {"feat:asimd"}),
    "shl.v": ("DUI", {"feat:asimd"}), "usra.v": ("XUI", {"feat:asimd"}),
    "sli.v": ("XUI", {"feat:asimd"}), "sri.v": ("XUI", {"feat:asimd"}),
    "xtn.v": ("DU", {"feat:asimd"}), "xtn2.v": ("XU", {"feat:asimd"}),
    "shrn.v": ("DUI", {"feat:asimd"}), "shrn2.v": ("XUI", {"feat:asimd"}),
    "zip1.v": ("DUU", {"feat:asimd"}), "zip2.v": ("DUU", {"feat:asimd"}),
    "uzp1.v": ("DUU", {"feat:asimd"}), "uzp2.v": ("DUU", {"feat:asimd"}),
    "trn1.v": ("DUU", {"feat:asimd"}), "trn2.v": ("DUU", {"feat:asimd"}),
    "ext.v": ("DUUI", {"feat:asimd"}), "dup.v": ("DU", {"feat:asimd"}),
    "mov.v": ("DU", {"feat:asimd"}), "ins.v": ("XU", {"feat:asimd"}),
    "movi.v": ("DI", {"feat:asimd"}), "fmov.v": ("DU", {"feat:asimd"}),
    "ldr.v": ("DM", {"load", "feat:asimd"}), "str.v": ("UM", {"store", "feat:asimd"}),
    "ldp.v": ("DDM", {"load", "feat:asimd"}), "stp.v": ("UUM", {"store", "feat:asimd"}),
    "ld1.v": ("DM", {"load", "feat:asimd"}), "st1.v": ("UM", {"store", "feat:asimd"}),
    "ld4.v": ("DDDDM", {"load", "feat:asimd"}),    # four consecutive registers (pin them)
    "addv.v": ("DU", {"feat:asimd"}), "addp.v": ("DUU", {"feat:asimd"}),
    "umov.v": ("DU", {"feat:asimd"}),
    # immediate forms (`bic v.4s, #0xfc, lsl #24`): the register is read and written
    "bic.vi": ("XII", {"feat:asimd"}), "orr.vi": ("XII", {"feat:asimd"}),
}

CONDS = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt",
         "gt", "le", "al"}
for _c in CONDS:
    SPEC["b." + _c] = ("L", {"cbranch", "fr"})


class Imm:
    """An immediate (`#n`) or a raw modifier such as `lsl #32` or a condition `cs`."""

    def __init__(self, value):
        self.value = value

    def format(self):
        if isinstance(self.value, int):
            return "#%d" % self.value
        return str(self.value)

    def __repr__(self):
        return self.format()


class Label:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "Label(%s)" % self.name


class Mem:
    """[base, #off] | [base, #off]! (pre) | [base], #off (post) | [base, index, lsl #s]."""

    def __init__(self, base, off=0, mode="off", index=None, shift=0, size=8, count=1, tag=None):
        if isinstance(base, View):
            base = base.reg
        if not (isinstance(base, Reg) and base.cls == GPR) and not isinstance(base, StackPointer):
            raise TypeError("memory base must be a general-purpose register or sp")
        if isinstance(off, Local) and not isinstance(base, StackPointer):
            raise TypeError("a stack local is addressed from sp")
        if isinstance(index, View):
            index = index.reg
        self.base = base
        self.off = off
        self.mode = mode
        self.index = index
        self.shift = shift
        self.size = size
        self.count = count
        # tag = (array, byte offset): the logical address, for the dependency checker of the
        # scheduling primitives (accesses to one array conflict only when they overlap)
        self.tag = tag

    @property
    def writeback(self):
        return self.mode in ("pre", "post")

    def __repr__(self):                 # over virtual registers (messages, reports)
        return self.format(None)

    def regs_used(self):
        base = [] if isinstance(self.base, StackPointer) else [self.base]
        return base + ([self.index] if self.index is not None else [])

    @property
    def displacement(self):
        return self.off.offset if isinstance(self.off, Local) else self.off

    def format(self, phys):
        if isinstance(self.base, StackPointer):
            if self.mode != "off" or self.index is not None:
                raise ValueError("stack locals use plain [sp, #offset] addressing")
            off = self.displacement
            return "[sp, #%d]" % off if off else "[sp]"     # as objdump prints it
        b = "x%d" % phys[self.base.vid] if phys is not None else "%r" % self.base
        if self.index is not None:
            i = "x%d" % phys[self.index.vid] if phys is not None else "%r" % self.index
            return "[%s, %s, lsl #%d]" % (b, i, self.shift) if self.shift else "[%s, %s]" % (b, i)
        off = self.displacement
        if self.mode == "pre":
            return "[%s, #%d]!" % (b, off)
        if self.mode == "post":
            return "[%s], #%d" % (b, off)
        return "[%s, #%d]" % (b, off) if off else "[%s]" % b


def post(base, off, **kw):
    return Mem(base, off, "post", **kw)


def pre(base, off, **kw):
    return Mem(base, off, "pre", **kw)


def mem(base, off=0, **kw):
    return Mem(base, off, "off", **kw)


class Insn:
    """One instruction (or pseudo: label, comment, marker) of an AArch64 stream."""

    def __init__(self, mnem, ops, pseudo=None, text=None):
        self.mnem = mnem
        self.ops = list(ops)
        self.pseudo = pseudo          # None | "label" | "comment" | "marker" | "entry" | "exit"
        self.text = text
        self.implicit_uses = []       # e.g. the result register read by `ret`
        self.implicit_defs = []       # e.g. the arguments defined at entry
        if pseudo is None:
            if mnem not in SPEC:
                raise ValueError("unknown AArch64 mnemonic %r (add it to insn.SPEC)" % mnem)
            roles, _ = SPEC[mnem]
            if len(roles) != len(self.ops) and not (
                    len(self.ops) == len(roles) + 1 and isinstance(self.ops[-1], Imm)):
                raise ValueError("%s expects operands %r, got %d" % (mnem, roles, len(self.ops)))

    # effects ------------------------------------------------------------------------------
    @property
    def effects(self):
        return SPEC[self.mnem][1] if self.pseudo is None else set()

    def _role_ops(self):
        roles = SPEC[self.mnem][0] if self.pseudo is None else ""
        for i, op in enumerate(self.ops):
            yield (roles[i] if i < len(roles) else "I"), op

    def uses(self):
        """Virtual registers read (by vid order of appearance)."""
        out = []
        for role, op in self._role_ops():
            if role in "UX" and isinstance(op, View):
                out.append(op.reg)
            elif role == "M":
                out.extend(op.regs_used())
        out.extend(self.implicit_uses)
        return out

    def defs(self):
        out = list(self.implicit_defs)
        for role, op in self._role_ops():
            if role in "DX" and isinstance(op, View):
                out.append(op.reg)
            elif role == "M" and op.writeback and not isinstance(op.base, StackPointer):
                out.append(op.base)
        return out

    @property
    def reads_flags(self):
        return "fr" in self.effects

    @property
    def writes_flags(self):
        return "fw" in self.effects

    @property
    def is_load(self):
        return "load" in self.effects

    @property
    def is_store(self):
        return "store" in self.effects

    @property
    def is_branch(self):
        return bool({"branch", "cbranch"} & self.effects)

    @property
    def is_conditional(self):
        return "cbranch" in self.effects

    @property
    def is_ret(self):
        return "ret" in self.effects

    @property
    def target(self):
        for op in self.ops:
            if isinstance(op, Label):
                return op.name
        return None

    def features(self):
        return {e[5:] for e in self.effects if e.startswith("feat:")}

    def memory(self):
        for op in self.ops:
            if isinstance(op, Mem):
                return op
        return None

    # text ---------------------------------------------------------------------------------
    def format(self, phys):
        if self.pseudo == "label":
            return "%s:" % self.text
        if self.pseudo == "comment":
            return "\t/* %s */" % self.text
        if self.pseudo == "marker":
            return self.text
        if self.pseudo in ("entry", "exit"):
            return None
        parts = []
        for op in self.ops:
            if isinstance(op, View):
                parts.append(op.format(phys[op.reg.vid]))
            elif isinstance(op, Zero):
                parts.append(op.format())
            elif isinstance(op, Imm):
                parts.append(op.format())
            elif isinstance(op, Label):
                parts.append(op.name)
            elif isinstance(op, Mem):
                parts.append(op.format(phys))
            else:
                raise TypeError("cannot format operand %r of %s" % (op, self.mnem))
        name = self.mnem.split(".")[0] if self.mnem.endswith((".v", ".vi")) else self.mnem
        if name in ("ld1", "st1"):
            parts[0] = "{%s}" % parts[0]
        elif name == "ld4":
            regs = [phys[op.reg.vid] for op in self.ops[:4]]
            if any(regs[i] != (regs[0] + i) % 32 for i in range(4)):
                raise ValueError("ld4 needs four consecutive registers, got v%s"
                                 % ", v".join(map(str, regs)))
            parts[0:4] = ["{%s-%s}" % (parts[0], parts[3])]      # objdump's spelling
        return "\t%s\t%s" % (name, ", ".join(parts)) if parts else "\t%s" % name

    def __repr__(self):
        return "Insn(%s %s)" % (self.mnem if self.pseudo is None else self.pseudo, self.ops or self.text)
