"""Control-flow graph and liveness over a linear instruction stream (any target).

The stream is a list of nodes that answer `uses()`, `defs()` (register objects with a `vid`),
`is_branch`, `is_conditional`, `is_ret`, `target` (label name) and `pseudo == "label"` with
`text` = the label name. Liveness is the textbook backward data-flow problem, iterated to a
fixed point, so loop-carried values stay live around back edges.
"""


def successors(stream):
    """For every node index, the list of successor indices."""
    labels = {n.text: i for i, n in enumerate(stream) if getattr(n, "pseudo", None) == "label"}
    succ = []
    last = len(stream) - 1
    for i, n in enumerate(stream):
        s = []
        if getattr(n, "is_ret", False):
            pass
        elif getattr(n, "is_branch", False):
            tgt = n.target
            if tgt not in labels:
                raise ValueError("branch to undefined label %r" % tgt)
            s.append(labels[tgt])
            if n.is_conditional and i < last:
                s.append(i + 1)
        elif i < last:
            s.append(i + 1)
        succ.append(s)
    return succ


def liveness(stream, live_at_exit=()):
    """Return (live_in, live_out): per node, the frozenset of vids live before/after it."""
    succ = successors(stream)
    n = len(stream)
    uses = [frozenset(r.vid for r in node.uses()) for node in stream]
    defs = [frozenset(r.vid for r in node.defs()) for node in stream]
    live_in = [frozenset()] * n
    live_out = [frozenset()] * n
    exit_set = frozenset(live_at_exit)
    changed = True
    while changed:
        changed = False
        for i in range(n - 1, -1, -1):
            out = set()
            if not succ[i]:
                out |= exit_set
            for s in succ[i]:
                out |= live_in[s]
            out = frozenset(out)
            inn = uses[i] | (out - defs[i])
            if out != live_out[i] or inn != live_in[i]:
                live_out[i], live_in[i] = out, inn
                changed = True
    return live_in, live_out


def reachable(stream):
    succ = successors(stream)
    seen = set()
    work = [0] if stream else []
    while work:
        i = work.pop()
        if i in seen:
            continue
        seen.add(i)
        work.extend(succ[i])
    return seen
