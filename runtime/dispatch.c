/*
 * dispatch.c -- choose, once per kernel, the best variant the CPU can run.
 *
 * Each kernel has a slot holding the function pointer in use.  The first call through an
 * empty slot resolves it: the first build in the order of the schedule in use (schedule.c;
 * best first) whose required features are all detected and allowed.  Resolution is
 * idempotent, so concurrent first calls are harmless; slots are atomics.
 *
 * lf_cpu_mask() narrows the allowed features (lf_schedule_force() changes the schedule),
 * bumps `generation`, then empties every slot.
 * A resolver that read the features before the mask changed could otherwise store its stale
 * choice after the slots were emptied, and keep it for good.  So a resolver notes the
 * generation before reading the features, publishes its choice, and checks the generation
 * again: if it moved, it takes the choice back (if still there) and resolves anew.  Either
 * its store came before the emptying (and was emptied) or it sees the new generation.
 * The schedule is read after the generation, like the features.
 */
#include <stdatomic.h>
#include <string.h>

#include "limbforge.h"
#include "lf_dispatch.h"

_Atomic(lf_fnptr) lf_dispatch_slot[LF_K_COUNT];
/* index of the build in the slot, -1 unknown (and 0 before the first resolution, when the
 * slot is empty: lf_dispatch_hint checks the entry against the slot) */
_Atomic int lf_dispatch_chosen[LF_K_COUNT];
static _Atomic unsigned long generation;

/* Test hook (tests/stress/mask_race.c): called between reading the features and publishing
 * the choice, to hold a resolver exactly inside the window lf_cpu_mask must not lose. */
void (*lf_dispatch_test_pause)(enum lf_kernel_id id);

size_t lf_dispatch_choose(const struct lf_kernel *k, uint64_t allowed, size_t sched)
{
	const uint8_t *o = k->order[sched];
	for (; *o != LF_ORDER_END; o++)
		if ((k->variants[*o].features & ~allowed) == 0)
			return *o;
	return k->count - 1; /* unreachable: every order ends with "ref", which requires nothing */
}

/* out of line: lf_dispatch_get (inline in lf_dispatch.h) calls it for an empty slot, and so
 * does the first-call stub of each kernel that LF_CALL_NOW returns (dispatch_table.c) */
lf_fnptr lf_dispatch_resolve(enum lf_kernel_id id)
{
	const struct lf_kernel *k = &lf_kernel_table[id];
	for (;;) {
		unsigned long g = atomic_load_explicit(&generation, memory_order_acquire);
		size_t i = lf_dispatch_choose(k, lf_cpu_features(), lf_schedule_current());
		lf_fnptr fn = k->variants[i].fn, expected = NULL;
		if (lf_dispatch_test_pause)
			lf_dispatch_test_pause(id);
		atomic_store_explicit(&lf_dispatch_chosen[id], (int)i, memory_order_relaxed);
		if (!atomic_compare_exchange_strong_explicit(&lf_dispatch_slot[id], &expected, fn,
		                                             memory_order_acq_rel,
		                                             memory_order_acquire))
			fn = expected;  /* another thread resolved (or forced) it first */
		if (atomic_load_explicit(&generation, memory_order_acquire) == g)
			return fn;
		expected = fn;      /* the features changed meanwhile: take it back, retry */
		atomic_compare_exchange_strong_explicit(&lf_dispatch_slot[id], &expected, NULL,
		                                        memory_order_acq_rel, memory_order_acquire);
	}
}

void lf_dispatch_reset(void)
{
	atomic_fetch_add_explicit(&generation, 1, memory_order_acq_rel);
	for (int i = 0; i < LF_K_COUNT; i++) {
		atomic_store_explicit(&lf_dispatch_slot[i], NULL, memory_order_release);
		atomic_store_explicit(&lf_dispatch_chosen[i], -1, memory_order_relaxed);
	}
}

static int kernel_index(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < LF_K_COUNT; i++)
		if (strcmp(lf_kernel_table[i].name, name) == 0)
			return i;
	return -1;
}

/* The table entry of fn, a build of kernel id (by the index the resolver noted, else by a
 * scan: forced, or resolved by another thread); NULL if fn is not in the table. */
static const struct lf_variant *build_of(enum lf_kernel_id id, lf_fnptr fn)
{
	const struct lf_kernel *k = &lf_kernel_table[id];
	int i = atomic_load_explicit(&lf_dispatch_chosen[id], memory_order_relaxed);
	if (i >= 0 && (size_t)i < k->count && k->variants[i].fn == fn)
		return &k->variants[i];
	for (size_t j = 0; j < k->count; j++)
		if (k->variants[j].fn == fn)
			return &k->variants[j];
	return NULL;
}

const char *lf_impl(const char *kernel)
{
	int id = kernel_index(kernel);
	if (id < 0)
		return NULL;
	const struct lf_variant *v = build_of((enum lf_kernel_id)id,
	                                      lf_dispatch_get((enum lf_kernel_id)id));
	return v ? v->name : NULL;
}

uint32_t lf_dispatch_hint_slow(enum lf_kernel_id id, lf_fnptr fn)
{
	const struct lf_variant *v = build_of(id, fn);
	return v ? v->hint : 0;
}

size_t lf_impl_list(const char *kernel, const char **names, size_t max)
{
	int id = kernel_index(kernel);
	if (id < 0)
		return 0;
	const struct lf_kernel *k = &lf_kernel_table[id];
	uint64_t allowed = lf_cpu_features();
	size_t n = 0, ref = k->count - 1;
	unsigned char listed[256] = { 0 };
	listed[ref] = 1;                       /* ref goes last */
	/* the schedule in use's builds best first, then the other schedules' builds */
	for (const uint8_t *o = k->order[lf_schedule_current()]; *o != LF_ORDER_END; o++)
		if (!listed[*o]) {
			listed[*o] = 1;
			if (!(k->variants[*o].features & ~allowed) && n++ < max && names)
				names[n - 1] = k->variants[*o].name;
		}
	for (size_t j = 0; j < k->count; j++)
		if (!listed[j] && !(k->variants[j].features & ~allowed) && n++ < max && names)
			names[n - 1] = k->variants[j].name;
	if (n++ < max && names)
		names[n - 1] = k->variants[ref].name;
	return n;
}

int lf_impl_force(const char *kernel, const char *variant)
{
	int id = kernel_index(kernel);
	if (id < 0)
		return -1;
	const struct lf_kernel *k = &lf_kernel_table[id];
	if (!variant) {
		atomic_store_explicit(&lf_dispatch_slot[id], NULL, memory_order_release);
		atomic_store_explicit(&lf_dispatch_chosen[id], -1, memory_order_relaxed);
		return 0;
	}
	uint64_t allowed = lf_cpu_features();
	for (size_t j = 0; j < k->count; j++) {
		if (strcmp(k->variants[j].name, variant) != 0)
			continue;
		if (k->variants[j].features & ~allowed)
			return -1;
		atomic_store_explicit(&lf_dispatch_chosen[id], (int)j, memory_order_relaxed);
		atomic_store_explicit(&lf_dispatch_slot[id], k->variants[j].fn, memory_order_release);
		return 0;
	}
	return -1;
}
