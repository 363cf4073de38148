/*
 * lf_words.h -- internal: BE-words (java.math.BigInteger magnitudes) to and from little-endian
 * 64-bit limbs, for the entry points that run the limb kernels on BigInteger arrays.
 *
 * Limb k of a w-word number holds words w-2k-1 (low half) and w-2k-2 (high half); with w odd
 * the top limb's high half is 0.  (HotSpot's reverse_words does the same for even w.)
 */
#ifndef LF_WORDS_H
#define LF_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* {limbs, (w+1)/2} = the w words of be */
static inline void lf_words_to_limbs(uint64_t *limbs, const uint32_t *be, size_t w)
{
	size_t k = 0;
	for (; 2 * k + 1 < w; k++)
		limbs[k] = (uint64_t)be[w - 2 * k - 2] << 32 | be[w - 2 * k - 1];
	if (w & 1)
		limbs[k] = be[0];
}

/* the w low words of {limbs, (w+1)/2} into be */
static inline void lf_limbs_to_words(uint32_t *be, const uint64_t *limbs, size_t w)
{
	for (size_t i = 0; i < w; i++)
		be[w - 1 - i] = (uint32_t)(limbs[i / 2] >> (32 * (i & 1)));
}

#endif /* LF_WORDS_H */
