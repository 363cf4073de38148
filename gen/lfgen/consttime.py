"""Secret independence, checked at generation time: no branch and no address may depend on a
secret (TESTING.md 11: valgrind cannot run AVX-512, but the generator sees every instruction).

Secrets enter through loads: every value loaded from memory is secret unless the kernel
declares the load public (Poly1305: ctx[5], the layout of the powers table). Arguments are
public (pointers, lengths, the pad flag) unless the kernel names them secret
(conditional_assign's `set`). Taint then flows through every instruction from
its register inputs to its register outputs, and through the flags from a flag-writing
instruction to the next reader. Registers are tracked by identity before allocation (the
kernels' virtual registers each hold one kind of value), flow-insensitively and to a fixed
point, so a value carried around a loop counts; the flags follow program order, restarting
at each label (a flag read right after a label would have to be written before it, which
the kernels never rely on).

Refused: a conditional branch on tainted flags or a tainted register (cbz, tbz), and a
memory operand whose base or index is tainted. The adapters give, per instruction:
uses(), defs() (register keys), addr() (registers forming memory addresses), writeback()
(address registers an addressing mode updates: tainted only through addr()), load (a value
comes from memory), public (that load is declared public), reads_flags, writes_flags,
branch_regs() (registers a conditional branch tests), cond (a conditional branch), label.
"""


class SecretDependence(ValueError):
    pass


class Node:
    """Base of the builders' adapters (x86.function._CtNode, a64.function._CtNode): they set
    these attributes per instruction; check() reads them through the methods."""

    label = load = public = cond = reads_flags = writes_flags = False
    _uses = _defs = _addr = _wb = _branch = ()

    def uses(self):
        return self._uses

    def defs(self):
        return self._defs

    def addr(self):
        return self._addr

    def writeback(self):
        return self._wb

    def branch_regs(self):
        return self._branch


class Checked:
    """What both function builders offer (x86.function.Function, a64.function.Function):
    a kernel calls f.secret_independent(...) and the builder's finalize runs check() over its
    instructions, through its own adapter, with `public_loads`."""

    public_loads = None
    secret_args = ()

    def secret_independent(self, public=(), secret=()):
        """Refuse (at finalize) a branch or an address that depends on loaded data, except
        the loads named in `public`: (base register, displacement) of their memory operands.
        `secret`: argument registers (as load_args / arg_regs return them) that hold secrets
        themselves (conditional_assign's `set`); arguments are public otherwise."""
        self.public_loads = [(r, d) for r, d in public]
        self.secret_args = list(secret)


def check(nodes, what, secret=()):
    """`secret`: register keys tainted from the start (secret arguments)."""
    tainted = set(secret)
    changed = True
    while changed:
        changed = False
        flags = False
        for n in nodes:
            if n.label:
                flags = False
                continue
            src = (any(u in tainted for u in n.uses()) or (n.load and not n.public) or
                   (n.reads_flags and flags))
            if n.writes_flags:
                flags = src
            moved = any(a in tainted for a in n.addr())
            for d, t in [(d, src) for d in n.defs()] + [(d, moved) for d in n.writeback()]:
                if t and d not in tainted:
                    tainted.add(d)
                    changed = True
    flags = False
    for n in nodes:
        if n.label:
            flags = False
            continue
        if any(a in tainted for a in n.addr()):
            raise SecretDependence("%s: the address of `%s` depends on secret data" % (what, n))
        if n.cond and ((n.reads_flags and flags) or any(r in tainted for r in n.branch_regs())):
            raise SecretDependence("%s: the branch `%s` depends on secret data" % (what, n))
        src = (any(u in tainted for u in n.uses()) or (n.load and not n.public) or
               (n.reads_flags and flags))
        if n.writes_flags:
            flags = src
    return tainted
