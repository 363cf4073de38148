"""x86_fe448: the 7 x 64-bit Curve448 operations of x448_ladder's `adx` variant, run on chosen
values by test_x86_fe64's interpreter (extended by the flag-free SHLX, SHRX and LEA the
reduction uses), against Python integers.

Fault caught: a wrong carry or fold on a path random inputs almost never take -- the second
round of `fold` after add, sub and mul_small (a value within 2^224 + 1 of 2^448, where that
round is limited to limbs 0..3), the half-limb offset of the 2^224 fold, the conversions from
and to 9 x 50-bit limbs at their bounds -- which the ladder's tests (RFC 7748 vectors, random
points) cannot reach.  Each test that relies on a rare path also checks that its values take
it, so it cannot pass vacuously.  The assembled kernel itself is tested by tests/test_ladder.c
and tests/test_xdh.c."""

import random
import unittest

from lfgen.x86 import function as x86
from lfgen.kernels import x86_fe448 as fe

from .test_x86_fe64 import Machine, M64, value

P = 2 ** 448 - 2 ** 224 - 1
N = fe.N
TOP = 2 ** 448


class Machine448(Machine):
    def run(self, insns):
        for x in insns:
            n, ops = x.name, x.operands
            if n in ("SHLX", "SHRX"):
                v, k = self.get(ops[1]), self.get(ops[2]) & 63
                self.set(ops[0], v << k if n == "SHLX" else v >> k)   # flags untouched
            elif n == "LEA":
                self.set(ops[0], self.addr(ops[1]))
            else:
                super().run([x])


_EMITTED = {}


def run(emit, names, values, extra=()):
    """Emit `emit` over pointer arguments `names` (element i at 0x1000 (i + 1); emitted once
    per emit, names and extra), run it with the elements `values` (ints as seven limbs, lists
    as given), return a reader of limbs."""
    if (emit, names, extra) not in _EMITTED:
        f = x86.Function("probe", [(nm, "int64_t *") for nm in names], None)
        with f:
            regs = f.load_args()
            emit(*[(r, 0) for r in regs], *extra)
            f.ret()
        _EMITTED[(emit, names, extra)] = f.pp._instructions
    addrs = {nm: 0x1000 * (i + 1) for i, nm in enumerate(names)}
    m = Machine448(addrs)
    for nm, v in zip(names, values):
        limbs = v if isinstance(v, list) else [(v >> (64 * j)) & M64 for j in range(N)]
        for j, l in enumerate(limbs):
            m.mem[addrs[nm] + 8 * j] = l
    m.run(_EMITTED[(emit, names, extra)])
    return lambda nm, k=N: [m.mem.get(addrs[nm] + 8 * j, 0) for j in range(k)]


EDGES = [0, 1, 2, P - 1, P, P + 1, TOP - 1, TOP - 2, TOP - 2 ** 224 - 2,
         TOP - 2 ** 224 - 1, TOP - 2 ** 224, 2 ** 224, 2 ** 224 - 1, 2 ** 224 + 1,
         2 ** 256 - 1, 2 ** 255, 2 ** 447, M64, 2 ** 64, (TOP - 1) // 3,
         (TOP - 1) // 2 ** 32 * 2 ** 32]


class Fe448(unittest.TestCase):
    def setUp(self):
        rnd = random.Random(448)
        self.values = EDGES + [rnd.getrandbits(448) for _ in range(30)]

    def check(self, limbs, want, what):
        got = value(limbs)
        self.assertLess(got, TOP, what)
        self.assertEqual(got % P, want % P, what)

    def binary(self, emit, fn, name, second):
        """every pair of values; returns how many pairs `second(a, b)` says take the second
        round of the fold"""
        taken = 0
        for a in self.values:
            for b in self.values:
                mem = run(emit, ("r", "a", "b"), [0, a, b])
                self.check(mem("r"), fn(a, b), "%s(%#x, %#x)" % (name, a, b))
                taken += second(a, b)
        return taken

    def test_add(self):
        # the first fold carries when (a + b - 2^448) + 1 + 2^224 >= 2^448
        taken = self.binary(fe.add, lambda a, b: a + b, "add",
                            lambda a, b: a + b >= 2 * TOP - 2 ** 224 - 1)
        self.assertGreater(taken, 0, "no pair took add's second round")

    def test_sub(self):
        # the first fold borrows again when a - b + 2^448 < 1 + 2^224
        taken = self.binary(fe.sub, lambda a, b: a - b, "sub",
                            lambda a, b: a - b + TOP < 1 + 2 ** 224)
        self.assertGreater(taken, 0, "no pair took sub's second round")

    def test_mul(self):
        for a in self.values:
            for b in self.values[:24]:
                mem = run(fe.mul, ("r", "a", "b", "z"), [0, a, b, [0] * (2 * N)])
                self.check(mem("r"), a * b, "mul(%#x, %#x)" % (a, b))

    def test_sqr(self):
        rnd = random.Random(4480)
        for a in self.values + [rnd.getrandbits(448) for _ in range(100)]:
            mem = run(fe.sqr, ("r", "a", "z"), [0, a, [0] * (2 * N)])
            self.check(mem("r"), a * a, "sqr(%#x)" % a)

    def test_mul_small(self):
        """Beside the values: a s = k 2^448 - 1 (a = floor((k 2^448 - 1) / s)): limbs all
        ones below a top k - 1, so the fold's first round carries and the second runs."""
        s = 39081
        crafted = [(k * TOP - 1) // s for k in range(2, 400)]
        taken = 0
        for a in self.values + crafted:
            for mult in ((1, 2, s, 2 ** 31 - 1) if a in self.values else (s,)):
                mem = run(fe.mul_small, ("r", "a"), [0, a], (mult,))
                self.check(mem("r"), a * mult, "mul_small(%#x, %d)" % (a, mult))
                t = a * mult
                lo, top = t % TOP, t >> 448
                taken += lo + top * (1 + 2 ** 224) >= TOP
        self.assertGreater(taken, 0, "no value took mul_small's second round")

    def test_cswap(self):
        for mask in (0, M64):
            f = x86.Function("probe", [("x", "int64_t *"), ("y", "int64_t *"),
                                       ("m", "uint64_t")], None)
            with f:
                x, y, mreg = f.load_args()
                fe.cswap(mreg, (x, 0), (y, 0))
                f.ret()
            a, b = self.values[-1], self.values[-2]
            m = Machine448({"x": 0x1000, "y": 0x2000, "m": mask})
            for j in range(N):
                m.mem[0x1000 + 8 * j] = (a >> (64 * j)) & M64
                m.mem[0x2000 + 8 * j] = (b >> (64 * j)) & M64
            m.run(f.pp._instructions)
            gx = value([m.mem[0x1000 + 8 * j] for j in range(N)])
            gy = value([m.mem[0x2000 + 8 * j] for j in range(N)])
            self.assertEqual((gx, gy), (b, a) if mask else (a, b))

    def test_r50_round_trip(self):
        """u limbs up to 2^50 inclusive (the ladder's contract), whose value may pass 2^448
        (folded on the way in); out: nine limbs below 2^52 of the same value"""
        rnd = random.Random(50)
        limb_sets = [[2 ** 50] * 9, [2 ** 50 - 1] * 9, [0] * 9, [1] + [0] * 7 + [2 ** 50],
                     [0] * 8 + [2 ** 48], [0] * 8 + [2 ** 48 - 1]]
        limb_sets += [[rnd.randrange(2 ** 50 + 1) for _ in range(9)] for _ in range(60)]
        folded = 0
        for u in limb_sets:
            mem = run(fe.from_r50, ("r", "u"), [0, u])
            got = value(mem("r"))
            self.assertLess(got, TOP, "from_r50(%r)" % u)
            self.assertEqual(got % P, value(u, 50) % P, "from_r50(%r)" % u)
            folded += value(u, 50) >= TOP
            f = x86.Function("probe", [("d", "int64_t *"), ("a", "int64_t *")], None)
            with f:
                d, a = f.load_args()
                fe.to_r50([[d + 8 * i] if i else [d] for i in range(9)], (a, 0))
                f.ret()
            m = Machine448({"d": 0x1000, "a": 0x2000})
            for j in range(N):
                m.mem[0x2000 + 8 * j] = (got >> (64 * j)) & M64
            m.run(f.pp._instructions)
            out = [m.mem[0x1000 + 8 * i] for i in range(9)]
            self.assertTrue(all(l < 2 ** 52 for l in out), out)
            self.assertEqual(value(out, 50), got)
        self.assertGreater(folded, 0, "no u above 2^448")


if __name__ == "__main__":
    unittest.main()
