/*
 * karatsuba.c -- subquadratic layer of lf_mpn_mul and lf_mpn_sqr over the dispatched
 * schoolbook kernels (mpn_mul, mpn_sqr).
 *
 *   void lf_mpn_mul_kara(uint64_t *rp, const uint64_t *ap, size_t an,
 *                        const uint64_t *bp, size_t bn);      an >= bn >= 1
 *   void lf_mpn_sqr_kara(uint64_t *rp, const uint64_t *ap, size_t n);   n >= 1
 *
 * Operation: {rp, an+bn} = {ap,an} * {bp,bn} ({rp,2n} = {ap,n}^2): GMP's mpn_mul / mpn_sqr,
 * 64-bit limbs, little-endian limb order.  rp must not overlap the inputs (GMP's rule).
 *
 * Algorithm (Karatsuba 1962, in the subtractive form of GMP's mpn_toom22_mul): with
 * h = ceil(an/2), a = a1 B^h + a0, b = b1 B^h + b0 (B = 2^64),
 *
 *     a b = z0 + (z0 + z2 - s |a0 - a1| |b0 - b1|) B^h + z2 B^2h,
 *     z0 = a0 b0, z2 = a1 b1, s = sign(a0 - a1) sign(b0 - b1)
 *
 * (squaring: s = +1 always).  z0 and z2 go straight into rp; the middle term is built in
 * scratch and added at B^h.  From LF_TOOM3_MIN limbs (LF_TOOM3_SQR_MIN for squares; over every
 * kernel build but the IFMA ones: adx, a64, ref -- the thresholds were measured over adx) a
 * balanced product is split in three instead (Toom-3, toom3_mul below):
 * five products of about n/3 limbs where Karatsuba makes three of n/2.  The linear passes
 * (add_n, sub_n) run four limbs per iteration.  Against GMP 6.2.1 with IFMA masked (make
 * bench, lf_mpn_mul / lf_mpn_sqr, 2026-11-30 23:19 UTC, two runs, beside the build of the
 * morning: Karatsuba alone, one limb per iteration): mul 1.08x at 128 limbs (1.00x), 0.97-1.01x
 * at 256 (0.89-0.90x), 1.04-1.05x at 300 (0.85-0.86x), 0.94-0.95x at 512 (0.79-0.80x),
 * 0.89x at 1024 (0.72x); sqr 1.00-1.15x at 512 (0.87-1.00x), 0.90-0.97x at 1024
 * (0.81-0.85x).  Toom-3 from 200 or 300 limbs, or squares from 250 or 350, measured the
 * same or worse at 200..384 limbs.  Operands below LF_KARA_MIN limbs (the smaller one, for mul) go to
 * the kernel; unbalanced operands (bn <= h) are cut into bn-limb blocks of a.  Scratch comes
 * from one allocation per call; if malloc fails, the product is computed by the kernel alone
 * (same result, quadratic time): there is no error.
 *
 * Scratch: LF_KARA_SCRATCH(an) limbs from one allocation per call.
 *
 * Thresholds: LF_KARA_MIN = 40 limbs for mul and LF_KARA_SQR_MIN = 48 for sqr, measured against
 * the adx kernels on the development host (make bench, lf_mpn_mul / lf_mpn_sqr rows); with the
 * IFMA squaring kernel dispatched, squares go to Karatsuba only from LF_KARA_SQR_IFMA_MIN
 * (257) limbs, above that kernel's IFMA range; with the IFMA mpn_mul, products from
 * LF_KARA_MUL_IFMA_MIN (129, the smaller operand), above its range too (Karatsuba over its
 * halves measured 0.9x the kernel alone at 100 and 128 limbs), and below that a longer than
 * LF_KARA_IFMA_MUL_AN (128) goes in blocks of 128 limbs when bn >= LF_KARA_IFMA_BLOCK_BN
 * (16), so the kernel stays on its IFMA path.  Not
 * constant time (neither is the schoolbook: limb counts steer it, values do not -- but the
 * signs of a0 - a1 and b0 - b1 steer which operand is subtracted from which).  Source: A.
 * Karatsuba, Yu. Ofman, Dokl. Akad. Nauk SSSR 145 (1962); GMP mpn/generic/toom22_mul.c's
 * structure (read, not copied).
 */
#include <stdlib.h>
#include <string.h>

#include "lf_dispatch.h"
#include "lf_karatsuba.h"

typedef unsigned __int128 u128;

#if defined(__x86_64__)
/* ADC / SBB loops, four limbs per iteration after n mod 4 single ones (LEA and DEC leave CF
 * alone; gcc's _addcarry_u64 loops round-trip CF through SETC).  {r,n} = {a,n} op {b,n},
 * n >= 0 (r may be a or b); returns the carry (borrow) out. */
#define CARRY_LOOP(name, insn)                                                              \
	static uint64_t name(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)   \
	{                                                                                   \
		uint64_t t, u, c = 0;                                                       \
		size_t q = n >> 2, m = n & 3;                                               \
		if (!n)                                                                     \
			return 0;                                                           \
		__asm__ volatile("clc\n\t"                                                  \
		                 "testq %[m], %[m]\n\t"        /* CF = 0 stays */           \
		                 "jz 2f\n"                                                   \
		                 "1:\n\t"                                                    \
		                 "movq (%[a]), %[t]\n\t"                                     \
		                 insn " (%[b]), %[t]\n\t"                                    \
		                 "movq %[t], (%[r])\n\t"                                     \
		                 "leaq 8(%[a]), %[a]\n\t"                                    \
		                 "leaq 8(%[b]), %[b]\n\t"                                    \
		                 "leaq 8(%[r]), %[r]\n\t"                                    \
		                 "decq %[m]\n\t"                                             \
		                 "jnz 1b\n"                                                  \
		                 "2:\n\t"                                                    \
		                 "jrcxz 4f\n"                                                \
		                 "3:\n\t"                                                    \
		                 "movq (%[a]), %[t]\n\t"                                     \
		                 "movq 8(%[a]), %[u]\n\t"                                    \
		                 insn " (%[b]), %[t]\n\t"                                    \
		                 insn " 8(%[b]), %[u]\n\t"                                   \
		                 "movq %[t], (%[r])\n\t"                                     \
		                 "movq %[u], 8(%[r])\n\t"                                    \
		                 "movq 16(%[a]), %[t]\n\t"                                   \
		                 "movq 24(%[a]), %[u]\n\t"                                   \
		                 insn " 16(%[b]), %[t]\n\t"                                  \
		                 insn " 24(%[b]), %[u]\n\t"                                  \
		                 "movq %[t], 16(%[r])\n\t"                                   \
		                 "movq %[u], 24(%[r])\n\t"                                   \
		                 "leaq 32(%[a]), %[a]\n\t"                                   \
		                 "leaq 32(%[b]), %[b]\n\t"                                   \
		                 "leaq 32(%[r]), %[r]\n\t"                                   \
		                 "leaq -1(%[q]), %[q]\n\t"                                   \
		                 "jrcxz 4f\n\t"                                              \
		                 "jmp 3b\n"                                                  \
		                 "4:\n\t"                                                    \
		                 "adcq $0, %[c]"                                            \
		                 : [t] "=&r"(t), [u] "=&r"(u), [m] "+r"(m), [q] "+c"(q),     \
		                   [c] "+r"(c), [a] "+r"(a), [b] "+r"(b), [r] "+r"(r)       \
		                 :                                                          \
		                 : "cc", "memory");                                         \
		return c;                                                                   \
	}
CARRY_LOOP(add_n, "adcq")
CARRY_LOOP(sub_n, "sbbq")
#undef CARRY_LOOP
#else
static uint64_t add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		u128 s = (u128)a[i] + b[i] + c;
		r[i] = (uint64_t)s;
		c = (uint64_t)(s >> 64);
	}
	return c;
}

static uint64_t sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		u128 d = (u128)a[i] - b[i] - c;
		r[i] = (uint64_t)d;
		c = (uint64_t)(d >> 64) & 1;
	}
	return c;
}
#endif

/* {r, n} += c at limb 0 and the carry rippled up; returns the carry out */
static uint64_t add_1(uint64_t *r, size_t n, uint64_t c)
{
	for (size_t i = 0; i < n && c; i++) {
		r[i] += c;
		c = r[i] < c;
	}
	return c;
}

static uint64_t sub_1(uint64_t *r, size_t n, uint64_t c)
{
	for (size_t i = 0; i < n && c; i++) {
		uint64_t x = r[i];
		r[i] = x - c;
		c = x < c;
	}
	return c;
}

/* {r, an} = |{a, an} - {b, bn}| (an >= bn, b zero-extended); returns 1 if a < b */
static int abs_diff(uint64_t *r, const uint64_t *a, size_t an, const uint64_t *b, size_t bn)
{
	int less = 0;
	for (size_t i = an; i-- > 0;) {
		uint64_t bi = i < bn ? b[i] : 0;
		if (a[i] != bi) {
			less = a[i] < bi;
			break;
		}
	}
	if (less) {         /* b > a: a's limbs from bn up are 0 and b - a borrows nothing */
		sub_n(r, b, a, bn);
		memset(r + bn, 0, (an - bn) * sizeof *r);
		return 1;
	}
	uint64_t c = sub_n(r, a, b, bn);
	memcpy(r + bn, a + bn, (an - bn) * sizeof *r);
	sub_1(r + bn, an - bn, c);
	return 0;
}

/* {t, 2h} + the returned top B^2h = z0 + z2, z0 = {z, 2h}, z2 = {z + 2h, zn} (zn <= 2h) */
static uint64_t add_z0_z2(uint64_t *t, const uint64_t *z, size_t h, size_t zn)
{
	uint64_t top = add_n(t, z, z + 2 * h, zn);
	memcpy(t + zn, z + zn, (2 * h - zn) * sizeof *t);
	return add_1(t + zn, 2 * h - zn, top);
}

/* where Toom-3 takes over from Karatsuba, for the Karatsuba threshold `min` in force (each
 * kernel build has its own) */
static size_t toom3_min(size_t min)
{
	return min == LF_KARA_MIN ? LF_TOOM3_MIN : min == LF_KARA_SQR_MIN ? LF_TOOM3_SQR_MIN :
	       LF_TOOM3_OFF;
}

static void mul_rec(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn,
                    uint64_t *tp, size_t min);
static void sqr_rec(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t *tp, size_t min);

/* ---- Toom-3 (Toom 1963, Cook 1966; the evaluation points 0, 1, -1, 2, infinity and the
 * interpolation sequence of Bodrato (WAIFI 2007) as GMP's mpn_toom33_mul and
 * mpn_toom_interpolate_5pts use them, read, not copied) ------------------------------------ */

/* {r, n} = {a, n} / 3, the caller knowing that 3 divides it (Hensel division: q = l 3^-1 mod
 * B, and 3 q = l + (q > B/3) B + (q > 2B/3) B gives the next limb's borrow) */
static void divexact_by3(uint64_t *r, const uint64_t *a, size_t n)
{
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t s = a[i], l = s - c;
		c = s < c;
		uint64_t q = l * 0xAAAAAAAAAAAAAAABull;
		r[i] = q;
		c += (q > 0x5555555555555555ull) + (q > 0xAAAAAAAAAAAAAAAAull);
	}
}

/* {r, n} = {a, n} / 2, the caller knowing that 2 divides it (r may be a) */
static void half(uint64_t *r, const uint64_t *a, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		r[i] = a[i] >> 1 | a[i + 1] << 63;
	r[n - 1] = a[n - 1] >> 1;
}

/* {r, n} -= {b, bn} (bn <= n), the borrow rippled through r (the caller knows r >= b) */
static void sub_in(uint64_t *r, size_t n, const uint64_t *b, size_t bn)
{
	sub_1(r + bn, n - bn, sub_n(r, r, b, bn));
}

static void add_in(uint64_t *r, size_t n, const uint64_t *b, size_t bn)
{
	add_1(r + bn, n - bn, add_n(r, r, b, bn));
}

/* a = a2 x^2 + a1 x + a0 (x = B^k; a0, a1: k limbs, a2: s limbs, 1 <= s <= k) at x = 1, -1
 * and 2, k + 1 limbs each: e1 = a0 + a1 + a2, em = |a0 - a1 + a2| (returns 1 when
 * a0 + a2 < a1), e2 = a0 + 2 a1 + 4 a2 = 2 (2 a2 + a1) + a0 */
static int toom3_eval(uint64_t *e1, uint64_t *em, uint64_t *e2, const uint64_t *a, size_t k,
                      size_t s)
{
	const uint64_t *a0 = a, *a1 = a + k, *a2 = a + 2 * k;
	memcpy(e2, a0, k * sizeof *e2);                  /* e2 (scratch) = a0 + a2 */
	e2[k] = 0;
	add_in(e2, k + 1, a2, s);
	memcpy(e1, e2, (k + 1) * sizeof *e1);
	add_in(e1, k + 1, a1, k);
	int neg = abs_diff(em, e2, k + 1, a1, k);
	memcpy(e2, a1, k * sizeof *e2);                  /* 2 a2 + a1 */
	e2[k] = 0;
	add_in(e2, k + 1, a2, s);
	add_in(e2, k + 1, a2, s);
	add_n(e2, e2, e2, k + 1);                        /* 2 (2 a2 + a1) < 6 B^k: no carry out */
	add_in(e2, k + 1, a0, k);
	return neg;
}

/* rp = c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 from v0 = c0 (rp[0, 2k)), vinf = c4 (rp[4k,
 * 4k + vn)), v1 = c(1), vm1 = |c(-1)| (sign `neg`), v2 = c(2), each of m = 2k + 2 limbs;
 * v1, vm1 and v2 are overwritten.  Every intermediate is a sum of the c_i with non-negative
 * coefficients, so nothing below goes negative:
 *     v2  = (v2 - c(-1)) / 3        5 c4 + 3 c3 + c2 + c1
 *     vm1 = (v1 - c(-1)) / 2        c3 + c1
 *     v1  = v1 - v0                 c4 + c3 + c2 + c1
 *     v2  = (v2 - v1) / 2           2 c4 + c3
 *     v1  = v1 - vm1                c4 + c2
 *     v2  = v2 - 2 vinf             c3
 *     v1  = v1 - vinf               c2
 *     vm1 = vm1 - v2                c1  */
static void toom3_interpolate(uint64_t *rp, size_t k, size_t vn, uint64_t *v1, uint64_t *vm1,
                              int neg, uint64_t *v2, size_t rn)
{
	size_t m = 2 * k + 2;
	const uint64_t *vinf = rp + 4 * k;
	if (neg)
		add_n(v2, v2, vm1, m);
	else
		sub_n(v2, v2, vm1, m);
	divexact_by3(v2, v2, m);
	if (neg)
		add_n(vm1, v1, vm1, m);
	else
		sub_n(vm1, v1, vm1, m);
	half(vm1, vm1, m);
	sub_in(v1, m, rp, 2 * k);
	sub_n(v2, v2, v1, m);
	half(v2, v2, m);
	sub_n(v1, v1, vm1, m);
	sub_in(v2, m, vinf, vn);
	sub_in(v2, m, vinf, vn);
	sub_in(v1, m, vinf, vn);
	sub_n(vm1, vm1, v2, m);
	/* rp[2k, 4k) = 0 between c0 and c4, then c1, c2, c3 added at x, x^2, x^3 (each
	 * below B^(2k+1): its top limb of m is 0) */
	memset(rp + 2 * k, 0, 2 * k * sizeof *rp);
	add_in(rp + k, rn - k, vm1, m - 1);
	add_in(rp + 2 * k, rn - 2 * k, v1, m - 1);
	add_in(rp + 3 * k, rn - 3 * k, v2, rn - 3 * k < m - 1 ? rn - 3 * k : m - 1);
}

/* an >= bn > 2k, k = ceil(an / 3): five products of k + 1 limbs at most */
static void toom3_mul(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp,
                      size_t bn, uint64_t *tp, size_t min)
{
	size_t k = (an + 2) / 3, sa = an - 2 * k, sb = bn - 2 * k, m = 2 * k + 2;
	uint64_t *e1a = tp, *ema = e1a + k + 1, *e2a = ema + k + 1;
	uint64_t *e1b = e2a + k + 1, *emb = e1b + k + 1, *e2b = emb + k + 1;
	uint64_t *v1 = e2b + k + 1, *vm1 = v1 + m, *v2 = vm1 + m, *next = v2 + m;
	int neg = toom3_eval(e1a, ema, e2a, ap, k, sa) ^ toom3_eval(e1b, emb, e2b, bp, k, sb);
	mul_rec(rp, ap, k, bp, k, next, min);                          /* v0 -> rp[0, 2k) */
	mul_rec(rp + 4 * k, ap + 2 * k, sa, bp + 2 * k, sb, next, min);  /* vinf -> rp[4k, ..) */
	mul_rec(v1, e1a, k + 1, e1b, k + 1, next, min);
	mul_rec(vm1, ema, k + 1, emb, k + 1, next, min);
	mul_rec(v2, e2a, k + 1, e2b, k + 1, next, min);
	toom3_interpolate(rp, k, sa + sb, v1, vm1, neg, v2, an + bn);
}

static void toom3_sqr(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t *tp, size_t min)
{
	size_t k = (n + 2) / 3, s = n - 2 * k, m = 2 * k + 2;
	uint64_t *e1 = tp, *em = e1 + k + 1, *e2 = em + k + 1;
	uint64_t *v1 = e2 + k + 1, *vm1 = v1 + m, *v2 = vm1 + m, *next = v2 + m;
	toom3_eval(e1, em, e2, ap, k, s);
	sqr_rec(rp, ap, k, next, min);
	sqr_rec(rp + 4 * k, ap + 2 * k, s, next, min);
	sqr_rec(v1, e1, k + 1, next, min);
	sqr_rec(vm1, em, k + 1, next, min);
	sqr_rec(v2, e2, k + 1, next, min);
	toom3_interpolate(rp, k, 2 * s, v1, vm1, 0, v2, 2 * n);
}

/* Is the dispatched build of kernel `id` an IFMA one (radix 2^52: mpn_sqr 3-4x GMP's
 * schoolbook up to its ifma_max <= 256 limbs, mpn_mul from 25 up to its ifma_max = 128)?
 * Karatsuba then starts only above the range where that kernel beats it. */
int lf_mpn_dispatched_is_ifma(enum lf_kernel_id id)
{
	const struct lf_kernel *k = &lf_kernel_table[id];
	lf_fnptr fn = lf_dispatch_get(id);
	for (size_t i = 0; i < k->count; i++)
		if (k->variants[i].fn == fn) {           /* "ifma", "ifma@<cpu>" */
			const char *v = k->variants[i].name;
			return v[0] == 'i' && v[1] == 'f' && v[2] == 'm' && v[3] == 'a';
		}
	return 0;
}

static void sqr_rec(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t *tp, size_t min)
{
	if (n < min) {
		LF_CALL_NOW(mpn_sqr)(rp, ap, n);
		return;
	}
	if (n >= toom3_min(min)) {
		toom3_sqr(rp, ap, n, tp, min);
		return;
	}
	size_t h = (n + 1) / 2, l = n - h;      /* a0: h limbs, a1: l limbs (l <= h) */
	uint64_t *d = tp, *m = tp + h, *next = tp + 3 * h;
	abs_diff(d, ap, h, ap + h, l);           /* |a0 - a1|, h limbs */
	sqr_rec(rp, ap, h, next, min);           /* z0 -> rp[0, 2h) */
	sqr_rec(rp + 2 * h, ap + h, l, next, min);   /* z2 -> rp[2h, 2n) */
	sqr_rec(m, d, h, next, min);             /* |a0 - a1|^2, 2h limbs */
	uint64_t *t = next;                      /* middle = z0 + z2 - m = 2 a0 a1 */
	uint64_t top = add_z0_z2(t, rp, h, 2 * l);
	top -= sub_n(t, t, m, 2 * h);
	uint64_t c = add_n(rp + h, rp + h, t, 2 * h);
	add_1(rp + 3 * h, 2 * n - 3 * h, c + top);
}

/* a in blocks of blk limbs (bn <= blk <= an), each block times b added in */
static void mul_blocks(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp,
                       size_t bn, size_t blk, uint64_t *tp, size_t min)
{
	uint64_t *p = tp, *next = tp + blk + bn;
	size_t done = blk;
	mul_rec(rp, ap, blk, bp, bn, next, min);
	while (done < an) {
		size_t k = an - done < blk ? an - done : blk;
		if (k >= bn)
			mul_rec(p, ap + done, k, bp, bn, next, min);
		else
			mul_rec(p, bp, bn, ap + done, k, next, min);
		/* rp[done, done + bn) holds the previous block's top bn limbs */
		uint64_t c = add_n(rp + done, rp + done, p, bn);
		memcpy(rp + done + bn, p + bn, k * sizeof *rp);
		add_1(rp + done + bn, k, c);
		done += k;
	}
}

static void mul_rec(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn,
                    uint64_t *tp, size_t min)
{
	if (bn < min) {
		/* the IFMA kernel sends an > its ifma_max to the scalar one: a in blocks it takes */
		if (min == LF_KARA_MUL_IFMA_MIN && an > LF_KARA_IFMA_MUL_AN &&
		    bn >= LF_KARA_IFMA_BLOCK_BN)
			mul_blocks(rp, ap, an, bp, bn, LF_KARA_IFMA_MUL_AN, tp, min);
		else
			LF_CALL_NOW(mpn_mul)(rp, ap, an, bp, bn);
		return;
	}
	if (bn >= toom3_min(min) && bn > 2 * ((an + 2) / 3)) {
		toom3_mul(rp, ap, an, bp, bn, tp, min);
		return;
	}
	size_t h = (an + 1) / 2;
	if (bn <= h) {
		/* unbalanced: a in blocks of bn limbs */
		mul_blocks(rp, ap, an, bp, bn, bn, tp, min);
		return;
	}
	size_t la = an - h, lb = bn - h;         /* a1: la limbs, b1: lb limbs (1 <= lb <= la <= h) */
	uint64_t *da = tp, *db = tp + h, *m = tp + 2 * h, *next = tp + 4 * h;
	int sa = abs_diff(da, ap, h, ap + h, la);
	int sb = abs_diff(db, bp, h, bp + h, lb);
	mul_rec(rp, ap, h, bp, h, next, min);                  /* z0 -> rp[0, 2h) */
	mul_rec(rp + 2 * h, ap + h, la, bp + h, lb, next, min);   /* z2 -> rp[2h, an + bn) */
	mul_rec(m, da, h, db, h, next, min);                   /* |a0-a1| |b0-b1|, 2h limbs */
	/* middle = z0 + z2 -/+ m = a0 b1 + a1 b0: {t, 2h} + top */
	uint64_t *t = next;
	uint64_t top = add_z0_z2(t, rp, h, la + lb);
	if (sa ^ sb)
		top += add_n(t, t, m, 2 * h);
	else
		top -= sub_n(t, t, m, 2 * h);
	uint64_t c = add_n(rp + h, rp + h, t, 2 * h);
	add_1(rp + 3 * h, an + bn - 3 * h, c + top);
}

void lf_mpn_mul_kara(uint64_t *rp, const uint64_t *ap, size_t an, const uint64_t *bp, size_t bn)
{
	size_t min = lf_mpn_dispatched_is_ifma(LF_K_mpn_mul) ? LF_KARA_MUL_IFMA_MIN : LF_KARA_MIN;
	uint64_t *tp = bn < min && (min == LF_KARA_MIN || an <= LF_KARA_IFMA_MUL_AN ||
	                            bn < LF_KARA_IFMA_BLOCK_BN)
	               ? NULL : malloc(LF_KARA_SCRATCH(an) * sizeof *tp);
	if (!tp) {
		LF_CALL_NOW(mpn_mul)(rp, ap, an, bp, bn);
		return;
	}
	mul_rec(rp, ap, an, bp, bn, tp, min);
	free(tp);
}

void lf_mpn_sqr_kara(uint64_t *rp, const uint64_t *ap, size_t n)
{
	size_t min = lf_mpn_dispatched_is_ifma(LF_K_mpn_sqr) ? LF_KARA_SQR_IFMA_MIN : LF_KARA_SQR_MIN;
	uint64_t *tp = n < min ? NULL : malloc(LF_KARA_SCRATCH(n) * sizeof *tp);
	if (!tp) {
		LF_CALL_NOW(mpn_sqr)(rp, ap, n);
		return;
	}
	sqr_rec(rp, ap, n, tp, min);
	free(tp);
}
