"""ir.Prog -> the body of a C function (the portable `ref` of every field kernel).

Values are `const int64_t` or `const lf_i128` (signed __int128) as their proven kind says;
an operation is computed in the widest kind among its operands and result, then narrowed,
which the bounds prove exact.  Left shifts are written as multiplications by 2^k (no
undefined shift of a negative value); right shifts of negative values are arithmetic, as
on every compiler this targets (gcc, clang: documented implementation-defined behaviour).
Selections use a mask hidden from the optimiser (LF_FE_BARRIER), never a branch.
"""

WIDTH = {"i64": 0, "i128": 1}
CTYPE = {"i64": "int64_t", "i128": "lf_i128"}


def const(c, kind):
    if -(1 << 63) <= c < (1 << 63):
        if c == -(1 << 63):
            return "INT64_MIN"
        return ("INT64_C(%d)" % c) if kind == "i64" else "(lf_i128)INT64_C(%d)" % c
    sign = "-" if c < 0 else ""
    m = abs(c)
    return "%s(((lf_i128)UINT64_C(0x%x) << 64) | (lf_i128)UINT64_C(0x%x))" % (
        sign, m >> 64, m & ((1 << 64) - 1))


def body(prog, indent="\t"):
    out = []
    masks = {}

    def w(*vals, dst=None):
        kinds = [v.kind for v in vals] + ([dst.kind] if dst is not None else [])
        return max(kinds, key=WIDTH.get)

    def cast(v, kind):
        return v.name if v.kind == kind else "(%s)%s" % (CTYPE[kind], v.name)

    def mask_of(cond):
        if cond not in masks:
            m = "m_%s" % cond
            out.append("uint64_t %s = (uint64_t)0 - (uint64_t)(uint32_t)(%s & 1);" % (m, cond))
            out.append("LF_FE_BARRIER(%s);" % m)
            masks[cond] = m
        return masks[cond]

    for st in prog.live():
        op, d = st[0], st[1]
        a = st[2:]
        if op == "store":
            out.append("%s[%d] = %s;" % (a[0], a[1], a[2].name))
            continue
        if op == "bytes_out":
            out.extend(_bytes_out(a[0], a[1], a[2]))
            continue
        if op == "load":
            e = "%s[%d]" % (a[0], a[1])
        elif op == "const":
            e = const(a[0], d.kind)
        elif op in ("add", "sub"):
            k = w(a[0], a[1], dst=d)
            e = "%s %s %s" % (cast(a[0], k), "+" if op == "add" else "-", cast(a[1], k))
        elif op == "addc":
            k = w(a[0], dst=d)
            e = "%s + %s" % (cast(a[0], k), const(a[1], k))
            if a[1] < 0:
                e = "%s - %s" % (cast(a[0], k), const(-a[1], k))
        elif op == "mul":
            k = w(a[0], a[1], dst=d)
            e = "%s * %s" % (cast(a[0], k), cast(a[1], k))
        elif op == "mulc":
            k = w(a[0], dst=d)
            e = "%s * %s" % (cast(a[0], k), const(a[1], k))
        elif op == "shl":
            k = w(a[0], dst=d)
            e = "%s * %s" % (cast(a[0], k), const(1 << a[1], k))
        elif op == "sar":
            e = "%s >> %d" % (a[0].name, a[1])
        elif op == "mask":
            e = "%s & %s" % (a[0].name, const((1 << a[1]) - 1, a[0].kind))
        elif op in ("narrow", "assume"):
            e = a[0].name
        elif op == "select":
            m = mask_of(a[0])
            e = "(int64_t)((uint64_t)%s ^ (((uint64_t)%s ^ (uint64_t)%s) & %s))" % (
                a[1].name, a[1].name, a[2].name, m)
        elif op == "selneg":
            s = a[0]
            m = "m_" + d.name
            out.append("uint64_t %s = (uint64_t)(int64_t)(%s >> %d);"
                       % (m, s.name, 127 if s.kind == "i128" else 63))
            out.append("LF_FE_BARRIER(%s);" % m)
            e = "(int64_t)((uint64_t)%s ^ (((uint64_t)%s ^ (uint64_t)%s) & %s))" % (
                a[2].name, a[2].name, a[1].name, m)
        elif op == "bytes_in":
            e = _bytes_in(a[0], a[1], a[2])
        else:
            raise AssertionError(op)
        out.append("const %s %s = (%s)(%s);" % (CTYPE[d.kind], d.name, CTYPE[d.kind], e))
    return "\n".join(indent + l for l in out)


def _bytes_in(arr, f, i):
    lo = f.bits * i
    w = f.top_bits if i == f.limbs - 1 else f.bits
    hi = lo + w                       # bits [lo, hi) of the little-endian input
    parts = []
    for k in range(lo // 8, (hi + 7) // 8):
        sh = 8 * k - lo
        parts.append("((uint64_t)%s[%d] %s %d)" % (arr, k, "<<" if sh >= 0 else ">>", abs(sh)))
    return "(int64_t)((%s) & UINT64_C(0x%x))" % (" | ".join(parts), (1 << w) - 1)


def _bytes_out(arr, f, vals):
    out = []
    for k in range(f.nbytes):
        lo = 8 * k
        parts = []
        for i, v in enumerate(vals):
            a = f.bits * i
            wi = f.top_bits if i == f.limbs - 1 else f.bits
            if a < lo + 8 and lo < a + wi:
                sh = lo - a
                parts.append("((uint64_t)%s %s %d)" % (v.name, ">>" if sh >= 0 else "<<",
                                                         abs(sh)))
        out.append("%s[%d] = (uint8_t)(%s);" % (arr, k, " | ".join(parts)))
    return out
