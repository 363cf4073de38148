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
#include <string.h>

/* Words w-2k-2 and w-2k-1 (high, low half of limb k) sit in that order in memory: read as one
 * little-endian 64-bit word they are the limb rotated by 32 (one load or store and a rotate
 * per limb, not per word).  A big-endian host reads the limb itself. */
static inline uint64_t lf_words_rot32(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return x;
#else
	return x >> 32 | x << 32;
#endif
}

/* Two limbs at a time where the compiler has vector shuffles on a little-endian host: words
 * w-2k-4 .. w-2k-1 are (hi, lo) of limb k+1 then of limb k, so reversing the four 32-bit
 * lanes gives limbs k and k+1 in memory order (one PSHUFD / REV64+EXT), both directions. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
#  define LF_WORDS_VEC 1
typedef uint32_t lf_words_v4 __attribute__((vector_size(16)));

static inline void lf_words_rev4(void *dst, const void *src)
{
	lf_words_v4 v;
	memcpy(&v, src, sizeof v);
#  if defined(__clang__)
	v = __builtin_shufflevector(v, v, 3, 2, 1, 0);
#  else
	v = __builtin_shuffle(v, (lf_words_v4){ 3, 2, 1, 0 });
#  endif
	memcpy(dst, &v, sizeof v);
}
#else
#  define LF_WORDS_VEC 0
#endif

/* {limbs, (w+1)/2} = the w words of be */
static inline void lf_words_to_limbs(uint64_t *limbs, const uint32_t *be, size_t w)
{
	size_t k = 0;
#if LF_WORDS_VEC
	for (; 2 * k + 3 < w; k += 2)
		lf_words_rev4(limbs + k, be + w - 2 * k - 4);
#endif
	for (; 2 * k + 1 < w; k++) {
		uint64_t pair;
		memcpy(&pair, be + w - 2 * k - 2, sizeof pair);
		limbs[k] = lf_words_rot32(pair);
	}
	if (w & 1)
		limbs[k] = be[0];
}

/* the w low words of {limbs, (w+1)/2} into be */
static inline void lf_limbs_to_words(uint32_t *be, const uint64_t *limbs, size_t w)
{
	size_t k = 0;
#if LF_WORDS_VEC
	for (; 2 * k + 3 < w; k += 2)
		lf_words_rev4(be + w - 2 * k - 4, limbs + k);
#endif
	for (; 2 * k + 1 < w; k++) {
		uint64_t pair = lf_words_rot32(limbs[k]);
		memcpy(be + w - 2 * k - 2, &pair, sizeof pair);
	}
	if (w & 1)
		be[0] = (uint32_t)limbs[k];
}

#endif /* LF_WORDS_H */
