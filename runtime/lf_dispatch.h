/*
 * lf_dispatch.h -- internal: the dispatch table's types, CPU detection hooks for tests.
 *
 * The table itself (generated/dispatch_table.c) lists, per kernel, its variants best first
 * with the LF_CPU_* features each requires (derived by the generator from the emitted
 * instructions) and ends with the portable "ref" variant, which requires nothing.
 */
#ifndef LF_DISPATCH_H
#define LF_DISPATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lf_kernels.h"

#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#  define LF_INTERNAL __attribute__((visibility("hidden")))
#else
#  define LF_INTERNAL      /* COFF: not exported unless dllexported (LF_BUILD_DLL) */
#endif

typedef void (*lf_fnptr)(void);

struct lf_variant {
	const char *name;       /* "adx"; a CPU schedule's own build: "adx@sapphirerapids" */
	lf_fnptr fn;
	uint64_t features;      /* LF_CPU_* bits that must all be present and allowed */
	const char *schedule;   /* e.g. "x86_64/generic", "aarch64/neoverse-n1", "portable C" */
	uint32_t hint;          /* what the API around the kernel needs to know of this build
	                           to choose by size (gen/lfgen/kernel.py Variant.hint; 0
	                           without one), read through lf_dispatch_hint */
};

#define LF_ORDER_END 0xff

struct lf_kernel {
	const char *name;
	const struct lf_variant *variants;   /* generic builds, CPU schedules' builds, "ref" */
	size_t count;
	/* order[s]: for schedule s (index into lf_schedule_table) the indices of the builds to
	 * try, best first, ending with ref's, then LF_ORDER_END */
	const uint8_t *const *order;
};

/* ---- schedules: gen/schedules/<arch>/<cpu>.toml, generic first ---------------------------- */
#define LF_SCHEDULE_ANY 0xffff
struct lf_schedule_id {
	uint16_t a;             /* x86-64: display family;  AArch64: MIDR implementer */
	uint16_t b;             /* x86-64: display model;   AArch64: MIDR part; ANY: every one */
};

struct lf_schedule {
	const char *name;       /* "generic", "sapphirerapids", "neoverse-n1"; NULL ends the table */
	const char *file;       /* the schedule file it was generated from */
	const char *vendor;     /* x86-64: CPUID vendor string; NULL on AArch64 and for generic */
	const struct lf_schedule_id *ids;
	size_t nids;            /* 0 for generic: it is the fallback, matched by nothing */
};

/* This architecture's schedules: [0] is generic; ends with a NULL name. */
LF_INTERNAL extern const struct lf_schedule lf_schedule_table[];

/* What the schedules are matched against. */
struct lf_cpu_ident {
	char vendor[13];        /* x86-64: CPUID.0 vendor ("GenuineIntel"); "" elsewhere */
	unsigned family, model, stepping;       /* x86-64: display family/model (CPUID.1) */
	unsigned implementer, part, variant, revision;   /* AArch64: fields of MIDR_EL1 */
	int known;              /* 0 when the CPU could not be identified */
};

/* Identify the CPU this runs on (runtime/schedule.c); known = 0 where that is impossible. */
LF_INTERNAL void lf_cpu_identify(struct lf_cpu_ident *id);
/* Pure decoders, for tests: CPUID.0 EBX/EDX/ECX (vendor) and CPUID.1 EAX; MIDR_EL1. */
LF_INTERNAL void lf_cpu_ident_x86(struct lf_cpu_ident *id, uint32_t vendor_ebx,
                                  uint32_t vendor_edx, uint32_t vendor_ecx, uint32_t l1_eax);
LF_INTERNAL void lf_cpu_ident_midr(struct lf_cpu_ident *id, uint64_t midr);
/* Does schedule `s` list the CPU `id`?  (generic lists none: it is the fallback) */
LF_INTERNAL int lf_schedule_matches(const struct lf_schedule *s, const struct lf_cpu_ident *id);
/* Index in lf_schedule_table of the first schedule matching `id`, 0 (generic) if none. */
LF_INTERNAL size_t lf_schedule_select(const struct lf_cpu_ident *id);
/* Index of the schedule called `name`, -1 if there is none. */
LF_INTERNAL int lf_schedule_lookup(const char *name);
/* Apply a LIMBFORGE_SCHEDULE value to the automatic choice: a schedule name wins, "auto",
 * "" or NULL keep `auto_choice`, an unknown name is reported on `warn` and ignored. */
LF_INTERNAL size_t lf_schedule_env(const char *env, size_t auto_choice, FILE *warn);
/* Index of the schedule in use (lf_schedule_force, else LIMBFORGE_SCHEDULE, else the CPU). */
LF_INTERNAL size_t lf_schedule_current(void);

LF_INTERNAL extern const struct lf_kernel lf_kernel_table[LF_K_COUNT];

/* The slots (runtime/dispatch.c) and the resolver of an empty one. */
LF_INTERNAL extern _Atomic(lf_fnptr) lf_dispatch_slot[LF_K_COUNT];
LF_INTERNAL lf_fnptr lf_dispatch_resolve(enum lf_kernel_id id);

/* The function pointer in use for kernel `id` (resolved on first use): inline, so that an API
 * call costs one load and one test before the kernel's indirect call. */
static inline lf_fnptr lf_dispatch_get(enum lf_kernel_id id)
{
	lf_fnptr fn = atomic_load_explicit(&lf_dispatch_slot[id], memory_order_acquire);
	return fn ? fn : lf_dispatch_resolve(id);
}
/* Test hook: if set, called by a resolver between reading the features and publishing its
 * choice (tests/stress/mask_race.c holds a resolver there while lf_cpu_mask runs). */
LF_INTERNAL extern void (*lf_dispatch_test_pause)(enum lf_kernel_id id);

/* lf_p256_ecdh with the given field kernels instead of the dispatched ones (runtime/p256_ecdh.c;
 * tests/ct calls variants that valgrind's CPUID hides from the dispatcher). */
LF_INTERNAL int lf_p256_ecdh_with(uint8_t shared_x[32], const uint8_t scalar[32],
                                  const uint8_t peer_point[65], lf_p256_mul_mont_fn mul,
                                  lf_p256_sqr_mont_fn sqr);

/* The hint (struct lf_variant) of fn, the build in kernel id's slot (lf_dispatch_get): for an
 * API that chooses by size around what the dispatched build does well.  Inline: the index the
 * resolver noted (lf_dispatch_chosen) names the build unless the slot was forced or raced;
 * then a scan of the kernel's builds. */
LF_INTERNAL extern _Atomic int lf_dispatch_chosen[LF_K_COUNT];
LF_INTERNAL uint32_t lf_dispatch_hint_slow(enum lf_kernel_id id, lf_fnptr fn);
static inline uint32_t lf_dispatch_hint(enum lf_kernel_id id, lf_fnptr fn)
{
	const struct lf_kernel *k = &lf_kernel_table[id];
	int i = atomic_load_explicit(&lf_dispatch_chosen[id], memory_order_relaxed);
	if ((size_t)i < k->count && k->variants[i].fn == fn)
		return k->variants[i].hint;
	return lf_dispatch_hint_slow(id, fn);
}

/* Forget every resolution (after the allowed features changed). */
LF_INTERNAL void lf_dispatch_reset(void);
#define LF_CALL(k) ((lf_##k##_fn)lf_dispatch_get(LF_K_##k))

/* For a call made at once (the pointer not kept): the slot's build, or while the slot is
 * empty a stub of the kernel's prototype that resolves and forwards the call (generated in
 * dispatch_table.c).  Nothing is called here, so an API entry point that ends in
 * LF_CALL_NOW(k)(...) compiles to a load, a test and a tail jump, with no frame: with
 * LF_CALL the compiler saves the arguments around the resolving call on every call (a push
 * and a sub/add of rsp: lf_bi_multiply_to_len at 10 words 45.0 core cycles against the
 * kernel's 42.6 on AMD Zen 5, 2026-12-01).  A pointer kept for many calls takes LF_CALL (a
 * stub would resolve on each of them). */
LF_INTERNAL extern const lf_fnptr lf_dispatch_first[LF_K_COUNT];
static inline lf_fnptr lf_dispatch_now(enum lf_kernel_id id)
{
	lf_fnptr fn = atomic_load_explicit(&lf_dispatch_slot[id], memory_order_acquire);
	return fn ? fn : lf_dispatch_first[id];
}
#define LF_CALL_NOW(k) ((lf_##k##_fn)lf_dispatch_now(LF_K_##k))

/* Index of the build chosen for a kernel under a feature word and schedule: the first in
 * k->order[sched] whose features are a subset of `allowed`.  Pure; "ref" (features 0)
 * guarantees a result. */
LF_INTERNAL size_t lf_dispatch_choose(const struct lf_kernel *k, uint64_t allowed,
                                      size_t sched);

/* ---- CPU detection, split into raw words and a pure decoder so tests can feed synthetic
 * CPUID/XCR0/HWCAP values ("feature present but OS state off" and the like). */
struct lf_x86_cpuid {
	uint32_t max_leaf;       /* CPUID.0:EAX */
	uint32_t l1_ecx;         /* CPUID.1:ECX   (FMA 12, MOVBE 22, OSXSAVE 27, AVX 28) */
	uint32_t l7_ebx;         /* CPUID.7.0:EBX (BMI1 3, AVX2 5, BMI2 8, AVX512F 16, DQ 17,
	                            ADX 19, IFMA 21, BW 30, VL 31) */
	uint32_t l7_ecx;         /* CPUID.7.0:ECX (VBMI 1, VBMI2 6) */
	uint32_t l7s1_eax;       /* CPUID.7.1:EAX (AVX-IFMA 23) */
	uint64_t xcr0;           /* XGETBV(0), meaningful only when OSXSAVE is set */
};
LF_INTERNAL uint64_t lf_cpu_decode_x86(const struct lf_x86_cpuid *c);
LF_INTERNAL uint64_t lf_cpu_decode_aarch64(unsigned long hwcap, unsigned long hwcap2);

/* Apply a LIMBFORGE_CPU string to `detected`; unknown tokens are reported on `warn` (if
 * not NULL) and ignored.  Never adds a feature that is not in `detected`. */
LF_INTERNAL uint64_t lf_cpu_parse_mask(const char *spec, uint64_t detected, FILE *warn);

/* Drop the features whose prerequisite is absent (AVX2 without AVX, AVX-512 extensions
 * without AVX-512F, ...). */
LF_INTERNAL uint64_t lf_cpu_implied(uint64_t features);

/* Feature name table: "bmi2" <-> LF_CPU_BMI2 ... (NULL-terminated). */
struct lf_feature_name {
	const char *name;
	uint64_t bit;
};
LF_INTERNAL extern const struct lf_feature_name lf_feature_names[];

/* Detected features before LIMBFORGE_CPU and lf_cpu_mask (LF_CPU_ASM included). */
LF_INTERNAL uint64_t lf_cpu_detect(void);

/* Zero n bytes at p in a way the compiler may not drop (secrets on the stack; runtime/wipe.c). */
LF_INTERNAL void lf_wipe(void *p, size_t n);

#endif /* LF_DISPATCH_H */
