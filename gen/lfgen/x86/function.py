"""The x86-64 kernel builder: PeachPy for instructions and allocation, our passes around it.

    f = Function("lf_mpn_mul_1_mulx", [("rp", "uint64_t *"), ...], result="uint64_t")
    with f:
        rp, ap, n, b = f.load_args()          # virtual GPRs, LOAD.ARGUMENT from the SysV ABI
        lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        MOV(rdx, b); MULX(hi, lo, [ap]); ...  # pins are plain physical registers (rdx for MULX)
        f.ret(carry)                           # single exit: early exits jump to f.exit_label
    out = f.finalize()

PeachPy (Debian's python3-peachpy) does the encoding tables, liveness and register
allocation, and synthesises push/pop of the callee-saved registers it allocated. Around it:
  - `verify.check_bindings` re-checks the binding with our own liveness, counting implicit
    operands (MULX reads RDX, MUL writes RDX:RAX) as writes of physical registers, so a hidden
    scratch register that overlaps a live value stops generation;
  - `_lower_text` derives .cfi directives from the lowered prologue/epilogue;
  - `vzeroupper` is ensured before `ret` when YMM/ZMM registers were touched;
  - `gas.py` prints the result, ZMM and mask registers included;
  - the required features are derived from the ISA extensions of the emitted instructions;
  - `tail_call_outside` adds a size dispatch to a sibling variant before the frame;
  - `prefix_upto` puts a second function, compiled on its own, before the frame: small sizes
    run there and never pay the main body's stack allocation.
PeachPy's own gaps for AVX-512 are filled in `peachpy_ext.py`.

Win64 (`win64.py` adds the entry shim): the body is SysV code in every flavour, so the lowering
also prints the body's prologue for Windows unwinding (LF_SEH_PUSHREG/STACKALLOC/ENDPROLOGUE,
empty outside Win64) and insists on the shape Windows' unwinder can follow: every push and
stack allocation in one run at the start, every pop and release in one run right before the
`ret`. It records the xmm6-xmm15 the body writes (nonvolatile in Win64, the shim saves them)
and whether the body keeps values in the SysV red zone: a body that does is built a second
time `with flavour("win64")`, where `red_zone_slots` hands out slots of a real frame instead.
"""

import contextlib

import peachpy
import peachpy.stream
from peachpy import Argument
from peachpy.x86_64 import isa, uarch
from peachpy.x86_64.function import Function as PPFunction
from peachpy.x86_64.instructions import Instruction, BranchInstruction
from peachpy.x86_64.pseudo import LABEL, RETURN, LOAD, Label
from peachpy.x86_64.registers import (GeneralPurposeRegister64, XMMRegister, YMMRegister,
                                      ZMMRegister, rdi, rsi, rdx, rcx, r8, r9, rsp)

from .. import consttime, features
from ..verify import check_bindings, AllocationError
from . import gas, peachpy_ext

SYSV_ARGS = (rdi, rsi, rdx, rcx, r8, r9)

# The form the functions built now take: "sysv" (every flavour's body) or "win64" (a second
# build of a body that uses the SysV red zone, for the Win64 flavour; see red_zone_slots)
FLAVOURS = ("sysv", "win64")
_flavour = ["sysv"]


@contextlib.contextmanager
def flavour(name):
    """Build the functions created inside the block in form `name`."""
    if name not in FLAVOURS:
        raise ValueError("unknown flavour %r" % name)
    _flavour.append(name)
    try:
        yield
    finally:
        _flavour.pop()

_SYSV, _SYSV32 = peachpy_ext.SYSV, peachpy_ext.SYSV32

# Every extension PeachPy may check against; what a kernel needs is derived afterwards.
TARGET = (uarch.default + isa.bmi + isa.bmi2 + isa.adx + isa.avx + isa.avx2 + isa.fma3 +
          isa.avx512f + isa.avx512dq + isa.avx512bw + isa.avx512vl + isa.avx512ifma +
          isa.avx512vbmi + isa.movbe)

_CTYPES = {
    "uint64_t": peachpy.uint64_t, "int64_t": peachpy.int64_t, "uint32_t": peachpy.uint32_t,
    "int32_t": peachpy.int32_t, "size_t": peachpy.size_t, "int": peachpy.int32_t,
    "uint8_t": peachpy.uint8_t,
}
_CONST = {"uint64_t": peachpy.const_uint64_t, "int64_t": peachpy.const_int64_t,
          "uint32_t": peachpy.const_uint32_t, "uint8_t": peachpy.const_uint8_t}


def ctype(text):
    t = text.replace("const ", "const_").replace(" *", "*").strip()
    if t.endswith("*"):
        base = t[:-1]
        if base.startswith("const_"):
            return peachpy.ptr(_CONST[base[len("const_"):]])
        return peachpy.ptr(_CTYPES[base])
    return _CTYPES[t]


class COMMENT(Instruction):
    """A comment or an llvm-mca marker line carried through PeachPy into the .S text."""

    def __init__(self, text):
        super().__init__("COMMENT")
        self.text = text
        if peachpy.stream.active_stream is not None:
            peachpy.stream.active_stream.add_instruction(self)

    def _filter_encodings(self):
        return []

    def encode(self):
        return bytearray()


class Compiled:
    def __init__(self, name, lines, features, saved, instructions, tail_targets=(),
                 flavour="sysv", red_zone=False, xmm_written=(), frame=0, prefix=None,
                 sysv_only=False):
        self.name = name
        self.lines = lines
        self.features = features
        self.saved = saved
        self.instructions = instructions
        self.tail_targets = list(tail_targets)   # sibling variants jumped to before the frame
        self.flavour = flavour                   # "sysv" or "win64" (see `flavour`)
        self.red_zone = red_zone                 # memory below rsp is used (SysV only)
        self.xmm_written = list(xmm_written)     # ids 6..15 of vector registers written
        self.frame = frame                       # bytes allocated by the prologue's sub
        self.prefix = prefix                     # Compiled of the code before the frame
        self.sysv_only = sysv_only               # lines the Win64 form leaves out (prefix)

    @property
    def text(self):
        return "\n".join(self.lines) + "\n"

    def mnemonics(self):
        return [i.gas_name for i in self.instructions
                if not isinstance(i, (LABEL, COMMENT)) and i.name != "RETURN"]


class _Node:
    """Adapter of a PeachPy instruction for dataflow/verify (uses/defs/branches)."""

    class _R:
        def __init__(self, reg):
            self.reg = reg
            if reg.is_virtual:
                self.vid = ("v", reg.kind, reg.virtual_id)
            else:
                self.vid = ("p", reg.kind, reg.physical_id)

        def __repr__(self):
            return str(self.reg)

    def __init__(self, insn, uses=None, defs=None):
        self.insn = insn
        self._uses = [self._R(r) for r in (insn.input_registers if uses is None else uses)]
        if uses is None:
            # PeachPy leaves the write mask of a memory operand (`[rdi]{k1}`) out of
            # input_registers; count it as read so the verifier sees the mask live up to here
            from peachpy.x86_64.operand import MemoryOperand
            for o in insn.operands:
                if isinstance(o, MemoryOperand) and o.mask is not None:
                    self._uses.append(self._R(o.mask.mask_register))
        self._defs = [self._R(r) for r in (insn.output_registers if defs is None else defs)]
        self.pseudo = "label" if isinstance(insn, LABEL) else None
        self.text = str(insn.operands[0]) if isinstance(insn, LABEL) else None
        self.is_ret = isinstance(insn, RETURN)
        self.is_branch = isinstance(insn, BranchInstruction) and insn.label_name is not None
        self.is_conditional = self.is_branch and insn.is_conditional
        self.target = str(insn.operands[0]) if self.is_branch else None

    def uses(self):
        return self._uses

    def defs(self):
        return self._defs

    def __repr__(self):
        return str(self.insn)


_FLAG_READERS = {"ADC", "SBB", "ADCX", "ADOX", "CMOVB", "CMOVAE", "CMOVC", "CMOVNC", "CMOVZ",
                 "CMOVNZ", "CMOVE", "CMOVNE", "CMOVG", "CMOVL", "CMOVA", "CMOVBE", "SETB",
                 "SETC", "SETZ", "SETNZ"}
_FLAG_WRITERS = {"ADD", "ADC", "SUB", "SBB", "AND", "OR", "XOR", "CMP", "TEST", "SHL", "SHR",
                 "SAR", "SHLD", "SHRD", "INC", "DEC", "NEG", "IMUL", "MUL", "ADCX", "ADOX",
                 "BZHI", "BT", "KORTESTB", "KORTESTW", "KTESTB", "VPTEST"}


class _CtNode(consttime.Node):
    """A PeachPy instruction as consttime.check sees it (registers keyed as in _Node); x86
    conditional branches test flags only, and no addressing mode writes a register back.
    LEA's memory operand is not an access: its registers are inputs like an ADD's."""

    def __init__(self, insn, public):
        from peachpy.x86_64.operand import MemoryOperand
        self.insn = insn
        self.label = isinstance(insn, LABEL)
        name = insn.name
        mems = [o for o in insn.operands if isinstance(o, MemoryOperand)]
        store = bool(mems) and insn.operands[0] is mems[0] and name.startswith(("MOV", "VMOV"))
        self.load = bool(mems) and not store
        self.public = self.load and any(
            m.address.base is not None and m.address.index is None and
            any(m.address.base == r and m.address.displacement == d for r, d in public)
            for m in mems)
        self._addr = [_Node._R(r).vid for m in mems for r in (m.address.base, m.address.index)
                      if r is not None]
        if name == "LEA":               # arithmetic on its address registers, no access:
            self.load, self._addr = False, []   # taint flows to the result as for an ADD
        pseudo = self.label or isinstance(insn, (COMMENT, RETURN))
        if isinstance(insn, LOAD.ARGUMENT):
            self._uses, self._defs = [], [_Node._R(insn.operands[0]).vid]
        elif pseudo:
            self._uses, self._defs = [], []
        else:
            self._uses = [_Node._R(r).vid for r in insn.input_registers]
            self._defs = [_Node._R(r).vid for r in insn.output_registers]
        self.cond = isinstance(insn, BranchInstruction) and insn.is_conditional
        self.reads_flags = self.cond or name in _FLAG_READERS
        self.writes_flags = name in _FLAG_WRITERS

    def __str__(self):
        return str(self.insn)


class _Entry:
    pseudo = "entry"
    text = None
    is_ret = is_branch = is_conditional = False
    target = None

    def __init__(self, regs):
        self._defs = [_Node._R(r) for r in regs]

    def uses(self):
        return []

    def defs(self):
        return self._defs

    def __repr__(self):
        return "<entry>"


class Function(consttime.Checked):
    def __init__(self, name, args, result=None, zmm32=False):
        if len(args) > len(SYSV_ARGS):
            raise ValueError("stack arguments are not supported")
        self.name = name
        self.arg_names = [a for a, _ in args]
        self.arg_types = [t for _, t in args]
        self._pp_args = [Argument(ctype(t), a) for a, t in args]
        self.pp = PPFunction(name, tuple(self._pp_args), ctype(result) if result else None,
                             target=TARGET)
        self.zmm32 = zmm32
        if zmm32:
            self.pp._lf_vector_limit = 32
        self.result = result
        self.exit_label = Label("exit")
        self._arg_regs = None
        self._preamble = []
        self._tail_targets = []
        self._prefix = None
        self.flavour = _flavour[-1]

    def __enter__(self):
        self.pp.attach()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.pp.detach()
            return False
        self._name_labels()
        self.pp.__exit__(None, None, None)
        return False

    def _name_labels(self):
        """Name every anonymous `Label()` in program order before PeachPy does. PeachPy
        disambiguates labels sharing a prename (three `skip = Label()` in a loop) by iterating
        a set of Name objects whose hash is id()-based, so skip0/skip1/skip2 landed on
        different labels from run to run. Here: a prename used once keeps it, repeated ones
        get prename0, prename1, ... in the order their LABELs appear."""
        scope = self.pp._scope
        anon, seen = [], set()
        for x in self.pp._instructions:
            if isinstance(x, LABEL):
                head = x.identifier[0]
                if head.name is None and head.prename is not None and id(head) not in seen:
                    seen.add(id(head))            # Name.__eq__ calls all unnamed Names equal
                    anon.append(head)
        counts = {}
        for n in anon:
            counts[n.prename] = counts.get(n.prename, 0) + 1
        used = set(scope.names)
        seq = {}
        for n in anon:
            if counts[n.prename] == 1 and n.prename not in used:
                name = n.prename
            else:
                k = seq.get(n.prename, 0)
                while "%s%d" % (n.prename, k) in used:
                    k += 1
                seq[n.prename] = k + 1
                name = "%s%d" % (n.prename, k)
            # leave PeachPy's pending set before renaming (the hash depends on the name)
            rest = {m for m in scope.prenames.get(n.prename, ()) if m is not n}
            if rest:
                scope.prenames[n.prename] = rest
            else:
                scope.prenames.pop(n.prename, None)
            n.prename = None
            n.name = name
            scope.names[name] = n
            used.add(name)
        # PeachPy's set of defined label identifiers was hashed with the old names
        self.pp._label_names = {t for t in self.pp._label_names}   # (set(s) keeps old hashes)

    def load_args(self):
        """One virtual GPR per argument, loaded first (so no argument register is clobbered
        before it is read; the verifier checks this too)."""
        regs = []
        for a in self._pp_args:
            r = GeneralPurposeRegister64()
            LOAD.ARGUMENT(r, a)
            regs.append(r)
        self._arg_regs = regs
        return regs

    def red_zone_slots(self, n):
        """n 8-byte memory operands for values parked while every register is needed. SysV
        form: the red zone below rsp (no frame; a leaf may use it). Win64 form: PeachPy
        locals in a real frame, because Windows has no red zone -- whatever lies below rsp
        may be overwritten at any time (exception dispatch, debuggers), and an entry shim
        cannot protect it: the red zone is below the *body's* rsp, which is below every byte
        the shim could reserve."""
        if self.flavour == "win64":
            from peachpy.x86_64.function import LocalVariable
            return [LocalVariable(8) for _ in range(n)]
        return [[rsp - 8 * (i + 1)] for i in range(n)]

    def tail_call_outside(self, arg, lo, hi, target):
        """Size dispatch before the frame: when argument `arg` (an index into the C
        arguments, compared unsigned) is below `lo` or above `hi` (None: no bound), jump
        straight to the sibling variant `target` (a symbol with the same prototype). Nothing
        has been pushed or loaded yet, so it is a plain tail call: the sibling returns to our
        caller, no frame, register save or vzeroupper is paid on that path. The generator
        checks that `target` is a variant of the same kernel and needs no feature this one
        lacks."""
        self._preamble.append((SYSV_ARGS[arg], lo, hi, target))
        if target not in self._tail_targets:
            self._tail_targets.append(target)

    def tail_call_all_upto(self, args, hi, target):
        """Size dispatch before the frame, as tail_call_outside: when every argument in
        `args` is at most `hi` (unsigned), jump to the sibling `target`."""
        self._preamble.append((tuple(SYSV_ARGS[a] for a in args), None, hi, target))
        if target not in self._tail_targets:
            self._tail_targets.append(target)

    def prefix_upto(self, args, hi, build, part="small"):
        """Code before the frame: when every argument in `args` (indices into the C arguments)
        is at most `hi` (unsigned), the call runs `build(g)` -- a whole function written into
        g, a Function of the same prototype named `<name>_<part>` and compiled on its own
        (its own register allocation, verification and pushes) -- and returns from there;
        other calls skip it and enter this body's prologue. The prefix may push callee-saved
        registers and use the red zone but not allocate stack: its point is that small sizes
        do not pay the body's `sub $n, %rsp`: on AMD Zen 5 (2026-12-01) a hand-written 2 x
        2-digit BigInteger product in a throwaway harness took 7.3 core cycles a call bare,
        7.8 with five pushes and pops, 11.1 with those and bi_multiply_to_len's 3.5 KiB
        sub/add of rsp.

        SysV only: a second prologue inside one function cannot be described by Windows'
        unwind tables (one prologue of at most 255 bytes at the entry), so the Win64 form of
        the body leaves the prefix out and runs every size through its own path (the merged
        text carries the prefix inside `#if !defined(LF_WIN64)`)."""
        if self._prefix is not None:
            raise ValueError("%s: one prefix per function" % self.name)
        for a in args:                          # cmpq compares the whole register
            if self.arg_types[a].replace(" ", "") not in ("size_t", "uint64_t", "int64_t") \
                    and not self.arg_types[a].endswith("*"):
                raise ValueError("%s: prefix_upto compares argument %s (%s) as 64 bits"
                                 % (self.name, self.arg_names[a], self.arg_types[a]))
        self._prefix = (tuple(SYSV_ARGS[a] for a in args), hi, build,
                        "%s_%s" % (self.name, part))

    def _prefix_lines(self):
        """(lines, Compiled) of the prefix (see prefix_upto), or ([], None)."""
        if self._prefix is None or self.flavour != "sysv":
            return [], None
        regs, hi, build, pname = self._prefix
        g = Function(pname, list(zip(self.arg_names, self.arg_types)), self.result,
                     zmm32=self.zmm32)
        with g:
            build(g)
        comp = g.finalize()
        if comp.frame:
            raise ValueError("%s: the prefix %s allocates %d bytes of stack (only pushes and "
                             "the red zone are allowed before the frame)"
                             % (self.name, pname, comp.frame))
        past = ".L%s_frame" % self.name
        lines = ["\t/* code before the frame: %s at most %d run %s */"
                 % (" and ".join("%" + str(r) for r in regs), hi, pname)]
        for r in regs:
            lines += ["\tcmpq\t$%d, %%%s" % (hi, r), "\tja\t%s" % past]
        lines.append("\t/* %s */" % pname)
        lines += [l for l in comp.lines if not l.startswith("\tLF_SEH_")]   # (SysV only)
        lines += ["%s:" % past, "\t/* end of the code before the frame */"]
        return lines, comp

    def _preamble_lines(self, wide):
        """The size dispatch as text. A function that touches YMM/ZMM promises clean upper
        state on every return, so it executes vzeroupper before jumping to a sibling too (the
        caller may have left the state dirty; the ABI test checks this)."""
        lines = []
        if not self._preamble:
            return lines
        # one block between the two marker comments (tests/roundtrip.py skips it), however
        # many tests: vzeroupper once, before the first
        lines.append("\t/* size dispatch before the frame: other sizes run %s */"
                     % ", ".join(self._tail_targets))
        if wide:
            lines.append("\tvzeroupper")
        for i, (reg, lo, hi, target) in enumerate(self._preamble):
            if isinstance(reg, tuple):              # tail_call_all_upto
                past = ".L%s_upto%d" % (self.name, i)
                for r in reg[:-1]:
                    lines += ["\tcmpq\t$%d, %%%s" % (hi, r), "\tja\t%s" % past]
                lines += ["\tcmpq\t$%d, %%%s" % (hi, reg[-1]), "\tjbe\tLF_BODY(%s)" % target,
                          "%s:" % past]
                continue
            r = "%" + str(reg)
            # LF_BODY: the sibling's SysV body (in the Win64 flavour not its Win64 entry: the
            # arguments are in the SysV registers by now)
            if lo is not None:
                lines += ["\tcmpq\t$%d, %s" % (lo, r), "\tjb\tLF_BODY(%s)" % target]
            if hi is not None:
                lines += ["\tcmpq\t$%d, %s" % (hi, r), "\tja\tLF_BODY(%s)" % target]
        lines.append("\t/* end of size dispatch */")
        return lines

    def new_label(self, name):
        """A label with a unique, deterministic name (`name`, `name_2`, ...), as in the
        AArch64 builder; prefer it to anonymous `Label()` in helpers called repeatedly."""
        self._label_seq = getattr(self, "_label_seq", {})
        k = self._label_seq.get(name, 0) + 1
        self._label_seq[name] = k
        return Label(name if k == 1 else "%s_%d" % (name, k))

    def bind(self, label):
        """Place `label` here (the AArch64 builder's spelling of LABEL, so the scheduling
        primitives drive both targets)."""
        LABEL(label)

    def comment(self, text):
        for line in text.splitlines():
            COMMENT("\t/* %s */" % line)

    def mca_begin(self, name):
        COMMENT("/* LLVM-MCA-BEGIN %s */" % name)

    def mca_end(self):
        COMMENT("/* LLVM-MCA-END */")

    @contextlib.contextmanager
    def capture(self):
        """Collect instructions into a list instead of the function (see sched.py)."""
        with peachpy.stream.InstructionStream() as s:
            yield s.instructions

    def extend(self, insns):
        self.pp.add_instructions(insns)

    def ret(self, value=None):
        """The single exit: binds `exit_label` and returns `value` (early exits jump there
        with the result already in the register they pass here)."""
        LABEL(self.exit_label)
        if value is None:
            RETURN()
        else:
            RETURN(value)

    # passes ------------------------------------------------------------------------------
    def finalize(self):
        insns = self.pp._instructions
        if self.public_loads is not None:
            consttime.check([_CtNode(x, self.public_loads) for x in insns], self.name,
                            secret=[_Node._R(r).vid for r in self.secret_args])
        returns = [i for i, x in enumerate(insns) if isinstance(x, RETURN)]
        if len(returns) != 1 or returns[0] != len(insns) - 1:
            raise ValueError("%s: exactly one RETURN, at the end (use f.ret and jump to "
                             "f.exit_label for early exits)" % self.name)
        abif = self.pp.finalize(_SYSV32 if self.zmm32 else _SYSV)
        self._verify(abif)
        lowered = abif._instructions
        lines, saved = self._lower_text(lowered)
        exts = set()
        for x in lowered:
            exts |= {e.name for e in x.isa_extensions}
            if self.zmm32:
                high = [r for r in x.register_objects
                        if isinstance(r, (XMMRegister, YMMRegister, ZMMRegister))
                        and r.physical_id is not None
                        and r.physical_id >= 16]
                if high:
                    exts.add("AVX512F")           # EVEX is the only encoding of 16-31
                if any(not isinstance(r, ZMMRegister) for r in high):
                    exts.add("AVX512VL")
        feats = features.x86_tokens(exts)
        wide = any(isinstance(r, (YMMRegister, ZMMRegister))
                   for x in lowered for r in x.register_objects)
        red_zone = _uses_red_zone(lowered)
        if red_zone and self.flavour == "win64":
            raise ValueError("%s: the Win64 form addresses memory below rsp (Windows has no "
                             "red zone; use Function.red_zone_slots)" % self.name)
        plines, pcomp = self._prefix_lines()
        if pcomp is not None:
            feats = sorted(set(feats) | set(pcomp.features))
        return Compiled(self.name, self._preamble_lines(wide) + plines + lines, feats, saved,
                        lowered, self._tail_targets, flavour=self.flavour, red_zone=red_zone,
                        xmm_written=_xmm_written(lowered), frame=self._frame, prefix=pcomp,
                        sysv_only=self._prefix is not None)

    def _verify(self, abif):
        allocs = {k: ra.register_allocations for k, ra in abif._register_allocators.items()}
        stream = [_Entry(SYSV_ARGS[:len(self._pp_args)])]
        for x in self.pp._instructions:
            if isinstance(x, LOAD.ARGUMENT):
                idx = [str(a.name) for a in self._pp_args].index(str(x.operands[1].name))
                stream.append(_Node(x, uses=[SYSV_ARGS[idx]], defs=[x.operands[0]]))
            elif isinstance(x, COMMENT):
                continue
            else:
                stream.append(_Node(x))

        def phys_of(r):
            reg = r.reg
            if reg.is_virtual:
                # PeachPy keys allocations by the internal id (negative virtual id)
                if reg.virtual_id not in allocs.get(reg.kind, {}):
                    raise AllocationError(
                        "%s: virtual register %s was not allocated by PeachPy (a mask of a "
                        "memory operand? use a physical k register there)" % (self.name, reg))
                return (reg.kind, allocs[reg.kind][reg.virtual_id])
            return (reg.kind, reg.physical_id)

        def is_copy(node):
            x = getattr(node, "insn", None)
            if x is not None and x.name == "MOV" and len(x.operands) == 2 and all(
                    isinstance(o, GeneralPurposeRegister64) for o in x.operands):
                return (node.defs()[0].vid, node.uses()[0].vid)
            return None

        check_bindings(stream, phys_of, is_copy=is_copy)

    def _frame_shape(self, lowered):
        """(index of the first instruction after the prologue, index of the first instruction
        of the epilogue). The prologue is the leading run of pushes and `sub $n, %rsp`, the
        epilogue the run of `add $n, %rsp` and pops right before the final `ret`: the only
        places where the stack pointer may move. That is the shape Windows' unwinder needs
        (unwind codes describe the prologue; an epilogue is recognised by its instructions:
        add/lea rsp, pops, ret), so it is required in every flavour."""
        from peachpy.x86_64.generic import PUSH, POP, SUB, ADD

        def moves_rsp(x, kinds):
            return isinstance(x, kinds) and (
                isinstance(x, (PUSH, POP)) or x.operands[0] == rsp)
        code = [k for k, x in enumerate(lowered) if not isinstance(x, COMMENT)]
        pro = 0
        while pro < len(code) and moves_rsp(lowered[code[pro]], (PUSH, SUB)):
            pro += 1
        epi = len(code) - 1                                   # the ret
        while epi - 1 >= pro and moves_rsp(lowered[code[epi - 1]], (POP, ADD)):
            epi -= 1
        for j in list(range(pro, epi)):
            x = lowered[code[j]]
            if moves_rsp(x, (PUSH, POP, SUB, ADD)):
                raise ValueError("%s: `%s` moves the stack pointer outside the prologue and "
                                 "the epilogue (Windows' unwind tables cannot describe it)"
                                 % (self.name, gas.instruction(x, self.name).strip()))
        prologue = [lowered[code[j]] for j in range(pro)]
        subs = [x for x in prologue if isinstance(x, SUB)]
        first_sub = next((j for j, x in enumerate(prologue) if isinstance(x, SUB)), pro)
        if any(isinstance(x, PUSH) for x in prologue[first_sub:]):
            raise ValueError("%s: a push after the stack allocation" % self.name)
        self._frame = sum(x.operands[1] for x in subs if isinstance(x.operands[1], int))
        if self._frame >= 4096:
            raise ValueError("%s: a %d-byte frame would need stack probes (Windows commits "
                             "the stack one guard page at a time)" % (self.name, self._frame))
        return (code[pro] if pro < len(code) else len(lowered)), code[epi]

    def _lower_text(self, lowered):
        """Print the lowered stream with CFI for every stack adjustment, the LF_SEH_* prologue
        description, vzeroupper before the epilogue when the upper YMM/ZMM state was touched
        (before the pops, so that the epilogue keeps the shape Windows recognises)."""
        from peachpy.x86_64.generic import PUSH, POP, SUB, ADD, RET
        from peachpy.x86_64.avx import VZEROUPPER
        wide = any(isinstance(r, (YMMRegister, ZMMRegister))
                   for x in lowered for r in x.register_objects)
        pro_end, epi_start = self._frame_shape(lowered)
        lines, saved, depth = [], [], 0
        for k, x in enumerate(lowered):
            if k == pro_end:
                lines.append("\tLF_SEH_ENDPROLOGUE")
            if k == epi_start and wide and not any(
                    isinstance(y, VZEROUPPER) for y in lowered[max(0, k - 8):k]):
                lines.append("\tvzeroupper")
            if isinstance(x, COMMENT):
                lines.append(x.text)
                continue
            if isinstance(x, RET):
                if k != len(lowered) - 1:
                    raise ValueError("ret in the middle of %s" % self.name)
                lines.append(gas.instruction(x, self.name))
                continue
            if (x.name == "MOV" and len(x.operands) == 2 and all(
                    isinstance(o, GeneralPurposeRegister64) for o in x.operands)
                    and x.operands[0] == x.operands[1]):
                continue                                  # identity move left by coalescing
            lines.append(gas.instruction(x, self.name))
            if isinstance(x, PUSH):
                depth += 8
                saved.append(str(x.operands[0]))
                lines.append("\t.cfi_adjust_cfa_offset 8")
                lines.append("\t.cfi_rel_offset %%%s, 0" % x.operands[0])
                lines.append("\tLF_SEH_PUSHREG(%%%s)" % x.operands[0])
            elif isinstance(x, POP):
                depth -= 8
                lines.append("\t.cfi_adjust_cfa_offset -8")
                lines.append("\t.cfi_restore %%%s" % x.operands[0])
            elif isinstance(x, (SUB, ADD)) and x.operands[0] == rsp:
                if not isinstance(x.operands[1], int):
                    raise ValueError("non-constant stack adjustment in %s" % self.name)
                delta = x.operands[1] if isinstance(x, SUB) else -x.operands[1]
                depth += delta
                lines.append("\t.cfi_adjust_cfa_offset %d" % delta)
                if isinstance(x, SUB):
                    lines.append("\tLF_SEH_STACKALLOC(%d)" % delta)
            elif any(r == rsp for r in x.output_registers):
                raise ValueError("%s: unsupported write to rsp (%s); CFI cannot follow it"
                                 % (self.name, x))
        if depth != 0:
            raise ValueError("%s: unbalanced stack (%d bytes)" % (self.name, depth))
        return lines, saved


def _uses_red_zone(lowered):
    """True when an instruction addresses memory below rsp (the SysV red zone)."""
    from peachpy.x86_64.operand import MemoryOperand, MemoryAddress
    for x in lowered:
        for o in x.operands:
            if isinstance(o, MemoryOperand) and isinstance(o.address, MemoryAddress) and \
                    o.address.base == rsp and o.address.index is None and \
                    o.address.displacement < 0:
                return True
    return False


def _xmm_written(lowered):
    """Ids 6..15 of the XMM/YMM/ZMM registers the lowered code writes: their low 128 bits
    are nonvolatile in Win64 (the upper bits and zmm16-31 are volatile)."""
    from peachpy.x86_64.avx import VZEROALL
    ids = set()
    for x in lowered:
        if isinstance(x, VZEROALL):
            ids |= set(range(6, 16))
        for r in x.output_registers:
            if isinstance(r, (XMMRegister, YMMRegister, ZMMRegister)) and \
                    r.physical_id is not None and 6 <= r.physical_id <= 15:
                ids.add(r.physical_id)
    return sorted(ids)
