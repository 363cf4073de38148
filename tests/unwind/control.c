/*
 * control.c -- the unwinding test's control function: plain C, compiled with
 * -fasynchronous-unwind-tables by the compiler that built everything else.
 *
 * Fault this is designed to catch: blaming limbforge's CFI for a platform that cannot unwind
 * through a signal frame at all (e.g. a qemu-user whose signal trampoline libgcc does not
 * recognise).  unwind_sig.c samples this function exactly like a kernel before any kernel;
 * if unwinding out of compiler-generated CFI fails, the kernels' results say nothing and the
 * run is reported as skipped, with the reason.
 *
 * The body is a mpn_mul_1 (same signature as the kernels it stands in for) with enough live
 * values that the compiler saves callee-saved registers, so the canary check has something
 * to look at.
 */
#include <stddef.h>
#include <stdint.h>

uint64_t lf_uw_control(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b);

uint64_t lf_uw_control(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	unsigned __int128 c = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		unsigned __int128 p0 = (unsigned __int128)ap[i] * b;
		unsigned __int128 p1 = (unsigned __int128)ap[i + 1] * b;
		unsigned __int128 p2 = (unsigned __int128)ap[i + 2] * b;
		unsigned __int128 p3 = (unsigned __int128)ap[i + 3] * b;
		c += p0;
		rp[i] = (uint64_t)c;
		c = (c >> 64) + p1;
		rp[i + 1] = (uint64_t)c;
		c = (c >> 64) + p2;
		rp[i + 2] = (uint64_t)c;
		c = (c >> 64) + p3;
		rp[i + 3] = (uint64_t)c;
		c >>= 64;
	}
	for (; i < n; i++) {
		c += (unsigned __int128)ap[i] * b;
		rp[i] = (uint64_t)c;
		c >>= 64;
	}
	return (uint64_t)c;
}
