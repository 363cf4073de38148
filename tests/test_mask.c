/*
 * test_mask.c -- lf_cpu_mask: restricting features at run time re-resolves every kernel.
 *
 * Faults this is designed to catch:
 *   - a kernel slot not re-resolved after lf_cpu_mask (a masked variant keeps running);
 *   - lf_cpu_mask adding features back (it is cumulative and may only remove);
 *   - an lf_impl_force surviving lf_cpu_mask (the header says it is dropped), or a masked
 *     variant still forceable/listed;
 *   - the re-resolved function computing a wrong answer (one small oracle check per step:
 *     mpn_addmul_1, bi_mul_add, mpn_montmul, Poly1305, p256_mul_mont/sqr_mont,
 *     conditional_assign, p256_mont_mult/square/mult_x8, the field products, lf_x25519 /
 *     lf_x448 (the ladder kernels), fe_c25519_r51_mul_x4).
 * lf_cpu_mask cannot be undone in a process, so this suite is added last by check_main
 * (in no-fork mode -- qemu -- everything runs in one process).
 */
#include <string.h>

#include "harness.h"
#include "fe_kernels.h"
#include "lf_fields.h"
#include "kat.h"

static size_t expected_choice(const struct lf_kernel *k, uint64_t allowed)
{
	return tv_expected_choice(k, allowed, lf_schedule_current());
}

/* the kernels check_api reaches through LF_CALL_NOW (besides the field products, fe_*) */
static const char *const api_called[] = { "mpn_addmul_1", "bi_mul_add", "mpn_montmul",
	"p256_mul_mont", "p256_sqr_mont", "conditional_assign", "p256_mont_mult",
	"p256_mont_square", "p256_mont_mult_x8", "x25519_ladder", "x448_ladder",
	"poly1305_blocks", NULL };

/* One oracle check per kernel through its public entry point. */
static void check_api(const char *when)
{
	uint64_t a[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX }, r[3] = { 1, 2, UINT64_MAX };
	uint64_t w[3] = { 1, 2, UINT64_MAX };
	uint64_t c1 = lf_mpn_addmul_1(r, a, 3, UINT64_MAX), c2 = or_addmul_1(w, a, 3, UINT64_MAX);
	ck_assert_msg(c1 == c2 && memcmp(r, w, sizeof r) == 0, "%s: lf_mpn_addmul_1 (%s) wrong",
	              when, lf_impl("mpn_addmul_1"));
	uint32_t o[3] = { 5, UINT32_MAX, UINT32_MAX }, wo[3] = { 5, UINT32_MAX, UINT32_MAX };
	uint32_t in[2] = { UINT32_MAX, UINT32_MAX };
	uint32_t d1 = lf_bi_mul_add(o, 3, in, 0, 2, UINT32_MAX);
	uint32_t d2 = or_mul_add(wo, 3, in, 0, 2, UINT32_MAX);
	ck_assert_msg(d1 == d2 && memcmp(o, wo, sizeof o) == 0, "%s: lf_bi_mul_add (%s) wrong",
	              when, lf_impl("bi_mul_add"));
	/* Montgomery: N = 2^192 - 2^64 - 1 (odd, top limb all ones), a = b = N - 1 */
	uint64_t N[3] = { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX }, ma[3], mr[3], mw[3];
	memcpy(ma, N, sizeof ma);
	ma[0] -= 1;
	lf_mpn_montmul(mr, ma, ma, N, or_neg_inv64(N[0]), 3);
	or_montmul(mw, ma, ma, N, 3, NULL);
	ck_assert_msg(memcmp(mr, mw, sizeof mr) == 0, "%s: lf_mpn_montmul (%s) wrong", when,
	              lf_impl("mpn_montmul"));
	/* P-256: a = p - 1, b = 2^192 - 1 (r == a for mul) */
	uint64_t pa[4], pb[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, 0 }, pw[4], pr[4];
	or_p256_prime(pa);
	pa[0] -= 1;
	or_p256_mont(pw, pa, pb, NULL);
	memcpy(pr, pa, sizeof pr);
	lf_p256_mul_mont(pr, pr, pb);
	ck_assert_msg(memcmp(pr, pw, sizeof pr) == 0, "%s: lf_p256_mul_mont (%s) wrong", when,
	              lf_impl("p256_mul_mont"));
	or_p256_mont(pw, pb, pb, NULL);
	lf_p256_sqr_mont(pr, pb);
	ck_assert_msg(memcmp(pr, pw, sizeof pr) == 0, "%s: lf_p256_sqr_mont (%s) wrong", when,
	              lf_impl("p256_sqr_mont"));
	/* conditional_assign: 19 limbs (the vector blocks and the 2- and 1-limb tails), set 1
	 * then 0 */
	int64_t ca[19], cb[19], cw[19];
	for (int i = 0; i < 19; i++)
		ca[i] = i * 3 + 1, cb[i] = INT64_MIN + i, cw[i] = cb[i];
	lf_conditional_assign(1, ca, cb, 19);
	lf_conditional_assign(0, ca, (const int64_t *)pb, 3);
	ck_assert_msg(memcmp(ca, cw, sizeof ca) == 0, "%s: lf_conditional_assign (%s) wrong", when,
	              lf_impl("conditional_assign"));
	/* MontgomeryIntegerPolynomialP256: p - 1 times h (r == a), its square, and x8 with
	 * element k = p - 1 - k times h */
	int64_t ma5[5], mh[5], mw5[5], mx[40], mhx[40], mwx[40];
	or_p256m_value(ma5, NULL, 3);
	or_p256m_value(mh, NULL, 2);
	or_p256m_mont(mw5, ma5, mh, NULL);
	lf_p256_mont_mult(ma5, ma5, mh);
	ck_assert_msg(memcmp(ma5, mw5, sizeof ma5) == 0, "%s: lf_p256_mont_mult (%s) wrong", when,
	              lf_impl("p256_mont_mult"));
	or_p256m_mont(mw5, mh, mh, NULL);
	lf_p256_mont_square(ma5, mh);
	ck_assert_msg(memcmp(ma5, mw5, sizeof ma5) == 0, "%s: lf_p256_mont_square (%s) wrong", when,
	              lf_impl("p256_mont_square"));
	for (int k = 0; k < 8; k++) {
		or_p256m_value(mx + 5 * k, NULL, 3 + k);
		memcpy(mhx + 5 * k, mh, sizeof mh);
		or_p256m_mont(mwx + 5 * k, mx + 5 * k, mh, NULL);
	}
	lf_p256_mont_mult_x8(mx, mx, mhx);
	ck_assert_msg(memcmp(mx, mwx, sizeof mx) == 0, "%s: lf_p256_mont_mult_x8 (%s) wrong", when,
	              lf_impl("p256_mont_mult_x8"));
	/* the field products through lf_fe_<field>_<op>: every limb at the top of M times
	 * p - 1, r == a (square: the top of M squared) */
	for (size_t i = 0; i < fe_count(); i++) {
		const struct fe_kernel *fk = fe_at(i);
		int64_t fa[LF_TEST_FE_MAXLIMBS], fb[LF_TEST_FE_MAXLIMBS], fr[LF_TEST_FE_MAXLIMBS];
		char what[160];
		fe_elem(fk, fa, FE_MTOP, NULL);
		fe_elem(fk, fb, FE_PM1, NULL);
		memcpy(fr, fa, sizeof fr);
		if (fk->sqr)
			((lf_fe_square_fn)fk->api)(fr, fr);
		else
			((lf_fe_mul_fn)fk->api)(fr, fr, fb);
		snprintf(what, sizeof what, "%s: lf_%s (%s)", when, fk->name, lf_impl(fk->name));
		fe_assert_result(fk, what, "top of M times p - 1, r == a", fr, fa, fb);
	}
	/* the ladders through lf_x25519 / lf_x448 (RFC 7748 5.2's first vector) and the
	 * four-lane product through LF_CALL (every limb 2^52 - 1 times p - 1 in each lane) */
	for (size_t i = 0; i < xdh_count(); i++) {
		const struct xdh_ladder *L = xdh_at(i);
		uint8_t xo[56];
		L->api(xo, L->c->rfc[0].k, L->c->rfc[0].u);
		ck_assert_msg(memcmp(xo, L->c->rfc[0].out, L->nbytes) == 0, "%s: lf_%s (ladder %s) "
		              "misses RFC 7748 5.2", when, L->curve, lf_impl(L->name));
	}
	{
		int64_t xa[X4_LIMBS], xb[X4_LIMBS], xr[X4_LIMBS], e[5];
		char what[160];
		for (int l = 0; l < 4; l++) {
			x4_elem(e, X4_TOP, NULL);
			x4_put(xa, l, e);
			x4_elem(e, X4_PM1, NULL);
			x4_put(xb, l, e);
		}
		memcpy(xr, xa, sizeof xr);
		LF_CALL(fe_c25519_r51_mul_x4)(xr, xr, xb);
		snprintf(what, sizeof what, "%s: fe_c25519_r51_mul_x4 (%s)", when,
		         lf_impl("fe_c25519_r51_mul_x4"));
		x4_assert_result(what, "every limb 2^52 - 1 times p - 1, r == a", xr, xa, xb);
	}
	uint8_t msg[300], key[32], tag[16], want[16];
	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (uint8_t)(0xff - i % 7);
	memset(key, 0xff, sizeof key);
	lf_poly1305(tag, msg, sizeof msg, key);
	or_p1305(want, msg, sizeof msg, key, 1);
	ck_assert_msg(memcmp(tag, want, 16) == 0, "%s: lf_poly1305 (%s) wrong", when,
	              lf_impl("poly1305_blocks"));
}

/* Every kernel computes correctly (one mpn_addmul_1, bi_mul_add, mpn_montmul, Poly1305,
 * p256_mul_mont, p256_sqr_mont, conditional_assign, ... oracle check through the API), then
 * uses the best variant allowed by `allowed`, lists and forces accordingly.  The API calls
 * come first: after lf_cpu_mask every slot is empty, so each is a first call, through the
 * stub LF_CALL_NOW returns (it must resolve, publish the build and forward the call). */
static void check_state(uint64_t allowed, const char *when)
{
	ck_assert_msg(lf_cpu_features() == allowed, "%s: lf_cpu_features() = %#llx, want %#llx",
	              when, (unsigned long long)lf_cpu_features(), (unsigned long long)allowed);
	check_api(when);
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		lf_fnptr slot = atomic_load(&lf_dispatch_slot[kid]);
		int called = strncmp(k->name, "fe_", 3) == 0 && !strstr(k->name, "_x4");
		for (const char *const *c = api_called; *c && !called; c++)
			called = strcmp(*c, k->name) == 0;
		ck_assert_msg(called ? slot == k->variants[expected_choice(k, allowed)].fn
		                     : slot == NULL || slot == k->variants[expected_choice(k, allowed)].fn,
		              "%s: after the API calls %s's slot holds %s, not the build to run",
		              when, k->name, slot ? "another build" : "nothing");
	}
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		const struct lf_variant *want = &k->variants[expected_choice(k, allowed)];
		const char *cur = lf_impl(k->name);
		ck_assert_msg(cur && strcmp(cur, want->name) == 0, "%s: %s runs %s, want %s", when,
		              k->name, cur ? cur : "NULL", want->name);
		ck_assert_msg(lf_dispatch_get((enum lf_kernel_id)kid) == want->fn,
		              "%s: %s slot not re-resolved", when, k->name);
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			int runnable = (v->features & ~allowed) == 0;
			int r = lf_impl_force(k->name, v->name);
			ck_assert_msg(r == (runnable ? 0 : -1), "%s: lf_impl_force(%s, %s) = %d", when,
			              k->name, v->name, r);
		}
		ck_assert_int_eq(lf_impl_force(k->name, NULL), 0);
	}
}

START_TEST(test_cpu_mask)
{
	uint64_t f0 = lf_cpu_features(), cur = f0;
	char when[128];

	check_state(f0, "before any lf_cpu_mask");

	/* a force is dropped by lf_cpu_mask, even one that stays runnable */
	for (int kid = 0; kid < LF_K_COUNT; kid++)
		ck_assert_int_eq(lf_impl_force(lf_kernel_table[kid].name, "ref"), 0);
	lf_cpu_mask(~UINT64_C(0));
	check_state(f0, "after lf_cpu_mask(~0) following lf_impl_force(ref)");

	/* remove the features one at a time */
	for (const struct lf_feature_name *n = lf_feature_names; n->name; n++) {
		if (!(cur & n->bit))
			continue;
		lf_cpu_mask(~n->bit);
		cur &= ~n->bit;
		/* limbforge.h: a feature goes with what it needs (restated, not cpu.c's code) */
		if (!(cur & LF_CPU_AVX))
			cur &= ~(LF_CPU_AVX2 | LF_CPU_FMA | LF_CPU_AVXIFMA | LF_CPU_AVX512F);
		if (!(cur & LF_CPU_AVX512F))
			cur &= ~(LF_CPU_AVX512DQ | LF_CPU_AVX512BW | LF_CPU_AVX512VL |
			         LF_CPU_AVX512IFMA | LF_CPU_AVX512VBMI | LF_CPU_AVX512VBMI2);
		if (!(cur & LF_CPU_ASIMD))
			cur &= ~(LF_CPU_AES | LF_CPU_PMULL | LF_CPU_SHA2 | LF_CPU_SHA3);
		if (!(cur & LF_CPU_SVE))
			cur &= ~LF_CPU_SVE2;
		snprintf(when, sizeof when, "after lf_cpu_mask(~%s)", n->name);
		check_state(cur, when);
		/* cumulative: allowing everything again brings nothing back */
		lf_cpu_mask(~UINT64_C(0));
		check_state(cur, "lf_cpu_mask(~0) after masking");
	}
	lf_cpu_mask(0);
	check_state(0, "after lf_cpu_mask(0)");
	printf("mask: masked %d features one by one; the choice followed each step\n",
	       __builtin_popcountll(f0));
	fflush(stdout);
}
END_TEST

Suite *suite_mask(void)
{
	Suite *s = suite_create("mask");
	TCase *tc = tcase_create("lf_cpu_mask");
	tcase_add_test(tc, test_cpu_mask);
	suite_add_tcase(s, tc);
	return s;
}
