/*
 * prog.c -- the program (and shared object) that check_link.sh links with limbforge under
 * `-z cet-report=error` (x86-64) / `-z force-bti` (AArch64).
 *
 * Fault this is designed to catch: a limbforge build that only links cleanly as a bare
 * object set -- the link must also work, and the result must run, when the archive or the
 * shared library is linked into a real program, with the kernels reached through the
 * dispatcher's function pointers (the indirect calls IBT/BTI guard).  Known answers only;
 * correctness is the Check suite's job.
 */
#include <stdint.h>
#include <stdio.h>

#include "limbforge.h"

int lf_cetbti_check(void);

int lf_cetbti_check(void)
{
	uint64_t a[2] = { UINT64_MAX, 0x123 }, r[4];
	uint32_t x[1] = { UINT32_MAX }, z[2];
	int bad = 0;
	bad |= lf_mpn_mul_1(r, a, 2, 3) != 0 || r[0] != UINT64_MAX - 2 || r[1] != 0x36b;
	lf_mpn_sqr(r, a, 2);            /* (2^64 - 1 + 0x123 * 2^64)^2 */
	bad |= r[0] != 1 || r[1] != 0xfffffffffffffdb8 || r[2] != 0x14d0f || r[3] != 0;
	lf_bi_square_to_len(x, 1, z);   /* (2^32 - 1)^2, big-endian words */
	bad |= z[0] != 0xfffffffe || z[1] != 1;
	return bad;
}

int main(void)
{
	int bad = lf_cetbti_check();
	printf("cetbti program: %s\n", bad ? "WRONG ANSWERS" : "known answers ok");
	return bad;
}
