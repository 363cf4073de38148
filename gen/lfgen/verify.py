"""Allocation verifier, independent of the allocator that produced the binding.

After registers are bound, walk the stream with virtual-register liveness and fail generation
when an instruction writes a physical register (explicitly, or as a hidden scratch/implicit
operand such as RDX:RAX of MUL) while another value bound to that register is still live after
it. A `mov d, s` that lands d and s in one register is not a clobber (same value).
"""

from . import dataflow


class AllocationError(Exception):
    pass


def check_bindings(stream, phys_of, clobbers_of=None, is_copy=None, live_at_exit=(),
                   describe=repr):
    """phys_of(reg) -> (class, number); clobbers_of(node) -> iterable of (class, number)
    written by the node beyond its virtual defs; is_copy(node) -> (dst_vid, src_vid) or None."""
    _, live_out = dataflow.liveness(stream, live_at_exit)
    regs = {}
    for node in stream:
        for r in list(node.uses()) + list(node.defs()):
            regs[r.vid] = r
    for i, node in enumerate(stream):
        written = {}
        for d in node.defs():
            written[phys_of(d)] = d.vid
        for p in (clobbers_of(node) if clobbers_of else ()):
            written.setdefault(p, None)
        copy = is_copy(node) if is_copy else None
        for vid in live_out[i]:
            p = phys_of(regs[vid])
            if p in written and written[p] != vid:
                if copy is not None and copy == (written[p], vid):
                    continue
                raise AllocationError(
                    "instruction %d (%s) writes %s:%s while value %s bound to it is still live"
                    % (i, describe(node), p[0], p[1], describe(regs[vid])))
