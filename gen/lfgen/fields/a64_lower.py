"""ir.Prog -> AArch64 (our builder, virtual registers), statement by statement, like
x86_lower.py: an i64 value is one X register, an i128 value a pair (lo, hi).

    load            LDR at its first use (a value used again is kept in its register)
    mul  x y        MUL lo, x, y; UMULH hi, x, y (the limbs multiplied are non-negative)
    mulc x c        MUL by c in a register; a 128-bit result: SMULH of a 64-bit x, or for a
                    128-bit x UMULH of its low word, MADD of its high word, minus the low
                    word when c < 0 -- unless c is +-2^k, 2^a + 2^b or +-(2^a - 2^b): then
                    the shifted x (LSL, and EXTR or ASR/LSR for the high word) added to or
                    subtracted from the other term by ADDS/ADC, SUBS/SBC, or negated by
                    NEGS/NGC (no multiply: the products' pipe is the bottleneck)
    shl  x k        LSL (64-bit result); LSL + EXTR/ASR/LSR for a 128-bit result
    add             ADDS/ADC (ADD for 64-bit values); a 64-bit operand that may be negative
                    enters the high word as its sign (ASR #63)
    addc x c        the same with c's two words in registers (MOVZ/MOVK)
    sar  x k        EXTR lo, hi, lo, #k (+ LSR, or ASR if x may be negative, for a 128-bit
                    result); LSR / ASR for 64 bits
    mask x k        AND #(2^k - 1); UBFIZ with the shift when its one use is a 64-bit shl
    narrow          the low register
    store           STR

Values are two's complement in the width the generator proved for them (int64: one
register, int128: a pair), so the negative intermediates of P-256's and P-384's folds
(their terms are signed) are exact.  Premultiplied operands are parked in stack slots when
the field has more than `park_over` limbs (the 9-limb P-521 product would need more than the
28 allocatable registers otherwise); like spill slots they hold secret-derived values and are
wiped (STR XZR) before returning.

Spilling (`budget`, None = never: the allocator then fails if the registers do not suffice,
and fe_field.py retries with the largest budget that allocates).  With a budget:
  - the statements go in demand order (`demand_order`: depth first from the stored limbs,
    the operand with the larger cone first, so a carry chain's low limbs are finished
    first and the chain runs while the rest is computed; the stores stay last, after every
    load: r may alias a and b);
  - no parking: a load is kept in its register after its first use;
  - before each statement the lowering counts the registers held (the arguments, the
    constants and the values in registers with a use still ahead) plus what the statement
    defines, reads in (loads, reloads) and needs on the way; above the budget it evicts,
    clean values first -- a load (read again by one LDR at its next use) or a constant
    (made again) -- then a computed value (STP/STR to stack slots of its own, once: a value
    reloaded and evicted again is not stored again; LDP/LDR back at its next use), each
    time the one whose next use is farthest (Belady).  The slots hold secret-derived sums
    and are wiped (STP XZR) before returning.
P-384 7 x 56 needs it: its 13 128-bit columns are all formed before the first fold.
"""

from .ir import BoundError


class Lowering:
    NARGS_LIVE = 3                    # r, a, b: live to the end (conservative)

    def __init__(self, f, prog, args, park_over=6, budget=None, order="demand"):
        self.f, self.prog, self.args = f, prog, args
        self.stmts = prog.live()
        if budget is not None and order == "demand":
            self.stmts = demand_order(self.stmts)
        self.loc = {}
        self.consts = {}
        self.budget = budget
        self.home = {}                  # value name -> its stack slots (lo, hi or None)
        self.slots = []                 # every spill slot, for the wipe
        self.parked = []                # every parked premultiplied operand's slot, likewise
        self.spills = 0                 # values stored to stack slots
        self.rereads = 0                # loads evicted and read again
        self.shifted = 0                # multiplications by constants done by shifts
        # parking is the fixed rule without a budget; with one, the spiller decides
        self.park = budget is None and prog.inputs and \
            max(i for _, i, _, _ in prog.inputs) + 1 > park_over
        self.remat = {}                 # value name -> its memory operand (a load: evicted
                                        # without a store, read again)
        uses = {}
        for idx, st in enumerate(self.stmts):
            for x in st[2:]:
                if hasattr(x, "name"):
                    uses.setdefault(x.name, []).append(idx)
        self.uses = uses
        self.cuses = {}                 # constant -> the statements that put it in a register
        for idx, st in enumerate(self.stmts):
            for c in self._const_keys(st):
                self.cuses.setdefault(c, []).append(idx)

    @staticmethod
    def _const_keys(st):
        """The constants statement st reads from registers (the keys of `consts`)."""
        op, d = st[0], st[1]
        if op == "mulc" and (d.kind == "i64" or _pow2_terms(st[3]) is None):
            return [st[3]]
        if op == "addc":
            c = st[3]
            return [c & (2**64 - 1)] + ([c >> 64] if d.kind == "i128" and c >> 64 else [])
        return []

    def _dies(self, v, idx):
        return all(i <= idx for i in self.uses.get(v.name, []))

    # -- spilling ---------------------------------------------------------------------------
    def _next_use(self, name, idx):
        return min((i for i in self.uses.get(name, []) if i >= idx), default=None)

    def _held(self, idx):
        """{register: the latest next use of a value in it} over the values held in
        registers that are still used at or after statement idx"""
        held = {}
        for name, l in self.loc.items():
            if l[0] not in ("reg", "pair"):
                continue
            nu = self._next_use(name, idx)
            if nu is None:
                continue
            for r in l[1:]:
                held[r] = max(held.get(r, -1), nu)
        return held

    def _make_room(self, idx, st):
        """Spill until the registers held at statement idx (its operands included), what it
        defines and what it reads into registers (loads, reloads) fit the budget."""
        if self.budget is None:
            return
        names = {x.name for x in st[2:] if hasattr(x, "name")}
        need = 0 if st[0] in ("narrow", "store", "load") else \
            (2 if st[1].kind == "i128" else 1)
        keys = self._const_keys(st)
        need += sum(1 for c in set(keys) if c not in self.consts)
        need += self._temps(st)
        for n in names:                 # operands read into registers here
            l = self.loc.get(n)
            if l is not None and l[0] == "spilled":
                need += 1 if l[2] is None else 2
            elif l is not None and l[0] in ("mem", "slot"):
                need += 1
        while True:
            held = self._held(idx)
            kept = [c for c in self.consts if self._next_c(c, idx) is not None]
            if len(held) + len(kept) + self.NARGS_LIVE + need <= self.budget:
                return
            # the value or constant (not an operand here) whose next use is farthest; a
            # constant is dropped (made again at its next use), a value spilled
            best = None
            for c in kept:
                if c not in keys:
                    key = (1, self._next_c(c, idx), 1, "")
                    if best is None or key > best[0]:
                        best = (key, c)
            for name, l in self.loc.items():
                if l[0] not in ("reg", "pair") or name in names:
                    continue
                nu = self._next_use(name, idx)
                if nu is None:
                    continue
                frees = sum(1 for r in l[1:] if held[r] <= nu and
                            not any(o != name and ol[0] in ("reg", "pair") and r in ol[1:]
                                    and self._next_use(o, idx) is not None
                                    for o, ol in self.loc.items()))
                if not frees:
                    continue
                # a load is evicted without a store and read again by one LDR: cheaper
                # than a spilled column (STP, LDP, the wipe), so clean values go first
                key = (1 if name in self.remat else 0, nu, frees, name)
                if best is None or key > best[0]:
                    best = (key, name)
            if best is None:
                raise BoundError("%s %s: nothing to spill at statement %d"
                                 % (self.prog.field, self.prog.what, idx))
            if best[0][3] == "":
                del self.consts[best[1]]
            else:
                self._spill(best[1])

    @staticmethod
    def _temps(st):
        """Registers a statement uses besides its result, operands and constants: the
        shifted words of a multiply by powers of two, the sign words of a 128-bit add."""
        op, d = st[0], st[1]
        if op in ("mulc", "shl") and d.kind == "i128":
            t = _pow2_terms(st[3] if op == "mulc" else 1 << st[3])
            if t is None:
                return 0
            if len(t) == 2 and (1, 0) in t:
                return 2
            return 2 * sum(1 for _, k in t if k)
        if op == "add" and d.kind == "i128":
            return sum(1 for x in st[2:] if x.kind == "i64" and x.lo < 0)
        return 0

    def _next_c(self, c, idx):
        return min((i for i in self.cuses.get(c, []) if i >= idx), default=None)

    def _spill(self, name):
        from ..a64.insn import mem
        from ..a64.regs import SP
        f, l = self.f, self.loc[name]
        if name in self.remat:                          # a load: read it again when needed
            self.loc[name] = self.remat[name]
            return
        if name not in self.home:
            if l[0] == "pair":
                lo, hi = f.local("sl"), f.local("sh")     # adjacent: one STP
                f.op("stp", l[1], l[2], mem(SP, lo))
            else:
                lo, hi = f.local("s"), None
                f.spill(l[1], lo)
            self.home[name] = (lo, hi)
            self.slots.append((lo, hi))
            self.spills += 1
        lo, hi = self.home[name]
        self.loc[name] = ("spilled", lo, hi)

    def _reload(self, name):
        from ..a64.insn import mem
        from ..a64.regs import SP
        f = self.f
        _, lo, hi = self.loc[name]
        if hi is None:
            r = f.gpr("rl")
            f.reload(r, lo)
            self.loc[name] = ("reg", r)
        else:
            rl, rh = f.gpr("rl"), f.gpr("rh")
            f.op("ldp", rl, rh, mem(SP, lo))
            self.loc[name] = ("pair", rl, rh)

    def _at(self, v):
        """v's location, read back into registers first if it was spilled."""
        if self.loc[v.name][0] == "spilled":
            self._reload(v.name)
        return self.loc[v.name]

    def _wipe(self):
        from ..a64.insn import mem
        from ..a64.regs import SP, XZR
        for lo, hi in self.slots:
            if hi is None:
                self.f.op("str", XZR, mem(SP, lo))
            else:
                self.f.op("stp", XZR, XZR, mem(SP, lo))
        for slot in self.parked:
            self.f.spill(XZR, slot)

    def _reg(self, v):
        """v's (low) register; a load or a parked value is read into one here."""
        from ..a64.insn import mem
        l = self._at(v)
        if l[0] in ("reg", "pair"):
            return l[1]
        r = self.f.gpr("ld")
        if l[0] == "mem":
            base, off = l[1], l[2]
            self.f.ldr(r, mem(base, off))
            if v.name in self.remat:
                self.rereads += 1
            if len(self.uses.get(v.name, [])) > 1 and not self.park:
                self.loc[v.name] = ("reg", r)           # keep a value used again
                self.remat[v.name] = l
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
        l = self._at(v)
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
            self._make_room(idx, st)
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
            elif op == "shl" and self.loc[a[0].name][0] == "lazymask":
                _, x, k = self.loc[a[0].name]
                r = f.gpr("m")
                f.ubfiz(r, self._reg(x), a[1], k)
                self.loc[d.name] = ("reg", r)
            elif op in ("mulc", "shl"):
                x = a[0]
                xl = self._at(x)
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
                        self.parked.append(slot)
                        self.loc[d.name] = ("slot", slot)
                    else:
                        self.loc[d.name] = ("reg", r)
                elif _pow2_terms(c) is not None:
                    self._shift_add(d, x, _pow2_terms(c))
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
                xl = self._at(x)
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
            elif op == "mask" and self._ubfiz(d, a[1]):
                self.loc[d.name] = ("lazymask",) + tuple(a)  # one UBFIZ with its shift
            elif op == "mask":
                x, k = a
                r = f.gpr("l")
                f.and_(r, self._reg(x), (1 << k) - 1)
                self.loc[d.name] = ("reg", r)
            elif op == "narrow":
                xl = self._at(a[0])
                self.loc[d.name] = ("reg", xl[1]) if xl[0] == "pair" else xl
            elif op == "store":
                f.str(self._reg(a[2]), mem(self.args[a[0]], 8 * a[1]))
            else:
                raise BoundError("%s %s: no AArch64 lowering for %s"
                                 % (self.prog.field, self.prog.what, op))
        self._wipe()

    def _ubfiz(self, d, k):
        """d = x mod 2^k has one use, a 64-bit shl by s with k + s <= 64 (one UBFIZ)"""
        u = self.uses.get(d.name, [])
        if d.kind != "i64" or len(u) != 1:
            return False
        st = self.stmts[u[0]]
        return st[0] == "shl" and st[1].kind == "i64" and k + st[3] <= 64

    def _shl128(self, x, k):
        """x * 2^k as a 128-bit pair (0 < k < 64): LSL of the low word, the high word by
        EXTR from x's two words, or ASR/LSR of a 64-bit x (its sign or zeros shifted in)"""
        f = self.f
        xl = self._at(x)
        lo, hi = f.gpr("kl"), f.gpr("kh")
        xr = self._reg(x)
        if xl[0] == "pair":
            f.extr(hi, xl[2], xr, 64 - k)
        else:
            (f.asr if x.lo < 0 else f.lsr)(hi, xr, 64 - k)
        f.lsl(lo, xr, k)
        return lo, hi

    def _shift_add(self, d, x, terms):
        """d = x * c, c = the signed powers of two `terms` (one or two), by shifts and one
        128-bit ADDS/ADC or SUBS/SBC (or NEGS/NGC): words modulo 2^128 on the way, exact
        because the result is proven inside int128"""
        f = self.f
        self.shifted += 1
        if len(terms) == 2 and (1, 0) in terms:
            # x +- (x << k): the low word by one ADDS/SUBS with a shifted operand, the high
            # word of x << k (EXTR, or ASR/LSR of a 64-bit x) into ADC/SBC
            sgn, k = [t for t in terms if t != (1, 0)][0]
            xl = self._at(x)
            xr = self._reg(x)
            xh = self._hi(x)
            t = f.gpr("kh")
            if xl[0] == "pair":
                f.extr(t, xl[2], xr, 64 - k)
            else:
                (f.asr if x.lo < 0 else f.lsr)(t, xr, 64 - k)
            lo, hi = f.gpr("al"), f.gpr("ah")
            (f.adds if sgn > 0 else f.subs)(lo, xr, xr, "lsl #%d" % k)
            (f.adc if sgn > 0 else f.sbc)(hi, xh, t)
            self.loc[d.name] = ("pair", lo, hi)
            return
        words = []
        for sgn, k in terms:
            words.append((sgn, self._shl128(x, k) if k else (self._reg(x), self._hi(x))))
        words.sort(key=lambda t: -t[0])                 # a positive term first, if any
        (s0, (l0, h0)) = words[0]
        if len(words) == 1 and s0 > 0:
            self.loc[d.name] = ("pair", l0, h0)
            return
        lo, hi = f.gpr("al"), f.gpr("ah")
        if len(words) == 1:
            f.negs(lo, l0)
            f.ngc(hi, h0)
        else:
            (s1, (l1, h1)) = words[1]
            if s1 > 0:
                f.adds(lo, l0, l1)
                f.adc(hi, h0, h1)
            else:
                f.subs(lo, l0, l1)
                f.sbc(hi, h0, h1)
        self.loc[d.name] = ("pair", lo, hi)

    def _add(self, d, x, y):
        f = self.f
        xl, yl = self._at(x), self._at(y)
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


def demand_order(stmts):
    """The statements in demand order: depth first from the stored values (each value
    computed right before its first consumer needs it), the stores last, in their order
    (so every load, and every load read again, comes before the first store: r may alias
    a and b)."""
    prod = {st[1].name: st for st in stmts if st[1] is not None}
    done, out = set(), []
    cone = {}                           # value -> the statements it depends on (itself in)
    for st in stmts:
        if st[1] is not None:
            c = {st[1].name}
            for x in st[2:]:
                if hasattr(x, "name") and x.name in cone:
                    c |= cone[x.name]
            cone[st[1].name] = c

    def need(st):
        stack = [(st, False)]
        while stack:
            s, ready = stack.pop()
            if s[1] is not None and s[1].name in done:
                continue
            if ready:
                done.add(s[1].name)
                out.append(s)
                continue
            stack.append((s, True))
            ops = [x for x in s[2:] if hasattr(x, "name") and x.name in prod]
            # the operand with the larger cone first (Sethi-Ullman): the lower limbs of
            # a carry chain are finished first, so the chain runs while the rest computes
            ops.sort(key=lambda x: -len(cone[x.name]))
            for x in reversed(ops):
                if x.name not in done:
                    stack.append((prod[x.name], False))

    stores = [st for st in stmts if st[1] is None]
    for st in stores:
        for x in st[2:]:
            if hasattr(x, "name") and x.name in prod:
                need(prod[x.name])
    rest = [st for st in stmts if st[1] is not None and st[1].name not in done]
    assert not rest, rest[:3]
    return out + stores


def _pow2_terms(c):
    """c as [(sign, k)] when it is +-2^k, 2^a + 2^b or +-(2^a - 2^b), every k below 64 and
    not all signs negative; else None (c is multiplied)"""
    def pw(v):
        return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None
    if c == 0:
        return None
    if pw(abs(c)) is not None and pw(abs(c)) < 64:
        return [(1 if c > 0 else -1, pw(abs(c)))]
    for a in range(1, 64):
        for sa, sb in ((1, 1), (1, -1), (-1, 1)):
            rest = c - sa * (1 << a)
            b = pw(sb * rest)
            if b is not None and b < a:
                return [(sa, a), (sb, b)]
    return None


def lower(f, prog, args, budget=None):
    """Lower prog into f; returns the Lowering (its `spills` counts the values spilled)."""
    low = Lowering(f, prog, args, budget=budget)
    low.run()
    return low
