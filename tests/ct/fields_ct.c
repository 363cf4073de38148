/*
 * fields_ct.c -- constant time of the generated EC field kernels and of lf_x25519 / lf_x448
 * (TESTING.md 11), under valgrind memcheck (tests/ct.mk).
 *
 * Secrets are marked undefined, so memcheck reports every conditional branch and memory
 * address that depends on them:
 *   - conditional_swap and conditional_assign of every field: `swap` / `set` and all limbs
 *     secret, both values 0 and 1;
 *   - mul, square, add, sub, neg, carry, carry_reduce (its final "subtract p if >= p"
 *     select), encode, decode, invert, mul_small and the ladder step of every field: every
 *     input limb (bytes for decode) secret, on values at the contract's edges (p - 1, p, the
 *     hi corner of L) where a branchy reduction would take its other path;
 *   - lf_x25519 and lf_x448: the scalar and the point secret (RFC 7748 5.2 vectors, u = 0,
 *     u = p: the all-zero check must be a mask), out and the return code made defined only
 *     after the call returns.
 * Results are checked (swap/assign exactly, X25519/X448 against RFC 7748), so a constant-time
 * but broken build fails too.  `--control` runs a deliberately leaky select (a branch on
 * `set`): memcheck must report it (the make rule expects that run to fail).
 * Fields with 51..58-bit limbs need __int128 (LF_FE_WIDE); valgrind runs on x86-64 only.
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "limbforge.h"
#include "lf_fields.h"
#include "../fields_table.h"

#define MAXL 19

static void secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static int fails;

/* the control: a select that branches on `set` */
__attribute__((noinline)) static void leaky_assign(int set, int64_t *a, const int64_t *b, int n)
{
	if (set)
		memcpy(a, b, sizeof(int64_t) * (size_t)n);
}

static void check(int ok, const char *field, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fields_ct: %s %s: wrong result\n", field, what);
		fails++;
	}
}

static void selects(const struct fe_fns *f)
{
	int64_t a[MAXL], b[MAXL], A[MAXL], B[MAXL];
	size_t sz = sizeof(int64_t) * (size_t)f->limbs;
	for (int i = 0; i < f->limbs; i++)
		a[i] = (int64_t)(0x0123456789abcdefull * (uint64_t)(i + 1)), b[i] = ~a[i] + 3 * i;
	for (int s = 0; s <= 1; s++) {
		int ss = s;
		memcpy(A, a, sz), memcpy(B, b, sz);
		secret(&ss, sizeof ss), secret(A, sz), secret(B, sz);
		f->cswap(ss, A, B);
		public(A, sz), public(B, sz);
		check(!memcmp(A, s ? b : a, sz) && !memcmp(B, s ? a : b, sz), f->name,
		      "conditional_swap");
		ss = s;
		memcpy(A, a, sz), memcpy(B, b, sz);
		secret(&ss, sizeof ss), secret(A, sz), secret(B, sz);
		f->cassign(ss, A, B);
		public(A, sz);
		check(!memcmp(A, s ? b : a, sz), f->name, "conditional_assign");
	}
}

/* every other op on secret inputs, each inside its contract: the reduced elements 1, p - 1
 * and p (decoded from bytes: decode's output is within R), and for carry, carry_reduce and
 * encode also the hi corner of L (2^62 per limb), where the canonical reduction's final
 * select goes the other way */
static void arithmetic(const struct fe_fns *f)
{
	int64_t in[4][MAXL], a[MAXL], b[MAXL], r[MAXL], x[4][MAXL], one[MAXL] = { 1 }, t[MAXL];
	uint8_t pb[3][66], bytes[66];
	size_t sz = sizeof(int64_t) * (size_t)f->limbs, nb = (size_t)f->nbytes;
	memset(pb, 0, sizeof pb);
	pb[0][0] = 1;
	f->neg(t, one);                                  /* public: the bytes of p - 1 and p */
	f->encode(pb[1], t);
	memcpy(pb[2], pb[1], nb);
	pb[2][0] += 1;                                   /* p - 1 ends in 0xec / 0xfe: no carry */
	for (int c = 0; c < 3; c++)
		f->decode(in[c], pb[c]);
	for (int i = 0; i < f->limbs; i++)
		in[3][i] = (int64_t)1 << 62;
	for (int c = 0; c < 4; c++) {
		memcpy(a, in[c], sz), memcpy(b, in[(c + 1) % 3], sz);
		secret(a, sz), secret(b, sz);
		if (c < 3) {
			f->mul(r, a, b), f->square(r, a), f->invert(r, a);
			if (f->mul_small)
				f->mul_small(r, a);
			f->add(r, a, b), f->neg(r, a), f->sub(r, a, b);
			if (f->ladder) {
				for (int j = 0; j < 4; j++)
					memcpy(x[j], in[(c + j) % 3], sz), secret(x[j], sz);
				f->ladder(x[0], x[1], x[2], x[3], a);
			}
		}
		f->carry(r, a), f->carry_reduce(r, a), f->encode(bytes, a);
		if (c < 3)
			memcpy(bytes, pb[c], nb);
		else
			memset(bytes, 0xff, nb);          /* all-0xff bytes: >= p, top bits set */
		secret(bytes, nb);
		f->decode(r, bytes);
	}
}

static void xdh(const char *name, int (*fn)(uint8_t *, const uint8_t *, const uint8_t *),
                size_t n, const uint8_t *k, const uint8_t *u, int want_rc, const uint8_t *want)
{
	uint8_t kk[56], uu[56], out[56];
	memcpy(kk, k, n), memcpy(uu, u, n);
	secret(kk, n), secret(uu, n);
	int rc = fn(out, kk, uu);
	public(&rc, sizeof rc), public(out, n);
	check(rc == want_rc && memcmp(out, want, n) == 0, name, "RFC 7748 / small-order vector");
}

static void unhex(uint8_t *o, const char *h)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned v;
		sscanf(h + 2 * i, "%2x", &v);
		o[i] = (uint8_t)v;
	}
}

int main(int argc, char **argv)
{
	static const uint8_t zero[56];
	uint8_t k[56], u[56], o[56], p25519[32], p448[56];
	if (argc > 1 && strcmp(argv[1], "--control") == 0) {
		int64_t a[4] = { 1 }, b[4] = { 2 };
		int set = 1;
		secret(&set, sizeof set);
		leaky_assign(set, a, b, 4);
		printf("fields_ct: control ran (%lld)\n", (long long)a[0]);
		return 0;
	}
	printf("fields_ct: %s valgrind; %zu fields%s\n", RUNNING_ON_VALGRIND ? "under" : "not under",
	       sizeof fe_fns / sizeof fe_fns[0], LF_FE_WIDE ? "" : " (no __int128: 26/28-bit only)");
	for (size_t i = 0; i < sizeof fe_fns / sizeof fe_fns[0]; i++) {
		selects(&fe_fns[i]);
		arithmetic(&fe_fns[i]);
		printf("fields_ct: %s: conditional_swap/assign, arithmetic, encode/decode%s\n",
		       fe_fns[i].name, fe_fns[i].ladder ? ", ladder_step" : "");
	}
	unhex(k, "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
	unhex(u, "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
	unhex(o, "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
	xdh("lf_x25519", lf_x25519, 32, k, u, 0, o);
	xdh("lf_x25519", lf_x25519, 32, k, zero, LF_XDH_EZERO, zero);
	memset(p25519, 0xff, 32), p25519[0] = 0xed, p25519[31] = 0x7f;
	xdh("lf_x25519", lf_x25519, 32, k, p25519, LF_XDH_EZERO, zero);
	unhex(k, "3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3");
	unhex(u, "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086");
	unhex(o, "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f");
	xdh("lf_x448", lf_x448, 56, k, u, 0, o);
	xdh("lf_x448", lf_x448, 56, k, zero, LF_XDH_EZERO, zero);
	memset(p448, 0xff, 56), p448[28] = 0xfe;
	xdh("lf_x448", lf_x448, 56, k, p448, LF_XDH_EZERO, zero);
	printf("fields_ct: lf_x25519, lf_x448 with secret scalar and point: %d wrong\n", fails);
	return fails ? 1 : 0;
}
