"""The AArch64 register allocator (lfgen/a64/regalloc.py) and the frame pass of
lfgen/a64/function.py: determinism, interference, pins, coalescing, failure modes, reserved
registers, callee-saved frames with CFI, and values live around loop back edges."""

import unittest

from lfgen import dataflow, verify
from lfgen.a64 import regalloc
from lfgen.a64.function import Function
from lfgen.a64.insn import post
from lfgen.a64.regs import GPR, VEC, Reg, XZR, RESERVED_GPR

from . import a64_progs as P
from . import support


def simultaneously_live(stream):
    """Pairs of vids live at the same point (live into some instruction, or defined by an
    instruction while the other is live after it), minus copies (mov d, s with s dying or
    both holding the same value are allowed to share)."""
    live_in, live_out = dataflow.liveness(stream)
    pairs = set()
    for i, node in enumerate(stream):
        li = sorted(live_in[i], key=str)
        for a in li:
            for b in li:
                if a != b:
                    pairs.add((a, b))
        copy = regalloc._move_pair(node)
        for d in node.defs():
            for v in live_out[i]:
                if v == d.vid:
                    continue
                if copy is not None and (d.vid, v) == (copy[0].vid, copy[1].vid):
                    continue
                pairs.add((d.vid, v))
                pairs.add((v, d.vid))
    return pairs


def regs_of(stream):
    out = {}
    for n in stream:
        for r in list(n.uses()) + list(n.defs()):
            out[r.vid] = r
    return out


class Determinism(unittest.TestCase):
    def test_same_program_same_binding_and_text(self):
        results = []
        for _ in range(3):
            f, _ = P.gpr_pressure(22)
            c = f.finalize()
            results.append((c.text, sorted(c.phys.items())))
        self.assertEqual(results[0], results[1])
        self.assertEqual(results[0], results[2])

    def test_loop_program_is_stable(self):
        texts = {P.loop_carried()[0].finalize().text for _ in range(3)}
        self.assertEqual(len(texts), 1)


class Interference(unittest.TestCase):
    def check(self, compiled):
        regs = regs_of(compiled.stream)
        # the independent verifier accepts the binding ...
        verify.check_bindings(compiled.stream, lambda r: (r.cls, compiled.phys[r.vid]),
                              is_copy=lambda n: ((lambda p: (p[0].vid, p[1].vid) if p else None)
                                                 (regalloc._move_pair(n))))
        # ... and no two values live at one point share a register of their class
        for a, b in simultaneously_live(compiled.stream):
            if regs[a].cls == regs[b].cls:
                self.assertNotEqual(compiled.phys[a], compiled.phys[b],
                                    "%r and %r are live together but share a register"
                                    % (regs[a], regs[b]))

    def test_gpr_pressure(self):
        for k in (1, 5, 17, 18, 19, 27):
            with self.subTest(k=k):
                f, vals = P.gpr_pressure(k)
                c = f.finalize()
                self.check(c)
                self.assertEqual(len({c.phys[v.vid] for v in vals}), k)

    def test_vec_pressure(self):
        f, vals = P.vec_pressure(30)
        c = f.finalize()
        self.check(c)
        self.assertEqual(len({c.phys[v.vid] for v in vals}), 30)

    def test_load_pair_destinations_differ(self):
        f = Function("lf_t_ldp", [("p", "const uint64_t *")], result="uint64_t")
        p, = f.arg_regs
        a, b = f.gpr("a"), f.gpr("b")
        f.ldp(a, b, post(p, 16))
        f.ret(p)          # a and b are dead at once: only the ldp itself makes them interfere
        c = f.finalize()
        self.assertNotEqual(c.phys[a.vid], c.phys[b.vid])
        # the written-back base must not share a register with a loaded value either
        self.assertNotIn(c.phys[p.vid], (c.phys[a.vid], c.phys[b.vid]))


class Pins(unittest.TestCase):
    def test_arguments_and_result_pinned_by_the_abi(self):
        f = Function("lf_t_args", [("a", "uint64_t"), ("b", "uint64_t"), ("c", "uint64_t"),
                                   ("d", "uint64_t")], result="uint64_t")
        regs = f.arg_regs
        t = f.gpr("t")
        f.add(t, regs[3], regs[2])
        f.add(t, t, regs[1])
        f.add(t, t, regs[0])
        f.ret(t)
        c = f.finalize()
        self.assertEqual([c.phys[r.vid] for r in regs], [0, 1, 2, 3])
        # the result lands in x0 (the last add writes it directly, coalesced with the move)
        self.assertTrue(support.a64_insn_lines(c)[-2].startswith(("add\tx0, ", "mov\tx0, ")))

    def test_explicit_pin_honoured(self):
        f = Function("lf_t_pin", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        p9 = f._new(GPR, "p9", pin=9)
        v17 = f._new(VEC, "v17", pin=17)
        f.add(p9, a, 1)
        f.v_movi(v17.b16, 3)
        r = f.gpr("r")
        f.mov(r, v17.lane("d", 0))
        f.add(r, r, p9)
        f.ret(r)
        c = f.finalize()
        self.assertEqual(c.phys[p9.vid], 9)
        self.assertEqual(c.phys[v17.vid], 17)
        self.assertIn("\tadd\tx9, x0, #1", c.lines)
        self.assertIn("\tmovi\tv17.16b, #3", c.lines)

    def test_conflicting_pins_fail(self):
        f = Function("lf_t_pins", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        x = f._new(GPR, "x", pin=5)
        y = f._new(GPR, "y", pin=5)
        f.add(x, a, 1)
        f.add(y, a, 2)
        f.add(x, x, y)
        f.ret(x)
        with self.assertRaisesRegex(verify.AllocationError, "pinned .* conflicts"):
            f.finalize()

    def test_nonpinned_value_avoids_a_live_pin(self):
        f = Function("lf_t_avoid", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        t = f.gpr("t")
        f.add(t, a, 1)                   # t is created first, but x0 (a) is live
        f.add(t, t, a)
        f.ret(t)
        c = f.finalize()
        self.assertNotEqual(c.phys[t.vid], 0)


class Coalescing(unittest.TestCase):
    def test_move_of_a_dying_value_is_coalesced_and_dropped(self):
        f = Function("lf_t_mov", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        s, d = f.gpr("s"), f.gpr("d")
        f.add(s, a, 3)
        f.mov(d, s)                       # s dies here
        f.add(d, d, 5)
        f.ret(d)
        c = f.finalize()
        self.assertEqual(c.phys[s.vid], c.phys[d.vid])
        lines = support.a64_insn_lines(c)
        for l in lines:
            if l.startswith("mov\t"):
                dst, src = l.split("\t")[1].split(", ")
                self.assertNotEqual(dst, src, "identity move left in the text: %s" % l)
        # the result move into x0 coalesces too: everything happens in x0
        self.assertEqual(lines, ["add\tx0, x0, #3", "add\tx0, x0, #5", "ret"])

    def test_move_of_a_live_value_that_diverges_is_not_coalesced(self):
        f = Function("lf_t_mov2", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        s, d = f.gpr("s"), f.gpr("d")
        f.add(s, a, 3)
        f.mov(d, s)
        f.add(d, d, 5)                   # d changes while s is still live
        f.add(d, d, s)
        f.ret(d)
        c = f.finalize()
        self.assertNotEqual(c.phys[s.vid], c.phys[d.vid])


class Failures(unittest.TestCase):
    def test_out_of_gprs(self):
        f, _ = P.gpr_pressure(28)          # 29 live values, 28 allocatable GPRs
        with self.assertRaises(verify.AllocationError) as cm:
            f.finalize()
        msg = str(cm.exception)
        self.assertIn("out of general-purpose registers", msg)
        self.assertIn("values live at instruction", msg)
        self.assertRegex(msg, r"%g\d+\(v\d+\)")      # names the live values
        self.assertGreaterEqual(msg.count("(v"), 28)

    def test_out_of_vector_registers(self):
        f, _ = P.vec_pressure(32)          # + the accumulator = 33 live values
        with self.assertRaisesRegex(verify.AllocationError, "out of vector registers"):
            f.finalize()

    def test_out_of_registers_with_restricted_pool(self):
        f = Function("lf_t_pool", [], result="uint64_t")
        vals = f.gprs(4, "w")
        for i, v in enumerate(vals):
            f.movz(v, i)
        for v in vals[1:]:
            f.add(vals[0], vals[0], v)
        f.ret(vals[0])
        f.bind(f._exit)
        stream = f.stream
        regalloc.allocate(stream, limits={GPR: (0, 1, 2, 3)})
        with self.assertRaisesRegex(verify.AllocationError, "out of general-purpose"):
            regalloc.allocate(stream, limits={GPR: (0, 1, 2)})

    def test_value_read_before_written(self):
        f = Function("lf_t_undef", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        ghost = f.gpr("ghost")
        t = f.gpr("t")
        f.add(t, a, ghost)
        f.ret(t)
        with self.assertRaisesRegex(verify.AllocationError, r"read before written: .*ghost"):
            f.finalize()

    def test_value_undefined_on_one_path(self):
        f = Function("lf_t_undef2", [("a", "uint64_t")], result="uint64_t")
        a, = f.arg_regs
        t = f.gpr("t")
        skip = f.new_label("skip")
        f.cbz(a, skip)
        f.movz(t, 1)
        f.bind(skip)
        f.add(t, t, a)                     # t unset when a == 0
        f.ret(t)
        with self.assertRaisesRegex(verify.AllocationError, "read before written"):
            f.finalize()


class Reserved(unittest.TestCase):
    def test_never_allocated_under_full_pressure(self):
        f, vals = P.gpr_pressure(27)       # 28 live values: every allocatable GPR
        c = f.finalize()
        used = {p for vid, p in c.phys.items()}
        self.assertFalse(used & set(RESERVED_GPR), sorted(used))
        self.assertFalse(used & {18, 29, 30, 31})
        text = c.text
        for r in ("x18", "x29", "x30", "w18", "w29", "w30"):
            self.assertNotRegex(text, r"\b%s\b" % r)

    def test_cannot_pin_reserved(self):
        for r in (18, 29, 30):
            with self.subTest(r=r), self.assertRaises(ValueError):
                Reg(GPR, 1, "bad", pin=r)


class Frame(unittest.TestCase):
    def test_no_frame_without_callee_saved(self):
        f, _ = P.gpr_pressure(10)
        c = f.finalize()
        self.assertEqual(c.saved, [])
        self.assertFalse([l for l in c.lines if "sp" in l or ".cfi" in l])

    def test_gpr_frame_stp_ldp_cfi(self):
        f, _ = P.gpr_pressure(24)
        c = f.finalize()
        self.assertEqual(c.saved[:2], ["x19", "x20"])
        n = len(c.saved)
        frame = (8 * n + 15) // 16 * 16
        self.assertEqual(c.frame, frame)
        lines = c.lines
        self.assertEqual(lines[0], "\tstp\tx19, x20, [sp, #-%d]!" % frame)
        self.assertEqual(lines[1], "\t.cfi_def_cfa_offset %d" % frame)
        for k, r in enumerate(c.saved):
            self.assertIn("\t.cfi_offset %s, %d" % (r, 8 * k - frame), lines)
            self.assertIn("\t.cfi_restore %s" % r, lines)
        self.assertEqual(lines[-1], "\tret")
        self.assertEqual(lines[-2], "\t.cfi_def_cfa_offset 0")
        self.assertIn("\tldp\tx19, x20, [sp], #%d" % frame, lines)
        # the stores come before the first instruction that writes a saved register
        first_def = min(i for i, l in enumerate(lines) if l.startswith("\tmovz\tx19"))
        last_save = max(i for i, l in enumerate(lines) if l.startswith(("\tstp", "\tstr")))
        self.assertLess(last_save, first_def)

    def test_vector_frame_saves_d_registers(self):
        f, _ = P.vec_pressure(27)
        c = f.finalize()
        self.assertTrue(c.saved and all(s.startswith("d") for s in c.saved), c.saved)
        self.assertIn("\tstp\td8, d9, [sp, #-%d]!" % c.frame, c.lines)
        self.assertIn("\t.cfi_offset 72, -%d" % c.frame, c.lines)   # DWARF 64 + 8 = d8

    @support.needs_qemu
    def test_callee_saved_preserved_and_results_right_under_qemu(self):
        progs = {"gpr24": P.gpr_pressure(24, "lf_t_g24")[0].finalize(),
                 "gpr28": P.gpr_pressure(27, "lf_t_g28")[0].finalize(),
                 "vec30": P.vec_pressure(30, "lf_t_v30")[0].finalize(),
                 "loop": P.loop_carried("lf_t_loopq")[0].finalize()}
        main = r"""
#include <stdint.h>
#include <stdio.h>
uint64_t lf_t_call(void *fn, uint64_t a, uint64_t b, uint64_t *bad);
uint64_t lf_t_g24(void), lf_t_g28(void), lf_t_v30(void);
uint64_t lf_t_loopq(const uint64_t *p, uint64_t n);
int main(void) {
    uint64_t bad, r;
    static const uint64_t arr[5] = {1, 10, 100, 1000, 10000};
    r = lf_t_call((void *)lf_t_g24, 0, 0, &bad); printf("g24 %llu %llu\n", (unsigned long long)r, (unsigned long long)bad);
    r = lf_t_call((void *)lf_t_g28, 0, 0, &bad); printf("g28 %llu %llu\n", (unsigned long long)r, (unsigned long long)bad);
    r = lf_t_call((void *)lf_t_v30, 0, 0, &bad); printf("v30 %llx %llu\n", (unsigned long long)r, (unsigned long long)bad);
    r = lf_t_call((void *)lf_t_loopq, (uint64_t)arr, 5, &bad); printf("loop %llu %llu\n", (unsigned long long)r, (unsigned long long)bad);
    return 0;
}
"""
        sources = {"main.c": main, "tramp.S": support.A64_TRAMPOLINE}
        for name, c in progs.items():
            sources[name + ".S"] = support.asm_file(c.name, c.lines)
        out = support.run_a64(self, sources).split("\n")
        vsum = sum(range(1, 31)) % 256
        self.assertEqual(out[0], "g24 %d 0" % sum(range(1, 25)))
        self.assertEqual(out[1], "g28 %d 0" % sum(range(1, 28)))
        self.assertEqual(out[2], "v30 %x 0" % (vsum * 0x0101010101010101))
        self.assertEqual(out[3], "loop %d 0" % (7 * 5 + 11111))


class Loops(unittest.TestCase):
    def test_value_live_around_back_edge_keeps_its_register(self):
        f, r = P.loop_carried()
        c = f.finalize()
        ph = {k: c.phys[v.vid] for k, v in r.items()}
        # k's last read in program order precedes t's definition; only the back edge keeps k
        # alive, so a linear-scan allocator would hand t the register of k
        self.assertNotEqual(ph["k"], ph["t"])
        self.assertEqual(len(set(ph.values())), 5, ph)
        live_in, live_out = dataflow.liveness(c.stream)
        top = [i for i, n in enumerate(c.stream) if n.pseudo == "label"
               and n.text.endswith("_top")][0]
        back = [i for i, n in enumerate(c.stream) if n.pseudo is None and n.mnem == "b.ne"][0]
        self.assertIn(r["k"].vid, live_in[top])
        self.assertIn(r["k"].vid, live_out[back])     # live across the back edge

    def test_liveness_fixed_point_with_nested_loops(self):
        f = Function("lf_t_nest", [("n", "size_t"), ("m", "size_t")], result="uint64_t")
        n, m = f.arg_regs
        acc, k, j, t = f.gpr("acc"), f.gpr("k"), f.gpr("j"), f.gpr("t")
        f.mov(acc, XZR)
        f.movz(k, 3)
        outer, inner = f.new_label("outer"), f.new_label("inner")
        f.bind(outer)
        f.mov(j, m)
        f.bind(inner)
        f.add(acc, acc, k)                 # k read at the top of the inner loop only
        f.movz(t, 1)                       # t defined after
        f.add(acc, acc, t)
        f.subs(j, j, 1)
        f.b_ne(inner)
        f.subs(n, n, 1)
        f.b_ne(outer)
        f.ret(acc)
        c = f.finalize()
        ph = {x.name: c.phys[x.vid] for x in (n, m, acc, k, j, t)}
        for other in ("n", "m", "acc", "j", "t"):
            self.assertNotEqual(ph["k"], ph[other], ph)
        self.assertNotEqual(ph["m"], ph["t"], ph)     # m is live around the outer back edge


if __name__ == "__main__":
    unittest.main()


class WMoveKept(unittest.TestCase):
    """`mov wN, wN` zero-extends: the identity-move pass must keep it (found by the Check
    suite: bi_mul_add/x64 used k's garbage upper half after `mov w5, w5` was dropped)."""

    def test_w_move_onto_itself_is_kept(self):
        from lfgen.a64.function import Function
        f = Function("lf_t_wmove", [("k", "uint64_t")], result="uint64_t")
        (k,) = f.arg_regs
        kk = f.gpr("kk")
        f.mov(kk.w, k.w)
        f.ret(kk)
        text = f.finalize().text
        self.assertRegex(text, r"\tmov\tw0, w0")
