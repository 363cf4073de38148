"""sched.pipeline: the software-pipelined loop has the promised shape (prologue loads, rotated
loop copies with the next loads interleaved, one epilogue per exit), assembles, and computes
the right thing for every length -- AArch64 under qemu, x86-64 natively (through a small
label shim, since the x86 builder has no new_label/bind of its own)."""

import re
import unittest

from . import support, pipe_progs as PP

COMBOS = [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3)]


class Shape(unittest.TestCase):
    def test_stage_order_and_register_sets(self):
        for d, r in COMBOS:
            trace = []
            f, epis = PP.a64("lf_t_shape", d, r, trace)
            c = f.finalize()
            expect = [("load", i, i % r) for i in range(d)]
            for k in range(r):
                expect.append(("work", k, k % r))
                expect.append(("load", k + d, (k + d) % r))
            for k in [r - 1] + list(range(r - 1)):
                expect += [("work", k + 1 + j, (k + 1 + j) % r) for j in range(d)]
            with self.subTest(distance=d, rotation=r):
                self.assertEqual(trace, expect)
                self.assertEqual(len(epis), r)
                labels = [l[:-1] for l in c.lines if l.endswith(":")]
                self.assertIn(".Llf_t_shape_pipe_loop", labels)
                for k in range(r):
                    self.assertIn(".Llf_t_shape_pipe_epi%d" % k, labels)
                body = support.a64_insn_lines(c)
                self.assertEqual(sum(1 for l in body if l.startswith("mul\t")), r + r * d)
                self.assertEqual(sum(1 for l in body if l.startswith("ldr\t")), d + r)
                # one back edge, r-1 early exits plus the entry check
                self.assertEqual(sum(1 for l in body if l.startswith("b.ne\t")), 1)
                self.assertEqual(sum(1 for l in body if l.startswith("cbz\t")), r)
                # every epilogue but the last one emitted jumps to done
                self.assertEqual(sum(1 for l in body if re.match(r"b\t.*_done$", l)), r - 1)

    def test_rotation_smaller_than_distance_is_refused(self):
        # with fewer register sets than iterations in flight, a load would overwrite a value
        # that is still waiting for its work stage (found by the qemu run below)
        for d, r in ((2, 1), (3, 1), (3, 2)):
            with self.subTest(distance=d, rotation=r), self.assertRaisesRegex(
                    ValueError, "rotation"):
                PP.a64("lf_t_bad", d, r)

    def test_bad_parameters(self):
        for d, r in ((0, 1), (1, 0)):
            with self.subTest(distance=d, rotation=r), self.assertRaises(ValueError):
                PP.a64("lf_t_bad", d, r)


class Runs(unittest.TestCase):
    @support.needs_qemu
    def test_a64_under_qemu(self):
        sources, variants = {}, []
        for d, r in COMBOS:
            name = "lf_t_pipe_d%d_r%d" % (d, r)
            f, _ = PP.a64(name, d, r)
            c = f.finalize()
            sources[name + ".S"] = support.asm_file(name, c.lines)
            variants.append((name, d))
        sources["main.c"] = PP.harness(variants)
        out = support.run_a64(self, sources)
        self.assertEqual(out.split(), [w for name, _ in variants for w in (name, "ok")])

    @support.needs_gcc
    def test_x86_native(self):
        sources, variants = {}, []
        for d, r in COMBOS:
            name = "lf_t_xpipe_d%d_r%d" % (d, r)
            c = PP.x86(name, d, r).finalize()
            sources[name + ".S"] = support.asm_file(name, c.lines)
            variants.append((name, d))
        sources["main.c"] = PP.harness(variants)
        out = support.run_host(self, sources)
        self.assertEqual(out.split(), [w for name, _ in variants for w in (name, "ok")])


if __name__ == "__main__":
    unittest.main()
