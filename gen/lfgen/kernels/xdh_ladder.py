"""x25519_ladder and x448_ladder: the Montgomery ladder of RFC 7748 §5 over every bit of a
clamped scalar, returning the projective (x2 : z2); lf_x25519 / lf_x448 invert and encode
(runtime/xdh.c).

    state per bit t = bits - 1 .. 0:  swap ^= k_t; cswap(swap, (x2, z2), (x3, z3)); swap = k_t;
    A = x2 + z2, B = x2 - z2, C = x3 + z3, D = x3 - z3,
    AA = A^2, BB = B^2, DA = D A, CB = C B,                         (level 1: four products)
    E = AA - BB, x2 = AA BB, x3 = (DA + CB)^2, t = (DA - CB)^2, a24E (level 2: four products)
    z3 = x1 t, z2 = E (AA + a24 E)                                  (level 3: two products)
    and a final cswap(swap).

x86-64 "ifma": the four ladder coordinates in the four 64-bit lanes of YMM registers, one
register per limb (lanes [x2, x3, z3, z2]; Curve25519 in 5 x 51-bit limbs, Curve448 in
9 x 50 -- limbs with headroom below the 52 bits IFMA reads), so each level is ONE
lane-parallel field product: the proven program ops.mul_ifma (VPMADD52LUQ/HUQ columns, the
columns above 2^power folded as they complete, rounds of parallel carries; for Curve448 the
columns formed from the top down, `order` "down", so that each folds once -- its 2^224 term
lands on columns not yet formed, whose chains start from it) lowered lane-wise
by fields/x86_vec_lower.py -- four multiplications for the price of one, the technique of the
4-way vectorised ladders (Hisil, Egrice, Ozturk; Nath, Sarkar) on AVX-512 IFMA.  The pending
swap is folded into level 1's lane permutation (VPERMQ by an index made from the swap bit);
between levels VPERMQ and VPBLENDMQ move coordinates between lanes; sums and differences (the
latter plus a multiple of p, kp, so limbs stay non-negative) are lane-wise too.  IFMA reads
52 bits of each operand, so every operand of a product must be proven below 2^52: where one
is not, the generator inserts a round of parallel carries (ops.carry_parallel) -- decided from
the bounds, listed in the .S -- and refuses to build if a round is not enough.

x86-64 "adx" (Curve25519 only; what runs without IFMA): the state and every intermediate of a
step in four saturated 64-bit limbs in `tmp` (values in [0, 2^256), 2^256 == 38 mod p), one
inline field operation at a time (x86_fe64: MULX rows with the ADCX/ADOX chains, the high
half folded by MULX by 38), the operations ordered so that neighbours are independent: the
reorder window holds about five of a step's eighteen operations, and RFC 7748's order (each
product next to the one it feeds) measured ~7% slower.  u comes in from 5 x 51-bit limbs,
x2 and z2 go out to them.
"""

from ..kernel import KernelSpec, Variant, Param
from ..fields import bounds, desc, ops, x86_vec_lower as VL
from ..fields.ir import BoundError

import types

class V:
    """A lane vector of field elements: a YMM register per limb (or, for a lane permutation
    not yet needed, a function making it: `limb(i)` makes it where it is first used, so a
    limb-by-limb consumer keeps one limb's permutation live, not all) and a bound per limb
    (the hull over the lanes)."""

    def __init__(self, regs, bound, make=None):
        self._regs, self.bound, self.make = list(regs), list(bound), make

    def limb(self, i):
        if self._regs[i] is None:
            self._regs[i] = self.make(i)
        return self._regs[i]

    @property
    def regs(self):
        return [self.limb(i) for i in range(len(self._regs))]


def below52(F):
    return [(0, (1 << 52) - 1)] * F.limbs


class Ladder:
    # scratch layout (bytes): broadcast constants from 0, the parked product operand from
    # PARK; the kernel's `tmp` holds TMP_WORDS int64_t
    PARK = 16 * 32

    def __init__(self, fn, F, split, tmp=None, order="up"):
        self.fn = fn
        self.F = F
        self.kcache = {}
        self.below = BELOW52 = below52(F)
        # more than five limbs: constants and one operand of each product live in the
        # scratch area (memory operands), else they would not fit the 32 registers
        self.tmp = tmp if F.limbs > 5 else None
        self.consts = VL.Consts(memory=(tmp, 0) if self.tmp is not None else None)
        self.inserted = []
        self.c = bounds.contract(F)
        self.mul_prog, self.mul_out = ops.mul_ifma(F, BELOW52, split=split, order=order)
        if not ops.within(self.mul_out, BELOW52):
            raise BoundError("%s ladder: mul_ifma output %s is not below 2^52"
                             % (F.name, bounds.text(self.mul_out)))
        # sub's multiple of p covers what it subtracts: states and products, whose limbs are
        # within the product's output bound or 2^bits (u, 0, 1) -- for Curve448's 50-bit limbs
        # that keeps x + kp - y below 2^52, so no carry is needed before the next product
        self.kp, _ = ops.multiple_of_p(F, [hi for _, hi in ops.hull(
            self.mul_out, [(0, 1 << F.bits)] * F.limbs)])

    def prog_consts(self):
        """The constants the product's program masks with or adds (what the lowering asks
        Consts for): broadcast before the loop, not where first used inside it."""
        out = set()
        for st in self.mul_prog.live():
            if st[0] == "mask":
                out.add((1 << st[3]) - 1)
            elif st[0] == "addc":
                out.add(st[3])
        return out

    def mask(self, bits):
        """A k register with the given lane bits, made once per step (`kcache`, emptied when
        a step begins: the six patterns of a step fit the seven k registers, not those of
        the whole kernel)."""
        from peachpy.x86_64 import KRegister, GeneralPurposeRegister64 as G, MOV, KMOVB
        if bits not in self.kcache:
            k, t = KRegister(), G()
            MOV(t.as_dword, bits)
            KMOVB(k, t.as_dword)
            self.kcache[bits] = k
        return self.kcache[bits]

    # -- lane moves: the bound of the result is the hull of its sources ----------------------
    def perm(self, v, lanes):
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ
        imm = sum(l << (2 * i) for i, l in enumerate(lanes))

        def make(i):
            y = Y()
            VPERMQ(y, v.limb(i), imm)
            return y
        return V([None] * len(v.bound), v.bound, make)

    def blend(self, v, w, lanes):
        """lane l from w where bit l of `lanes` is set, else from v (made limb by limb)."""
        def make(i):
            return self.blend1(v.limb(i), w.limb(i), lanes)
        return V([None] * len(v.bound), ops.hull(v.bound, w.bound), make)

    # -- field operations: proven programs lowered lane-wise ---------------------------------
    def run(self, prog, out_bound, **inputs):
        regs = VL.lower(prog, {k: v.regs for k, v in inputs.items()}, self.consts)
        return V(regs["r"], out_bound)

    def add(self, a, b):
        prog, out = ops.add(self.F, ops.hull(a.bound, b.bound))
        return self.run(prog, out, a=a, b=b)

    def sub(self, a, b):
        prog, out = ops.sub(self.F, a.bound, b.bound, self.kp)
        return self.run(prog, out, a=a, b=b)

    def fit52(self, v, what, force=False):
        """v itself if the bounds prove every limb below 2^52 (an IFMA operand), else v after
        one round of parallel carries -- inserted here because the bound requires it (or, with
        `force`, for another reason the caller names)."""
        if ops.within(v.bound, self.below) and not force:
            return v
        if ops.within(v.bound, self.below):
            what += " (" + force + ")"
        prog, out = ops.carry_parallel(self.F, v.bound)
        if not ops.within(out, self.below):
            raise BoundError("%s ladder: %s stays at %s after a round of carries"
                             % (self.F.name, what, bounds.text(out)))
        self.inserted.append(what)
        return self.run(prog, out, a=v)

    def mul(self, a, b):
        for v in (a, b):
            if not ops.within(v.bound, self.below):
                raise BoundError("%s ladder: a product operand is not below 2^52" % self.F.name)
        if self.tmp is None:
            return self.run(self.mul_prog, self.mul_out, a=a, b=b)
        from peachpy.x86_64 import VMOVDQA64
        slots = [[self.tmp + self.PARK + 32 * i] for i in range(self.F.limbs)]
        for i, slot in enumerate(slots):
            VMOVDQA64(slot, b.limb(i))
        return self.run(self.mul_prog, self.mul_out, a=a, b=V(slots, b.bound))

    def x1_lanes(self):
        """x1 = u in lane 2 (the other lanes 0), loaded again each step (limb by limb, where
        used): registers fewer held across the loop."""
        from peachpy.x86_64 import VPBROADCASTQ
        up, bound = self.x1

        def make(i):
            r = VL.zeroed(self.consts)
            VPBROADCASTQ(r(self.mask(0b0100)), [up + 8 * i] if i else [up])
            return r
        return V([None] * self.F.limbs, bound, make)

    def vperm(self, v, idx):
        """lane l of the result = lane idx[l] of v, idx a register of lane numbers."""
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ

        def make(i):
            y = Y()
            VPERMQ(y, idx, v.limb(i))
            return y
        return V([None] * len(v.bound), v.bound, make)

    def zperm(self, v, lanes, keep):
        """perm(v, lanes) with the lanes not in `keep` zeroed (bound: the hull with 0)."""
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ
        imm = sum(l << (2 * i) for i, l in enumerate(lanes))
        def make(i):
            y = Y()
            VPERMQ(y(self.mask(keep).z), v.limb(i), imm)
            return y
        return V([None] * len(v.bound), ops.hull(v.bound, [(0, 0)] * self.F.limbs), make)

    def sums(self, P, Q, pick):
        """Limb by limb (so that only one limb's temporaries are live): s = P + Q and
        d = P + kp - Q -- the statements of the proven programs ops.add and ops.sub, whose
        bounds are taken -- then pick(i, P_i, Q_i, s, d) -> the register of the result limb.
        Returns (result, bound of s, bound of d)."""
        from peachpy.x86_64 import YMMRegister as Y, VPADDQ, VPSUBQ
        bs = ops.add(self.F, ops.hull(P.bound, Q.bound))[1]
        bd = ops.sub(self.F, P.bound, Q.bound, self.kp)[1]
        out = []
        for i in range(self.F.limbs):
            p, q = P.limb(i), Q.limb(i)
            s, d = Y(), Y()
            VPADDQ(s, p, q)
            VPADDQ(d, p, self.consts.get(self.kp[i]))
            VPSUBQ(d, d, q)
            out.append(pick(i, p, q, s, d))
        return out, bs, bd

    def sums_masked(self, P, Q, sub_lanes, keep_lanes=0):
        """Limb by limb, the lanes of the statements of ops.add (P + Q) and ops.sub
        (P + kp - Q, in `sub_lanes`) whose bounds are taken, and P itself in `keep_lanes`,
        by masked instructions instead of both results and a blend: P's limb (a fresh lane
        permutation, written in place) takes + kp in sub_lanes, then the sum goes where
        neither mask is set and - Q where sub_lanes is.  Returns (result, bound of s, bound
        of d)."""
        from peachpy.x86_64 import YMMRegister as Y, VPADDQ, VPSUBQ
        bs = ops.add(self.F, ops.hull(P.bound, Q.bound))[1]
        bd = ops.sub(self.F, P.bound, Q.bound, self.kp)[1]
        add_lanes = 0b1111 & ~sub_lanes & ~keep_lanes
        out = []
        for i in range(self.F.limbs):
            p, q = P.limb(i), Q.limb(i)
            VPADDQ(p(self.mask(sub_lanes)), p, self.consts.get(self.kp[i]))
            if keep_lanes:
                r = p
                VPADDQ(r(self.mask(add_lanes)), p, q)
            else:
                r = Y()
                VPADDQ(r, p, q)
            VPSUBQ(r(self.mask(sub_lanes)), p, q)
            out.append(r)
        return out, bs, bd

    def blend1(self, a, b, lanes):
        """One limb: lanes of b where set in `lanes`, else a."""
        from peachpy.x86_64 import YMMRegister as Y, VPBLENDMQ
        y = Y()
        VPBLENDMQ(y(self.mask(lanes)), a, b)
        return y

    def step(self, Vs, idxP, idxQ, a24):
        """One ladder step on the state Vs, lanes [x2, x3, z3, z2], the pending swap folded
        into the lanes level 1 reads (idxP, idxQ: [s, s, 1-s, 1-s] and 3 - that); returns the
        new state in the same lanes."""
        f = self.fn
        self.kcache = {}
        f.comment("level 1: [A, B, D, C] x [A, B, A, B]; P = [x2 x2 x3 x3], Q = [z2 z2 z3 z3]"
                  " after the swap")
        regs, bs, bd = self.sums_masked(self.vperm(Vs, idxP), self.vperm(Vs, idxQ), 0b0110)
        X1 = self.fit52(V(regs, ops.hull(bs, bd)), "[A, B, D, C] before level 1")
        Y1 = self.perm(X1, [0, 1, 0, 1])
        P1 = self.mul(X1, Y1)                                        # [AA, BB, DA, CB]
        f.comment("level 2: [AA, DA+CB, DA-CB, E] x [BB, DA+CB, DA-CB, a24]")
        Pv, Qv = self.perm(P1, [0, 2, 2, 0]), self.perm(P1, [1, 3, 3, 1])
        regs, bs, bd = self.sums_masked(Pv, Qv, 0b1100, keep_lanes=0b0001)
        X2 = self.fit52(V(regs, ops.hull(bs, bd, Pv.bound)), "[AA, DA+CB, DA-CB, E] before "
                        "level 2", force=self.F.limbs > 5 and "not for the bound: the carried limbs "
                        "let Curve448's product fit 32 registers, 39 without")
        Y2 = self.blend(self.blend(X2, Qv, 0b0001), a24, 0b1000)
        P2 = self.mul(X2, Y2)                                        # [x2', x3', t, a24 E]
        f.comment("level 3: [., ., x1, E] x [., ., t, AA + a24 E]")
        Y3 = self.fit52(self.add(P2, self.zperm(X2, [0, 0, 0, 0], 0b1000)),
                        "AA + a24 E before level 3")
        X3 = self.blend(X2, self.x1_lanes(), 0b0100)
        P3 = self.mul(X3, Y3)                                        # [., ., z3', z2']
        out = self.blend(P2, P3, 0b1100)                             # [x2', x3', z3', z2']
        if not ops.within(out.bound, Vs.bound):
            raise BoundError("%s ladder: the state leaves its bound after a step" % self.F.name)
        return out


def _build_ifma(F, bits, spec):
    def build(symbol, p):
        from peachpy.x86_64 import (GeneralPurposeRegister64 as G, YMMRegister as Y, MOV, AND,
                                    XOR, NEG, SUB, KMOVB, KRegister, VPXORQ, VPBROADCASTQ,
                                    VMOVDQA64, VPERMQ, VPBLENDMQ, VMOVQ, VPEXTRQ, VEXTRACTI128,
                                    XMMRegister as X, JNS)
        from ..x86 import function as x86
        fn = x86.Function(symbol, spec.args, spec.result, zmm32=True)
        fn.secret_independent(secret=())
        with fn:
            xz, kp_, up, tmp = fn.load_args()
            L = Ladder(fn, F, p.split, tmp, p.order)
            fn.comment("state lanes [x2, x3, z3, z2] = [1, u, 1, 0]; a24 in lane 3 of limb 0")
            state = []
            one = G()
            MOV(one.as_dword, 1)
            for i in range(F.limbs):
                s = VL.zeroed(L.consts)
                VPBROADCASTQ(s(L.mask(0b0010)), [up + 8 * i] if i else [up])
                if i == 0:
                    VPBROADCASTQ(s(L.mask(0b0101)), one)
                state.append(s)
            a0 = VL.zeroed(L.consts)
            t = G()
            MOV(t.as_dword, F.a24)
            VPBROADCASTQ(a0(L.mask(0b1000)), t)
            bnd = ops.hull(list(L.mul_out), [(0, 1 << F.bits)] * F.limbs)   # u and the constants 0, 1
            Vs = V(state, bnd)
            A24 = V([a0] + [L.consts.get(0)] * (F.limbs - 1), [(0, F.a24)] + [(0, 0)] * (F.limbs - 1))
            L.x1 = (up, [(0, 1 << F.bits)] * F.limbs)
            fn.comment("constants of the loop, broadcast once: the limb mask, kp's limbs, lane "
                       "numbers [0 0 1 1] and 3")
            for c in sorted({(1 << F.bits) - 1} | set(L.kp) | L.prog_consts()):
                L.consts.get(c)
            lanes0011 = VL.zeroed(L.consts)
            VPBROADCASTQ(lanes0011(L.mask(0b1100)), one)
            three = L.consts.get(3)
            t, swap = G(), G()
            MOV(t.as_dword, bits - 1)
            XOR(swap.as_dword, swap.as_dword)
            top = fn.new_label("bit")
            fn.bind(top)
            fn.comment("bit t of k (index t >> 3 and shift t & 7: public); s = swap ^ bit: the "
                       "swap the step reads through; swap = bit")
            bit = scalar_bit(kp_, t)
            XOR(swap.as_dword, bit.as_dword)
            sv, idxP, idxQ = Y(), Y(), Y()
            VPBROADCASTQ(sv, swap)                  # [s s s s]
            VPXORQ(idxP, sv, lanes0011)             # [s, s, 1-s, 1-s]: x2 and x3 after the swap
            VPXORQ(idxQ, idxP, three)               # 3 - that: z2 and z3 after the swap
            MOV(swap.as_dword, bit.as_dword)
            out = L.step(Vs, idxP, idxQ, A24)
            for r, o in zip(Vs.regs, out.regs):
                VMOVDQA64(r, o)
            SUB(t.as_dword, 1)
            JNS(top)
            fn.comment("final cswap(swap): lanes 0 <-> 1 and 2 <-> 3; x2 from lane 0, z2 from "
                       "lane 3")
            fn.comment("carries inserted by the bounds: " + "; ".join(sorted(set(L.inserted))))
            m = G()
            MOV(m.as_dword, swap.as_dword)
            NEG(m.as_dword)
            AND(m.as_dword, 0xF)
            ksw = KRegister()
            KMOVB(ksw, m.as_dword)
            for i, r in enumerate(Vs.regs):
                w, y = Y(), Y()
                VPERMQ(w, r, 0xB1)
                VPBLENDMQ(y(ksw), r, w)
                g = G()
                VMOVQ(g, y.as_xmm)
                MOV([xz + 8 * i] if i else [xz], g)
                hi = X()
                VEXTRACTI128(hi, y, 1)
                g2 = G()
                VPEXTRQ(g2, hi, 1)
                MOV([xz + 8 * (F.limbs + i)], g2)
            fn.ret()
        return fn.finalize()
    return build


def _adx_field(fname):
    """The saturated-limb field of an `adx` ladder: (module, limbs, slot bytes, product
    scratch, radix of the interface limbs)"""
    from . import x86_fe64, x86_fe448
    if fname == "c25519_r51":
        return x86_fe64, 4, 32, False, 51
    return x86_fe448, x86_fe448.N, 8 * x86_fe448.N, True, x86_fe448.R50


def _build_adx(F, fname, bits, spec):
    """The ladder in saturated 64-bit limbs (x86_fe64: Curve25519 in 4; x86_fe448: Curve448
    in 7): the state and every intermediate in `tmp`, one inline field operation at a time --
    the step of RFC 7748 §5, its operations reordered so that neighbours are independent; u
    converted from the interface's limbs on entry, x2 and z2 back on exit."""
    def build(symbol, p):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, XOR, NEG, SUB, JNS
        from ..x86 import function as x86
        fe, nl, size, scratch, radix = _adx_field(fname)
        n = F.limbs
        names = ("x1", "x2", "z2", "x3", "z3", "a", "b", "c", "d", "aa", "bb", "e", "da",
                 "cb", "t") + (("prod",) if scratch else ())
        slot = {nm: size * i for i, nm in enumerate(names)}
        end = size * len(names) + (8 * nl if scratch else 0)   # the product's low half
        S_K, S_XZ, S_SWAP = end, end + 8, end + 16
        if S_SWAP + 8 > 8 * TMP_WORDS:
            raise ValueError("%s adx: the state needs more than tmp's %d words"
                             % (spec.name, TMP_WORDS))
        fn = x86.Function(symbol, spec.args, spec.result)
        with fn:
            xz, kp_, up, tmp = fn.load_args()
            fn.secret_independent(public=[(tmp, S_K), (tmp, S_XZ)])
            E = {nm: (tmp, off) for nm, off in slot.items()}
            z = (E["prod"],) if scratch else ()
            mul = lambda o, a, b: fe.mul(o, a, b, *z)
            sqr = lambda o, a: fe.sqr(o, a, *z)
            MOV([tmp + S_K], kp_)
            MOV([tmp + S_XZ], xz)
            fn.comment("x1 = x3 = u (from %d x %d limbs), x2 = z3 = 1, z2 = 0" % (n, radix))
            (fe.from_r51 if radix == 51 else fe.from_r50)(E["x1"], (up, 0))
            one, zero = G(), G()
            MOV(one.as_dword, 1)
            XOR(zero.as_dword, zero.as_dword)
            for j in range(nl):
                v = G()
                MOV(v, fe.w(E["x1"], j))
                MOV(fe.w(E["x3"], j), v)
                MOV(fe.w(E["x2"], j), one if j == 0 else zero)
                MOV(fe.w(E["z3"], j), one if j == 0 else zero)
                MOV(fe.w(E["z2"], j), zero)
            MOV([tmp + S_SWAP], zero)
            t = G()
            MOV(t.as_dword, bits - 1)
            top = fn.new_label("bit")
            fn.bind(top)
            fn.comment("bit t of k (index t >> 3, shift t & 7: public); swap ^= bit; "
                       "cswap(swap); swap = bit")
            kq, sw = G(), G()
            MOV(kq, [tmp + S_K])
            bit = scalar_bit(kq, t)
            MOV(sw, [tmp + S_SWAP])
            XOR(sw, bit)
            MOV([tmp + S_SWAP], bit)
            NEG(sw)                                 # 0 or -1
            fe.cswap(sw, E["x2"], E["x3"])
            fe.cswap(sw, E["z2"], E["z3"])
            fn.comment("A = x2 + z2, B = x2 - z2, C = x3 + z3, D = x3 - z3; then the products "
                       "in an order where neighbours are independent (the reorder window holds "
                       "about five operations, a step has eighteen)")
            fe.add(E["a"], E["x2"], E["z2"])
            fe.sub(E["b"], E["x2"], E["z2"])
            fe.add(E["c"], E["x3"], E["z3"])
            fe.sub(E["d"], E["x3"], E["z3"])
            sqr(E["aa"], E["a"])                    # AA = A^2
            mul(E["da"], E["d"], E["a"])            # DA = D A
            sqr(E["bb"], E["b"])                    # BB = B^2
            mul(E["cb"], E["c"], E["b"])            # CB = C B
            fe.sub(E["e"], E["aa"], E["bb"])        # E = AA - BB
            fe.add(E["x3"], E["da"], E["cb"])       # DA + CB
            fe.sub(E["z3"], E["da"], E["cb"])       # DA - CB
            fe.mul_small(E["t"], E["e"], F.a24)     # a24 E
            sqr(E["x3"], E["x3"])                   # x3 = (DA + CB)^2
            fe.add(E["t"], E["t"], E["aa"])         # AA + a24 E
            sqr(E["z3"], E["z3"])                   # (DA - CB)^2
            mul(E["x2"], E["aa"], E["bb"])          # x2 = AA BB
            mul(E["z2"], E["e"], E["t"])            # z2 = E (AA + a24 E)
            mul(E["z3"], E["z3"], E["x1"])          # z3 = x1 (DA - CB)^2
            SUB(t.as_dword, 1)
            JNS(top)
            fn.comment("final cswap(swap); x2, z2 into %d x %d-bit limbs" % (n, radix))
            sw = G()
            MOV(sw, [tmp + S_SWAP])
            NEG(sw)
            fe.cswap(sw, E["x2"], E["x3"])
            fe.cswap(sw, E["z2"], E["z3"])
            out = G()
            MOV(out, [tmp + S_XZ])
            to = fe.to_r51 if radix == 51 else fe.to_r50
            to([[out + 8 * i] if i else [out] for i in range(n)], E["x2"])
            to([[out + 8 * (n + i)] for i in range(n)], E["z2"])
            fn.ret()
        return fn.finalize()
    return build


def scalar_bit(kp, t):
    """bit t of the little-endian scalar at kp (byte t >> 3, shift t & 7; t public) in a new
    register"""
    from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV, MOVZX, SHR, SHRX, AND, byte
    idx, sh, b, bit = G(), G(), G(), G()
    MOV(idx.as_dword, t.as_dword)
    SHR(idx.as_dword, 3)
    MOVZX(b.as_dword, byte[kp + idx * 1])
    MOV(sh.as_dword, t.as_dword)
    AND(sh.as_dword, 7)
    SHRX(bit.as_dword, b.as_dword, sh.as_dword)
    AND(bit.as_dword, 1)
    return bit


TMP_WORDS = 128           # what Ladder.PARK and a 9-limb operand need, with room

def params(split, order):
    return {
        "split": Param(split, (0, 1, 2, 3), "accumulators per column and half in each IFMA\n"
                       "product: the products of a column in `split` interleaved chains\n"
                       "(latency: one chain of ceil(limbs / split) IFMAs) added at the end\n"
                       "(instructions: split - 1 adds); 0: one chain per column, the low\n"
                       "halves onto the doubled high sum (registers: Curve448's 9 limbs fit\n"
                       "32 only with 0 or 1)"),
        "order": Param(order, ("up", "down"), "the order of each product's columns\n"
                       "(ops.mul_ifma): 'up' from column 0, a column above 2^power folded\n"
                       "as it completes (Curve448: columns 14..17 fold onto 9..13, folded\n"
                       "already, which fold again); 'down' from the top, every column\n"
                       "folded once and a column's chain started from its folds (Curve448:\n"
                       "~40 instructions fewer per product)"),
    }

CURVES = [
    # name, field, ladder bits, clamping, default split, default column order
    ("x25519_ladder", "c25519_r51", 255, "decodeScalar25519", 2, "up"),
    ("x448_ladder", "c448_r50", 448, "decodeScalar448", 1, "down"),
]


# the size the bench drivers of the ladders (bench/xdh.c) report one call at, and so the
# size `make tune` figures them at: a label, the limbs of the field lf_x25519 / lf_x448 take
# (c25519_r51: 5; c448_r56: 8 -- the X448 ladder itself runs on c448_r50's 9 limbs)
BENCH_FIELD = {"x25519_ladder": "c25519_r51", "x448_ladder": "c448_r56"}


def kernel(name, fname, bits, clamp, split, order):
    F = desc.BY_NAME[fname]
    n = F.limbs
    spec = KernelSpec(
        name=name,
        operation="(x2 : z2) = k u on %s's Montgomery curve: the ladder of RFC 7748 §5 over\n"
                  "bits %d .. 0 of the clamped scalar k, before the inversion" % (F.prime, bits - 1),
        args=[("xz", "int64_t *"), ("k", "const uint8_t *"), ("u", "const int64_t *"),
              ("tmp", "int64_t *")],
        result=None,
        shapes="k: %d bytes little-endian, already clamped (%s).  u, and xz[0..%d] = x2,\n"
               "xz[%d..%d] = z2: elements of the %s field (%d x %d-bit limbs, int64_t,\n"
               "little-endian limb order; generated/fields/%s.c).  tmp: scratch of\n"
               "LF_XDH_LADDER_TMP (%d) int64_t, 32-byte aligned."
               % (F.nbytes, clamp, n - 1, n, 2 * n - 1, fname, n, F.bits, fname, TMP_WORDS),
        units="bytes (k), field elements of %d limbs (u, x2, z2)." % n,
        preconditions="u: limbs in [0, 2^%d] (what lf_fe_%s_decode returns).  Then x2 and z2 have\n"
                      "limbs in [0, 2^52) and x2/z2 = X(k, u) of RFC 7748 (z2 = 0 for the points\n"
                      "the RFC maps to 0).  xz must not overlap k or u; tmp must be 32-byte\n"
                      "aligned (the ifma variants store to it with aligned vector stores: a\n"
                      "fault otherwise).  Other inputs: an unspecified result, never a fault.\n"
                      "Constant time in k and u: the ladder runs every bit, the swap is chosen\n"
                      "by a mask (ifma: a lane permutation; adx: XOR under the mask)."
                      % (F.bits, fname),
        source="RFC 7748 §5 (the ladder, a24 = %d); ifma: 4-way lane parallelism as in\n"
               "H. Hisil, B. Egrice, M. Ozturk, 'Fast 4 way vectorized ladder for the complete\n"
               "set of Montgomery curves' (2020) and K. Nath, P. Sarkar (2018), with AVX-512\n"
               "IFMA products%s." % (F.a24, ";\nadx (Curve25519): the 4 x 64-bit arithmetic of "
                                     "OpenSSL's x25519-x86_64\n(x25519_fe64_*) and of the "
                                     "amd64-64 code of Bernstein et al., 'High-speed\n"
                                     "high-security signatures' (2011)"
                                     if fname == "c25519_r51" else ""),
        tune_sizes=(desc.BY_NAME[BENCH_FIELD[name]].limbs,),
    )
    variants = [
        Variant("ifma", "x86_64", _build_ifma(F, bits, spec), params(split, order),
                "Lanes [x2, x3, z3, z2] of %d YMM registers (radix 2^%d); per level one\n"
                "lane-parallel IFMA product of the proven program ops.mul_ifma (three per step:\n"
                "4 + 4 + 2 multiplications; columns in the schedule's `order`), the swap\n"
                "folded into level 1's VPERMQ, VPERMQ/VPBLENDMQ between levels, parallel\n"
                "carries where the bounds require them before a product." % (n, F.bits)),
    ]
    if fname == "c25519_r51":
        variants.append(Variant(
            "adx", "x86_64", _build_adx(F, fname, bits, spec), {},
            "Four saturated 64-bit limbs (values in [0, 2^256), 2^256 == 38 mod p): the step\n"
            "of RFC 7748 one inline field operation at a time over tmp -- products by MULX\n"
            "rows with the ADCX/ADOX chains, the high half folded by MULX by 38 (x86_fe64) --\n"
            "for CPUs without IFMA; u in from 5 x 51 limbs, x2 and z2 out to them."))
    else:
        variants.append(Variant(
            "adx", "x86_64", _build_adx(F, fname, bits, spec), {},
            "Seven saturated 64-bit limbs (values in [0, 2^448), 2^448 == 2^224 + 1 mod p):\n"
            "the step of RFC 7748 one inline field operation at a time over tmp -- products by\n"
            "MULX rows with the ADCX/ADOX chains, the high half folded as H + (H << 32) 2^192\n"
            "twice, then the top limb (x86_fe448) -- for CPUs without IFMA; u in from 9 x 50\n"
            "limbs, x2 and z2 out to them."))
    return types.SimpleNamespace(SPEC=spec, VARIANTS=variants, __doc__=__doc__)


MODULES = [kernel(*c) for c in CURVES]
