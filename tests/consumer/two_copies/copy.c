/*
 * copy.c -- compiled twice, -DLF_PREFIX=lfa_ -DCOPY=a and -DLF_PREFIX=lfb_ -DCOPY=b: a
 * wrapper around one prefixed copy of limbforge, so that main.c can drive both copies in one
 * program without including limbforge.h twice.
 */
#include "limbforge.h"

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)

uint64_t CAT(COPY, addmul_1)(uint64_t *rp, const uint64_t *ap, size_t n, uint64_t b)
{
	return lf_mpn_addmul_1(rp, ap, n, b);
}

void CAT(COPY, sqr)(uint64_t *rp, const uint64_t *ap, size_t n)
{
	lf_mpn_sqr(rp, ap, n);
}

const char *CAT(COPY, impl)(const char *kernel)
{
	return lf_impl(kernel);
}

void CAT(COPY, mask)(uint64_t allowed)
{
	lf_cpu_mask(allowed);
}
