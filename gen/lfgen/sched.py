"""Scheduling primitives over instruction streams (either target).

Kernels are written as *steps* (one limb, one block, one column) whose instructions are
captured into lists (`with f.capture() as s: ...`); these functions reorder the lists and
hand them back for `f.extend(...)`. Every reordering is checked against the dependencies of
the original order (registers, flags, memory), so a schedule can make a kernel slower but
never wrong: a violation stops generation.

  unroll(n, step)                     step(0), ..., step(n-1)
  interleave(a, b)                    spread b's instructions through a, each after the last
                                      instruction of a it depends on (a comes first in
                                      program order: b belongs to a later step)
  interleave_steps(steps, distance)   steps = [(loads_i, work_i)]: issue the loads of step
                                      i+distance between the instructions of work_i
  Rotation(k)                         register rotation: set index of step i
  pipeline(...)                       software-pipelined loop with generated prologue and
                                      per-exit epilogues over a rotation of register sets

Dependencies come from an adapter with `reads(x)`, `writes(x)` (hashable keys: register
vids, flag names) and `mem(x)` -> (key, lo, hi, is_store) or None; see A64Deps / X86Deps.
"""


class ScheduleError(Exception):
    pass


def unroll(n, step):
    for i in range(n):
        step(i)


class Rotation:
    """Register rotation: `k` sets of registers used round-robin by consecutive steps."""

    def __init__(self, k, make_set):
        if k < 1:
            raise ValueError("rotation needs at least one register set")
        self.sets = [make_set(i) for i in range(k)]

    def __len__(self):
        return len(self.sets)

    def __getitem__(self, i):
        return self.sets[i % len(self.sets)]


# dependency adapters ---------------------------------------------------------------------

class A64Deps:
    def __init__(self, same_or_disjoint=()):
        self.alias = {}
        for group in same_or_disjoint:
            key = min(r.vid for r in group)
            for r in group:
                self.alias[r.vid] = key

    def reads(self, x):
        if x.pseudo is not None:
            return set()
        out = {r.vid for r in x.uses()}
        if x.reads_flags:
            out.add("nzcv")
        return out

    def writes(self, x):
        if x.pseudo is not None:
            return set()
        out = {r.vid for r in x.defs()}
        if x.writes_flags:
            out.add("nzcv")
        return out

    def mem(self, x):
        if x.pseudo is not None:
            return None
        m = x.memory()
        if m is None or not (x.is_load or x.is_store):
            return None
        regs = sum(1 for o in x.ops if hasattr(o, "reg"))
        size = m.size * max(1, regs)
        if m.tag is not None:
            return (("tag", m.tag[0]), m.tag[1], m.tag[1] + size, x.is_store)
        if m.index is not None:
            return (None, 0, 0, x.is_store)
        lo = 0 if m.mode == "post" else m.displacement
        if not hasattr(m.base, "vid"):
            return ("sp", lo, lo + size, x.is_store)
        key = self.alias.get(m.base.vid, m.base.vid)
        return (key, lo, lo + size, x.is_store)

    def barrier(self, x):
        return x.pseudo == "label" or (x.pseudo is None and (x.is_branch or x.is_ret))


# x86 flag effects by mnemonic (PeachPy instruction names): (read, write)
_ALL = {"CF", "OF", "ZF"}
X86_FLAGS = {
    "ADD": (set(), _ALL), "SUB": (set(), _ALL), "AND": (set(), _ALL), "OR": (set(), _ALL),
    "XOR": (set(), _ALL), "CMP": (set(), _ALL), "TEST": (set(), _ALL), "NEG": (set(), _ALL),
    "INC": (set(), {"OF", "ZF"}), "DEC": (set(), {"OF", "ZF"}),
    "ADC": ({"CF"}, _ALL), "SBB": ({"CF"}, _ALL),
    "ADCX": ({"CF"}, {"CF"}), "ADOX": ({"OF"}, {"OF"}),
    "SHL": (set(), _ALL), "SHR": (set(), _ALL), "SAR": (set(), _ALL), "SHLD": (set(), _ALL),
    "SHRD": (set(), _ALL), "RCL": ({"CF"}, {"CF", "OF"}), "RCR": ({"CF"}, {"CF", "OF"}),
    "MUL": (set(), _ALL), "IMUL": (set(), _ALL), "CLC": (set(), {"CF"}),
    "STC": (set(), {"CF"}), "BT": (set(), {"CF"}),
    "MULX": (set(), set()), "MOV": (set(), set()), "LEA": (set(), set()),
    "RORX": (set(), set()), "SHLX": (set(), set()), "SHRX": (set(), set()),
    "MOVZX": (set(), set()), "MOVBE": (set(), set()), "BSWAP": (set(), set()),
}


class X86Deps:
    def __init__(self, same_or_disjoint=()):
        self.alias = {}
        for group in same_or_disjoint:
            keys = [self._rkey(r) for r in group]
            for k in keys:
                self.alias[k] = min(keys)

    @staticmethod
    def _rkey(r):
        return ("v", r.kind, r.virtual_id) if r.is_virtual else ("p", r.kind, r.physical_id)

    def _flags(self, x):
        name = x.name
        if name in X86_FLAGS:
            return X86_FLAGS[name]
        if name.startswith(("J", "SET", "CMOV")):
            return (_ALL, set())
        if name in ("LABEL", "COMMENT", "RETURN"):
            return (set(), set())
        if name.startswith("V"):
            return (set(), set())
        raise ScheduleError("no flag effects known for %s; add it to sched.X86_FLAGS" % name)

    def reads(self, x):
        return {self._rkey(r) for r in x.input_registers} | self._flags(x)[0]

    def writes(self, x):
        return {self._rkey(r) for r in x.output_registers} | self._flags(x)[1]

    def mem(self, x):
        from peachpy.x86_64.operand import MemoryOperand
        for i, op in enumerate(x.operands):
            if isinstance(op, MemoryOperand):
                a = op.address
                store = bool(x.out_operands and i < len(x.out_operands) and x.out_operands[i])
                if getattr(a, "index", None) is not None or getattr(a, "base", None) is None:
                    return (None, 0, 0, store)
                size = op.size or 8
                key = self.alias.get(self._rkey(a.base), self._rkey(a.base))
                return (key, a.displacement, a.displacement + size, store)
        return None

    def barrier(self, x):
        from peachpy.x86_64.instructions import BranchInstruction
        from peachpy.x86_64.pseudo import LABEL
        return isinstance(x, (BranchInstruction, LABEL)) or x.name in ("RETURN", "RET")


def _conflict(deps, x, y):
    """True when y (later in program order) must stay after x."""
    if deps.barrier(x) or deps.barrier(y):
        return True
    rx, wx, ry, wy = deps.reads(x), deps.writes(x), deps.reads(y), deps.writes(y)
    if (wx & ry) or (rx & wy) or (wx & wy):
        return True
    mx, my = deps.mem(x), deps.mem(y)
    if mx is not None and my is not None and (mx[3] or my[3]):
        if mx[0] is None or my[0] is None or mx[0] != my[0]:
            return True
        return mx[1] < my[2] and my[1] < mx[2]
    return False


def check_order(original, scheduled, deps):
    """Every dependent pair of `original` keeps its order in `scheduled` (same multiset)."""
    if sorted(map(id, original)) != sorted(map(id, scheduled)):
        raise ScheduleError("schedule lost or duplicated instructions")
    pos = {id(x): i for i, x in enumerate(scheduled)}
    for i, x in enumerate(original):
        for y in original[i + 1:]:
            if pos[id(y)] < pos[id(x)] and _conflict(deps, x, y):
                raise ScheduleError("schedule moves %r before %r, which it depends on" % (y, x))


def interleave(a, b, deps):
    """Merge b into a: b's instructions spread evenly, each placed after the last instruction
    of a that it depends on, both orders kept. Program order is a then b."""
    if not b:
        return list(a)
    if not a:
        return list(b)
    slots = [[] for _ in range(len(a) + 1)]   # slots[k]: b-instructions placed after a[k-1]
    prev = 0
    for j, y in enumerate(b):
        earliest = 0
        for k, x in enumerate(a):
            if _conflict(deps, x, y):
                earliest = k + 1
        want = (j + 1) * len(a) // (len(b) + 1)
        k = max(earliest, want, prev)
        slots[k].append(y)
        prev = k
    out = list(slots[0])
    for k, x in enumerate(a):
        out.append(x)
        out.extend(slots[k + 1])
    check_order(list(a) + list(b), out, deps)
    return out


def interleave_steps(steps, distance, deps):
    """steps: [(loads_i, work_i)] in program order. The loads of step i+distance are issued
    among the instructions of work_i; the first `distance` load groups come first."""
    if distance < 0:
        raise ValueError("negative load-ahead distance")
    original = [x for loads, work in steps for x in list(loads) + list(work)]
    n = len(steps)
    out = []
    for i in range(min(distance, n)):
        out.extend(steps[i][0])
    for i in range(n):
        if distance == 0:
            out.extend(steps[i][0])
            out.extend(steps[i][1])
            continue
        ahead = steps[i + distance][0] if i + distance < n else []
        out.extend(interleave(steps[i][1], ahead, deps))
    check_order(original, out, deps)
    return out


def pipeline(f, deps, load, work, enter_check, exit_check, loop_back, jump, done, distance=1,
             rotation=1, name="pipe", mca=None):
    """Software-pipelined loop: load(i, s) and work(i, s) emit the two stages of iteration i
    (i counts from the first iteration this code emits, s = i % rotation is the register
    set). Emitted:

        prologue      load(0 .. distance-1)
                      enter_check(E): branch to E when no iteration is left to overlap
        loop          for each copy k < rotation: work(k) with load(k + distance)
                      interleaved (dependency-checked); exit_check(epi_k) after each copy
                      but the last, loop_back(top) after the last
        epilogues     epi_k: work() of the `distance` iterations still in flight, then
                      jump(done); E is the epilogue of the last copy

    `mca` (a region name) brackets the steady-state loop with llvm-mca markers.

    The caller owns the counter: it holds the iterations left minus `distance` on entry;
    exit_check/loop_back decrement it and branch on zero / non-zero."""
    if rotation < 1 or distance < 1:
        raise ValueError("rotation and distance must be >= 1")
    if rotation < distance:
        # iterations i+1 .. i+distance are loaded while work(i) runs; with fewer register
        # sets two of them share one, and the later load overwrites a value still in flight
        # (no single interleave can see that: the clash spans loop copies)
        raise ValueError("pipeline: rotation (%d) must be >= distance (%d)"
                         % (rotation, distance))
    top = f.new_label(name + "_loop")
    epis = [f.new_label("%s_epi%d" % (name, k)) for k in range(rotation)]
    for i in range(distance):
        load(i, i % rotation)
    enter_check(epis[rotation - 1])
    f.bind(top)
    if mca:
        f.mca_begin(mca)
    for k in range(rotation):
        with f.capture() as w:
            work(k, k % rotation)
        with f.capture() as ld:
            load(k + distance, (k + distance) % rotation)
        f.extend(interleave(w, ld, deps))
        if k < rotation - 1:
            exit_check(epis[k])
        else:
            loop_back(top)
    if mca:
        f.mca_end()
    for k in [rotation - 1] + list(range(rotation - 1)):
        f.bind(epis[k])
        for j in range(distance):
            work(k + 1 + j, (k + 1 + j) % rotation)
        jump(done)
    return epis
