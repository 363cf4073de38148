"""verify.check_bindings (the allocation verifier, independent of either allocator) catches a
wrong binding -- two live values in one register, or a hidden scratch/implicit write over a
live value -- on synthetic AArch64 streams and through the x86-64 PeachPy adapter."""

import unittest

from peachpy.x86_64 import GeneralPurposeRegister64, MOV, ADD, MUL, rax

from lfgen import verify
from lfgen.a64.insn import Insn, Imm, Label
from lfgen.a64.regs import GPR, Reg
from lfgen.x86 import function as xf


def mk(mnem, *ops):
    return Insn(mnem, [o.x if isinstance(o, Reg) else (Imm(o) if isinstance(o, int) else o)
                       for o in ops])


class A64Streams(unittest.TestCase):
    def setUp(self):
        self.a, self.t, self.u = Reg(GPR, 1, "a"), Reg(GPR, 2, "t"), Reg(GPR, 3, "u")
        entry = Insn(None, [], pseudo="entry")
        entry.implicit_defs = [self.a]
        exit_ = Insn(None, [], pseudo="exit")
        exit_.implicit_uses = [self.t]
        self.stream = [entry,
                       mk("add", self.t, self.a, 1),      # 1
                       mk("add", self.u, self.a, 2),      # 2: t is live here
                       mk("add", self.t, self.t, self.u),  # 3
                       exit_]

    def phys(self, table):
        return lambda r: (r.cls, table[r.vid])

    def test_correct_binding_passes(self):
        verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 2}))
        # u may reuse a's register: a is dead once u is written
        verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 0}))

    def test_two_live_values_in_one_register(self):
        with self.assertRaisesRegex(verify.AllocationError,
                                    r"instruction 2 .* writes gpr:1 while value .*t.* live"):
            verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 1}))

    def test_hidden_scratch_over_a_live_value(self):
        scratch_x1 = lambda node: [("gpr", 1)] if node is self.stream[2] else []
        with self.assertRaisesRegex(verify.AllocationError, "instruction 2"):
            verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 2},),
                                  clobbers_of=scratch_x1)
        # the same scratch over a dead register is fine
        scratch_x5 = lambda node: [("gpr", 5)] if node is self.stream[2] else []
        verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 2}),
                              clobbers_of=scratch_x5)

    def test_scratch_of_other_class_does_not_clash(self):
        vec_scratch = lambda node: [("vec", 1)]
        verify.check_bindings(self.stream, self.phys({1: 0, 2: 1, 3: 2}),
                              clobbers_of=vec_scratch)

    def test_copy_sharing_a_register_is_not_a_clobber(self):
        d = Reg(GPR, 4, "d")
        entry = Insn(None, [], pseudo="entry")
        entry.implicit_defs = [self.a]
        exit_ = Insn(None, [], pseudo="exit")
        exit_.implicit_uses = [self.a, d]            # both live after the copy
        stream = [entry, mk("mov", d, self.a), exit_]
        phys = self.phys({1: 3, 4: 3})
        with self.assertRaises(verify.AllocationError):
            verify.check_bindings(stream, phys)      # without copy knowledge: a clash
        verify.check_bindings(stream, phys, is_copy=lambda n: (
            (4, 1) if n is stream[1] else None))

    def test_live_at_exit_counts(self):
        stream = self.stream[:-1]                     # no exit pseudo: t live via live_at_exit
        bad = self.phys({1: 0, 2: 1, 3: 1})
        verify.check_bindings(stream, self.phys({1: 0, 2: 1, 3: 2}), live_at_exit=[2])
        with self.assertRaises(verify.AllocationError):
            verify.check_bindings(stream, bad, live_at_exit=[2])

    def test_clash_only_visible_around_a_back_edge(self):
        # k is read at the loop top only; t is defined later in the body. Giving both one
        # register is wrong (k is needed again on the next iteration), which linear
        # liveness would miss.
        k, t, n = Reg(GPR, 1, "k"), Reg(GPR, 2, "t"), Reg(GPR, 3, "n")
        acc = Reg(GPR, 4, "acc")
        entry = Insn(None, [], pseudo="entry")
        entry.implicit_defs = [k, n, acc]
        exit_ = Insn(None, [], pseudo="exit")
        exit_.implicit_uses = [acc]
        top = Insn(None, [], pseudo="label", text="top")
        stream = [entry, top,
                  mk("add", acc, acc, k),
                  mk("movz", t, 1),
                  mk("add", acc, acc, t),
                  mk("subs", n, n, 1),
                  mk("b.ne", Label("top")),
                  exit_]
        verify.check_bindings(stream, self.phys({1: 1, 2: 2, 3: 3, 4: 4}))
        with self.assertRaisesRegex(verify.AllocationError, r"instruction 3 .*k"):
            verify.check_bindings(stream, self.phys({1: 1, 2: 1, 3: 3, 4: 4}))


def clash_function(name):
    """keep is live across MUL, which writes RDX:RAX implicitly."""
    f = xf.Function(name, [("a", "uint64_t"), ("b", "uint64_t")], "uint64_t")
    with f:
        a, b = f.load_args()
        keep = GeneralPurposeRegister64()
        MOV(keep, a)
        ADD(keep, 1)
        MOV(rax, b)
        MUL(b)
        ADD(keep, rax)
        f.ret(keep)
    return f, keep


class X86Adapter(unittest.TestCase):
    def test_positive_control(self):
        f, keep = clash_function("lf_t_ok")
        c = f.finalize()
        self.assertIn("\tmulq\t%rsi", c.lines)

    def test_allocation_map_edited_onto_an_implicit_output(self):
        f, keep = clash_function("lf_t_map")
        orig = f._verify

        def corrupt(abif):
            # bind keep to RDX (physical id 2) after PeachPy allocated it
            abif._register_allocators[keep.kind].register_allocations[keep.virtual_id] = 2
            return orig(abif)

        f._verify = corrupt
        with self.assertRaisesRegex(verify.AllocationError, r"MUL .* writes 1:2 while value"):
            f.finalize()

    def test_wrong_phys_of(self):
        f, keep = clash_function("lf_t_phys")
        real = xf.check_bindings
        key = ("v", keep.kind, keep.virtual_id)

        def wrong(stream, phys_of, **kw):
            return real(stream, lambda r: (r.reg.kind, 0) if r.vid == key else phys_of(r), **kw)

        xf.check_bindings = wrong          # keep -> RAX, which MUL and MOV rax, b write
        try:
            with self.assertRaises(verify.AllocationError):
                f.finalize()
        finally:
            xf.check_bindings = real

    def test_argument_register_clobbered_before_it_is_read(self):
        # LOAD.ARGUMENT of b reads RSI; binding a's copy to RSI clobbers b before it is read
        f, keep = clash_function("lf_t_arg")
        orig = f._verify
        a_reg = [x for x in f.pp._instructions if type(x).__name__ == "ARGUMENT"]

        def corrupt(abif):
            allocs = abif._register_allocators
            first = a_reg[0].operands[0]               # the virtual register holding a
            allocs[first.kind].register_allocations[first.virtual_id] = 6   # rsi
            return orig(abif)

        f._verify = corrupt
        with self.assertRaisesRegex(verify.AllocationError,
                                    r"LOAD.ARGUMENT .* writes 1:6 while value rsi"):
            f.finalize()

    def test_mask_of_a_memory_operand_is_a_use(self):
        # PeachPy leaves `{k1}` of `vmovdqu64 %zmm, (%rdi){%k1}` out of input_registers; the
        # adapter counts it, so a value allocated onto k1 while the mask is pending is caught
        from peachpy.x86_64 import ZMMRegister, KRegister, KMOVW, VMOVDQU64, VPADDQ, k1, zword
        f = xf.Function("lf_t_kmem", [("rp", "uint64_t *"), ("ap", "const uint64_t *"),
                                      ("n", "size_t")])
        with f:
            rp, ap, n = f.load_args()
            z, kv = ZMMRegister(), KRegister()
            VMOVDQU64(z, [ap])
            KMOVW(k1, n.as_dword)              # the store mask
            KMOVW(kv, rp.as_dword)             # defined while k1 is still needed
            VPADDQ(z(kv), z, z)
            VMOVDQU64(zword[rp](k1), z)        # reads k1
            f.ret()
        orig = f._verify

        def corrupt(abif):
            abif._register_allocators[kv.kind].register_allocations[kv.virtual_id] = 1
            return orig(abif)

        f._verify = corrupt
        with self.assertRaisesRegex(verify.AllocationError, r"KMOVW .* while value k1"):
            f.finalize()


if __name__ == "__main__":
    unittest.main()
