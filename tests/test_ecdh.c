/*
 * test_ecdh.c -- lf_p256_ecdh (P-256 ECDH over the p256_mul_mont / p256_sqr_mont kernels)
 * with every runnable variant of the two field kernels forced (each variant for both, and the
 * best with ref crossed), against three independent oracles: GMP mpz affine point arithmetic
 * (here; both architectures), OpenSSL EVP_PKEY_derive (host, where the build has libcrypto:
 * the arm64 cross build on Debian 12 has none) and Python-integer known answers
 * (tests/kat/gen_ecdh.py, both architectures; the generator checks itself against RFC 5903).
 *
 * Faults this is designed to catch:
 *   - a wrong shared secret for some scalars: random keys (LF_TEST_ECDH_RANDOM, default 300 on
 *     a host with OpenSSL, else 40), edge scalars 1..40, n-1..n-40, 2^k, 2^k - 1 for every k,
 *     limb lattices and runs of ones/zeros, Booth digits all +-16; with the generator, its
 *     negation, a point of small x and random points;
 *   - the ladder's special additions done wrong: leading zero windows (additions into O),
 *     zero digits (additions of O), negative digits at every position; the KAT generator
 *     counts how often each happens (KAT_ECDH_*) and the test asserts the counts are > 0;
 *   - an invalid input accepted or answered with a secret: prefixes other than 0x04, X or Y
 *     >= p (p, p+1, 2^256-1, and p + small), X = Y = 0, points off the curve, scalar 0, n,
 *     n+1..n+40, 2^256-1; every error must return its LF_P256_E* code and leave 32 zero
 *     bytes in shared_x (documented: zeros on every error);
 *   - reads outside scalar[0..32) and peer_point[0..65) (both end at a PROT_NONE page), writes
 *     outside shared_x[0..32) (canaries), writes into the inputs;
 *   - aliasing: shared_x over the scalar, over X or over Y of the point (allowed);
 *   - a variant of the field kernels that only the ECDH composition exposes (every variant
 *     forced for both kernels; mixed pairs -- under qemu the mixed pairs run a quarter of the
 *     vectors, to keep the AArch64 suite short);
 *   - the Fermat chain that compilers without __int128 take for Z^-2 (runtime/p256_ecdh.c
 *     built again as such a compiler builds it: tests/tests.mk, p256_ecdh_narrow.o), on the
 *     Python known answers;
 *   - secrets left on the stack (the API wipes what the work used): two calls whose scalars
 *     differ in every byte, each after the 48 KiB below the caller's frame were zeroed, must
 *     leave the same words there (return addresses and pointers; nothing that depends on the
 *     scalar).
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "ecdh_vectors.h"

#if defined(LF_TEST_OPENSSL)
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#endif

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- GMP oracle: affine arithmetic from the curve equation ------------------------------- */
typedef struct {
	mpz_t x, y;
	int inf;
} ept;

static mpz_t cP, cN, cB, cA;
static ept cG;

static void ec_init(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	mpz_init_set_str(cP, "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16);
	mpz_init_set_str(cN, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);
	mpz_init_set_str(cB, "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b", 16);
	mpz_init(cA);
	mpz_sub_ui(cA, cP, 3);
	mpz_init_set_str(cG.x, "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296", 16);
	mpz_init_set_str(cG.y, "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5", 16);
	cG.inf = 0;
}

static void ept_init(ept *p)
{
	mpz_inits(p->x, p->y, NULL);
	p->inf = 1;
}

static void ept_clear(ept *p)
{
	mpz_clears(p->x, p->y, NULL);
}

/* r = a + b (r may alias either) */
static void ec_add(ept *r, const ept *a, const ept *b)
{
	mpz_t lam, t, x3;
	if (a->inf || b->inf) {
		const ept *s = a->inf ? b : a;
		mpz_set(r->x, s->x), mpz_set(r->y, s->y), r->inf = s->inf;
		return;
	}
	mpz_inits(lam, t, x3, NULL);
	if (mpz_cmp(a->x, b->x) == 0) {
		mpz_add(t, a->y, b->y);
		mpz_mod(t, t, cP);
		if (mpz_sgn(t) == 0) {
			r->inf = 1;
			goto out;
		}
		mpz_mul(lam, a->x, a->x);                /* (3x^2 + a) / 2y */
		mpz_mul_ui(lam, lam, 3);
		mpz_add(lam, lam, cA);
		mpz_mul_2exp(t, a->y, 1);
	} else {
		mpz_sub(lam, b->y, a->y);                /* (y2 - y1) / (x2 - x1) */
		mpz_sub(t, b->x, a->x);
	}
	mpz_mod(t, t, cP);
	ck_assert(mpz_invert(t, t, cP));
	mpz_mul(lam, lam, t);
	mpz_mod(lam, lam, cP);
	mpz_mul(x3, lam, lam);
	mpz_sub(x3, x3, a->x);
	mpz_sub(x3, x3, b->x);
	mpz_mod(x3, x3, cP);
	mpz_sub(t, a->x, x3);
	mpz_mul(t, t, lam);
	mpz_sub(t, t, a->y);
	mpz_mod(r->y, t, cP);
	mpz_set(r->x, x3);
	r->inf = 0;
out:
	mpz_clears(lam, t, x3, NULL);
}

/* r = k p, double and add from the top bit */
static void ec_mul(ept *r, const mpz_t k, const ept *p)
{
	ept acc;
	ept_init(&acc);
	for (long i = (long)mpz_sizeinbase(k, 2) - 1; i >= 0 && mpz_sgn(k) > 0; i--) {
		ec_add(&acc, &acc, &acc);
		if (mpz_tstbit(k, (mp_bitcnt_t)i))
			ec_add(&acc, &acc, p);
	}
	mpz_set(r->x, acc.x), mpz_set(r->y, acc.y), r->inf = acc.inf;
	ept_clear(&acc);
}

static int on_curve(const ept *p)
{
	mpz_t l, r;
	mpz_inits(l, r, NULL);
	mpz_mul(l, p->y, p->y);
	mpz_mul(r, p->x, p->x);
	mpz_add(r, r, cA);
	mpz_mul(r, r, p->x);
	mpz_add(r, r, cB);
	mpz_sub(l, l, r);
	int ok = mpz_divisible_p(l, cP);
	mpz_clears(l, r, NULL);
	return ok;
}

static void to32(uint8_t out[32], const mpz_t v)
{
	size_t cnt = 0;
	uint8_t tmp[33];
	memset(out, 0, 32);
	ck_assert(mpz_sizeinbase(v, 256) <= 32);
	mpz_export(tmp, &cnt, 1, 1, 1, 0, v);
	memcpy(out + 32 - cnt, tmp, cnt);
}

static void from32(mpz_t v, const uint8_t in[32])
{
	mpz_import(v, 32, 1, 1, 1, 0, in);
}

static void encode(uint8_t out[65], const ept *p)
{
	out[0] = 4;
	to32(out + 1, p->x);
	to32(out + 33, p->y);
}

/* x(k P) by GMP; P valid, 0 < k < n */
static void or_ecdh_gmp(uint8_t x[32], const uint8_t k[32], const uint8_t pt[65])
{
	ept p, r;
	mpz_t kk;
	ept_init(&p), ept_init(&r);
	mpz_init(kk);
	from32(kk, k);
	from32(p.x, pt + 1), from32(p.y, pt + 33);
	p.inf = 0;
	ck_assert_msg(on_curve(&p), "test bug: oracle point off the curve");
	ec_mul(&r, kk, &p);
	ck_assert_msg(!r.inf, "test bug: k P = O");
	to32(x, r.x);
	mpz_clear(kk);
	ept_clear(&p), ept_clear(&r);
}

/* ---- OpenSSL oracle (host) ---------------------------------------------------------------- */
#if defined(LF_TEST_OPENSSL)
static EVP_PKEY *ossl_key(const uint8_t *priv, const uint8_t *pub)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bn = NULL;
	OSSL_PARAM *ps;
	EVP_PKEY_CTX *c;
	EVP_PKEY *k = NULL;
	ck_assert(b);
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	if (priv) {
		bn = BN_bin2bn(priv, 32, NULL);
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn);
	}
	if (pub)
		OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub, 65);
	ps = OSSL_PARAM_BLD_to_param(b);
	c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (EVP_PKEY_fromdata_init(c) <= 0 ||
	    EVP_PKEY_fromdata(c, &k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, ps) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(c);
	OSSL_PARAM_free(ps);
	OSSL_PARAM_BLD_free(b);
	BN_free(bn);
	return k;
}

/* x(k P) by EVP_PKEY_derive; 0, or -1 if OpenSSL refused */
static int or_ecdh_openssl(uint8_t x[32], const uint8_t k[32], const uint8_t pt[65])
{
	EVP_PKEY *mine = ossl_key(k, NULL), *peer = ossl_key(NULL, pt);
	EVP_PKEY_CTX *c = mine ? EVP_PKEY_CTX_new(mine, NULL) : NULL;
	size_t len = 32;
	int rc = -1;
	if (c && peer && EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_derive_set_peer(c, peer) > 0 &&
	    EVP_PKEY_derive(c, x, &len) > 0 && len == 32)
		rc = 0;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
	return rc;
}
#endif

static int have_openssl(void)
{
#if defined(LF_TEST_OPENSSL)
	return 1;
#else
	return 0;
#endif
}

/* ---- the variants: pairs (mul, sqr) -------------------------------------------------------
 * Built from lf_impl_list when the suite is made (no Check call may run outside a test); the
 * harness's tvar of each is looked up inside the test. */
struct combo {
	const char *mul, *sqr;
	char label[96];
};
static struct combo combos[16];
static size_t ncombos;

static int in_list(const char *const *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i], name) == 0)
			return 1;
	return 0;
}

static void add_combo(const char *m, const char *s)
{
	for (size_t i = 0; i < ncombos; i++)
		if (strcmp(combos[i].mul, m) == 0 && strcmp(combos[i].sqr, s) == 0)
			return;
	if (ncombos == NLEN(combos))
		return;
	combos[ncombos].mul = m, combos[ncombos].sqr = s;
	snprintf(combos[ncombos].label, sizeof combos[ncombos].label, "p256_mul_mont/%s + "
	         "p256_sqr_mont/%s", m, s);
	ncombos++;
}

static void build_combos(void)
{
	static const char *ml[16], *sl[16];
	size_t nm = lf_impl_list("p256_mul_mont", ml, 16), ns = lf_impl_list("p256_sqr_mont", sl, 16);
	if (ncombos || !nm || !ns)
		return;
	/* each variant for both kernels (the same name where the other has it, else its best) */
	for (size_t i = 0; i < nm; i++)
		add_combo(ml[i], in_list(sl, ns, ml[i]) ? ml[i] : sl[0]);
	for (size_t i = 0; i < ns; i++)
		add_combo(in_list(ml, nm, sl[i]) ? sl[i] : ml[0], sl[i]);
	/* crossed: the best of one with the last (ref) of the other */
	add_combo(ml[0], sl[ns - 1]);
	add_combo(ml[nm - 1], sl[0]);
}

static const struct tvar *find_var(enum lf_kernel_id kid, const char *name)
{
	for (size_t i = 0; i < tv_runnable_count(kid); i++)
		if (strcmp(tv_runnable(kid, i)->v->name, name) == 0)
			return tv_runnable(kid, i);
	ck_abort_msg("variant %s of %s not runnable", name, lf_kernel_table[kid].name);
	return NULL;
}

static const struct combo *force_combo(int i)
{
	const struct combo *c = &combos[i];
	ck_assert_msg(lf_impl_force("p256_mul_mont", c->mul) == 0, "cannot force %s", c->label);
	ck_assert_msg(lf_impl_force("p256_sqr_mont", c->sqr) == 0, "cannot force %s", c->label);
	ck_assert_str_eq(lf_impl("p256_mul_mont"), c->mul);
	ck_assert_str_eq(lf_impl("p256_sqr_mont"), c->sqr);
	return c;
}

static void unforce(void)
{
	lf_impl_force("p256_mul_mont", NULL);
	lf_impl_force("p256_sqr_mont", NULL);
}

/* ---- one call ------------------------------------------------------------------------------ */
enum alias { AL_NONE, AL_SCALAR, AL_X, AL_Y, N_AL };
static const char *const alias_name[N_AL] = { "", ", shared_x == scalar",
	                                      ", shared_x == X of peer_point",
	                                      ", shared_x == Y of peer_point" };

static unsigned long ncalls;

static void hex(char *buf, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", b[i]);
}

/* lf_p256_ecdh on guarded copies: want_rc and, for 0, want_x; on error 32 zero bytes */
static void ecdh_call(const struct combo *c, const uint8_t k[32], const uint8_t pt[65],
                      int want_rc, const uint8_t *want_x, enum alias al, const char *what)
{
	struct gbuf gk, gp, go;
	static const uint8_t zero[32];
	uint8_t *kb = gb_alloc(&gk, 32, GB_END, 0);
	uint8_t *pb = gb_alloc(&gp, 65, GB_END, 0);
	uint8_t *ob = gb_alloc(&go, 32, GB_MID, 0);
	char hk[65], hw[65], hg[65];
	memcpy(kb, k, 32);
	memcpy(pb, pt, 65);
	memset(ob, 0xa5, 32);
	uint8_t *out = al == AL_SCALAR ? kb : al == AL_X ? pb + 1 : al == AL_Y ? pb + 33 : ob;
	crash_note(c->label, what, 32);
	int rc = lf_p256_ecdh(out, kb, pb);
	hex(hk, k, 32);
	ck_assert_msg(rc == want_rc, "%s: %s%s (scalar %s): returned %d, want %d", c->label, what,
	              alias_name[al], hk, rc, want_rc);
	const uint8_t *want = want_rc ? zero : want_x;
	if (memcmp(out, want, 32) != 0) {
		hex(hw, want, 32), hex(hg, out, 32);
		ck_abort_msg("%s: %s%s (scalar %s): shared_x %s, want %s%s", c->label, what,
		             alias_name[al], hk, hg, hw, want_rc ? " (zeros on error)" : "");
	}
	ASSERT_CANARIES(&gk, c->label, "scalar", what);
	ASSERT_CANARIES(&gp, c->label, "peer_point", what);
	ASSERT_CANARIES(&go, c->label, "shared_x", what);
	if (al != AL_SCALAR)
		ck_assert_msg(memcmp(kb, k, 32) == 0, "%s: %s: scalar modified", c->label, what);
	if (al != AL_X && al != AL_Y)
		ck_assert_msg(memcmp(pb, pt, 65) == 0, "%s: %s: peer_point modified", c->label, what);
	else
		ck_assert_msg(memcmp(pb, pt, 1 + (al == AL_Y) * 32) == 0 &&
		              (al == AL_Y || memcmp(pb + 33, pt + 33, 32) == 0),
		              "%s: %s: peer_point modified outside shared_x", c->label, what);
	if (al == AL_NONE)
		ck_assert_msg(memcmp(ob, want, 32) == 0, "%s", what);
	else
		for (int i = 0; i < 32; i++)
			ck_assert_msg(ob[i] == 0xa5, "%s: %s: the unused output buffer written",
			              c->label, what);
	gb_free(&gk), gb_free(&gp), gb_free(&go);
	ncalls++;
}

/* a valid case: the expected x from GMP (and OpenSSL where built in); lf must match */
static void ecdh_valid(const struct combo *c, const uint8_t k[32], const uint8_t pt[65],
                       enum alias al, const char *what)
{
	uint8_t want[32];
	or_ecdh_gmp(want, k, pt);
#if defined(LF_TEST_OPENSSL)
	uint8_t o[32];
	char h1[65], h2[65];
	ck_assert_msg(or_ecdh_openssl(o, k, pt) == 0, "OpenSSL refused a valid case: %s", what);
	hex(h1, o, 32), hex(h2, want, 32);
	ck_assert_msg(memcmp(o, want, 32) == 0, "oracles disagree on %s: OpenSSL %s, GMP %s", what,
	              h1, h2);
#endif
	ecdh_call(c, k, pt, 0, want, al, what);
}

static void rand_scalar(uint8_t k[32], rng_t *r)
{
	mpz_t v;
	mpz_init(v);
	do {
		for (int i = 0; i < 32; i += 8) {
			uint64_t x = rng_next(r);
			memcpy(k + i, &x, 8);
		}
		from32(v, k);
	} while (mpz_sgn(v) == 0 || mpz_cmp(v, cN) >= 0);
	mpz_clear(v);
}

static void rand_point(uint8_t pt[65], rng_t *r)
{
	uint8_t j[32];
	ept p;
	mpz_t jj;
	rand_scalar(j, r);
	ept_init(&p);
	mpz_init(jj);
	from32(jj, j);
	ec_mul(&p, jj, &cG);
	encode(pt, &p);
	ept_clear(&p);
	mpz_clear(jj);
}

static size_t n_random(void)
{
	const char *e = getenv("LF_TEST_ECDH_RANDOM");
	if (e)
		return (size_t)strtoull(e, NULL, 0);
	return have_openssl() ? 300 : 40;
}

static void count(const struct combo *c, unsigned long before)
{
	cov_add(find_var(LF_K_p256_mul_mont, c->mul), COV_API, ncalls - before);
	cov_add(find_var(LF_K_p256_sqr_mont, c->sqr), COV_API, ncalls - before);
}

/* ---- tests ---------------------------------------------------------------------------------- */
START_TEST(test_ecdh_kat)
{
	const struct combo *c = force_combo(_i);
	unsigned long before = ncalls;
	/* the vectors reach the ladder's special additions (counted by the generator) */
	ck_assert_msg(KAT_ECDH_O_PLUS_P > 0 && KAT_ECDH_PLUS_O > 0 && KAT_ECDH_DOUBLING == 0,
	              "KAT vectors miss a ladder case");
	/* crossed pairs (mul and sqr different variants) without OpenSSL, i.e. under qemu: every
	 * 4th vector (the same-variant pairs run all of them) */
	size_t step = !have_openssl() && strcmp(c->mul, c->sqr) != 0 ? 4 : 1;
	for (size_t i = 0; i < NLEN(kat_ecdh); i += step) {
		const struct kat_ecdh *v = &kat_ecdh[i];
		ecdh_call(c, v->scalar, v->point, v->rc, v->x, AL_NONE, v->what);
		if (i % 13 == 0)
			ecdh_call(c, v->scalar, v->point, v->rc, v->x, (enum alias)(1 + i / 13 % 3),
			          v->what);
	}
	count(c, before);
	unforce();
}
END_TEST

START_TEST(test_ecdh_random)
{
	const struct combo *c = force_combo(_i);
	unsigned long before = ncalls;
	size_t n = n_random();
	if (!have_openssl() && strcmp(c->mul, c->sqr) != 0)
		n = (n + 3) / 4;                 /* crossed pairs under qemu */
	uint8_t k[32], pt[65];
	char what[64];
	rng_t rng;
	rng_init(&rng, "ecdh_random", (uint64_t)_i);
	ec_init();
	for (size_t t = 0; t < n; t++) {
		rand_scalar(k, &rng);
		rand_point(pt, &rng);
		snprintf(what, sizeof what, "random key %zu", t);
		ecdh_valid(c, k, pt, t % 17 == 0 ? (enum alias)(1 + t / 17 % 3) : AL_NONE, what);
	}
	count(c, before);
	unforce();
}
END_TEST

START_TEST(test_ecdh_edges)
{
	const struct combo *c = force_combo(_i);
	unsigned long before = ncalls;
	uint8_t k[32], pt[65], ptq[65], gpt[65];
	char what[96];
	mpz_t v;
	rng_t rng;
	rng_init(&rng, "ecdh_edges", (uint64_t)_i);
	ec_init();
	mpz_init(v);
	encode(gpt, &cG);
	rand_point(ptq, &rng);
	/* under qemu: every 4th power of two; crossed pairs only the small and n - small ones */
	int full = have_openssl(), crossed = !full && strcmp(c->mul, c->sqr) != 0;
	size_t t = 0;
	for (int fam = 0; fam < (crossed ? 2 : 6); fam++) {
		int lim = fam < 2 ? 40 : fam < 4 ? 256 : fam == 4 ? 64 : 32;
		for (int i = 0; i < lim; i++, t++) {
			switch (fam) {
			case 0: mpz_set_ui(v, (unsigned long)i + 1); break;          /* 1..40 */
			case 1: mpz_sub_ui(v, cN, (unsigned long)i + 1); break;      /* n-1..n-40 */
			case 2:                                                        /* 2^i */
				if (!full && i % 4)
					continue;
				mpz_set_ui(v, 0);
				mpz_setbit(v, (mp_bitcnt_t)i);
				break;
			case 3:                                                        /* 2^i - 1 */
				if (!full && i % 4 != 1)
					continue;
				mpz_set_ui(v, 0);
				mpz_setbit(v, (mp_bitcnt_t)i + 1);
				mpz_sub_ui(v, v, 1);
				break;
			case 4: {                                                      /* limb lattice */
				uint64_t l[4];
				for (int j = 0; j < 4; j++)
					l[j] = edge64((unsigned)(i + 3 * j) % N_EDGE64, &rng);
				mpz_import(v, 4, -1, 8, 0, 0, l);
				break;
			}
			default: {                                                     /* bit runs */
				uint64_t l[4];
				fill64(l, 4, (enum pattern)(i % N_PAT), &rng);
				mpz_import(v, 4, -1, 8, 0, 0, l);
				if (i >= N_PAT)
					mpz_tdiv_q_2exp(v, v, (mp_bitcnt_t)(i * 7 % 200));
			}
			}
			mpz_mod(v, v, cN);
			if (mpz_sgn(v) == 0)
				continue;
			to32(k, v);
			memcpy(pt, t % 3 == 0 ? gpt : ptq, 65);
			if (t % 3 == 2)
				rand_point(pt, &rng);
			snprintf(what, sizeof what, "edge scalar family %d #%d, %s", fam, i,
			         t % 3 == 0 ? "G" : t % 3 == 1 ? "fixed random point" : "random point");
			ecdh_valid(c, k, pt, AL_NONE, what);
		}
	}
	mpz_clear(v);
	count(c, before);
	unforce();
}
END_TEST

START_TEST(test_ecdh_invalid)
{
	const struct combo *c = force_combo(_i);
	unsigned long before = ncalls;
	uint8_t k[32], pt[65], bad[65], kb[32];
	char what[96];
	mpz_t v;
	rng_t rng;
	rng_init(&rng, "ecdh_invalid", (uint64_t)_i);
	ec_init();
	mpz_init(v);
	rand_scalar(k, &rng);
	rand_point(pt, &rng);
	/* every prefix but 0x04 */
	for (int pre = 0; pre < 256; pre++) {
		if (pre == 4)
			continue;
		memcpy(bad, pt, 65);
		bad[0] = (uint8_t)pre;
		snprintf(what, sizeof what, "prefix %#04x", pre);
		ecdh_call(c, k, bad, LF_P256_EENCODING, NULL, pre % 5 ? AL_NONE : AL_X, what);
	}
	/* X or Y in [p, 2^256): p + small, 2^256 - small */
	for (int coord = 0; coord < 2; coord++) {
		for (int s = 0; s < 40; s++) {
			memcpy(bad, pt, 65);
			if (s < 20)
				mpz_add_ui(v, cP, (unsigned long)s);
			else {
				mpz_set_ui(v, 0);
				mpz_setbit(v, 256);
				mpz_sub_ui(v, v, (unsigned long)(s - 19));
			}
			to32(bad + 1 + 32 * coord, v);
			snprintf(what, sizeof what, "%c = %s + %d", coord ? 'Y' : 'X',
			         s < 20 ? "p" : "2^256", s < 20 ? s : -(s - 19));
			ecdh_call(c, k, bad, LF_P256_ERANGE, NULL, AL_NONE, what);
		}
	}
	/* the all-zero pair (no encoding of O), also with a bad scalar */
	memset(bad, 0, 65);
	bad[0] = 4;
	ecdh_call(c, k, bad, LF_P256_EINFINITY, NULL, AL_NONE, "X = Y = 0");
	memset(kb, 0, 32);
	ecdh_call(c, kb, bad, LF_P256_EINFINITY, NULL, AL_NONE, "X = Y = 0, scalar 0");
	/* off the curve: Y + d, X + d, random pairs, Y = 0, X = 0 with random Y */
	for (int s = 0; s < 60; s++) {
		ept q;
		ept_init(&q);
		from32(q.x, pt + 1), from32(q.y, pt + 33);
		q.inf = 0;
		if (s < 20) {
			mpz_add_ui(q.y, q.y, (unsigned long)s + 1);
			mpz_mod(q.y, q.y, cP);
		} else if (s < 40) {
			mpz_add_ui(q.x, q.x, (unsigned long)s - 19);
			mpz_mod(q.x, q.x, cP);
		} else if (s < 55) {
			uint8_t r[32];
			for (int i = 0; i < 32; i += 8) {
				uint64_t x = rng_next(&rng);
				memcpy(r + i, &x, 8);
			}
			r[0] &= 0x7f;
			from32(s % 2 ? q.x : q.y, r);
			if (s == 41)
				mpz_set_ui(q.y, 0);
			if (s == 42)
				mpz_set_ui(q.x, 0);
		} else {
			mpz_set_ui(q.x, (unsigned long)s - 54);          /* small x, y = 1 */
			mpz_set_ui(q.y, 1);
		}
		if (!on_curve(&q)) {
			encode(bad, &q);
			snprintf(what, sizeof what, "off the curve #%d", s);
			ecdh_call(c, k, bad, LF_P256_ECURVE, NULL, s % 7 ? AL_NONE : AL_Y, what);
		}
		ept_clear(&q);
	}
	/* scalars 0, n, n+1..n+40, 2^256-1, random >= n; with a good point */
	for (int s = 0; s < 50; s++) {
		if (s == 0)
			mpz_set_ui(v, 0);
		else if (s <= 41)
			mpz_add_ui(v, cN, (unsigned long)s - 1);
		else if (s == 42) {
			mpz_set_ui(v, 0);
			mpz_setbit(v, 256);
			mpz_sub_ui(v, v, 1);
		} else {
			uint64_t l[4] = { rng_next(&rng), rng_next(&rng), rng_next(&rng), ~UINT64_C(0) };
			mpz_import(v, 4, -1, 8, 0, 0, l);
			ck_assert(mpz_cmp(v, cN) >= 0);
		}
		to32(kb, v);
		snprintf(what, sizeof what, "scalar #%d (0, n + s, 2^256-1, random >= n)", s);
		ecdh_call(c, kb, pt, LF_P256_ESCALAR, NULL, s % 9 ? AL_NONE : AL_SCALAR, what);
	}
	/* a bad point and a bad scalar: the point's code */
	memcpy(bad, pt, 65);
	bad[0] = 2;
	mpz_set(v, cN);
	to32(kb, v);
	ecdh_call(c, kb, bad, LF_P256_EENCODING, NULL, AL_NONE, "prefix 0x02 and scalar n");
	mpz_clear(v);
	count(c, before);
	unforce();
}
END_TEST

/* What lf_p256_ecdh leaves below its caller's frame: zeroed first (stack_fill), read back
 * after the call (stack_snap) by functions called from the same frame, so their buffers lie
 * where the call's frames were.  The reads go through a pointer the compiler cannot follow. */
#define STACK_WORDS 6144
static uint64_t stack_seen[STACK_WORDS], stack_left[2][STACK_WORDS];
static uint8_t stack_k[32], stack_out[32];
static int stack_rc;

static __attribute__((noinline)) void stack_fill(void)
{
	uint64_t buf[STACK_WORDS], *p = buf;
	__asm__ __volatile__("" : "+r"(p));
	memset(p, 0, sizeof buf);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static __attribute__((noinline)) void stack_snap(void)
{
	uint64_t buf[STACK_WORDS], *p = buf;
	__asm__ __volatile__("" : "+r"(p) : : "memory");
	memcpy(stack_seen, p, sizeof buf);
}

/* one call between the two, everything but stack_k's contents the same each time (the same
 * addresses in the same registers), so that the words left can be compared */
static __attribute__((noinline)) void stack_run(const uint8_t *point)
{
	stack_fill();
	stack_rc = lf_p256_ecdh(stack_out, stack_k, point);
	stack_snap();
}

/* two runs whose scalars differ in every byte, from one call site (the same return addresses)
 * and with no local state (the callees save the registers that would hold it) */
static int stack_rcs[2];
static volatile int stack_i;

static __attribute__((noinline)) void stack_two_runs(const uint8_t *point)
{
	for (stack_i = 0; stack_i < 2; stack_i++) {
		/* every byte changes; the top one, 0xc8 ^ 0x35 = 0xfd, stays below n's 0xff */
		for (size_t j = 0; j < 32; j++)
			stack_k[j] ^= (uint8_t)(0x35 + 29 * j);
		stack_run(point);
		stack_rcs[stack_i] = stack_rc;
		memcpy(stack_left[stack_i], stack_seen, sizeof stack_seen);
	}
}

START_TEST(test_ecdh_stack_wiped)
{
	const struct combo *c = force_combo(_i);
	const struct kat_ecdh *v = &kat_ecdh[0];
	memcpy(stack_k, v->scalar, 32);
	stack_run(v->point);                              /* lazy binding, first-use paths */
	stack_two_runs(v->point);
	ck_assert_int_eq(stack_rcs[0], 0);
	ck_assert_int_eq(stack_rcs[1], 0);
	size_t differ = 0, first = 0;
	for (size_t i = 0; i < STACK_WORDS; i++)
		if (stack_left[0][i] != stack_left[1][i] && !differ++)
			first = i;
	ck_assert_msg(differ == 0, "%s: %zu stack words below the caller depend on the scalar "
	              "(the deepest %zu bytes down: %016llx vs %016llx)", c->label, differ,
	              8 * (STACK_WORDS - first), (unsigned long long)stack_left[0][first],
	              (unsigned long long)stack_left[1][first]);
	unforce();
}
END_TEST

/* runtime/p256_ecdh.c built as without __int128 (tests/tests.mk: p256_ecdh_narrow.o): Z^-2
 * by the Fermat chain; the dispatched field kernels */
int lf_test_p256_ecdh_narrow(uint8_t shared_x[32], const uint8_t scalar[32],
                             const uint8_t peer_point[65]);

START_TEST(test_ecdh_narrow)
{
	size_t step = have_openssl() ? 1 : 4;            /* under qemu a quarter */
	for (size_t i = 0; i < NLEN(kat_ecdh); i += step) {
		const struct kat_ecdh *v = &kat_ecdh[i];
		uint8_t x[32];
		static const uint8_t zero[32];
		int rc = lf_test_p256_ecdh_narrow(x, v->scalar, v->point);
		ck_assert_msg(rc == v->rc, "narrow build: %s: returned %d, want %d", v->what, rc,
		              v->rc);
		ck_assert_msg(memcmp(x, v->rc ? zero : v->x, 32) == 0, "narrow build: %s: wrong "
		              "shared_x", v->what);
	}
}
END_TEST

/* the oracles against each other and against RFC 5903 8.1 (independent of the variants) */
START_TEST(test_ecdh_oracles)
{
	ec_init();
	for (size_t i = 0; i < NLEN(kat_ecdh); i += 7) {
		const struct kat_ecdh *v = &kat_ecdh[i];
		uint8_t x[32];
		if (v->rc)
			continue;
		or_ecdh_gmp(x, v->scalar, v->point);
		ck_assert_msg(memcmp(x, v->x, 32) == 0, "GMP oracle differs from the Python KAT: %s",
		              v->what);
#if defined(LF_TEST_OPENSSL)
		ck_assert_msg(or_ecdh_openssl(x, v->scalar, v->point) == 0 &&
		              memcmp(x, v->x, 32) == 0, "OpenSSL differs from the Python KAT: %s",
		              v->what);
#endif
	}
	ck_assert_str_eq(kat_ecdh[0].what, "RFC 5903 8.1: i * g^r");
}
END_TEST

Suite *suite_ecdh(void)
{
	Suite *s = suite_create("ecdh");
	TCase *tc = tcase_create("p256_ecdh");
	build_combos();
	int n = (int)ncombos;
	printf("ecdh: %d (p256_mul_mont, p256_sqr_mont) pairs:", n);
	for (int i = 0; i < n; i++)
		printf(" [%s]", combos[i].label);
	printf("; oracles: GMP, Python KAT%s\n", have_openssl() ? ", OpenSSL EVP_PKEY_derive" : "");
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, unforce, unforce);
	tcase_add_test(tc, test_ecdh_oracles);
	tcase_add_test(tc, test_ecdh_narrow);
	tcase_add_loop_test(tc, test_ecdh_kat, 0, n);
	tcase_add_loop_test(tc, test_ecdh_invalid, 0, n);
	tcase_add_loop_test(tc, test_ecdh_edges, 0, n);
	tcase_add_loop_test(tc, test_ecdh_random, 0, n);
	tcase_add_loop_test(tc, test_ecdh_stack_wiped, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
