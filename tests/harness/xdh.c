/*
 * xdh.c -- the table, oracle and executors for the ladder kernels x25519_ladder and
 * x448_ladder (RFC 7748's Montgomery ladder before the inversion) and the four-lane product
 * fe_c25519_r51_mul_x4.
 *
 * The oracle is RFC 7748 section 5 on mpz: x1 = u mod p, (x2, z2, x3, z3) = (1, 0, x1, 1),
 * per bit the swap taken with an `if` and the step's formulas as written in the RFC, then
 * x2 z2^(p-2) -- no limbs, radix, lanes or carries of the kernels.  p comes from its hex
 * digits (tests/kat/gen_ladder.py writes them from the definition).  The kernels return a
 * projective (x2 : z2) with limbs below 2^52, not unique, so a result is checked as what the
 * contract promises: limbs in [0, 2^52); x2 Z == X z2 mod p against the oracle's (X : Z),
 * with x2 == 0 exactly when X == 0 and z2 == 0 exactly when Z == 0 (mod p) -- so that a
 * kernel returning (0 : 0) cannot pass -- and x2 / z2 (0 when z2 = 0) equal to the affine
 * answer.  fe_c25519_r51_mul_x4: each lane a b mod p on mpz, every limb within the bound the
 * kernel's header states (tests/kat/gen_ladder.py takes the generator's number).
 * Faults exposed: a wrong ladder step (a lost carry in a lane, a wrong a24, a swap taken on
 * the wrong bit or never undone), a limb outside [0, 2^52) (the next kernel's IFMA operand
 * contract broken), u limbs at the top of the input bound [0, 2^radix] mishandled, values
 * >= p not taken mod p, writes outside xz / tmp (canaries), reads outside k, u (guard pages),
 * k or u modified, xz limbs never written (xz starts as garbage), a misaligned tmp assumed
 * only where 32-byte alignment is promised.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "ladder_vectors.h"
#include "lf_fields.h"
#include "lf_xdh.h"

#if !LF_FE_WIDE
#error "the ladder kernels' tests need signed __int128 (LF_FE_WIDE)"
#endif

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define XL 9            /* most limbs of a coordinate */

static struct xdh_ladder table[] = {
	{ LF_K_x25519_ladder, "x25519_ladder", "x25519", 5, 51, 255, 32, lf_x25519,
	  lf_fe_c25519_r51_decode, (lf_fnptr)lf_x25519_ladder_ref, NULL },
	{ LF_K_x448_ladder, "x448_ladder", "x448", 9, 50, 448, 56, lf_x448,
	  lf_fe_c448_r50_decode, (lf_fnptr)lf_x448_ladder_ref, NULL },
};

static void attach(void)
{
	static int done;
	if (done)
		return;
	for (size_t i = 0; i < NLEN(table); i++) {
		struct xdh_ladder *L = &table[i];
		for (size_t j = 0; j < NLEN(kat_lad_curves); j++)
			if (strcmp(kat_lad_curves[j].name, L->curve) == 0)
				L->c = &kat_lad_curves[j];
		const char *bug = !L->c ? "no curve data (tests/kat/gen_ladder.py)" :
		                  L->c->limbs != L->limbs || L->c->radix != L->radix ||
		                  L->c->bits != L->bits || L->c->nbytes != L->nbytes ?
		                  "shape differs from the curve data" :
		                  strcmp(lf_kernel_table[L->kid].name, L->name) != 0 ?
		                  "its LF_K_ id names another kernel" : NULL;
		if (bug) {
			fprintf(stderr, "test bug: %s (tests/harness/xdh.c): %s\n", L->name, bug);
			exit(2);
		}
	}
	done = 1;
}

size_t xdh_count(void)
{
	return NLEN(table);
}

const struct xdh_ladder *xdh_at(size_t i)
{
	attach();
	if (i >= NLEN(table)) {
		fprintf(stderr, "test bug: ladder index %zu out of range\n", i);
		exit(2);
	}
	return &table[i];
}

const struct xdh_ladder *xdh_ladder(enum lf_kernel_id kid)
{
	for (size_t i = 0; i < NLEN(table); i++)
		if (table[i].kid == kid)
			return xdh_at(i);
	return NULL;
}

const struct kat_lad *xdh_kat(const struct xdh_ladder *L, size_t *n, const int64_t **limbs,
                              const uint8_t **bytes)
{
	*n = L->c->count;
	*limbs = kat_lad_limbs;
	*bytes = kat_lad_bytes;
	return kat_lad + L->c->first;
}

void xdh_clamp(const struct xdh_ladder *L, uint8_t *k)
{
	if (L->nbytes == 32) {
		k[0] &= 248;
		k[31] &= 127;
		k[31] |= 64;
	} else {
		k[0] &= 252;
		k[55] |= 128;
	}
}

/* ---- mpz values -------------------------------------------------------------------------- */
static void prime(const struct xdh_ladder *L, mpz_t p)
{
	mpz_set_str(p, L->c->p, 16);
}

static void to_mpz(mpz_t z, const int64_t *x, size_t n, unsigned bits)
{
	mpz_set_ui(z, 0);
	for (size_t i = n; i-- > 0;) {
		mpz_mul_2exp(z, z, bits);
		if (x[i] >= 0)
			mpz_add_ui(z, z, (unsigned long)x[i]);
		else
			mpz_sub_ui(z, z, (unsigned long)-(uint64_t)x[i]);
	}
}

/* canonical digits of 0 <= z < 2^(bits n) (the top digit holds the rest) */
static void to_digits(int64_t *x, const mpz_t z, size_t n, unsigned bits)
{
	mpz_t t, d;
	mpz_init_set(t, z);
	mpz_init(d);
	ck_assert_msg(mpz_sgn(t) >= 0 && mpz_sizeinbase(t, 2) <= 62 + bits * (n - 1),
	              "oracle: value does not fit %zu digits", n);
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n) {
			mpz_fdiv_r_2exp(d, t, bits);
			x[i] = (int64_t)mpz_get_ui(d);
			mpz_fdiv_q_2exp(t, t, bits);
		} else {
			x[i] = (int64_t)mpz_get_ui(t);
		}
	}
	mpz_clears(t, d, NULL);
}

static void bytes_mpz(mpz_t z, const uint8_t *b, size_t n)
{
	mpz_import(z, n, -1, 1, 0, 0, b);
}

static void mpz_bytes(uint8_t *b, size_t n, const mpz_t z)
{
	size_t cnt = 0;
	memset(b, 0, n);
	ck_assert_msg(mpz_sizeinbase(z, 256) <= n, "oracle: value does not fit %zu bytes", n);
	mpz_export(b, &cnt, -1, 1, 0, 0, z);
}

/* RFC 7748 section 5 on mpz; X, Z reduced mod p */
static void ladder_mpz(const struct xdh_ladder *L, mpz_t X, mpz_t Z, const mpz_t k,
                       const mpz_t u)
{
	mpz_t p, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB;
	mpz_inits(p, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB, NULL);
	prime(L, p);
	mpz_mod(x1, u, p);
	mpz_set_ui(x2, 1);
	mpz_set_ui(z2, 0);
	mpz_set(x3, x1);
	mpz_set_ui(z3, 1);
	int swap = 0;
	for (int t = (int)L->bits - 1; t >= 0; t--) {
		int kt = mpz_tstbit(k, (mp_bitcnt_t)t);
		swap ^= kt;
		if (swap) {
			mpz_swap(x2, x3);
			mpz_swap(z2, z3);
		}
		swap = kt;
		mpz_add(A, x2, z2);
		mpz_mod(A, A, p);
		mpz_mul(AA, A, A);
		mpz_mod(AA, AA, p);
		mpz_sub(B, x2, z2);
		mpz_mod(B, B, p);
		mpz_mul(BB, B, B);
		mpz_mod(BB, BB, p);
		mpz_sub(E, AA, BB);
		mpz_mod(E, E, p);
		mpz_add(C, x3, z3);
		mpz_mod(C, C, p);
		mpz_sub(D, x3, z3);
		mpz_mod(D, D, p);
		mpz_mul(DA, D, A);
		mpz_mod(DA, DA, p);
		mpz_mul(CB, C, B);
		mpz_mod(CB, CB, p);
		mpz_add(x3, DA, CB);
		mpz_mul(x3, x3, x3);
		mpz_mod(x3, x3, p);
		mpz_sub(z3, DA, CB);
		mpz_mul(z3, z3, z3);
		mpz_mul(z3, z3, x1);
		mpz_mod(z3, z3, p);
		mpz_mul(x2, AA, BB);
		mpz_mod(x2, x2, p);
		mpz_mul_ui(z2, E, L->c->a24);
		mpz_add(z2, z2, AA);
		mpz_mul(z2, z2, E);
		mpz_mod(z2, z2, p);
	}
	if (swap) {
		mpz_swap(x2, x3);
		mpz_swap(z2, z3);
	}
	mpz_set(X, x2);
	mpz_set(Z, z2);
	mpz_clears(p, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB, NULL);
}

/* a = x z^(p-2) mod p */
static void affine_mpz(const struct xdh_ladder *L, mpz_t a, const mpz_t x, const mpz_t z)
{
	mpz_t p, e, zi;
	mpz_inits(p, e, zi, NULL);
	prime(L, p);
	mpz_sub_ui(e, p, 2);
	mpz_mod(zi, z, p);
	mpz_powm(zi, zi, e, p);
	mpz_mul(a, x, zi);
	mpz_mod(a, a, p);
	mpz_clears(p, e, zi, NULL);
}

void or_xdh_ladder(const struct xdh_ladder *L, int64_t *X, int64_t *Z, int64_t *A,
                   const uint8_t *k, const int64_t *u)
{
	mpz_t zk, zu, x, z, a;
	mpz_inits(zk, zu, x, z, a, NULL);
	bytes_mpz(zk, k, L->nbytes);
	to_mpz(zu, u, L->limbs, L->radix);
	ladder_mpz(L, x, z, zk, zu);
	affine_mpz(L, a, x, z);
	to_digits(X, x, L->limbs, L->radix);
	to_digits(Z, z, L->limbs, L->radix);
	to_digits(A, a, L->limbs, L->radix);
	mpz_clears(zk, zu, x, z, a, NULL);
}

void or_xdh_affine(const struct xdh_ladder *L, int64_t *a, const int64_t *x, const int64_t *z)
{
	mpz_t zx, zz, za;
	mpz_inits(zx, zz, za, NULL);
	to_mpz(zx, x, L->limbs, L->radix);
	to_mpz(zz, z, L->limbs, L->radix);
	affine_mpz(L, za, zx, zz);
	to_digits(a, za, L->limbs, L->radix);
	mpz_clears(zx, zz, za, NULL);
}

void or_xdh_bytes(const struct xdh_ladder *L, uint8_t *out, const uint8_t *k, const uint8_t *u)
{
	uint8_t kc[56], uc[56];
	memcpy(kc, k, L->nbytes);
	memcpy(uc, u, L->nbytes);
	xdh_clamp(L, kc);
	if (L->nbytes == 32)
		uc[31] &= 127;          /* decodeUCoordinate: X25519 masks bit 255 */
	mpz_t zk, zu, x, z, a;
	mpz_inits(zk, zu, x, z, a, NULL);
	bytes_mpz(zk, kc, L->nbytes);
	bytes_mpz(zu, uc, L->nbytes);
	ladder_mpz(L, x, z, zk, zu);
	affine_mpz(L, a, x, z);
	mpz_bytes(out, L->nbytes, a);
	mpz_clears(zk, zu, x, z, a, NULL);
}

/* ---- edge inputs ------------------------------------------------------------------------- */
static const char *const u_name[XU_NU] = {
	"u = 0", "u = 1", "u = 2", "u = the base point", "u = p - 1", "u = p", "u = p + 1",
	"u = 2^(radix limbs) - 1", "u in [p, 2^(radix limbs))", "every limb 2^radix",
	"limbs alternating 0 and 2^radix", "only the top limb 2^radix", "only limb 0 2^radix",
	"random limbs in [0, 2^radix]", "random below p",
};

const char *xdh_u_name(enum xdh_u e)
{
	return e < XU_NU ? u_name[e] : "?";
}

void xdh_u(const struct xdh_ladder *L, int64_t *u, enum xdh_u e, rng_t *r)
{
	size_t n = L->limbs;
	int64_t top = (int64_t)1 << L->radix;
	if (e >= XU_ALL1 && e <= XU_RAND_TOP && e != XU_ABOVE_P) {
		for (size_t i = 0; i < n; i++)
			u[i] = e == XU_ALL1 ? top - 1 : e == XU_TOP ? top
			     : e == XU_TOP_ALT ? (i & 1 ? top : 0)
			     : e == XU_TOP_HI ? (i + 1 == n ? top : 0)
			     : e == XU_TOP_LO ? (i == 0 ? top : 0)
			     : (int64_t)(rng_next(r) % (uint64_t)(top + 1));
		return;
	}
	mpz_t p, z, s;
	mpz_inits(p, z, s, NULL);
	prime(L, p);
	switch (e) {
	case XU_ZERO:
	case XU_ONE:
	case XU_TWO:
		mpz_set_ui(z, (unsigned long)e);
		break;
	case XU_BASE:
		mpz_set_ui(z, L->nbytes == 32 ? 9 : 5);
		break;
	case XU_PM1:
	case XU_P:
	case XU_PP1:
		mpz_add_ui(z, p, 1);
		mpz_sub_ui(z, z, (unsigned long)(XU_PP1 + 1 - e));
		break;
	case XU_ABOVE_P:           /* p + random mod (2^(radix n) - p) */
		mpz_setbit(s, (mp_bitcnt_t)L->radix * n);
		mpz_sub(s, s, p);
		mpz_set_ui(z, (unsigned long)rng_next(r));
		mpz_mod(z, z, s);
		mpz_add(z, z, p);
		break;
	default:                   /* XU_RAND_P */
		for (unsigned i = 0; i < L->bits + 64; i += 64) {
			mpz_mul_2exp(z, z, 64);
			mpz_add_ui(z, z, (unsigned long)rng_next(r));
		}
		mpz_mod(z, z, p);
		break;
	}
	to_digits(u, z, n, L->radix);
	mpz_clears(p, z, s, NULL);
}

static const char *const k_name[XK_NK] = {
	"k clamped from zeros", "k clamped from ones", "k of bytes 0x55", "k of bytes 0xaa",
	"k = the top bit and bit 3 (2)", "k random",
};

const char *xdh_k_name(enum xdh_k e)
{
	return e < XK_NK ? k_name[e] : "?";
}

void xdh_k(const struct xdh_ladder *L, uint8_t *k, enum xdh_k e, rng_t *r)
{
	for (size_t i = 0; i < L->nbytes; i++)
		k[i] = e == XK_ZEROS || e == XK_LOW ? 0 : e == XK_ONES ? 0xff : e == XK_55 ? 0x55
		     : e == XK_AA ? 0xaa : (uint8_t)rng_next(r);
	if (e == XK_LOW)
		k[0] = L->nbytes == 32 ? 8 : 4;
	xdh_clamp(L, k);
}

/* ---- checking a ladder result ------------------------------------------------------------ */
static void hexlimbs(char *buf, size_t len, const int64_t *x, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && o + 24 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%#llx", i ? " " : "",
		                      (unsigned long long)x[i]);
}

void xdh_assert_result(const struct xdh_ladder *L, const char *label, const char *what,
                       const int64_t *xz, const int64_t *X, const int64_t *Z, const int64_t *A)
{
	size_t n = L->limbs;
	char sx[400], sw[400];
	hexlimbs(sx, sizeof sx, xz, 2 * n);
	for (size_t i = 0; i < 2 * n; i++)
		ck_assert_msg(xz[i] >= 0 && xz[i] < ((int64_t)1 << 52), "%s %s: %s limb %zu = %#llx "
		              "outside [0, 2^52); xz = {%s}", label, what, i < n ? "x2" : "z2",
		              i % n, (unsigned long long)xz[i], sx);
	mpz_t p, x2, z2, x, z, l, r;
	mpz_inits(p, x2, z2, x, z, l, r, NULL);
	prime(L, p);
	to_mpz(x2, xz, n, L->radix);
	to_mpz(z2, xz + n, n, L->radix);
	to_mpz(x, X, n, L->radix);
	to_mpz(z, Z, n, L->radix);
	mpz_mod(x2, x2, p);
	mpz_mod(z2, z2, p);
	mpz_mul(l, x2, z);
	mpz_mod(l, l, p);
	mpz_mul(r, x, z2);
	mpz_mod(r, r, p);
	hexlimbs(sw, sizeof sw, X, n);
	size_t o = strlen(sw);
	snprintf(sw + o, sizeof sw - o, " : ");
	hexlimbs(sw + o + 3, sizeof sw - o - 3, Z, n);
	ck_assert_msg(mpz_cmp(l, r) == 0, "%s %s: (x2 : z2) = {%s} is not the ladder's (X : Z) = "
	              "{%s} mod p (x2 Z != X z2)", label, what, sx, sw);
	ck_assert_msg((mpz_sgn(x2) == 0) == (mpz_sgn(x) == 0) &&
	              (mpz_sgn(z2) == 0) == (mpz_sgn(z) == 0), "%s %s: (x2 : z2) = {%s} has a "
	              "zero where the ladder's (X : Z) = {%s} has none, or the other way round",
	              label, what, sx, sw);
	int64_t a[XL];
	or_xdh_affine(L, a, xz, xz + n);
	hexlimbs(sx, sizeof sx, a, n);
	hexlimbs(sw, sizeof sw, A, n);
	ck_assert_msg(memcmp(a, A, n * 8) == 0, "%s %s: x2 / z2 = {%s}, RFC 7748 gives {%s}",
	              label, what, sx, sw);
	mpz_clears(p, x2, z2, x, z, l, r, NULL);
}

void exec_ladder(const struct exec_ctx *c, const struct xdh_ladder *L, const uint8_t *k,
                 const int64_t *u, const int64_t *exp_x, const int64_t *exp_z,
                 const int64_t *exp_a)
{
	size_t n = L->limbs;
	int64_t X[XL], Z[XL], A[XL];
	struct gbuf gk, gu, gx, gt;
	char what[300];
	or_xdh_ladder(L, X, Z, A, k, u);
	if (exp_x) {
		/* the Python answer: the same point (checked as any kernel result would be) */
		int64_t xz[2 * XL];
		memcpy(xz, exp_x, n * 8);
		memcpy(xz + n, exp_z, n * 8);
		xdh_assert_result(L, "test bug: Python vs mpz", c->what, xz, X, Z, exp_a);
		memcpy(X, exp_x, n * 8);
		memcpy(Z, exp_z, n * 8);
		memcpy(A, exp_a, n * 8);
	}
	uint8_t *kp = gb_alloc(&gk, L->nbytes, c->place, c->shift);
	memcpy(kp, k, L->nbytes);
	int64_t *up = gb_alloc(&gu, n * 8, c->place, c->shift);
	memcpy(up, u, n * 8);
	int64_t *xz = gb_alloc(&gx, 2 * n * 8, c->place, c->shift);
	fill_garbage64((uint64_t *)xz, 2 * n);
	int64_t *tmp = gb_alloc(&gt, LF_XDH_LADDER_TMP * 8, c->place, c->shift & ~(size_t)31);
	fill_garbage64((uint64_t *)tmp, LF_XDH_LADDER_TMP);

	crash_note(c->t->label, c->what, n);
	((lf_x25519_ladder_fn)c->fn)(xz, kp, up, tmp);

	snprintf(what, sizeof what, "[%s] %s (%s, +%zu)", cov_kind_name[c->kind], c->what,
	         gb_place_name(c->place), c->shift);
	xdh_assert_result(L, c->t->label, what, xz, X, Z, A);
	ASSERT_CANARIES(&gk, c->t->label, "k", c->what);
	ASSERT_CANARIES(&gu, c->t->label, "u", c->what);
	ASSERT_CANARIES(&gx, c->t->label, "xz", c->what);
	ASSERT_CANARIES(&gt, c->t->label, "tmp", c->what);
	ck_assert_msg(memcmp(kp, k, L->nbytes) == 0, "%s %s: k modified", c->t->label, what);
	ck_assert_msg(memcmp(up, u, n * 8) == 0, "%s %s: u modified", c->t->label, what);
	gb_free(&gk);
	gb_free(&gu);
	gb_free(&gx);
	gb_free(&gt);
	cov_add(c->t, c->kind, 1);
}

/* ---- the public functions lf_x25519 / lf_x448 -------------------------------------------- */
static void api_one(const struct tvar *t, const struct xdh_ladder *L, enum cov_kind kind,
                    const char *what, const char *which, const uint8_t *k, const uint8_t *u,
                    const uint8_t *want)
{
	uint8_t w[56], out[56 + 16];
	size_t nb = L->nbytes;
	or_xdh_bytes(L, w, k, u);
	if (want)
		ck_assert_msg(memcmp(w, want, nb) == 0, "test bug: the mpz X%s misses %s",
		              L->curve, which);
	memset(out, 0xa5, sizeof out);
	int rc = L->api(out, k, u);
	int zero = 1;
	for (size_t i = 0; i < nb; i++)
		zero &= w[i] == 0;
	ck_assert_msg(memcmp(out, w, nb) == 0, "%s %s: lf_%s(%s) differs from RFC 7748",
	              t->label, what, L->curve, which);
	ck_assert_msg(rc == (zero ? LF_XDH_EZERO : 0), "%s %s: lf_%s(%s) returned %d", t->label,
	              what, L->curve, which, rc);
	for (size_t i = nb; i < sizeof out; i++)
		ck_assert_msg(out[i] == 0xa5, "%s %s: lf_%s wrote past out", t->label, what,
		              L->curve);
	cov_add(t, kind, 1);
}

void xdh_api_cases(const struct tvar *t, enum cov_kind kind, const char *what)
{
	const struct xdh_ladder *L = xdh_ladder(t->kid);
	ck_assert_msg(L != NULL, "test bug: %s is not a ladder", t->k->name);
	size_t nb = L->nbytes;
	uint8_t k[56], u[56];
	rng_t rng;
	rng_init(&rng, t->label, 61);
	for (int i = 0; i < 2; i++)
		api_one(t, L, kind, what, "RFC 7748 5.2", L->c->rfc[i].k, L->c->rfc[i].u,
		        L->c->rfc[i].out);
	/* edge u as bytes: every value of xdh_u below 2^(8 nbytes) -- >= p, X25519's bit 255 */
	for (int e = 0; e < XU_NU; e++) {
		int64_t ul[XL];
		xdh_u(L, ul, (enum xdh_u)e, &rng);
		mpz_t z;
		mpz_init(z);
		to_mpz(z, ul, L->limbs, L->radix);
		if (mpz_sizeinbase(z, 2) > 8 * nb) {
			mpz_clear(z);
			continue;
		}
		mpz_bytes(u, nb, z);
		mpz_clear(z);
		for (int s = 0; s < XK_NK; s++) {
			for (size_t i = 0; i < nb; i++)
				k[i] = (uint8_t)rng_next(&rng);
			if (s != XK_RAND)
				xdh_k(L, k, (enum xdh_k)s, &rng);   /* clamped already: clamping is idempotent */
			api_one(t, L, kind, what, xdh_u_name((enum xdh_u)e), k, u, NULL);
		}
		if (nb == 32) {                 /* bit 255 set: ignored */
			u[31] |= 0x80;
			api_one(t, L, kind, what, "u with bit 255 set", k, u, NULL);
		}
	}
	for (int i = 0; i < 24; i++) {
		for (size_t j = 0; j < nb; j++)
			k[j] = (uint8_t)rng_next(&rng), u[j] = (uint8_t)rng_next(&rng);
		api_one(t, L, kind, what, "random k and u (unclamped bytes)", k, u, NULL);
	}
	/* out overlapping the inputs (the API copies them first) */
	uint8_t buf[56], w[56];
	for (size_t j = 0; j < nb; j++)
		k[j] = (uint8_t)rng_next(&rng), u[j] = (uint8_t)rng_next(&rng);
	or_xdh_bytes(L, w, k, u);
	memcpy(buf, u, nb);
	L->api(buf, k, buf);
	ck_assert_msg(memcmp(buf, w, nb) == 0, "%s %s: lf_%s with out == point", t->label, what,
	              L->curve);
	memcpy(buf, k, nb);
	L->api(buf, buf, u);
	ck_assert_msg(memcmp(buf, w, nb) == 0, "%s %s: lf_%s with out == scalar", t->label, what,
	              L->curve);
	cov_add(t, kind, 2);
}

/* ---- fe_c25519_r51_mul_x4 ---------------------------------------------------------------- */
const int64_t (*const x4_out)[2] = kat_x4_out;

static const char *const x4_name[X4_NELEM] = {
	"0", "1", "p-1", "p", "2^255-1", "every limb 2^52-1", "every limb 2^51",
	"limbs alternating 0 and 2^52-1", "only the top limb 2^52-1", "only limb 0 2^52-1",
	"random below p", "random limbs below 2^52",
};

const char *x4_elem_name(enum x4_elem e)
{
	return e < X4_NELEM ? x4_name[e] : "?";
}

static const char P25519[] = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed";

void x4_elem(int64_t *x, enum x4_elem e, rng_t *r)
{
	const int64_t t52 = ((int64_t)1 << 52) - 1;
	if (e >= X4_TOP && e <= X4_TOP_LO) {
		for (int i = 0; i < 5; i++)
			x[i] = e == X4_TOP ? t52 : e == X4_TOP51 ? (int64_t)1 << 51
			     : e == X4_ALT ? (i & 1 ? t52 : 0) : e == X4_TOP_HI ? (i == 4 ? t52 : 0)
			     : (i == 0 ? t52 : 0);
		return;
	}
	if (e == X4_RAND) {
		for (int i = 0; i < 5; i++)
			x[i] = (int64_t)(rng_next(r) & (uint64_t)t52);
		return;
	}
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	mpz_set_str(p, P25519, 16);
	switch (e) {
	case X4_ZERO:
	case X4_ONE:
		mpz_set_ui(z, (unsigned long)e);
		break;
	case X4_PM1:
	case X4_P:
		mpz_sub_ui(z, p, e == X4_PM1);
		break;
	case X4_POW_M1:
		mpz_setbit(z, 255);
		mpz_sub_ui(z, z, 1);
		break;
	default:                   /* X4_RAND_P */
		for (int i = 0; i < 5; i++) {
			mpz_mul_2exp(z, z, 64);
			mpz_add_ui(z, z, (unsigned long)rng_next(r));
		}
		mpz_mod(z, z, p);
		break;
	}
	to_digits(x, z, 5, 51);
	mpz_clears(p, z, NULL);
}

void x4_put(int64_t *v, int lane, const int64_t *x)
{
	for (int i = 0; i < 5; i++)
		v[4 * i + lane] = x[i];
}

void x4_get(int64_t *x, const int64_t *v, int lane)
{
	for (int i = 0; i < 5; i++)
		x[i] = v[4 * i + lane];
}

size_t x4_kat(const struct kat_x4 **v, const int64_t **limbs)
{
	*v = kat_x4;
	*limbs = kat_lad_limbs;
	return NLEN(kat_x4);
}

void or_x4(int64_t *r, const int64_t *a, const int64_t *b)
{
	mpz_t p, x, y;
	mpz_inits(p, x, y, NULL);
	mpz_set_str(p, P25519, 16);
	for (int l = 0; l < 4; l++) {
		int64_t ea[5], eb[5], er[5];
		x4_get(ea, a, l);
		x4_get(eb, b, l);
		for (int i = 0; i < 5; i++)
			ck_assert_msg(ea[i] >= 0 && ea[i] < ((int64_t)1 << 52) && eb[i] >= 0 &&
			              eb[i] < ((int64_t)1 << 52), "test bug: x4 operand limb outside "
			              "[0, 2^52)");
		to_mpz(x, ea, 5, 51);
		to_mpz(y, eb, 5, 51);
		mpz_mul(x, x, y);
		mpz_mod(x, x, p);
		to_digits(er, x, 5, 51);
		x4_put(r, l, er);
	}
	mpz_clears(p, x, y, NULL);
}

/* r within the stated bound in every lane and congruent to want (canonical) per lane */
static void x4_check(const char *label, const char *what, const int64_t *r,
                     const int64_t *want, const int64_t *a, const int64_t *b)
{
	char sr[400], sa[400], sb[400], sw[400];
	mpz_t p, z;
	mpz_inits(p, z, NULL);
	mpz_set_str(p, P25519, 16);
	for (int l = 0; l < 4; l++) {
		int64_t er[5], ew[5], ea[5], eb[5], got[5];
		x4_get(er, r, l);
		x4_get(ew, want, l);
		x4_get(ea, a, l);
		x4_get(eb, b, l);
		hexlimbs(sr, sizeof sr, er, 5);
		hexlimbs(sa, sizeof sa, ea, 5);
		hexlimbs(sb, sizeof sb, eb, 5);
		hexlimbs(sw, sizeof sw, ew, 5);
		for (int i = 0; i < 5; i++)
			ck_assert_msg(er[i] >= x4_out[i][0] && er[i] <= x4_out[i][1], "%s %s: lane %d "
			              "limb %d = %#llx outside the stated bound [%#llx, %#llx]; r = {%s}, "
			              "a = {%s}, b = {%s}", label, what, l, i,
			              (unsigned long long)er[i], (unsigned long long)x4_out[i][0],
			              (unsigned long long)x4_out[i][1], sr, sa, sb);
		to_mpz(z, er, 5, 51);
		mpz_mod(z, z, p);
		to_digits(got, z, 5, 51);
		ck_assert_msg(memcmp(got, ew, sizeof got) == 0, "%s %s: lane %d: r = {%s} is not "
		              "a b mod p = {%s}; a = {%s}, b = {%s}", label, what, l, sr, sw, sa, sb);
	}
	mpz_clears(p, z, NULL);
}

void x4_assert_result(const char *label, const char *what, const int64_t *r,
                      const int64_t *a, const int64_t *b)
{
	int64_t want[X4_LIMBS];
	or_x4(want, a, b);
	x4_check(label, what, r, want, a, b);
}

void exec_x4(const struct exec_ctx *c, const int64_t *a, const int64_t *b,
             enum p256_alias alias, const int64_t *exp_r)
{
	const size_t bytes = X4_LIMBS * 8;
	struct gbuf ga, gb, gr;
	int64_t want[X4_LIMBS], *ap, *bp, *rp;
	char what[300];
	if (alias == P256_AB || alias == P256_ALL)
		b = a;
	or_x4(want, a, b);
	if (exp_r) {
		x4_check("test bug: Python vs mpz", c->what, exp_r, want, a, b);
		memcpy(want, exp_r, bytes);
	}
	ap = gb_alloc(&ga, bytes, c->place, c->shift);
	memcpy(ap, a, bytes);
	bp = alias == P256_AB || alias == P256_ALL ? ap : gb_alloc(&gb, bytes, c->place, c->shift);
	if (bp != ap)
		memcpy(bp, b, bytes);
	rp = alias == P256_RA || alias == P256_ALL ? ap : alias == P256_RB ? bp :
	     gb_alloc(&gr, bytes, c->place, c->shift);
	if (rp != ap && rp != bp)
		fill_garbage64((uint64_t *)rp, X4_LIMBS);

	crash_note(c->t->label, c->what, X4_LIMBS);
	((lf_fe_c25519_r51_mul_x4_fn)c->fn)(rp, ap, bp);

	snprintf(what, sizeof what, "[%s] %s (%s, +%zu): %s", cov_kind_name[c->kind], c->what,
	         gb_place_name(c->place), c->shift, p256_alias_name[alias]);
	x4_check(c->t->label, what, rp, want, a, b);
	ASSERT_CANARIES(&ga, c->t->label, "a", c->what);
	if (rp != ap)
		ck_assert_msg(memcmp(ap, a, bytes) == 0, "%s %s: input a modified", c->t->label,
		              what);
	if (bp != ap) {
		ASSERT_CANARIES(&gb, c->t->label, "b", c->what);
		if (rp != bp)
			ck_assert_msg(memcmp(bp, b, bytes) == 0, "%s %s: input b modified",
			              c->t->label, what);
		gb_free(&gb);
	}
	if (rp != ap && rp != bp) {
		ASSERT_CANARIES(&gr, c->t->label, "r", c->what);
		gb_free(&gr);
	}
	gb_free(&ga);
	cov_add(c->t, c->kind, 1);
}
