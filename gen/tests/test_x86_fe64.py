"""x86_fe64: the 4 x 64-bit Curve25519 operations of x25519_ladder's `adx` variant, run on
chosen values by a small interpreter of the instructions the emitters produce (before register
allocation), against Python integers.

Fault caught: a wrong carry or fold on a path random inputs almost never take -- the second
+38 of add and of the reductions (a value within 38 of 2^256), the second -38 of sub -- which
the ladder's tests (RFC 7748 vectors, random points) cannot reach.  Each test also checks that
its values do take that path, so the test cannot pass vacuously.  The assembled kernel itself
is tested by tests/test_ladder.c and tests/test_xdh.c."""

import random
import unittest

from peachpy.x86_64.operand import MemoryOperand

from lfgen.x86 import function as x86
from lfgen.kernels import x86_fe64 as fe

P = 2 ** 255 - 19
M64 = 2 ** 64 - 1


def key(reg):
    return ("p", reg.physical_id) if reg.virtual_id is None else ("v", reg.virtual_id)


class Machine:
    """Just the instructions x86_fe64 emits, no more forgiving than the hardware: CF and OF
    as the instructions define them and undefined (None) where the manual leaves them so
    (after IMUL, shifts; at entry), a read of an undefined flag, of a register never written
    or of memory never stored an error -- except the idioms XOR r, r (0) and SBB r, r (-CF),
    whose result does not depend on r.  Memory is a dict of qwords."""

    def __init__(self, args):
        self.r, self.mem, self.cf, self.of, self.args = {}, {}, None, None, args
        self.borrow_masks = []              # the values SBB t, t produced, in order

    def flag(self, name):
        v = getattr(self, name)
        if v is None:
            raise AssertionError("%s read while undefined" % name.upper())
        return v

    def get(self, o):
        if isinstance(o, int):
            return o & M64
        if isinstance(o, MemoryOperand):
            return self.mem[self.addr(o)]
        return self.r[key(o)] & (M64 if o.size == 8 else 0xFFFFFFFF)

    def set(self, o, v):
        if isinstance(o, MemoryOperand):
            self.mem[self.addr(o)] = v & M64
        else:
            self.r[key(o)] = v & (M64 if o.size == 8 else 0xFFFFFFFF)   # 32-bit: zero-extend

    def addr(self, o):
        a = o.address
        base = self.r[key(a.base)] if a.base is not None else 0
        index = self.r[key(a.index)] * a.scale if a.index is not None else 0
        return base + index + a.displacement

    def run(self, insns):
        for x in insns:
            n, ops = x.name, x.operands
            if n == "LOAD.ARGUMENT":
                self.set(ops[0], self.args[str(ops[1].name)])
            elif n == "MOV":
                self.set(ops[0], self.get(ops[1]))
            elif n == "MULX":
                prod = self.r[("p", 2)] * self.get(ops[2])       # rdx is physical register 2
                self.set(ops[1], prod)
                self.set(ops[0], prod >> 64)
            elif n in ("ADCX", "ADOX"):
                fl = self.flag("cf" if n == "ADCX" else "of")
                s = self.get(ops[0]) + self.get(ops[1]) + fl
                self.set(ops[0], s)
                if n == "ADCX":
                    self.cf = s >> 64
                else:
                    self.of = s >> 64
            elif n in ("ADD", "ADC", "SUB", "SBB"):
                same = not isinstance(ops[1], (int, MemoryOperand)) and key(ops[0]) == key(ops[1])
                if n == "SBB" and same:             # r - r - CF: r's value cancels
                    a = b = 0
                else:
                    a, b = self.get(ops[0]), self.get(ops[1])
                c = self.flag("cf") if n in ("ADC", "SBB") else 0
                sub = n in ("SUB", "SBB")
                v = a - b - c if sub else a + b + c
                self.set(ops[0], v)
                self.cf = int(v < 0) if sub else v >> 64
                sa, sb, sv = a >> 63, b >> 63, (v >> 63) & 1        # signed overflow
                self.of = int(sa != sb and sv != sa) if sub else int(sa == sb and sv != sa)
                if n == "SBB" and same:
                    self.borrow_masks.append(v & M64)
            elif n in ("AND", "XOR"):
                if n == "XOR" and not isinstance(ops[1], (int, MemoryOperand)) \
                        and key(ops[0]) == key(ops[1]):
                    self.set(ops[0], 0)             # r ^ r: r's value cancels
                else:
                    a, b = self.get(ops[0]), self.get(ops[1])
                    self.set(ops[0], a & b if n == "AND" else a ^ b)
                self.cf = self.of = 0
            elif n == "IMUL":
                self.set(ops[0], self.get(ops[1]) * ops[2])
                self.cf = self.of = None            # defined, but nothing here may read them
            elif n in ("SHL", "SHR"):
                v, k = self.get(ops[0]), ops[1]
                self.set(ops[0], v << k if n == "SHL" else v >> k)
                self.cf = self.of = None
            elif n == "SHRD":
                v = self.get(ops[0]) | (self.get(ops[1]) << 64)
                self.set(ops[0], v >> ops[2])
                self.cf = self.of = None
            elif n in ("RET", "RETURN"):
                pass
            else:
                raise AssertionError("the interpreter lacks %s" % n)


_EMITTED = {}


def emitted(emit, names):
    """The instructions of one operation, emitted once into a throw-away function of pointer
    arguments `names` (cached by `emit`, a module-level function or a (function, constant)
    pair)."""
    if (emit, names) not in _EMITTED:
        fn, extra = emit if isinstance(emit, tuple) else (emit, ())
        f = x86.Function("probe", [(nm, "int64_t *") for nm in names], None)
        with f:
            regs = f.load_args()
            fn(*[(r, 0) for r in regs], *extra)
            f.ret()
        _EMITTED[(emit, names)] = f.pp._instructions
    return _EMITTED[(emit, names)]


def run_op(emit, nargs, values):
    """Run the operation with element i (four qwords, or a list of limbs) at address
    0x1000 * (i + 1)."""
    names = ("r", "a", "b")[:nargs]
    insns = emitted(emit, names)
    addrs = {nm: 0x1000 * (i + 1) for i, nm in enumerate(names)}
    m = Machine(addrs)
    for nm, v in zip(names, values):
        for j in range(len(v) if isinstance(v, list) else 4):
            limb = v[j] if isinstance(v, list) else (v >> (64 * j)) & M64
            m.mem[addrs[nm] + 8 * j] = limb
    m.run(insns)
    return m, (lambda nm, k=4: [m.mem.get(addrs[nm] + 8 * j, 0) for j in range(k)])


def value(limbs, bits=64):
    return sum(l << (bits * j) for j, l in enumerate(limbs))


EDGES = [0, 1, 2, 19, 38, P - 1, P, P + 1, 2 ** 255 - 1, 2 ** 255, 2 * P - 1, 2 * P,
         2 ** 256 - 39, 2 ** 256 - 38, 2 ** 256 - 37, 2 ** 256 - 2, 2 ** 256 - 1,
         2 ** 192 - 1, 2 ** 128, M64, 2 ** 64, (2 ** 256 - 1) // 3]


class Fe64(unittest.TestCase):
    def setUp(self):
        rnd = random.Random(25519)
        self.values = EDGES + [rnd.getrandbits(256) for _ in range(40)]

    def check(self, got, want, what):
        self.assertLess(got, 2 ** 256, what)
        self.assertEqual(got % P, want % P, what)

    def binary(self, emit, fn, name):
        second = 0
        for a in self.values:
            for b in self.values[:30]:
                m, mem = run_op(emit, 3, [0, a, b])
                self.check(value(mem("r")), fn(a, b), "%s(%#x, %#x)" % (name, a, b))
                second += m.borrow_masks[-1] != 0
        return second

    def test_mul(self):
        second = self.binary(fe.mul, lambda a, b: a * b, "mul")
        self.assertGreater(second, 0, "no value took the second +38 of mul's fold")

    def test_sqr(self):
        second = 0
        for a in self.values:
            m, mem = run_op(fe.sqr, 2, [0, a])
            self.check(value(mem("r")), a * a, "sqr(%#x)" % a)
            second += m.borrow_masks[-1] != 0
        self.assertGreater(second, 0, "no value took the second +38 of sqr's fold")

    def test_add(self):
        second = self.binary(fe.add, lambda a, b: a + b, "add")
        self.assertGreater(second, 0, "no pair took add's second +38")

    def test_sub(self):
        second = self.binary(fe.sub, lambda a, b: a - b, "sub")
        self.assertGreater(second, 0, "no pair took sub's second -38")

    def test_mul_small(self):
        """Beside the values: ones whose row carries out of limb 3 (the top limb a3 s below the
        product's top), and ones whose fold takes the second +38 (a s mod 2^256 within 38 top
        of 2^256: a = floor((k 2^256 - 1) / s))."""
        s = 121665
        crafted = [0x89e595ab6259 * 2 ** 192 + 2 ** 192 - 1]
        crafted += [(k * 2 ** 256 - 1) // s for k in range(2, 2000)]
        carry_row = fold2 = 0
        for a in self.values + crafted:
            for mult in ((1, 2, s, 2 ** 32 - 1) if a in self.values else (s,)):
                m, mem = run_op((fe.mul_small, (mult,)), 2, [0, a])
                self.check(value(mem("r")), a * mult, "mul_small(%#x, %d)" % (a, mult))
                carry_row += (a * mult) >> 256 > ((a >> 192) * mult) >> 64
                fold2 += m.borrow_masks[-1] != 0
        self.assertGreater(carry_row, 0, "no value carried out of limb 3 into the top")
        self.assertGreater(fold2, 0, "no value took mul_small's second +38")

    def test_cswap(self):
        for mask in (0, M64):
            f = x86.Function("probe", [("x", "int64_t *"), ("y", "int64_t *"),
                                       ("m", "uint64_t")], None)
            with f:
                x, y, mreg = f.load_args()
                fe.cswap(mreg, (x, 0), (y, 0))
                f.ret()
            a, b = self.values[-1], self.values[-2]
            m = Machine({"x": 0x1000, "y": 0x2000, "m": mask})
            for j in range(4):
                m.mem[0x1000 + 8 * j] = (a >> (64 * j)) & M64
                m.mem[0x2000 + 8 * j] = (b >> (64 * j)) & M64
            m.run(f.pp._instructions)
            gx = value([m.mem[0x1000 + 8 * j] for j in range(4)])
            gy = value([m.mem[0x2000 + 8 * j] for j in range(4)])
            self.assertEqual((gx, gy), (b, a) if mask else (a, b))

    def test_r51_round_trip(self):
        rnd = random.Random(51)
        limb_sets = [[2 ** 51] * 5, [2 ** 51 - 1] * 5, [0] * 5, [1, 0, 0, 0, 2 ** 51]]
        limb_sets += [[rnd.randrange(2 ** 51 + 1) for _ in range(5)] for _ in range(40)]
        for u in limb_sets:
            m, mem = run_op(fe.from_r51, 2, [0, u + [0, 0, 0]])
            got = value(mem("r"))
            self.assertEqual(got, value(u, 51), "from_r51(%r)" % u)
            f = x86.Function("probe", [("d", "int64_t *"), ("a", "int64_t *")], None)
            with f:
                d, a = f.load_args()
                fe.to_r51([[d + 8 * i] if i else [d] for i in range(5)], (a, 0))
                f.ret()
            m = Machine({"d": 0x1000, "a": 0x2000})
            for j in range(4):
                m.mem[0x2000 + 8 * j] = (got >> (64 * j)) & M64
            m.run(f.pp._instructions)
            out = [m.mem[0x1000 + 8 * i] for i in range(5)]
            self.assertTrue(all(l < 2 ** 52 for l in out), out)
            self.assertEqual(value(out, 51), got)


if __name__ == "__main__":
    unittest.main()
