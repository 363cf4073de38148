/*
 * guard.c -- guarded buffers: every operand in its own mapping between PROT_NONE pages.
 *
 * Faults this is designed to catch: a kernel that reads one limb/word past the end of an
 * input (a load-ahead in a pipelined loop, a paired load of an odd tail), or before its
 * start (BE-word kernels walk from the end), or writes outside its output.  A read beyond
 * a guard page faults (SIGSEGV: the test fails -- in fork mode Check reports the signal,
 * in no-fork mode the run dies); anything else outside [p, p+len) inside the read-write
 * pages is a canary that must survive the call.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

static size_t page_size(void)
{
	static size_t ps;
	if (!ps)
		ps = (size_t)sysconf(_SC_PAGESIZE);
	return ps;
}

static inline unsigned char canary_byte(size_t i)
{
	return (unsigned char)(0xa5 ^ (i * 0x3b) ^ (i >> 8));
}

void *gb_alloc(struct gbuf *g, size_t len, enum gb_place place, size_t shift)
{
	size_t ps = page_size();
	size_t need = len + shift + 128;
	size_t rw = (need + ps - 1) / ps * ps;

	memset(g, 0, sizeof *g);
	g->map_len = rw + 2 * ps;
	g->map = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_msg(g->map != MAP_FAILED, "mmap of %zu bytes failed", g->map_len);
	g->lo = g->map + ps;
	g->hi = g->lo + rw;
	ck_assert_msg(mprotect(g->lo, rw, PROT_READ | PROT_WRITE) == 0, "mprotect failed");
	for (size_t i = 0; i < rw; i++)
		g->lo[i] = canary_byte(i);
	switch (place) {
	case GB_START:
		g->p = g->lo + shift;
		break;
	case GB_END:
		g->p = g->hi - shift - len;
		break;
	case GB_MID:
	default:
		g->p = g->lo + 64 + shift;
		break;
	}
	g->len = len;
	return g->p;
}

void gb_free(struct gbuf *g)
{
	if (g->map && g->map != MAP_FAILED)
		munmap(g->map, g->map_len);
	memset(g, 0, sizeof *g);
}

long gb_canary_check(const struct gbuf *g, int *ok)
{
	size_t start = (size_t)(g->p - g->lo), end = start + g->len, rw = (size_t)(g->hi - g->lo);

	/* report the damaged byte closest to the data: that is where a stray access landed */
	for (size_t i = end; i < rw; i++)
		if (g->lo[i] != canary_byte(i)) {
			*ok = 0;
			return (long)(i - start);
		}
	for (size_t i = start; i-- > 0;)
		if (g->lo[i] != canary_byte(i)) {
			*ok = 0;
			return (long)i - (long)start;
		}
	*ok = 1;
	return 0;
}

void *gb_noaccess(void)
{
	static unsigned char *page;
	if (!page) {
		page = mmap(NULL, 2 * page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ck_assert_msg(page != MAP_FAILED, "mmap failed");
	}
	/* the middle of an inaccessible region: p[-k] and p[k] fault for small k */
	return page + page_size();
}

const char *gb_place_name(enum gb_place p)
{
	switch (p) {
	case GB_START:
		return "starts after a guard page";
	case GB_END:
		return "ends at a guard page";
	default:
		return "canaries both sides";
	}
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	ck_assert_msg(p != NULL, "out of memory (%zu bytes)", n);
	return p;
}

void fill_garbage64(uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = UINT64_C(0xdeadbeefcafe0000) ^ (i * UINT64_C(0x0101010101010101));
}

void fill_garbage32(uint32_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = UINT32_C(0xdead0000) ^ (uint32_t)(i * 0x01010101u);
}

static const char *volatile crash_label = "(no kernel call yet)", *volatile crash_what = "";
static volatile size_t crash_n;

void crash_note(const char *label, const char *what, size_t n)
{
	crash_label = label;
	crash_what = what;
	crash_n = n;
}

static void put(const char *s)
{
	ssize_t r = write(2, s, strlen(s));
	(void)r;
}

static void on_fatal_signal(int sig)
{
	char num[32];
	size_t n = crash_n, i = sizeof num - 1;
	num[i] = 0;
	do {
		num[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n && i);
	put("\nFATAL: ");
	put(strsignal(sig));
	put(" during the last recorded kernel call: ");
	put(crash_label);
	put(" [");
	put(crash_what);
	put("] length ");
	put(num + i);
	put(" (or in the harness after it)\n");
	_exit(3);
}

void crash_handler_install(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}
