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
