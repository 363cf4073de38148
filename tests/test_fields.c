/*
 * test_fields.c -- the generated EC field kernels (generated/fields/<field>.c, declared in
 * lf_fields.h): every op of every field against Python integers (tests/kat/gen_fields.py:
 * edge values, the corners of each documented input bound, MAX_ADDS chains, ladder steps)
 * and against GMP (random limbs inside the bounds, here), both architectures; the fields
 * with 51..58-bit limbs only where the compiler has __int128 (LF_FE_WIDE).
 *
 * Faults this is designed to catch:
 *   - a wrong value mod p for inputs at the edge of the contract: the corners of M for
 *     mul/square/mul_small, of L for carry/carry_reduce/encode, of A for add, of the sub/neg
 *     inputs; values in [p, 2^power); corners of L moved to 0, 1, p-1 mod p (the canonical
 *     reduction's final subtraction lands exactly on p);
 *   - an output outside the bound the field's header documents (the next kernel relies on
 *     it), and a non-canonical output of carry_reduce (limbs not digits, value >= p) or
 *     encode;
 *   - MAX_ADDS claimed larger than the code survives: MAX_ADDS + 1 reduced elements summed
 *     with add (the hi corner of R summed reaches exactly the hi corner of M) then mul,
 *     square, mul_small;
 *   - decode reducing or dropping bits wrongly (all-0xff bytes, values >= p, bit 255);
 *   - invert(0) != 0, the ladder step wrong for the states the ladder reaches;
 *   - aliasing r == a, r == b, r == a == b broken (the header promises r may alias any
 *     input); inputs written; writes or reads outside the limbs (guarded buffers);
 *   - conditional_swap / conditional_assign moving the wrong limbs for 0 and 1, for every
 *     int64 value (they take any limbs);
 *   - the inversion (runtime/lf_safegcd.h) not running the half-delta divstep its batch
 *     count was derived for -- in a batch, in delta's start or in delta's carry from batch to
 *     batch: the paper's divstep passes every value test (random elements need far fewer
 *     steps than either bound), so a batch's transition matrix and delta, and delta after a
 *     whole inversion, are compared with the definition's here.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kat.h"
#include "fields_table.h"
#include "lf_fields.h"
#include "fields_vectors.h"
#if LF_FE_WIDE
#  include "lf_safegcd.h"
#endif

#define MAXL 19
#define NLEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const op_name[KAT_FLD_NOPS] = {
	"mul", "square", "add", "sub", "neg", "carry", "carry_reduce", "encode", "decode",
	"invert", "mul_small", "ladder_step", "chain" };
static const char *const bound_name[KAT_FLD_NBOUNDS] = {
	"R", "M", "L", "A", "sub's a", "sub's b", "neg's a", "mul's out", "square's out",
	"add's out", "sub's out", "neg's out", "carry's out", "carry_reduce's out",
	"decode's out", "mul_small's out" };

/* ---- one field under test ------------------------------------------------------------------ */
struct fx {
	const struct kat_fld_field *k;
	const struct fe_fns *fn;
	int n;
	mpz_t p, v, w;
	struct gbuf gi[5], go[4], gbi, gbo;
	int64_t *in[5], *out[4];
	uint8_t *bin, *bout;
	unsigned long calls, outside_a;
};

static const int64_t *lim(size_t off)
{
	return &kat_fld_limbs[off];
}

static const int64_t *bnd(const struct fx *x, enum kat_fld_bound b)
{
	return &kat_fld_limbs[x->k->bound[b]];
}

/* NULL (and a SKIP line) when this build has no such field */
static const struct fe_fns *find_fns(const struct kat_fld_field *k)
{
	for (size_t i = 0; i < NLEN(fe_fns); i++)
		if (strcmp(fe_fns[i].name, k->name) == 0)
			return &fe_fns[i];
	ck_assert_msg(k->wide && !LF_FE_WIDE, "field %s of the KAT vectors is not in lf_fields.h",
	              k->name);
	return NULL;
}

static int fx_open(struct fx *x, int i)
{
	memset(x, 0, sizeof *x);
	x->k = &kat_fld_fields[i];
	x->fn = find_fns(x->k);
	if (!x->fn) {
		printf("fields: SKIP %s: %d-bit limbs need __int128 (LF_FE_WIDE is 0)\n",
		       x->k->name, x->k->bits);
		return 0;
	}
	x->n = x->k->limbs;
	ck_assert_int_eq(x->n, x->fn->limbs);
	ck_assert(x->n <= MAXL);
	mpz_inits(x->p, x->v, x->w, NULL);
	mpz_import(x->p, (size_t)x->k->nbytes, -1, 1, 0, 0, &kat_fld_bytes[x->k->p]);
	for (int j = 0; j < 5; j++)
		x->in[j] = gb_alloc(&x->gi[j], sizeof(int64_t) * (size_t)x->n, GB_END, 0);
	for (int j = 0; j < 4; j++)
		x->out[j] = gb_alloc(&x->go[j], sizeof(int64_t) * (size_t)x->n, GB_MID, 0);
	x->bin = gb_alloc(&x->gbi, (size_t)x->k->nbytes, GB_END, 0);
	x->bout = gb_alloc(&x->gbo, (size_t)x->k->nbytes, GB_MID, 0);
	return 1;
}

static void fx_close(struct fx *x)
{
	for (int j = 0; j < 5; j++)
		gb_free(&x->gi[j]);
	for (int j = 0; j < 4; j++)
		gb_free(&x->go[j]);
	gb_free(&x->gbi), gb_free(&x->gbo);
	mpz_clears(x->p, x->v, x->w, NULL);
}

/* v = sum l[i] 2^(bits i), exactly (signed limbs) */
static void fe_value(const struct fx *x, mpz_t v, const int64_t *l)
{
	mpz_t t;
	mpz_init(t);
	mpz_set_ui(v, 0);
	for (int i = x->n - 1; i >= 0; i--) {
		mpz_mul_2exp(v, v, (mp_bitcnt_t)x->k->bits);
		mpz_set_si(t, (long)l[i]);
		mpz_add(v, v, t);
	}
	mpz_clear(t);
}

static void from_bytes(const struct fx *x, mpz_t v, const uint8_t *b)
{
	mpz_import(v, (size_t)x->k->nbytes, -1, 1, 0, 0, b);
}

static void check_bound(const struct fx *x, enum kat_fld_bound b, const int64_t *l,
                        const char *op, const char *what)
{
	const int64_t *B = bnd(x, b);
	for (int i = 0; i < x->n; i++)
		ck_assert_msg(B[2 * i] <= l[i] && l[i] <= B[2 * i + 1],
		              "%s %s (%s): limb %d = %lld outside %s [%lld, %lld]", x->k->name, op,
		              what, i, (long long)l[i], bound_name[b], (long long)B[2 * i],
		              (long long)B[2 * i + 1]);
}

static int in_bound(const struct fx *x, enum kat_fld_bound b, const int64_t *l)
{
	const int64_t *B = bnd(x, b);
	for (int i = 0; i < x->n; i++)
		if (l[i] < B[2 * i] || l[i] > B[2 * i + 1])
			return 0;
	return 1;
}

/* value(l) mod p == want (an mpz), or exactly when exact */
static void check_val(struct fx *x, const int64_t *l, const mpz_t want, int exact,
                      const char *op, const char *what)
{
	fe_value(x, x->v, l);
	if (!exact)
		mpz_mod(x->v, x->v, x->p);
	if (mpz_cmp(x->v, want) != 0) {
		char *g = mpz_get_str(NULL, 16, x->v), *w = mpz_get_str(NULL, 16, want);
		ck_abort_msg("%s %s (%s): value%s %s, want %s", x->k->name, op, what,
		             exact ? "" : " mod p", g, w);
	}
}

/* carry_reduce's promise: the digits of the canonical value, exactly */
static void check_canonical(struct fx *x, const int64_t *l, const mpz_t want, const char *what)
{
	mpz_set(x->w, want);
	for (int i = 0; i < x->n; i++) {
		int64_t d = (int64_t)(i < x->n - 1 ? mpz_fdiv_ui(x->w, 1ul << x->k->bits)
		                                   : mpz_get_ui(x->w));
		ck_assert_msg(l[i] == d, "%s carry_reduce (%s): limb %d = %lld, the canonical digit "
		              "is %lld", x->k->name, what, i, (long long)l[i], (long long)d);
		mpz_fdiv_q_2exp(x->w, x->w, (mp_bitcnt_t)x->k->bits);
	}
}

static void canaries(struct fx *x, const char *op, const char *what)
{
	for (int j = 0; j < 5; j++)
		ASSERT_CANARIES(&x->gi[j], x->k->name, "in", what);
	for (int j = 0; j < 4; j++)
		ASSERT_CANARIES(&x->go[j], x->k->name, "out", what);
	ASSERT_CANARIES(&x->gbi, x->k->name, "bytes in", what);
	ASSERT_CANARIES(&x->gbo, x->k->name, "bytes out", op);
}

static void load(struct fx *x, int64_t *dst, const int64_t *src)
{
	memcpy(dst, src, sizeof(int64_t) * (size_t)x->n);
}

static void unchanged(struct fx *x, const int64_t *buf, const int64_t *src, const char *op,
                      const char *what)
{
	ck_assert_msg(memcmp(buf, src, sizeof(int64_t) * (size_t)x->n) == 0,
	              "%s %s (%s): an input was written", x->k->name, op, what);
}

/* ---- binary and unary ops with their aliasing forms -------------------------------------- */
static void run_binary(struct fx *x, enum kat_fld_op op, fe2_fn fn, const int64_t *a,
                       const int64_t *b, enum kat_fld_bound ob, const mpz_t want,
                       const char *what, int alias)
{
	int64_t r0[MAXL];
	const char *o = op_name[op];
	load(x, x->in[0], a), load(x, x->in[1], b);
	memset(x->out[0], 0xa5, sizeof(int64_t) * (size_t)x->n);
	crash_note(x->k->name, what, (size_t)x->n);
	fn(x->out[0], x->in[0], x->in[1]);
	canaries(x, o, what);
	unchanged(x, x->in[0], a, o, what), unchanged(x, x->in[1], b, o, what);
	check_bound(x, ob, x->out[0], o, what);
	check_val(x, x->out[0], want, 0, o, what);
	if (op == KAT_FLD_ADD)
		for (int i = 0; i < x->n; i++)
			ck_assert_msg(x->out[0][i] == a[i] + b[i], "%s add (%s): limb %d is not a + b",
			              x->k->name, what, i);
	load(x, r0, x->out[0]);
	x->calls++;
	if (!alias)
		return;
	load(x, x->out[0], a);                                     /* r == a */
	fn(x->out[0], x->out[0], x->in[1]);
	ck_assert_msg(memcmp(x->out[0], r0, sizeof(int64_t) * (size_t)x->n) == 0,
	              "%s %s (%s): r == a gives other limbs", x->k->name, o, what);
	load(x, x->out[0], b);                                     /* r == b */
	fn(x->out[0], x->in[0], x->out[0]);
	ck_assert_msg(memcmp(x->out[0], r0, sizeof(int64_t) * (size_t)x->n) == 0,
	              "%s %s (%s): r == b gives other limbs", x->k->name, o, what);
	if (memcmp(a, b, sizeof(int64_t) * (size_t)x->n) == 0) {  /* r == a == b */
		load(x, x->out[0], a);
		fn(x->out[0], x->out[0], x->out[0]);
		ck_assert_msg(memcmp(x->out[0], r0, sizeof(int64_t) * (size_t)x->n) == 0,
		              "%s %s (%s): r == a == b gives other limbs", x->k->name, o, what);
	}
	canaries(x, o, what);
	x->calls += 3;
}

static void run_unary(struct fx *x, enum kat_fld_op op, fe1_fn fn, const int64_t *a,
                      enum kat_fld_bound ob, const mpz_t want, const char *what, int alias)
{
	int64_t r0[MAXL];
	const char *o = op_name[op];
	load(x, x->in[0], a);
	memset(x->out[0], 0xa5, sizeof(int64_t) * (size_t)x->n);
	crash_note(x->k->name, what, (size_t)x->n);
	fn(x->out[0], x->in[0]);
	canaries(x, o, what);
	unchanged(x, x->in[0], a, o, what);
	check_bound(x, ob, x->out[0], o, what);
	check_val(x, x->out[0], want, 0, o, what);
	if (op == KAT_FLD_CARRY_REDUCE)
		check_canonical(x, x->out[0], want, what);
	load(x, r0, x->out[0]);
	x->calls++;
	if (!alias)
		return;
	load(x, x->out[0], a);                                     /* r == a */
	fn(x->out[0], x->out[0]);
	ck_assert_msg(memcmp(x->out[0], r0, sizeof(int64_t) * (size_t)x->n) == 0,
	              "%s %s (%s): r == a gives other limbs", x->k->name, o, what);
	canaries(x, o, what);
	x->calls++;
}

static void run_encode(struct fx *x, const int64_t *a, const mpz_t want, const char *what)
{
	uint8_t w[80] = { 0 };
	size_t cnt = 0;
	load(x, x->in[0], a);
	memset(x->bout, 0xa5, (size_t)x->k->nbytes);
	x->fn->encode(x->bout, x->in[0]);
	canaries(x, "encode", what);
	unchanged(x, x->in[0], a, "encode", what);
	mpz_export(w, &cnt, -1, 1, 0, 0, want);
	ck_assert_msg(memcmp(x->bout, w, (size_t)x->k->nbytes) == 0,
	              "%s encode (%s): not the canonical bytes", x->k->name, what);
	x->calls++;
}

static void run_decode(struct fx *x, const uint8_t *in, const mpz_t want, const char *what)
{
	memcpy(x->bin, in, (size_t)x->k->nbytes);
	memset(x->out[0], 0xa5, sizeof(int64_t) * (size_t)x->n);
	x->fn->decode(x->out[0], x->bin);
	canaries(x, "decode", what);
	ck_assert_msg(memcmp(x->bin, in, (size_t)x->k->nbytes) == 0, "%s decode (%s): input "
	              "written", x->k->name, what);
	check_bound(x, KAT_FLD_OUT_DECODE, x->out[0], "decode", what);
	check_val(x, x->out[0], want, 1, "decode", what);
	x->calls++;
}

/* e0 + (max_adds copies of e1) by add, as a balanced tree, which keeps the operands as small
 * as any order of additions can.  An operand outside A (what add accepts) is counted in
 * x->outside_a (run_chain fails on it: the contract says MAX_ADDS is reachable); such an add
 * is still checked limb by limb (r = a + b exactly, within L). */
static void tree_sum(struct fx *x, int64_t *r, const int64_t *e0, const int64_t *e1, int lo,
                     int hi, const char *what)
{
	int64_t a[MAXL], b[MAXL];
	if (hi - lo == 1) {
		load(x, r, lo == 0 ? e0 : e1);
		return;
	}
	int mid = (lo + hi) / 2;
	tree_sum(x, a, e0, e1, lo, mid, what);
	tree_sum(x, b, e0, e1, mid, hi, what);
	if (!in_bound(x, KAT_FLD_A, a) || !in_bound(x, KAT_FLD_A, b)) {
		x->outside_a++;
		check_bound(x, KAT_FLD_L, a, "add in a chain", what);
		check_bound(x, KAT_FLD_L, b, "add in a chain", what);
	}
	x->fn->add(r, a, b);
	for (int i = 0; i < x->n; i++)
		ck_assert_msg(r[i] == a[i] + b[i], "%s add in a chain (%s): limb %d is not a + b",
		              x->k->name, what, i);
	x->calls++;
}

/* the same sum left to right, acc = acc + e1, as an EC formula would, as long as acc stays
 * inside A (the contract of add); 1 if it got to the end */
static int seq_sum(struct fx *x, int64_t *acc, const int64_t *e0, const int64_t *e1)
{
	load(x, acc, e0);
	for (int i = 0; i < x->k->max_adds; i++) {
		if (!in_bound(x, KAT_FLD_A, acc))
			return 0;
		x->fn->add(acc, acc, e1);
		x->calls++;
	}
	return 1;
}

/* MAX_ADDS + 1 reduced elements summed by add (a balanced tree: every operand within A, what
 * add accepts -- the generator caps MAX_ADDS so that this holds), then mul, square, mul_small
 * of the sums. */
static void run_chain(struct fx *x, const struct kat_fld_case *c, mpz_t *want)
{
	int64_t s[2][MAXL], q[MAXL];
	const int64_t *M = bnd(x, KAT_FLD_M);
	unsigned long before = x->outside_a;
	for (int j = 0; j < 2; j++) {
		tree_sum(x, s[j], lim(c->in[2 * j]), lim(c->in[2 * j + 1]), 0, x->k->max_adds + 1,
		         c->what);
		check_bound(x, KAT_FLD_M, s[j], "sum of MAX_ADDS + 1 reduced", c->what);
		for (int i = 0; c->flag && i < x->n; i++)
			ck_assert_msg(s[j][i] == M[2 * i + (c->flag == 1)], "%s chain (%s): the corner "
			              "sum is not the corner of M at limb %d", x->k->name, c->what, i);
		if (seq_sum(x, q, lim(c->in[2 * j]), lim(c->in[2 * j + 1])))
			ck_assert_msg(memcmp(q, s[j], sizeof q[0] * (size_t)x->n) == 0,
			              "%s chain (%s): left-to-right sum differs", x->k->name, c->what);
	}
	ck_assert_msg(x->outside_a == before, "%s chain (%s): %d reduced elements (1 + MAX_ADDS) "
	              "cannot be summed with every add operand inside A (what add accepts)",
	              x->k->name, c->what, x->k->max_adds + 1);
	run_binary(x, KAT_FLD_MUL, x->fn->mul, s[0], s[1], KAT_FLD_OUT_MUL, want[0], c->what, 1);
	run_unary(x, KAT_FLD_SQUARE, x->fn->square, s[0], KAT_FLD_OUT_SQUARE, want[1], c->what, 1);
	if (x->fn->mul_small)
		run_unary(x, KAT_FLD_MUL_SMALL, x->fn->mul_small, s[0], KAT_FLD_OUT_MUL_SMALL, want[2],
		          c->what, 1);
}

static void run_ladder(struct fx *x, const struct kat_fld_case *c, mpz_t *want)
{
	static const char *const nm[4] = { "x2", "z2", "x3", "z3" };
	for (int j = 0; j < 4; j++)
		load(x, x->out[j], lim(c->in[j]));
	load(x, x->in[0], lim(c->in[4]));
	crash_note(x->k->name, c->what, (size_t)x->n);
	x->fn->ladder(x->out[0], x->out[1], x->out[2], x->out[3], x->in[0]);
	canaries(x, "ladder_step", c->what);
	unchanged(x, x->in[0], lim(c->in[4]), "ladder_step", c->what);
	for (int j = 0; j < 4; j++) {
		char w[160];
		snprintf(w, sizeof w, "%s, %s", c->what, nm[j]);
		check_bound(x, KAT_FLD_R, x->out[j], "ladder_step", w);
		check_val(x, x->out[j], want[j], 0, "ladder_step", w);
	}
	x->calls++;
}

/* the bound each op's output must meet (invert's output is a product's: within R) */
static const enum kat_fld_bound out_bound[KAT_FLD_NOPS] = {
	[KAT_FLD_MUL] = KAT_FLD_OUT_MUL, [KAT_FLD_SQUARE] = KAT_FLD_OUT_SQUARE,
	[KAT_FLD_ADD] = KAT_FLD_OUT_ADD, [KAT_FLD_SUB] = KAT_FLD_OUT_SUB, [KAT_FLD_NEG] = KAT_FLD_OUT_NEG,
	[KAT_FLD_CARRY] = KAT_FLD_OUT_CARRY, [KAT_FLD_CARRY_REDUCE] = KAT_FLD_OUT_CARRY_REDUCE,
	[KAT_FLD_INVERT] = KAT_FLD_R, [KAT_FLD_MUL_SMALL] = KAT_FLD_OUT_MUL_SMALL,
};

static void run_case(struct fx *x, const struct kat_fld_case *c, size_t idx)
{
	mpz_t want[4];
	const struct fe_fns *f = x->fn;
	int nw = c->op == KAT_FLD_LADDER_STEP ? 4 : c->op == KAT_FLD_CHAIN ? 2 + !!f->mul_small : 1;
	const int64_t *a = lim(c->in[0]), *b = lim(c->in[1]);
	fe2_fn f2 = c->op == KAT_FLD_MUL ? f->mul : c->op == KAT_FLD_ADD ? f->add
	            : c->op == KAT_FLD_SUB ? f->sub : NULL;
	fe1_fn f1 = c->op == KAT_FLD_SQUARE ? f->square : c->op == KAT_FLD_NEG ? f->neg
	            : c->op == KAT_FLD_CARRY ? f->carry : c->op == KAT_FLD_CARRY_REDUCE ? f->carry_reduce
	            : c->op == KAT_FLD_INVERT ? f->invert : c->op == KAT_FLD_MUL_SMALL ? f->mul_small
	            : NULL;
	for (int j = 0; j < nw; j++) {
		mpz_init(want[j]);
		from_bytes(x, want[j], &kat_fld_bytes[c->want[j]]);
	}
	if (f2)
		run_binary(x, c->op, f2, a, b, out_bound[c->op], want[0], c->what, 1);
	else if (f1)             /* invert: aliasing on a quarter of the cases (it is long) */
		run_unary(x, c->op, f1, a, out_bound[c->op], want[0], c->what,
		          c->op != KAT_FLD_INVERT || idx % 4 == 0);
	else if (c->op == KAT_FLD_ENCODE)
		run_encode(x, a, want[0], c->what);
	else if (c->op == KAT_FLD_DECODE)
		run_decode(x, &kat_fld_bytes[c->in[0]], want[0], c->what);
	else if (c->op == KAT_FLD_LADDER_STEP)
		run_ladder(x, c, want);
	else if (c->op == KAT_FLD_CHAIN)
		run_chain(x, c, want);
	else
		ck_abort_msg("%s: op %d has no function here", x->k->name, (int)c->op);
	for (int j = 0; j < nw; j++)
		mpz_clear(want[j]);
}

/* ---- tests ----------------------------------------------------------------------------------- */
START_TEST(test_fe_kat)
{
	struct fx x;
	unsigned long per_op[KAT_FLD_NOPS] = { 0 };
	if (!fx_open(&x, _i))
		return;
	for (size_t i = 0; i < NLEN(kat_fld_cases); i++) {
		const struct kat_fld_case *c = &kat_fld_cases[i];
		if (c->field != (unsigned)_i)
			continue;
		ck_assert_msg(c->op != KAT_FLD_MUL_SMALL || x.fn->mul_small, "mul_small on a non-curve");
		run_case(&x, c, i);
		per_op[c->op]++;
	}
	for (int op = 0; op < KAT_FLD_NOPS; op++) {
		int curve_only = op == KAT_FLD_MUL_SMALL || op == KAT_FLD_LADDER_STEP;
		ck_assert_msg(per_op[op] > 0 || (curve_only && !x.fn->mul_small),
		              "%s: no KAT case of %s", x.k->name, op_name[op]);
	}
	printf("fields: %s: %lu KAT calls\n", x.k->name, x.calls);
	fx_close(&x);
}
END_TEST

static uint64_t rnd_range(rng_t *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
	return (uint64_t)lo + (span ? rng_next(r) % span : rng_next(r));
}

/* random limbs inside a bound, each limb biased to lo, hi, 0 or uniform */
static void rand_in(struct fx *x, int64_t *l, enum kat_fld_bound b, rng_t *r)
{
	const int64_t *B = bnd(x, b);
	for (int i = 0; i < x->n; i++) {
		int64_t lo = B[2 * i], hi = B[2 * i + 1];
		switch (rng_next(r) % 5) {
		case 0: l[i] = lo; break;
		case 1: l[i] = hi; break;
		case 2: l[i] = lo <= 0 && 0 <= hi ? 0 : lo; break;
		default: l[i] = (int64_t)rnd_range(r, lo, hi);
		}
	}
}

static size_t n_random(void)
{
	const char *e = getenv("LF_TEST_FE_RANDOM");
	if (e)
		return (size_t)strtoull(e, NULL, 0);
#if defined(LF_TEST_OPENSSL)
	return 400;
#else
	return 60;            /* under qemu */
#endif
}

/* against GMP: random limbs inside each input bound */
START_TEST(test_fe_random)
{
	struct fx x;
	int64_t a[MAXL], b[MAXL];
	mpz_t want, t;
	rng_t rng;
	char what[64];
	if (!fx_open(&x, _i))
		return;
	rng_init(&rng, "fe_random", (uint64_t)_i);
	mpz_inits(want, t, NULL);
	size_t n = n_random();
	for (size_t k = 0; k < n; k++) {
		snprintf(what, sizeof what, "random #%zu", k);
		int alias = k % 8 == 0;
		rand_in(&x, a, KAT_FLD_M, &rng), rand_in(&x, b, KAT_FLD_M, &rng);
		fe_value(&x, want, a), fe_value(&x, t, b);
		mpz_mul(want, want, t), mpz_mod(want, want, x.p);
		run_binary(&x, KAT_FLD_MUL, x.fn->mul, a, b, KAT_FLD_OUT_MUL, want, what, alias);
		fe_value(&x, want, a);
		mpz_mul(want, want, want), mpz_mod(want, want, x.p);
		run_unary(&x, KAT_FLD_SQUARE, x.fn->square, a, KAT_FLD_OUT_SQUARE, want, what, alias);
		if (x.fn->mul_small) {
			fe_value(&x, want, a);
			mpz_mul_ui(want, want, (unsigned long)x.k->a24), mpz_mod(want, want, x.p);
			run_unary(&x, KAT_FLD_MUL_SMALL, x.fn->mul_small, a, KAT_FLD_OUT_MUL_SMALL, want,
			          what, alias);
		}
		rand_in(&x, a, KAT_FLD_A, &rng), rand_in(&x, b, KAT_FLD_A, &rng);
		fe_value(&x, want, a), fe_value(&x, t, b);
		mpz_add(want, want, t), mpz_mod(want, want, x.p);
		run_binary(&x, KAT_FLD_ADD, x.fn->add, a, b, KAT_FLD_OUT_ADD, want, what, alias);
		rand_in(&x, a, KAT_FLD_SUB_A, &rng), rand_in(&x, b, KAT_FLD_SUB_B, &rng);
		fe_value(&x, want, a), fe_value(&x, t, b);
		mpz_sub(want, want, t), mpz_mod(want, want, x.p);
		run_binary(&x, KAT_FLD_SUB, x.fn->sub, a, b, KAT_FLD_OUT_SUB, want, what, alias);
		rand_in(&x, a, KAT_FLD_NEG_IN, &rng);
		fe_value(&x, want, a);
		mpz_neg(want, want), mpz_mod(want, want, x.p);
		run_unary(&x, KAT_FLD_NEG, x.fn->neg, a, KAT_FLD_OUT_NEG, want, what, alias);
		rand_in(&x, a, KAT_FLD_L, &rng);
		fe_value(&x, want, a);
		mpz_mod(want, want, x.p);
		run_unary(&x, KAT_FLD_CARRY, x.fn->carry, a, KAT_FLD_OUT_CARRY, want, what, alias);
		run_unary(&x, KAT_FLD_CARRY_REDUCE, x.fn->carry_reduce, a, KAT_FLD_OUT_CARRY_REDUCE,
		          want, what, alias);
		run_encode(&x, a, want, what);
		if (k % 16 == 0) {                     /* invert: random values within its bound */
			rand_in(&x, a, x.fn->invert_takes_l ? KAT_FLD_L : KAT_FLD_R, &rng);
			fe_value(&x, want, a);
			mpz_mod(want, want, x.p);
			if (!mpz_invert(want, want, x.p))
				mpz_set_ui(want, 0);
			run_unary(&x, KAT_FLD_INVERT, x.fn->invert, a, KAT_FLD_R, want, what, 0);
		}
	}
	mpz_clears(want, t, NULL);
	fx_close(&x);
}
END_TEST

/* conditional_swap / conditional_assign: exact limbs for 0 and 1, any int64 values */
START_TEST(test_fe_select)
{
	struct fx x;
	int64_t a[MAXL], b[MAXL];
	rng_t rng;
	static const int64_t edges[] = { 0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1, 1ll << 32,
		                         -(1ll << 62) };
	if (!fx_open(&x, _i))
		return;
	rng_init(&rng, "fe_select", (uint64_t)_i);
	int64_t *A = x.out[0], *B = x.out[1];
	size_t sz = sizeof(int64_t) * (size_t)x.n;
	for (int t = 0; t < 64; t++) {
		for (int i = 0; i < x.n; i++) {
			a[i] = t % 3 ? (int64_t)rng_next(&rng) : edges[(unsigned)(t + i) % NLEN(edges)];
			b[i] = t % 4 ? (int64_t)rng_next(&rng) : edges[(unsigned)(t + 3 * i) % NLEN(edges)];
		}
		int s = t & 1;
		memcpy(A, a, sz), memcpy(B, b, sz);
		x.fn->cswap(s, A, B);
		ck_assert_msg(memcmp(A, s ? b : a, sz) == 0 && memcmp(B, s ? a : b, sz) == 0,
		              "%s conditional_swap(%d): wrong limbs (case %d)", x.k->name, s, t);
		memcpy(A, a, sz);
		x.fn->cswap(s, A, A);                          /* a == b */
		ck_assert_msg(memcmp(A, a, sz) == 0, "%s conditional_swap(%d, a, a) changed a",
		              x.k->name, s);
		memcpy(A, a, sz), memcpy(x.in[0], b, sz);
		x.fn->cassign(s, A, x.in[0]);
		ck_assert_msg(memcmp(A, s ? b : a, sz) == 0, "%s conditional_assign(%d): wrong limbs",
		              x.k->name, s);
		unchanged(&x, x.in[0], b, "conditional_assign", "b");
		x.fn->cassign(s, A, A);
		ck_assert_msg(memcmp(A, s ? b : a, sz) == 0, "%s conditional_assign(%d, a, a) changed a",
		              x.k->name, s);
		canaries(&x, "conditional_swap/assign", "select");
	}
	fx_close(&x);
}
END_TEST

/* the contract the KAT vectors were built from, against lf_fields.h and its own claims */
START_TEST(test_fe_contract)
{
	struct fx x;
	if (!fx_open(&x, _i))
		return;
	ck_assert_int_eq(x.k->max_adds, x.fn->max_adds);
	const int64_t *R = bnd(&x, KAT_FLD_R), *M = bnd(&x, KAT_FLD_M);
	for (int i = 0; i < 2 * x.n; i++)                /* M = (1 + MAX_ADDS) R */
		ck_assert_msg(M[i] == (x.k->max_adds + 1) * R[i], "%s: M != (1 + MAX_ADDS) R",
		              x.k->name);
	/* products, carry and decode return R (R is the fixed point the budget is built on) */
	static const enum kat_fld_bound rb[] = { KAT_FLD_OUT_MUL, KAT_FLD_OUT_SQUARE,
		                                KAT_FLD_OUT_CARRY, KAT_FLD_OUT_DECODE };
	for (size_t j = 0; j < NLEN(rb); j++)
		for (int i = 0; i < x.n; i++)
			ck_assert_msg(R[2 * i] <= bnd(&x, rb[j])[2 * i] &&
			              bnd(&x, rb[j])[2 * i + 1] <= R[2 * i + 1],
			              "%s: %s is not within R", x.k->name, bound_name[rb[j]]);
	fx_close(&x);
}
END_TEST

#if LF_FE_WIDE
/* 60 half-delta divsteps by their definition (Wuille's safegcd-bounds: delta, f, g ->
 * 2 - delta, g, (g - f)/2 when delta > 0 and g is odd; else 2 + delta, f, (g + g_odd f)/2)
 * on words, tracking [u v; q r] with 2^60 [f'; g'] = [u v; q r] [f; g]: bit 0 of g after k
 * steps depends only on the low k + 1 bits, so 64-bit words decide all 60 steps. */
static int64_t hddivsteps_60(int64_t delta, uint64_t f, uint64_t g, int64_t m[4])
{
	int64_t u = 1, v = 0, q = 0, r = 1;
	for (int i = 0; i < 60; i++) {
		if (delta > 0 && (g & 1)) {
			int64_t nq = q - u, nr = r - v;
			u = 2 * q, v = 2 * r, q = nq, r = nr;
			uint64_t ng = (g - f) >> 1;
			f = g, g = ng, delta = 2 - delta;
		} else if (g & 1) {
			q += u, r += v, u *= 2, v *= 2;
			g = (g + f) >> 1, delta = 2 + delta;
		} else {
			u *= 2, v *= 2;
			g >>= 1, delta = 2 + delta;
		}
	}
	m[0] = u, m[1] = v, m[2] = q, m[3] = r;
	return delta;
}

START_TEST(test_fe_divsteps)
{
	rng_t rng;
	rng_init(&rng, "fields_divsteps", 0);
	for (int k = 0; k < 20000; k++) {
		/* delta odd: 1 (where an inversion starts) or in [-119, 121] (inversions reach a
		 * few thousand; the batch's choices see only the sign and the swaps' 2 - delta) */
		int64_t delta = k % 4 == 0 ? 1 : 2 * (int64_t)(rng_next(&rng) % 121) - 119;
		uint64_t f = rng_next(&rng) | 1, g = rng_next(&rng);
		if (k % 8 == 1)
			g &= g >> 7;                    /* long runs of even g: delta climbs */
		if (k % 8 == 2)
			f = 1;
		int64_t m[4];
		struct lf_sg_trans t;
		int64_t want = hddivsteps_60(delta, f, g, m);
		int64_t z = lf_sg_divsteps_60(-delta, f, g, &t);
		ck_assert_msg(z == -want && t.u == 4 * m[0] && t.v == 4 * m[1] && t.q == 4 * m[2] &&
		              t.r == 4 * m[3],
		              "divsteps: delta %lld f %016llx g %016llx: delta %lld, T [%lld %lld; "
		              "%lld %lld], want %lld, 4 [%lld %lld; %lld %lld]", (long long)delta,
		              (unsigned long long)f, (unsigned long long)g, (long long)-z,
		              (long long)t.u, (long long)t.v, (long long)t.q, (long long)t.r,
		              (long long)want, (long long)m[0], (long long)m[1], (long long)m[2],
		              (long long)m[3]);
	}
}
END_TEST

/* A whole inversion's walk of delta: lf_sg_inverse's -delta after `batches` x 60 divsteps
 * against the hddivstep definition run on the full f = p, g = a by GMP from delta = 1 (a
 * wrong start or a delta not carried between batches changes it; the inverse itself does
 * not). Each wide field, a few elements, 8 batches (the walk, not the bound, is tested). */
START_TEST(test_fe_divsteps_walk)
{
	struct fx x;
	if (!fx_open(&x, _i))
		return;
	if (!x.k->wide) {
		fx_close(&x);
		return;
	}
	enum { B = 8 };
	int n62 = ((int)mpz_sizeinbase(x.p, 2) + 2 + 61) / 62;
	ck_assert(n62 <= LF_SG_MAX);
	int64_t p62[LF_SG_MAX], s[LF_SG_MAX];
	mpz_t f, g, t, m62;
	mpz_inits(f, g, t, m62, NULL);
	for (int i = 0; i < n62; i++) {
		mpz_fdiv_q_2exp(t, x.p, 62 * (mp_bitcnt_t)i);
		p62[i] = (int64_t)(mpz_getlimbn(t, 0) & LF_SG_M62);
	}
	mpz_setbit(m62, 62);
	mpz_invert(t, x.p, m62);
	uint64_t pinv62 = mpz_getlimbn(t, 0);
	rng_t rng;
	rng_init(&rng, x.k->name, 31);
	for (int k = 0; k < 12; k++) {
		mpz_set_ui(g, 0);
		for (int i = 0; i < n62 + 1; i++) {
			mpz_mul_2exp(g, g, 64);
			mpz_add_ui(g, g, (unsigned long)rng_next(&rng));
		}
		if (k == 0)
			mpz_set_ui(g, 1);
		mpz_mod(g, g, x.p);
		for (int i = 0; i < n62; i++) {
			mpz_fdiv_q_2exp(t, g, 62 * (mp_bitcnt_t)i);
			s[i] = (int64_t)(mpz_getlimbn(t, 0) & LF_SG_M62);
		}
		int64_t z = lf_sg_inverse((unsigned)n62, B, s, p62, pinv62);
		mpz_set(f, x.p);
		long delta = 1;
		for (int step = 0; step < 60 * B; step++) {
			if (delta > 0 && mpz_odd_p(g)) {
				mpz_sub(t, g, f);
				mpz_set(f, g);
				mpz_fdiv_q_2exp(g, t, 1);
				delta = 2 - delta;
			} else {
				if (mpz_odd_p(g))
					mpz_add(g, g, f);
				mpz_fdiv_q_2exp(g, g, 1);
				delta = 2 + delta;
			}
		}
		ck_assert_msg(z == -(int64_t)delta, "%s divsteps walk, element %d: delta %lld after "
		              "%d batches, the definition %ld", x.k->name, k, (long long)-z, B, delta);
	}
	mpz_clears(f, g, t, m62, NULL);
	fx_close(&x);
}
END_TEST
#endif

Suite *suite_fields(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("fields");
	printf("fields: %d fields (%s); oracles: Python KAT (%zu cases), GMP\n",
	       KAT_FLD_NFIELDS, LF_FE_WIDE ? "__int128: all" : "no __int128: the 26/28-bit ones",
	       NLEN(kat_fld_cases));
	tcase_set_timeout(tc, LF_TEST_TIMEOUT);
	tcase_add_loop_test(tc, test_fe_contract, 0, KAT_FLD_NFIELDS);
	tcase_add_loop_test(tc, test_fe_select, 0, KAT_FLD_NFIELDS);
	tcase_add_loop_test(tc, test_fe_kat, 0, KAT_FLD_NFIELDS);
	tcase_add_loop_test(tc, test_fe_random, 0, KAT_FLD_NFIELDS);
#if LF_FE_WIDE
	tcase_add_test(tc, test_fe_divsteps);
	tcase_add_loop_test(tc, test_fe_divsteps_walk, 0, KAT_FLD_NFIELDS);
#endif
	suite_add_tcase(s, tc);
	return s;
}
