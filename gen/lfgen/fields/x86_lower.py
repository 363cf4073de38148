"""ir.Prog -> x86-64 (PeachPy, virtual registers), statement by statement: the assembly
computes exactly the values whose bounds the program proved, in the same widths.

An i64 value is one GPR (or a memory operand), an i128 value a pair (lo, hi).  The lowering
covers what the native-radix products use (every value non-negative, so all arithmetic is
unsigned):

    load            a memory operand [arg + 8 i] (no register)
    mul  x y        MOV rdx, x; MULX hi, lo, y            (y may be memory)
    mulc x c        IMUL r, x, c -- one or two LEA for c = 3, 5, 9 or 1 + k d (19 = 1 + 2 * 9)
                    when x is in a register (lea_steps), MULX by c in rdx when the result
                    needs 128 bits
    add             ADD/ADC in place into the operand that dies here
    sar  x k        SHRD (+ SHR for a 128-bit result); with carry_shift="split", the SHRD as
                    SHR lo, k / SHL t, 64 - k / OR (see `lower`)
    mask x k        AND with the mask register of width k
    shl  x 1        ADD r, r
    narrow          the low register
    store           MOV [r + 8 i], x

Where `parks(f)` (more than five limbs), a finished limb not needed for a while is parked
in a red-zone slot (a memory operand), and so is a value defined by `mulc`/`shl` whose every
use is a multiplication operand (the premultiplied 19 b_j, the doubled 2 a_i): that keeps the
8- and 9-limb products inside the 15 registers.  The 5-limb ones keep both in registers:
Curve25519's mul 40.8 -> 36.9 core cycles, square 27.3 -> 25.0 (independent calls; chained,
the same), the store and reload of each premultiplied operand was on the way to its first
product; the finished limbs' store and reload sat in the carry chain (mul 35.9 -> 35.3,
chained 39.5 -> 38.4, on AMD Zen 5, 2026-12-02).  Anything else
(negative bounds, signed values) is refused: the JDK layouts stay in C.
"""

from .ir import BoundError


class Lowering:
    def __init__(self, f, prog, args, slots=16, carry_shift="shrd"):
        from .desc import BY_NAME
        if carry_shift not in CARRY_SHIFTS:
            raise ValueError("carry_shift %r is not one of %s" % (carry_shift, CARRY_SHIFTS))
        self.carry_shift = carry_shift
        self.park = parks(BY_NAME[prog.field])
        self.f, self.prog, self.args = f, prog, args
        self.loc = {}
        self.masks = {}
        self._slots = f.red_zone_slots(slots)
        self._next_slot = 0
        self.stmts = prog.live()
        uses = {}
        for idx, st in enumerate(self.stmts):
            for x in st[2:]:
                if hasattr(x, "name"):
                    uses.setdefault(x.name, []).append((idx, st))
        self.uses = uses

    def _dies(self, v, idx):
        return all(i <= idx for i, _ in self.uses.get(v.name, []))

    def _far(self, v, idx, gap=12):
        """A finished limb not needed for `gap` statements: parked in a slot (the 8- and
        9-limb products would otherwise hold every finished limb in a register)."""
        us = self.uses.get(v.name, [])
        return bool(us) and min(i for i, _ in us) > idx + gap

    def _only_mul_operand(self, v):
        us = self.uses.get(v.name, [])
        return us and all(st[0] == "mul" for _, st in us)

    def _slot(self):
        if self._next_slot >= len(self._slots):      # past the red zone: a frame
            from peachpy.x86_64.function import LocalVariable
            self._slots.append(LocalVariable(8))
        s = self._slots[self._next_slot]
        self._next_slot += 1
        return s

    def _mask(self, k):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV
        if k not in self.masks:
            r = G()
            MOV(r, (1 << k) - 1)
            self.masks[k] = r
        return self.masks[k]

    def _reg(self, v):
        """v's value in a register (a copy of a memory operand)."""
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV
        l = self.loc[v.name]
        if l[0] == "reg":
            return l[1]
        if l[0] == "pair":
            return l[1]
        r = G()
        MOV(r, l[1])
        return r

    def _op(self, v):
        l = self.loc[v.name]
        return l[1]                      # reg, or memory operand, or the pair's low register

    def run(self):
        from peachpy.x86_64 import (GeneralPurposeRegister64 as G, MOV, MULX, IMUL, ADD, SHRD,
                                    SHR, SHL, OR, AND, rdx)
        for idx, st in enumerate(self.stmts):
            op, d = st[0], st[1]
            a = st[2:]
            if d is not None and d.lo < 0:
                raise BoundError("%s %s: x86 lowering is unsigned, %s may be negative"
                                 % (self.prog.field, self.prog.what, d.name))
            if op == "load":
                base = self.args[a[0]]
                self.loc[d.name] = ("mem", [base + 8 * a[1]] if a[1] else [base])
            elif op == "mul":
                x, y = a
                MOV(rdx, self._op(x))
                lo, hi = G(), G()
                MULX(hi, lo, self._op(y))
                self.loc[d.name] = ("pair", lo, hi) if d.kind == "i128" else ("reg", lo)
            elif op in ("mulc", "shl"):
                x = a[0]
                c = a[1] if op == "mulc" else 1 << a[1]
                xl = self.loc[x.name]
                if d.kind == "i64":
                    r = G()
                    lea = lea_steps(c) if xl[0] != "mem" else None
                    if op == "shl" and c == 2:
                        MOV(r, self._op(x))
                        ADD(r, r)
                    elif lea:
                        self._lea_times(r, self._op(x), lea)
                    else:
                        IMUL(r, self._op(x), c)
                    if self._only_mul_operand(d) and self.park:
                        s = self._slot()
                        MOV(s, r)
                        self.loc[d.name] = ("mem", s)
                    else:
                        self.loc[d.name] = ("reg", r)
                else:
                    lo, hi = G(), G()
                    MOV(rdx, c)
                    MULX(hi, lo, self._op(x))
                    if xl[0] == "pair":
                        t = G()
                        IMUL(t, xl[2], c)
                        ADD(hi, t)
                    self.loc[d.name] = ("pair", lo, hi)
            elif op == "add":
                self._add(idx, d, a[0], a[1])
            elif op == "sar":
                x, k = a
                xl = self.loc[x.name]
                lo = G()
                MOV(lo, xl[1])
                if xl[0] == "pair":
                    if self.carry_shift == "shrd":
                        SHRD(lo, xl[2], k)
                    else:
                        t = G()
                        MOV(t, xl[2])
                        SHL(t, 64 - k)
                        SHR(lo, k)
                        OR(lo, t)
                    if d.kind == "i128":
                        hi = G()
                        MOV(hi, xl[2])
                        SHR(hi, k)
                        self.loc[d.name] = ("pair", lo, hi)
                        continue
                else:
                    SHR(lo, k)
                self.loc[d.name] = ("reg", lo)
            elif op == "mask":
                x, k = a
                xl = self.loc[x.name]
                if xl[0] != "mem" and self._dies(x, idx):
                    r = xl[1]
                else:
                    r = G()
                    MOV(r, xl[1])
                AND(r, self._mask(k))
                if self.park and self._far(d, idx):
                    s_ = self._slot()
                    MOV(s_, r)
                    self.loc[d.name] = ("mem", s_)
                else:
                    self.loc[d.name] = ("reg", r)
            elif op == "narrow":
                xl = self.loc[a[0].name]
                self.loc[d.name] = ("reg", xl[1]) if xl[0] == "pair" else xl
            elif op == "store":
                base = self.args[a[0]]
                MOV([base + 8 * a[1]] if a[1] else [base], self._reg(a[2]))
            else:
                raise BoundError("%s %s: no x86 lowering for %s"
                                 % (self.prog.field, self.prog.what, op))

    @staticmethod
    def _lea_times(r, x, steps):
        """r = x times c by the LEA steps of lea_steps(c)."""
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, LEA
        d, k = steps
        if k is None:
            LEA(r, [x + x * (d - 1)])
            return
        t = G()
        LEA(t, [x + x * (d - 1)])
        LEA(r, [x + t * k])

    def _add(self, idx, d, x, y):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, ADD, ADC, XOR
        xl, yl = self.loc[x.name], self.loc[y.name]
        # accumulate into an operand that dies here and already has d's width
        def fits(l):
            return l[0] == "pair" or (l[0] == "reg" and d.kind == "i64")
        if not (fits(xl) and self._dies(x, idx)) and fits(yl) and self._dies(y, idx):
            x, y, xl, yl = y, x, yl, xl
        if not (fits(xl) and self._dies(x, idx)):
            if d.kind == "i128":
                lo, hi = G(), G()
                XOR(hi.as_dword, hi.as_dword)
                MOV(lo, xl[1])
                if xl[0] == "pair":
                    MOV(hi, xl[2])
                xl = ("pair", lo, hi)
            else:
                r = G()
                MOV(r, xl[1])
                xl = ("reg", r)
        if xl[0] == "reg" and d.kind == "i128":
            hi = G()
            XOR(hi.as_dword, hi.as_dword)
            xl = ("pair", xl[1], hi)
        ADD(xl[1], yl[1])
        if d.kind == "i128":
            ADC(xl[2], yl[2] if yl[0] == "pair" else 0)
        self.loc[d.name] = xl


def lea_steps(c):
    """How a register is multiplied by the constant c with LEA instead of IMUL: (d, None) for
    c = d in {3, 5, 9} (one LEA, x + x (d - 1)), (d, k) for c = 1 + k d, k in {2, 4, 8} (a
    second LEA, x + k (d x): 19 = 1 + 2 * 9), else None.  The fold of a product's top carry
    (19 (c_4 >> 51) for Curve25519) is in the chain a chained product waits on: two LEAs are
    shorter there than IMUL's three cycles (AMD Zen 5, chained square 30.2 -> 29.5 core
    cycles).  Premultiplied operands read from memory keep IMUL's memory form."""
    for d in (3, 5, 9):
        if c == d:
            return (d, None)
        for k in (2, 4, 8):
            if c == 1 + k * d:
                return (d, k)
    return None


def parks(f):
    """Whether f's products park their premultiplied operands in the red zone (more than
    five limbs: the registers would not hold them)."""
    return f.limbs > 5


# How a 128-bit value is shifted right by a carry's k bits into one register: one SHRD, or
# SHR of the low half, SHL of a copy of the high half and OR (three simple ALU instructions
# where SHRD is slow or shares a port with MULX).  A schedule parameter of the field products
# (fe_field.py's carry_shift): the result is the same value either way.
CARRY_SHIFTS = ("shrd", "split")


def lower(f, prog, args, carry_shift="shrd"):
    Lowering(f, prog, args, carry_shift=carry_shift).run()
