/*
 * oracle_poly1305.c -- independent Poly1305 oracles for tests/test_poly1305.c.
 *
 * Fault this is designed to catch: a Poly1305 result checked against code that shares its
 * bugs.  None of these is limbforge code, not even `ref`:
 *   - OpenSSL's EVP_MAC "POLY1305" and libsodium's crypto_onetimeauth_poly1305, where the
 *     build has them (LF_TEST_OPENSSL / LF_TEST_SODIUM, set by tests/tests.mk from pkg-config:
 *     the x86-64 host build; the AArch64 cross build under qemu has neither);
 *   - GMP: the RFC 8439 definition on mpz integers (bytes imported little-endian, r clamped
 *     byte by byte as the JDK's setRSVals does, acc = (acc + chunk + 2^(8 len)) r mod 2^130-5,
 *     tag = (acc + s) mod 2^128), available on both architectures; the block-function and
 *     value-mod-p helpers for the kernel-level tests are GMP too.
 * The oracles are themselves checked against the RFC's vectors (tests/kat/gen_poly1305.py) and
 * against each other (test_poly1305.c, case "oracles").
 */
#include <gmp.h>
#include <string.h>

#include "harness.h"

#if defined(LF_TEST_OPENSSL)
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif
#if defined(LF_TEST_SODIUM)
#include <sodium.h>
#endif

/* ---- GMP ---------------------------------------------------------------------------------- */
static mpz_t P, acc, c, rr;
static int gmp_ready;

static void gmp_init(void)
{
	if (gmp_ready)
		return;
	mpz_inits(P, acc, c, rr, NULL);
	mpz_ui_pow_ui(P, 2, 130);
	mpz_sub_ui(P, P, 5);
	gmp_ready = 1;
}

static void import_le(mpz_t z, const void *b, size_t n)
{
	if (n == 0)
		mpz_set_ui(z, 0);
	else
		mpz_import(z, n, -1, 1, 0, 0, b);
}

/* z = sum w[i] 2^(64 i) */
static void set_words(mpz_t z, const uint64_t *w, size_t n)
{
	mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, w);
}

/* z (0 <= z < 2^192) into three words */
static void export3(uint64_t out[3], const mpz_t z)
{
	size_t n = 0;
	if (mpz_sgn(z) < 0 || mpz_sizeinbase(z, 2) > 192)
		ck_abort_msg("oracle: value out of range");
	out[0] = out[1] = out[2] = 0;
	mpz_export(out, &n, -1, sizeof(uint64_t), 0, 0, z);
}

void or_p1305_gmp(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
	uint8_t rb[16], out[32];
	size_t n = 0;
	gmp_init();
	memcpy(rb, key, 16);
	rb[3] &= 15, rb[7] &= 15, rb[11] &= 15, rb[15] &= 15;   /* Poly1305.setRSVals */
	rb[4] &= 252, rb[8] &= 252, rb[12] &= 252;
	import_le(rr, rb, 16);
	mpz_set_ui(acc, 0);
	for (size_t i = 0; i < len; i += 16) {
		size_t l = len - i < 16 ? len - i : 16;
		import_le(c, m + i, l);
		mpz_setbit(c, 8 * l);
		mpz_add(acc, acc, c);
		mpz_mul(acc, acc, rr);
		mpz_mod(acc, acc, P);
	}
	import_le(c, key + 16, 16);
	mpz_add(acc, acc, c);
	mpz_fdiv_r_2exp(acc, acc, 128);
	memset(out, 0, sizeof out);
	mpz_export(out, &n, -1, 1, 0, 0, acc);
	memcpy(tag, out, 16);
}

void or_p1305_blocks(uint64_t out[3], const uint64_t h[3], const uint64_t r[2],
                     const uint8_t *m, size_t nblocks, uint64_t pad)
{
	gmp_init();
	set_words(acc, h, 3);
	set_words(rr, r, 2);
	for (size_t i = 0; i < nblocks; i++) {
		import_le(c, m + 16 * i, 16);
		if (pad)
			mpz_setbit(c, 128);
		mpz_add(acc, acc, c);
		mpz_mul(acc, acc, rr);
		mpz_mod(acc, acc, P);
	}
	mpz_mod(acc, acc, P);
	export3(out, acc);
}

void or_p1305_mod_p(uint64_t out[3], const uint64_t *w, size_t nw)
{
	gmp_init();
	set_words(acc, w, nw);
	mpz_mod(acc, acc, P);
	export3(out, acc);
}

void or_p1305_limbs26_mod_p(uint64_t out[3], const int64_t l[5])
{
	gmp_init();
	mpz_set_ui(acc, 0);
	for (int i = 4; i >= 0; i--) {
		uint64_t x = (uint64_t)l[i];     /* read as unsigned 64-bit, as the API documents */
		mpz_mul_2exp(acc, acc, 26);
		set_words(c, &x, 1);
		mpz_add(acc, acc, c);
	}
	mpz_mod(acc, acc, P);
	export3(out, acc);
}

int or_p1305_solve(uint64_t x[3], const uint64_t y[3], const uint64_t r[2], const uint64_t z[3])
{
	mpz_t Y, Z;
	int ok;
	gmp_init();
	mpz_inits(Y, Z, NULL);
	set_words(rr, r, 2);
	set_words(Y, y, 3);
	set_words(Z, z, 3);
	ok = mpz_invert(acc, rr, P) != 0;
	if (ok) {
		mpz_mul(acc, acc, Y);
		mpz_sub(acc, acc, Z);
		mpz_mod(acc, acc, P);
		export3(x, acc);
	}
	mpz_clears(Y, Z, NULL);
	return ok;
}

/* ---- OpenSSL ------------------------------------------------------------------------------ */
int or_p1305_have_openssl(void)
{
#if defined(LF_TEST_OPENSSL)
	return 1;
#else
	return 0;
#endif
}

int or_p1305_have_sodium(void)
{
#if defined(LF_TEST_SODIUM)
	return 1;
#else
	return 0;
#endif
}

const char *or_p1305_names(void)
{
	static char buf[160];
	size_t o = 0;
	buf[0] = 0;
#if defined(LF_TEST_OPENSSL)
	o += (size_t)snprintf(buf + o, sizeof buf - o, "OpenSSL %s EVP_MAC POLY1305, ",
	                      OpenSSL_version(OPENSSL_VERSION_STRING));
#endif
#if defined(LF_TEST_SODIUM)
	o += (size_t)snprintf(buf + o, sizeof buf - o, "libsodium %s crypto_onetimeauth_poly1305, ",
	                      sodium_version_string());
#endif
	snprintf(buf + o, sizeof buf - o, "GMP %s (RFC 8439 definition on mpz)", gmp_version);
	return buf;
}

void or_p1305_openssl(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
#if defined(LF_TEST_OPENSSL)
	static EVP_MAC *mac;
	static EVP_MAC_CTX *ctx;
	static const uint8_t dummy[1];
	size_t outl = 0;
	if (!mac) {
		mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
		ck_assert_msg(mac != NULL, "OpenSSL: EVP_MAC_fetch(POLY1305) failed");
		ctx = EVP_MAC_CTX_new(mac);
		ck_assert_msg(ctx != NULL, "OpenSSL: EVP_MAC_CTX_new failed");
	}
	/* plain ifs on the per-call paths: every ck_assert records its location (a system call
	 * in fork mode) */
	if (EVP_MAC_init(ctx, key, 32, NULL) != 1)
		ck_abort_msg("OpenSSL: EVP_MAC_init failed");
	if (EVP_MAC_update(ctx, len ? m : dummy, len) != 1)
		ck_abort_msg("OpenSSL: EVP_MAC_update failed");
	if (EVP_MAC_final(ctx, tag, &outl, 16) != 1 || outl != 16)
		ck_abort_msg("OpenSSL: EVP_MAC_final failed");
#else
	(void)tag, (void)m, (void)len, (void)key;
	ck_abort_msg("OpenSSL oracle not built in");
#endif
}

void or_p1305_sodium(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
#if defined(LF_TEST_SODIUM)
	static int ready;
	static const uint8_t dummy[1];
	if (!ready) {
		ck_assert_msg(sodium_init() >= 0, "libsodium: sodium_init failed");
		ready = 1;
	}
	if (crypto_onetimeauth_poly1305(tag, len ? m : dummy, len, key) != 0)
		ck_abort_msg("libsodium: crypto_onetimeauth_poly1305 failed");
#else
	(void)tag, (void)m, (void)len, (void)key;
	ck_abort_msg("libsodium oracle not built in");
#endif
}

static void hex16(char *out, const uint8_t t[16])
{
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", t[i]);
}

unsigned or_p1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32],
                  int with_gmp)
{
	uint8_t t[16];
	unsigned used = 0;
	int have = 0;
	char a[33], b[33];
	if (or_p1305_have_openssl()) {
		or_p1305_openssl(tag, m, len, key);
		used |= OR_P1305_OPENSSL;
		have = 1;
	}
	if (or_p1305_have_sodium()) {
		or_p1305_sodium(have ? t : tag, m, len, key);
		if (have && memcmp(t, tag, 16) != 0) {
			hex16(a, tag), hex16(b, t);
			ck_abort_msg("ORACLES DISAGREE (len %zu): OpenSSL %s, libsodium %s", len, a, b);
		}
		used |= OR_P1305_SODIUM;
		have = 1;
	}
	if (with_gmp || !have) {
		or_p1305_gmp(have ? t : tag, m, len, key);
		if (have && memcmp(t, tag, 16) != 0) {
			hex16(a, tag), hex16(b, t);
			ck_abort_msg("ORACLES DISAGREE (len %zu): %s %s, GMP %s", len,
			             or_p1305_have_openssl() ? "OpenSSL" : "libsodium", a, b);
		}
		used |= OR_P1305_GMP;
	}
	return used;
}
