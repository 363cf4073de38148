/*
 * fe.c -- the table, oracle and executor for the dispatched EC field products
 * (fe_<field>_mul, fe_<field>_square; the list is tests/fe_kernels.h).
 *
 * The oracle is mpz: an element's value is sum l_i 2^(bits i) over its int64_t limbs, p comes
 * from its hex digits (tests/kat/gen_fe.py writes them from the field's definition), the
 * expected result is a b mod p -- nothing of the kernels' column sums, premultiplied
 * operands or carry chains.  A result is not unique (the kernels return limbs within a
 * stated bound, not the reduced value), so the executor checks what the contract says:
 * every limb within the kernel's output bound, and the value congruent to a b mod p.
 * Faults it exposes: a lost carry or a wrong fold (value mod p differs), a limb above its
 * bound (the next product's input contract broken), a write outside r (canaries), a read
 * outside the operands (guard pages), an input modified, an r limb never written (r starts
 * as garbage), and aliasing r == a, r == b, a == b handled wrongly.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "fe_vectors.h"
#include "fe_kernels.h"
#include "lf_fields.h"

#if !LF_FE_WIDE
#error "the field products need signed __int128 (LF_FE_WIDE)"
#endif

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

/* the table: one entry per line of tests/fe_kernels.h; field data attached on first use */
#define FE_ENTRY(fld, nl, op)                                                               \
	{ LF_K_fe_##fld##_##op, "fe_" #fld "_" #op, #fld, nl, sizeof(#op) == sizeof("square"), \
	  (lf_fnptr)lf_fe_##fld##_##op, (lf_fnptr)lf_fe_##fld##_##op##_ref, NULL, NULL, NULL,  \
	  0, 0 },
static struct fe_kernel table[] = { LF_TEST_FE_KERNELS(FE_ENTRY) };
#undef FE_ENTRY

/* (before the suites run too: a broken table stops the run, not one test) */
static void attach(void)
{
	static int done;
	if (done)
		return;
	for (size_t i = 0; i < NLEN(table); i++) {
		struct fe_kernel *k = &table[i];
		for (size_t j = 0; j < NLEN(kat_fe_fields); j++)
			if (strcmp(kat_fe_fields[j].field, k->field) == 0)
				k->f = &kat_fe_fields[j];
		const char *bug = !k->f ? "no field data (tests/kat/gen_fe.py)" :
		                  k->f->limbs != k->limbs || k->limbs > LF_TEST_FE_MAXLIMBS ?
		                  "limbs differ from the field data" :
		                  strcmp(lf_kernel_table[k->kid].name, k->name) != 0 ?
		                  "its LF_K_ id names another kernel" : NULL;
		if (bug) {
			fprintf(stderr, "test bug: %s (tests/fe_kernels.h): %s\n", k->name, bug);
			exit(2);
		}
		k->M = k->f->M;
		k->out = k->sqr ? k->f->square : k->f->mul;
		k->bits = k->f->bits;
		k->power = k->f->power;
	}
	done = 1;
}

size_t fe_count(void)
{
	return NLEN(table);
}

const struct fe_kernel *fe_at(size_t i)
{
	attach();
	if (i >= NLEN(table)) {          /* (called while the suites are built: no ck_assert) */
		fprintf(stderr, "test bug: field product index %zu out of range\n", i);
		exit(2);
	}
	return &table[i];
}

const struct fe_kernel *fe_kernel(enum lf_kernel_id kid)
{
	for (size_t i = 0; i < NLEN(table); i++)
		if (table[i].kid == kid) {
			attach();
			return &table[i];
		}
	return NULL;
}

const struct kat_fe *fe_kat(const struct fe_kernel *fk, size_t *n, const int64_t **limbs)
{
	*n = fk->f->count;
	*limbs = kat_fe_limbs;
	return kat_fe + fk->f->first;
}

/* ---- values ------------------------------------------------------------------------------ */
static void prime(const struct fe_kernel *fk, mpz_t p)
{
	mpz_set_str(p, fk->f->p, 16);
}

static void to_mpz(const struct fe_kernel *fk, mpz_t z, const int64_t *x)
{
	mpz_set_ui(z, 0);
	for (size_t i = fk->limbs; i-- > 0;) {
		mpz_mul_2exp(z, z, fk->bits);
		if (x[i] >= 0)
			mpz_add_ui(z, z, (unsigned long)x[i]);
		else
			mpz_sub_ui(z, z, (unsigned long)-(uint64_t)x[i]);
	}
}

/* canonical digits of 0 <= z <= 2^power (p + 1 = 2^power for P-521: its top digit holds
 * the extra bit) */
static void to_digits(const struct fe_kernel *fk, int64_t *x, const mpz_t z)
{
	mpz_t t;
	mpz_init_set(t, z);
	ck_assert_msg(mpz_sgn(t) >= 0 && mpz_sizeinbase(t, 2) <= fk->power + 1,
	              "oracle: value does not fit %u bits", fk->power + 1);
	for (size_t i = 0; i < fk->limbs; i++) {
		if (i + 1 < fk->limbs) {
			mpz_t d;
			mpz_init(d);
			mpz_fdiv_r_2exp(d, t, fk->bits);
			x[i] = (int64_t)mpz_get_ui(d);
			mpz_fdiv_q_2exp(t, t, fk->bits);
			mpz_clear(d);
		} else {
			x[i] = (int64_t)mpz_get_ui(t);
		}
	}
	mpz_clear(t);
}

size_t fe_outside(const int64_t *x, const int64_t (*b)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] < b[i][0] || x[i] > b[i][1])
			return i;
	return n;
}

void or_fe_canon(const struct fe_kernel *fk, int64_t *r, const int64_t *x)
{
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	prime(fk, p);
	to_mpz(fk, z, x);
	mpz_mod(z, z, p);
	to_digits(fk, r, z);
	mpz_clears(p, z, NULL);
}

void or_fe_mul(const struct fe_kernel *fk, int64_t *r, const int64_t *a, const int64_t *b)
{
	if (fk->sqr)
		b = a;
	size_t ia = fe_outside(a, fk->M, fk->limbs), ib = fe_outside(b, fk->M, fk->limbs);
	ck_assert_msg(ia == fk->limbs && ib == fk->limbs, "test bug: %s operand limb %zu "
	              "outside M", fk->name, ia < fk->limbs ? ia : ib);
	mpz_t p, x, y;
	mpz_inits(p, x, y, NULL);
	prime(fk, p);
	to_mpz(fk, x, a);
	to_mpz(fk, y, b);
	mpz_mul(x, x, y);
	mpz_mod(x, x, p);
	to_digits(fk, r, x);
	mpz_clears(p, x, y, NULL);
}

int or_fe_solve(const struct fe_kernel *fk, int64_t *b, const int64_t *a, const int64_t *t)
{
	mpz_t p, x, y;
	mpz_inits(p, x, y, NULL);
	prime(fk, p);
	to_mpz(fk, x, a);
	to_mpz(fk, y, t);
	mpz_mod(x, x, p);
	int ok = mpz_invert(x, x, p) != 0;
	mpz_mul(y, y, ok ? x : p);
	mpz_mod(y, y, p);
	to_digits(fk, b, y);
	mpz_clears(p, x, y, NULL);
	return ok;
}

/* ---- operands ---------------------------------------------------------------------------- */
static const char *const elem_name[FE_NELEM] = {
	"0", "1", "2", "p-1", "p-2", "p", "p+1", "2^power-1", "random in [p, 2^power)",
	"(p-1)/2", "2^(power-1)", "every limb at the top of M", "every limb at the top of M - 1",
	"limbs alternating 0 and the top of M", "only the top limb, at the top of M",
	"only limb 0, at the top of M", "random below p", "random limbs within M",
};

const char *fe_elem_name(enum fe_elem e)
{
	return e < FE_NELEM ? elem_name[e] : "?";
}

static uint64_t below(rng_t *r, uint64_t n) /* uniform enough in [0, n) for n >= 1 */
{
	return n ? rng_next(r) % n : rng_next(r);
}

void fe_elem(const struct fe_kernel *fk, int64_t *x, enum fe_elem e, rng_t *r)
{
	size_t n = fk->limbs;
	if (e >= FE_MTOP && e <= FE_MTOP_LO) {
		for (size_t i = 0; i < n; i++) {
			int64_t hi = fk->M[i][1];
			x[i] = e == FE_MTOP ? hi : e == FE_MTOP_M1 ? hi - 1
			     : e == FE_MALT ? (i & 1 ? hi : 0)
			     : e == FE_MTOP_HI ? (i + 1 == n ? hi : 0) : (i == 0 ? hi : 0);
		}
		return;
	}
	if (e == FE_RAND_M) {
		for (size_t i = 0; i < n; i++)
			x[i] = fk->M[i][0] +
			       (int64_t)below(r, (uint64_t)(fk->M[i][1] - fk->M[i][0]) + 1);
		return;
	}
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	prime(fk, p);
	switch (e) {
	case FE_ZERO:
	case FE_ONE:
	case FE_TWO:
		mpz_set_ui(z, (unsigned long)e);
		break;
	case FE_PM1:
	case FE_PM2:
		mpz_sub_ui(z, p, e == FE_PM1 ? 1 : 2);
		break;
	case FE_P:
	case FE_PP1:
		mpz_add_ui(z, p, e == FE_PP1);
		break;
	case FE_POW_M1:
	case FE_ABOVE_P: {
		mpz_t span;
		mpz_init(span);
		mpz_setbit(z, fk->power);
		mpz_sub_ui(z, z, 1);               /* 2^power - 1 */
		if (e == FE_ABOVE_P) {             /* p + (random mod (2^power - p)) */
			mpz_sub(span, z, p);
			mpz_add_ui(span, span, 1);
			mpz_set_ui(z, (unsigned long)rng_next(r));
			mpz_mul_2exp(z, z, 64);
			mpz_add_ui(z, z, (unsigned long)rng_next(r));
			mpz_mod(z, z, span);
			mpz_add(z, z, p);
		}
		mpz_clear(span);
		break;
	}
	case FE_HALF:
		mpz_sub_ui(z, p, 1);
		mpz_fdiv_q_2exp(z, z, 1);
		break;
	case FE_TOPBIT:
		mpz_setbit(z, fk->power - 1);
		break;
	default: /* FE_RAND_P */
		for (unsigned i = 0; i < fk->power + 64; i += 64) {
			mpz_mul_2exp(z, z, 64);
			mpz_add_ui(z, z, (unsigned long)rng_next(r));
		}
		mpz_mod(z, z, p);
		break;
	}
	to_digits(fk, x, z);
	mpz_clears(p, z, NULL);
}

void fe_pattern(const struct fe_kernel *fk, int64_t *x, enum pattern pat, rng_t *r)
{
	uint64_t w[LF_TEST_FE_MAXLIMBS];
	fill64(w, fk->limbs, pat, r);
	unsigned topbits = fk->power - fk->bits * (unsigned)(fk->limbs - 1);
	for (size_t i = 0; i < fk->limbs; i++) {
		unsigned b = i + 1 < fk->limbs ? fk->bits : topbits;
		x[i] = (int64_t)(w[i] & ((UINT64_C(1) << b) - 1));
	}
}

/* ---- checking a result ------------------------------------------------------------------- */
static void hexlimbs(char *buf, size_t len, const int64_t *x, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 24 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%#llx", i ? " " : "",
		                      (unsigned long long)x[i]);
}

/* r within out and congruent to want (canonical) */
static void check(const struct fe_kernel *fk, const char *label, const char *what,
                  const int64_t *r, const int64_t *want, const int64_t *a, const int64_t *b)
{
	char sr[400], sa[400], sb[400], sw[400];
	int64_t got[LF_TEST_FE_MAXLIMBS];
	size_t n = fk->limbs, i = fe_outside(r, fk->out, n);
	hexlimbs(sr, sizeof sr, r, n);
	hexlimbs(sa, sizeof sa, a, n);
	hexlimbs(sb, sizeof sb, fk->sqr ? a : b, n);
	ck_assert_msg(i == n, "%s %s: limb %zu = %#llx outside the stated bound [%#llx, %#llx]; "
	              "r = {%s}, a = {%s}, b = {%s}", label, what, i, (unsigned long long)r[i],
	              (unsigned long long)fk->out[i][0], (unsigned long long)fk->out[i][1], sr, sa,
	              sb);
	or_fe_canon(fk, got, r);
	hexlimbs(sw, sizeof sw, want, n);
	ck_assert_msg(memcmp(got, want, n * 8) == 0, "%s %s: r = {%s} is not a %s mod p = {%s} "
	              "(canonical digits); a = {%s}, b = {%s}", label, what, sr,
	              fk->sqr ? "a^2" : "a b", sw, sa, sb);
}

void fe_assert_result(const struct fe_kernel *fk, const char *label, const char *what,
                      const int64_t *r, const int64_t *a, const int64_t *b)
{
	int64_t want[LF_TEST_FE_MAXLIMBS];
	or_fe_mul(fk, want, a, b);
	check(fk, label, what, r, want, a, b);
}

void exec_fe(const struct exec_ctx *c, const struct fe_kernel *fk, const int64_t *a,
             const int64_t *b, enum p256_alias alias, const int64_t *exp_r)
{
	size_t n = fk->limbs, bytes = n * 8;
	struct gbuf ga, gb, gr;
	int64_t want[LF_TEST_FE_MAXLIMBS], *ap, *bp, *rp;
	char what[300];
	if (fk->sqr && alias != P256_SEP)
		alias = alias == P256_RB || alias == P256_AB ? P256_SEP : P256_RA;
	if (fk->sqr || alias == P256_AB || alias == P256_ALL)
		b = a;
	or_fe_mul(fk, want, a, b);
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
	if (fk->sqr)
		((lf_fe_square_fn)c->fn)(rp, ap);
	else
		((lf_fe_mul_fn)c->fn)(rp, ap, bp);

	snprintf(what, sizeof what, "[%s] %s (%s, +%zu): %s, %s", cov_kind_name[c->kind], c->what,
	         gb_place_name(c->place), c->shift, fk->sqr ? "square" : "mul",
	         p256_alias_name[alias]);
	check(fk, c->t->label, what, rp, want, a, b);
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
