"""ir.Prog -> AVX-512 (YMM, 4 lanes; EVEX, 32 registers), lane = an independent instance of
the program: the same proven statements on four elements at once, every statement one or a
few instructions on one register per value.

    load / store    the caller's registers or memory operands (inputs: {array: [operand per
                    limb]}; outputs returned as registers)
    mul52lo/hi      VPMADD52LUQ/HUQ, fused into the `add` that accumulates it (a column's
                    first product goes into a zeroed register)
    add, sub        VPADDQ, VPSUBQ          addc   VPADDQ with a broadcast constant
    sar, mask, shl  VPSRLQ, VPANDQ, VPSLLQ  (values are proven non-negative: logical shifts)
    mulc            shifts and adds by the constant's bits (19 = 16 + 2 + 1)
    narrow          nothing

A memory operand goes where the instruction allows one (the last source; IFMA and VPADDQ
swap their sources to put it there).  Values whose interval may be negative are refused.  Constants are broadcast once per kernel
(`Consts`).  The interval of a vector value is the hull over its lanes: the analysis of the
scalar program covers every lane.
"""

from .ir import BoundError


class Consts:
    """Broadcast constants shared by every lowering of a kernel: one register each, or, given
    a scratch area (`memory`: a base register and the first free byte), one 32-byte slot each
    -- written once where first asked for, then a memory operand (what keeps a 9-limb
    product inside 32 registers)."""

    def __init__(self, memory=None):
        self.regs = {}
        self.memory = memory

    def get(self, value):
        from peachpy.x86_64 import YMMRegister as Y, GeneralPurposeRegister64 as G, MOV, \
            VPBROADCASTQ, VPXORQ, VMOVDQA64
        if value not in self.regs:
            y = Y()
            if value == 0:
                VPXORQ(y, y, y)
            else:
                t = G()
                MOV(t, value)
                VPBROADCASTQ(y, t)
            if self.memory is not None and value != 0:
                base, off = self.memory
                VMOVDQA64([base + off], y)
                self.memory = (base, off + 32)
                y = [base + off]
            self.regs[value] = y
        return self.regs[value]


def zeroed(consts):
    """A fresh register set to 0 (the zero idiom: reads nothing, see peachpy_ext)."""
    from peachpy.x86_64 import YMMRegister as Y, VPXORQ
    r = Y()
    VPXORQ(r, r, r)
    return r


class VLowering:
    def __init__(self, prog, inputs, consts):
        self.prog, self.inputs, self.consts = prog, inputs, consts
        self.stmts = prog.live()
        self.loc = {}
        self.outputs = {}
        uses = {}
        for idx, st in enumerate(self.stmts):
            for x in st[2:]:
                if hasattr(x, "name"):
                    uses.setdefault(x.name, []).append(idx)
        self.uses = uses
        self.keep = {v for regs in inputs.values() for v in regs      # caller's registers
                     if not isinstance(v, list)}

    def _dies(self, v, idx):
        r = self.loc[v.name]
        return (not isinstance(r, list) and r not in self.keep and
                all(i <= idx for i in self.uses.get(v.name, [])))

    def _src(self, v, idx):
        """v as a source operand: its register, or its memory operand (a lazy IFMA product is
        materialised into a zeroed register)."""
        l = self.loc[v.name]
        if isinstance(l, tuple):
            half, x, y = l
            r = zeroed(self.consts)
            self._ifma(half, r, x, y, idx)
            self.loc[v.name] = r
            return r
        return l

    def _reg(self, v, idx):
        """v in a register (a memory operand loaded into a fresh one)."""
        from peachpy.x86_64 import YMMRegister as Y, VMOVDQU64
        l = self._src(v, idx)
        if isinstance(l, list):
            r = Y()
            VMOVDQU64(r, l)
            return r
        return l

    def _ifma(self, half, acc, x, y, idx):
        """acc += lo/hi(x y); the memory operand, if any, goes last (the form IFMA has)."""
        from peachpy.x86_64 import VPMADD52LUQ, VPMADD52HUQ
        sx, sy = self._src(x, idx), self._src(y, idx)
        if isinstance(sx, list):
            sx, sy = (sy, sx) if not isinstance(sy, list) else (self._reg(x, idx), sy)
        (VPMADD52LUQ if half == "lo" else VPMADD52HUQ)(acc, sx, sy)

    def _dst(self, v, r, idx):
        """Where an instruction reading v (in register r) may write: r itself when r is a
        fresh load or v dies here, else a new register."""
        from peachpy.x86_64 import YMMRegister as Y
        if r is not self.loc[v.name] or self._dies(v, idx):
            return r
        return Y()

    def _two(self, x, y, idx, commutes):
        """(register, register-or-memory) operands for a two-source instruction."""
        sx, sy = self._src(x, idx), self._src(y, idx)
        if isinstance(sx, list) and commutes and not isinstance(sy, list):
            return sy, sx, y
        return self._reg(x, idx), sy, x

    def run(self):
        from peachpy.x86_64 import YMMRegister as Y, VPADDQ, VPSUBQ, VPSRLQ, VPSLLQ, VPANDQ
        for idx, st in enumerate(self.stmts):
            op, d = st[0], st[1]
            a = st[2:]
            if d is not None and d.lo < 0:
                raise BoundError("%s %s: vector lowering is unsigned, %s may be negative"
                                 % (self.prog.field, self.prog.what, d.name))
            if op == "load":
                self.loc[d.name] = self.inputs[a[0]][a[1]]
            elif op in ("mul52lo", "mul52hi"):
                self.loc[d.name] = (op[-2:], a[0], a[1])          # lazy: fused into its add
            elif op == "add":
                x, y = a
                lx, ly = self.loc[x.name], self.loc[y.name]
                if isinstance(lx, tuple) and not isinstance(ly, tuple):
                    x, y, lx, ly = y, x, ly, lx
                elif isinstance(lx, tuple):         # a column's first two products
                    lx = self._reg(x, idx)
                if isinstance(ly, tuple) and not isinstance(lx, tuple):
                    # acc + lo/hi(u v): one IFMA into acc (a copy if acc lives on)
                    rx = self._reg(x, idx)
                    acc = rx if self._dst(x, rx, idx) is rx else self._copy(rx)
                    half, u, v = ly
                    self._ifma(half, acc, u, v, idx)
                    self.loc[d.name] = acc
                    continue
                rx, sy, first = self._two(x, y, idx, True)
                r = self._dst(first, rx, idx)
                VPADDQ(r, rx, sy)
                self.loc[d.name] = r
            elif op == "sub":
                rx, sy, first = self._two(a[0], a[1], idx, False)
                r = self._dst(a[0], rx, idx)
                VPSUBQ(r, rx, sy)
                self.loc[d.name] = r
            elif op == "addc":
                rx = self._reg(a[0], idx)
                r = self._dst(a[0], rx, idx)
                VPADDQ(r, rx, self.consts.get(a[1]))
                self.loc[d.name] = r
            elif op in ("sar", "shl"):
                r = Y()
                (VPSRLQ if op == "sar" else VPSLLQ)(r, self._src(a[0], idx), a[1])
                self.loc[d.name] = r
            elif op == "mask":
                rx = self._reg(a[0], idx)
                r = self._dst(a[0], rx, idx)
                VPANDQ(r, rx, self.consts.get((1 << a[1]) - 1))
                self.loc[d.name] = r
            elif op == "mulc":
                self.loc[d.name] = self._mulc(self._reg(a[0], idx), a[1])
            elif op == "narrow":
                self.loc[d.name] = self.loc[a[0].name]
            elif op == "store":
                self.outputs.setdefault(a[0], {})[a[1]] = self._reg(a[2], idx)
            else:
                raise BoundError("%s %s: no vector lowering for %s"
                                 % (self.prog.field, self.prog.what, op))
        return {k: [v[i] for i in sorted(v)] for k, v in self.outputs.items()}

    def _copy(self, r):
        from peachpy.x86_64 import YMMRegister as Y, VMOVDQA64
        c = Y()
        VMOVDQA64(c, r)
        return c

    def _mulc(self, x, c):
        """x c by the set bits of c: sum of x << k (c small: 19 is three terms)."""
        from peachpy.x86_64 import YMMRegister as Y, VPADDQ, VPSLLQ
        acc = None
        for k in range(c.bit_length()):
            if not c >> k & 1:
                continue
            if k:
                t = Y()
                VPSLLQ(t, x, k)
            else:
                t = x
            if acc is None:
                acc = t if k else self._copy(x)
            else:
                VPADDQ(acc, acc, t)
        return acc


def lower(prog, inputs, consts):
    """Emit prog lane-wise; returns {array: [register per limb]} of its stores."""
    return VLowering(prog, inputs, consts).run()
