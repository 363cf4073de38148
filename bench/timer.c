/*
 * timer.c -- tick source and core-clock calibration of the benchmark harness.
 *
 * x86-64: ticks are the TSC, read as `lfence; rdtsc; lfence` before a batch (nothing of the
 * batch starts before the read, nothing earlier is still running) and `lfence; rdtsc` after it
 * (the batch has completed).  The TSC runs at a fixed rate, not at the core clock, so the
 * harness measures core cycles per tick with a chain of dependent REGISTER-REGISTER adds: each
 * add needs the previous result, one core cycle apiece.  An add-immediate chain would not do:
 * Golden Cove-class renamers fold `add $imm, reg` chains and report a ratio several times too
 * high.  Elsewhere ticks are CLOCK_MONOTONIC_RAW nanoseconds (AArch64; under qemu the numbers
 * are meaningless and the harness says so).
 *
 * Used by main.c; run through `make bench`.
 */
#include <time.h>

#include "bench.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
uint64_t bench_ticks_begin(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

uint64_t bench_ticks_end(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

const char *bench_timer_name(void)
{
	return "rdtsc (lfence-fenced)";
}

/* loops x 1000 dependent `add %reg, %acc`; reg is an input register the CPU cannot fold. */
static void add_chain(uint64_t loops, uint64_t x)
{
	uint64_t acc = 0;
	__asm__ volatile("1:\n\t"
	                 ".rept 1000\n\t"
	                 "add %2, %0\n\t"
	                 ".endr\n\t"
	                 "dec %1\n\t"
	                 "jnz 1b"
	                 : "+r"(acc), "+r"(loops)
	                 : "r"(x)
	                 : "cc");
	bench_sink += acc;
}
#else
uint64_t bench_ticks_begin(void)
{
	return bench_now_ns();
}

uint64_t bench_ticks_end(void)
{
	return bench_now_ns();
}

const char *bench_timer_name(void)
{
	return "clock_gettime(CLOCK_MONOTONIC_RAW) ns";
}

#if defined(__aarch64__)
static void add_chain(uint64_t loops, uint64_t x)
{
	uint64_t acc = 0;
	__asm__ volatile("1:\n\t"
	                 ".rept 1000\n\t"
	                 "add %0, %0, %2\n\t"
	                 ".endr\n\t"
	                 "subs %1, %1, #1\n\t"
	                 "b.ne 1b"
	                 : "+r"(acc), "+r"(loops)
	                 : "r"(x)
	                 : "cc");
	bench_sink += acc;
}
#else
/* Portable fallback: the volatile accumulator makes each add depend on the previous one, but
 * through memory -- the ratio is then only indicative. */
static void add_chain(uint64_t loops, uint64_t x)
{
	volatile uint64_t acc = 0;
	for (uint64_t i = 0; i < loops * 1000; i++)
		acc += x;
	bench_sink += acc;
}
#endif
#endif

double bench_calib_sample(uint64_t loops)
{
	uint64_t x = bench_sink | 1;
	uint64_t t0 = bench_ticks_begin();
	add_chain(loops, x);
	uint64_t t1 = bench_ticks_end();
	return (double)(loops * 1000) / (double)(t1 - t0);
}

double bench_timer_overhead(void)
{
	double v[101];
	for (int i = 0; i < 101; i++) {
		uint64_t t0 = bench_ticks_begin();
		uint64_t t1 = bench_ticks_end();
		v[i] = (double)(t1 - t0);
	}
	struct bench_stats s;
	bench_stats(v, 101, &s);
	return s.median;
}
