"""The schedule space of one variant, as its Params declare it (kernel.Param).

A candidate is a complete dict of the variant's values.  Loop parameters are enumerated
together (their product: they interact inside one loop body and the model ranks them all);
size parameters one at a time from the current best (coordinate descent: each decides a
threshold on its own sizes, and their product would be large -- bi_mul_add.avx512 has
80640 combinations, its five size parameters 45 single moves)."""

import itertools


def key(values):
    """A stable text key of a candidate: "ahead=1,unroll=8"."""
    return ",".join("%s=%s" % kv for kv in sorted(values.items()))


def loop_params(variant, modelled_only=False):
    """Loop parameters; `modelled_only`: without those the variant says a model cannot judge
    (Variant.unmodelled), for searches ranked by a model alone."""
    return sorted(n for n, p in variant.params.items() if p.kind == "loop" and
                  not (modelled_only and n in variant.unmodelled))


def size_params(variant):
    """Size parameters in declaration order (the order the kernel author gave them)."""
    return [n for n, p in variant.params.items() if p.kind == "size"]


def loop_space(variant, base, modelled_only=False):
    """Every combination of the loop parameters' choices, the rest as in `base`; `base`'s
    own loop values come first, then the others in a fixed order."""
    names = loop_params(variant, modelled_only)
    out = [dict(base)]
    for combo in itertools.product(*(variant.params[n].choices for n in names)):
        c = dict(base, **dict(zip(names, combo)))
        if c != base:
            out.append(c)
    return out


def moves(variant, base, name):
    """`base` with parameter `name` set to each of its other choices."""
    return [dict(base, **{name: c}) for c in variant.params[name].choices if c != base[name]]


def sizes_for(spec, variant, name=None):
    """Where to time: a size parameter's own sizes, else the kernel's typical sizes."""
    if name is not None and variant.params[name].kind == "size":
        return tuple(variant.params[name].sizes)
    return tuple(spec.tune_sizes)


def targets_first(variants, tail_targets):
    """Variants ordered so that a size-dispatch target is tuned before the variants that
    jump to it (their thresholds are measured against its tuned form).  `tail_targets`
    maps a variant name to the names it jumps to."""
    done, out = set(), []

    def visit(v, path):
        if v.name in done:
            return
        if v.name in path:
            raise ValueError("size dispatch cycle through %s" % v.name)
        for t in tail_targets.get(v.name, ()):
            visit(by_name[t], path | {v.name})
        done.add(v.name)
        out.append(v)
    by_name = {v.name: v for v in variants}
    for v in variants:
        visit(v, frozenset())
    return out
