"""Scheduling primitives (lfgen/sched.py): interleave keeps both streams' order and every
register / flag / memory dependency, check_order rejects bad orders, interleave_steps for
load-ahead distances 0..3, Rotation, and the x86 dependency adapter (CF/OF chains, implicit
registers, fail-closed flag table).

Dependencies are re-derived here by an independent oracle (`depends`) from the instructions'
operand roles, so a bug in sched._conflict does not hide itself."""

import random
import unittest

from lfgen import sched
from lfgen.a64.function import Function
from lfgen.a64.insn import mem, Mem


def a64_fn():
    f = Function("lf_t_sched", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                                ("m", "uint64_t")])
    return f


# -- independent dependency oracle for AArch64 instructions -------------------------------

def _rw(x):
    r = {u.vid for u in x.uses()} | ({"nzcv"} if x.reads_flags else set())
    w = {d.vid for d in x.defs()} | ({"nzcv"} if x.writes_flags else set())
    return r, w


def _mem(x, alias):
    m = x.memory()
    if m is None or not (x.is_load or x.is_store):
        return None
    nregs = sum(1 for o in x.ops if hasattr(o, "reg"))
    size = m.size * max(1, nregs)
    if m.tag is not None:
        return ("tag:" + m.tag[0], m.tag[1], m.tag[1] + size, x.is_store)
    if m.index is not None:
        return ("?", 0, 1 << 64, x.is_store)
    lo = 0 if m.mode == "post" else m.off
    return (alias.get(m.base.vid, m.base.vid), lo, lo + size, x.is_store)


def depends(x, y, alias=None):
    """y (later) depends on x: RAW, WAR, WAW on registers or NZCV, or memory that may overlap
    with at least one store."""
    alias = alias or {}
    if x.pseudo is not None or y.pseudo is not None:
        return True
    if x.is_branch or y.is_branch:
        return True
    rx, wx = _rw(x)
    ry, wy = _rw(y)
    if wx & ry or rx & wy or wx & wy:
        return True
    mx, my = _mem(x, alias), _mem(y, alias)
    if mx and my and (mx[3] or my[3]):
        if "?" in (mx[0], my[0]) or mx[0] != my[0]:
            return True
        return mx[1] < my[2] and my[1] < mx[2]
    return False


def assert_subsequence(tc, seq, sub):
    pos = {id(x): i for i, x in enumerate(seq)}
    idx = [pos[id(x)] for x in sub]
    tc.assertEqual(idx, sorted(idx), "a stream's own order was not kept")


def assert_deps_kept(tc, original, scheduled, alias=None):
    pos = {id(x): i for i, x in enumerate(scheduled)}
    tc.assertEqual(sorted(pos), sorted(id(x) for x in original))
    for i, x in enumerate(original):
        for y in original[i + 1:]:
            if depends(x, y, alias):
                tc.assertLess(pos[id(x)], pos[id(y)],
                              "%r moved before %r, which it depends on" % (y, x))


class Interleave(unittest.TestCase):
    def setUp(self):
        self.f = f = a64_fn()
        self.rp, self.ap, self.m = f.arg_regs

    def pos(self, out, x):
        return [id(y) for y in out].index(id(x))

    def test_register_raw_war_waw(self):
        f, rp, ap, m = self.f, self.rp, self.ap, self.m
        a0, lo, hi, nxt, lone = f.gpr("a0"), f.gpr("lo"), f.gpr("hi"), f.gpr("nxt"), f.gpr("z")
        with f.capture() as a:
            f.ldr(a0, mem(ap, 0, tag=("mem", 0)))
            f.mul(lo, a0, m)                      # a[1] reads a0
            f.umulh(hi, a0, m)                    # a[2] writes hi, reads a0
            f.add(lo, lo, 1)                      # a[3] writes lo
            f.mov(lone, m)                        # a[4]: independent
        with f.capture() as b:
            f.add(nxt, hi, 1)                     # RAW on hi (a[2])
            f.ldr(a0, mem(ap, 8, tag=("mem", 8)))  # WAR on a0 (a[1], a[2])
            f.movz(lo, 5)                         # WAW on lo (a[3])
        out = sched.interleave(a, b, sched.A64Deps())
        assert_subsequence(self, out, a)
        assert_subsequence(self, out, b)
        assert_deps_kept(self, list(a) + list(b), out)
        self.assertGreater(self.pos(out, b[0]), self.pos(out, a[2]))
        self.assertGreater(self.pos(out, b[1]), self.pos(out, a[2]))
        self.assertGreater(self.pos(out, b[2]), self.pos(out, a[3]))

    def test_flags(self):
        f, rp, ap, m = self.f, self.rp, self.ap, self.m
        x, y, z, w = f.gpr("x"), f.gpr("y"), f.gpr("z"), f.gpr("w")
        with f.capture() as a:
            f.adds(x, x, m)                       # writes NZCV
            f.adcs(y, y, m)                       # reads and writes NZCV
            f.mul(z, m, m)                        # no flags
            f.mul(z, z, m)
        with f.capture() as b:
            f.subs(w, m, 1)                       # writes NZCV: after the adcs
        out = sched.interleave(a, b, sched.A64Deps())
        assert_deps_kept(self, list(a) + list(b), out)
        self.assertGreater(self.pos(out, b[0]), self.pos(out, a[1]))
        with f.capture() as b2:
            f.cset(w, "cs")                       # reads NZCV written by adcs
        out = sched.interleave(a, b2, sched.A64Deps())
        self.assertGreater(self.pos(out, b2[0]), self.pos(out, a[1]))

    def test_independent_instructions_are_spread(self):
        f, m = self.f, self.m
        xs = f.gprs(6, "x")
        ys = f.gprs(2, "y")
        with f.capture() as a:
            for r in xs:
                f.mul(r, m, m)
        with f.capture() as b:
            for r in ys:
                f.add(r, m, 1)
        out = sched.interleave(a, b, sched.A64Deps())
        # no dependency: b's instructions go among a's, not after them
        self.assertLess(self.pos(out, b[0]), self.pos(out, a[-1]))
        self.assertLess(self.pos(out, b[1]), self.pos(out, a[-1]))
        self.assertGreater(self.pos(out, b[0]), 0)

    def test_memory_tags(self):
        f, rp, ap, m = self.f, self.rp, self.ap, self.m
        v, w, u = f.gpr("v"), f.gpr("w"), f.gpr("u")
        deps = sched.A64Deps()
        st0 = f.op("str", m, mem(rp, 0, tag=("mem", 0)))
        ld0 = f.op("ldr", v, mem(ap, 0, tag=("mem", 0)))
        ld8 = f.op("ldr", w, mem(ap, 8, tag=("mem", 8)))
        ldo = f.op("ldr", u, mem(ap, 0, tag=("other", 0)))
        stp = f.op("stp", m, m, mem(rp, 0, tag=("mem", 0)))      # 16 bytes: 0..16
        self.assertTrue(sched._conflict(deps, st0, ld0))
        self.assertFalse(sched._conflict(deps, st0, ld8))
        self.assertTrue(sched._conflict(deps, stp, ld8))        # pair size counted
        self.assertTrue(sched._conflict(deps, st0, ldo))         # other array: unknown
        self.assertFalse(sched._conflict(deps, ld0, ld8))        # loads never conflict
        self.assertFalse(sched._conflict(deps, ld0, ldo))
        # check_order accepts moving the disjoint load above the store, not the aliasing one
        sched.check_order([st0, ld8], [ld8, st0], deps)
        with self.assertRaises(sched.ScheduleError):
            sched.check_order([st0, ld0], [ld0, st0], deps)

    def test_memory_same_or_disjoint(self):
        f, rp, ap, m = self.f, self.rp, self.ap, self.m
        v = f.gpr("v")
        st = f.op("str", m, mem(rp, 0))
        ld8 = f.op("ldr", v, mem(ap, 8))
        ld0 = f.op("ldr", v, mem(ap, 0))
        plain = sched.A64Deps()
        self.assertTrue(sched._conflict(plain, st, ld8))         # different bases: may alias
        alias = sched.A64Deps(same_or_disjoint=[(rp, ap)])
        self.assertFalse(sched._conflict(alias, st, ld8))
        self.assertTrue(sched._conflict(alias, st, ld0))
        idx = f.op("ldr", v, Mem(ap, index=m, shift=3))
        self.assertTrue(sched._conflict(alias, st, idx))         # indexed: unknown address

    def test_random_streams_against_oracle(self):
        rnd = random.Random(1234)
        for trial in range(60):
            f = a64_fn()
            rp, ap, m = f.arg_regs
            pool = f.gprs(5, "p")

            def emit_random():
                k = rnd.randrange(7)
                a, b, c = (rnd.choice(pool) for _ in range(3))
                off = 8 * rnd.randrange(4)
                if k == 0:
                    f.add(a, b, c)
                elif k == 1:
                    f.adds(a, b, c)
                elif k == 2:
                    f.adcs(a, b, c)
                elif k == 3:
                    f.ldr(a, mem(ap, off, tag=("mem", off)))
                elif k == 4:
                    f.str_(a, mem(rp, off, tag=("mem", off)))
                elif k == 5:
                    f.mul(a, b, m)
                else:
                    f.csel(a, b, c, "cc")

            with f.capture() as a:
                for _ in range(rnd.randrange(1, 9)):
                    emit_random()
            with f.capture() as b:
                for _ in range(rnd.randrange(0, 6)):
                    emit_random()
            out = sched.interleave(a, b, sched.A64Deps())
            with self.subTest(trial=trial):
                assert_subsequence(self, out, a)
                assert_subsequence(self, out, b)
                assert_deps_kept(self, list(a) + list(b), out)


class CheckOrder(unittest.TestCase):
    def setUp(self):
        self.f = f = a64_fn()
        rp, ap, m = f.arg_regs
        x, y = f.gpr("x"), f.gpr("y")
        with f.capture() as s:
            f.mul(x, m, m)
            f.add(y, x, 1)          # RAW on x
            f.adds(x, m, m)         # WAR (x read above), writes flags
            f.adc(y, y, m)          # reads flags
        self.s = list(s)

    def test_accepts_original(self):
        sched.check_order(self.s, list(self.s), sched.A64Deps())

    def test_rejects_each_dependent_swap(self):
        s = self.s
        for i, j in ((0, 1), (1, 2), (2, 3)):
            bad = list(s)
            bad[i], bad[j] = bad[j], bad[i]
            with self.subTest(swap=(i, j)), self.assertRaises(sched.ScheduleError):
                sched.check_order(s, bad, sched.A64Deps())

    def test_rejects_lost_or_duplicated(self):
        with self.assertRaisesRegex(sched.ScheduleError, "lost or duplicated"):
            sched.check_order(self.s, self.s[:-1], sched.A64Deps())
        with self.assertRaisesRegex(sched.ScheduleError, "lost or duplicated"):
            sched.check_order(self.s, self.s[:-1] + [self.s[0]], sched.A64Deps())

    def test_label_is_a_barrier(self):
        f = self.f
        m = f.arg_regs[2]
        z = f.gpr("z")
        with f.capture() as s:
            f.mul(z, m, m)
            f.bind(f.new_label("l"))
            f.add(f.gpr("q"), m, 1)          # independent of the mul, but after a label
        s = list(s)
        with self.assertRaises(sched.ScheduleError):
            sched.check_order(s, [s[2], s[0], s[1]], sched.A64Deps())


class InterleaveSteps(unittest.TestCase):
    def build(self, n):
        f = a64_fn()
        rp, ap, m = f.arg_regs
        steps = []
        for i in range(n):
            a, t = f.gpr("a%d" % i), f.gpr("t%d" % i)
            with f.capture() as ld:
                f.ldr(a, mem(ap, 8 * i, tag=("mem", 8 * i)))
            with f.capture() as wk:
                f.mul(t, a, m)
                f.umulh(a, a, m)
                f.add(t, t, a)
                f.str_(t, mem(rp, 8 * i, tag=("mem", 8 * i)))
            steps.append((list(ld), list(wk)))
        return steps

    def test_distances(self):
        n = 6
        for d in range(4):
            steps = self.build(n)
            original = [x for ld, wk in steps for x in ld + wk]
            out = sched.interleave_steps(steps, d, sched.A64Deps())
            with self.subTest(distance=d):
                assert_deps_kept(self, original, out)
                for ld, wk in steps:
                    assert_subsequence(self, out, wk)
                pos = {id(x): i for i, x in enumerate(out)}
                if d == 0:
                    self.assertEqual([id(x) for x in out], [id(x) for x in original])
                    continue
                # the first d load groups open the sequence
                head = [x for ld, _ in steps[:d] for x in ld]
                self.assertEqual([id(x) for x in out[:len(head)]], [id(x) for x in head])
                # the load of step j >= d is issued inside the work of step j - d: after
                # everything of step j-d-1 and before anything of step j-d+1
                for j in range(d, n):
                    p = pos[id(steps[j][0][0])]
                    w = j - d
                    if w > 0:
                        self.assertGreater(p, max(pos[id(x)] for x in steps[w - 1][1]))
                    if w + 1 < n:
                        self.assertLess(p, min(pos[id(x)] for x in steps[w + 1][1]))
                    self.assertLess(p, pos[id(steps[j][1][0])])

    def test_distance_beyond_the_steps(self):
        steps = self.build(2)
        out = sched.interleave_steps(steps, 3, sched.A64Deps())
        self.assertEqual([id(x) for x in out[:2]], [id(steps[0][0][0]), id(steps[1][0][0])])

    def test_negative_distance(self):
        with self.assertRaises(ValueError):
            sched.interleave_steps(self.build(2), -1, sched.A64Deps())

    def test_load_ahead_that_would_break_a_dependency_fails(self):
        # step 1 loads what step 0 stores (same address): issuing it early is wrong, so the
        # dependency checker inside interleave/check_order must keep it after the store
        f = a64_fn()
        rp, ap, m = f.arg_regs
        a0, a1, t = f.gpr("a0"), f.gpr("a1"), f.gpr("t")
        with f.capture() as l0:
            f.ldr(a0, mem(ap, 0, tag=("mem", 0)))
        with f.capture() as w0:
            f.mul(t, a0, m)
            f.str_(t, mem(rp, 8, tag=("mem", 8)))
        with f.capture() as l1:
            f.ldr(a1, mem(ap, 8, tag=("mem", 8)))
        with f.capture() as w1:
            f.mul(t, a1, m)
        steps = [(list(l0), list(w0)), (list(l1), list(w1))]
        out = sched.interleave_steps(steps, 1, sched.A64Deps())
        pos = [id(x) for x in out]
        self.assertGreater(pos.index(id(l1[0])), pos.index(id(w0[1])))
        with self.assertRaises(sched.ScheduleError):   # distance 2 hoists it above the store
            sched.interleave_steps(steps, 2, sched.A64Deps())


class RotationTest(unittest.TestCase):
    def test_round_robin(self):
        r = sched.Rotation(3, lambda i: ("set", i))
        self.assertEqual(len(r), 3)
        self.assertEqual([r[i] for i in range(7)], [("set", i % 3) for i in range(7)])
        self.assertIs(r[0], r[3])

    def test_sets_are_made_once(self):
        made = []
        r = sched.Rotation(2, lambda i: made.append(i) or object())
        r[5], r[6], r[7]
        self.assertEqual(made, [0, 1])

    def test_needs_a_set(self):
        with self.assertRaises(ValueError):
            sched.Rotation(0, lambda i: i)


class X86Deps(unittest.TestCase):
    def setUp(self):
        from lfgen.x86 import function as xf
        self.f = xf.Function("lf_t_x86deps", [("rp", "uint64_t *")])
        self.f.pp.attach()            # virtual registers need an active PeachPy function

    def tearDown(self):
        self.f.pp.detach()

    def capture(self, fn):
        with self.f.capture() as s:
            fn()
        return list(s)

    def test_flags_and_implicit_registers(self):
        from peachpy.x86_64 import (GeneralPurposeRegister64 as G, ADCX, ADOX, ADD, MULX,
                                    MOV, CMOVC, rdx)
        r = [G() for _ in range(8)]
        s = self.capture(lambda: (ADCX(r[0], r[1]), ADOX(r[2], r[3]), ADD(r[4], r[5]),
                                  MULX(r[6], r[7], r[1]), MOV(rdx, r[5]), CMOVC(r[6], r[7])))
        adcx, adox, add, mulx, movrdx, cmov = s
        d = sched.X86Deps()
        self.assertFalse(sched._conflict(d, adcx, adox))   # CF chain vs OF chain
        self.assertTrue(sched._conflict(d, adcx, add))     # ADD writes CF
        self.assertTrue(sched._conflict(d, adox, add))     # ... and OF
        self.assertFalse(sched._conflict(d, adcx, mulx))   # MULX leaves flags alone
        self.assertTrue(sched._conflict(d, mulx, movrdx))  # MULX reads RDX implicitly
        self.assertTrue(sched._conflict(d, adcx, cmov))    # CMOVcc reads flags
        self.assertFalse(sched._conflict(d, mulx, adox))

    def test_memory(self):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, MOV
        p, q, v, w, x, y = G(), G(), G(), G(), G(), G()
        st, ld8, ld0, ldq = self.capture(lambda: (MOV([p], v), MOV(w, [p + 8]), MOV(x, [p]),
                                                  MOV(y, [q + 8])))
        d = sched.X86Deps()
        self.assertFalse(sched._conflict(d, st, ld8))
        self.assertTrue(sched._conflict(d, st, ld0))
        self.assertTrue(sched._conflict(d, st, ldq))          # other base: may alias
        alias = sched.X86Deps(same_or_disjoint=[(p, q)])
        self.assertFalse(sched._conflict(alias, st, ldq))
        self.assertFalse(sched._conflict(d, ld8, ld0))        # two loads

    def test_unknown_flag_effects_fail_closed(self):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, NOT, ADD
        a, b = G(), G()
        s = self.capture(lambda: (NOT(a), ADD(b, 1)))
        with self.assertRaisesRegex(sched.ScheduleError, "no flag effects known for NOT"):
            sched.interleave([s[0]], [s[1]], sched.X86Deps())

    def test_interleave_two_carry_chains(self):
        from peachpy.x86_64 import GeneralPurposeRegister64 as G, ADCX, ADOX
        r = [G() for _ in range(8)]
        a = self.capture(lambda: [ADCX(r[i], r[i + 1]) for i in (0, 2)])
        b = self.capture(lambda: [ADOX(r[i], r[i + 1]) for i in (4, 6)])
        out = sched.interleave(a, b, sched.X86Deps())
        ids = [id(x) for x in out]
        self.assertLess(ids.index(id(b[0])), ids.index(id(a[1])))   # chains overlap


if __name__ == "__main__":
    unittest.main()
