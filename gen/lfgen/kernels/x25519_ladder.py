"""x25519_ladder: the Montgomery ladder of RFC 7748 §5 over all 255 bits of a clamped scalar,
returning the projective (x2 : z2); lf_x25519 inverts and encodes (runtime/xdh.c).

    state per bit t = 254 .. 0:  swap ^= k_t; cswap(swap, (x2, z2), (x3, z3)); swap = k_t;
    A = x2 + z2, B = x2 - z2, C = x3 + z3, D = x3 - z3,
    AA = A^2, BB = B^2, DA = D A, CB = C B,                         (level 1: four products)
    E = AA - BB, x2 = AA BB, x3 = (DA + CB)^2, t = (DA - CB)^2, a24E (level 2: four products)
    z3 = x1 t, z2 = E (AA + a24 E)                                  (level 3: two products)
    and a final cswap(swap).

x86-64 "ifma": the four ladder coordinates in the four 64-bit lanes of five YMM registers
(limb i of x2 z2 x3 z3 in register i, radix 2^51), so each level is ONE lane-parallel field
product: the proven program ops.mul_ifma (VPMADD52LUQ/HUQ columns, the columns above 2^255
folded by 19, a carry chain) lowered lane-wise by fields/x86_vec_lower.py -- four
multiplications for the price of one, the technique of the 4-way vectorised ladders (Hisil,
Egrice, Ozturk; Nath, Sarkar) on AVX-512 IFMA.  Between levels VPERMQ and VPBLENDMQ move
coordinates between lanes; sums and differences (the latter plus a multiple of p, kp, so limbs
stay non-negative) are lane-wise too.  IFMA reads 52 bits of each operand, so every operand
of a product must be proven below 2^52: where a sum or a difference is not, the generator
inserts one round of parallel carries (ops.carry_parallel) -- decided from the bounds, listed
in the header -- and refuses to build if a round is not enough.  The swap is a VPBLENDMQ under
a mask made from the scalar bit: no branch or address depends on the scalar.
"""

from ..kernel import KernelSpec, Variant, Param
from ..fields import bounds, desc, ops, x86_vec_lower as VL
from ..fields.ir import BoundError

F = desc.BY_NAME["c25519_r51"]
BELOW52 = [(0, (1 << 52) - 1)] * F.limbs

SPEC = KernelSpec(
    name="x25519_ladder",
    operation="(x2 : z2) = k u on Curve25519's Montgomery curve: the ladder of RFC 7748 §5\n"
              "over bits 254 .. 0 of the clamped scalar k, before the inversion",
    args=[("xz", "int64_t *"), ("k", "const uint8_t *"), ("u", "const int64_t *")],
    result=None,
    shapes="k: 32 bytes little-endian, already clamped (decodeScalar25519).  u, and xz[0..4] =\n"
           "x2, xz[5..9] = z2: elements of the c25519_r51 field (5 x 51-bit limbs, int64_t,\n"
           "little-endian limb order; generated/fields/c25519_r51.c).",
    units="bytes (k), field elements of 5 limbs (u, x2, z2).",
    preconditions="u: limbs in [0, 2^51] (what lf_fe_c25519_r51_decode returns).  Then x2 and z2\n"
                  "have limbs in [0, 2^52) and x2/z2 = X(k, u) of RFC 7748 (z2 = 0 for the\n"
                  "points the RFC maps to 0).  xz must not overlap k or u.  Other inputs: an\n"
                  "unspecified result, never a fault.  Constant time in k and u: the ladder\n"
                  "runs every bit, the swap is a mask.",
    source="RFC 7748 §5 (the ladder, a24 = 121665); 4-way lane parallelism as in H. Hisil,\n"
           "B. Egrice, M. Ozturk, 'Fast 4 way vectorized ladder for the complete set of\n"
           "Montgomery curves' (2020) and K. Nath, P. Sarkar (2018), with AVX-512 IFMA products.",
    tune_sizes=(1,),
)


class V:
    """A lane vector of field elements: five YMM registers and a bound per limb (the hull
    over the lanes)."""

    def __init__(self, regs, bound):
        self.regs, self.bound = list(regs), list(bound)


class Ladder:
    def __init__(self, fn, split):
        from peachpy.x86_64 import KRegister, GeneralPurposeRegister64 as G, MOV, KMOVB
        self.fn = fn
        self.consts = VL.Consts()
        self.inserted = []
        self.c = bounds.contract(F)
        self.mul_prog, self.mul_out = ops.mul_ifma(F, BELOW52, split=split)
        if not ops.within(self.mul_out, BELOW52):
            raise BoundError("x25519_ladder: mul_ifma output %s is not below 2^52"
                             % bounds.text(self.mul_out))
        self.kp, _ = ops.multiple_of_p(F, [hi for _, hi in BELOW52])

    def mask(self, bits):
        """A k register with the given lane bits (made where used: eight masks would not fit
        the seven k registers for the whole loop)."""
        from peachpy.x86_64 import KRegister, GeneralPurposeRegister64 as G, MOV, KMOVB
        k, t = KRegister(), G()
        MOV(t.as_dword, bits)
        KMOVB(k, t.as_dword)
        return k

    # -- lane moves: the bound of the result is the hull of its sources ----------------------
    def perm(self, v, lanes):
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ
        imm = sum(l << (2 * i) for i, l in enumerate(lanes))
        out = []
        for r in v.regs:
            y = Y()
            VPERMQ(y, r, imm)
            out.append(y)
        return V(out, v.bound)

    def blend(self, v, w, lanes):
        """lane l from w where bit l of `lanes` is set, else from v."""
        from peachpy.x86_64 import YMMRegister as Y, VPBLENDMQ
        k = self.mask(lanes)
        out = []
        for a, b in zip(v.regs, w.regs):
            y = Y()
            VPBLENDMQ(y(k), a, b)
            out.append(y)
        return V(out, ops.hull(v.bound, w.bound))

    # -- field operations: proven programs lowered lane-wise ---------------------------------
    def run(self, prog, out_bound, **inputs):
        regs = VL.lower(prog, {k: v.regs for k, v in inputs.items()}, self.consts)
        return V(regs["r"], out_bound)

    def add(self, a, b):
        prog, out = ops.add(F, ops.hull(a.bound, b.bound))
        return self.run(prog, out, a=a, b=b)

    def sub(self, a, b):
        prog, out = ops.sub(F, a.bound, b.bound, self.kp)
        return self.run(prog, out, a=a, b=b)

    def fit52(self, v, what):
        """v itself if the bounds prove every limb below 2^52 (an IFMA operand), else v after
        one round of parallel carries -- inserted here because the bound requires it."""
        if ops.within(v.bound, BELOW52):
            return v
        prog, out = ops.carry_parallel(F, v.bound)
        if not ops.within(out, BELOW52):
            raise BoundError("x25519_ladder: %s stays at %s after a round of carries"
                             % (what, bounds.text(out)))
        self.inserted.append(what)
        return self.run(prog, out, a=v)

    def mul(self, a, b):
        for v in (a, b):
            if not ops.within(v.bound, BELOW52):
                raise BoundError("x25519_ladder: a product operand is not below 2^52")
        return self.run(self.mul_prog, self.mul_out, a=a, b=b)

    def x1_lanes(self):
        """x1 = u in lane 2 (the other lanes 0), loaded again each step: five registers fewer
        held across the loop."""
        from peachpy.x86_64 import VPBROADCASTQ
        up, bound = self.x1
        k = self.mask(0b0100)
        regs = []
        for i in range(F.limbs):
            r = VL.zeroed(self.consts)
            VPBROADCASTQ(r(k), [up + 8 * i] if i else [up])
            regs.append(r)
        return V(regs, bound)

    def vperm(self, v, idx):
        """lane l of the result = lane idx[l] of v, idx a register of lane numbers."""
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ
        out = []
        for r in v.regs:
            y = Y()
            VPERMQ(y, idx, r)
            out.append(y)
        return V(out, v.bound)

    def zperm(self, v, lanes, keep):
        """perm(v, lanes) with the lanes not in `keep` zeroed (bound: the hull with 0)."""
        from peachpy.x86_64 import YMMRegister as Y, VPERMQ
        imm = sum(l << (2 * i) for i, l in enumerate(lanes))
        k = self.mask(keep)
        out = []
        for r in v.regs:
            y = Y()
            VPERMQ(y(k.z), r, imm)
            out.append(y)
        return V(out, ops.hull(v.bound, [(0, 0)] * F.limbs))

    def step(self, Vs, idxP, idxQ, a24):
        """One ladder step on the state Vs, lanes [x2, x3, z3, z2], the pending swap folded
        into the lanes level 1 reads (idxP, idxQ: [s, s, 1-s, 1-s] and 3 - that); returns the
        new state in the same lanes."""
        f = self.fn
        f.comment("level 1: [A, B, D, C] x [A, B, A, B]; P = [x2 x2 x3 x3], Q = [z2 z2 z3 z3]"
                  " after the swap")
        Pv, Qv = self.vperm(Vs, idxP), self.vperm(Vs, idxQ)
        X1 = self.fit52(self.blend(self.add(Pv, Qv), self.sub(Pv, Qv), 0b0110),
                        "[A, B, D, C] before level 1")
        Y1 = self.perm(X1, [0, 1, 0, 1])
        P1 = self.mul(X1, Y1)                                        # [AA, BB, DA, CB]
        f.comment("level 2: [AA, DA+CB, DA-CB, E] x [BB, DA+CB, DA-CB, a24]")
        Pv, Qv = self.perm(P1, [0, 2, 2, 0]), self.perm(P1, [1, 3, 3, 1])
        X2 = self.blend(self.blend(self.sub(Pv, Qv), self.add(Pv, Qv), 0b0010), Pv, 0b0001)
        X2 = self.fit52(X2, "[AA, DA+CB, DA-CB, E] before level 2")
        Y2 = self.blend(self.blend(X2, Qv, 0b0001), a24, 0b1000)
        P2 = self.mul(X2, Y2)                                        # [x2', x3', t, a24 E]
        f.comment("level 3: [., ., x1, E] x [., ., t, AA + a24 E]")
        Y3 = self.fit52(self.add(P2, self.zperm(X2, [0, 0, 0, 0], 0b1000)),
                        "AA + a24 E before level 3")
        X3 = self.blend(X2, self.x1_lanes(), 0b0100)
        P3 = self.mul(X3, Y3)                                        # [., ., z3', z2']
        out = self.blend(P2, P3, 0b1100)                             # [x2', x3', z3', z2']
        if not ops.within(out.bound, Vs.bound):
            raise BoundError("x25519_ladder: the state leaves its bound after a step")
        return out


def build_ifma(symbol, p):
    from peachpy.x86_64 import (GeneralPurposeRegister64 as G, YMMRegister as Y, MOV, MOVZX,
                                SHRX, AND, XOR, NEG, SUB, KMOVB, KRegister, VPXORQ,
                                VPBROADCASTQ, VMOVDQA64, VPERMQ, VPBLENDMQ, VMOVQ, VPEXTRQ,
                                VEXTRACTI128, XMMRegister as X, JNS, SHR)
    from ..x86 import function as x86
    fn = x86.Function(symbol, SPEC.args, SPEC.result, zmm32=True)
    fn.secret_independent(secret=())
    with fn:
        xz, kp_, up = fn.load_args()
        L = Ladder(fn, p.split)
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
        bnd = ops.hull(list(L.mul_out), [(0, 1 << 51)] * F.limbs)   # u and the constants 0, 1
        Vs = V(state, bnd)
        A24 = V([a0] + [L.consts.get(0)] * (F.limbs - 1), [(0, F.a24)] + [(0, 0)] * 4)
        L.x1 = (up, [(0, 1 << 51)] * F.limbs)
        fn.comment("constants of the loop, broadcast once: the limb mask, kp's limbs, lane "
                   "numbers [0 0 1 1] and 3")
        for c in sorted({(1 << F.bits) - 1} | set(L.kp)):
            L.consts.get(c)
        lanes0011 = VL.zeroed(L.consts)
        VPBROADCASTQ(lanes0011(L.mask(0b1100)), one)
        three = L.consts.get(3)
        t, swap = G(), G()
        MOV(t.as_dword, 254)
        XOR(swap.as_dword, swap.as_dword)
        top = fn.new_label("bit")
        fn.bind(top)
        fn.comment("bit t of k (index t >> 3 and shift t & 7: public); s = swap ^ bit: the "
                   "swap the step reads through; swap = bit")
        idx, sh, byte, bit = G(), G(), G(), G()
        MOV(idx.as_dword, t.as_dword)
        SHR(idx.as_dword, 3)
        MOVZX(byte.as_dword, byte_ptr(kp_, idx))
        MOV(sh.as_dword, t.as_dword)
        AND(sh.as_dword, 7)
        SHRX(bit.as_dword, byte.as_dword, sh.as_dword)
        AND(bit.as_dword, 1)
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
            MOV([xz + 8 * (5 + i)], g2)
        fn.ret()
    return fn.finalize()


def byte_ptr(base, idx):
    from peachpy.x86_64 import byte
    return byte[base + idx * 1]


PARAMS = {
    "split": Param(2, (1, 2, 3), "accumulators per column and half in each IFMA product: the\n"
                   "products of a column in `split` interleaved chains (latency: one chain of\n"
                   "ceil(5 / split) IFMAs) added at the end (instructions: split - 1 adds)"),
}

VARIANTS = [
    Variant("ifma", "x86_64", build_ifma, PARAMS,
            "Lanes [x2, z2, x3, z3] of five YMM registers (radix 2^51); per level one\n"
            "lane-parallel IFMA product of the proven program ops.mul_ifma (three per step:\n"
            "4 + 4 + 2 multiplications), VPERMQ/VPBLENDMQ between levels, parallel carries\n"
            "where the bounds require them before a product, the swap a VPBLENDMQ under a\n"
            "mask from the scalar bit."),
]
