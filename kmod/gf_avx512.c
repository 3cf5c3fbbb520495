// SPDX-License-Identifier: GPL-2.0
/*
 * AVX-512BW split-nibble multiply on 64-byte lanes; VPTERNLOGQ folds the
 * two table halves and the accumulator in one instruction.
 */
#include <linux/kernel.h>
#include <asm/intel-family.h>
#include <asm/processor.h>

#include "gf_impl.h"
#include "gf_x86.h"

#ifdef CONFIG_AS_AVX512

static bool ecp_gf_avx512_usable(void)
{
	return boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       boot_cpu_has(X86_FEATURE_AVX2) &&
	       ecp_gf_os_has_avx() &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				 XFEATURE_MASK_AVX512, NULL);
}

/*
 * Skylake-SP lowers the core clock for a while after zmm use, which slows
 * everything else on the core; the init benchmark cannot see that cost.
 * Later generations do not have the problem (same rule as poly1305).
 */
static bool ecp_gf_avx512_preferred(void)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_data.x86 != 6)
		return true;
#ifdef INTEL_FAM6_SKYLAKE_X
	return boot_cpu_data.x86_model != INTEL_FAM6_SKYLAKE_X;
#else
	return boot_cpu_data.x86_vfm != INTEL_SKYLAKE_X;
#endif
}

/* zmm7 = 0x0f mask, zmm4 = low nibble table, zmm5 = high nibble table */
static void ecp_gf_avx512_load(const struct ecp_gf_coef *k)
{
	asm volatile("vpbroadcastd %0, %%zmm7" : : "r" (0x0f0f0f0fU));
	asm volatile("vbroadcasti32x4 %0, %%zmm4" : : "m" (ECP_IN16(k->lo)));
	asm volatile("vbroadcasti32x4 %0, %%zmm5" : : "m" (ECP_IN16(k->hi)));
}

/* zmm0, zmm1 = table lookups for src[0..64); result is zmm0 ^ zmm1 */
static __always_inline void ecp_gf_avx512_split(const u8 *src)
{
	asm volatile("vmovdqu64 %0, %%zmm0" : : "m" (ECP_IN64(src)));
	asm volatile("vpsrlw $4, %zmm0, %zmm1");
	asm volatile("vpandq %zmm7, %zmm0, %zmm0");
	asm volatile("vpandq %zmm7, %zmm1, %zmm1");
	asm volatile("vpshufb %zmm0, %zmm4, %zmm0");
	asm volatile("vpshufb %zmm1, %zmm5, %zmm1");
}

/* The same for src[64..128) into zmm2, zmm3. */
static __always_inline void ecp_gf_avx512_split2(const u8 *src)
{
	asm volatile("vmovdqu64 %0, %%zmm2" : : "m" (ECP_IN64(src)));
	asm volatile("vpsrlw $4, %zmm2, %zmm3");
	asm volatile("vpandq %zmm7, %zmm2, %zmm2");
	asm volatile("vpandq %zmm7, %zmm3, %zmm3");
	asm volatile("vpshufb %zmm2, %zmm4, %zmm2");
	asm volatile("vpshufb %zmm3, %zmm5, %zmm3");
}

static void ecp_gf_avx512_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
				  const u8 *src, size_t len)
{
	ecp_gf_avx512_load(k);
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		ecp_gf_avx512_split(src);
		ecp_gf_avx512_split2(src + 64);
		/* 0x96 = a ^ b ^ c */
		asm volatile("vpternlogq $0x96, %0, %%zmm1, %%zmm0"
			     : : "m" (ECP_IN64(dst)));
		asm volatile("vpternlogq $0x96, %0, %%zmm3, %%zmm2"
			     : : "m" (ECP_IN64(dst + 64)));
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		asm volatile("vmovdqu64 %%zmm2, %0" : "=m" (ECP_OUT64(dst + 64)));
	}
	if (len >= 64) {
		ecp_gf_avx512_split(src);
		asm volatile("vpternlogq $0x96, %0, %%zmm1, %%zmm0"
			     : : "m" (ECP_IN64(dst)));
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		len -= 64;
		src += 64;
		dst += 64;
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul_acc(k, dst, src, len);
}

static void ecp_gf_avx512_mul(const struct ecp_gf_coef *k, u8 *dst,
			      const u8 *src, size_t len)
{
	ecp_gf_avx512_load(k);
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		ecp_gf_avx512_split(src);
		ecp_gf_avx512_split2(src + 64);
		asm volatile("vpxorq %zmm1, %zmm0, %zmm0");
		asm volatile("vpxorq %zmm3, %zmm2, %zmm2");
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		asm volatile("vmovdqu64 %%zmm2, %0" : "=m" (ECP_OUT64(dst + 64)));
	}
	if (len >= 64) {
		ecp_gf_avx512_split(src);
		asm volatile("vpxorq %zmm1, %zmm0, %zmm0");
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		len -= 64;
		src += 64;
		dst += 64;
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul(k, dst, src, len);
}

static void ecp_gf_avx512_xor(const struct ecp_gf_coef *k, u8 *dst,
			      const u8 *src, size_t len)
{
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		asm volatile("vmovdqu64 %0, %%zmm0" : : "m" (ECP_IN64(src)));
		asm volatile("vmovdqu64 %0, %%zmm1" : : "m" (ECP_IN64(src + 64)));
		asm volatile("vpxorq %0, %%zmm0, %%zmm0" : : "m" (ECP_IN64(dst)));
		asm volatile("vpxorq %0, %%zmm1, %%zmm1"
			     : : "m" (ECP_IN64(dst + 64)));
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		asm volatile("vmovdqu64 %%zmm1, %0" : "=m" (ECP_OUT64(dst + 64)));
	}
	if (len >= 64) {
		asm volatile("vmovdqu64 %0, %%zmm0" : : "m" (ECP_IN64(src)));
		asm volatile("vpxorq %0, %%zmm0, %%zmm0" : : "m" (ECP_IN64(dst)));
		asm volatile("vmovdqu64 %%zmm0, %0" : "=m" (ECP_OUT64(dst)));
		len -= 64;
		src += 64;
		dst += 64;
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_xor(k, dst, src, len);
}

/* zmm(acc) ^= c * zmm0 for the tables in zmm4/zmm5; zmm0, zmm1 scratch */
#define ECP_GF_AVX512_MAC(acc)						\
	do {								\
		asm volatile("vpsrlw $4, %zmm0, %zmm1");		\
		asm volatile("vpandq %zmm7, %zmm0, %zmm0");		\
		asm volatile("vpandq %zmm7, %zmm1, %zmm1");		\
		asm volatile("vpshufb %zmm0, %zmm4, %zmm0");		\
		asm volatile("vpshufb %zmm1, %zmm5, %zmm1");		\
		asm volatile("vpternlogq $0x96, %zmm1, %zmm0, %zmm" #acc); \
	} while (0)

#define ECP_GF_AVX512_MAC64(src, acc)					\
	do {								\
		asm volatile("vmovdqu64 %0, %%zmm0" : : "m" (ECP_IN64(src))); \
		ECP_GF_AVX512_MAC(acc);					\
	} while (0)

static __always_inline void ecp_gf_avx512_tables(const struct ecp_gf_coef *k)
{
	asm volatile("vbroadcasti32x4 %0, %%zmm4" : : "m" (ECP_IN16(k->lo)));
	asm volatile("vbroadcasti32x4 %0, %%zmm5" : : "m" (ECP_IN16(k->hi)));
}

/*
 * dst is read and written once per 256 bytes, held in zmm8..zmm11; the
 * last bytes go through masked loads and stores instead of scalar code.
 */
static void ecp_gf_avx512_mul_acc_multi(const struct ecp_gf_coef *const k[],
					u8 *dst, const u8 *const src[],
					unsigned int n, size_t off, size_t len)
{
	size_t end = off + len;
	unsigned int j;

	asm volatile("vpbroadcastd %0, %%zmm7" : : "r" (0x0f0f0f0fU));
	for (; off + 256 <= end; off += 256) {
		u8 *d = dst + off;

		asm volatile("vmovdqu64 %0, %%zmm8" : : "m" (ECP_IN64(d)));
		asm volatile("vmovdqu64 %0, %%zmm9" : : "m" (ECP_IN64(d + 64)));
		asm volatile("vmovdqu64 %0, %%zmm10" : : "m" (ECP_IN64(d + 128)));
		asm volatile("vmovdqu64 %0, %%zmm11" : : "m" (ECP_IN64(d + 192)));
		for (j = 0; j < n; j++) {
			const u8 *s = src[j] + off;

			ecp_gf_avx512_tables(k[j]);
			ECP_GF_AVX512_MAC64(s, 8);
			ECP_GF_AVX512_MAC64(s + 64, 9);
			ECP_GF_AVX512_MAC64(s + 128, 10);
			ECP_GF_AVX512_MAC64(s + 192, 11);
		}
		asm volatile("vmovdqu64 %%zmm8, %0" : "=m" (ECP_OUT64(d)));
		asm volatile("vmovdqu64 %%zmm9, %0" : "=m" (ECP_OUT64(d + 64)));
		asm volatile("vmovdqu64 %%zmm10, %0" : "=m" (ECP_OUT64(d + 128)));
		asm volatile("vmovdqu64 %%zmm11, %0" : "=m" (ECP_OUT64(d + 192)));
	}
	for (; off + 64 <= end; off += 64) {
		asm volatile("vmovdqu64 %0, %%zmm8" : : "m" (ECP_IN64(dst + off)));
		for (j = 0; j < n; j++) {
			ecp_gf_avx512_tables(k[j]);
			ECP_GF_AVX512_MAC64(src[j] + off, 8);
		}
		asm volatile("vmovdqu64 %%zmm8, %0" : "=m" (ECP_OUT64(dst + off)));
	}
	if (off < end) {
		/* Masked-off bytes load as 0, whose product is 0. */
		ecp_gf_zmm_tail_mask(end - off);
		asm volatile("vmovdqu8 %0, %%zmm8%{%%k1%}%{z%}"
			     : : "m" (ECP_IN64(dst + off)));
		for (j = 0; j < n; j++) {
			ecp_gf_avx512_tables(k[j]);
			asm volatile("vmovdqu8 %0, %%zmm0%{%%k1%}%{z%}"
				     : : "m" (ECP_IN64(src[j] + off)));
			ECP_GF_AVX512_MAC(8);
		}
		asm volatile("vmovdqu8 %%zmm8, %0%{%%k1%}"
			     : "+m" (ECP_OUT64(dst + off)));
	}
	asm volatile("vzeroupper");
}

const struct ecp_gf_impl ecp_gf_avx512 = {
	.name = "avx512",
	.usable = ecp_gf_avx512_usable,
	.preferred = ecp_gf_avx512_preferred,
	.simd = true,
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_avx512_mul_acc,
		[ECP_GF_MUL] = ecp_gf_avx512_mul,
		[ECP_GF_XOR] = ecp_gf_avx512_xor,
	},
	.mul_acc_multi = ecp_gf_avx512_mul_acc_multi,
};

#endif /* CONFIG_AS_AVX512 */
