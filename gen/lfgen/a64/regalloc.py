"""Deterministic register allocation for the AArch64 DSL (interference-graph colouring).

1. liveness over the CFG (`dataflow.liveness`);
2. interference: every register defined by an instruction interferes with every value live
   after it (a `mov d, s` does not make d interfere with s); the two destinations of a load
   pair interfere; a written-back base interferes with the loaded/stored registers;
3. colouring: pinned registers first (ABI arguments and result), then the others in creation
   order; each takes the register of a move partner when it is free, otherwise the first free
   one in `GPR_ORDER`/`VEC_ORDER` (scratch registers before callee-saved ones);
4. no spilling: when nothing is free, generation stops with the values that are live there.
"""

from .. import dataflow
from ..verify import AllocationError
from .regs import GPR, GPR_ORDER, VEC_ORDER, View


def _move_pair(node):
    if node.pseudo is None and node.mnem in ("mov", "mov.v") and len(node.ops) == 2:
        d, s = node.ops
        if isinstance(d, View) and isinstance(s, View) and d.reg.cls == s.reg.cls:
            if d.reg.cls == GPR and d.shape == s.shape == "x":
                return d.reg, s.reg
            if d.reg.cls != GPR and d.shape == s.shape:
                return d.reg, s.reg
    return None


def allocate(stream, live_at_exit=(), limits=None):
    """Return {vid: physical number}. `limits` optionally restricts the pools (tests)."""
    live_in, live_out = dataflow.liveness(stream, live_at_exit)
    regs = {}
    for node in stream:
        for r in list(node.uses()) + list(node.defs()):
            regs[r.vid] = r
    inter = {vid: set() for vid in regs}
    moves = {vid: [] for vid in regs}

    def edge(a, b):
        if a != b and regs[a].cls == regs[b].cls:
            inter[a].add(b)
            inter[b].add(a)

    # values live on entry are defined by the entry pseudo-instruction (arguments)
    for i, node in enumerate(stream):
        pair = _move_pair(node)
        defs = [r.vid for r in node.defs()]
        for d in defs:
            for v in live_out[i]:
                if pair is not None and d == pair[0].vid and v == pair[1].vid:
                    continue
                edge(d, v)
        for a in defs:
            for b in defs:
                edge(a, b)
        m = node.memory() if node.pseudo is None else None
        if m is not None and m.writeback:
            for op in node.ops:
                if isinstance(op, View) and op.reg.cls == GPR:
                    edge(op.reg.vid, m.base.vid)
        if pair is not None:
            moves[pair[0].vid].append(pair[1].vid)
            moves[pair[1].vid].append(pair[0].vid)
    # a value live into the first instruction that is not defined at entry is a bug
    if stream:
        undefined = live_in[0] - {r.vid for r in stream[0].defs()}
        if undefined:
            raise AllocationError("values read before written: %s"
                                  % ", ".join(repr(regs[v]) for v in sorted(undefined)))

    colour = {}
    order = sorted(regs, key=lambda v: (regs[v].pin is None, v))
    for vid in order:
        r = regs[vid]
        pool = (limits or {}).get(r.cls) or (GPR_ORDER if r.cls == GPR else VEC_ORDER)
        taken = {colour[n] for n in inter[vid] if n in colour}
        if r.pin is not None:
            if r.pin in taken:
                other = [regs[n] for n in inter[vid] if colour.get(n) == r.pin]
                raise AllocationError("pinned %r conflicts with %r on register %d"
                                      % (r, other[0], r.pin))
            colour[vid] = r.pin
            continue
        choice = None
        for partner in moves[vid]:
            c = colour.get(partner)
            if c is not None and c not in taken and c in pool:
                choice = c
                break
        if choice is None:
            for c in pool:
                if c not in taken:
                    choice = c
                    break
        if choice is None:
            at = [i for i, node in enumerate(stream) if vid in live_out[i] or
                  vid in {d.vid for d in node.defs()}]
            i = at[0] if at else 0
            live = sorted(live_out[i])
            raise AllocationError(
                "out of %s registers for %r: %d values live at instruction %d (%s): %s"
                % ("general-purpose" if r.cls == GPR else "vector", r, len(live), i, stream[i],
                   ", ".join(repr(regs[v]) for v in live)))
        colour[vid] = choice
    return colour
