"""ir.Prog -> AArch64 (our builder, virtual registers), statement by statement, like
x86_lower.py: an i64 value is one X register, an i128 value a pair (lo, hi).

    load            LDR at its first use (a value used again is kept in its register)
    mul  x y        MUL lo, x, y; UMULH hi, x, y
    mulc x c        MUL by c in a register (MADD for the high word of a 128-bit operand)
    add             ADDS/ADC (ADD for 64-bit values)
    sar  x k        EXTR lo, hi, lo, #k (+ LSR for a 128-bit result); LSR for 64 bits
    mask x k        AND #(2^k - 1)
    shl  x 1        ADD x, x
    narrow          the low register
    store           STR

Every value is proven non-negative (unsigned arithmetic), as for x86-64.  Premultiplied
operands are parked in stack slots when the field has more than `park_over` limbs (the
9-limb P-521 product would need more than the 28 allocatable registers otherwise).
"""

from .ir import BoundError


class Lowering:
    def __init__(self, f, prog, args, park_over=6):
        self.f, self.prog, self.args = f, prog, args
        self.stmts = prog.live()
        self.loc = {}
        self.consts = {}
        self.park = prog.inputs and max(i for _, i, _, _ in prog.inputs) + 1 > park_over
        uses = {}
        for idx, st in enumerate(self.stmts):
            for x in st[2:]:
                if hasattr(x, "name"):
                    uses.setdefault(x.name, []).append(idx)
        self.uses = uses

    def _dies(self, v, idx):
        return all(i <= idx for i in self.uses.get(v.name, []))

    def _reg(self, v):
        """v's (low) register; a load or a parked value is read into one here."""
        from ..a64.insn import mem
        l = self.loc[v.name]
        if l[0] in ("reg", "pair"):
            return l[1]
        r = self.f.gpr("ld")
        if l[0] == "mem":
            base, off = l[1], l[2]
            self.f.ldr(r, mem(base, off))
            if len(self.uses.get(v.name, [])) > 1 and not self.park:
                self.loc[v.name] = ("reg", r)           # keep a value used again
        else:                                           # a parked slot
            self.f.reload(r, l[1])
        return r

    def _const(self, c):
        if c not in self.consts:
            r = self.f.gpr("k")
            self.f.mov(r, "#%d" % c)
            self.consts[c] = r
        return self.consts[c]

    def run(self):
        from ..a64.insn import mem
        f = self.f
        for idx, st in enumerate(self.stmts):
            op, d = st[0], st[1]
            a = st[2:]
            if d is not None and d.lo < 0:
                raise BoundError("%s %s: AArch64 lowering is unsigned, %s may be negative"
                                 % (self.prog.field, self.prog.what, d.name))
            if op == "load":
                self.loc[d.name] = ("mem", self.args[a[0]], 8 * a[1])
            elif op == "mul":
                x, y = self._reg(a[0]), self._reg(a[1])
                lo = f.gpr("pl")
                f.mul(lo, x, y)
                if d.kind == "i128":
                    hi = f.gpr("ph")
                    f.umulh(hi, x, y)
                    self.loc[d.name] = ("pair", lo, hi)
                else:
                    self.loc[d.name] = ("reg", lo)
            elif op in ("mulc", "shl"):
                x = a[0]
                xl = self.loc[x.name]
                c = a[1] if op == "mulc" else 1 << a[1]
                xr = self._reg(x)
                if d.kind == "i64":
                    r = f.gpr("m")
                    if op == "shl":
                        f.lsl(r, xr, a[1])
                    else:
                        f.mul(r, xr, self._const(c))
                    if self.park and all(self.stmts[i][0] == "mul"
                                         for i in self.uses.get(d.name, [])):
                        slot = f.local("pre")
                        f.spill(r, slot)
                        self.loc[d.name] = ("slot", slot)
                    else:
                        self.loc[d.name] = ("reg", r)
                else:
                    k = self._const(c)
                    lo, hi = f.gpr("ml"), f.gpr("mh")
                    f.mul(lo, xr, k)
                    f.umulh(hi, xr, k)
                    if xl[0] == "pair":
                        f.madd(hi, xl[2], k, hi)
                    self.loc[d.name] = ("pair", lo, hi)
            elif op == "add":
                self._add(d, a[0], a[1])
            elif op == "sar":
                x, k = a
                xl = self.loc[x.name]
                lo = f.gpr("s")
                if xl[0] == "pair":
                    f.extr(lo, xl[2], xl[1], k)
                    if d.kind == "i128":
                        hi = f.gpr("sh")
                        f.lsr(hi, xl[2], k)
                        self.loc[d.name] = ("pair", lo, hi)
                        continue
                else:
                    f.lsr(lo, self._reg(x), k)
                self.loc[d.name] = ("reg", lo)
            elif op == "mask":
                x, k = a
                r = f.gpr("l")
                f.and_(r, self._reg(x), (1 << k) - 1)
                self.loc[d.name] = ("reg", r)
            elif op == "narrow":
                xl = self.loc[a[0].name]
                self.loc[d.name] = ("reg", xl[1]) if xl[0] == "pair" else xl
            elif op == "store":
                f.str(self._reg(a[2]), mem(self.args[a[0]], 8 * a[1]))
            else:
                raise BoundError("%s %s: no AArch64 lowering for %s"
                                 % (self.prog.field, self.prog.what, op))

    def _add(self, d, x, y):
        from ..a64.regs import XZR
        f = self.f
        xl, yl = self.loc[x.name], self.loc[y.name]
        if xl[0] != "pair" and yl[0] == "pair":
            x, y, xl, yl = y, x, yl, xl
        lo = f.gpr("al")
        if d.kind == "i64":
            f.add(lo, self._reg(x), self._reg(y))
            self.loc[d.name] = ("reg", lo)
            return
        hi = f.gpr("ah")
        xlo, ylo = self._reg(x), self._reg(y)
        f.adds(lo, xlo, ylo)
        xhi = xl[2] if xl[0] == "pair" else XZR
        yhi = yl[2] if yl[0] == "pair" else XZR
        f.adc(hi, xhi, yhi)
        self.loc[d.name] = ("pair", lo, hi)


def lower(f, prog, args):
    Lowering(f, prog, args).run()
