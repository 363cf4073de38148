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

struct kat_mul {               /* mpn_mul, an >= bn >= 1 */
	const char *what;
	size_t an, bn;
	size_t a, b, r;        /* offsets in kat_limbs; r: an+bn limbs */
};

struct kat_montmul {           /* mpn_montmul, a, b < N: r fully reduced */
	const char *what;
	size_t n;
	uint64_t n0inv;        /* -N^-1 mod 2^64 */
	size_t N, a, b, r;     /* offsets in kat_limbs */
};

struct kat_mtl {               /* bi_multiply_to_len */
	const char *what;
	size_t xlen, ylen;
	int same;              /* y is the same array as x */
	size_t x, y, z;        /* offsets in kat_words; z: xlen+ylen words */
};

struct kat_p256 {              /* p256_mul_mont (and p256_sqr_mont where sqr): a, b < p;
                                * kat_p256m: p256_mont_mult/square/mult_x8, 5 limbs of 52 bits */
	const char *what;
	int sqr;               /* a == b: also a p256_sqr_mont vector */
	size_t a, b, r;        /* offsets in kat_limbs; 4 limbs each */
};

struct kat_assign {            /* conditional_assign: r = set ? b : a */
	const char *what;
	int set;
	size_t n;
	size_t a, b, r;        /* offsets in kat_limbs; n limbs each */
};

/* EC field products fe_<field>_mul / fe_<field>_square (tests/kat/gen_fe.py ->
 * build/<arch>/tests/kat/fe_vectors.h): limbs are offsets into kat_fe_limbs. */
#define KAT_FE_MAXLIMBS 20
struct kat_fe {
	const char *what;
	int sqr;               /* a == b: also a square vector */
	size_t a, b, r;        /* r: a b mod p fully reduced, canonical digits */
};

struct kat_fe_field {
	const char *field;     /* the description's name, "c25519_r51" */
	size_t limbs;
	unsigned bits, power;  /* radix 2^bits; canonical values below 2^power */
	const char *p;         /* hex */
	int64_t M[KAT_FE_MAXLIMBS][2];      /* what mul and square accept, per limb [lo, hi] */
	int64_t mul[KAT_FE_MAXLIMBS][2];    /* what mul returns */
	int64_t square[KAT_FE_MAXLIMBS][2]; /* what square returns */
	size_t first, count;   /* the field's vectors in kat_fe */
};

/* The ladder kernels x25519_ladder / x448_ladder and fe_c25519_r51_mul_x4 (tests/kat/
 * gen_ladder.py -> ladder_vectors.h): limbs are offsets into kat_lad_limbs, bytes into
 * kat_lad_bytes. */
struct kat_lad {
	const char *what;
	size_t k;              /* nbytes of clamped scalar */
	size_t u;              /* the kernel's input limbs */
	size_t x2, z2, aff;    /* RFC 7748's ladder mod p and x2 / z2 (0 if z2 = 0), canonical */
};

struct kat_lad_curve {
	const char *name;      /* "x25519" */
	size_t limbs;
	unsigned radix, bits, nbytes;   /* limbs of radix bits; ladder bits; scalar bytes */
	const char *p;         /* hex */
	unsigned a24;
	size_t first, count;   /* the curve's vectors in kat_lad */
	struct {
		uint8_t k[56], u[56], out[56];
	} rfc[2];              /* RFC 7748 5.2 (bytes as in the RFC: unclamped k) */
	uint8_t iter1[56], iter1000[56];   /* 5.2's iterated test after 1 and 1000 */
};

struct kat_x4 {
	const char *what;
	int same;              /* a == b */
	size_t a, b, r;        /* int64_t[20] limb-major; r canonical digits per lane */
};

/* Poly1305 (tests/kat/gen_poly1305.py -> poly1305_vectors.h): byte fields are offsets into
 * kat_p1305_bytes. */
struct kat_p1305_mac {
	const char *what;
	size_t key, msg, len;  /* key: 32 bytes */
	uint8_t tag[16];
};

struct kat_p1305_blocks {      /* the kernel contract: h = (h + block + pad 2^128) r mod p */
	const char *what;
	uint64_t h[3];         /* h0, h1, h2 on entry (h2 <= 4) */
	uint64_t r[2];         /* clamped r0, r1 */
	size_t msg, nblocks;
	uint64_t pad;
	uint64_t want[3];      /* the result mod 2^130-5, canonical (< p) */
};

struct kat_p1305_jdk {         /* Poly1305.processMultipleBlocks on 5 x 26-bit limbs */
	const char *what;
	int64_t acc[5], r[5];
	size_t msg, len;
	int has_java;          /* the limbs are in Java's range: java[] is the Java model's output */
	int64_t java[5];
	uint64_t want[3];      /* the result mod 2^130-5, canonical (< p) */
};

/* P-256 ECDH (tests/kat/gen_ecdh.py -> build/<arch>/tests/kat/ecdh_vectors.h): rc is 0 or an
 * LF_P256_E* code; x is the expected shared x (all zero on error). */
struct kat_ecdh {
	const char *what;
	uint8_t scalar[32];
	uint8_t point[65];
	int rc;
	uint8_t x[32];
};

/* EC field kernels (tests/kat/gen_fields.py -> build/<arch>/tests/kat/fields_vectors.h).
 * Limbs are offsets into kat_fld_limbs (int64_t, `limbs` of them), bytes and expected values
 * into kat_fld_bytes (`nbytes` little-endian bytes each). */
enum kat_fld_op {
	KAT_FLD_MUL, KAT_FLD_SQUARE, KAT_FLD_ADD, KAT_FLD_SUB, KAT_FLD_NEG, KAT_FLD_CARRY,
	KAT_FLD_CARRY_REDUCE, KAT_FLD_ENCODE, KAT_FLD_DECODE, KAT_FLD_INVERT, KAT_FLD_MUL_SMALL,
	KAT_FLD_LADDER_STEP, KAT_FLD_CHAIN, KAT_FLD_NOPS
};
/* the bounds of the contract, as the generator documents them in each field's header:
 * 2 * limbs values (lo, hi per limb) at kat_fld_limbs[bound[i]] */
enum kat_fld_bound {
	KAT_FLD_R, KAT_FLD_M, KAT_FLD_L, KAT_FLD_A, KAT_FLD_SUB_A, KAT_FLD_SUB_B, KAT_FLD_NEG_IN,
	KAT_FLD_OUT_MUL, KAT_FLD_OUT_SQUARE, KAT_FLD_OUT_ADD, KAT_FLD_OUT_SUB, KAT_FLD_OUT_NEG,
	KAT_FLD_OUT_CARRY, KAT_FLD_OUT_CARRY_REDUCE, KAT_FLD_OUT_DECODE, KAT_FLD_OUT_MUL_SMALL,
	KAT_FLD_NBOUNDS
};
struct kat_fld_field {
	const char *name;
	int limbs, bits, power, nbytes;
	int is_signed;         /* JDK layout: centred limbs; else native digits */
	int wide;              /* > 32-bit limbs: needs __int128 (LF_FE_WIDE) */
	int max_adds;
	int a24;               /* curves: (A - 2) / 4; else 0 */
	size_t p;              /* offset in kat_fld_bytes */
	size_t bound[KAT_FLD_NBOUNDS];
};
/* op inputs: mul/sub/add a, b; square/neg/carry/carry_reduce/encode/invert/mul_small a;
 * decode the bytes; ladder_step x2, z2, x3, z3, x1; chain e0, e1, g0, g1 (the sums
 * e0 + max_adds e1 and g0 + max_adds g1).  want: the value mod p (decode: the exact value,
 * bits at or above 2^power dropped; ladder_step: x2, z2, x3, z3; chain: the product, the
 * square of the first sum and, for curves, a24 times it).  flag (chain): 1 = the elements
 * are the hi corner of R (the sum is then the hi corner of M), 2 = the lo corner. */
struct kat_fld_case {
	unsigned field;
	enum kat_fld_op op;
	int flag;
	const char *what;
	size_t in[5];
	size_t want[4];
};

/* X25519 / X448 (tests/kat/gen_xdh.py -> build/<arch>/tests/kat/xdh_vectors.h): curve 25519
 * (32-byte fields) or 448 (56); rc 0 or LF_XDH_EZERO (out all zeros). */
struct kat_xdh {
	const char *what;
	int curve;
	int rc;
	uint8_t scalar[56], u[56], out[56];
};

#endif
