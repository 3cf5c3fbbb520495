// SPDX-License-Identifier: GPL-2.0
/*
 * AVX2 split-nibble multiply: the SSSE3 method on 32-byte lanes, with the
 * 16-byte nibble tables broadcast to both halves since VPSHUFB does not
 * cross 128-bit lanes.
 */
#include <linux/kernel.h>

#include "gf_impl.h"
#include "gf_x86.h"

static bool ecp_gf_avx2_usable(void)
{
	return boot_cpu_has(X86_FEATURE_AVX2) && ecp_gf_os_has_avx();
}

/* ymm7 = 0x0f mask, ymm4 = low nibble table, ymm5 = high nibble table */
static void ecp_gf_avx2_load(const struct ecp_gf_coef *k)
{
	asm volatile("vmovd %0, %%xmm7" : : "r" (0x0f0f0f0fU));
	asm volatile("vpbroadcastd %xmm7, %ymm7");
	asm volatile("vbroadcasti128 %0, %%ymm4" : : "m" (ECP_IN16(k->lo)));
	asm volatile("vbroadcasti128 %0, %%ymm5" : : "m" (ECP_IN16(k->hi)));
}

/* ymm0/ymm1 = c * src[0..64) */
static __always_inline void ecp_gf_avx2_mul64(const u8 *src)
{
	asm volatile("vmovdqu %0, %%ymm0" : : "m" (ECP_IN32(src)));
	asm volatile("vmovdqu %0, %%ymm1" : : "m" (ECP_IN32(src + 32)));
	asm volatile("vpsrlw $4, %ymm0, %ymm2");
	asm volatile("vpsrlw $4, %ymm1, %ymm3");
	asm volatile("vpand %ymm7, %ymm0, %ymm0");
	asm volatile("vpand %ymm7, %ymm1, %ymm1");
	asm volatile("vpand %ymm7, %ymm2, %ymm2");
	asm volatile("vpand %ymm7, %ymm3, %ymm3");
	asm volatile("vpshufb %ymm0, %ymm4, %ymm0");
	asm volatile("vpshufb %ymm1, %ymm4, %ymm1");
	asm volatile("vpshufb %ymm2, %ymm5, %ymm2");
	asm volatile("vpshufb %ymm3, %ymm5, %ymm3");
	asm volatile("vpxor %ymm2, %ymm0, %ymm0");
	asm volatile("vpxor %ymm3, %ymm1, %ymm1");
}

/* ymm0 = c * src[0..32) */
static __always_inline void ecp_gf_avx2_mul32(const u8 *src)
{
	asm volatile("vmovdqu %0, %%ymm0" : : "m" (ECP_IN32(src)));
	asm volatile("vpsrlw $4, %ymm0, %ymm2");
	asm volatile("vpand %ymm7, %ymm0, %ymm0");
	asm volatile("vpand %ymm7, %ymm2, %ymm2");
	asm volatile("vpshufb %ymm0, %ymm4, %ymm0");
	asm volatile("vpshufb %ymm2, %ymm5, %ymm2");
	asm volatile("vpxor %ymm2, %ymm0, %ymm0");
}

static void ecp_gf_avx2_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
				const u8 *src, size_t len)
{
	ecp_gf_avx2_load(k);
	for (; len >= 64; len -= 64, src += 64, dst += 64) {
		ecp_gf_avx2_mul64(src);
		asm volatile("vpxor %0, %%ymm0, %%ymm0" : : "m" (ECP_IN32(dst)));
		asm volatile("vpxor %0, %%ymm1, %%ymm1" : : "m" (ECP_IN32(dst + 32)));
		asm volatile("vmovdqu %%ymm0, %0" : "=m" (ECP_OUT32(dst)));
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst + 32)));
	}
	if (len >= 32) {
		ecp_gf_avx2_mul32(src);
		asm volatile("vpxor %0, %%ymm0, %%ymm0" : : "m" (ECP_IN32(dst)));
		asm volatile("vmovdqu %%ymm0, %0" : "=m" (ECP_OUT32(dst)));
		len -= 32;
		src += 32;
		dst += 32;
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul_acc(k, dst, src, len);
}

static void ecp_gf_avx2_mul(const struct ecp_gf_coef *k, u8 *dst,
			    const u8 *src, size_t len)
{
	ecp_gf_avx2_load(k);
	for (; len >= 64; len -= 64, src += 64, dst += 64) {
		ecp_gf_avx2_mul64(src);
		asm volatile("vmovdqu %%ymm0, %0" : "=m" (ECP_OUT32(dst)));
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst + 32)));
	}
	if (len >= 32) {
		ecp_gf_avx2_mul32(src);
		asm volatile("vmovdqu %%ymm0, %0" : "=m" (ECP_OUT32(dst)));
		len -= 32;
		src += 32;
		dst += 32;
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul(k, dst, src, len);
}

void ecp_gf_avx2_xor(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		     size_t len)
{
	for (; len >= 64; len -= 64, src += 64, dst += 64) {
		asm volatile("vmovdqu %0, %%ymm0" : : "m" (ECP_IN32(src)));
		asm volatile("vmovdqu %0, %%ymm1" : : "m" (ECP_IN32(src + 32)));
		asm volatile("vpxor %0, %%ymm0, %%ymm0" : : "m" (ECP_IN32(dst)));
		asm volatile("vpxor %0, %%ymm1, %%ymm1" : : "m" (ECP_IN32(dst + 32)));
		asm volatile("vmovdqu %%ymm0, %0" : "=m" (ECP_OUT32(dst)));
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst + 32)));
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_xor(k, dst, src, len);
}

/* ymm(acc) ^= c * src[0..32) for the tables in ymm4/ymm5; ymm0, ymm1 scratch */
#define ECP_GF_AVX2_MAC32(src, acc)					\
	do {								\
		asm volatile("vmovdqu %0, %%ymm0" : : "m" (ECP_IN32(src))); \
		asm volatile("vpsrlw $4, %ymm0, %ymm1");		\
		asm volatile("vpand %ymm7, %ymm0, %ymm0");		\
		asm volatile("vpand %ymm7, %ymm1, %ymm1");		\
		asm volatile("vpshufb %ymm0, %ymm4, %ymm0");		\
		asm volatile("vpshufb %ymm1, %ymm5, %ymm1");		\
		asm volatile("vpxor %ymm0, %ymm" #acc ", %ymm" #acc);	\
		asm volatile("vpxor %ymm1, %ymm" #acc ", %ymm" #acc);	\
	} while (0)

static __always_inline void ecp_gf_avx2_tables(const struct ecp_gf_coef *k)
{
	asm volatile("vbroadcasti128 %0, %%ymm4" : : "m" (ECP_IN16(k->lo)));
	asm volatile("vbroadcasti128 %0, %%ymm5" : : "m" (ECP_IN16(k->hi)));
}

/* dst is read and written once per 128 bytes, held in ymm8..ymm11. */
static void ecp_gf_avx2_mul_acc_multi(const struct ecp_gf_coef *const k[],
				      u8 *dst, const u8 *const src[],
				      unsigned int n, size_t off, size_t len)
{
	size_t end = off + len;
	unsigned int j;

	asm volatile("vmovd %0, %%xmm7" : : "r" (0x0f0f0f0fU));
	asm volatile("vpbroadcastd %xmm7, %ymm7");
	for (; off + 128 <= end; off += 128) {
		u8 *d = dst + off;

		asm volatile("vmovdqu %0, %%ymm8" : : "m" (ECP_IN32(d)));
		asm volatile("vmovdqu %0, %%ymm9" : : "m" (ECP_IN32(d + 32)));
		asm volatile("vmovdqu %0, %%ymm10" : : "m" (ECP_IN32(d + 64)));
		asm volatile("vmovdqu %0, %%ymm11" : : "m" (ECP_IN32(d + 96)));
		for (j = 0; j < n; j++) {
			const u8 *s = src[j] + off;

			ecp_gf_avx2_tables(k[j]);
			ECP_GF_AVX2_MAC32(s, 8);
			ECP_GF_AVX2_MAC32(s + 32, 9);
			ECP_GF_AVX2_MAC32(s + 64, 10);
			ECP_GF_AVX2_MAC32(s + 96, 11);
		}
		asm volatile("vmovdqu %%ymm8, %0" : "=m" (ECP_OUT32(d)));
		asm volatile("vmovdqu %%ymm9, %0" : "=m" (ECP_OUT32(d + 32)));
		asm volatile("vmovdqu %%ymm10, %0" : "=m" (ECP_OUT32(d + 64)));
		asm volatile("vmovdqu %%ymm11, %0" : "=m" (ECP_OUT32(d + 96)));
	}
	for (; off + 32 <= end; off += 32) {
		asm volatile("vmovdqu %0, %%ymm8" : : "m" (ECP_IN32(dst + off)));
		for (j = 0; j < n; j++) {
			ecp_gf_avx2_tables(k[j]);
			ECP_GF_AVX2_MAC32(src[j] + off, 8);
		}
		asm volatile("vmovdqu %%ymm8, %0" : "=m" (ECP_OUT32(dst + off)));
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul_acc_multi(k, dst, src, n, off, end - off);
}

const struct ecp_gf_impl ecp_gf_avx2 = {
	.name = "avx2",
	.usable = ecp_gf_avx2_usable,
	.simd = true,
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_avx2_mul_acc,
		[ECP_GF_MUL] = ecp_gf_avx2_mul,
		[ECP_GF_XOR] = ecp_gf_avx2_xor,
	},
	.mul_acc_multi = ecp_gf_avx2_mul_acc_multi,
};
