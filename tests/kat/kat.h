/*
 * kat.h -- types of the known-answer vectors that tests/kat/gen_vectors.py writes into
 * build/<arch>/kat/kat_vectors.h.  Operands live in two pools (kat_limbs, kat_words);
 * the fields below are offsets into them.  (What the vectors are designed to catch: see
 * tests/kat/gen_vectors.py and tests/test_kat.c.)
 */
#ifndef LF_TEST_KAT_H
#define LF_TEST_KAT_H

#include <stddef.h>
#include <stdint.h>

struct kat_mul1 {
	const char *what;
	int addmul;            /* 0: mpn_mul_1, 1: mpn_addmul_1 */
	size_t n;
	uint64_t b;
	size_t a, r_in, r_out; /* offsets in kat_limbs; r_in only for addmul */
	uint64_t ret;
};

struct kat_sqr {
	const char *what;
	size_t n;
	size_t a, r;           /* r: 2n limbs */
};

struct kat_mul_add {
	const char *what;
	size_t out_len, offset, len;
	uint32_t k;
	int inplace;           /* `in` is the window of out */
	size_t out_in, in, out_out; /* offsets in kat_words */
	uint32_t ret;
};

struct kat_square {
	const char *what;
	size_t len;
	size_t x, z;           /* z: 2*len words */
};

#endif
