"""VSeq vector-register groups (lfgen/vseq.py): the disjoint-or-identical rule, lengths,
pinned base + stride groups, and the element-wise emitters (N instructions each)."""

import unittest

from lfgen import vseq
from lfgen.a64.function import Function
from lfgen.a64.insn import mem
from lfgen.vseq import VSeq, VSeqError


def fn():
    return Function("lf_t_vseq", [("p", "uint64_t *")])


class Groups(unittest.TestCase):
    def test_fresh_groups_are_distinct_virtual_registers(self):
        f = fn()
        a, b = VSeq(f, 4, "a"), VSeq(f, 4, "b")
        self.assertEqual(len(a), 4)
        self.assertEqual(len(set(a.vids() + b.vids())), 8)

    def test_needs_function_and_length(self):
        with self.assertRaises(VSeqError):
            VSeq(None, 4)
        with self.assertRaises(VSeqError):
            VSeq(fn(), 0)

    def test_vector_registers_only(self):
        f = fn()
        with self.assertRaisesRegex(VSeqError, "vector registers only"):
            VSeq(regs=[f.gpr("x")])

    def test_slices_halves_rep(self):
        f = fn()
        a = VSeq(f, 4, "a")
        lo, hi = a.halves()
        self.assertEqual(lo.vids() + hi.vids(), a.vids())
        self.assertEqual(a[1:3].vids(), a.vids()[1:3])
        self.assertEqual(a[:1].rep(4).vids(), [a.vids()[0]] * 4)
        self.assertEqual(a[:2].rep(4).vids(), a.vids()[:2] * 2)
        with self.assertRaises(VSeqError):
            a[:3].rep(4)


class CheckGroup(unittest.TestCase):
    def setUp(self):
        f = self.f = fn()
        self.a, self.b, self.d = VSeq(f, 4, "a"), VSeq(f, 4, "b"), VSeq(f, 4, "d")

    def test_disjoint_ok(self):
        vseq.check_group(self.d, self.a, self.b)

    def test_identical_group_in_place_ok(self):
        vseq.check_group(self.a, self.a, self.b)
        vseq.check_group(self.a, self.a, self.a)

    def test_partial_overlap_rejected(self):
        a = self.a
        shifted = VSeq(regs=a.regs[1:] + [self.b.regs[0]])    # a1 a2 a3 b0
        with self.assertRaisesRegex(VSeqError, "overlap"):
            vseq.check_group(shifted, a)
        with self.assertRaisesRegex(VSeqError, "overlap"):
            vseq.check_group(a, shifted)
        # same registers in another order is not "the very same group" either
        rev = VSeq(regs=list(reversed(a.regs)))
        with self.assertRaisesRegex(VSeqError, "overlap"):
            vseq.check_group(rev, a)

    def test_broadcast_source_must_not_alias_destination(self):
        vseq.check_group(self.d, self.a, self.b[:1].rep(4))
        with self.assertRaises(VSeqError):
            vseq.check_group(self.a, self.a[:1].rep(4))

    def test_destination_repeating_a_register_rejected(self):
        with self.assertRaisesRegex(VSeqError, "repeats"):
            vseq.check_group(self.a[:2].rep(4), self.b)

    def test_length_mismatch_rejected(self):
        with self.assertRaisesRegex(VSeqError, "lengths differ"):
            vseq.check_group(self.d, self.a[:3])
        with self.assertRaisesRegex(VSeqError, "lengths differ"):
            vseq.vs_add(self.f, self.d, self.a, self.b[:2])


class Pinned(unittest.TestCase):
    def test_base_and_stride_reach_the_allocation(self):
        f = Function("lf_t_vpin", [("p", "uint64_t *")])
        p, = f.arg_regs
        acc = VSeq(f, 4, "acc", base=16, stride=2)
        a = VSeq(f, 4, "a")
        for r in list(a) + list(acc):
            f.v_movi(r.b16, 1)
        vseq.vs_add(f, acc, acc, a, dshape="2d")
        for r in acc:
            f.op("str.v", r.q, mem(p))
        f.ret()
        c = f.finalize()
        self.assertEqual([c.phys[r.vid] for r in acc], [16, 18, 20, 22])
        self.assertIn("\tadd\tv16.2d, v16.2d, v%d.2d" % c.phys[a[0].vid], c.lines)
        self.assertTrue(all(c.phys[r.vid] not in (16, 18, 20, 22) for r in a))

    def test_out_of_range(self):
        with self.assertRaisesRegex(VSeqError, "out of range"):
            VSeq(fn(), 4, "x", base=30)
        with self.assertRaisesRegex(VSeqError, "out of range"):
            VSeq(fn(), 3, "x", base=20, stride=6)
        VSeq(fn(), 4, "x", base=28)     # v28..v31 fits


class Emitters(unittest.TestCase):
    def test_each_emitter_emits_n_instructions(self):
        cases = [(vseq.vs_umull, "umull", dict(dshape="2d", sshape="2s"), 2),
                 (vseq.vs_umull2, "umull2", dict(dshape="2d", sshape="4s"), 2),
                 (vseq.vs_umlal, "umlal", dict(dshape="2d", sshape="2s"), 2),
                 (vseq.vs_umlal2, "umlal2", dict(dshape="2d", sshape="4s"), 2),
                 (vseq.vs_add, "add", dict(dshape="2d"), 2),
                 (vseq.vs_and, "and", dict(dshape="16b"), 2),
                 (vseq.vs_ushr, "ushr", dict(dshape="2d", imm=26), 1),
                 (vseq.vs_shl, "shl", dict(dshape="2d", imm=1), 1)]
        for n in (1, 2, 4, 8):
            for emit, mnem, kw, nsrc in cases:
                f = fn()
                d = VSeq(f, n, "d")
                srcs = [VSeq(f, n, "s%d" % k) for k in range(nsrc)]
                with f.capture() as s:
                    emit(f, d, *srcs, **kw)
                with self.subTest(n=n, emitter=emit.__name__):
                    self.assertEqual(len(s), n)
                    self.assertEqual({x.mnem for x in s}, {mnem + ".v"})
                    for i, x in enumerate(s):
                        self.assertIs(x.ops[0].reg, d[i])
                        for k, src in enumerate(srcs):
                            self.assertIs(x.ops[1 + k].reg, src[i])
                    self.assertEqual(s[0].ops[0].shape, kw["dshape"])
                    self.assertEqual(s[0].ops[1].shape, kw.get("sshape", kw["dshape"]))

    def test_emitter_text(self):
        f = Function("lf_t_vtext", [("p", "uint64_t *")])
        a = VSeq(f, 2, "a", base=0)
        b = VSeq(f, 2, "b", base=2)
        d = VSeq(f, 2, "d", base=4)
        for r in list(a) + list(b):
            f.v_movi(r.b16, 1)
        vseq.vs_umull(f, d, a, b, dshape="2d", sshape="2s")
        vseq.vs_umlal2(f, d, a, b, dshape="2d", sshape="4s")
        vseq.vs_ushr(f, a, d, dshape="2d", imm=26)
        r = f.gpr("r")
        f.mov(r, a[0].lane("d", 0))
        f.ret()
        c = f.finalize()
        for l in ("\tumull\tv4.2d, v0.2s, v2.2s", "\tumull\tv5.2d, v1.2s, v3.2s",
                  "\tumlal2\tv4.2d, v0.4s, v2.4s", "\tushr\tv0.2d, v4.2d, #26",
                  "\tushr\tv1.2d, v5.2d, #26"):
            self.assertIn(l, c.lines)
        self.assertEqual(c.features, ["asimd"])

    def test_emitter_refuses_partial_overlap(self):
        f = fn()
        a = VSeq(f, 4, "a")
        with self.assertRaises(VSeqError):
            vseq.vs_add(f, VSeq(regs=a.regs[1:] + a.regs[:1]), a, a)   # rotated by one


if __name__ == "__main__":
    unittest.main()
