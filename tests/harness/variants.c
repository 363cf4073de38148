/*
 * variants.c -- which variants the suite tests, and what each one was actually put through.
 *
 * Fault this is designed to catch: a variant that is never exercised.  Variants come from
 * lf_kernel_table at run time, so a variant the generator adds tomorrow is tested without a
 * change here; one whose features this CPU lacks (or LIMBFORGE_CPU masks) is skipped with the
 * reason printed.  Every comparison against an oracle adds to a coverage table kept in a
 * MAP_SHARED mapping, so counts survive Check's fork-per-test mode; check_main prints it and
 * fails if a runnable variant got zero calls of a kind its kernel requires.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness.h"

#define MAXV 32

const char *const cov_kind_name[COV_NKINDS] = {
	"kat", "lattice", "carry", "length", "guard", "align", "inplace", "zero", "api", "abi",
};

/* Kernels this suite has tests for (by name, so a renamed table entry shows up as a gap). */
static const char *const known_kernels[] = {
	"mpn_mul_1", "mpn_addmul_1", "mpn_sqr", "bi_mul_add", "bi_square_to_len", "poly1305_blocks",
	"mpn_mul", "mpn_montmul", "bi_multiply_to_len", "p256_mul_mont", "p256_sqr_mont",
	"conditional_assign", "p256_mont_mult", "p256_mont_square", "p256_mont_mult_x8", NULL,
};

static struct tvar runnable[LF_K_COUNT][MAXV];
static size_t n_runnable[LF_K_COUNT];
static uint64_t allowed_at_start, detected_at_start;
static unsigned long (*cov)[MAXV][COV_NKINDS]; /* shared across fork() */

uint64_t test_seed(void)
{
	const char *s = getenv("LF_TEST_SEED");
	return s ? strtoull(s, NULL, 0) : UINT64_C(20261129);
}

void rng_init(rng_t *r, const char *tag, uint64_t extra)
{
	uint64_t h = UINT64_C(1469598103934665603);
	for (const char *p = tag; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
	r->s = test_seed() ^ h ^ (extra * UINT64_C(0x9e3779b97f4a7c15));
	(void)rng_next(r);
}

const char *feature_names(uint64_t bits, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (const struct lf_feature_name *n = lf_feature_names; n->name; n++) {
		if (!(bits & n->bit))
			continue;
		int w = snprintf(buf + o, len - o, "%s%s", o ? " " : "", n->name);
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
		bits &= ~n->bit;
	}
	if (bits && o + 24 < len)
		snprintf(buf + o, len - o, "%sunnamed:%#llx", o ? " " : "", (unsigned long long)bits);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

int tv_kernel_known(enum lf_kernel_id kid)
{
	if (fe_kernel(kid))             /* the field products: tests/fe_kernels.h */
		return 1;
	if (xdh_ladder(kid) || kid == LF_K_fe_c25519_r51_mul_x4)   /* tests/test_xdh.c */
		return 1;
	for (const char *const *n = known_kernels; *n; n++)
		if (strcmp(*n, lf_kernel_table[kid].name) == 0)
			return 1;
	return 0;
}

int cov_required(enum lf_kernel_id kid, enum cov_kind kind)
{
	/* poly1305_blocks: "inplace" is the API's aliasing (the tag written over the message or
	 * the key, tests/test_poly1305.c) with the variant in use; the kernel itself has no
	 * output buffer; mpn_montmul: the kernel's rp may not overlap its inputs, so "inplace"
	 * is lf_bi_montgomery_multiply/square writing the product over a and/or b (which the
	 * JDK does) with the variant in use (tests/test_montmul.c); p256_*: r == a, r == b,
	 * a == b; conditional_assign: a == b (tests/test_p256.c); p256_mont_*: r == a, r == b,
	 * a == b (tests/test_p256_mont.c); fe_*: r == a, r == b, a == b (tests/test_fe.c);
	 * fe_c25519_r51_mul_x4: r == a, r == b, a == b (tests/test_xdh.c); the ladders: xz may
	 * not overlap k or u (their contract), so none */
	if (kind == COV_INPLACE)
		return fe_kernel(kid) != NULL || kid == LF_K_fe_c25519_r51_mul_x4 || kid == LF_K_mpn_mul_1 || kid == LF_K_mpn_addmul_1 ||
		       kid == LF_K_bi_mul_add || kid == LF_K_poly1305_blocks ||
		       kid == LF_K_mpn_montmul || kid == LF_K_p256_mul_mont || kid == LF_K_p256_sqr_mont ||
		       kid == LF_K_conditional_assign || kid == LF_K_p256_mont_mult ||
		       kid == LF_K_p256_mont_square || kid == LF_K_p256_mont_mult_x8;
	/* the P-256 kernels have one size (4 limbs; 5 x 52 bits; 8 elements), and so have the
	 * field products (one element): no length sweep, no length 0;
	 * conditional_assign has no carries: its "carry" kind is a and b one bit apart */
	if (kind == COV_LENGTH || kind == COV_ZERO)
		return fe_kernel(kid) == NULL && xdh_ladder(kid) == NULL &&
		       kid != LF_K_fe_c25519_r51_mul_x4 && kid != LF_K_p256_mul_mont &&
		       kid != LF_K_p256_sqr_mont &&
		       kid != LF_K_p256_mont_mult && kid != LF_K_p256_mont_square &&
		       kid != LF_K_p256_mont_mult_x8;
	return 1;
}

void tv_init(void)
{
	detected_at_start = lf_cpu_detect();
	allowed_at_start = lf_cpu_features();
	cov = mmap(NULL, sizeof(*cov) * LF_K_COUNT, PROT_READ | PROT_WRITE,
	           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cov == MAP_FAILED) {
		perror("mmap coverage table");
		exit(2);
	}
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		if (k->count > MAXV) {
			fprintf(stderr, "kernel %s has %zu variants; raise MAXV in %s\n", k->name,
			        k->count, __FILE__);
			exit(2);
		}
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			if (v->features & ~allowed_at_start)
				continue;
			struct tvar *t = &runnable[kid][n_runnable[kid]++];
			t->kid = (enum lf_kernel_id)kid;
			t->vidx = j;
			t->k = k;
			t->v = v;
			snprintf(t->label, sizeof t->label, "%s/%s", k->name, v->name);
		}
	}
}

size_t tv_runnable_count(enum lf_kernel_id kid)
{
	return n_runnable[kid];
}

const struct tvar *tv_runnable(enum lf_kernel_id kid, size_t i)
{
	ck_assert_msg(i < n_runnable[kid], "variant index %zu out of range", i);
	return &runnable[kid][i];
}

void tv_print_plan(FILE *f)
{
	char b1[256], b2[256];
	fprintf(f, "limbforge test plan (features detected: %s; allowed: %s)\n",
	        feature_names(detected_at_start, b1, sizeof b1),
	        feature_names(allowed_at_start, b2, sizeof b2));
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		const struct lf_kernel *k = &lf_kernel_table[kid];
		if (!tv_kernel_known((enum lf_kernel_id)kid))
			fprintf(f, "  WARNING: kernel %s is in lf_kernel_table but this suite has no "
			        "tests for it\n", k->name);
		for (size_t j = 0; j < k->count; j++) {
			const struct lf_variant *v = &k->variants[j];
			uint64_t missing = v->features & ~allowed_at_start;
			feature_names(v->features, b1, sizeof b1);
			if (!missing) {
				fprintf(f, "  TEST %s/%s [needs: %s]\n", k->name, v->name, b1);
				continue;
			}
			uint64_t absent = missing & ~detected_at_start;
			uint64_t masked = missing & detected_at_start;
			fprintf(f, "  SKIP %s/%s [needs: %s]:", k->name, v->name, b1);
			if (absent)
				fprintf(f, " this CPU/OS lacks %s;", feature_names(absent, b2, sizeof b2));
			if (masked)
				fprintf(f, " masked off by LIMBFORGE_CPU=%s (%s);",
				        getenv("LIMBFORGE_CPU") ? getenv("LIMBFORGE_CPU") : "?",
				        feature_names(masked, b2, sizeof b2));
			fprintf(f, " not called\n");
		}
	}
	fflush(f);
}

void cov_add(const struct tvar *t, enum cov_kind kind, unsigned long calls)
{
	__atomic_fetch_add(&cov[t->kid][t->vidx][kind], calls, __ATOMIC_RELAXED);
}

int cov_report(FILE *f, int enforce)
{
	int gaps = 0;
	fprintf(f, "\ncoverage: kernel calls checked against an oracle, per variant and kind\n");
	fprintf(f, "  %-28s", "variant");
	for (int c = 0; c < COV_NKINDS; c++)
		fprintf(f, " %8s", cov_kind_name[c]);
	fprintf(f, "\n");
	for (int kid = 0; kid < LF_K_COUNT; kid++) {
		for (size_t i = 0; i < n_runnable[kid]; i++) {
			const struct tvar *t = &runnable[kid][i];
			fprintf(f, "  %-28s", t->label);
			for (int c = 0; c < COV_NKINDS; c++) {
				unsigned long v = cov[kid][t->vidx][c];
				if (!cov_required((enum lf_kernel_id)kid, (enum cov_kind)c))
					fprintf(f, " %8s", v ? "?" : "n/a");
				else
					fprintf(f, " %8lu", v);
				if (enforce && tv_kernel_known((enum lf_kernel_id)kid) && !v &&
				    cov_required((enum lf_kernel_id)kid, (enum cov_kind)c))
					gaps++;
			}
			fprintf(f, "\n");
		}
	}
	if (enforce && gaps)
		fprintf(f, "COVERAGE GAP: %d (variant, kind) pairs above were never run\n", gaps);
	fflush(f);
	return gaps;
}

/* ---- the dispatcher's expected choice, from the table's names --------------------------- */
static int is_schedule(const struct lf_variant *v, const char *sched_name)
{
	const char *slash = strchr(v->schedule, '/');
	return slash && strcmp(slash + 1, sched_name) == 0;
}

static size_t base_len(const char *name)
{
	const char *at = strchr(name, '@');
	return at ? (size_t)(at - name) : strlen(name);
}

/* the index of build `base` under schedule `sname`: "<base>@<sname>" if present, else the
 * generic "<base>"; k->count if neither exists */
static size_t build_of(const struct lf_kernel *k, const char *base, size_t len,
                       const char *sname)
{
	size_t generic = k->count;
	for (size_t j = 0; j + 1 < k->count; j++) {
		const struct lf_variant *v = &k->variants[j];
		if (base_len(v->name) != len || strncmp(v->name, base, len) != 0)
			continue;
		if (v->name[len] == '@' && strcmp(v->name + len + 1, sname) == 0 &&
		    is_schedule(v, sname))
			return j;
		if (v->name[len] == 0 && is_schedule(v, "generic"))
			generic = j;
	}
	return generic;
}

size_t tv_expected_order(const struct lf_kernel *k, size_t sched, size_t *idx, size_t cap)
{
	const char *sname = lf_schedule_table[sched].name;
	size_t n = 0, ref = k->count - 1;
	if (sched == 0) {
		for (size_t j = 0; j < ref && n < cap; j++)
			if (is_schedule(&k->variants[j], "generic"))
				idx[n++] = j;
	} else {
		/* the preference: the variants as order[sched] lists them */
		for (const uint8_t *o = k->order[sched]; *o != LF_ORDER_END && n < cap; o++) {
			if (*o == ref)
				break;
			const char *name = k->variants[*o].name;
			size_t want = build_of(k, name, base_len(name), sname);
			ck_assert_msg(want < k->count, "%s: order[%s] lists %s, which is neither a "
			              "generic build nor one of %s", k->name, sname, name, sname);
			ck_assert_msg(want == *o, "%s: order[%s] lists %s where %s's build is %s",
			              k->name, sname, name, sname, k->variants[want].name);
			idx[n++] = want;
		}
	}
	ck_assert_msg(n < cap, "%s: too many builds", k->name);
	idx[n++] = ref;
	return n;
}

size_t tv_expected_choice(const struct lf_kernel *k, uint64_t allowed, size_t sched)
{
	size_t idx[64];
	size_t n = tv_expected_order(k, sched, idx, 64);
	for (size_t i = 0; i < n; i++)
		if ((k->variants[idx[i]].features & ~allowed) == 0)
			return idx[i];
	return k->count; /* none: a broken table (test_table_shape says so) */
}
