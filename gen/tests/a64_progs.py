"""Small AArch64 functions written with the DSL, shared by the allocator and qemu tests."""

from lfgen.a64.function import Function
from lfgen.a64.insn import post
from lfgen.a64.regs import XZR


def gpr_pressure(k, name="lf_t_gpr_pressure"):
    """uint64_t f(void): k values live at once; returns 1 + 2 + ... + k."""
    f = Function(name, [], result="uint64_t")
    vals = f.gprs(k, "v")
    for i, v in enumerate(vals):
        f.movz(v, i + 1)
    acc = f.gpr("acc")
    f.mov(acc, XZR)
    for v in vals:
        f.add(acc, acc, v)
    f.ret(acc)
    return f, vals


def vec_pressure(k, name="lf_t_vec_pressure"):
    """uint64_t f(void): k vector values live at once (byte lanes i+1); returns lane 0 of the
    sum as a 64-bit value: 0x0101...01 * (1 + ... + k) (mod 256 per byte)."""
    f = Function(name, [], result="uint64_t")
    vals = f.vregs(k, "v")
    for i, v in enumerate(vals):
        f.v_movi(v.b16, i + 1)
    acc = f.vreg("acc")
    f.v_movi(acc.b16, 0)
    for v in vals:
        f.v_add(acc.b16, acc.b16, v.b16)
    r = f.gpr("r")
    f.mov(r, acc.lane("d", 0))
    f.ret(r)
    return f, vals


def loop_carried(name="lf_t_loop"):
    """uint64_t f(const uint64_t *p, size_t n), n >= 1: returns 7n + p[0] + ... + p[n-1].
    `k` is read only at the top of the loop body and `t` is defined after that read, so only
    liveness around the back edge keeps them in different registers."""
    f = Function(name, [("p", "const uint64_t *"), ("n", "size_t")], result="uint64_t")
    p, n = f.arg_regs
    k = f.gpr("k")
    f.movz(k, 7)
    acc = f.gpr("acc")
    f.mov(acc, XZR)
    top = f.new_label("top")
    f.bind(top)
    f.add(acc, acc, k)
    t = f.gpr("t")
    f.ldr(t, post(p, 8))
    f.add(acc, acc, t)
    f.subs(n, n, 1)
    f.b_ne(top)
    f.ret(acc)
    return f, {"k": k, "t": t, "acc": acc, "p": p, "n": n}
