#!/bin/sh
# mutants.sh -- does the suite fail when the code is broken?  (`make test-mutants`, ~65 min on 2 vCPUs)
#
# Fault this is designed to catch: tests that cannot fail.  Each mutant copies the tree
# (without build/ and .git/) into a scratch directory, applies one deliberate bug with a perl
# substitution -- a dropped carry, an over-read, a stray write, a wrong window, a lost bit, a
# broken CPU decoder, a dispatcher that ignores features, a clobbered callee-saved register in
# generated assembly, ... -- builds the host suite there and runs the suites named; the
# mutant must make the run fail.  Prints CAUGHT / MISSED / STALE (the substitution no longer
# applies because the source changed: update the pattern) per mutant; exits 1 unless every
# mutant is caught.  Nothing in the working tree is modified.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# each mutant copies $top: refuse anything but this repository (a copy of the script run from
# another directory would copy that directory's parent, / for /tmp)
if [ ! -f "$top/Makefile" ] || [ ! -d "$top/gen/lfgen" ] || [ ! -d "$top/generated" ]; then
	echo "mutants.sh: $top is not the limbforge tree; run the script from its tests/" >&2
	exit 2
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/limbforge-mutants.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
bad=0

mutant() {
	name=$1 file=$2 subst=$3
	shift 3
	d=$scratch/$name
	mkdir -p "$d"
	(cd "$top" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$d" && tar xf -)
	cp "$d/$file" "$d/$file.orig"
	perl -0pi -e "$subst" "$d/$file"
	if cmp -s "$d/$file" "$d/$file.orig"; then
		echo "STALE   $name: the substitution no longer matches $file"
		bad=1
		return
	fi
	if ! make -s -C "$d" ARCH=x86_64 build/x86_64/tests/check_limbforge >"$d/build.log" 2>&1; then
		echo "STALE   $name: the mutant does not build"
		tail -3 "$d/build.log"
		bad=1
		return
	fi
	if (cd "$d" && build/x86_64/tests/check_limbforge "$@" >run.log 2>&1); then
		echo "MISSED  $name ($file; suites: $*)"
		bad=1
	else
		echo "CAUGHT  $name: $(grep -m1 -E ':[FE]:' "$d/run.log" | cut -d: -f7- | cut -c1-150)"
	fi
	rm -rf "$d"
}

M=runtime/ref/mpn_ref.c
B=runtime/ref/bigint_ref.c
mutant addmul_dropped_carry $M 's/(lo \+= rp\[i\];)\n\t\thi \+= lo < rp\[i\];/$1/' kat mpn
mutant mul_1_reads_past_end $M 's/(cy = hi;\n\t\}\n)(\treturn cy;\n\}\n\nuint64_t lf_mpn_addmul_1_ref)/$1\tif (n)\n\t\tcy += 0 * ((volatile const uint64_t *)ap)[n];\n$2/' mpn
mutant mul_1_writes_past_end $M 's/(cy = hi;\n\t\}\n)(\treturn cy;\n\}\n\nuint64_t lf_mpn_addmul_1_ref)/$1\tif (n)\n\t\trp[n] = cy;\n$2/' mpn
mutant sqr_dropped_carry $M 's/\t\tc1 \+= s1 < c0;\n//' mpn_sqr
mutant sqr_writes_when_n_0 $M 's/if \(n == 0\)\n\t\treturn;\n\trp\[0\] = 0;/if (n == 0) {\n\t\trp[0] = 0;\n\t\treturn;\n\t}\n\trp[0] = 0;/' mpn_sqr
mutant bi_limb_path_short_copy runtime/api_bigint.c 's/lf_limbs_to_words\(z, t \+ xn \+ yn, xlen \+ ylen\);/lf_limbs_to_words(z, t + xn + yn, xlen + ylen - 1);/' api
mutant bi_sqr_limb_path_odd_len runtime/api_bigint.c 's/size_t n = \(len \+ 1\) \/ 2;/size_t n = len \/ 2;/' api
mutant words_odd_top_dropped runtime/lf_words.h 's/\tif \(w & 1\)\n\t\tbe\[0\] = \(uint32_t\)limbs\[k\];\n//' api
mutant words_pair_not_rotated runtime/lf_words.h 's/uint64_t pair = lf_words_rot32\(limbs\[k\]\);/uint64_t pair = limbs[k];/' api
mutant words_vector_lanes_swapped runtime/lf_words.h 's/\(lf_words_v4\)\{ 3, 2, 1, 0 \}/(lf_words_v4){ 1, 0, 3, 2 }/' api
mutant mul_add_window_off_by_one $B 's/size_t o = out_len - offset - 1;/size_t o = out_len - offset - 2;/' bigint
mutant mul_add_reads_before_in $B 's/(size_t o = out_len - offset - 1;\n)/$1\tif (len)\n\t\tcarry = 0 * ((volatile const uint32_t *)in)[-1];\n/' bigint
mutant mul_add_no_carry_out $B 's/(\t\tcarry = product >> 32;\n\t\}\n\treturn) \(uint32_t\)carry;/$1 0;/' kat bigint
mutant square_lost_low_bit $B 's/\tz\[zlen - 1\] \|= x\[len - 1\] & 1;\n//' kat bigint_sqr
mutant decode_ignores_zmm_state runtime/cpu.c 's/zmm = ymm && \(c->xcr0 & 0xe0\) == 0xe0;/zmm = ymm;/' dispatch
mutant parse_adds_undetected runtime/cpu.c 's/f \|= bit & detected;/f |= bit;/' dispatch
mutant choose_not_best runtime/dispatch.c 's/\tfor \(; \*o != LF_ORDER_END; o\+\+\)\n\t\tif \(\(k->variants\[\*o\].features & ~allowed\) == 0\)\n\t\t\treturn \*o;/\tsize_t pick = k->count - 1;\n\tfor (; *o != LF_ORDER_END; o++)\n\t\tif ((k->variants[*o].features & ~allowed) == 0 && *o != k->count - 1)\n\t\t\tpick = *o;\n\treturn pick;/' dispatch
mutant choose_ignores_schedule runtime/dispatch.c 's/const uint8_t \*o = k->order\[sched\];/const uint8_t *o = k->order[0];/' dispatch schedule
mutant select_ignores_vendor runtime/schedule.c 's/\tif \(s->vendor && strcmp\(s->vendor, id->vendor\) != 0\)\n\t\treturn 0;\n//' schedule
mutant midr_part_misread runtime/schedule.c 's/id->part = \(midr >> 4\) & 0xfff;/id->part = (midr >> 8) & 0xfff;/' schedule
mutant force_ignores_features runtime/dispatch.c 's/\t\tif \(k->variants\[j\].features & ~allowed\)\n\t\t\treturn -1;\n//' mask
mutant mask_keeps_slots runtime/cpu.c 's/(atomic_fetch_and_explicit\(&allowed_mask, allowed, memory_order_release\);)\n\tlf_dispatch_reset\(\);[^\n]*/$1/' mask
mutant api_swaps_offset_len runtime/api_bigint.c 's/\(out, out_len, in, offset, len, k\)/(out, out_len, in, len, offset, k)/' api
P=runtime/ref/poly1305_ref.c
A=runtime/api_poly1305.c
mutant p1305_dropped_carry $P 's/\t\tc \+= h1 < m1;\n//' poly1305
mutant p1305_reads_past_end $P 's/(uint64_t m0 = load64_le\(m\), m1 = load64_le\(m \+ 8\), c;)/$1\n\t\tif (nblocks == 1)\n\t\t\tc = 0 * ((volatile const uint8_t *)m)[16];/' poly1305
mutant p1305_no_final_reduction $A 's/uint64_t mask = \(uint64_t\)0 - \(g2 >> 2\);/uint64_t mask = 0;/' poly1305
mutant p1305_s_carry_dropped $A 's/uint64_t t1 = h1 \+ st->s\[1\] \+ c;/uint64_t t1 = h1 + st->s[1];/' poly1305
mutant p1305_buffer_off_by_one $A 's/if \(have < 16\) \{/if (have < 15) {/' poly1305
mutant p1305_state_not_wiped $A 's/\tlf_wipe\(st, sizeof \*st\);\n/\tst->buflen = 0;\n/' poly1305
mutant p1305_jdk_unreduced_input $A 's/\treduce_partial\(h\);     \/\* h2 <= 4, as the kernel wants \*\/\n//' poly1305
mutant first_call_stub_not_published generated/dispatch_table.c 's/\(\(lf_mpn_addmul_1_fn\)lf_dispatch_resolve\(LF_K_mpn_addmul_1\)\)/((lf_mpn_addmul_1_fn)lf_kernel_table[LF_K_mpn_addmul_1].variants[0].fn)/' mask
mutant asm_clobbers_rbx generated/x86_64/mpn_addmul_1_adx.S 's/(LF_FUNC_BEGIN\(lf_mpn_addmul_1_adx\)\n)/$1\txorl\t%ebx, %ebx\n/' abi
mutant asm_adc_to_add generated/x86_64/mpn_mul_1_mulx.S 's/\badcq(\t%r\w+, %r\w+)/addq$1/' mpn
mutant asm_mul_1_short_carry_dropped generated/x86_64/mpn_mul_1_mulx.S 's/(\taddq\t%r\w+, (%r\w+)\n\tmovq\t\2, 8\(%rdi\)\n)\tadcq\t\$0, %r\w+\n/$1/' mpn
mutant asm_addmul_1_short_rp_not_added generated/x86_64/mpn_addmul_1_adx.S 's/\tadoxq\t8\(%rdi\), %r\w+\n//' mpn
mutant asm_mpn_mul_small_window_carry_lost generated/x86_64/mpn_mul_adx.S 's/(\tadcxq\t(%r\w+), (%r\w+)\n)\tadoxq\t\2, \3\n/$1/' mpn_mul
mutant asm_mpn_mul_prefix_past_small generated/x86_64/mpn_mul_adx.S 's/cmpq\t\$8, %rdx\n(\tja\t\.L\w+_frame\n)/cmpq\t\$10, %rdx\n$1/' mpn_mul
# the BigInteger kernels' straight-line small paths come first in their files: the first
# match is in them (the (2,2) product's row 1, the 2-digit square's final pass, the 3-word
# mulAdd's top word)
mutant asm_bi_mul_ybuf_rows_past_cap generated/x86_64/bi_multiply_to_len_adx.S 's/cmpq\t\$447, (%r\w+)\n\tja\t(\.L\w+_rows_y_rotating)/cmpq\t\$448, $1\n\tja\t$2/' bigint_mul
mutant asm_bi_mul_ifma_in_not_reversed generated/x86_64/bi_multiply_to_len_ifma.S 's/(\tkmovq\t%r\w+, %k\d\n\tvmovdqu8\t\(%r\w+\), (%zmm\d+)\{%k\d\}\{z\}\n)\tvpermd\t[^\n]*\n/$1/' bigint_mul
mutant asm_bi_mul_ifma_out_not_reversed generated/x86_64/bi_multiply_to_len_ifma.S 's/(\tvpermb\t%zmm\d+, %zmm\d+, %zmm\d+\n)\tvpermd\t[^\n]*\n/$1/' bigint_mul
mutant asm_bi_mul_ifma_in_mask_low generated/x86_64/bi_multiply_to_len_ifma.S 's/\tshlxq\t(%r\w+), (%r\w+), %r\w+\n(\tkmovq\t\2, %k1\n\tvmovdqu8)/$3/' bigint_mul
mutant asm_bi_mul_ifma_out_mask_low generated/x86_64/bi_multiply_to_len_ifma.S 's/\tshlxq\t(%r\w+), (%r\w+), %r\w+\n(\tkmovq\t\2, %k7\n)/$3/' bigint_mul
mutant asm_bi_mul_small_top_of_lost generated/x86_64/bi_multiply_to_len_adx.S 's/(\tadcxq\t(%r\w+), (%r\w+)\n)\tadoxq\t\2, \3\n/$1/' bigint_mul
mutant asm_bi_mul_small_x_row_multiplier_not_b0 generated/x86_64/bi_multiply_to_len_adx.S 's/(\tja\t\.L\w+_small_s_gt1_\d+\n)\tmovq\t%r\w+, %rdx\n/$1/' bigint_mul
mutant asm_bi_mul_prefix_below_red_zone generated/x86_64/bi_multiply_to_len_adx.S 's/-8\(%rsp\)/-256(%rsp)/g' abi
mutant asm_bi_mul_prefix_past_small generated/x86_64/bi_multiply_to_len_adx.S 's/cmpq\t\$12, %rsi\n(\tja\t\.L\w+_frame\n)\tcmpq\t\$12, %rcx/cmpq\t\$14, %rsi\n$1\tcmpq\t\$14, %rcx/' bigint_mul
mutant asm_bi_sqr_ifma_in_not_reversed generated/x86_64/bi_square_to_len_ifma.S 's/(\tkmovq\t%r\w+, %k\d\n\tvmovdqu8\t\(%r\w+\), (%zmm\d+)\{%k\d\}\{z\}\n)\tvpermd\t[^\n]*\n/$1/' bigint_sqr
mutant asm_bi_sqr_ifma_out_not_reversed generated/x86_64/bi_square_to_len_ifma.S 's/(\tvpermb\t%zmm\d+, %zmm\d+, %zmm\d+\n)\tvpermd\t[^\n]*\n/$1/' bigint_sqr
mutant asm_bi_sqr_ifma_out_mask_low generated/x86_64/bi_square_to_len_ifma.S 's/\tshlxq\t(%r\w+), (%r\w+), %r\w+\n(\tkmovq\t\2, %k7\n)/$3/g' bigint_sqr
mutant asm_bi_sqr_small_top_of_lost generated/x86_64/bi_square_to_len_adx.S 's/(\tadcxq\t(%r\w+), (%r\w+)\n)\tadoxq\t\2, \3\n/$1/' bigint_sqr
mutant asm_bi_sqr_prefix_past_small generated/x86_64/bi_square_to_len_adx.S 's/cmpq\t\$20, %rsi\n(\tja\t\.L\w+_frame\n)/cmpq\t\$22, %rsi\n$1/' bigint_sqr
mutant asm_bi_mul_add_small_top_carry_lost generated/x86_64/bi_mul_add_mulx.S 's/(\timulq\t%rdx, (%r\w+)\n\taddq\t%r\w+, \2\n)\taddq\t%r\w+, \2\n/$1/' bigint
mutant asm_bi_mul_add_adx_small_of_lost generated/x86_64/bi_mul_add_adx__znver5.S 's/(\tadcxq\t(%r\w+), (%r\w+)\n)\tadoxq\t\2, \3\n/$1/' bigint

MP=runtime/modpow.c
mutant mul_row_carry_lost $M 's/rp\[an \+ j\] = lf_mpn_addmul_1_ref/rp[an + j] = 0 * lf_mpn_addmul_1_ref/' mpn_mul
mutant multiply_to_len_first_carry $B 's/\tz\[xstart\] = \(uint32_t\)carry;\n/\tz[xstart] = 0;\n/' bigint_mul
mutant montmul_never_subtracts $M 's/uint64_t mask = \(uint64_t\)0 - \(\(\(top - borrow\) >> 63\) \^ 1\);/uint64_t mask = 0;/' montmul
mutant montmul_top_carry_lost $M 's/top = t_n1 \+ \(rp\[n - 1\] < cy\);/top = rp[n - 1] < cy;/' montmul
mutant modpow_ct_gathers_wrong_entry $MP 's/\(\(\(uint64_t\)\(k \^ idx\)\) - 1\) >> 63/(((uint64_t)(k ^ idx ^ 1)) - 1) >> 63/' modpow
# (the AVX2 gather: a host without AVX2 misses this one; tests.mk runs modpow under -avx2 for the other)
mutant modpow_ct_avx2_gather_wrong_block $MP 's/memcpy\(&e3, p \+ 12, 32\);/memcpy(&e3, p + 8, 32);/' modpow
mutant modpow_window_ends_on_0 $MP 's/\t\t\twhile \(!ebit\(exp, exp_len, j\)\)\n\t\t\t\tj\+\+;\n//' modpow
mutant asm_ifma_digit0_carry generated/x86_64/mpn_montmul_ifma.S 's/shrdq\t\$52, /shrdq\t\$51, /' montmul
mutant asm_montmul_borrow_lost generated/x86_64/mpn_montmul_adx.S 's/\bsbbq\t\$0, (%r\w+)/subq\t\$0, $1/' montmul
# the unrolled small-n CIOS (the last SBB $0 followed by N & mask: n = 8's borrow into t_n)
mutant asm_montmul_small_borrow_lost generated/x86_64/mpn_montmul_adx.S 's/(.*)\bsbbq\t\$0, (%r\w+)(\n\tmovq\t\(%r\w+\), %r\w+\n\tandq)/$1subq\t\$0, $2$3/s' montmul
# the squaring path (ap == bp, sqr_min <= n <= 128): the REDC sum loses its carry chain; a
# REDC row's carry is not stored into the limb its row cancelled
mutant asm_montsqr_redc_sum_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(redc_add:\n\tmovq\t\(%r\w+\), %r\w+\n\t)adcq/${1}addq/' montmul
mutant asm_montsqr_redc_carry_not_stored generated/x86_64/mpn_montmul_adx.S 's/\tmovq\t%r\w+, \(%r\w+\)\n(\tleaq\t8\(%r\w+\), %r\w+\n\tdecq\t%r\w+\n\tjnz\t\.Llf_mpn_montmul_adx_redc_row\n)/$1/' montmul
# the grouped passes (K = redc_rows rows of N, or of a's product, per pass over T; K divides
# n): the carry between two groups of REDC rows, the carry of a block's T sum into the next
# block, the last carry into the product's final window
mutant asm_montmul_group_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(group_final_2:\n(?:.*\n){1,20}?\tnegq\t%r\w+\n#if defined\(LF_WIN64\)\n\t)addq\t\d+\(%rsp\)(, %r\w+\n#else\n\t)addq\t-\d+\(%rsp\)/$1addq\t\$0$2addq\t\$0/' montmul
mutant asm_montmul_redc_block_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(group_block_2:\n(?:.*\n){1,12}?)\taddq\t(%r\w+), \2\n/$1\txorq\t$2, $2\n/' montmul
mutant asm_montmul_product_final_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(group_final_3:\n(?:.*\n){1,6}?)\taddq\t(%r\w+), \2\n/$1\txorq\t$2, $2\n/' montmul
# the square's triangle (_sqr_groups): row 0's carry into the window's new top limb
mutant asm_montmul_sqr_triangle_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(sqr_group:\n(?:.*\n){10,40}?\tadoxq\t%r\w+, %r\w+\n)\tadcq\t\$0, %r\w+\n/$1/' montmul
# the grouped passes with K = 4 where n = 4 mod 8 (alt_min): the carry between two groups of
# REDC rows
mutant asm_montmul_alt_group_carry_lost generated/x86_64/mpn_montmul_adx.S 's/(group_final_5:\n(?:.*\n){1,20}?\tnegq\t%r\w+\n#if defined\(LF_WIN64\)\n\t)addq\t\d+\(%rsp\)(, %r\w+\n#else\n\t)addq\t-\d+\(%rsp\)/$1addq\t\$0$2addq\t\$0/' montmul
# the buffer's final subtraction (d = t - N into rp, then t or d selected): d's borrow chain
mutant asm_montmul_buffer_borrow_lost generated/x86_64/mpn_montmul_adx.S 's/(subtract_d_0:\n\tmovq\t[^\n]+\n\t)sbbq/${1}subq/' montmul
# the CIOS path's final subtraction (t - N bit, N_i bit by MULX): its borrow chain
mutant asm_montmul_subtract_borrow_lost generated/x86_64/mpn_montmul_adx.S 's/(_subtract_0:\n\tmulxq\t[^\n]+\n\tmovq\t[^\n]+\n\t)sbbq/${1}subq/' montmul
# the final subtraction's loops entered in the middle for n mod tail_unroll (_limb_loop): the
# entry for n = 1 mod 4 taken at the slot of n = 2 mod 4; the buffer's zeroing (_zero) one
# 16-byte store short per 64 bytes
mutant asm_montmul_tail_entry_wrong generated/x86_64/mpn_montmul_adx.S 's/\tje\t(\.Llf_mpn_montmul_adx_subtract_d)_in3\n/\tje\t$1_in2\n/' montmul
mutant asm_montmul_clear_short generated/x86_64/mpn_montmul_adx.S 's/(_clear:\n(?:\tmovdqu\t[^\n]+\n){3})\tmovdqu\t[^\n]+\n/$1/' montmul
# Poly1305 avx2 with one chain: the loop's mask register loaded from the pad row, and its r^4
# digit 1 register from digit 0's row
mutant asm_p1305_mask_register_wrong generated/x86_64/poly1305_blocks_avx2__znver3.S 's/\tvmovdqu\t512\(%rdi\), (%ymm\d+)\n(\tvmovdqu\t224\(%rdi\))/\tvmovdqu\t544(%rdi), $1\n$2/' poly1305
mutant asm_p1305_multiplier_register_wrong generated/x86_64/poly1305_blocks_avx2__znver3.S 's/(\tvmovdqu\t224\(%rdi\), %ymm\d+\n\tvmovdqu\t)256(\(%rdi\), %ymm\d+\n)/${1}224$2/' poly1305
# the IFMA finish: a lane above 2^52 - 1 after the first carry round never generates a carry
mutant asm_ifma_finish_no_generate generated/x86_64/mpn_montmul_ifma.S 's/vpcmpuq\t\$6, /vpcmpuq\t\$3, /g' montmul
# the IFMA Montgomery from 13 accumulators (79..128 limbs): t - N's second digit row read
# back from the first (only where the final subtraction is due); from 11 (66..128 limbs):
# the in-place cut of b 2^k, last block first, stepping 48 bytes down instead of 52
mutant asm_ifma_spill_reload_wrong_row generated/x86_64/mpn_montmul_ifma.S 's/vmovdqa64\t2624\((%r\w+)\), %zmm/vmovdqa64\t2560($1), %zmm/g' montmul
mutant asm_ifma_cut_b_step_wrong generated/x86_64/mpn_montmul_ifma.S 's/(addq\t\$52, %\w+\n\taddq\t)\$-52,/${1}\$-48,/g' montmul
# Karatsuba (runtime/karatsuba.c): the middle term's sign, the square's top carry
KA=runtime/karatsuba.c
mutant karatsuba_middle_sign $KA 's/if \(sa \^ sb\)/if (!(sa ^ sb))/' mpn_mul
mutant karatsuba_sqr_top_lost $KA 's/add_1\(rp \+ 3 \* h, 2 \* n - 3 \* h, c \+ top\);/add_1(rp + 3 * h, 2 * n - 3 * h, c);/' mpn_sqr
# Toom-3: the exact division by 3 drops its second borrow; the sign of the product at -1 lost
mutant toom3_div3_borrow $KA 's/c \+= \(q > 0x5555555555555555ull\) \+ \(q > 0xAAAAAAAAAAAAAAAAull\);/c += (q > 0x5555555555555555ull);/' mpn_mul mpn_sqr
mutant toom3_sign_at_minus_1 $KA 's/int neg = toom3_eval\(e1a, ema, e2a, ap, k, sa\) \^ /int neg = toom3_eval(e1a, ema, e2a, ap, k, sa) \& /' mpn_mul

PR=runtime/ref/p256_ref.c
mutant p256_never_subtracts $PR 's/uint64_t keep = \(uint64_t\)0 - \(uint64_t\)\(t\[4\] < bw\);/uint64_t keep = ~(uint64_t)0;/' p256
mutant p256_row_top_carry_lost $PR 's/t\[5\] = t\[4\] < cy;/t[5] = 0;/' p256
mutant assign_mask_one_bit $PR 's/uint64_t mask = \(uint64_t\)0 - \(uint64_t\)\(uint32_t\)set;/uint64_t mask = (uint64_t)(uint32_t)set;/' p256
mutant assign_skips_last_limb $PR 's/for \(size_t i = 0; i < n; i\+\+\) \{\n\t\tuint64_t x = \(uint64_t\)a\[i\]/for (size_t i = 0; i + 1 < n; i++) {\n\t\tuint64_t x = (uint64_t)a[i]/' p256
mutant asm_p256_mul_keeps_limb0 generated/x86_64/p256_mul_mont_adx.S 's/\bcmovc\t/cmovnc\t/' p256
mutant asm_p256_sqr_carry_lost generated/x86_64/p256_sqr_mont_adx.S 's/\badcq\t\$0, /addq\t\$0, /' p256
# Zen 5's builds form m << 32 / m >> 32 by SHL/SHR and m p3 by SUB/SBB (shift32, mp3)
mutant asm_p256_mul_shift32_off generated/x86_64/p256_mul_mont_adx__znver5.S 's/\bshrq\t\$32, /shrq\t\$31, /' p256
mutant asm_p256_sqr_mp3_borrow_lost generated/x86_64/p256_sqr_mont_adx__znver5.S 's/\bsbbq\t(%r\w+, %r\w+)\n(\taddq)/subq\t$1\n$2/' p256
mutant asm_assign_or_not_and generated/x86_64/conditional_assign_avx2.S 's/\bvpand\t/vpor\t/' p256
mutant asm_x8_select_limb0 generated/x86_64/p256_mont_mult_x8_ifma.S 's/vpternlogq\t\$228, /vpternlogq\t\$226, /' p256_mont
mutant asm_x8_t_carry_short generated/x86_64/p256_mont_mult_x8_ifma.S 's/vpsrlq\t\$52, /vpsrlq\t\$53, /' p256_mont
mutant asm_x8_e_carry_short generated/x86_64/p256_mont_mult_x8_ifma.S 's/vpsraq\t\$52, /vpsraq\t\$53, /' p256_mont
mutant asm_assign_gpr_or_not_and generated/x86_64/conditional_assign_avx2__znver5.S 's/\bandq\t%rax, /orq\t%rax, /' p256

mutant p256m_ref_never_subtracts $PR 's/uint64_t keep_t = \(uint64_t\)\(d\[4\] >> 63\);/uint64_t keep_t = ~(uint64_t)0;/' p256_mont
mutant asm_p256m_ifma_lane0_carry_lost generated/x86_64/p256_mont_mult_ifma.S 's/\tvpaddq\t(%zmm\d+), (%zmm\d+), \2\{%k\d\}\n/\tnop\n/' p256_mont
mutant asm_p256m_ifma_never_subtracts generated/x86_64/p256_mont_mult_ifma.S 's/\tvmovdqa64\t(%zmm\d+), (%zmm\d+)\{%k\d\}\n/\tnop\n/' p256_mont
# (the x8 kernel's carries are VPMULTISHIFTQB now; a high half dropped instead)
mutant asm_p256m_x8_madd52hi_dropped generated/x86_64/p256_mont_mult_x8_ifma.S 's/\tvpmadd52huq\t[^\n]*\n//' p256_mont
mutant asm_p256m_mulx_column_carry_short generated/x86_64/p256_mont_mult_mulx.S 's/\bshlq\t\$12, /shlq\t\$11, /' p256_mont
mutant asm_x8_mulx_seven_elements generated/x86_64/p256_mont_mult_x8_mulx.S 's/movq\t\$8, -8\(%rsp\)/movq\t\$7, -8(%rsp)/' p256_mont
mutant asm_x8_mulx_b_not_advanced generated/x86_64/p256_mont_mult_x8_mulx.S 's/\taddq\t\$40, -24\(%rsp\)\n//' p256_mont
mutant asm_p256m_mulx_keeps_wrong generated/x86_64/p256_mont_square_mulx.S 's/\tcmovs\t/\tcmovns\t/' p256_mont

# the field products (tests/test_fe.c; the kat suite's Python vectors)
FX=generated/x86_64
mutant asm_fe25519_mul_adc_to_add $FX/fe_c25519_r51_mul_mulx.S 's/\badcq(\t%r\w+, %r\w+)/addq$1/' fe
mutant asm_fe25519_mul_limb0_unmasked $FX/fe_c25519_r51_mul_mulx.S 's/(\tshrq\t\$51, (%r\w+)\n)\tandq\t%r10, (%r\w+)\n(\taddq\t\2, %r\w+\n\tmovq\t\3, \(%rdi\)\n)/$1$4/' fe
mutant asm_fe25519_square_carry_shift $FX/fe_c25519_r51_square_mulx.S 's/\bshrdq\t\$51, /shrdq\t\$50, /' fe
mutant asm_fe25519_square_fold_by_37 $FX/fe_c25519_r51_square_mulx.S 's/(\tleaq\t\(%r\w+,%r\w+,)2\)/${1}4)/' fe
mutant asm_fe25519_mul_split_shift $FX/fe_c25519_r51_mul_mulx__znver5.S 's/\bshlq\t\$13, /shlq\t\$12, /' fe
mutant c_fe448_carry_shift generated/fields/c448_r56.c 's/(t\d+) >> 56\)/$1 >> 55)/' fe fields
mutant c_fe448_square_pair_carry_shift generated/fields/c448_r56.c 's/(static inline void fe_square.*?)(t\d+) >> 56\)/$1$2 >> 57)/s' fe fields
# P-384 7 x 56 (its products are in tests/fe_kernels.h, so the fe suite checks them)
mutant c_fe384_mul_fold_term generated/fields/p384_r56.c 's/(static inline void fe_mul.*?)INT64_C\(-4294967295\)/$1INT64_C(-4294967294)/s' fe
mutant c_fe521_mul_fold_by_4 generated/fields/p521_r58.c 's/\* INT64_C\(2\)\);/* INT64_C(4));/' kat
mutant fe25519_ref_fold_by_18 generated/fields/c25519_r51.c 's/\(int64_t\)\(t10 \* INT64_C\(19\)\)/(int64_t)(t10 * INT64_C(18))/' kat

# the ladders and the four-lane product (tests/test_xdh.c; the kat suite's Python vectors)
XR=runtime/ref/xdh_ref.c
mutant asm_x4_madd52lo_dropped $FX/fe_c25519_r51_mul_x4_ifma.S 's/\tvpmadd52luq\t[^\n]*\n//' ladder
mutant asm_x4_carry_shift $FX/fe_c25519_r51_mul_x4_ifma.S 's/\bvpsrlq\t\$51, /vpsrlq\t\$50, /' kat
# (xdh sees only the build the host dispatches -- on a CPU with a schedule of its own, the
# @cpu build, not this file; the ladder suite calls every build through lf_x25519 / lf_x448)
mutant asm_x25519_ladder_madd52hi_dropped $FX/x25519_ladder_ifma.S 's/\tvpmadd52huq\t[^\n]*\n//' xdh ladder
mutant asm_x25519_ladder_a24 $FX/x25519_ladder_ifma.S 's/\$121665, /\$121666, /' kat
mutant asm_x25519_ladder_carry_shift $FX/x25519_ladder_ifma.S 's/\bvpsrlq\t\$51, /vpsrlq\t\$50, /' xdh ladder
mutant asm_x25519_adx_fold_by_37 $FX/x25519_ladder_adx.S 's/\timulq\t\$38, /\timulq\t\$37, /' ladder
mutant asm_x448_adx_product_adox_dropped $FX/x448_ladder_adx.S 's/\tadoxq\t[^\n]*\n//' ladder
mutant asm_x448_adx_fold_shift_31 $FX/x448_ladder_adx.S 's/\tshlq\t\$32, /\tshlq\t\$31, /g' ladder
mutant asm_x448_adx_reduce_half_limb_31 $FX/x448_ladder_adx.S 's/\tmovl\t\$32, /\tmovl\t\$31, /' ladder
mutant asm_x25519_adx_row_top_carry_lost $FX/x25519_ladder_adx.S 's/(\tadoxq\t(%r\w+), (%r\w+)\n)\tadcxq\t\2, \3\n/$1/' ladder
mutant asm_x448_ladder_madd52lo_dropped $FX/x448_ladder_ifma.S 's/\tvpmadd52luq\t[^\n]*\n//' xdh ladder
mutant asm_x448_ladder_carry_shift $FX/x448_ladder_ifma.S 's/\bvpsrlq\t\$50, /vpsrlq\t\$49, /' kat
mutant x25519_ref_254_bits $XR 's/LF_FE_C25519_R51_LIMBS, 255, /LF_FE_C25519_R51_LIMBS, 254, /' ladder
mutant x448_ref_u_bits_dropped $XR 's/\tlimbs_to_bytes\(b, nbytes, u, n, bits, nbytes == 32 \? p25519 : p448\);\n\tdec\(x1, b\);\n/\tmemcpy(x1, u, n * sizeof *u);\n/' ladder
mutant x4_ref_lanes_swapped $XR 's/r\[4 \* i \+ l\] = z\[l\]\[i\];/r[4 * i + l] = z[l ^ (i == 4)][i];/' kat

# the wide fields' inversion (runtime/lf_safegcd.h); its batch count is checked against the
# half-delta divstep bound by gen/tests/test_safegcd_constants.py (random inputs need far
# fewer)
SG=runtime/lf_safegcd.h
mutant safegcd_delta_never_flips $SG 's/z = \(int64_t\)\(zn \^ \(za & cond\)\);/z = (int64_t)zn;/' fields
# the paper's divstep (delta -> 1 -+ delta) with the half-delta batch counts: values pass
mutant safegcd_paper_divstep $SG 's/zn = \(uint64_t\)z - 2, za = zn \^ \(~\(uint64_t\)z - 1\);/zn = (uint64_t)z - 1, za = zn ^ ~(uint64_t)z;/' fields
# ... or started from the paper's delta (1, i.e. 2 doubled): only delta's walk shows it
mutant safegcd_delta_start_paper $SG 's/int64_t z = -1;( +\/\* delta = 1)/int64_t z = -2;$1/' fields
mutant safegcd_md_ignores_sign $SG 's/md -= \(int64_t\)\(\(pinv62 \* \(uint64_t\)cd \+ \(uint64_t\)md\)/md -= (int64_t)((pinv62 * (uint64_t)cd)/' fields
# P-256 ECDH's Z^-2 by the same divsteps (runtime/p256_ecdh.c, with __int128)
mutant ecdh_inverse_back_to_montgomery runtime/p256_ecdh.c 's/UINT64_C\(0xfffffeb2ffffffad\)/UINT64_C(0xfffffeb2ffffffac)/' ecdh
mutant ecdh_inverse_top_limb_dropped runtime/p256_ecdh.c 's/lf_sg_from_digits\(5, s, 4, 64, /lf_sg_from_digits(5, s, 3, 64, /' ecdh
# the Fermat chain of compilers without __int128 (tests/test_ecdh.c's narrow build)
mutant ecdh_fermat_chain_short runtime/p256_ecdh.c 's/for \(i = 0; i < 128; i\+\+\)/for (i = 0; i < 127; i++)/' ecdh

[ $bad = 0 ] && echo "mutants: every mutant was caught" || echo "mutants: FAILED"
exit $bad
