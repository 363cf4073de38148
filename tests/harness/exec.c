/*
 * exec.c -- run one kernel call in guarded buffers and compare it with the oracle.
 *
 * Faults this is designed to catch, per call: a wrong result limb/word; a wrong return
 * (carry-out) value; a write outside the output (canaries, guard pages), including words of
 * `out` outside the mulAdd window; a write into an input (inputs are compared byte for byte
 * with their original, canaries included); an output word left unwritten (outputs that must
 * be fully written start as garbage, not zero).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static size_t first_diff64(const uint64_t *x, const uint64_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return i;
	return n;
}

static size_t first_diff32(const uint32_t *x, const uint32_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return i;
	return n;
}

#define LABEL(c) (c)->t->label, cov_kind_name[(c)->kind], (c)->what, gb_place_name((c)->place), \
	(c)->shift

void exec_mul1(const struct exec_ctx *c, int addmul, const uint64_t *a, const uint64_t *r0,
               size_t n, uint64_t b, int inplace, const uint64_t *exp_r, const uint64_t *exp_ret)
{
	size_t bytes = n * sizeof(uint64_t);
	uint64_t *want = xmalloc(bytes), *acopy = xmalloc(bytes), wret;
	struct gbuf ga, gr;
	uint64_t *ap, *rp;

	memcpy(acopy, a, bytes);
	if (inplace)
		memcpy(want, a, bytes);
	else if (addmul)
		memcpy(want, r0, bytes);
	else
		fill_garbage64(want, n);
	rp = gb_alloc(&gr, bytes, c->place, c->shift);
	memcpy(rp, want, bytes);  /* initial contents of rp (garbage for mul_1) */
	if (inplace) {
		ap = rp;
	} else {
		ap = gb_alloc(&ga, bytes, c->place, c->shift);
		memcpy(ap, a, bytes);
	}
	if (exp_r) {
		memcpy(want, exp_r, bytes);
		wret = *exp_ret;
	} else {
		wret = addmul ? or_addmul_1(want, acopy, n, b) : or_mul_1(want, acopy, n, b);
	}

	crash_note(c->t->label, c->what, n);
	uint64_t got = ((lf_mpn_mul_1_fn)c->fn)(rp, ap, n, b);

	size_t d = first_diff64(rp, want, n);
	ck_assert_msg(d == n, "%s [%s] %s (%s, +%zu): n=%zu b=%#018llx%s: limb %zu = %#018llx, "
	              "want %#018llx", LABEL(c), n, (unsigned long long)b,
	              inplace ? " in-place" : "", d, (unsigned long long)rp[d],
	              (unsigned long long)want[d]);
	ck_assert_msg(got == wret, "%s [%s] %s (%s, +%zu): n=%zu b=%#018llx%s: returned "
	              "%#018llx, want %#018llx", LABEL(c), n, (unsigned long long)b,
	              inplace ? " in-place" : "", (unsigned long long)got,
	              (unsigned long long)wret);
	ASSERT_CANARIES(&gr, c->t->label, "rp", c->what);
	if (!inplace) {
		ASSERT_CANARIES(&ga, c->t->label, "ap", c->what);
		ck_assert_msg(memcmp(ap, acopy, bytes) == 0, "%s [%s] %s: input ap modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&ga);
	}
	gb_free(&gr);
	free(want);
	free(acopy);
	cov_add(c->t, c->kind, 1);
}

void exec_sqr(const struct exec_ctx *c, const uint64_t *a, size_t n, const uint64_t *exp_r)
{
	size_t bytes = n * sizeof(uint64_t);
	uint64_t *want = xmalloc(2 * bytes);
	struct gbuf ga, gr;
	uint64_t *ap = gb_alloc(&ga, bytes, c->place, c->shift);
	uint64_t *rp = gb_alloc(&gr, 2 * bytes, c->place, c->shift);

	memcpy(ap, a, bytes);
	fill_garbage64(rp, 2 * n);
	if (exp_r)
		memcpy(want, exp_r, 2 * bytes);
	else
		or_sqr(want, a, n);

	crash_note(c->t->label, c->what, n);
	((lf_mpn_sqr_fn)c->fn)(rp, ap, n);

	size_t d = first_diff64(rp, want, 2 * n);
	ck_assert_msg(d == 2 * n, "%s [%s] %s (%s, +%zu): n=%zu: limb %zu of 2n = %#018llx, "
	              "want %#018llx", LABEL(c), n, d, (unsigned long long)rp[d],
	              (unsigned long long)want[d]);
	ASSERT_CANARIES(&gr, c->t->label, "rp", c->what);
	ASSERT_CANARIES(&ga, c->t->label, "ap", c->what);
	ck_assert_msg(memcmp(ap, a, bytes) == 0, "%s [%s] %s: input ap modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	gb_free(&ga);
	gb_free(&gr);
	free(want);
	cov_add(c->t, c->kind, 1);
}

void exec_mul_add(const struct exec_ctx *c, const uint32_t *out0, size_t out_len,
                  const uint32_t *in, size_t offset, size_t len, uint32_t k, int inplace,
                  const uint32_t *exp_out, const uint32_t *exp_ret)
{
	size_t obytes = out_len * sizeof(uint32_t), ibytes = len * sizeof(uint32_t);
	size_t wstart = out_len - offset - len;   /* first word of the window */
	uint32_t *want = xmalloc(obytes), *icopy = xmalloc(ibytes), wret;
	struct gbuf go, gi;
	uint32_t *out, *inp;

	ck_assert_msg(offset < out_len && len <= out_len - offset, "test bug: bad window");
	memcpy(want, out0, obytes);
	memcpy(icopy, inplace ? out0 + wstart : in, ibytes);
	out = gb_alloc(&go, obytes, c->place, c->shift);
	memcpy(out, out0, obytes);
	if (inplace) {
		inp = out + wstart;
	} else {
		inp = gb_alloc(&gi, ibytes, c->place, c->shift);
		memcpy(inp, in, ibytes);
	}
	if (exp_out) {
		memcpy(want, exp_out, obytes);
		wret = *exp_ret;
	} else {
		wret = or_mul_add(want, out_len, icopy, offset, len, k);
	}

	crash_note(c->t->label, c->what, len);
	uint32_t got = ((lf_bi_mul_add_fn)c->fn)(out, out_len, inp, offset, len, k);

	size_t d = first_diff32(out, want, out_len);
	ck_assert_msg(d == out_len, "%s [%s] %s (%s, +%zu): out_len=%zu offset=%zu len=%zu "
	              "k=%#010x%s: out[%zu] = %#010x, want %#010x (window is out[%zu..%zu])",
	              LABEL(c), out_len, offset, len, k, inplace ? " in-place" : "", d, out[d],
	              want[d], wstart, wstart + len - 1);
	ck_assert_msg(got == wret, "%s [%s] %s (%s, +%zu): out_len=%zu offset=%zu len=%zu "
	              "k=%#010x%s: returned %#010x, want %#010x", LABEL(c), out_len, offset, len,
	              k, inplace ? " in-place" : "", got, wret);
	ASSERT_CANARIES(&go, c->t->label, "out", c->what);
	if (!inplace) {
		ASSERT_CANARIES(&gi, c->t->label, "in", c->what);
		ck_assert_msg(memcmp(inp, icopy, ibytes) == 0, "%s [%s] %s: input `in` modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gi);
	}
	gb_free(&go);
	free(want);
	free(icopy);
	cov_add(c->t, c->kind, 1);
}

void exec_square_to_len(const struct exec_ctx *c, const uint32_t *x, size_t len,
                        const uint32_t *exp_z)
{
	size_t bytes = len * sizeof(uint32_t);
	uint32_t *want = xmalloc(2 * bytes);
	struct gbuf gx, gz;
	uint32_t *xp = gb_alloc(&gx, bytes, c->place, c->shift);
	uint32_t *zp = gb_alloc(&gz, 2 * bytes, c->place, c->shift);

	memcpy(xp, x, bytes);
	fill_garbage32(zp, 2 * len);
	if (exp_z)
		memcpy(want, exp_z, 2 * bytes);
	else
		or_square_to_len(x, len, want);

	crash_note(c->t->label, c->what, len);
	((lf_bi_square_to_len_fn)c->fn)(xp, len, zp);

	size_t d = first_diff32(zp, want, 2 * len);
	ck_assert_msg(d == 2 * len, "%s [%s] %s (%s, +%zu): len=%zu: z[%zu] of 2*len = %#010x, "
	              "want %#010x", LABEL(c), len, d, zp[d], want[d]);
	ASSERT_CANARIES(&gz, c->t->label, "z", c->what);
	ASSERT_CANARIES(&gx, c->t->label, "x", c->what);
	ck_assert_msg(memcmp(xp, x, bytes) == 0, "%s [%s] %s: input x modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	gb_free(&gx);
	gb_free(&gz);
	free(want);
	cov_add(c->t, c->kind, 1);
}

void exec_mul(const struct exec_ctx *c, const uint64_t *a, size_t an, const uint64_t *b,
              size_t bn, int same, const uint64_t *exp_r)
{
	size_t rn = an + bn;
	uint64_t *want = xmalloc(rn * 8 + 8);
	struct gbuf ga, gb, gr;
	uint64_t *ap, *bp, *rp;

	ck_assert_msg(!same || an == bn, "test bug: ap == bp needs an == bn");
	ap = gb_alloc(&ga, an * 8, c->place, c->shift);
	memcpy(ap, a, an * 8);
	if (same) {
		bp = ap;
		b = a;
	} else {
		bp = gb_alloc(&gb, bn * 8, c->place, c->shift);
		memcpy(bp, b, bn * 8);
	}
	rp = gb_alloc(&gr, rn * 8, c->place, c->shift);
	fill_garbage64(rp, rn);
	if (exp_r)
		memcpy(want, exp_r, rn * 8);
	else
		or_mul(want, a, an, b, bn);

	crash_note(c->t->label, c->what, an);
	((lf_mpn_mul_fn)c->fn)(rp, ap, an, bp, bn);

	size_t d = first_diff64(rp, want, rn);
	ck_assert_msg(d == rn, "%s [%s] %s (%s, +%zu): an=%zu bn=%zu%s: limb %zu of an+bn = "
	              "%#018llx, want %#018llx", LABEL(c), an, bn, same ? " ap == bp" : "", d,
	              (unsigned long long)rp[d], (unsigned long long)want[d]);
	ASSERT_CANARIES(&gr, c->t->label, "rp", c->what);
	ASSERT_CANARIES(&ga, c->t->label, "ap", c->what);
	ck_assert_msg(memcmp(ap, a, an * 8) == 0, "%s [%s] %s: input ap modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	if (!same) {
		ASSERT_CANARIES(&gb, c->t->label, "bp", c->what);
		ck_assert_msg(memcmp(bp, b, bn * 8) == 0, "%s [%s] %s: input bp modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gb);
	}
	gb_free(&ga);
	gb_free(&gr);
	free(want);
	cov_add(c->t, c->kind, 1);
}

void exec_multiply_to_len(const struct exec_ctx *c, const uint32_t *x, size_t xlen,
                          const uint32_t *y, size_t ylen, int same, const uint32_t *exp_z)
{
	size_t zn = xlen + ylen;
	uint32_t *want = xmalloc(zn * 4 + 4);
	struct gbuf gx, gy, gz;
	uint32_t *xp, *yp, *zp;

	ck_assert_msg(!same || xlen == ylen, "test bug: x == y needs xlen == ylen");
	xp = gb_alloc(&gx, xlen * 4, c->place, c->shift);
	memcpy(xp, x, xlen * 4);
	if (same) {
		yp = xp;
		y = x;
	} else {
		yp = gb_alloc(&gy, ylen * 4, c->place, c->shift);
		memcpy(yp, y, ylen * 4);
	}
	zp = gb_alloc(&gz, zn * 4, c->place, c->shift);
	fill_garbage32(zp, zn);
	if (exp_z)
		memcpy(want, exp_z, zn * 4);
	else
		or_multiply_to_len(x, xlen, y, ylen, want);

	crash_note(c->t->label, c->what, xlen);
	((lf_bi_multiply_to_len_fn)c->fn)(xp, xlen, yp, ylen, zp);

	size_t d = first_diff32(zp, want, zn);
	ck_assert_msg(d == zn, "%s [%s] %s (%s, +%zu): xlen=%zu ylen=%zu%s: z[%zu] of xlen+ylen = "
	              "%#010x, want %#010x", LABEL(c), xlen, ylen, same ? " x == y" : "", d, zp[d],
	              want[d]);
	ASSERT_CANARIES(&gz, c->t->label, "z", c->what);
	ASSERT_CANARIES(&gx, c->t->label, "x", c->what);
	ck_assert_msg(memcmp(xp, x, xlen * 4) == 0, "%s [%s] %s: input x modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	if (!same) {
		ASSERT_CANARIES(&gy, c->t->label, "y", c->what);
		ck_assert_msg(memcmp(yp, y, ylen * 4) == 0, "%s [%s] %s: input y modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gy);
	}
	gb_free(&gx);
	gb_free(&gz);
	free(want);
	cov_add(c->t, c->kind, 1);
}

void exec_montmul(const struct exec_ctx *c, const uint64_t *a, const uint64_t *b,
                  const uint64_t *np, size_t n, int same, const uint64_t *exp_r,
                  struct or_mont_info *info)
{
	size_t bytes = n * 8;
	uint64_t *want = xmalloc(bytes + 8), n0inv = n ? or_neg_inv64(np[0]) : 0;
	struct or_mont_info loc = { 0, 0, 0, 0, 0, NULL };
	struct gbuf ga, gb, gn, gr;
	uint64_t *ap, *bp, *nq, *rp;

	if (same)
		b = a;
	if (!info)
		info = &loc;
	ap = gb_alloc(&ga, bytes, c->place, c->shift);
	memcpy(ap, a, bytes);
	if (same) {
		bp = ap;
	} else {
		bp = gb_alloc(&gb, bytes, c->place, c->shift);
		memcpy(bp, b, bytes);
	}
	nq = gb_alloc(&gn, bytes, c->place, c->shift);
	memcpy(nq, np, bytes);
	rp = gb_alloc(&gr, bytes, c->place, c->shift);
	fill_garbage64(rp, n);
	if (n) {
		or_montmul(want, a, b, np, n, info);    /* info (and want unless known) */
		if (exp_r)
			memcpy(want, exp_r, bytes);
	}

	crash_note(c->t->label, c->what, n);
	((lf_mpn_montmul_fn)c->fn)(rp, ap, bp, nq, n0inv, n);

	if (n && !info->reduced) {
		/* both operands in [N, R): congruent to the oracle's value (and below R, which n
		 * limbs are) */
		uint64_t *red = xmalloc(bytes);
		or_mod(red, rp, np, n);
		size_t d = first_diff64(red, want, n);
		ck_assert_msg(d == n, "%s [%s] %s (%s, +%zu): n=%zu, an operand >= N%s: result not "
		              "congruent to a b R^-1 mod N (limb %zu of it mod N = %#018llx, want "
		              "%#018llx)", LABEL(c), n, same ? ", ap == bp" : "", d,
		              (unsigned long long)red[d], (unsigned long long)want[d]);
		free(red);
	} else {
		size_t d = first_diff64(rp, want, n);
		ck_assert_msg(d == n, "%s [%s] %s (%s, +%zu): n=%zu%s%s: limb %zu = %#018llx, want "
		              "%#018llx (fully reduced)", LABEL(c), n, same ? " ap == bp" : "",
		              info->subtract ? " (final subtraction due)" : "", d,
		              (unsigned long long)rp[d], (unsigned long long)want[d]);
	}
	ASSERT_CANARIES(&gr, c->t->label, "rp", c->what);
	ASSERT_CANARIES(&ga, c->t->label, "ap", c->what);
	ASSERT_CANARIES(&gn, c->t->label, "np", c->what);
	ck_assert_msg(memcmp(ap, a, bytes) == 0, "%s [%s] %s: input ap modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	ck_assert_msg(memcmp(nq, np, bytes) == 0, "%s [%s] %s: input np modified", c->t->label,
	              cov_kind_name[c->kind], c->what);
	if (!same) {
		ASSERT_CANARIES(&gb, c->t->label, "bp", c->what);
		ck_assert_msg(memcmp(bp, b, bytes) == 0, "%s [%s] %s: input bp modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gb);
	}
	gb_free(&ga);
	gb_free(&gn);
	gb_free(&gr);
	free(want);
	cov_add(c->t, c->kind, 1);
}

const char *const p256_alias_name[P256_NALIAS] = {
	"r, a, b separate", "r == a", "r == b", "a == b", "r == a == b",
};

void exec_p256(const struct exec_ctx *c, int sqr, const uint64_t a[4], const uint64_t b[4],
               enum p256_alias alias, const uint64_t *exp_r, struct or_p256_info *info)
{
	struct or_p256_info loc;
	struct gbuf ga, gb, gr;
	uint64_t want[4], got[4], *ap, *bp, *rp;
	if (sqr && (alias == P256_RB || alias == P256_AB || alias == P256_ALL))
		alias = alias == P256_RB ? P256_SEP : alias == P256_AB ? P256_SEP : P256_RA;
	if (sqr || alias == P256_AB || alias == P256_ALL)
		b = a;
	if (!info)
		info = &loc;
	or_p256_mont(want, a, b, info);
	if (exp_r)
		memcpy(want, exp_r, 32);

	ap = gb_alloc(&ga, 32, c->place, c->shift);
	memcpy(ap, a, 32);
	bp = alias == P256_AB || alias == P256_ALL ? ap : gb_alloc(&gb, 32, c->place, c->shift);
	if (bp != ap)
		memcpy(bp, b, 32);
	rp = alias == P256_RA || alias == P256_ALL ? ap : alias == P256_RB ? bp :
	     gb_alloc(&gr, 32, c->place, c->shift);
	if (rp != ap && rp != bp)
		fill_garbage64(rp, 4);

	crash_note(c->t->label, c->what, 4);
	if (sqr)
		((lf_p256_sqr_mont_fn)c->fn)(rp, ap);
	else
		((lf_p256_mul_mont_fn)c->fn)(rp, ap, bp);

	memcpy(got, rp, 32);
	if (!info->reduced)
		or_p256_mod(got, got);          /* outside the contract: congruent, below 2^256 */
	size_t d = first_diff64(got, want, 4);
	ck_assert_msg(d == 4, "%s [%s] %s (%s, +%zu): p256_%s_mont, %s%s%s: limb %zu = %#018llx, "
	              "want %#018llx", LABEL(c), sqr ? "sqr" : "mul", p256_alias_name[alias],
	              info->subtract ? " (final subtraction due)" : "",
	              info->reduced ? " (fully reduced)" : " (an input >= p: mod p)", d,
	              (unsigned long long)got[d], (unsigned long long)want[d]);
	ASSERT_CANARIES(&ga, c->t->label, "a", c->what);
	if (rp != ap)
		ck_assert_msg(memcmp(ap, a, 32) == 0, "%s [%s] %s: input a modified", c->t->label,
		              cov_kind_name[c->kind], c->what);
	if (bp != ap) {
		ASSERT_CANARIES(&gb, c->t->label, "b", c->what);
		if (rp != bp)
			ck_assert_msg(memcmp(bp, b, 32) == 0, "%s [%s] %s: input b modified",
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

void exec_assign(const struct exec_ctx *c, int set, const int64_t *a, const int64_t *b,
                 size_t n, int same)
{
	size_t bytes = n * 8;
	struct gbuf ga, gb;
	int64_t *want = xmalloc(bytes + 8), *ap, *bp;
	if (same)
		b = a;
	if (n)
		memcpy(want, set ? b : a, bytes);
	ap = gb_alloc(&ga, bytes, c->place, c->shift);
	if (n)
		memcpy(ap, a, bytes);
	bp = same ? ap : gb_alloc(&gb, bytes, c->place, c->shift);
	if (!same && n)
		memcpy(bp, b, bytes);

	crash_note(c->t->label, c->what, n);
	((lf_conditional_assign_fn)c->fn)(set, ap, bp, n);

	size_t d = first_diff64((const uint64_t *)ap, (const uint64_t *)want, n);
	ck_assert_msg(d == n, "%s [%s] %s (%s, +%zu): n=%zu, set=%d%s: a[%zu] = %#018llx, want "
	              "%#018llx (%s)", LABEL(c), n, set, same ? ", a == b" : "", d,
	              (unsigned long long)ap[d], (unsigned long long)want[d], set ? "b's" : "a's");
	ASSERT_CANARIES(&ga, c->t->label, "a", c->what);
	if (!same) {
		ASSERT_CANARIES(&gb, c->t->label, "b", c->what);
		ck_assert_msg(n == 0 || memcmp(bp, b, bytes) == 0, "%s [%s] %s: input b modified",
		              c->t->label, cov_kind_name[c->kind], c->what);
		gb_free(&gb);
	}
	gb_free(&ga);
	free(want);
	cov_add(c->t, c->kind, 1);
}
