/*
 * wipe.c -- lf_wipe: zero memory that held secrets (runtime/lf_dispatch.h), for Poly1305, the
 * P-256 ECDH and X25519/X448.
 */
#include <string.h>

#include "lf_dispatch.h"

/* Set n bytes at p to zero in a way the compiler may not drop as dead stores: GNU C: memset,
 * then an empty asm that takes p and may read any memory (so the zeros are "used"; the
 * Linux kernel's memzero_explicit); elsewhere byte stores through a volatile pointer. */
void lf_wipe(void *p, size_t n)
{
#if defined(__GNUC__)
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	volatile unsigned char *v = (volatile unsigned char *)p;
	while (n--)
		*v++ = 0;
#endif
}
