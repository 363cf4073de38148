"""The wide fields' inversion: Bernstein-Yang divsteps (runtime/lf_safegcd.h), instantiated
per field with the constants derived here from the modulus.

    n62      signed-62 limbs holding +-2p with a sign: 62 n62 >= power + 2
    batches  batches of 60 half-delta divsteps covering floor((3787 d + 2166) / 1644) for
             p < 2^d (P. Wuille, safegcd-bounds: computed by convex hulls in exact
             arithmetic, checked for every M <= 2^3805, M >= 4257874; the paper's divstep,
             "Fast constant-time gcd computation and modular inversion" Theorem 11.2, needs
             floor((49 d + 57) / 17), about 25% more)
    pinv62   p^-1 mod 2^62
"""

LF_SG_MAX = 9          # runtime/lf_safegcd.h's LF_SG_MAX: 9 x 62 bits hold P-521's 2p and a sign

WHAT = ("r = 1/a mod p (0 for a = 0 mod p), canonical digits, by Bernstein-Yang\n"
        " *   divsteps (runtime/lf_safegcd.h), constant time")


def hddivsteps_bound(d):
    """half-delta divsteps that take every (f, g) with 0 <= g <= f < 2^d to g = 0"""
    assert d >= 24                      # p >= 2^23 > 4257874, where the formula holds
    return (3787 * d + 2166) // 1644


def constants(f):
    d = f.p.bit_length()
    if d < 46 or f.p % 2 == 0:
        raise ValueError("%s: divsteps need an odd p of at least 46 bits" % f.name)
    n62 = -(-(f.power + 2) // 62)
    if n62 > LF_SG_MAX:
        raise ValueError("%s: %d signed-62 limbs needed, runtime/lf_safegcd.h holds %d"
                         % (f.name, n62, LF_SG_MAX))
    steps = hddivsteps_bound(d)
    batches = -(-steps // 60)
    limbs = [(f.p >> (62 * i)) & ((1 << 62) - 1) for i in range(n62)]
    assert sum(l << (62 * i) for i, l in enumerate(limbs)) == f.p
    return n62, steps, batches, limbs, pow(f.p, -1, 1 << 62)


def body(f):
    """invert's C: canonical digits, signed-62, divsteps, back to digits; temporaries wiped"""
    n62, steps, batches, limbs, pinv = constants(f)
    n = f.limbs
    return "\n".join([
        "\t/* p in signed-62 limbs; %d batches x 60 >= %d half-delta divsteps (p < 2^%d) */"
        % (batches, steps, f.p.bit_length()),
        "\tstatic const int64_t p62[%d] = {" % n62]
        + ["\t\t" + ", ".join("INT64_C(0x%x)" % l for l in limbs[i:i + 3]) + ","
           for i in range(0, n62, 3)]
        + ["\t};",
        "\tint64_t t[%d], s[%d];" % (n, n62),
        "\tfe_carry(t, a);",
        "\tfe_canon(t, t);",
        "\tlf_sg_from_digits(%d, s, %d, %d, t);" % (n62, n, f.bits),
        "\tlf_sg_inverse(%d, %d, s, p62, UINT64_C(0x%x));" % (n62, batches, pinv),
        "\tlf_sg_to_digits(%d, %d, r, %d, s);" % (n, f.bits, n62),
        "\tlf_wipe(t, sizeof t);",
        "\tlf_wipe(s, sizeof s);",
    ])
