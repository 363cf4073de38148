/*
 * test_modpow.c -- lf_bi_mod_pow and lf_bi_mod_pow_consttime (BigInteger.oddModPow on
 * BE-words) with each runnable mpn_montmul variant forced, against GMP's mpz_powm.
 *
 * Faults this is designed to catch:
 *   - the Montgomery set-up without division going wrong: R^2 mod N by doublings and
 *     squarings, N shifted to its top bit, for moduli of every shape (random, all ones,
 *     2^k - small, 1 mod 2^32, top word 1) and word lengths 1..5, 8, 16, 17, 31..33, 63..65,
 *     96, 128, 130 (odd word lengths: half a limb; 31..33 and 127..130 words put n around
 *     the IFMA variant's 16- and 64-limb bounds);
 *   - leading zero words of the modulus not stripped (mod_len > significant length; the
 *     result must still have mod_len words, the top ones 0);
 *   - a base not reduced: base >= mod, base = mod, mod +- 1, base longer than the modulus
 *     (Horner over n-limb chunks), base 0 (and base_len 0), 1, mod - 1;
 *   - the exponent walk: exponents 0 (and exp_len 0: the result 1 mod m), 1, 2, 3, 65537
 *     (the window size special case), random 2048-bit ones (all window sizes of both
 *     functions), random short ones, leading zero words (the constant-time one walks
 *     them all);
 *   - the last step out of Montgomery form leaving N instead of 0 or a value >= N: every
 *     result is compared word for word (fully reduced);
 *   - modulus 1 (everything is 0), even or zero modulus not refused (LF_EINVAL, nothing
 *     written);
 *   - result aliasing base, exp or mod (allowed: it is written last);
 *   - a write outside result[0..mod_len) (canaries), a write into an input.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAXW 300

typedef int (*modpow_fn)(uint32_t *, const uint32_t *, size_t, const uint32_t *, size_t,
                         const uint32_t *, size_t);

static const struct {
	const char *name;
	modpow_fn fn;
} fns[] = {
	{ "lf_bi_mod_pow", lf_bi_mod_pow },
	{ "lf_bi_mod_pow_consttime", lf_bi_mod_pow_consttime },
};

enum alias { AL_NONE, AL_BASE, AL_EXP, AL_MOD };
static const char *const alias_name[] = { "", ", result == base", ", result == exp",
	                                  ", result == mod" };

/* One call; want is GMP's (or, with want_rc != 0, the refusal: nothing written). */
static void mp_call(const struct tvar *t, int f, const uint32_t *base, size_t base_len,
                    const uint32_t *exp, size_t exp_len, const uint32_t *mod, size_t mod_len,
                    enum alias al, const char *what)
{
	struct gbuf gr, gb, ge, gm;
	uint32_t *want = xmalloc(mod_len * 4 + 4), *garbage = xmalloc(mod_len * 4 + 4);
	int want_rc = 0;
	size_t sig = 0;
	while (sig < mod_len && mod[sig] == 0)
		sig++;
	if (sig == mod_len || !(mod[mod_len - 1] & 1))
		want_rc = LF_EINVAL;
	else
		or_mod_pow(want, base, base_len, exp, exp_len, mod, mod_len);

	uint32_t *b = gb_alloc(&gb, base_len * 4, GB_END, 0);
	uint32_t *e = gb_alloc(&ge, exp_len * 4, GB_START, 0);
	uint32_t *m = gb_alloc(&gm, mod_len * 4, GB_END, 0);
	uint32_t *r = gb_alloc(&gr, mod_len * 4, GB_MID, 0);
	memcpy(b, base, base_len * 4);
	memcpy(e, exp, exp_len * 4);
	memcpy(m, mod, mod_len * 4);
	fill_garbage32(r, mod_len);
	memcpy(garbage, r, mod_len * 4);
	uint32_t *res = al == AL_BASE ? b : al == AL_EXP ? e : al == AL_MOD ? m : r;
	ck_assert_msg(al == AL_NONE || (al == AL_BASE ? base_len : al == AL_EXP ? exp_len
	                                                                       : mod_len) == mod_len,
	              "test bug: aliasing needs equal lengths");

	crash_note(t->label, what, mod_len);
	int rc = fns[f].fn(res, b, base_len, e, exp_len, m, mod_len);

	ck_assert_msg(rc == want_rc, "%s with %s forced: %s (base_len %zu, exp_len %zu, mod_len "
	              "%zu%s): returned %d, want %d", fns[f].name, t->label, what, base_len, exp_len,
	              mod_len, alias_name[al], rc, want_rc);
	if (want_rc) {
		ck_assert_msg(memcmp(r, garbage, mod_len * 4) == 0, "%s: %s: refused, but the "
		              "result was written", fns[f].name, what);
	} else {
		size_t d = 0;
		while (d < mod_len && res[d] == want[d])
			d++;
		ck_assert_msg(d == mod_len, "%s with %s forced: %s (base_len %zu, exp_len %zu, "
		              "mod_len %zu%s): result[%zu] = %#010x, want %#010x", fns[f].name,
		              t->label, what, base_len, exp_len, mod_len, alias_name[al], d, res[d],
		              want[d]);
	}
	ASSERT_CANARIES(&gr, t->label, "result", what);
	ASSERT_CANARIES(&gb, t->label, "base", what);
	ASSERT_CANARIES(&ge, t->label, "exp", what);
	ASSERT_CANARIES(&gm, t->label, "mod", what);
	if (al != AL_BASE)
		ck_assert_msg(memcmp(b, base, base_len * 4) == 0, "%s: %s: base modified",
		              fns[f].name, what);
	if (al != AL_EXP)
		ck_assert_msg(memcmp(e, exp, exp_len * 4) == 0, "%s: %s: exp modified", fns[f].name,
		              what);
	if (al != AL_MOD)
		ck_assert_msg(memcmp(m, mod, mod_len * 4) == 0, "%s: %s: mod modified", fns[f].name,
		              what);
	gb_free(&gr);
	gb_free(&gb);
	gb_free(&ge);
	gb_free(&gm);
	free(want);
	free(garbage);
	cov_add(t, COV_API, 1);
}

enum { MK_RANDOM, MK_ONES, MK_2K_SMALL, MK_1MOD32, MK_TOP1, N_MK };
static const char *const mk_name[N_MK] = { "random odd modulus", "all-ones modulus",
	                                   "modulus 2^k - small", "modulus 1 mod 2^32",
	                                   "modulus with top word 1" };

/* mod_len words: `lead` zero words, then an mw-word odd modulus of kind k */
static void make_mod(uint32_t *m, size_t lead, size_t mw, int k, rng_t *r)
{
	memset(m, 0, lead * 4);
	uint32_t *s = m + lead;
	fill32be(s, mw, k == MK_ONES || k == MK_2K_SMALL ? PAT_ONES : PAT_RANDOM, r);
	if (k == MK_2K_SMALL)
		s[mw - 1] -= 2 * (uint32_t)(rng_next(r) % 1000 + 1);
	if (k == MK_1MOD32)
		s[mw - 1] = 1;
	if (k == MK_TOP1 && mw > 1)
		s[0] = 1;
	if (s[0] == 0)
		s[0] = 1 + (mw == 1) * 2;
	s[mw - 1] |= 1;
}

enum { B_RANDOM, B_MODM1, B_MOD, B_MODP1, B_LONG, B_ZERO, B_EMPTY, B_ONE, N_B };
static const char *const base_name[N_B] = { "random base", "base = mod - 1", "base = mod",
	                                    "base = mod + 1", "base longer than mod",
	                                    "base 0", "base_len 0", "base 1" };

/* the base: returns its length */
static size_t make_base(uint32_t *b, const uint32_t *m, size_t mod_len, int k, rng_t *r)
{
	size_t i;
	switch (k) {
	case B_MODM1:
	case B_MOD:
		memcpy(b, m, mod_len * 4);
		if (k == B_MODM1)         /* mod odd: the low word is >= 1, no borrow */
			b[mod_len - 1] -= 1;
		return mod_len;
	case B_MODP1:                     /* one more word: mod + 1 may carry out (all ones) */
		b[0] = 0;
		memcpy(b + 1, m, mod_len * 4);
		for (i = mod_len + 1; i-- > 0;)
			if (++b[i] != 0)
				break;
		return mod_len + 1;
	case B_LONG:
		fill32be(b, 2 * mod_len + 3, PAT_RANDOM, r);
		return 2 * mod_len + 3;
	case B_ZERO:
		fill32be(b, mod_len, PAT_ZERO, r);
		return mod_len;
	case B_EMPTY:
		return 0;
	case B_ONE:
		fill32be(b, 3, PAT_ONE, r);
		return 3;
	case B_RANDOM:
	default:
		fill32be(b, mod_len, PAT_RANDOM, r);
		for (i = 0; i < mod_len && m[i] == 0; i++)
			b[i] = 0;
		return mod_len;
	}
}

enum { E_ZERO, E_EMPTY, E_ONE, E_THREE, E_65537, E_SHORT, E_LEADZ, N_E };
static const char *const exp_name[N_E] = { "exp 0", "exp_len 0", "exp 1", "exp 3",
	                                   "exp 65537", "random 3-word exp",
	                                   "random exp behind 2 zero words" };

static size_t make_exp(uint32_t *e, int k, rng_t *r)
{
	switch (k) {
	case E_ZERO:
		e[0] = 0;
		return 1;
	case E_EMPTY:
		return 0;
	case E_ONE:
	case E_THREE:
		e[0] = 0;
		e[1] = k == E_ONE ? 1 : 3;
		return 2;
	case E_65537:
		e[0] = 65537;
		return 1;
	case E_LEADZ:
		e[0] = e[1] = 0;
		fill32be(e + 2, 2, PAT_RANDOM, r);
		return 4;
	case E_SHORT:
	default:
		fill32be(e, 3, PAT_RANDOM, r);
		return 3;
	}
}

static const size_t mod_words[] = { 1, 2, 3, 4, 5, 8, 16, 17, 31, 32, 33, 63, 64, 65, 96,
	                            128, 130 };

static int force(const struct tvar *t)
{
	ck_assert_msg(lf_impl_force("mpn_montmul", t->v->name) == 0, "cannot force %s", t->label);
	return 1;
}

START_TEST(test_modpow_shapes)
{
	const struct tvar *t = tv_runnable(LF_K_mpn_montmul, (size_t)_i);
	uint32_t m[MAXW], b[MAXW], e[8];
	char what[160];
	rng_t rng;
	rng_init(&rng, t->label, 91);
	force(t);
	for (size_t mi = 0; mi < NLEN(mod_words); mi++) {
		size_t mw = mod_words[mi];
		for (int ek = 0; ek < N_E; ek++) {
			int mk = (int)((ek + mi) % N_MK);
			size_t lead = (ek + mi) % 3 == 2 ? 2 : 0, mod_len = mw + lead;
			make_mod(m, lead, mw, mk, &rng);
			size_t el = make_exp(e, ek, &rng);
			for (int j = 0; j < 2; j++) {
				int bk = (int)((2 * ek + j + mi) % N_B);
				size_t bl = make_base(b, m, mod_len, bk, &rng);
				snprintf(what, sizeof what, "%s, %zu words + %zu leading zeros, %s, %s",
				         mk_name[mk], mw, lead, exp_name[ek], base_name[bk]);
				mp_call(t, j, b, bl, e, el, m, mod_len, AL_NONE, what);
				mp_call(t, !j, b, bl, e, el, m, mod_len, AL_NONE, what);
			}
		}
	}
	lf_impl_force("mpn_montmul", NULL);
}
END_TEST

START_TEST(test_modpow_long_exp)
{
	const struct tvar *t = tv_runnable(LF_K_mpn_montmul, (size_t)_i);
	static const size_t mws[] = { 1, 2, 17, 32, 64, 65 };
	static const size_t ebits[] = { 7, 25, 81, 241, 673, 1793, 2048 }; /* every window size */
	uint32_t m[MAXW], b[MAXW], e[64];
	char what[160];
	rng_t rng;
	rng_init(&rng, t->label, 92);
	force(t);
	for (size_t mi = 0; mi < NLEN(mws); mi++) {
		size_t mw = mws[mi];
		make_mod(m, 0, mw, mi % 2 ? MK_ONES : MK_RANDOM, &rng);
		size_t bl = make_base(b, m, mw, mi == 2 ? B_LONG : B_RANDOM, &rng);
		fill32be(e, 64, PAT_RANDOM, &rng);
		e[0] |= 0x80000000u;
		snprintf(what, sizeof what, "%zu-word %s, random 2048-bit exp", mw,
		         mi % 2 ? "all-ones modulus" : "random modulus");
		for (int f = 0; f < 2; f++)
			mp_call(t, f, b, bl, e, 64, m, mw, AL_NONE, what);
	}
	/* exponents just above each threshold of bnExpModThreshTable and the ct table */
	make_mod(m, 1, 32, MK_RANDOM, &rng);
	size_t bl = make_base(b, m, 33, B_RANDOM, &rng);
	for (size_t k = 0; k < NLEN(ebits); k++) {
		size_t el = (ebits[k] + 31) / 32;
		fill32be(e, el, PAT_RANDOM, &rng);
		e[0] &= (uint32_t)(UINT64_C(0xffffffff) >> (32 * el - ebits[k]));
		e[0] |= UINT32_C(1) << ((ebits[k] - 1) % 32);
		snprintf(what, sizeof what, "padded 32-word modulus, %zu-bit exp", ebits[k]);
		for (int f = 0; f < 2; f++)
			mp_call(t, f, b, bl, e, el, m, 33, AL_NONE, what);
	}
	lf_impl_force("mpn_montmul", NULL);
}
END_TEST

START_TEST(test_modpow_edges)
{
	const struct tvar *t = tv_runnable(LF_K_mpn_montmul, (size_t)_i);
	uint32_t m[40], b[90], e[8];
	rng_t rng;
	rng_init(&rng, t->label, 93);
	force(t);
	for (int f = 0; f < 2; f++) {
		/* modulus 1, with and without leading zeros: everything is 0, exponent 0 too */
		static const uint32_t one[3] = { 0, 0, 1 }, seven[1] = { 7 }, zero[1] = { 0 };
		mp_call(t, f, seven, 1, zero, 1, one + 2, 1, AL_NONE, "modulus 1, exp 0");
		mp_call(t, f, seven, 1, seven, 1, one, 3, AL_NONE, "modulus 1 behind zero words");
		mp_call(t, f, seven, 0, seven, 0, one, 3, AL_NONE, "modulus 1, base_len = exp_len = 0");
		/* refused moduli: even, zero (several words), even behind zeros */
		static const uint32_t even[2] = { 5, 4 }, zeros[3] = { 0, 0, 0 }, even2[3] = { 0, 1, 0 };
		mp_call(t, f, seven, 1, seven, 1, even, 2, AL_NONE, "even modulus");
		mp_call(t, f, seven, 1, seven, 1, zeros, 3, AL_NONE, "zero modulus");
		mp_call(t, f, seven, 1, seven, 1, even2, 3, AL_NONE, "even modulus behind zeros");
		/* aliasing: result over base, exp or mod */
		for (size_t mw = 1; mw <= 33; mw += 8) {
			make_mod(m, 1, mw, MK_RANDOM, &rng);
			make_base(b, m, mw + 1, B_RANDOM, &rng);
			fill32be(e, mw + 1 < 8 ? mw + 1 : 8, PAT_RANDOM, &rng);
			size_t el = mw + 1 < 8 ? mw + 1 : 8;
			mp_call(t, f, b, mw + 1, e, el, m, mw + 1, AL_BASE, "aliasing");
			mp_call(t, f, b, mw + 1, e, el, m, mw + 1, AL_MOD, "aliasing");
			if (el == mw + 1)
				mp_call(t, f, b, mw + 1, e, el, m, mw + 1, AL_EXP, "aliasing");
		}
		/* saturating: all-ones modulus, base = mod - 1 = -1: (-1)^e */
		for (size_t mw = 1; mw <= 40; mw += 13) {
			make_mod(m, 0, mw, MK_ONES, &rng);
			make_base(b, m, mw, B_MODM1, &rng);
			e[0] = 0x80000001u, e[1] = 0xffffffffu;
			mp_call(t, f, b, mw, e, 2, m, mw, AL_NONE, "all-ones modulus, base -1");
			e[1] = 0xfffffffeu;
			mp_call(t, f, b, mw, e, 2, m, mw, AL_NONE, "all-ones modulus, base -1, even exp");
		}
	}
	lf_impl_force("mpn_montmul", NULL);
}
END_TEST

static void restore(void)
{
	lf_impl_force("mpn_montmul", NULL);
}

Suite *suite_modpow(void)
{
	Suite *s = suite_create("modpow");
	TCase *tc = tcase_create("mod_pow");
	int n = (int)tv_runnable_count(LF_K_mpn_montmul);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	tcase_add_loop_test(tc, test_modpow_edges, 0, n);
	tcase_add_loop_test(tc, test_modpow_shapes, 0, n);
	tcase_add_loop_test(tc, test_modpow_long_exp, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
