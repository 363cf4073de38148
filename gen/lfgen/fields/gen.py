"""generated/fields/<field>.c and generated/include/lf_fields.h from the field descriptions:
every kernel's C (the portable `ref`), its proven bounds in the header comment, and the
formulas (ladder step, inversion) with the carries the bounds required."""

from . import bounds, c_emit, formula, safegcd
from .desc import FIELDS
from ..kernels.fe_field import DISPATCHED

PTRS = "lf_fe_mul_fn mul, lf_fe_square_fn sqr, "

# (op, C parameters, what it computes, contract attribute or None)
OPS = [
    ("mul", "int64_t *r, const int64_t *a, const int64_t *b", "r = a b mod p"),
    ("square", "int64_t *r, const int64_t *a", "r = a^2 mod p"),
    ("add", "int64_t *r, const int64_t *a, const int64_t *b",
     "r = a + b, limb by limb (lazy: no carry)"),
    ("sub", "int64_t *r, const int64_t *a, const int64_t *b", None),
    ("neg", "int64_t *r, const int64_t *a", None),
    ("carry_reduce", "int64_t *r, const int64_t *a",
     "r = a mod p, canonical: value in [0, p), every limb a digit in [0, 2^bits)"),
    ("conditional_swap", "int swap, int64_t *a, int64_t *b",
     "(a, b) = swap ? (b, a) : (a, b), constant time, swap in {0, 1}"),
    ("conditional_assign", "int set, int64_t *a, const int64_t *b",
     "a = set ? b : a, constant time, set in {0, 1} (JDK conditionalAssign)"),
    ("encode", "uint8_t *out, const int64_t *a",
     "out = a mod p as little-endian bytes, canonical"),
    ("decode", "int64_t *r, const uint8_t *in",
     "r = the little-endian bytes in, bits at or above 2^power ignored (not reduced mod p)"),
]
# the halves of carry_reduce and encode: static, not exported
HALVES = [
    ("carry", "int64_t *r, const int64_t *a",
     "r = a mod p with limbs back within R (the JDK's reduce(): a weak reduction)"),
    ("canon", "int64_t *r, const int64_t *a",
     "r = a mod p as canonical digits, a weakly reduced (carry_reduce's second half)"),
    ("pack", "uint8_t *out, const int64_t *a",
     "out = the canonical digits a as little-endian bytes (encode's last step)"),
]
INTERNAL = ("canon", "pack")
CURVE_OPS = [
    ("mul_small", "int64_t *r, const int64_t *a", "r = a a24 mod p"),
]


def field_context(f):
    c = bounds.contract(f)
    n = f.limbs
    arr = "int64_t[%d]" % n
    contracts = {
        "mul": ("a, b within M", c.mul[1]),
        "square": ("a within M", c.square[1]),
        "add": ("a, b within A (half of L)", c.add[1]),
        "sub": (("a within [0, L's top - kp] limb by limb, b within S" if c.kp
                 else "a, b within A (half of L; the JDK layouts have no S: sub and neg take A)"),
                c.sub[1]),
        "neg": (("a within S" if c.kp else "a within A"), c.neg[1]),
        "carry": ("a within L", c.carry[1]),
        "carry_reduce": ("a within L", c.carry_reduce[1]),
        "canon": ("a within carry's output bound", c.canon[1]),
        "pack": ("canonical digits", None),
        "conditional_swap": ("any limbs", None),
        "conditional_assign": ("any limbs", None),
        "encode": ("a within L", None),
        "decode": ("%d bytes" % f.nbytes, c.decode[1]),
        "mul_small": ("a within M", getattr(c, "mul_small", (None, None))[1]),
    }
    what = {"sub": "r = a - b mod p, limb by limb" + (" plus kp (a multiple of p), so limbs "
                                                      "stay non-negative" if c.kp else ""),
            "neg": "r = -a mod p, limb by limb" + (" as kp - a" if c.kp else "")}
    # carry_reduce and encode are compositions of proven halves (bounds.py), not programs
    composed = {
        "carry_reduce": "\tint64_t t[%d];\n\tfe_carry(t, a);\n\tfe_canon(r, t);" % n,
        "encode": "\tint64_t t[%d];\n\tfe_carry(t, a);\n\tfe_canon(t, t);\n\tfe_pack(out, t);" % n,
    }
    funcs = []
    for op, params, text in HALVES + OPS + (CURVE_OPS if f.a24 else []):
        pre, out = contracts[op]
        body = composed[op] if op in composed else c_emit.body(getattr(c, op)[0])
        funcs.append(dict(op=op, params=params, what=text or what[op],
                          pre=pre, post=bounds.text(out) if out else None,
                          body=body, args=_args(params), internal=op in INTERNAL,
                          kernel=(f.name, op) in DISPATCHED))
    wide = f.bits > 32
    if wide:      # signed __int128: Bernstein-Yang divsteps (safegcd.py), not Fermat's chain
        funcs.append(dict(op="invert", params="int64_t *r, const int64_t *a",
                          what=safegcd.WHAT, pre="a within L", post=bounds.text(c.canon[1]),
                          body=safegcd.body(f), args="r, a", internal=False, kernel=False))
    formulas = []
    if f.a24:
        F = formula.ladder_step(f, c)
        formulas.append(dict(name="ladder_step", F=F,
                             params=PTRS + "int64_t *x2, int64_t *z2, int64_t *x3, "
                                    "int64_t *z3, const int64_t *x1",
                             doc=formula.ladder_step.__doc__, ret=None))
    if not wide:
        F = formula.invert(f, c)
        formulas.append(dict(name="invert", F=F, params=PTRS + "int64_t *r, const int64_t *a",
                             doc=formula.invert.__doc__, ret="r"))
    for fm in formulas:
        fm["args"] = _args(fm["params"])
        fm["params_plain"] = fm["params"][len(PTRS):]
        fm["args_plain"] = _args(fm["params_plain"])
        fm["decl"] = ", ".join("%s[%d]" % (t, n) for t in fm["F"].temps)
        fm["doc_c"] = "\n * ".join(l.strip() for l in fm["doc"].strip().splitlines())
    return dict(f=f, c=c, funcs=funcs, formulas=formulas, n=n, arr=arr,
                R=bounds.text(c.R), M=bounds.text(c.M), L=bounds.text(c.L),
                A=bounds.text(c.add_in), S=bounds.text(c.sub_in[1]) if c.kp else None,
                kp=c.kp, kp_exp=getattr(c, "kp_exp", None), wide=wide,
                m_limb=min(min(hi, -lo if f.signed else hi) for lo, hi in c.M))


def _args(params):
    return ", ".join(p.split()[-1].lstrip("*") for p in params.split(","))


def generate(env, render):
    """{relpath: text} for every field, plus lf_fields.h; and the exported symbols."""
    files, syms, ctxs = {}, [], []
    for f in FIELDS:
        ctx = field_context(f)
        ctxs.append(ctx)
        files["generated/fields/%s.c" % f.name] = render(env, "c/field.c.j2", **ctx)
        for fn in [g for g in ctx["funcs"] if not g["internal"]] + \
                [dict(op=fm["name"]) for fm in ctx["formulas"]]:
            syms.append("lf_fe_%s_%s" % (f.name, fn["op"]))   # the kernels' _ref: symbols.py
        syms += ["lf_fe_%s_%s_with" % (f.name, fm["name"]) for fm in ctx["formulas"]]
    files["generated/include/lf_fields.h"] = render(env, "c/lf_fields.h.j2", fields=ctxs)
    return files, syms
