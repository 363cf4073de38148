"""ir.Prog -> AArch64 (our builder, virtual registers), statement by statement, like
x86_lower.py: an i64 value is one X register, an i128 value a pair (lo, hi).

    load            LDR at its first use (a value used again is kept in its register)
    mul  x y        MUL lo, x, y; UMULH hi, x, y (the limbs multiplied are non-negative)
    mulc x c        MUL by c in a register; a 128-bit result: SMULH of a 64-bit x, or for a
                    128-bit x UMULH of its low word, MADD of its high word, minus the low
                    word when c < 0
    shl  x k        as mulc by 2^k (LSL when the result is 64-bit)
    add             ADDS/ADC (ADD for 64-bit values); a 64-bit operand that may be negative
                    enters the high word as its sign (ASR #63)
    addc x c        the same with c's two words in registers (MOVZ/MOVK)
    sar  x k        EXTR lo, hi, lo, #k (+ LSR, or ASR if x may be negative, for a 128-bit
                    result); LSR / ASR for 64 bits
    mask x k        AND #(2^k - 1)
    narrow          the low register
    store           STR

Values are two's complement in the width the generator proved for them (int64: one
register, int128: a pair), so the negative intermediates of P-256's and P-384's folds
(their terms are signed) are exact.  Premultiplied operands are parked in stack slots when
the field has more than `park_over` limbs (the 9-limb P-521 product would need more than the
28 allocatable registers otherwise).
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
            u = c & (2**64 - 1)
            if u < 1 << 16:
                self.f.mov(r, "#%d" % u)
            else:
                self.f.movz(r, "#%d" % (u & 0xFFFF))
                for sh in (16, 32, 48):
                    if (u >> sh) & 0xFFFF:
                        self.f.movk(r, "#%d, lsl #%d" % ((u >> sh) & 0xFFFF, sh))
            self.consts[c] = r
        return self.consts[c]

    def _hi(self, v):
        """v's high word as an operand of a 128-bit sum: its register, its sign (ASR #63) if
        it is a 64-bit value that may be negative, else XZR"""
        from ..a64.regs import XZR
        l = self.loc[v.name]
        if l[0] == "pair":
            return l[2]
        if v.lo < 0:
            h = self.f.gpr("sx")
            self.f.asr(h, self._reg(v), 63)
            return h
        return XZR

    def run(self):
        from ..a64.insn import mem
        f = self.f
        for idx, st in enumerate(self.stmts):
            op, d = st[0], st[1]
            a = st[2:]
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
                    if xl[0] == "pair":
                        f.umulh(hi, xr, k)
                        if c < 0:                   # UMULH read k as 2^64 + c
                            f.sub(hi, hi, xr)
                        f.madd(hi, xl[2], k, hi)
                    else:
                        f.smulh(hi, xr, k)          # x and c both int64
                    self.loc[d.name] = ("pair", lo, hi)
            elif op == "add":
                self._add(d, a[0], a[1])
            elif op == "addc":
                self._addc(d, a[0], a[1])
            elif op == "sar":
                x, k = a
                xl = self.loc[x.name]
                lo = f.gpr("s")
                shr = f.asr if x.lo < 0 else f.lsr     # (the same for a non-negative x)
                if xl[0] == "pair":
                    f.extr(lo, xl[2], xl[1], k)
                    if d.kind == "i128":
                        hi = f.gpr("sh")
                        shr(hi, xl[2], k)
                        self.loc[d.name] = ("pair", lo, hi)
                        continue
                else:
                    shr(lo, self._reg(x), k)
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
        xhi, yhi = self._hi(x), self._hi(y)
        f.adds(lo, xlo, ylo)
        f.adc(hi, xhi, yhi)
        self.loc[d.name] = ("pair", lo, hi)

    def _addc(self, d, x, c):
        from ..a64.regs import XZR
        f = self.f
        if not 0 <= c < 1 << 127:
            raise BoundError("%s %s: no AArch64 lowering for adding %d"
                             % (self.prog.field, self.prog.what, c))
        k = self._const(c & (2**64 - 1))
        lo = f.gpr("al")
        if d.kind == "i64":
            f.add(lo, self._reg(x), k)
            self.loc[d.name] = ("reg", lo)
            return
        hi = f.gpr("ah")
        xlo, xhi = self._reg(x), self._hi(x)
        f.adds(lo, xlo, k)
        f.adc(hi, xhi, self._const(c >> 64) if c >> 64 else XZR)
        self.loc[d.name] = ("pair", lo, hi)


def lower(f, prog, args):
    Lowering(f, prog, args).run()
