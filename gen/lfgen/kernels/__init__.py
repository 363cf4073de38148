"""The kernels, in dispatch-table order. Each module defines SPEC and VARIANTS (best first)."""

from . import (mpn_mul_1, mpn_addmul_1, mpn_sqr, bi_mul_add, bi_square_to_len, poly1305_blocks,
               mpn_mul, mpn_montmul, bi_multiply_to_len, p256_mul_mont, p256_sqr_mont,
               conditional_assign, p256_mont_mult, p256_mont_square,
               p256_mont_mult_x8, fe_field, xdh_ladder)

ALL = [mpn_mul_1, mpn_addmul_1, mpn_sqr, bi_mul_add, bi_square_to_len, poly1305_blocks,
       mpn_mul, mpn_montmul, bi_multiply_to_len, p256_mul_mont, p256_sqr_mont, conditional_assign,
       p256_mont_mult, p256_mont_square, p256_mont_mult_x8] + fe_field.MODULES + xdh_ladder.MODULES
