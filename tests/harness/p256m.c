/*
 * p256m.c -- oracle and executor for the JDK's MontgomeryIntegerPolynomialP256 kernels
 * (p256_mont_mult, p256_mont_square, p256_mont_mult_x8): 5 limbs of 52 bits, R = 2^260.
 *
 * The oracle is mpz: the limbs are summed as x = sum l_i 2^(52 i) (limbs outside [0, 2^52)
 * are refused), r = a b (2^260)^-1 mod p by mpz_invert, p from its hex digits -- nothing of
 * the kernels' row structure.  Faults the executor exposes: a result not fully reduced (it
 * compares limbs with the unique representation: every limb < 2^52, value < p), a write
 * outside r (canaries), a read outside the operands (guard pages), an input modified, an r
 * limb never written (r starts as garbage), and for x8 an element landing in another lane.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define M52 ((UINT64_C(1) << 52) - 1)
#define LABEL(c) (c)->t->label, cov_kind_name[(c)->kind], (c)->what, gb_place_name((c)->place), \
	(c)->shift

static size_t first_diff64(const uint64_t *x, const uint64_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return i;
	return n;
}

static void p256m_p(mpz_t p)
{
	mpz_set_str(p, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16);
}

static void limbs_to_mpz(mpz_t z, const int64_t x[5])
{
	mpz_set_ui(z, 0);
	for (int i = 4; i >= 0; i--) {
		ck_assert_msg((uint64_t)x[i] <= M52, "oracle: limb %d = %#llx is not a 52-bit limb",
		              i, (unsigned long long)x[i]);
		mpz_mul_2exp(z, z, 52);
		mpz_add_ui(z, z, (unsigned long)(uint64_t)x[i]);
	}
}

static void mpz_to_limbs(int64_t x[5], const mpz_t z)
{
	mpz_t t;
	mpz_init_set(t, z);
	for (int i = 0; i < 5; i++) {
		x[i] = (int64_t)(mpz_get_ui(t) & M52);
		mpz_fdiv_q_2exp(t, t, 52);
	}
	ck_assert_msg(mpz_sgn(t) == 0, "oracle: value does not fit 260 bits");
	mpz_clear(t);
}

void or_p256m_value(int64_t x[5], const char *hex_or_null, int which)
{
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	p256m_p(p);
	if (hex_or_null)
		mpz_set_str(z, hex_or_null, 16);
	else
		switch (which) {
		case 0:                 /* 2^256 mod p */
			mpz_setbit(z, 256);
			break;
		case 1:                 /* oneMont = 2^260 mod p */
			mpz_setbit(z, 260);
			break;
		case 2:                 /* h = 2^520 mod p */
			mpz_setbit(z, 520);
			break;
		default:                /* p - (which - 2): p-1, p-2, ... */
			mpz_sub_ui(z, p, (unsigned long)(which - 2));
			break;
		}
	mpz_mod(z, z, p);
	mpz_to_limbs(x, z);
	mpz_clears(p, z, NULL);
}

void or_p256m_mod(int64_t r[5], const uint64_t raw[5])
{
	int64_t l[5];
	for (int i = 0; i < 5; i++)
		l[i] = (int64_t)(raw[i] & M52);
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	p256m_p(p);
	limbs_to_mpz(z, l);
	mpz_mod(z, z, p);
	mpz_to_limbs(r, z);
	mpz_clears(p, z, NULL);
}

int or_p256m_below_p(const int64_t x[5])
{
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	p256m_p(p);
	limbs_to_mpz(z, x);
	int lt = mpz_cmp(z, p) < 0;
	mpz_clears(p, z, NULL);
	return lt;
}

void or_p256m_mont(int64_t r[5], const int64_t a[5], const int64_t b[5], int *subtract)
{
	mpz_t p, R, x, y, t, m;
	mpz_inits(p, R, x, y, t, m, NULL);
	p256m_p(p);
	mpz_setbit(R, 260);
	limbs_to_mpz(x, a);
	limbs_to_mpz(y, b);
	if (subtract) {
		/* unreduced U = (a b + M p) / R, M = -a b p^-1 mod R: the final subtraction is
		 * due when U >= p */
		mpz_mul(t, x, y);
		ck_assert(mpz_invert(m, p, R) != 0);
		mpz_neg(m, m);
		mpz_mul(m, m, t);
		mpz_fdiv_r_2exp(m, m, 260);
		mpz_addmul(t, m, p);
		ck_assert(mpz_divisible_2exp_p(t, 260));
		mpz_fdiv_q_2exp(t, t, 260);
		*subtract = mpz_cmp(t, p) >= 0;
	}
	mpz_mul(x, x, y);
	ck_assert(mpz_invert(t, R, p) != 0);
	mpz_mul(x, x, t);
	mpz_mod(x, x, p);
	mpz_to_limbs(r, x);
	mpz_clears(p, R, x, y, t, m, NULL);
}

static void check_canonical(const struct exec_ctx *c, const int64_t *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg((uint64_t)r[i] <= M52, "%s [%s] %s: limb %zu = %#llx is not below 2^52",
		              c->t->label, cov_kind_name[c->kind], c->what, i,
		              (unsigned long long)r[i]);
}

const char *const p256m_alias_name[P256_NALIAS] = {
	"r, a, b separate", "r == a", "r == b", "a == b", "r == a == b",
};

/* n = 5 (one element; sqr: b = a) or 40 (x8) */
static void run(const struct exec_ctx *c, int sqr, size_t n, const int64_t *a, const int64_t *b,
                enum p256_alias alias, const int64_t *exp_r, int *subtract)
{
	size_t bytes = n * 8;
	struct gbuf ga, gb, gr;
	int64_t want[40], *ap, *bp, *rp;
	if (sqr && alias != P256_SEP)
		alias = alias == P256_RB || alias == P256_AB ? P256_SEP : P256_RA;
	if (sqr || alias == P256_AB || alias == P256_ALL)
		b = a;
	int sub = 0;
	for (size_t k = 0; k < n; k += 5) {
		int s1 = 0;
		or_p256m_mont(want + k, a + k, b + k, &s1);
		sub |= s1;
	}
	if (subtract)
		*subtract = sub;
	if (exp_r)
		memcpy(want, exp_r, bytes);

	ap = gb_alloc(&ga, bytes, c->place, c->shift);
	memcpy(ap, a, bytes);
	bp = alias == P256_AB || alias == P256_ALL ? ap : gb_alloc(&gb, bytes, c->place, c->shift);
	if (bp != ap)
		memcpy(bp, b, bytes);
	rp = alias == P256_RA || alias == P256_ALL ? ap : alias == P256_RB ? bp :
	     gb_alloc(&gr, bytes, c->place, c->shift);
	if (rp != ap && rp != bp)
		fill_garbage64((uint64_t *)rp, n);

	crash_note(c->t->label, c->what, n);
	if (n == 40)
		((lf_p256_mont_mult_x8_fn)c->fn)(rp, ap, bp);
	else if (sqr)
		((lf_p256_mont_square_fn)c->fn)(rp, ap);
	else
		((lf_p256_mont_mult_fn)c->fn)(rp, ap, bp);

	size_t d = first_diff64((const uint64_t *)rp, (const uint64_t *)want, n);
	ck_assert_msg(d == n, "%s [%s] %s (%s, +%zu): %s, %s: element %zu limb %zu = %#llx, want "
	              "%#llx", LABEL(c), n == 40 ? "x8" : sqr ? "square" : "mult",
	              p256m_alias_name[alias], d / 5, d % 5, (unsigned long long)rp[d],
	              (unsigned long long)want[d]);
	check_canonical(c, rp, n);
	ASSERT_CANARIES(&ga, c->t->label, "a", c->what);
	if (rp != ap)
		ck_assert_msg(memcmp(ap, a, bytes) == 0, "%s [%s] %s: input a modified", c->t->label,
		              cov_kind_name[c->kind], c->what);
	if (bp != ap) {
		ASSERT_CANARIES(&gb, c->t->label, "b", c->what);
		if (rp != bp)
			ck_assert_msg(memcmp(bp, b, bytes) == 0, "%s [%s] %s: input b modified",
			              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gb);
	}
	if (rp != ap && rp != bp) {
		ASSERT_CANARIES(&gr, c->t->label, "r", c->what);
		gb_free(&gr);
	}
	gb_free(&ga);
	cov_add(c->t, c->kind, 1);
}

void exec_p256m(const struct exec_ctx *c, int sqr, const int64_t a[5], const int64_t b[5],
                enum p256_alias alias, const int64_t *exp_r, int *subtract)
{
	run(c, sqr, 5, a, b, alias, exp_r, subtract);
}

void exec_p256m_x8(const struct exec_ctx *c, const int64_t a[40], const int64_t b[40],
                   enum p256_alias alias, const int64_t *exp_r, int *subtract)
{
	run(c, 0, 40, a, b, alias, exp_r, subtract);
}
