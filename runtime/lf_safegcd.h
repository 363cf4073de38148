/*
 * lf_safegcd.h -- constant-time modular inversion by Bernstein-Yang divsteps ("Fast
 * constant-time gcd computation and modular inversion", TCHES 2019, §§8-11), for the wide EC
 * fields' invert kernels (generated/fields/<field>.c instantiates it with its modulus).
 * Internal: static inline, every size a constant at the call so the compiler unrolls.
 *
 * Numbers are "signed-62": int64_t[n], value = sum s_i 2^(62 i), limbs 0..n-2 in [0, 2^62),
 * the top limb signed.  Needs signed __int128 (LF_FE_WIDE).
 *
 * Algorithm.  The half-delta divstep ("hddivstep") of P. Wuille's safegcd-bounds
 * (github.com/sipa/safegcd-bounds, as libsecp256k1's modinv64 runs it), f odd:
 *     delta > 0 and g odd:  (2 - delta, g, (g - f)/2)
 *     g odd:                (2 + delta, f, (g + f)/2)
 *     else:                 (2 + delta, f, g/2)
 * -- the paper's divstep started from delta = 1/2, with delta doubled.  From (1, p, a),
 * ceil(m/60) batches of 60 reach g = 0, f = +-gcd(p, a) = +-1 for every a in [0, p) once
 * m >= floor((3787 d + 2166) / 1644) with p < 2^d (safegcd-bounds: the bound computed by
 * convex hulls in exact arithmetic and checked for every M <= 2^3805, M >= 4257874), about
 * 20% fewer than the paper's floor((49 d + 57) / 17) for its divstep (Theorem 11.2): 591
 * instead of 741 for 256 bits.  The generator computes m per field.  A batch runs 60
 * divsteps on the low words of f and g only (two halves of 30, lf_sg_divsteps_30),
 * collecting the transition matrix T = [u v; q r] scaled by 2^62 (2^62 [f'; g'] = T [f; g],
 * with |u| + |v| <= 2^62 and |q| + |r| <= 2^62: the 60-step matrix times 4), delta carried
 * from batch to batch, then applies T to the full f, g (exact division
 * by 2^62) and to d, e with d a = f, e a = g (mod p), starting from d = 0, e = 1: d' = (u d +
 * v e + md p) / 2^62 with md = -(u d + v e) p^-1 mod 2^62 chosen so that d, e stay in
 * (-2p, p) (md starts from u, v for the negative inputs).  At the end 1/a = d f mod p,
 * normalised to [0, p).  a = 0 gives f = p, d = 0: the result is 0, as a^(p-2) is.
 *
 * Constant time: the batch count, every loop bound and every address are public; the
 * divsteps' choices are masks (no branch on f, g, delta).
 */
#ifndef LF_SAFEGCD_H
#define LF_SAFEGCD_H

#include <stdint.h>

#include "lf_dispatch.h"        /* lf_wipe */

#if defined(__GNUC__)
#  define LF_SG_INLINE static inline __attribute__((always_inline))
#else
#  define LF_SG_INLINE static inline
#endif

#define LF_SG_M62 (UINT64_MAX >> 2)
#define LF_SG_MAX 9             /* limbs: 9 x 62 = 558 bits hold P-521's 2p with a sign */

__extension__ typedef __int128 lf_sg_i128;
__extension__ typedef unsigned __int128 lf_sg_u128;

struct lf_sg_trans {
	int64_t u, v, q, r;
};

/* 30 divsteps on the low bits of f (odd) and g, which advance; returns z = -delta and the
 * transition matrix packed: u + 2^32 v, q + 2^32 r (each entry within [-2^30, 2^30]).
 * Each step: c1 = (delta > 0), c2 = (g odd), cond = c1 c2; g = (g + x c2) / 2 with x = -+f
 * (-f when c1); when cond, f and the f row take g's and delta = 2 - delta (z = ~z - 1),
 * else delta = 2 + delta (z = z - 2); the next c1 is z's sign (after a swap delta = 1 stays
 * positive, so it cannot be chosen before cond is known as with the paper's divstep; that
 * costs 2% a batch, the 20% fewer batches pay for it). */
LF_SG_INLINE int64_t lf_sg_divsteps_30(int64_t z, uint64_t *fp, uint64_t *gp, uint64_t *fu,
                                       uint64_t *gq)
{
	uint64_t f = *fp, g = *gp, FU = 1, GQ = (uint64_t)1 << 32;
	uint64_t c1 = (uint64_t)(z >> 63);                    /* delta > 0 */
	for (int i = 0; i < 30; i++) {
		uint64_t c2 = -(g & 1);                       /* g odd */
		uint64_t cond = c1 & c2;
		uint64_t x = (f ^ c1) - c1, y = (FU ^ c1) - c1;
		uint64_t ng = g + (x & c2), nq = GQ + (y & c2);
		uint64_t zn = (uint64_t)z - 2, za = zn ^ (~(uint64_t)z - 1);
		f ^= (f ^ g) & cond;
		FU ^= (FU ^ GQ) & cond;
		z = (int64_t)(zn ^ (za & cond));              /* cond ? ~z - 1 : z - 2 */
		c1 = (uint64_t)(z >> 63);
		g = ng >> 1;                                  /* g / 2: the f row doubles */
		GQ = nq;
		FU <<= 1;
	}
	*fp = f;
	*gp = g;
	*fu = FU;
	*gq = GQ;
	return z;
}

LF_SG_INLINE void lf_sg_unpack(uint64_t w, int64_t *lo, int64_t *hi)
{
	*lo = (int64_t)(w << 32) >> 32;
	*hi = (int64_t)(w - (uint64_t)*lo) >> 32;
}

/* 60 divsteps on the low words of f (odd) and g; T scaled by 2^62 (4 T60), |u| + |v| <=
 * 2^62, |q| + |r| <= 2^62; returns z */
LF_SG_INLINE int64_t lf_sg_divsteps_60(int64_t z, uint64_t f, uint64_t g, struct lf_sg_trans *t)
{
	uint64_t fu, gq;
	int64_t u1, v1, q1, r1, u2, v2, q2, r2;
	z = lf_sg_divsteps_30(z, &f, &g, &fu, &gq);
	lf_sg_unpack(fu, &u1, &v1);
	lf_sg_unpack(gq, &q1, &r1);
	z = lf_sg_divsteps_30(z, &f, &g, &fu, &gq);
	lf_sg_unpack(fu, &u2, &v2);
	lf_sg_unpack(gq, &q2, &r2);
	t->u = 4 * (u2 * u1 + v2 * q1);
	t->v = 4 * (u2 * v1 + v2 * r1);
	t->q = 4 * (q2 * u1 + r2 * q1);
	t->r = 4 * (q2 * v1 + r2 * r1);
	return z;
}

/* [f; g] = T [f; g] / 2^62, exact */
LF_SG_INLINE void lf_sg_update_fg(unsigned n, int64_t *f, int64_t *g, const struct lf_sg_trans *t)
{
	lf_sg_i128 cf = (lf_sg_i128)t->u * f[0] + (lf_sg_i128)t->v * g[0];
	lf_sg_i128 cg = (lf_sg_i128)t->q * f[0] + (lf_sg_i128)t->r * g[0];
	cf >>= 62;
	cg >>= 62;
	for (unsigned i = 1; i < n; i++) {
		cf += (lf_sg_i128)t->u * f[i] + (lf_sg_i128)t->v * g[i];
		cg += (lf_sg_i128)t->q * f[i] + (lf_sg_i128)t->r * g[i];
		f[i - 1] = (int64_t)((uint64_t)cf & LF_SG_M62);
		g[i - 1] = (int64_t)((uint64_t)cg & LF_SG_M62);
		cf >>= 62;
		cg >>= 62;
	}
	f[n - 1] = (int64_t)cf;
	g[n - 1] = (int64_t)cg;
}

/* [d; e] = (T [d; e] + [md; me] p) / 2^62, d and e in (-2p, p) before and after */
LF_SG_INLINE void lf_sg_update_de(unsigned n, int64_t *d, int64_t *e, const struct lf_sg_trans *t,
                                  const int64_t *p, uint64_t pinv62)
{
	int64_t sd = d[n - 1] >> 63, se = e[n - 1] >> 63;
	int64_t md = (t->u & sd) + (t->v & se), me = (t->q & sd) + (t->r & se);
	lf_sg_i128 cd = (lf_sg_i128)t->u * d[0] + (lf_sg_i128)t->v * e[0];
	lf_sg_i128 ce = (lf_sg_i128)t->q * d[0] + (lf_sg_i128)t->r * e[0];
	md -= (int64_t)((pinv62 * (uint64_t)cd + (uint64_t)md) & LF_SG_M62);
	me -= (int64_t)((pinv62 * (uint64_t)ce + (uint64_t)me) & LF_SG_M62);
	cd += (lf_sg_i128)p[0] * md;
	ce += (lf_sg_i128)p[0] * me;
	cd >>= 62;
	ce >>= 62;
	for (unsigned i = 1; i < n; i++) {
		cd += (lf_sg_i128)t->u * d[i] + (lf_sg_i128)t->v * e[i] + (lf_sg_i128)p[i] * md;
		ce += (lf_sg_i128)t->q * d[i] + (lf_sg_i128)t->r * e[i] + (lf_sg_i128)p[i] * me;
		d[i - 1] = (int64_t)((uint64_t)cd & LF_SG_M62);
		e[i - 1] = (int64_t)((uint64_t)ce & LF_SG_M62);
		cd >>= 62;
		ce >>= 62;
	}
	d[n - 1] = (int64_t)cd;
	e[n - 1] = (int64_t)ce;
}

/* x += k p, k in {-1, 0, 1}; limbs back in [0, 2^62) below the signed top */
LF_SG_INLINE void lf_sg_add_p(unsigned n, int64_t *x, const int64_t *p, int64_t k)
{
	int64_t c = 0;
	for (unsigned i = 0; i < n - 1; i++) {
		c += x[i] + k * p[i];
		x[i] = (int64_t)((uint64_t)c & LF_SG_M62);
		c >>= 62;
	}
	x[n - 1] += c + k * p[n - 1];
}

/* x = 1/x mod p (0 for x = 0): x in [0, p) in, [0, p) out; p odd, n limbs, batches x 60
 * divsteps enough for p's size (see above); pinv62 = p^-1 mod 2^62.  Returns -delta after
 * the last divstep (the callers ignore it; tests/test_fields.c checks the walk of delta from
 * 1 through every batch against the definition). */
LF_SG_INLINE int64_t lf_sg_inverse(unsigned n, unsigned batches, int64_t *x, const int64_t *p,
                                   uint64_t pinv62)
{
	int64_t w[4][LF_SG_MAX];
	int64_t *f = w[0], *g = w[1], *d = w[2], *e = w[3];
	int64_t z = -1;                                   /* delta = 1 (1/2 doubled) */
	struct lf_sg_trans t;

	for (unsigned i = 0; i < n; i++) {
		f[i] = p[i];
		g[i] = x[i];
		d[i] = 0;
		e[i] = i == 0;
	}
	for (unsigned b = 0; b < batches; b++) {
		z = lf_sg_divsteps_60(z, (uint64_t)f[0], (uint64_t)g[0], &t);
		lf_sg_update_de(n, d, e, &t, p, pinv62);
		lf_sg_update_fg(n, f, g, &t);
	}
	/* f = +-1: d f in (-2p, 2p); + p twice if negative, - p, + p back if negative */
	int64_t neg = f[n - 1] >> 63;
	for (unsigned i = 0; i < n; i++)
		d[i] = (d[i] ^ neg) - neg;
	lf_sg_add_p(n, d, p, 0);
	lf_sg_add_p(n, d, p, -(d[n - 1] >> 63));
	lf_sg_add_p(n, d, p, -(d[n - 1] >> 63));
	lf_sg_add_p(n, d, p, -1);
	lf_sg_add_p(n, d, p, -(d[n - 1] >> 63));
	for (unsigned i = 0; i < n; i++)
		x[i] = d[i];
	lf_wipe(w, sizeof w);
	return z;
}

/* s (n62 signed-62 limbs) = the non-negative digits d (nd of `bits` bits, value < 2^(62 n62)) */
LF_SG_INLINE void lf_sg_from_digits(unsigned n62, int64_t *s, unsigned nd, unsigned bits,
                                    const int64_t *d)
{
	lf_sg_u128 acc = 0;
	unsigned have = 0, j = 0;
	for (unsigned i = 0; i < nd; i++) {
		acc |= (lf_sg_u128)(uint64_t)d[i] << have;
		have += bits;
		while (have >= 62 && j < n62 - 1) {
			s[j++] = (int64_t)((uint64_t)acc & LF_SG_M62);
			acc >>= 62;
			have -= 62;
		}
	}
	s[j++] = (int64_t)(uint64_t)acc;
	while (j < n62)
		s[j++] = 0;
}

/* d (nd digits of `bits` bits) = s, non-negative signed-62 with limbs in [0, 2^62) */
LF_SG_INLINE void lf_sg_to_digits(unsigned nd, unsigned bits, int64_t *d, unsigned n62,
                                  const int64_t *s)
{
	lf_sg_u128 acc = 0;
	unsigned have = 0, j = 0;
	const uint64_t m = UINT64_MAX >> (64 - bits);
	for (unsigned i = 0; i < n62; i++) {
		acc |= (lf_sg_u128)(uint64_t)s[i] << have;
		have += 62;
		while (have >= bits && j < nd - 1) {
			d[j++] = (int64_t)((uint64_t)acc & m);
			acc >>= bits;
			have -= bits;
		}
	}
	d[j++] = (int64_t)(uint64_t)acc;
	while (j < nd)
		d[j++] = 0;
}

#endif /* LF_SAFEGCD_H */
