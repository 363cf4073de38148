"""VSeq: a group of N vector registers as one value (after HotSpot's `VSeq<N>`).

    a = VSeq(f, 4, "a")                 # four fresh virtual vector registers
    p = VSeq(f, 4, "p", base=16)        # pinned to v16, v17, v18, v19 (base + i*stride)
    vs_umull(f, p, a, b, dshape="2d", sshape="2s")   # four `umull p[i].2d, a[i].2s, b[i].2s`
    vs_umlal(f, p, a, b.rep(4), ...)   # b.rep(4): one register used by every element

Element-wise emitters check at generation time that the lengths agree and that the destination
group and each source group are either disjoint or the very same group (in place); HotSpot
does these checks with asserts at stub-generation time.
"""

from .a64.regs import VEC


class VSeqError(Exception):
    pass


class VSeq:
    def __init__(self, f=None, n=0, name="vs", base=None, stride=1, regs=None):
        if regs is not None:
            self.regs = list(regs)
        else:
            if f is None or n < 1:
                raise VSeqError("VSeq needs a function and a length >= 1")
            if base is not None:
                phys = [base + i * stride for i in range(n)]
                if any(p < 0 or p > 31 for p in phys):
                    raise VSeqError("VSeq %s: registers %s out of range" % (name, phys))
                self.regs = [f._new(VEC, "%s%d" % (name, i), pin=p)
                             for i, p in enumerate(phys)]
            else:
                self.regs = f.vregs(n, name)
        if any(r.cls != VEC for r in self.regs):
            raise VSeqError("VSeq holds vector registers only")
        self.base = base
        self.stride = stride

    def __len__(self):
        return len(self.regs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return VSeq(regs=self.regs[i])
        return self.regs[i]

    def __iter__(self):
        return iter(self.regs)

    def rep(self, n):
        """The same register(s) repeated to length n (a broadcast operand)."""
        if n % len(self.regs):
            raise VSeqError("cannot repeat %d registers to length %d" % (len(self.regs), n))
        return VSeq(regs=self.regs * (n // len(self.regs)))

    def halves(self):
        h = len(self.regs) // 2
        return VSeq(regs=self.regs[:h]), VSeq(regs=self.regs[h:])

    def vids(self):
        return [r.vid for r in self.regs]


def check_group(dst, *srcs):
    """Lengths agree; the destination repeats no register; each source is either disjoint
    from the destination or the very same group (element i reads only element i, so in place
    is safe); a partial overlap would let element i overwrite what element j > i reads."""
    n = len(dst)
    if len(set(dst.vids())) != n:
        raise VSeqError("destination VSeq repeats a register")
    for s in srcs:
        if len(s) != n:
            raise VSeqError("VSeq lengths differ: %d vs %d" % (n, len(s)))
        shared = set(dst.vids()) & set(s.vids())
        if shared and dst.vids() != s.vids():
            raise VSeqError("VSeq operands overlap on %d register(s) without being the same "
                            "group" % len(shared))


def _view(reg, shape):
    return {"2d": reg.d2, "4s": reg.s4, "2s": reg.s2, "16b": reg.b16, "8h": reg.h8,
            "q": reg.q, "d": reg.d}[shape]


def _elementwise(mnem):
    def emit(f, dst, *srcs, dshape="2d", sshape=None, imm=None):
        check_group(dst, *srcs)
        sshape = sshape or dshape
        for i in range(len(dst)):
            ops = [_view(dst[i], dshape)] + [_view(s[i], sshape) for s in srcs]
            if imm is not None:
                ops.append(imm)
            f.op(mnem, *ops)
    emit.__name__ = "vs_" + mnem.split(".")[0]
    emit.__doc__ = "Emit one `%s` per element of the groups." % mnem.split(".")[0]
    return emit


vs_umull = _elementwise("umull.v")
vs_umull2 = _elementwise("umull2.v")
vs_umlal = _elementwise("umlal.v")
vs_umlal2 = _elementwise("umlal2.v")
vs_add = _elementwise("add.v")
vs_and = _elementwise("and.v")
vs_ushr = _elementwise("ushr.v")
vs_usra = _elementwise("usra.v")
vs_shl = _elementwise("shl.v")
