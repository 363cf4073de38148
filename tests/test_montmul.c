/*
 * test_montmul.c -- mpn_montmul, every runnable variant called directly, and
 * lf_bi_montgomery_multiply / lf_bi_montgomery_square (BigInteger.implMontgomeryMultiply /
 * Square on BE-words) with each variant forced; differential against GMP: a b R^-1 mod N
 * from mpz_invert, nothing CIOS-shaped (the oracle's CIOS trace on values only proves which
 * state a case reaches).
 *
 * Faults this is designed to catch:
 *   - a result that is congruent but not fully reduced: a, b < N are compared limb for limb
 *     with the reduced value, over moduli that make the final subtraction due (all-ones N,
 *     N = 2^k - small, saturating operands; counted: some cases must need it, some not) and
 *     a product that lands exactly on N before the subtraction (N = p q, a = p, b = q: the
 *     result is 0, not N -- the "almost Montgomery" bug);
 *   - a lost carry in the accumulator's top word: N all ones with a = b = N-1 (the top word
 *     is 1 after every iteration and the row of a carries past it, the two-word carry
 *     `top2`, at every iteration but the first -- asserted from the oracle's trace), and
 *     b solved limb by limb so the carry word of every iteration is 0, 1, 2 or its maximum;
 *   - a wrong m digit or n0inv use: N = 1 mod 2^32 (n0inv's low half -1), N = 2^k - small,
 *     top bit only, top limb 1, lattice limbs; operands 0, 1, 2, N-1, N-2;
 *   - inputs in [N, R) (allowed): both there, the result must be congruent mod N (n limbs,
 *     so < R); one there and the other below N (lf_bi_mod_pow's x * 1), fully reduced;
 *   - the IFMA variant's radix-2^52 packing and its size dispatch: every n in 1..70 (it
 *     runs itself for ifma_min..128, ifma_min 10 in the schedules here, and jumps to adx
 *     outside), both ends of every accumulator count V up to 20 (128 limbs), 129, 256 limbs;
 *   - reads outside ap/bp/np, writes outside {rp,n} (guard pages, canaries), writes into
 *     an input, an rp limb never written (rp starts as garbage); alignment assumptions
 *     (every 8-byte offset mod 64); ap == bp (squaring) read wrongly;
 *   - the adx grouped passes (K = redc_rows rows per pass over a stack buffer where K divides
 *     n, 16..128 limbs: the REDC of a^2 and, for a != b, the product a b too): a carry lost
 *     between two blocks of a group or between two groups -- every n in 1..70 and every
 *     multiple of 8 from 72 to 128 reach them, on both sides of each path's bounds (mutants
 *     asm_montmul_*_carry_lost);
 *   - the a64 squaring path (ap == bp, n >= sqr_min): a half column doubled wrongly, the
 *     square a_h^2 or the middle m_h N_h lost or added twice, at every n in 1..70 (both
 *     sides of every sqr_min choice) and 96, 128, 256, random, saturating and edge operands;
 *   - whatever the fixed cases miss: test_mont_random draws n (biased to the ifma and sqr_min
 *     boundaries), modulus and operand kinds and a == b at random, LF_TEST_MONT_RANDOM cases
 *     per variant (default 2000; `make fuzz` runs far more with a fresh LF_TEST_SEED);
 *   - n == 0 touching memory (NULL and PROT_NONE pointers);
 *   - in the BigInteger entry points: BE word order and the word-to-limb packing, inv taken
 *     from the wrong words, a modulus padded with a leading zero word (odd lengths, as
 *     oddModPow does), every even len 2..128 and 192, 256, 512 words, product == a, == b,
 *     == a == b (the JDK's own arrays), and len odd, 0 or > 512 writing or reading anything.
 * rp must not overlap the inputs of the kernel (contract): the in-place kind is the
 * BigInteger entry points' product == a / b, with the variant in use.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define NLEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAXN 256

static const struct tvar *var(int vi)
{
	return tv_runnable(LF_K_mpn_montmul, (size_t)vi);
}

static struct exec_ctx ctx(const struct tvar *t, enum cov_kind kind, const char *what)
{
	struct exec_ctx c = { t, t->v->fn, kind, GB_MID, 0, what };
	return c;
}

/* ---- moduli and operands ------------------------------------------------------------------ */
enum modkind {
	M_RANDOM, M_ONES, M_R_SMALL, M_HALF_SMALL, M_1MOD32, M_TOPBIT, M_TOP1, M_LATTICE, N_MOD
};
static const char *const mod_name[N_MOD] = {
	"random odd N", "N all ones", "N = 2^(64n) - small", "N = 2^(64n-1) - small",
	"N = 1 mod 2^32", "N = 2^(64n-1) + 1", "N with top limb 1", "N of lattice limbs",
};

static void make_mod(uint64_t *N, size_t n, enum modkind k, rng_t *r)
{
	switch (k) {
	case M_ONES:
		fill64(N, n, PAT_ONES, r);
		break;
	case M_R_SMALL:
	case M_HALF_SMALL:
		fill64(N, n, PAT_ONES, r);
		N[0] -= 2 * (rng_next(r) % 5000 + 1);           /* stays odd */
		if (k == M_HALF_SMALL)
			N[n - 1] >>= 1;
		break;
	case M_1MOD32:
		fill64(N, n, PAT_RANDOM, r);
		N[0] = (N[0] & ~UINT64_C(0xffffffff)) | 1;
		break;
	case M_TOPBIT:
		fill64(N, n, PAT_ZERO, r);
		N[n - 1] |= UINT64_C(1) << 63;
		N[0] |= 1;
		break;
	case M_TOP1:
		fill64(N, n, PAT_RANDOM, r);
		if (n > 1)
			N[n - 1] = 1;
		break;
	case M_LATTICE:
		fill64(N, n, PAT_LATTICE, r);
		break;
	case M_RANDOM:
	default:
		fill64(N, n, PAT_RANDOM, r);
		break;
	}
	N[0] |= 1;
	if (N[n - 1] == 0)
		N[n - 1] = 1 + (n == 1);        /* n limbs, odd for n = 1 */
	N[0] |= 1;
}

/* operand number i of a small menu, below N */
enum { OP_ZERO, OP_ONE, OP_TWO, OP_NM1, OP_NM2, OP_RANDOM, OP_LATTICE, OP_ONES_MOD, N_OP };
static const char *const op_name[N_OP] = { "0", "1", "2", "N-1", "N-2", "random < N",
	                                    "lattice mod N", "all ones mod N" };

static void make_op(uint64_t *a, const uint64_t *N, size_t n, int which, rng_t *r)
{
	uint64_t tmp[MAXN];
	switch (which) {
	case OP_ZERO:
	case OP_ONE:
	case OP_TWO:
		fill64(a, n, PAT_ZERO, r);
		a[0] = (uint64_t)which;
		if (or_cmp(a, N, n) >= 0)
			a[0] = 0;
		break;
	case OP_NM1:
	case OP_NM2: {
		uint64_t k = which == OP_NM1 ? 1 : 2;
		for (size_t i = 0; i < n; i++) {        /* a = N - k with the borrow carried */
			a[i] = N[i] - k;
			k = N[i] < k;
		}
		if (k)                                  /* N < k (N = 1) */
			fill64(a, n, PAT_ZERO, r);
		break;
	}
	case OP_RANDOM:
	case OP_LATTICE:
	case OP_ONES_MOD:
	default:
		fill64(tmp, n, which == OP_RANDOM ? PAT_RANDOM : which == OP_LATTICE ? PAT_LATTICE
		                                                                    : PAT_ONES, r);
		or_mod(a, tmp, N, n);
		break;
	}
}

/* ---- direct calls ------------------------------------------------------------------------- */
START_TEST(test_mont_zero)
{
	const struct tvar *t = var(_i);
	lf_mpn_montmul_fn fn = (lf_mpn_montmul_fn)t->v->fn;
	void *na = gb_noaccess();
	uint64_t one = 1;
	crash_note(t->label, "n = 0 with NULL / PROT_NONE pointers", 0);
	fn(NULL, NULL, NULL, NULL, 1, 0);
	fn(na, na, na, na, UINT64_MAX, 0);
	cov_add(t, COV_ZERO, 2);
	struct exec_ctx c = ctx(t, COV_ZERO, "n = 0 between canaries");
	exec_montmul(&c, &one, &one, &one, 0, 0, NULL, NULL);
	exec_montmul(&c, &one, &one, &one, 0, 1, NULL, NULL);
}
END_TEST

static const size_t lattice_ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	                             24, 31, 32, 33, 48, 63, 64, 65 };

START_TEST(test_mont_lattice)
{
	const struct tvar *t = var(_i);
	uint64_t N[65], a[65], b[65];
	rng_t rng;
	rng_init(&rng, t->label, 81);
	for (size_t ni = 0; ni < NLEN(lattice_ns); ni++) {
		size_t n = lattice_ns[ni];
		for (int k = 0; k < N_MOD; k++) {
			make_mod(N, n, (enum modkind)k, &rng);
			/* operand menu: all pairs for short n, a diagonal walk otherwise */
			for (int i = 0; i < N_OP; i++) {
				for (int j = 0; j < N_OP; j++) {
					if (n > 4 && j != (i + k) % N_OP && j != OP_RANDOM)
						continue;
					make_op(a, N, n, i, &rng);
					make_op(b, N, n, j, &rng);
					struct exec_ctx c = ctx(t, COV_LATTICE, mod_name[k]);
					exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
				}
				make_op(a, N, n, i, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, op_name[i]);
				exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
			}
			/* operands in [N, R): lattice and pattern values as they come */
			for (int p = 0; p < N_PAT; p += 3) {
				fill64(a, n, (enum pattern)p, &rng);
				fill64(b, n, PAT_LATTICE, &rng);
				struct exec_ctx c = ctx(t, COV_LATTICE, "operands up to R-1, unreduced");
				exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
			}
		}
	}
}
END_TEST

/* N all ones, a = b = N-1 (and variations): the accumulator saturates at every iteration.
 * The claim is checked on the oracle's trace, so the case cannot silently degrade. */
static void saturating(const struct tvar *t, size_t n, enum cov_kind kind, size_t *subtract,
                       size_t *nosub)
{
	uint64_t N[MAXN], a[MAXN], b[MAXN];
	struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
	rng_t rng;
	rng_init(&rng, t->label, 82 + n);
	for (int v = 0; v < 4; v++) {
		make_mod(N, n, v < 3 ? M_ONES : M_R_SMALL, &rng);
		make_op(a, N, n, OP_NM1, &rng);
		make_op(b, N, n, v == 1 ? OP_NM2 : OP_NM1, &rng);
		struct exec_ctx c = ctx(t, kind, v == 0 ? "N all ones, a = b = N-1 (ap == bp)" :
		                                 v == 1 ? "N all ones, a = N-1, b = N-2" :
		                                 v == 2 ? "N all ones, a = b = N-1 (two buffers)" :
		                                          "N = R - small, a = b = N-1");
		exec_montmul(&c, a, b, N, n, v == 0, NULL, &info);
		ck_assert_msg(info.subtract && info.top1 == n && info.carry2 == n - 1,
		              "test bug: %s, n=%zu: the trace shows top word 1 in %zu of %zu "
		              "iterations, a two-word carry in %zu of %zu, final subtraction %s",
		              c.what, n, info.top1, n, info.carry2, n - 1,
		              info.subtract ? "due" : "not due");
		++*subtract;
	}
	/* the same modulus with operands far below it: no subtraction */
	make_mod(N, n, M_ONES, &rng);
	make_op(a, N, n, OP_TWO, &rng);
	struct exec_ctx c = ctx(t, kind, "N all ones, a = b = 2");
	exec_montmul(&c, a, a, N, n, 0, NULL, &info);
	*(info.subtract ? subtract : nosub) += 1;
}

/* N = p q with p, q odd and a = p, b = q: U = (p q + M N) / R = N exactly, result 0. */
static void lands_on_n(const struct tvar *t, size_t n, rng_t *rng)
{
	uint64_t p[MAXN], q[MAXN], N[2 * MAXN], a[MAXN], b[MAXN];
	struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
	size_t pn = (n + 1) / 2, qn = n - pn;
	if (n == 1) {
		/* 32-bit factors */
		a[0] = (rng_next(rng) >> 32) | 0x80000001u;
		b[0] = (rng_next(rng) >> 32) | 0x80000001u;
		N[0] = a[0] * b[0];
	} else {
		fill64(p, pn, PAT_RANDOM, rng);
		fill64(q, qn, PAT_RANDOM, rng);
		p[0] |= 1, q[0] |= 1;
		p[pn - 1] |= UINT64_C(1) << 63, q[qn - 1] |= UINT64_C(1) << 63;
		or_mul(N, p, pn, q, qn);
		memset(a, 0, n * 8);
		memset(b, 0, n * 8);
		memcpy(a, p, pn * 8);
		memcpy(b, q, qn * 8);
	}
	struct exec_ctx c = ctx(t, COV_CARRY, "N = p q, a = p, b = q: lands exactly on N");
	exec_montmul(&c, a, b, N, n, 0, NULL, &info);
	ck_assert_msg(info.on_n && info.reduced, "test bug: n=%zu, the unreduced value is not N",
	              n);
}

START_TEST(test_mont_carries)
{
	const struct tvar *t = var(_i);
	static const uint64_t cyc[4] = { 0, 1, 2, CT_MAX };
	uint64_t N[65], a[65], b[65], tg[65];
	size_t subtract = 0, nosub = 0, missed0 = 0, tried0 = 0;
	rng_t rng;
	rng_init(&rng, t->label, 83);
	for (size_t n = 1; n <= 65; n += (n < 20 ? 1 : n < 31 ? 11 : n < 33 ? 1 : n < 63 ? 15 : 1)) {
		saturating(t, n, COV_CARRY, &subtract, &nosub);
		lands_on_n(t, n, &rng);
		/* carries solved per iteration: cycling 0,1,2,max; 1 everywhere; 2 everywhere;
		 * max at one position */
		size_t nsched = 7 + (n <= 17 ? n : 0);
		for (size_t s = 0; s < nsched; s++) {
			make_mod(N, n, s & 1 ? M_R_SMALL : M_ONES, &rng);
			make_op(a, N, n, s % 3 ? OP_RANDOM : OP_NM1, &rng);
			if (n > 1)
				a[n - 1] |= UINT64_C(1) << 63;      /* a near R: every target reachable */
			else
				a[0] |= UINT64_C(1) << 62;
			if (or_cmp(a, N, n) >= 0)
				make_op(a, N, n, OP_NM2, &rng);
			for (size_t i = 0; i < n; i++)
				tg[i] = s < 4 ? cyc[(i + s) % 4] : s == 4 ? 1 : s == 5 ? 2 : s == 6 ? 0 :
				        (i == s - 7 ? CT_MAX : 1);
			size_t hits = or_mont_solve_b(b, a, N, n, tg);
			/* 0 is out of reach after an iteration that left t >= R; 1 and 2 never are */
			size_t zeros = 0;
			for (size_t i = 0; i < n; i++)
				zeros += tg[i] == 0;
			ck_assert_msg(hits + zeros >= n, "test bug: carry solver hit %zu of %zu (n=%zu, "
			              "schedule %zu)", hits, n, n, s);
			tried0 += zeros;
			missed0 += n - hits;
			struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
			struct exec_ctx c = ctx(t, COV_CARRY, s < 4 ? "carry words 0,1,2,max cycling" :
			                        s == 4 ? "carry word 1 at every iteration" :
			                        s == 5 ? "carry word 2 at every iteration" :
			                        s == 6 ? "carry word 0 at every iteration" :
			                                 "carry word max at one iteration, 1 elsewhere");
			exec_montmul(&c, a, b, N, n, 0, NULL, &info);
			*(info.subtract ? &subtract : &nosub) += 1;
		}
	}
	ck_assert_msg(subtract > 0 && nosub > 0, "test bug: final subtraction due in %zu cases, "
	              "not due in %zu: both must occur", subtract, nosub);
	ck_assert_msg(tried0 > missed0, "test bug: carry word 0 reached in none of %zu tries",
	              tried0);
	printf("montmul carries (%s): final subtraction due in %zu cases, not due in %zu; carry "
	       "word 0 reached at %zu of %zu positions asked\n", t->label, subtract, nosub,
	       tried0 - missed0, tried0);
	fflush(stdout);
}
END_TEST

/* the lengths above 70 of test_mont_lengths and test_mont_square: every multiple of 8 to 128
 * (the adx grouped passes), the first and last n of every IFMA accumulator count V =
 * ceil(ceil(16 n / 13) / 8) from 11 to 20 (71..128 limbs; V = 11 is 66..71), 129 (adx again)
 * and 256 */
static const size_t long_ns[] = { 71, 72, 78, 79, 80, 84, 85, 88, 91, 92, 96, 97, 98, 104, 105, 110,
	                      111, 112, 117, 118, 120, 123, 124, 127, 128, 129, 256 };

START_TEST(test_mont_lengths)
{
	const struct tvar *t = var(_i);
	uint64_t N[MAXN], a[MAXN], b[MAXN];
	size_t subtract = 0, nosub = 0;
	rng_t rng;
	rng_init(&rng, t->label, 84);
	for (size_t i = 1; i <= 70 + NLEN(long_ns); i++) {
		size_t n = i <= 70 ? i : long_ns[i - 71];
		for (int rep = 0; rep < 3; rep++) {
			struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
			make_mod(N, n, rep == 2 ? M_1MOD32 : M_RANDOM, &rng);
			make_op(a, N, n, OP_RANDOM, &rng);
			make_op(b, N, n, rep == 1 ? OP_NM1 : OP_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_LENGTH, "random operands below a random N");
			exec_montmul(&c, a, b, N, n, rep == 1, NULL, &info);
			*(info.subtract ? &subtract : &nosub) += 1;
		}
		if (n == 15 || n == 16 || n == 17 || n == 48 || n >= 63)
			saturating(t, n, COV_LENGTH, &subtract, &nosub);
		/* operands in [N, R) at every length */
		make_mod(N, n, M_TOP1, &rng);
		fill64(a, n, PAT_ONES, &rng);
		fill64(b, n, PAT_RANDOM, &rng);
		struct exec_ctx c = ctx(t, COV_LENGTH, "a = R-1, b random, N with top limb 1");
		exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
		/* one operand in [N, R), the other below N: fully reduced (the oracle says so) */
		make_op(b, N, n, OP_ONE, &rng);
		c = ctx(t, COV_LENGTH, "a = R-1, b = 1 (leaving Montgomery form), N with top limb 1");
		exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
		make_mod(N, n, n % 2 ? M_R_SMALL : M_ONES, &rng);
		fill64(a, n, PAT_ONES, &rng);                   /* R-1 >= N */
		make_op(b, N, n, OP_NM1, &rng);
		c = ctx(t, COV_LENGTH, "a = N-1, b = R-1, N = R-1 or R - small");
		exec_montmul(&c, b, a, N, n, 0, NULL, NULL);
	}
	ck_assert_msg(subtract > 0 && nosub > 0, "test bug: final subtraction due in %zu cases, "
	              "not due in %zu: both must occur", subtract, nosub);
}
END_TEST

/* ap == bp at every length: the a64 variant's squaring path (ap == bp and n >= its schedule's
 * sqr_min, at most 16, so 1..70 has lengths on both sides of every choice: below it the same
 * call multiplies), the adx variant's (a^2 into a buffer, then REDC, for sqr_min <= n <= 128:
 * 127, 128 square and 129 multiplies again; by groups of 8 rows where 8 divides n, of 4 where
 * n = 4 mod 8 from 12, else by mpn_sqr's rows) and every other variant with aliased
 * operands. The squaring path adds
 * sum_(j < i-j) a_j a_(i-j) twice and a_h^2 (i = 2h) once, beside the m N products: a wrong
 * doubling (a lost top bit of the half column, a square added twice or not at all) shows in
 * every column from the third on, and the all-ones cases carry into the third accumulator
 * word in every column (2 a_j a_(i-j) + a_h^2 + m N near 2^129 (i + 1)). */
START_TEST(test_mont_square)
{
	const struct tvar *t = var(_i);
	uint64_t N[MAXN], a[MAXN];
	size_t subtract = 0, nosub = 0;
	rng_t rng;
	rng_init(&rng, t->label, 88);
	for (size_t i = 1; i <= 70 + NLEN(long_ns); i++) {
		size_t n = i <= 70 ? i : long_ns[i - 71];
		/* random operands below random (and N = 1 mod 2^32) moduli */
		for (int rep = 0; rep < 3; rep++) {
			struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
			make_mod(N, n, rep == 2 ? M_1MOD32 : M_RANDOM, &rng);
			make_op(a, N, n, OP_RANDOM, &rng);
			struct exec_ctx c = ctx(t, COV_LENGTH, "ap == bp, random a below a random N");
			exec_montmul(&c, a, NULL, N, n, 1, NULL, &info);
			*(info.subtract ? &subtract : &nosub) += 1;
		}
		/* saturating: N all ones or R - small, a = N-1 and N-2 */
		for (int k = 0; k < 4; k++) {
			struct or_mont_info info = { 0, 0, 0, 0, 0, NULL };
			make_mod(N, n, k < 2 ? M_ONES : M_R_SMALL, &rng);
			make_op(a, N, n, k & 1 ? OP_NM2 : OP_NM1, &rng);
			struct exec_ctx c = ctx(t, COV_CARRY, k == 0 ? "ap == bp, N all ones, a = N-1" :
			                        k == 1 ? "ap == bp, N all ones, a = N-2" :
			                        k == 2 ? "ap == bp, N = R - small, a = N-1" :
			                                 "ap == bp, N = R - small, a = N-2");
			exec_montmul(&c, a, NULL, N, n, 1, NULL, &info);
			*(info.subtract ? &subtract : &nosub) += 1;
		}
		/* edge operands over the edge moduli: every operand of the menu at every n */
		for (int k = 0; k < N_MOD; k++) {
			int op = (int)((k + i) % N_OP);
			make_mod(N, n, (enum modkind)k, &rng);
			make_op(a, N, n, op, &rng);
			struct exec_ctx c = ctx(t, COV_LATTICE, op_name[op]);
			exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
		}
		/* a in [N, R): all ones, and the top bit only, with a small top limb of N */
		make_mod(N, n, M_TOP1, &rng);
		fill64(a, n, PAT_ONES, &rng);
		struct exec_ctx c = ctx(t, COV_LENGTH, "ap == bp, a = R-1, N with top limb 1");
		exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
		fill64(a, n, PAT_TOPBIT, &rng);
		c.what = "ap == bp, a = 2^(64n-1), N with top limb 1";
		exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
	}
	ck_assert_msg(subtract > 0 && nosub > 0, "test bug: final subtraction due in %zu cases, "
	              "not due in %zu: both must occur", subtract, nosub);
}
END_TEST

/* random shapes: LF_TEST_MONT_RANDOM cases per variant (`make fuzz` raises it) */
START_TEST(test_mont_random)
{
	const struct tvar *t = var(_i);
	static const size_t hot[] = { 1, 2, 15, 16, 17, 18, 19, 31, 32, 33, 63, 64, 65, 97, 98,
	                              127, 128, 129 };
	const char *e = getenv("LF_TEST_MONT_RANDOM");
	size_t cases = e ? (size_t)strtoull(e, NULL, 0) : 2000;
	uint64_t N[MAXN], a[MAXN], b[MAXN];
	rng_t rng;
	rng_init(&rng, t->label, 86);
	for (size_t k = 0; k < cases; k++) {
		uint64_t r = rng_next(&rng);
		size_t n = r & 1 ? hot[(r >> 1) % NLEN(hot)] : 1 + (r >> 8) % 140;
		int same = (r >> 20) % 3 == 0;
		make_mod(N, n, (enum modkind)((r >> 24) % N_MOD), &rng);
		make_op(a, N, n, (int)((r >> 32) % N_OP), &rng);
		make_op(b, N, n, (int)((r >> 40) % N_OP), &rng);
		struct exec_ctx c = ctx(t, COV_LENGTH, same ? "random shape, a == b (same pointer)"
		                                            : "random shape");
		exec_montmul(&c, a, b, N, n, same, NULL, NULL);
	}
}
END_TEST

START_TEST(test_mont_guards)
{
	const struct tvar *t = var(_i);
	static const size_t ns[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
		                     128 };
	uint64_t N[128], a[128], b[128];
	rng_t rng;
	rng_init(&rng, t->label, 85);
	for (size_t ni = 0; ni < NLEN(ns); ni++) {
		size_t n = ns[ni];
		for (int place = GB_START; place <= GB_END; place++) {
			make_mod(N, n, place == GB_END ? M_ONES : M_RANDOM, &rng);
			make_op(a, N, n, OP_RANDOM, &rng);
			make_op(b, N, n, OP_NM1, &rng);
			struct exec_ctx c = ctx(t, COV_GUARD, "guard page");
			c.place = (enum gb_place)place;
			exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
			c.what = "guard page, ap == bp";
			exec_montmul(&c, a, NULL, N, n, 1, NULL, NULL);
		}
	}
}
END_TEST

START_TEST(test_mont_alignment)
{
	const struct tvar *t = var(_i);
	static const size_t ns[] = { 1, 2, 3, 5, 8, 9, 16, 17, 33, 64 };
	uint64_t N[64], a[64], b[64];
	rng_t rng;
	rng_init(&rng, t->label, 86);
	for (size_t ni = 0; ni < NLEN(ns); ni++) {
		for (size_t shift = 0; shift < 64; shift += 8) {
			for (int place = GB_MID; place <= GB_END; place++) {
				size_t n = ns[ni];
				make_mod(N, n, M_RANDOM, &rng);
				make_op(a, N, n, OP_RANDOM, &rng);
				make_op(b, N, n, OP_RANDOM, &rng);
				struct exec_ctx c = ctx(t, COV_ALIGN, "8-byte offsets mod 64");
				c.place = (enum gb_place)place;
				c.shift = shift;
				exec_montmul(&c, a, b, N, n, 0, NULL, NULL);
			}
		}
	}
}
END_TEST

/* ---- lf_bi_montgomery_multiply / _square with the variant forced -------------------------- */
#define MAXW 512

static uint64_t inv_of(const uint32_t *n, size_t len)
{
	return or_neg_inv64((uint64_t)n[len - 2] << 32 | n[len - 1]);
}

/* {w, len} mod {n, len} on BE-words, via limbs (test-side packing, not lf_words.h) */
static void be_to_le(uint64_t *l, const uint32_t *w, size_t len)
{
	memset(l, 0, (len + 1) / 2 * 8);
	for (size_t i = 0; i < len; i++)
		l[i / 2] |= (uint64_t)w[len - 1 - i] << (32 * (i & 1));
}

static void le_to_be(uint32_t *w, const uint64_t *l, size_t len)
{
	for (size_t i = 0; i < len; i++)
		w[len - 1 - i] = (uint32_t)(l[i / 2] >> (32 * (i & 1)));
}

static void be_mod(uint32_t *w, const uint32_t *n, size_t len)
{
	uint64_t wl[MAXW / 2 + 1], nl[MAXW / 2 + 1];
	size_t k = (len + 1) / 2;
	be_to_le(wl, w, len);
	be_to_le(nl, n, len);
	or_mod(wl, wl, nl, k);
	le_to_be(w, wl, len);
}

enum bi_alias { AL_NONE, AL_A, AL_B, AL_AB, AL_SQUARE, AL_SQUARE_A };
static const char *const alias_name[] = {
	"product separate", "product == a", "product == b", "a == b == product",
	"square", "square, product == a",
};

/* One call of the BigInteger entry point; a, b < n unless `unreduced`. */
static void bi_call(const struct tvar *t, const uint32_t *a0, const uint32_t *b0,
                    const uint32_t *n0, size_t len, enum bi_alias al, int unreduced,
                    const char *what, enum gb_place place)
{
	struct gbuf gp, ga, gb, gn;
	uint32_t want[MAXW];
	size_t bytes = len * 4;
	int square = al == AL_SQUARE || al == AL_SQUARE_A, ab = al == AL_AB || square;
	const uint32_t *b_eff = ab ? a0 : b0;
	uint32_t *p = gb_alloc(&gp, bytes, place, 0);
	uint32_t *a = al == AL_A || al == AL_AB || al == AL_SQUARE_A ? p : gb_alloc(&ga, bytes, place, 0);
	uint32_t *b = al == AL_B ? p : ab ? a : gb_alloc(&gb, bytes, place, 0);
	uint32_t *n = gb_alloc(&gn, bytes, place, 0);
	memcpy(n, n0, bytes);
	memcpy(a, a0, bytes);
	if (b != a)
		memcpy(b, b_eff, bytes);
	if (p != a && p != b)
		fill_garbage32(p, len);
	or_bi_montmul(want, a0, b_eff, n0, len);

	crash_note(t->label, what, len);
	if (square)
		lf_bi_montgomery_square(a, n, len, inv_of(n0, len), p);
	else
		lf_bi_montgomery_multiply(a, b, n, len, inv_of(n0, len), p);

	uint32_t got[MAXW];
	memcpy(got, p, bytes);
	if (unreduced)
		be_mod(got, n0, len);
	size_t d = 0;
	while (d < len && got[d] == want[d])
		d++;
	ck_assert_msg(d == len, "%s [api] %s (%s, %s): len=%zu: product[%zu]%s = %#010x, want "
	              "%#010x", t->label, what, alias_name[al], gb_place_name(place), len, d,
	              unreduced ? " (mod n)" : "", got[d], want[d]);
	ASSERT_CANARIES(&gp, t->label, "product", what);
	ASSERT_CANARIES(&gn, t->label, "n", what);
	ck_assert_msg(memcmp(n, n0, bytes) == 0, "%s: %s: n modified", t->label, what);
	if (a != p) {
		ASSERT_CANARIES(&ga, t->label, "a", what);
		ck_assert_msg(memcmp(a, a0, bytes) == 0, "%s: %s: a modified", t->label, what);
		gb_free(&ga);
	}
	if (b != p && b != a) {
		ASSERT_CANARIES(&gb, t->label, "b", what);
		ck_assert_msg(memcmp(b, b0, bytes) == 0, "%s: %s: b modified", t->label, what);
		gb_free(&gb);
	}
	gb_free(&gp);
	gb_free(&gn);
	cov_add(t, al == AL_NONE || al == AL_SQUARE ? COV_API : COV_INPLACE, 1);
}

static void random_odd_mod(uint32_t *n, size_t len, size_t lead_zeros, rng_t *r)
{
	fill32be(n, len, PAT_RANDOM, r);
	for (size_t i = 0; i < lead_zeros; i++)
		n[i] = 0;
	if (n[lead_zeros] == 0)
		n[lead_zeros] = 1;
	n[len - 1] |= 1;
}

static void random_below(uint32_t *a, const uint32_t *n, size_t len, enum pattern p, rng_t *r)
{
	fill32be(a, len, p, r);
	be_mod(a, n, len);
}

START_TEST(test_mont_bi_api)
{
	const struct tvar *t = var(_i);
	static const size_t big[] = { 192, 256, 512 };
	uint32_t n[MAXW], a[MAXW], b[MAXW];
	rng_t rng;
	rng_init(&rng, t->label, 87);
	ck_assert_msg(lf_impl_force("mpn_montmul", t->v->name) == 0, "cannot force %s", t->label);
	for (size_t i = 1; i <= 64 + NLEN(big); i++) {
		size_t len = i <= 64 ? 2 * i : big[i - 65];
		/* a random odd modulus, every aliasing */
		random_odd_mod(n, len, 0, &rng);
		random_below(a, n, len, PAT_RANDOM, &rng);
		random_below(b, n, len, i % 3 ? PAT_RANDOM : PAT_ONES, &rng);
		for (int al = AL_NONE; al <= AL_SQUARE_A; al++)
			bi_call(t, a, b, n, len, (enum bi_alias)al, 0, "random odd n",
			        al & 1 ? GB_END : GB_START);
		/* padded: an odd-length modulus behind a leading zero word (oddModPow) */
		random_odd_mod(n, len, 1, &rng);
		random_below(a, n, len, PAT_RANDOM, &rng);
		random_below(b, n, len, PAT_LATTICE, &rng);
		bi_call(t, a, b, n, len, AL_NONE, 0, "n padded with a leading zero word", GB_MID);
		bi_call(t, a, b, n, len, AL_A, 0, "n padded with a leading zero word", GB_MID);
		bi_call(t, a, b, n, len, AL_SQUARE, 0, "n padded with a leading zero word", GB_MID);
		/* the same modulus, operands in [n, R): congruent */
		fill32be(a, len, PAT_RANDOM, &rng);
		a[0] |= 1;
		fill32be(b, len, PAT_ONES, &rng);
		bi_call(t, a, b, n, len, AL_NONE, 1, "padded n, a and b >= n", GB_MID);
		/* all-ones modulus, a = b = n-1: saturating */
		fill32be(n, len, PAT_ONES, &rng);
		memcpy(a, n, len * 4);
		a[len - 1] -= 1;
		memcpy(b, a, len * 4);
		b[len - 1] -= 1;
		bi_call(t, a, a, n, len, AL_SQUARE, 0, "all-ones n, a = n-1", GB_END);
		bi_call(t, a, b, n, len, AL_B, 0, "all-ones n, a = n-1, b = n-2", GB_END);
		/* operands 0 and 1 */
		random_odd_mod(n, len, 0, &rng);
		fill32be(a, len, PAT_ZERO, &rng);
		fill32be(b, len, PAT_ONE, &rng);
		bi_call(t, a, b, n, len, AL_NONE, 0, "a = 0, b = 1", GB_MID);
		bi_call(t, b, b, n, len, AL_AB, 0, "a = b = 1", GB_MID);
	}
	/* odd word lengths padded up, every one from 1 to 127 (Java's modLen + 1) */
	for (size_t m = 1; m <= 127; m += 2) {
		size_t len = m + 1;
		random_odd_mod(n, len, 1, &rng);
		random_below(a, n, len, PAT_RANDOM, &rng);
		random_below(b, n, len, PAT_RANDOM, &rng);
		bi_call(t, a, b, n, len, AL_A, 0, "odd modulus length, padded", GB_MID);
	}
	lf_impl_force("mpn_montmul", NULL);
}
END_TEST

/* len odd, 0 or above 512: nothing read (PROT_NONE inputs), nothing written. */
START_TEST(test_mont_bi_badlen)
{
	const struct tvar *t = var(_i);
	static const size_t lens[] = { 0, 1, 3, 5, 63, 511, 513, 514, 1024 };
	void *na = gb_noaccess();
	ck_assert_msg(lf_impl_force("mpn_montmul", t->v->name) == 0, "cannot force %s", t->label);
	for (size_t i = 0; i < NLEN(lens); i++) {
		struct gbuf gp;
		uint32_t *p = gb_alloc(&gp, 1024 * 4, GB_MID, 0);
		crash_note(t->label, "lf_bi_montgomery_* with a length it must refuse", lens[i]);
		fill_garbage32(p, 1024);
		uint32_t *copy = xmalloc(1024 * 4);
		memcpy(copy, p, 1024 * 4);
		lf_bi_montgomery_multiply(na, na, na, lens[i], 1, p);
		lf_bi_montgomery_square(na, na, lens[i], 1, p);
		lf_bi_montgomery_multiply(na, na, na, lens[i], 1, na);
		ck_assert_msg(memcmp(p, copy, 1024 * 4) == 0, "%s: len %zu: product written",
		              t->label, lens[i]);
		ASSERT_CANARIES(&gp, t->label, "product", "refused length");
		gb_free(&gp);
		free(copy);
		cov_add(t, COV_ZERO, 3);
	}
	lf_impl_force("mpn_montmul", NULL);
}
END_TEST

static void restore(void)
{
	lf_impl_force("mpn_montmul", NULL);
}

Suite *suite_montmul(void)
{
	Suite *s = suite_create("montmul");
	TCase *tc = tcase_create("mpn_montmul");
	int n = (int)tv_runnable_count(LF_K_mpn_montmul);
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_checked_fixture(tc, restore, restore);
	tcase_add_loop_test(tc, test_mont_zero, 0, n);
	tcase_add_loop_test(tc, test_mont_lattice, 0, n);
	tcase_add_loop_test(tc, test_mont_carries, 0, n);
	tcase_add_loop_test(tc, test_mont_lengths, 0, n);
	tcase_add_loop_test(tc, test_mont_square, 0, n);
	tcase_add_loop_test(tc, test_mont_random, 0, n);
	tcase_add_loop_test(tc, test_mont_guards, 0, n);
	tcase_add_loop_test(tc, test_mont_alignment, 0, n);
	tcase_add_loop_test(tc, test_mont_bi_api, 0, n);
	tcase_add_loop_test(tc, test_mont_bi_badlen, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
